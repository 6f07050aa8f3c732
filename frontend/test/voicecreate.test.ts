import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/lib/api';
import { cardsSpecVoice_apiValues } from '../src/lib/api.gen';
import { specOf, VOICE_APIS, voiceAPIOf, type CardView } from '../src/lib/engines';
import { FakeXHR } from './fakexhr';
import { cloneEngines, cloneForm, cloneMissing, designEngines, saveFormFor, voicesApi } from '../src/lib/voices';

const card = (name: string, extra: Partial<CardView> = {}): CardView => ({
  name, kind: 'tts', url: '', url_source: 'card', docker_url: '', key_configured: false, ...extra,
});

describe('voice APIs of engine cards', () => {
  it('the form offers every voice API of the document', () => {
    expect(VOICE_APIS.map((a) => a.id)).toEqual(cardsSpecVoice_apiValues.filter((v) => v));
    expect(voiceAPIOf({})).toBe('openai');
    expect(voiceAPIOf({ voice_api: '' })).toBe('openai');
  });
  it('a PUT sends every field back, voice_api for TTS cards only', () => {
    const c = card('cb', { base_url: 'http://e/v1', model: 'm', container: 'c', docker_host: 'd', voice_api: 'chatterbox' });
    expect(specOf(c, { model: 'n' })).toEqual({ kind: 'tts', base_url: 'http://e/v1', model: 'n', container: 'c', docker_host: 'd', voice_api: 'chatterbox' });
    expect(specOf(card('x'))).toEqual({ kind: 'tts', base_url: '', model: '', container: '', docker_host: '', voice_api: 'openai' });
    expect(specOf(card('llm', { kind: 'llm' }), { model: 'q' })).not.toHaveProperty('voice_api');
  });
});

describe('clone and design helpers', () => {
  it('cloning engines: TTS cards only, those that can clone first', () => {
    const cards = [card('plain'), card('llm', { kind: 'llm' }), card('cb', { voice_api: 'chatterbox' }), card('el', { voice_api: 'elevenlabs' })];
    expect(cloneEngines(cards).map((e) => [e.name, e.able])).toEqual([['cb', true], ['el', true], ['plain', false]]);
    expect(cloneEngines(cards)[2].label).toContain('cannot clone');
    expect(designEngines(cards).map((e) => e.name)).toEqual(['espeak-ng', 'el']);
  });
  it('Clone waits for an engine, a file, a name and consent', () => {
    const file = new File(['x'], 'a.wav');
    const ready = { engine: 'cb', name: 'Ann', file, consent: true };
    expect(cloneMissing(ready)).toBe('');
    expect(cloneMissing({ ...ready, consent: false })).toMatch(/Confirm/);
    expect(cloneMissing({ ...ready, name: '  ' })).toMatch(/Name/);
    expect(cloneMissing({ ...ready, file: null })).toMatch(/recording/);
    expect(cloneMissing({ ...ready, engine: '' })).toMatch(/engine card/);
  });
  it('the form sends the non-empty fields and the recording with its name', async () => {
    const file = new File([new Uint8Array([1, 2, 3])], 'me.wav', { type: 'audio/wav' });
    const f = cloneForm({ engine: 'cb', name: ' Ann ', consent: true, consent_by: '', transcript: 'Hi.' }, file);
    expect([...f.keys()]).toEqual(['engine', 'name', 'consent', 'transcript', 'audio']);
    expect(f.get('name')).toBe('Ann');
    expect(f.get('consent')).toBe('true');
    const audio = f.get('audio') as File;
    expect(audio.name).toBe('me.wav');
    expect([...new Uint8Array(await audio.arrayBuffer())]).toEqual([1, 2, 3]);
  });
  it('a chosen candidate pre-fills the save form but the name', () => {
    const form = saveFormFor({ engine: 'espeak-ng', description: 'warm' }, {
      generated_id: 'en-gb-scotland+f3', url: 'u', content_type: 'audio/wav', language: 'en-gb', accent: 'Scottish', gender: 'female', age: 'old',
    });
    expect(form).toEqual({ engine: 'espeak-ng', generated_id: 'en-gb-scotland+f3', name: '', description: 'warm', language: 'en-gb', accent: 'Scottish', gender: 'female', age: 'old' });
  });
});

describe('the clone upload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXHR.reset();
  });
  const file = new File(['RIFF'], 'me.wav', { type: 'audio/wav' });

  it('posts the form with the token, reports the upload, then the engine answer', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => 'tok-1', setItem: () => {}, removeItem: () => {} });
    vi.stubGlobal('XMLHttpRequest', FakeXHR);
    FakeXHR.answer = { status: 201, body: JSON.stringify({ id: 'v-1', name: 'Ann', source: 'clone' }) };
    const progress: number[] = [];
    const v = await voicesApi.clone({ engine: 'cb', name: 'Ann', consent: true }, file, (s) => progress.push(s));
    expect(v).toMatchObject({ id: 'v-1', source: 'clone' });
    expect(progress).toEqual([0.25, 1]);
    expect(FakeXHR.sent[0].url).toBe('api/voices/clone');
    expect(FakeXHR.sent[0].headers).toMatchObject({ Authorization: 'Bearer tok-1', Accept: 'application/json' });
    expect((FakeXHR.sent[0].body as FormData).get('audio')).toBeInstanceOf(File);
  });

  it('a refusal is an ApiError with the problem detail', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => '', setItem: () => {}, removeItem: () => {} });
    vi.stubGlobal('XMLHttpRequest', FakeXHR);
    FakeXHR.answer = { status: 422, body: JSON.stringify({ title: 'Unprocessable Entity', status: 422, detail: 'invalid voice: the recording lasts 3.0 s; a clone needs 5-60 s of speech' }) };
    const err = await voicesApi.clone({ engine: 'cb', name: 'Ann', consent: true }, file).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(422);
    expect(err.message).toContain('3.0 s');
  });
});

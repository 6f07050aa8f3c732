import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/lib/api';
import { canReread, engineLabel, ENGINES, recognizeBody, recognizedNote, reviewApi } from '../src/lib/review';
import type { Region } from '../src/lib/magazine';

afterEach(() => vi.unstubAllGlobals());

/** Stubs fetch with one answer and returns the recorded calls. */
function answer(status: number, body: unknown) {
  vi.stubGlobal('sessionStorage', { getItem: () => '', setItem: () => {}, removeItem: () => {} });
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('re-recognize', () => {
  it('offers the engines of the OCR chain in its order', () => {
    expect(ENGINES).toEqual(['text-layer', 'vision-primary', 'vision-fallback', 'tesseract']);
    expect(ENGINES.map(engineLabel)).toEqual(['PDF text layer', 'Vision OCR (primary)', 'Vision OCR (fallback)', 'Tesseract']);
    expect(engineLabel(undefined)).toBe('no engine recorded');
    expect(engineLabel('some-new-engine')).toBe('some-new-engine');
  });

  it('reads only text regions again: a picture is described, not read', () => {
    const r = (kind: Region['kind']): Region => ({ id: 'x', kind, bbox: [0, 0, 1, 1] });
    expect(canReread(r('paragraph'))).toBe(true);
    expect(canReread(r('headline'))).toBe(true);
    expect(canReread(r('noise'))).toBe(true);
    for (const k of ['image', 'figure', 'chart', 'table', 'code'] as const) expect(canReread(r(k))).toBe(false);
  });

  it('sends the page version shown as If-Match, and a region only when one is chosen', async () => {
    const fetch = answer(200, { engine: 'tesseract', revision: 4, undo_token: 't', page: { regions: [{ id: 'r1' }, { id: 'r2' }] } });
    const o = await reviewApi.recognize('abcdefgh12', 3, 17, 'tesseract');
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('api/magazine/abcdefgh12/pages/3/recognize');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['If-Match']).toBe('17');
    expect(JSON.parse(init.body as string)).toEqual({ engine: 'tesseract' });
    expect(recognizedNote(o)).toBe('Page read again with Tesseract: 2 regions.');

    answer(200, { engine: 'vision-primary', revision: 5, region: { id: 'r7', kind: 'paragraph', bbox: [0, 0, 1, 1] } });
    await reviewApi.recognize('abcdefgh12', 3, 18, 'vision-primary', 'r7').then((o) => {
      expect(recognizedNote(o)).toBe('Region r7 read again with Vision OCR (primary).');
    });
    expect(recognizeBody('text-layer', 'r7')).toEqual({ engine: 'text-layer', region_id: 'r7' });
  });

  it('a refusal throws the problem detail', async () => {
    answer(502, { title: 'Bad Gateway', status: 502, detail: 'vision-primary could not read page 3 (boom): the engine failed; nothing was changed' });
    const err = await reviewApi.recognize('abcdefgh12', 3, 17, 'vision-primary').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(502);
    expect(err.message).toContain('nothing was changed');
  });
});

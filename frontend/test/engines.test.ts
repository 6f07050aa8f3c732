import { afterEach, describe, expect, it, vi } from 'vitest';
import { cardsSpecKindValues, statusOutputBodyStatusValues } from '../src/lib/api.gen';
import { builtinStatus, cardNameError, enginesApi, filterModels, KINDS, statusBadge } from '../src/lib/engines';

describe('engine cards', () => {
  it('model search matches every word, case-insensitively', () => {
    const models = ['Qwen3-32B-Instruct', 'llama-3.3-70b', 'qwen2.5-vl-7b', 'whisper-large'];
    expect(filterModels(models, 'qwen')).toEqual(['Qwen3-32B-Instruct', 'qwen2.5-vl-7b']);
    expect(filterModels(models, 'QWEN vl')).toEqual(['qwen2.5-vl-7b']);
    expect(filterModels(models, '  ')).toEqual(models);
    expect(filterModels(models, 'gpt')).toEqual([]);
  });

  it('the form offers every card kind of the API, each with a label', () => {
    expect(KINDS.map((k) => k.id)).toEqual(cardsSpecKindValues);
    for (const k of KINDS) expect(k.label).not.toBe('');
  });

  it('every container state has a badge; "Not installed" says so', () => {
    for (const s of statusOutputBodyStatusValues) expect(statusBadge(s).text).not.toBe('Unknown');
    expect(statusBadge('not-installed')).toEqual({ cls: 'err', text: 'Not installed' });
    expect(statusBadge('running').cls).toBe('ok');
    expect(statusBadge(undefined).text).toBe('Unknown');
  });

  it('card names follow the server rule', () => {
    expect(cardNameError('gateway')).toBe('');
    expect(cardNameError('../x')).not.toBe('');
    expect(cardNameError('')).not.toBe('');
  });
});

describe('engines api', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fills the card name into the path, encoded', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => '' });
    const fetch = vi.fn(async () => new Response(JSON.stringify({ name: 'my card', status: 'running' })));
    vi.stubGlobal('fetch', fetch);
    expect(await enginesApi.control('my card', 'restart')).toBe('running');
    expect(fetch.mock.calls[0]).toEqual(['api/engines/my%20card/restart', expect.objectContaining({ method: 'POST' })]);
  });
});

describe('built-in engines', () => {
  it('a found engine shows its version, a missing one says so', () => {
    expect(builtinStatus({ found: true, version: '5.3.0' })).toBe('found · 5.3.0');
    expect(builtinStatus({ found: true, version: '' })).toBe('found');
    expect(builtinStatus({ found: false, version: '1.0' })).toBe('missing');
  });
});

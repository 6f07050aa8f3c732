import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/lib/api';
import {
  appendPage, genderAgeLabel, hashFor, isFiltered, languageLabel, NO_SEARCH, searchFromHash, searchParams, sourceLabel, voicesApi,
  type Voice,
} from '../src/lib/voices';

const voice = (id: string, extra: Partial<Voice> = {}): Voice => ({
  id, name: id, description: '', language: 'en', accent: '', gender: '', age: '', tags: [], source: 'builtin',
  engine: 'espeak-ng', engine_voice: id, created: '', updated: '', version: 1, ...extra,
});

describe('search in the URL hash', () => {
  it('round-trips every field through the hash, and the hash stays in the Voices section', async () => {
    // The router reads the page's location when it loads.
    vi.stubGlobal('location', { hash: '' });
    vi.stubGlobal('addEventListener', () => {});
    const { sectionFromHash } = await import('../src/lib/route.svelte');
    vi.unstubAllGlobals();
    const s = { q: 'warm voice', language: 'en-gb', gender: 'female', age: 'old', source: 'clone', engine: 'kokoro' } as const;
    const hash = hashFor(s);
    expect(hash).toBe('#/voices/?q=warm+voice&language=en-gb&gender=female&age=old&source=clone&engine=kokoro');
    expect(searchFromHash(hash)).toEqual(s);
    expect(sectionFromHash(hash)).toBe('voices');
  });
  it('is plain #/voices without a search', () => {
    expect(hashFor(NO_SEARCH)).toBe('#/voices');
    expect(searchFromHash('#/voices')).toEqual(NO_SEARCH);
    expect(hashFor({ ...NO_SEARCH, q: '   ' })).toBe('#/voices');
  });
  it('drops values the server would refuse', () => {
    expect(searchFromHash('#/voices/?gender=robot&age=ancient&source=x&q=hi')).toEqual({ ...NO_SEARCH, q: 'hi' });
  });
});

describe('search query', () => {
  it('sends only what is set, trimmed', () => {
    expect(searchParams({ ...NO_SEARCH, q: ' english ', gender: 'male' }).toString()).toBe('q=english&gender=male');
    expect(isFiltered(NO_SEARCH)).toBe(false);
    expect(isFiltered({ ...NO_SEARCH, engine: 'espeak-ng' })).toBe(true);
  });
});

describe('voice search calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  const token = (t: string) => vi.stubGlobal('sessionStorage', { getItem: () => t });

  it('asks for one page with filters, limit and offset and the token, and turns null items into []', async () => {
    token('secret-token');
    const seen: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      seen.push(url, (init.headers as Record<string, string>).Authorization);
      return new Response(JSON.stringify({ total: 0, count: 0, offset: 40, items: null, has_more: false, next_offset: null }), { status: 200 });
    });
    const page = await voicesApi.search({ ...NO_SEARCH, language: 'en', source: 'builtin' }, 40);
    expect(seen).toEqual(['api/voices?language=en&source=builtin&limit=20&offset=40', 'Bearer secret-token']);
    expect(page.items).toEqual([]);
  });
  it('throws the problem of a refused search', async () => {
    token('');
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ title: 'Unprocessable Entity', detail: 'validation failed', status: 422 }), { status: 422 }));
    const err = await voicesApi.search(NO_SEARCH).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).message).toContain('validation failed');
  });
});

describe('pages', () => {
  it('appends a page, skipping voices already shown', () => {
    const shown = [voice('a'), voice('b')];
    expect(appendPage(shown, [voice('b'), voice('c')]).map((v) => v.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('voice labels', () => {
  it('shows what is known of language, accent, gender and age', () => {
    expect(languageLabel({ language: 'en-gb', accent: 'Scottish' })).toBe('en-gb · Scottish');
    expect(languageLabel({ language: '', accent: '' })).toBe('language unknown');
    expect(genderAgeLabel({ gender: 'female', age: 'middle_aged' })).toBe('Female · Middle-aged');
    expect(genderAgeLabel({ gender: 'male', age: '' })).toBe('Male');
    expect(genderAgeLabel({ gender: '', age: '' })).toBe('');
    expect(sourceLabel('builtin')).toBe('Built-in');
  });
});

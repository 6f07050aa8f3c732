import { describe, expect, it } from 'vitest';
import { pickerLabel, pickerOrder, primaryLanguage, type Voice } from '../src/lib/voices';

const voice = (id: string, language: string, extra: Partial<Voice> = {}): Voice =>
  ({ id, name: id, language, accent: '', description: '', gender: '', age: '', tags: [], source: 'builtin', engine: 'espeak-ng', engine_voice: id, created: '', updated: '', version: 1, ...extra }) as Voice;

describe('voice picker order', () => {
  const list = [voice('fr', 'fr-fr'), voice('de', 'de'), voice('us', 'en-us'), voice('gb', 'en-gb'), voice('joe', 'en-us'), voice('none', '')];

  it('puts the default first, then the user language by its primary subtag, each in the order given', () => {
    expect(pickerOrder(list, 'en-GB', 'joe').map((v) => v.id)).toEqual(['joe', 'us', 'gb', 'fr', 'de', 'none']);
    expect(pickerOrder(list, 'fr', 'joe').map((v) => v.id)).toEqual(['joe', 'fr', 'de', 'us', 'gb', 'none']);
  });

  it('keeps a voice listed twice once (the language page and the whole list overlap)', () => {
    expect(pickerOrder([...list, voice('us', 'en-us')], 'de-AT').map((v) => v.id)).toEqual(['de', 'fr', 'us', 'gb', 'joe', 'none']);
  });

  it('reads primary subtags', () => {
    expect(primaryLanguage('en-US')).toBe('en');
    expect(primaryLanguage('pt_BR')).toBe('pt');
    expect(primaryLanguage('')).toBe('');
  });

  it('marks the default and a voice this instance cannot speak in', () => {
    expect(pickerLabel(voice('joe', 'en-us', { name: 'Joe (neural)', accent: 'America' }), 'joe')).toBe('Joe (neural) — en-us · America (default)');
    expect(pickerLabel(voice('joe', 'en-us', { name: 'Joe', unavailable: 'Piper is missing' }), 'x')).toBe('Joe — en-us (unavailable here)');
    expect(pickerLabel(voice('us', 'en-us'), 'joe')).toBe('us — en-us');
  });
});

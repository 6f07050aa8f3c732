// The voice library's API calls and the pure helpers of the Voices section:
// the search as the URL hash keeps it, the query string it sends, and how a
// voice's attributes read. Types come from the API document (voicesapi).
import { apiUrl, authHeaders, call, callQuery, sendWithProgress, type Listed, type Schemas } from './api';
import type { operations, paths } from './api.gen';
import { voiceAPIInfo, type CardView } from './engines';

export type Voice = Schemas['VoicesVoice'];
export type Preview = Schemas['VoicesPreview'];
/** A design's candidates, its preview list never null. */
export type Design = Listed<Schemas['VoicesDesign'], 'previews'>;
export type DesignCandidate = Schemas['VoicesDesignPreview'];
export type SaveDesign = Schemas['SaveDesignInputBody'];
/** POST /api/voices/clone's form fields but the recording, as the API document has them. */
export type CloneFields = Omit<paths['/api/voices/clone']['post']['requestBody'] extends { content: { 'multipart/form-data': infer F } } | undefined ? F : never, 'audio'>;
/** One page of a search, its items never null. */
export type Page = Listed<Schemas['VoicesResult'], 'items'>;
type SearchQuery = NonNullable<operations['search-voices']['parameters']['query']>;

export type Gender = NonNullable<SearchQuery['gender']>;
export type Age = NonNullable<SearchQuery['age']>;
export type Source = NonNullable<SearchQuery['source']>;

/** What the user searches for; "" is "any". */
export type Search = {
  q: string;
  language: string;
  gender: Gender | '';
  age: Age | '';
  source: Source | '';
  engine: string;
};

export const NO_SEARCH: Search = { q: '', language: '', gender: '', age: '', source: '', engine: '' };

export const GENDERS: readonly { id: Gender; label: string }[] = [
  { id: 'female', label: 'Female' },
  { id: 'male', label: 'Male' },
  { id: 'neutral', label: 'Neutral' },
];
export const AGES: readonly { id: Age; label: string }[] = [
  { id: 'young', label: 'Young' },
  { id: 'middle_aged', label: 'Middle-aged' },
  { id: 'old', label: 'Old' },
];
export const SOURCES: readonly { id: Source; label: string }[] = [
  { id: 'builtin', label: 'Built-in' },
  { id: 'engine', label: 'Engine' },
  { id: 'clone', label: 'Clone' },
  { id: 'design', label: 'Design' },
];

/** Voices a page asks for (the server allows 1–100). */
export const PAGE_SIZE = 20;

/** How long typing pauses before the search is sent. */
export const DEBOUNCE_MS = 250;

const oneOf = <T extends string>(list: readonly { id: T }[], v: string | null): T | '' =>
  list.some((x) => x.id === v) ? (v as T) : '';

/** The search a hash like #/voices/?q=english&language=en keeps; unknown values are dropped. */
export function searchFromHash(hash: string): Search {
  const at = hash.indexOf('?');
  const p = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  return {
    q: p.get('q') ?? '',
    language: p.get('language') ?? '',
    gender: oneOf(GENDERS, p.get('gender')),
    age: oneOf(AGES, p.get('age')),
    source: oneOf(SOURCES, p.get('source')),
    engine: p.get('engine') ?? '',
  };
}

/** The search's non-empty fields as a query string, trimmed, in a fixed order. */
export function searchParams(s: Search): URLSearchParams {
  const p = new URLSearchParams();
  for (const k of ['q', 'language', 'gender', 'age', 'source', 'engine'] as const satisfies readonly (keyof SearchQuery)[]) {
    const v = s[k].trim();
    if (v) p.set(k, v);
  }
  return p;
}

/** The hash that keeps a search: #/voices, or #/voices/?… (the section stays the hash's first segment). */
export function hashFor(s: Search): string {
  const q = searchParams(s).toString();
  return q ? `#/voices/?${q}` : '#/voices';
}

/** The search narrows the library (something is typed or chosen). */
export function isFiltered(s: Search): boolean {
  return searchParams(s).toString() !== '';
}

/** Adds a page to what is shown, skipping voices already there (the library may change between pages). */
export function appendPage(shown: readonly Voice[], page: readonly Voice[]): Voice[] {
  const seen = new Set(shown.map((v) => v.id));
  return [...shown, ...page.filter((v) => !seen.has(v.id))];
}

/** "English · Scottish" style: language tag and accent, whichever are known. */
export function languageLabel(v: Pick<Voice, 'language' | 'accent'>): string {
  return [v.language, v.accent].filter(Boolean).join(' · ') || 'language unknown';
}

/** "Female · Young"; the known parts only, "" when neither is known. */
export function genderAgeLabel(v: Pick<Voice, 'gender' | 'age'>): string {
  const g = GENDERS.find((x) => x.id === v.gender)?.label;
  const a = AGES.find((x) => x.id === v.age)?.label;
  return [g, a].filter(Boolean).join(' · ');
}

export function sourceLabel(s: Voice['source']): string {
  return SOURCES.find((x) => x.id === s)?.label ?? s;
}

/** The primary subtag of a BCP 47 tag, lower case: "en" for "en-US". */
export const primaryLanguage = (tag: string) => tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';

/**
 * The voices to pick from: those in the user's language (its primary
 * subtag, so en-GB finds en-us) first, the default voice first of all, each
 * group in the order given; a voice listed twice is kept once.
 */
export function pickerOrder(list: readonly Voice[], userLanguage: string, defaultId = ''): Voice[] {
  const lang = primaryLanguage(userLanguage);
  const seen = new Set<string>();
  const unique = list.filter((v) => !seen.has(v.id) && seen.add(v.id));
  const rank = (v: Voice) => (v.id === defaultId ? 0 : lang && primaryLanguage(v.language) === lang ? 1 : 2);
  return unique.map((v, i) => ({ v, i })).sort((a, b) => rank(a.v) - rank(b.v) || a.i - b.i).map((x) => x.v);
}

/** A voice as the picker lists it: name, language, and whether it is the default or cannot speak here. */
export function pickerLabel(v: Voice, defaultId: string): string {
  const marks = [v.id === defaultId ? 'default' : '', v.unavailable ? 'unavailable here' : ''].filter(Boolean);
  return `${v.name} — ${languageLabel(v)}${marks.length ? ` (${marks.join(', ')})` : ''}`;
}

export type DefaultVoice = Schemas['VoicesDefaultVoice'];

export const voicesApi = {
  /** This instance's default voice (the neural one where it can speak), and why not when it is not. */
  default: (): Promise<DefaultVoice> => call('get', '/api/voices/default', {}),
  /** One page of the search, from offset. */
  async search(s: Search, offset = 0, limit = PAGE_SIZE): Promise<Page> {
    const p = searchParams(s);
    p.set('limit', String(limit));
    if (offset) p.set('offset', String(offset));
    const r = await callQuery('/api/voices', {}, p);
    return { ...r, items: r.items ?? [] };
  },
  preview: (id: string) => call('post', '/api/voices/{id}/preview', { id }),
  /** Clones a voice from a recording (multipart, with upload progress 0..1). */
  async clone(fields: CloneFields, audio: File, onProgress: (sent: number) => void = () => {}): Promise<Voice> {
    const text = await sendWithProgress('POST', apiUrl('/api/voices/clone', {}), cloneForm(fields, audio), { ...authHeaders(), Accept: 'application/json' }, onProgress);
    return JSON.parse(text) as Voice;
  },
  design: (engine: string, description: string, text = ''): Promise<Design> =>
    call('post', '/api/voices/design', {}, { engine, description, text: text.trim() || undefined }).then((d) => ({ ...d, previews: d.previews ?? [] })),
  saveDesign: (body: SaveDesign) => call('post', '/api/voices/design/save', {}, body),
};

/** The clone's multipart body: every non-empty field, then the recording. */
export function cloneForm(fields: CloneFields, audio: File): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    const value = typeof v === 'string' ? v.trim() : String(v);
    if (value !== '' && v !== undefined) form.append(k, value);
  }
  form.append('audio', audio, audio.name);
  return form;
}

/** What the clone form still needs before Clone can be pressed ("" when ready). */
export function cloneMissing(f: { engine: string; name: string; file: File | null; consent: boolean }): string {
  if (!f.engine) return 'Add a TTS engine card whose voice API can clone (Chatterbox or ElevenLabs).';
  if (!f.file) return 'Choose a recording of the speaker.';
  if (!f.name.trim()) return 'Name the voice.';
  if (!f.consent) return 'Confirm the speaker agreed.';
  return '';
}

/** An engine a voice can be made on, and whether it can. */
export type EngineChoice = { name: string; label: string; able: boolean };

/** The TTS cards to clone on, those that can first, each labelled with its voice API. */
export function cloneEngines(cards: readonly CardView[]): EngineChoice[] {
  return cards
    .filter((c) => c.kind === 'tts')
    .map((c) => {
      const api = voiceAPIInfo(c);
      return { name: c.name, able: api.clone, label: `${c.name} — ${api.clone ? `can clone (${api.id})` : `cannot clone (${api.label})`}` };
    })
    .sort((a, b) => Number(b.able) - Number(a.able));
}

/** The engines to design on: espeak-ng offline first, then the TTS cards whose API designs. */
export function designEngines(cards: readonly CardView[]): EngineChoice[] {
  return [
    { name: BUILTIN_ENGINE, label: 'espeak-ng (offline)', able: true },
    ...cards.filter((c) => c.kind === 'tts' && voiceAPIInfo(c).design).map((c) => ({ name: c.name, label: `${c.name} (ElevenLabs)`, able: true })),
  ];
}

/** The built-in engine, espeak-ng: local mode, and bundled in the AWS functions that speak. */
export const BUILTIN_ENGINE = 'espeak-ng';

/** The save form a chosen candidate pre-fills: its suggestions, the design's description, no name yet. */
export function saveFormFor(d: Pick<Design, 'engine' | 'description'>, c: DesignCandidate): SaveDesign {
  return {
    engine: d.engine, generated_id: c.generated_id, name: '', description: d.description,
    language: c.language ?? '', accent: c.accent ?? '', gender: c.gender ?? '', age: c.age ?? '',
  };
}

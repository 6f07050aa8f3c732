// The Audiobook section's API calls and pure helpers: the books (upload a
// TXT or EPUB, read, delete), their segments page by page, a speaker set by
// hand on the book's revision (If-Match), the cast and its voices with the
// library's suggestions, the cast job (POST /api/attribute-spans: span or
// classic mode, as the browser's ab-span-mode says) and the render. The
// components only wire these. Types come from the API document.
import { ApiError, apiUrl, authHeaders, call, callIfMatch, callQuery, sendWithProgress, type Listed, type Schemas } from './api';
import type { Job } from './reader';

export type Book = Listed<Schemas['AudiobookapiBookView'], 'chapters' | 'cast'>;
export type Chapter = Schemas['AudiobookChapter'];
export type Counts = Schemas['AudiobookCounts'];
export type Segment = Schemas['AudiobookSegment'];
export type SegmentPage = Listed<Schemas['AudiobookSegmentPage'], 'items'>;
export type Character = Schemas['AudiobookCharacter'];
export type Summary = Schemas['AudiobookSummary'];
export type Suggestions = Schemas['AudiobookSuggestions'];
export type SuggestedVoice = Schemas['AudiobookSuggestedVoice'];
export type RenderView = Schemas['AudiobookapiRenderView'];
export type CastMode = 'span' | 'classic';

const bookPath = '/api/audiobook/books/{book}';

/** A book view with its lists never null (Go sends a nil slice as null). */
const listed = (b: Schemas['AudiobookapiBookView']): Book => ({ ...b, chapters: b.chapters ?? [], cast: b.cast ?? [] });

/** A book after a cast edit, with how many lines changed speaker. */
export type CastEdited = { book: Book; changed: number };
export type Gender = '' | 'female' | 'male';
const edited = (v: Schemas['AudiobookapiCastEditView']): CastEdited => ({ book: listed(v), changed: v.changed_lines });

export const audiobookApi = {
  list: async (): Promise<Summary[]> => (await call('get', '/api/audiobook/books', {})).books ?? [],
  /** Uploads a TXT or EPUB (multipart, with upload progress 0..1): the server checks it and answers the book importing
   *  (status importing); its import job splits and casts it by rules, then the book is ready or failed (with its error). */
  async upload(file: File, onProgress: (sent: number) => void = () => {}): Promise<Book> {
    const form = new FormData();
    form.append('file', file, file.name);
    const text = await sendWithProgress('POST', apiUrl('/api/audiobook/books', {}), form, { ...authHeaders(), Accept: 'application/json' }, onProgress);
    return listed(JSON.parse(text));
  },
  get: async (book: string): Promise<Book> => listed(await call('get', bookPath, { book })),
  remove: (book: string) => call('delete', bookPath, { book }),
  /** One page of segments with their text: a chapter's (chapter >= 0) or the whole book's, only disputed lines on request,
   *  or (leastCertain) the book's dialogue lines with the least certain first. */
  async segments(book: string, q: { chapter?: number; disputed?: boolean; leastCertain?: boolean; offset?: number; limit?: number }): Promise<SegmentPage> {
    const p = new URLSearchParams();
    if (q.chapter !== undefined && q.chapter >= 0) p.set('chapter', String(q.chapter));
    if (q.disputed) p.set('disputed', 'true');
    if (q.leastCertain) p.set('sort', 'confidence');
    p.set('limit', String(q.limit ?? SEGMENT_PAGE));
    if (q.offset) p.set('offset', String(q.offset));
    const r = await callQuery(`${bookPath}/segments`, { book }, p);
    return { ...r, items: r.items ?? [] };
  },
  /** Sets a line's speaker by hand on the revision shown: a book that changed since answers 409. */
  setSpeaker: (book: string, segment: string, revision: number, speaker: string) =>
    callIfMatch(revision, 'put', `${bookPath}/segments/{segment}/speaker`, { book, segment }, { speaker }),
  /** Cast edits, on the book's revision (a book that changed since answers 409): the lines are attributed again. */
  merge: async (book: string, revision: number, keep: string, from: string): Promise<CastEdited> =>
    edited(await callIfMatch(revision, 'post', `${bookPath}/cast/{character}/merge`, { book, character: keep }, { from })),
  splitAlias: async (book: string, revision: number, character: string, alias: string): Promise<CastEdited> =>
    edited(await callIfMatch(revision, 'post', `${bookPath}/cast/{character}/split`, { book, character }, { alias })),
  rename: async (book: string, revision: number, character: string, name: string): Promise<CastEdited> =>
    edited(await callIfMatch(revision, 'put', `${bookPath}/cast/{character}/name`, { book, character }, { name })),
  setGender: async (book: string, revision: number, character: string, gender: Gender): Promise<CastEdited> =>
    edited(await callIfMatch(revision, 'put', `${bookPath}/cast/{character}/gender`, { book, character }, { gender })),
  setVoice: (book: string, character: string, voiceID: string) => call('put', `${bookPath}/cast/{character}/voice`, { book, character }, { voice_id: voiceID }),
  setNarrator: async (book: string, voiceID: string): Promise<Book> => listed(await call('put', `${bookPath}/narrator`, { book }, { voice_id: voiceID })),
  suggestions: async (book: string): Promise<Suggestions> => {
    const s = await call('get', `${bookPath}/voice-suggestions`, { book });
    return { narrator: s.narrator ?? [], characters: (s.characters ?? []).map((c) => ({ ...c, voices: c.voices ?? [] })) };
  },
  /** Starts the cast job (the LLM from Settings): 202 with the job to follow. */
  cast: (book: string, mode: CastMode, verify: boolean) => call('post', '/api/attribute-spans', {}, { book_id: book, mode, verify }),
  /** Starts the render at a speed (1 is normal). */
  /** check true hears every sentence with the ear (speech recognition), which is off by default. */
  /** Voices the book, or only chapter `chapter` (its MP3, in place of the last
   *  render's); check undefined follows Settings (ear_check) when the render runs. */
  startRender: (book: string, speed = 1, check?: boolean, chapter?: number) =>
    call('post', `${bookPath}/render`, { book }, {
      ...(speed === 1 ? {} : { speed }), ...(check === undefined ? {} : { check }), ...(chapter === undefined ? {} : { chapter }),
    }),
  /** Where each sentence of a chapter's MP3 is. */
  chapterTimings: (book: string, chapter: number) => call('get', `${bookPath}/render/chapters/{chapter}/timings`, { book, chapter }),
  /** The book's last render, or null when it was never rendered. */
  async render(book: string): Promise<RenderView | null> {
    try {
      return await call('get', `${bookPath}/render`, { book });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }
  },
  voice: (id: string) => call('get', '/api/voices/{id}', { id }),
};

/** The largest upload the server takes (audiobook.MaxUploadBytes). */
export const MAX_UPLOAD_BYTES = 4 << 20;

/** Why a file cannot be uploaded, before sending it ("" when it can). */
export function uploadProblem(f: Pick<File, 'name' | 'size'>): string {
  if (f.size === 0) return `${f.name} is empty.`;
  if (f.size > MAX_UPLOAD_BYTES) return `${f.name} is larger than 4 MiB, the most a book may have.`;
  if (!/\.(txt|epub)$/i.test(f.name)) return `${f.name} is not a .txt or .epub file.`;
  return '';
}

/** Segments a page asks for (the server allows 1–500). */
export const SEGMENT_PAGE = 400;

/** Where the browser keeps the casting engine (service.md, Settings): "0" is classic, any other state span mode. */
export const SPAN_MODE_KEY = 'ab-span-mode';

/** The casting engine a stored ab-span-mode value selects: exactly 0 is classic, anything else (absent, 1, junk) span mode. */
export function castModeFrom(raw: string | null | undefined): CastMode {
  return raw != null && raw.trim() === '0' ? 'classic' : 'span';
}

export function loadCastMode(s: Pick<Storage, 'getItem'> | undefined): CastMode {
  try {
    return castModeFrom(s?.getItem(SPAN_MODE_KEY));
  } catch {
    return 'span'; // storage refused (privacy mode): the default
  }
}

/** Stores the casting engine: "0" for classic, "1" for span mode. */
export function saveCastMode(s: Pick<Storage, 'setItem'> | undefined, mode: CastMode): void {
  try {
    s?.setItem(SPAN_MODE_KEY, mode === 'classic' ? '0' : '1');
  } catch {
    // The choice still holds for this page.
  }
}

/** The colours a speaker's lines are drawn in: a light background, a darker
 *  underline of the same hue, and text that reads on it in both themes. */
export type SpeakerColour = { bg: string; border: string; fg: string };

/** Twelve hues far enough apart to tell apart, each in two tints. */
const HUES = [0, 28, 50, 90, 135, 165, 190, 212, 240, 270, 295, 325];
const TINTS = [88, 80];
export const PALETTE_SIZE = HUES.length * TINTS.length;
const TEXT = '#1d1d1f';

/** FNV-1a over the speaker's name as the server compares names (case and spacing ignored). */
function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (const ch of name.trim().toLowerCase().replace(/\s+/g, ' ')) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The palette slot of a speaker: from the name alone, so the same speaker
 *  has the same colour in every chapter, book and reload. */
export const colourIndex = (name: string) => hashName(name) % PALETTE_SIZE;

/** The colours of a speaker's lines; a line with no speaker is grey. */
export function speakerColour(name: string | undefined): SpeakerColour {
  if (!name?.trim()) return { bg: hslHex(0, 0, 90), border: hslHex(0, 0, 45), fg: TEXT };
  const i = colourIndex(name);
  const hue = HUES[i % HUES.length];
  const light = TINTS[Math.floor(i / HUES.length)];
  return { bg: hslHex(hue, 85, light), border: hslHex(hue, 65, 32), fg: TEXT };
}

/** An HSL colour as #rrggbb. */
export function hslHex(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255).toString(16).padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** WCAG contrast ratio of two #rrggbb colours (1..21). */
export function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/** A piece of a paragraph: the part of one segment that lies in it (part
 *  0 is where the segment begins; a segment across a paragraph break has more). */
export type Piece = { seg: Segment; text: string; part: number };
/** A paragraph of the book as the text view draws it. */
export type Paragraph = { key: string; chapter: number; pieces: Piece[] };

const PARAGRAPH_BREAK = /\r?\n[ \t]*\r?\n\s*/;

/**
 * Segments in text order as paragraphs: a blank line in a segment's text
 * ends a paragraph (narration often spans several; a long quotation may
 * too), and a new chapter starts one. Whitespace runs read as one space;
 * paragraphs are trimmed and empty pieces dropped, so the text reads as
 * written without the file's line wrapping.
 */
export function groupParagraphs(segs: readonly Segment[]): Paragraph[] {
  const out: Paragraph[] = [];
  let cur: Paragraph | null = null;
  for (const seg of segs) {
    if (cur && cur.chapter !== seg.chapter) cur = null;
    const parts = (seg.text ?? '').split(PARAGRAPH_BREAK);
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) cur = null;
      const text = parts[i].replace(/\s+/g, ' ');
      if (!cur) {
        if (!text.trim()) continue; // nothing to start a paragraph with
        cur = { key: `${seg.id}/${i}`, chapter: seg.chapter, pieces: [] };
        out.push(cur);
      }
      if (text) cur.pieces.push({ seg, text, part: i });
    }
  }
  for (const p of out) {
    p.pieces[0].text = p.pieces[0].text.trimStart();
    const last = p.pieces[p.pieces.length - 1];
    last.text = last.text.trimEnd();
    p.pieces = p.pieces.filter((x) => x.text !== '');
  }
  return out.filter((p) => p.pieces.length > 0);
}

/** The paragraphs of a chapter without its heading, which the view shows as
 *  the chapter's title already: the leading narration paragraphs (one, or the
 *  heading and its title line) whose words are the title's. */
export function withoutHeading(paragraphs: readonly Paragraph[], title: string): Paragraph[] {
  const words = (t: string) => t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const want = words(title);
  let seen = '';
  for (let i = 0; i < paragraphs.length && want; i++) {
    const p = paragraphs[i];
    if (p.pieces.some((x) => x.seg.kind !== 'narration')) break;
    seen += words(p.pieces.map((x) => x.text).join(' '));
    if (seen === want) return paragraphs.slice(i + 1);
    if (!want.startsWith(seen)) break;
  }
  return [...paragraphs];
}

/** Adds a page of segments to those shown, skipping any already there (a page read after an edit may overlap). */
export function appendSegments(shown: readonly Segment[], page: readonly Segment[]): Segment[] {
  const seen = new Set(shown.map((s) => s.id));
  return [...shown, ...page.filter((s) => !seen.has(s.id))];
}

/** The segments with one replaced by its new state (a speaker set by hand). */
export const replaceSegment = (segs: readonly Segment[], next: Segment) => segs.map((s) => (s.id === next.id ? { ...s, ...next, text: next.text ?? s.text } : s));

/** A segment's place in its chapter, from its id (c03-s0042 is the chapter's segment 42); null for another id. */
export function segmentPosition(id: string): number | null {
  const m = /^c\d{2,4}-[sk](\d{4,6})$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** The section's place, from the hash: #/audiobook, #/audiobook/<book>, #/audiobook/<book>/<chapter index>. */
export function parseAudiobookHash(hash: string): { book?: string; chapter?: number } {
  const parts = hash.replace(/^#\/?/, '').split(/[/?]/);
  if (parts[0] !== 'audiobook' || !/^[a-z0-9]{8,40}$/.test(parts[1] ?? '')) return {};
  const ch = /^\d{1,3}$/.test(parts[2] ?? '') ? Number(parts[2]) : undefined;
  return ch === undefined ? { book: parts[1] } : { book: parts[1], chapter: ch };
}

/** The player's key of a book chapter (its remembered place is kept under it). */
export const chapterKey = (book: string, chapter: number) => `chapter:${book}/${chapter}`;

/** The chapter of this book a player key names, or null. */
export function chapterOfKey(book: string, key: string | undefined): number | null {
  const prefix = `chapter:${book}/`;
  if (!key?.startsWith(prefix)) return null;
  const n = Number(key.slice(prefix.length));
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/**
 * The id of the segment a chapter render's sentence is in: the render
 * numbers the chapter's segments that have something to say (blank ones are
 * not spoken), in text order. Null when that segment is not among those
 * loaded (a later page) or the number is unknown.
 */
export function spokenSegment(segs: readonly Pick<Segment, 'id' | 'text'>[], k: number | undefined): string | null {
  if (k === undefined || k < 0) return null;
  let n = 0;
  for (const s of segs) {
    if (!s.text?.trim()) continue;
    if (n === k) return s.id;
    n++;
  }
  return null;
}

/** A piece's text cut around the sentence being spoken, when the sentence lies in it (whitespace read as one space). */
export function cutAround(text: string, sentence: string): [string, string, string] | null {
  const want = sentence.replace(/\s+/g, ' ').trim();
  const at = want ? text.indexOf(want) : -1;
  return at < 0 ? null : [text.slice(0, at), want, text.slice(at + want.length)];
}

/** The most recently left chapter of a book with a remembered place: where "Continue listening" starts. */
export function latestPlace<T extends { at: number }>(places: ReadonlyMap<number, T | null>): { chapter: number; place: T } | null {
  let best: { chapter: number; place: T } | null = null;
  for (const [chapter, place] of places) if (place && (!best || place.at > best.place.at)) best = { chapter, place };
  return best;
}

export const bookHash = (book: string, chapter?: number) => `#/audiobook/${book}${chapter === undefined ? '' : `/${chapter}`}`;

/** "83%" */
export const percent = (x: number | undefined) => `${Math.round((x ?? 0) * 1000) / 10}%`;

const SOURCES: Record<string, string> = {
  explicit: 'named in the text',
  pronoun: 'a pronoun tag',
  paragraph: 'the paragraph',
  turn: 'turn-taking',
  llm: 'the LLM',
  classic: 'the LLM (classic mode)',
  hand: 'set by hand',
  none: 'not found',
};

/** How a line's speaker was found, in words. */
export const sourceLabel = (source: string | undefined) => SOURCES[source ?? ''] ?? source ?? 'not found';

/** The cast's names for the speaker list: most lines first, the line's current speaker kept even if the cast lacks it. */
export function speakerChoices(cast: readonly Character[], current: string | undefined): string[] {
  const names = [...cast].sort((a, b) => b.lines - a.lines || b.mentions - a.mentions || a.name.localeCompare(b.name)).map((c) => c.name);
  return current && !names.includes(current) ? [current, ...names] : names;
}

/** What the section says once a cast job ended. */
export function castNote(job: Pick<Job, 'status' | 'error' | 'result'>): { ok: boolean; text: string } {
  if (job.status === 'failed') return { ok: false, text: `Casting failed: ${job.error || 'the job failed'}` };
  const r = (job.result ?? {}) as { mode?: string; requests?: number; asked_spans?: number; verify_requests?: number; agreed?: number; disputed?: number; kept_hand_set?: number };
  const parts = [`Cast in ${r.mode === 'classic' ? 'classic' : 'span'} mode: ${r.requests ?? 0} LLM request(s)`];
  if (r.mode !== 'classic') parts[0] += ` about ${r.asked_spans ?? 0} line(s) the rules left`;
  if (r.verify_requests) parts.push(`verified with ${r.verify_requests} request(s): ${r.agreed ?? 0} agreed, ${r.disputed ?? 0} disputed`);
  if (r.kept_hand_set) parts.push(`${r.kept_hand_set} speaker(s) set by hand kept`);
  return { ok: true, text: `${parts.join('; ')}.` };
}

/** What a book's import shows: nothing once ready; while importing, the job's step and progress;
 *  failed, the reason the server recorded (a sentence: its own fault, or that the import stopped). */
export function importNote(b: Pick<Book, 'status' | 'error' | 'filename'> & { import_job_status?: Pick<Job, 'status' | 'progress' | 'message'> }):
  { state: Book['status']; text: string } {
  if (b.status === 'ready') return { state: 'ready', text: '' };
  if (b.status === 'failed') return { state: 'failed', text: `The import failed: ${(b.error || 'no reason was recorded').replace(/\.?$/, '.')}` };
  const j = b.import_job_status;
  if (!j || j.status === 'queued') return { state: 'importing', text: `Importing ${b.filename}: waiting to start…` };
  return { state: 'importing', text: `Importing ${b.filename}: ${j.message || 'working'} (${Math.round((j.progress ?? 0) * 100)}%)…` };
}

/** A render or job has ended. */
export const ended = (s: { status: string } | null | undefined) => s?.status === 'succeeded' || s?.status === 'failed';

/** A path the server answered ("/api/…") as a link relative to the page (the app may be served under a prefix). */
export const relative = (path: string) => path.replace(/^\/+/, '');

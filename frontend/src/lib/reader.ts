// The article reader's pure logic: what an article reads, in order (the
// server's magazine.ReadingSequence and magazine.Spoken, so the page shows
// what Listen speaks), figures and their descriptions, the remembered
// choices (descriptions on/off, narrator), and where a spoken chunk sits in
// the text so the reader can highlight it. Reader.svelte only wires these.
import { ApiError, apiUrl, call, callIfMatch, type Schemas } from './api';
import type { Page, Region } from './magazine';
import type { Article, RegionRef } from './review';

export type Job = Schemas['JobsapiView'];
export type JobStarted = Schemas['JobStartedOutBody'];

/** One piece of the reading text: a region as the reader shows it. */
export type Block = {
  /** Unique in the article: "<page>-<region id>", the image id for pictures. */
  key: string;
  ref: RegionRef;
  kind: Region['kind'];
  /** The region's text, whitespace collapsed as the renderer speaks it ("" for a silent picture). */
  text: string;
  /** A picture: its description (collapsed), crop URL and the page version for edits. */
  figure?: { description: string; crop: string; version: number };
};

/** Kinds read aloud (Go's magazine.Kinds with Read). */
const READ: ReadonlySet<string> = new Set(['headline', 'deck', 'subhead', 'byline', 'paragraph', 'list', 'caption', 'pull-quote', 'sidebar', 'table']);
/** Picture kinds (Go's magazine.Kinds with Visual): they may be described. */
const VISUAL: ReadonlySet<string> = new Set(['image', 'figure', 'chart', 'table', 'code']);

export const isVisual = (kind: string) => VISUAL.has(kind);

/** Whitespace as the renderer leaves it: single spaces, trimmed. */
export const collapse = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** A picture's id in the API: "<page>-<region id>". */
export const imageId = (ref: RegionRef) => `${ref.page}-${ref.region}`;

/**
 * What an article reads, in order: its regions, with each picture of its
 * image list that is not among them placed where it occurs in the pages'
 * reading order (after the last region read before it). The same rule as
 * the server's magazine.ReadingSequence.
 */
export function readingSequence(a: Pick<Article, 'regions' | 'images'>, pages: ReadonlyMap<number, Pick<Page, 'order'>>): RegionRef[] {
  const at = (r: RegionRef) => ({ page: r.page, index: (pages.get(r.page)?.order ?? []).indexOf(r.region) });
  const before = (x: { page: number; index: number }, y: { page: number; index: number }) => x.page < y.page || (x.page === y.page && x.index < y.index);
  const same = (x: RegionRef, y: RegionRef) => x.page === y.page && x.region === y.region;
  const seq = [...(a.regions ?? [])];
  const extra: RegionRef[] = [];
  for (const img of a.images ?? []) {
    if (at(img).index >= 0 && !seq.some((r) => same(r, img)) && !extra.some((r) => same(r, img))) extra.push(img);
  }
  extra.sort((x, y) => (before(at(x), at(y)) ? -1 : before(at(y), at(x)) ? 1 : 0));
  for (const img of extra) {
    const pi = at(img);
    let insert = 0;
    seq.forEach((r, i) => {
      const pr = at(r);
      if (pr.index >= 0 && before(pr, pi)) insert = i + 1;
    });
    seq.splice(insert, 0, img);
  }
  return seq;
}

/** Same words, case and a closing stop aside (the server's readaloud.sameWords). */
export const sameWords = (x: string, y: string) => {
  const norm = (s: string) => collapse(s.trim().replace(/[.!?…]+$/, '')).toLowerCase();
  return norm(x) === norm(y);
};

/**
 * The reader's blocks, as the narrator reads them (the server's
 * readaloud.Narration): the title first, then every region of the sequence
 * that exists, read or pictured; a first headline that only repeats the
 * title is not shown twice.
 */
export function readerBlocks(doc: string, a: Pick<Article, 'regions' | 'images' | 'title'>, pages: ReadonlyMap<number, Page>): Block[] {
  const out: Block[] = [];
  const title = collapse(a.title);
  if (title) out.push({ key: 'title', ref: { page: 0, region: '' }, kind: 'headline', text: title });
  for (const ref of readingSequence(a, pages)) {
    const page = pages.get(ref.page);
    const r = page?.regions.find((g) => g.id === ref.region);
    if (!page || !r) continue;
    const text = READ.has(r.kind) ? collapse(r.text) : '';
    const block: Block = { key: imageId(ref), ref, kind: r.kind, text };
    if (VISUAL.has(r.kind)) {
      block.figure = {
        description: collapse(r.description),
        crop: r.crop_key ? apiUrl('/api/magazine/{doc}/pages/{page}/crops/{region}', { doc, page: ref.page, region: r.id }) : '',
        version: page.version,
      };
    }
    if (!block.text && !block.figure) continue;
    if (out.length === 1 && title && r.kind === 'headline' && sameWords(block.text, title)) continue;
    out.push(block);
  }
  return out;
}

/** The pages an article touches (regions and pictures), each once, in order. */
export function articlePages(a: Pick<Article, 'regions' | 'images'>): number[] {
  return [...new Set([...(a.regions ?? []), ...(a.images ?? [])].map((r) => r.page))].sort((x, y) => x - y);
}

/** Approved articles first, then the rest, each group in the order. */
export function approvedFirst<T extends Pick<Article, 'approved'>>(articles: readonly T[]): T[] {
  return [...articles.filter((a) => a.approved), ...articles.filter((a) => !a.approved)];
}

/** Where a spoken piece of text sits: a block and a character range of the text shown for it. */
export type Spot = { block: string; part: 'text' | 'description'; start: number; end: number };

/**
 * Finds a chunk's text in the blocks as they are spoken (a picture's
 * description, when descriptions are read, before its text), searching
 * from the last spot on so a sentence that occurs twice is found where
 * the speaker is; null when the text is not on the page.
 */
export function locate(blocks: readonly Block[], spoken: string, descriptions: boolean, after: Spot | null = null): Spot | null {
  const want = collapse(spoken);
  if (!want) return null;
  const parts: { block: string; part: Spot['part']; text: string }[] = [];
  for (const b of blocks) {
    if (descriptions && b.figure?.description) parts.push({ block: b.key, part: 'description', text: b.figure.description });
    if (b.text) parts.push({ block: b.key, part: 'text', text: b.text });
  }
  const from = after ? parts.findIndex((p) => p.block === after.block && p.part === after.part) : -1;
  // The narrator ends a title with a full stop the page does not show.
  const bare = want.replace(/\.$/, '');
  const search = (i: number, offset: number): Spot | null => {
    for (const w of bare && bare !== want ? [want, bare] : [want]) {
      const at = parts[i].text.indexOf(w, offset);
      if (at >= 0) return { block: parts[i].block, part: parts[i].part, start: at, end: at + w.length };
    }
    return null;
  };
  if (from >= 0) {
    const here = search(from, after!.end);
    if (here) return here;
    for (let i = from + 1; i < parts.length; i++) {
      const s = search(i, 0);
      if (s) return s;
    }
  }
  for (let i = 0; i < parts.length; i++) {
    const s = search(i, 0);
    if (s) return s;
  }
  return null;
}

/**
 * Which of the spoken sentences a click at `offset` in a block's text falls
 * in: each sentence is located in turn (as the highlight does), and the
 * first one on that block that ends after the offset is the one. null when
 * none does yet (the sentence may not be spoken so far).
 */
export function sentenceAtSpot(blocks: readonly Block[], spoken: readonly string[], descriptions: boolean, block: string, offset: number): number | null {
  let spot: Spot | null = null;
  for (let i = 0; i < spoken.length; i++) {
    const found = locate(blocks, spoken[i], descriptions, spot);
    if (!found) continue; // a sentence the page does not show (the title's full stop…)
    spot = found;
    if (found.block === block && found.part === 'text' && found.end > offset) return i;
  }
  return null;
}

/** A text cut around a highlighted range: before, the range, after (the range empty when spot is not in it). */
export function cut(text: string, spot: Pick<Spot, 'start' | 'end'> | null): [string, string, string] {
  if (!spot || spot.start < 0 || spot.end > text.length || spot.start >= spot.end) return [text, '', ''];
  return [text.slice(0, spot.start), text.slice(spot.start, spot.end), text.slice(spot.end)];
}

/** How many sentences a text has (ends of . ! ? followed by space or the end). */
export function sentenceCount(text: string): number {
  const t = collapse(text);
  if (!t) return 0;
  return t.split(/(?<=[.!?]["')\]]?)\s+(?=\S)/).length;
}

/** Why a hand-written description cannot be saved ("" when it can): one or two sentences, or empty to clear. */
export function descriptionProblem(text: string): string {
  const n = sentenceCount(text);
  if (n > 2) return `A description is one or two sentences; this has ${n}.`;
  if (collapse(text).length > 600) return 'A description is at most 600 characters.';
  return '';
}

// ---- remembered choices --------------------------------------------------

export const DESCRIPTIONS_KEY = 'lectern.reader.descriptions';
export const NARRATOR_KEY = 'lectern.reader.narrator';
export const HOSTS_KEY = 'lectern.reader.hosts';

type Get = Pick<Storage, 'getItem'> | undefined;
type Set = Pick<Storage, 'setItem'> | undefined;

function read(storage: Get, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: Set, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // Private mode or a full quota: the choice holds for this page only.
  }
}

/** "Read figure descriptions": off unless the user turned it on. */
export const loadDescriptions = (s: Get) => read(s, DESCRIPTIONS_KEY) === '1';
export const saveDescriptions = (s: Set, on: boolean) => write(s, DESCRIPTIONS_KEY, on ? '1' : '0');

/** The narrator last chosen: a voice id and its name, or null. */
export type Narrator = { id: string; name: string };

export function loadNarrator(s: Get): Narrator | null {
  try {
    const v = JSON.parse(read(s, NARRATOR_KEY) ?? 'null') as Narrator | null;
    return v && typeof v.id === 'string' && v.id && typeof v.name === 'string' ? { id: v.id, name: v.name } : null;
  } catch {
    return null;
  }
}

export const saveNarrator = (s: Set, n: Narrator) => write(s, NARRATOR_KEY, JSON.stringify({ id: n.id, name: n.name }));

// ---- describe jobs ---------------------------------------------------------

/** The API's describe calls and the job poll. */
export const readerApi = {
  describe: (doc: string, image: string) => call('post', '/api/magazine/{doc}/images/{image_id}/describe', { doc, image_id: image }),
  describeArticle: (doc: string, article: string, redo = false) =>
    call('post', '/api/magazine/{doc}/articles/{article}/describe', { doc, article }, { redo }),
  setDescription: (doc: string, image: string, version: number, description: string) =>
    callIfMatch(version, 'patch', '/api/magazine/{doc}/images/{image_id}', { doc, image_id: image }, { description }),
  job: (id: string) => call('get', '/api/jobs/{id}', { id }),
};

/** One picture's outcome in a describe job's result. */
export type ImageOutcome = { image: string; outcome: 'described' | 'empty' | 'kept' | 'failed'; description?: string; engine?: string; reason?: string };

/** A describe job's result, read defensively (its shape is the job kind's). */
export function describeResult(job: Pick<Job, 'result'>): { images: ImageOutcome[]; described: number; total: number } {
  const r = (job.result ?? {}) as { images?: ImageOutcome[] | null; described?: number; total?: number };
  return { images: r.images ?? [], described: r.described ?? 0, total: r.total ?? 0 };
}

/** What the reader says once a describe job ended. */
export function describeNote(job: Pick<Job, 'status' | 'error' | 'result'>): { ok: boolean; text: string } {
  if (job.status === 'failed') return { ok: false, text: `Describing failed: ${job.error || 'the engine did not answer'}` };
  const r = describeResult(job);
  const failed = r.images.filter((i) => i.outcome === 'failed');
  const empty = r.images.filter((i) => i.outcome === 'empty').length;
  const kept = r.images.filter((i) => i.outcome === 'kept').length;
  if (r.total === 0 && !r.images.length) return { ok: true, text: 'Every figure already has a description.' };
  const parts = [`Described ${r.described} of ${r.total || r.images.length} ${(r.total || r.images.length) === 1 ? 'figure' : 'figures'}`];
  if (empty) parts.push(`${empty} got no answer (nothing stored)`);
  if (kept) parts.push(`${kept} edited meanwhile (the edit was kept)`);
  if (failed.length) parts.push(`${failed.length} failed: ${failed[0].reason || 'no reason given'}`);
  return { ok: failed.length === 0 && (r.described > 0 || kept > 0), text: `${parts.join('; ')}.` };
}

/** A job has ended: polling stops. */
export const jobDone = (j: Pick<Job, 'status'>) => j.status === 'succeeded' || j.status === 'failed';

/**
 * Follows a job until it ends: onUpdate sees each state; the ended job is
 * returned (failed ones too: the caller says why). No answer from the
 * server is retried (the banner tells); a 4xx (the job is gone) throws.
 */
export async function followJob(id: string, onUpdate: (j: Job) => void = () => {}, wait = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<Job> {
  for (let attempt = 0; ; attempt++) {
    await wait(Math.min(1000, 150 * 2 ** Math.min(attempt, 3)));
    let j: Job;
    try {
      j = await readerApi.job(id);
    } catch (e) {
      // No answer (status 0) or a server error: ask again; anything else will not change.
      if (e instanceof ApiError && (e.status === 0 || e.status >= 500)) continue;
      throw e;
    }
    onUpdate(j);
    if (jobDone(j)) return j;
  }
}

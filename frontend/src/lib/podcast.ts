// A two-host podcast of an article: the calls (generate a script as a job,
// read it with its version, save edited turns with If-Match, voice it) and
// the pure helpers the Podcast panel draws with (flagged words, hosts
// remembered, lengths).
import { ApiError, apiUrl, authHeaders, problemFrom, reach } from './api';
import type { RenderStatus } from './listen';
import { HOSTS_KEY, type JobStarted, type Narrator } from './reader';

export type Host = { name: string; voice_id: string };
export type Turn = { host: number; text: string; source?: number[] | null };
export type Violation = { turn: number; kind: 'number' | 'name' | 'quote' | string; text: string };
export type Script = { title: string; hosts: Host[]; turns: Turn[] | null };
export type PodcastRecord = {
  status: 'ok' | 'flagged' | 'failed' | string;
  script?: Script;
  source?: 'llm' | 'deterministic' | 'edited' | string;
  violations: Violation[] | null;
  minutes: number;
  estimated_seconds: number;
  trimmed?: boolean;
  error?: string;
  version: number;
};
export type Mode = 'llm' | 'deterministic';

const path = (doc: string, article: string) => apiUrl('/api/magazine/{doc}/articles/{article}', { doc, article }) + '/podcast';

async function send<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ body: T; etag: string }> {
  const h: Record<string, string> = { Accept: 'application/json', ...authHeaders(), ...headers };
  if (body !== undefined) h['Content-Type'] = 'application/json';
  const resp = await reach(url, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  const text = await resp.text();
  if (!resp.ok) throw problemFrom(resp.status, text);
  return { body: (text ? JSON.parse(text) : undefined) as T, etag: resp.headers.get('ETag') ?? '' };
}

export const podcastApi = {
  /** The article's podcast, or null when none was generated yet. */
  async get(doc: string, article: string): Promise<PodcastRecord | null> {
    try {
      return (await send<PodcastRecord>('GET', path(doc, article))).body;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }
  },
  generate: (doc: string, article: string, hosts: Host[], minutes: number, mode: Mode) =>
    send<JobStarted>('POST', path(doc, article), { hosts, minutes, mode }).then((r) => r.body),
  /** Saves edited turns on the version shown: a script changed meanwhile answers 409/412. */
  save: (doc: string, article: string, version: number, turns: Turn[]) =>
    send<PodcastRecord>('PUT', path(doc, article), { turns }, { 'If-Match': String(version) }).then((r) => r.body),
  voice: (doc: string, article: string, format: 'mp3' | 'm4b') => send<RenderStatus>('POST', `${path(doc, article)}/voice`, { format }).then((r) => r.body),
};

/** Whether an error is an edit refused because the script changed since it was shown. */
export const isStale = (e: unknown) => e instanceof ApiError && (e.status === 409 || e.status === 412);

/** A turn's text cut into pieces, the flagged words (its violations) marked. */
export function markFlagged(text: string, flagged: readonly string[]): { text: string; flagged: boolean }[] {
  const spans: [number, number][] = [];
  const lower = text.toLowerCase();
  for (const f of flagged) {
    const w = f.trim().toLowerCase();
    if (!w) continue;
    for (let at = lower.indexOf(w); at >= 0; at = lower.indexOf(w, at + w.length)) spans.push([at, at + w.length]);
  }
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: { text: string; flagged: boolean }[] = [];
  let pos = 0;
  for (const [s, e] of spans) {
    if (s < pos) continue; // overlaps one already marked
    if (s > pos) out.push({ text: text.slice(pos, s), flagged: false });
    out.push({ text: text.slice(s, e), flagged: true });
    pos = e;
  }
  if (pos < text.length || !out.length) out.push({ text: text.slice(pos), flagged: false });
  return out;
}

/** Violations grouped by turn index. */
export function violationsByTurn(vs: readonly Violation[] | null | undefined): Map<number, Violation[]> {
  const m = new Map<number, Violation[]>();
  for (const v of vs ?? []) m.set(v.turn, [...(m.get(v.turn) ?? []), v]);
  return m;
}

const KIND_WORDS: Record<string, string> = { number: 'a number', name: 'a name', quote: 'a quotation' };

/** "a number not in the article: 42" */
export const violationLabel = (v: Violation) => `${KIND_WORDS[v.kind] ?? v.kind} not in the article: ${v.text}`;

/** Who wrote the script, in words. */
export function sourceLabel(source: string | undefined): string {
  switch (source) {
    case 'llm':
      return 'written by the LLM from the article';
    case 'deterministic':
      return 'made from the article’s paragraphs (no LLM)';
    case 'edited':
      return 'edited by hand';
  }
  return source ?? 'unknown';
}

/** "about 2 min 30 s" */
export function lengthLabel(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return 'under a second';
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return m ? `about ${m} min${s % 60 ? ` ${s % 60} s` : ''}` : `about ${s} s`;
}

/** Turns as edited: a changed text replaces the script's, emptied turns are dropped. */
export function editedTurns(turns: readonly Turn[], drafts: readonly string[]): Turn[] {
  return turns
    .map((t, i) => ({ ...t, text: (drafts[i] ?? t.text).trim() }))
    .filter((t) => t.text !== '');
}

/** Whether any draft differs from its turn. */
export const edited = (turns: readonly Turn[], drafts: readonly string[]) => turns.some((t, i) => (drafts[i] ?? t.text).trim() !== t.text);

/** A host as the panel keeps it: a name and the voice chosen for it. */
export type HostChoice = { name: string; voice: Narrator | null };

/** The hosts last chosen, two of them, with defaults for what is missing. */
export function loadHosts(storage: Pick<Storage, 'getItem'> | undefined): [HostChoice, HostChoice] {
  const defaults: [HostChoice, HostChoice] = [{ name: 'Alex', voice: null }, { name: 'Sam', voice: null }];
  try {
    const saved = JSON.parse(storage?.getItem(HOSTS_KEY) ?? 'null') as HostChoice[] | null;
    if (!Array.isArray(saved)) return defaults;
    return defaults.map((d, i) => {
      const h = saved[i];
      const name = typeof h?.name === 'string' && h.name.trim() ? h.name.trim().slice(0, 60) : d.name;
      const v = h?.voice;
      const voice = v && typeof v.id === 'string' && v.id && typeof v.name === 'string' ? { id: v.id, name: v.name } : null;
      return { name, voice };
    }) as [HostChoice, HostChoice];
  } catch {
    return defaults;
  }
}

export function saveHosts(storage: Pick<Storage, 'setItem'> | undefined, hosts: readonly HostChoice[]): void {
  try {
    storage?.setItem(HOSTS_KEY, JSON.stringify(hosts.map((h) => ({ name: h.name, voice: h.voice }))));
  } catch {
    // The hosts still hold for this page.
  }
}

/** The hosts as the API takes them. */
export const apiHosts = (hosts: readonly HostChoice[]): Host[] => hosts.map((h) => ({ name: h.name.trim(), voice_id: h.voice?.id ?? '' }));

/** What Generate still needs ("" when ready). */
export function generateMissing(hosts: readonly Host[], minutes: number): string {
  if (hosts.some((h) => !h.name.trim())) return 'Name both hosts.';
  if (hosts.some((h) => !h.voice_id)) return 'Choose a voice for each host.';
  if (!(minutes >= 1 && minutes <= 30)) return 'Choose a length of 1 to 30 minutes.';
  return '';
}

// A two-host podcast of an article: the calls (generate a script as a job,
// read it with its version, save edited turns with If-Match, voice it) and
// the pure helpers the Podcast panel draws with (flagged words, hosts
// remembered, lengths).
import { ApiError, call, callIfMatch, type Schemas } from './api';
import { HOSTS_KEY, type Narrator } from './reader';

export type Host = Schemas['ReadaloudHost'];
export type Turn = Schemas['ReadaloudTurn'];
export type Violation = Schemas['ReadaloudViolation'];
export type Script = Schemas['ReadaloudScript'];
/** An article's podcast: its script (once one was written), where it came from, what was flagged, and its version for edits. */
export type PodcastRecord = Schemas['ReadaloudRecord'];
export type Mode = NonNullable<Schemas['Start-podcast-scriptRequest']['mode']>;

const podcastPath = '/api/magazine/{doc}/articles/{article}/podcast';

export const podcastApi = {
  /** The article's podcast, or null when none was generated yet. */
  async get(doc: string, article: string): Promise<PodcastRecord | null> {
    try {
      return await call('get', podcastPath, { doc, article });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }
  },
  generate: (doc: string, article: string, hosts: [Host, Host], minutes: number, mode: Mode) =>
    call('post', podcastPath, { doc, article }, { hosts, minutes, mode }),
  /** Saves edited turns on the version shown: a script changed meanwhile answers 409/412. */
  save: (doc: string, article: string, version: number, turns: Turn[]) => callIfMatch(version, 'put', podcastPath, { doc, article }, { turns }),
  voice: (doc: string, article: string, format: 'mp3' | 'm4b') => call('post', `${podcastPath}/voice`, { doc, article }, { format }),
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
export const apiHosts = (hosts: readonly [HostChoice, HostChoice]): [Host, Host] => [apiHost(hosts[0]), apiHost(hosts[1])];
const apiHost = (h: HostChoice): Host => ({ name: h.name.trim(), voice_id: h.voice?.id ?? '' });

/** What Generate still needs ("" when ready). */
export function generateMissing(hosts: readonly Host[], minutes: number): string {
  if (hosts.some((h) => !h.name.trim())) return 'Name both hosts.';
  if (hosts.some((h) => !h.voice_id)) return 'Choose a voice for each host.';
  if (!(minutes >= 1 && minutes <= 30)) return 'Choose a length of 1 to 30 minutes.';
  return '';
}

// The audio player's pure logic: where a time falls among chapters and
// sentences, the speeds it offers, and how times read. AudioPlayer.svelte
// only wires these to an <audio> element.

/** A chapter of the audio, from start_ms until the next chapter starts. */
export type Chapter = { title: string; start_ms: number };

/** A sentence spoken from start_ms until end_ms (the renderer's timings). */
/** A sentence on the timeline; a book chapter's also says which of the chapter's spoken segments it is in. */
export type Sentence = { start_ms: number; end_ms: number; text: string; segment?: number };

export const MIN_SPEED = 0.5;
export const MAX_SPEED = 3;

/** The speeds the player offers, slowest first. */
export const SPEEDS: readonly number[] = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3];

/** Where the chosen speed is remembered (every player of the app shares it). */
export const SPEED_KEY = 'lectern.player.speed';

/** A speed the player can use: 0.5–3×, in steps of 0.05; anything else that is not a number is 1×. */
export function clampSpeed(speed: number): number {
  if (!Number.isFinite(speed)) return 1;
  const clamped = Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
  return Math.round(clamped * 20) / 20;
}

/** The remembered speed, 1× when none was saved or storage is unavailable. */
export function loadSpeed(storage: Pick<Storage, 'getItem'> | undefined): number {
  try {
    const saved = storage?.getItem(SPEED_KEY);
    return saved ? clampSpeed(Number(saved)) : 1;
  } catch {
    return 1;
  }
}

/** Remembers a speed; a storage that refuses (private mode, quota) only forgets it. */
export function saveSpeed(storage: Pick<Storage, 'setItem'> | undefined, speed: number): number {
  const s = clampSpeed(speed);
  try {
    storage?.setItem(SPEED_KEY, String(s));
  } catch {
    // The speed still applies to this page.
  }
  return s;
}

/** "1:05" below an hour, "1:02:03" from an hour on; "0:00" for an unknown time. */
export function formatTime(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0:00';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Chapters in time order (the player does not trust its props to be sorted). */
export function sortChapters(chapters: readonly Chapter[]): Chapter[] {
  return [...chapters].sort((a, b) => a.start_ms - b.start_ms);
}

/** The index of the chapter playing at ms in chapters sorted by start, or -1 before the first one starts. */
export function chapterAt(chapters: readonly Chapter[], ms: number): number {
  return lastStarted(chapters, ms);
}

/** The index of the last item starting at or before ms (items sorted by start), or -1. */
function lastStarted(items: readonly { start_ms: number }[], ms: number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].start_ms <= ms) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** The index of the sentence being spoken at ms in sentences sorted by start, or -1 in a pause between sentences. */
export function sentenceAt(sentences: readonly Sentence[], ms: number): number {
  const i = lastStarted(sentences, ms);
  return i >= 0 && ms < sentences[i].end_ms ? i : -1;
}

/** The speeds a menu offers: SPEEDS, with the current speed added in order if it is not one of them. */
export function speedChoices(speed: number): readonly number[] {
  return SPEEDS.includes(speed) ? SPEEDS : [...SPEEDS, speed].sort((a, b) => a - b);
}

// ---- the app's one player: skips, keys, resume ------------------------------

/** How far the ±15 s buttons and ←/→ move. */
export const SKIP_MS = 15000;

/** A time moved by delta, kept within 0..end (end: what can be played so far). */
export function skipTime(ms: number, delta: number, end: number): number {
  return Math.min(Math.max(0, ms + delta), Math.max(0, end));
}

/**
 * The sentence a ±1 skip lands on from ms (sentences sorted by start):
 * the one after or before the sentence at ms (or, in a pause, the last one
 * started). Back from the first stays on the first; on past the last is -1
 * (nothing to play yet, or the end).
 */
export function sentenceStep(sentences: readonly Sentence[], ms: number, dir: 1 | -1): number {
  if (!sentences.length) return -1;
  const at = lastStarted(sentences, ms);
  if (dir < 0) return Math.max(0, at - 1);
  const next = at + 1;
  return next < sentences.length ? next : -1;
}

/** What a key press asks of the player. */
export type KeyAction = 'toggle' | 'back' | 'forward' | 'previous-sentence' | 'next-sentence';

/** The key press as keyAction reads it (a KeyboardEvent has all of it). */
export type KeyPress = { key: string; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean; target: EventTarget | null };

/** Where typing goes: the player keeps its hands off keys pressed there. */
export function typingIn(target: EventTarget | null): boolean {
  const el = target as (Partial<HTMLElement> & { tagName?: string }) | null;
  if (!el || typeof el.tagName !== 'string') return false;
  const tag = el.tagName.toUpperCase();
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable === true;
}

/**
 * The player's shortcut for a key press, or null when it is not one: Space
 * plays or pauses, ←/→ move 15 s, Shift+←/→ a sentence. Keys pressed while
 * typing, with Ctrl/⌘/Alt, or Space on a button or link (which Space
 * presses) are left alone.
 */
export function keyAction(e: KeyPress): KeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey || typingIn(e.target)) return null;
  const tag = (e.target as { tagName?: string } | null)?.tagName?.toUpperCase();
  switch (e.key) {
    case ' ':
    case 'Spacebar':
      return tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY' ? null : 'toggle';
    case 'ArrowLeft':
      return e.shiftKey ? 'previous-sentence' : 'back';
    case 'ArrowRight':
      return e.shiftKey ? 'next-sentence' : 'forward';
  }
  return null;
}

/** The shortcuts as the player lists them. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'Space', does: 'play or pause' },
  { keys: '← / →', does: 'back or forward 15 seconds' },
  { keys: 'Shift + ← / →', does: 'previous or next sentence' },
];

/** Where one item's place is remembered: an article, a podcast, an issue, a book chapter. */
export const RESUME_PREFIX = 'lectern.resume.';

/** A remembered place: the time, and the render it was in when there was one (it may be gone). */
export type ResumePoint = { ms: number; render?: string; at: number };

/** The place remembered for an item, or null (none, unreadable, or storage unavailable). */
export function loadResume(storage: Pick<Storage, 'getItem'> | undefined, key: string): ResumePoint | null {
  try {
    const raw = storage?.getItem(RESUME_PREFIX + key);
    if (!raw) return null;
    const p = JSON.parse(raw) as Partial<ResumePoint>;
    if (typeof p.ms !== 'number' || !Number.isFinite(p.ms) || p.ms < 0) return null;
    return { ms: p.ms, render: typeof p.render === 'string' ? p.render : undefined, at: typeof p.at === 'number' ? p.at : 0 };
  } catch {
    return null;
  }
}

/**
 * Remembers a place (null forgets it: the item was heard to its end). A
 * place in the first two seconds is no place worth resuming: forgotten too.
 */
export function saveResume(storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined, key: string, point: ResumePoint | null): void {
  try {
    if (!point || point.ms < 2000) storage?.removeItem(RESUME_PREFIX + key);
    else storage?.setItem(RESUME_PREFIX + key, JSON.stringify(point));
  } catch {
    // Storage refused (private mode, quota): the place is only not remembered.
  }
}

/** A stream's chunks as sentences on one timeline: each starts where the one before ended. */
export function chunkTimeline(chunks: readonly { text: string; duration_ms: number }[]): Sentence[] {
  let at = 0;
  return chunks.map((c) => {
    const s = { start_ms: at, end_ms: at + Math.max(0, c.duration_ms), text: c.text };
    at = s.end_ms;
    return s;
  });
}

/** The sentence holding ms, or the last one started (in a pause): where a seek to ms plays from; -1 before any. */
export function sentenceFor(sentences: readonly Sentence[], ms: number): number {
  return lastStarted(sentences, ms);
}

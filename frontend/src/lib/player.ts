// The audio player's pure logic: where a time falls among chapters and
// sentences, the speeds it offers, and how times read. AudioPlayer.svelte
// only wires these to an <audio> element.

/** A chapter of the audio, from start_ms until the next chapter starts. */
export type Chapter = { title: string; start_ms: number };

/** A sentence spoken from start_ms until end_ms (the renderer's timings). */
export type Sentence = { start_ms: number; end_ms: number; text: string };

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

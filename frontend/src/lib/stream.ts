// Listening while a render is still speaking: the chunks (sentence WAVs)
// arrive in order from the renderer, and the player plays each as soon as
// it is there. This file holds the pure rules (which chunks are new, what
// plays next, when to ask again); the player (nowPlaying.svelte.ts) owns the audio.
import type { Schemas } from './api';

/** One spoken chunk as the renderer lists it (GET …/renders/{id}/chunks). */
export type StreamChunk = Schemas['RenderSpokenChunk'];

/** A page of chunks: those from `from` on, and where the next page starts (absent once no more will come). */
export type ChunkPage = Schemas['RenderChunkList'];

/** Chunks known so far plus a page, in index order, each index once. */
export function addChunks(have: readonly StreamChunk[], page: readonly StreamChunk[] | null): StreamChunk[] {
  const byIndex = new Map(have.map((c) => [c.index, c]));
  for (const c of page ?? []) if (!byIndex.has(c.index)) byIndex.set(c.index, c);
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** Where the next request starts: after the last chunk of the unbroken run from 0. */
export function nextFrom(have: readonly StreamChunk[]): number {
  let n = 0;
  for (const c of have) {
    if (c.index !== n) break;
    n++;
  }
  return n;
}

/** What the player does once chunk `playing` ends (or at the start, with -1). */
export type Step = { play: number } | { wait: true } | { end: true };

/**
 * The next step: play the next chunk if it has arrived; wait for it while
 * the render goes on; end once the render finished and nothing is left
 * (or it failed: what arrived has been played).
 */
export function nextStep(have: readonly StreamChunk[], playing: number, renderDone: boolean): Step {
  const want = playing + 1;
  if (have.some((c) => c.index === want)) return { play: want };
  return renderDone ? { end: true } : { wait: true };
}

/** How long to wait before asking for more chunks: quick while the first is awaited, then steady. */
export function chunkPollDelay(have: number, attempt: number): number {
  if (have === 0) return Math.min(400, 100 + 50 * attempt);
  return 500;
}

/** "Sentence 3 of 12" style: what the stream has spoken so far. */
export function streamLabel(playing: number, arrived: number, total: number, done: boolean): string {
  const of = total > 0 ? total : arrived;
  if (playing < 0) return arrived ? 'Starting…' : 'Waiting for the first sentence…';
  return `Sentence ${playing + 1} of ${of}${done ? '' : ' (still rendering)'}`;
}

import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  chunkTimeline, keyAction, loadResume, RESUME_PREFIX, saveResume, sentenceFor, sentenceStep, skipTime, typingIn, type KeyPress,
} from '../src/lib/player';
import { sentenceAtSpot, type Block } from '../src/lib/reader';

const sentences = [
  { start_ms: 0, end_ms: 2_000, text: 'One.' },
  { start_ms: 2_000, end_ms: 5_000, text: 'Two.' },
  { start_ms: 5_400, end_ms: 9_000, text: 'Three.' },
];

/** A Storage kept in a Map. */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() { return m.size; },
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, String(v)),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
  };
}

describe('skips', () => {
  it('±15 s stays within 0 and what can be played so far', () => {
    expect(skipTime(20_000, 15_000, 60_000)).toBe(35_000);
    expect(skipTime(50_000, 15_000, 60_000)).toBe(60_000);
    expect(skipTime(10_000, -15_000, 60_000)).toBe(0);
    expect(skipTime(10_000, 15_000, 12_000)).toBe(12_000); // still rendering: only what is spoken
    expect(skipTime(10_000, 15_000, -1)).toBe(0);
  });
  it('a sentence on goes to the next start, back to the previous one, in a pause from the last started', () => {
    expect(sentenceStep(sentences, 1_000, 1)).toBe(1);
    expect(sentenceStep(sentences, 3_000, 1)).toBe(2);
    expect(sentenceStep(sentences, 3_000, -1)).toBe(0);
    expect(sentenceStep(sentences, 5_200, -1)).toBe(0); // the pause after "Two." belongs to it
    expect(sentenceStep(sentences, 5_200, 1)).toBe(2);
  });
  it('back from the first stays on it; on past the last is nothing; no sentences is nothing', () => {
    expect(sentenceStep(sentences, 500, -1)).toBe(0);
    expect(sentenceStep(sentences, 8_000, 1)).toBe(-1);
    expect(sentenceStep([], 0, 1)).toBe(-1);
  });
  it("a stream's chunks make one timeline, each after the last", () => {
    const t = chunkTimeline([{ text: 'A.', duration_ms: 1200 }, { text: 'B.', duration_ms: 800 }, { text: 'C.', duration_ms: 0 }]);
    expect(t).toEqual([
      { start_ms: 0, end_ms: 1200, text: 'A.' },
      { start_ms: 1200, end_ms: 2000, text: 'B.' },
      { start_ms: 2000, end_ms: 2000, text: 'C.' },
    ]);
    expect(sentenceFor(t, 1500)).toBe(1);
    expect(sentenceFor(t, 0)).toBe(0);
  });
});

describe('keys', () => {
  const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
    key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, target: { tagName: 'BODY' } as unknown as EventTarget, ...more,
  });
  it('Space plays or pauses, ←/→ move 15 s, Shift+←/→ a sentence', () => {
    expect(keyAction(press(' '))).toBe('toggle');
    expect(keyAction(press('ArrowLeft'))).toBe('back');
    expect(keyAction(press('ArrowRight'))).toBe('forward');
    expect(keyAction(press('ArrowLeft', { shiftKey: true }))).toBe('previous-sentence');
    expect(keyAction(press('ArrowRight', { shiftKey: true }))).toBe('next-sentence');
    expect(keyAction(press('a'))).toBeNull();
    expect(keyAction(press('ArrowUp'))).toBeNull();
  });
  it('are left alone while typing, with Ctrl/⌘/Alt, and Space on a button or link (Space presses it)', () => {
    for (const tagName of ['INPUT', 'textarea', 'SELECT']) expect(keyAction(press('ArrowLeft', { target: { tagName } as unknown as EventTarget }))).toBeNull();
    const editable = { tagName: 'DIV', isContentEditable: true } as unknown as EventTarget;
    expect(typingIn(editable)).toBe(true);
    expect(keyAction(press(' ', { target: editable }))).toBeNull();
    expect(keyAction(press('ArrowRight', { ctrlKey: true }))).toBeNull();
    expect(keyAction(press('ArrowRight', { metaKey: true }))).toBeNull();
    expect(keyAction(press('ArrowRight', { altKey: true }))).toBeNull();
    expect(keyAction(press(' ', { target: { tagName: 'BUTTON' } as unknown as EventTarget }))).toBeNull();
    expect(keyAction(press(' ', { target: { tagName: 'A' } as unknown as EventTarget }))).toBeNull();
    expect(keyAction(press('ArrowRight', { target: { tagName: 'BUTTON' } as unknown as EventTarget }))).toBe('forward');
    expect(keyAction(press(' ', { target: null }))).toBe('toggle');
  });
});

describe('resume', () => {
  it('a place is kept per item and read back; the first two seconds and the end forget it', () => {
    const s = memoryStorage();
    saveResume(s, 'article:d/a1', { ms: 42_000, render: 'r1', at: 5 });
    saveResume(s, 'chapter:b/2', { ms: 9_000, at: 6 });
    expect(loadResume(s, 'article:d/a1')).toEqual({ ms: 42_000, render: 'r1', at: 5 });
    expect(loadResume(s, 'chapter:b/2')).toEqual({ ms: 9_000, render: undefined, at: 6 });
    expect(loadResume(s, 'article:d/a2')).toBeNull();
    saveResume(s, 'article:d/a1', { ms: 1_500, at: 7 });
    expect(loadResume(s, 'article:d/a1')).toBeNull();
    saveResume(s, 'chapter:b/2', null);
    expect(loadResume(s, 'chapter:b/2')).toBeNull();
  });
  it('a damaged or refusing storage is no place, not an error', () => {
    const s = memoryStorage();
    s.setItem(RESUME_PREFIX + 'x', '{not json');
    s.setItem(RESUME_PREFIX + 'y', '{"ms":-4}');
    expect(loadResume(s, 'x')).toBeNull();
    expect(loadResume(s, 'y')).toBeNull();
    expect(loadResume(undefined, 'x')).toBeNull();
    const refusing = { setItem: () => { throw new Error('quota'); }, removeItem: () => { throw new Error('no'); } };
    expect(() => saveResume(refusing, 'x', { ms: 5000, at: 1 })).not.toThrow();
  });
});

describe('a click on a sentence', () => {
  const blocks: Block[] = [
    { key: 'title', ref: { page: 1, region: 't' }, kind: 'headline', text: 'Harbour Reborn' },
    { key: 'p1', ref: { page: 1, region: 'a' }, kind: 'paragraph', text: 'The quay was rebuilt. Boats came back.' },
    { key: 'p2', ref: { page: 1, region: 'b' }, kind: 'paragraph', text: 'The quay was rebuilt. It was pleased.' },
  ];
  const spoken = ['Harbour Reborn.', 'The quay was rebuilt.', 'Boats came back.', 'The quay was rebuilt.', 'It was pleased.'];
  it('finds the spoken sentence under the click, a repeated one where it stands', () => {
    expect(sentenceAtSpot(blocks, spoken, false, 'title', 3)).toBe(0);
    expect(sentenceAtSpot(blocks, spoken, false, 'p1', 0)).toBe(1);
    expect(sentenceAtSpot(blocks, spoken, false, 'p1', 25)).toBe(2);
    expect(sentenceAtSpot(blocks, spoken, false, 'p2', 4)).toBe(3);
    expect(sentenceAtSpot(blocks, spoken, false, 'p2', 30)).toBe(4);
  });
  it('is not found before it is spoken', () => {
    expect(sentenceAtSpot(blocks, spoken.slice(0, 3), false, 'p2', 30)).toBeNull();
  });
});

// ---- the store, over a fake <audio> ----------------------------------------

class FakeAudio {
  static made: FakeAudio[] = [];
  src: string;
  currentTime = 0;
  duration = 30;
  paused = true;
  preload = '';
  playbackRate = 1;
  defaultPlaybackRate = 1;
  error = null;
  onloadedmetadata: (() => void) | null = null;
  ontimeupdate: (() => void) | null = null;
  onended: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onplaying: (() => void) | null = null;
  constructor(src: string) {
    this.src = src;
    FakeAudio.made.push(this);
  }
  play() {
    this.paused = false;
    this.onplaying?.();
    return Promise.resolve();
  }
  pause() {
    this.paused = true;
  }
  removeAttribute() {}
}

describe('the player', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = memoryStorage();
    Object.assign(globalThis, { localStorage: storage, Audio: FakeAudio });
    FakeAudio.made = [];
  });

  it('plays a chapter file from its remembered place; skips and steps; a pause keeps the place, the end forgets it', async () => {
    const { nowPlaying: np } = await import('../src/lib/nowPlaying.svelte');
    np.play({ kind: 'chapter', key: 'chapter:b/0', title: 'Ch', src: 'ch0.mp3', sentences }, { ms: 3_000 });
    const a = FakeAudio.made.at(-1)!;
    expect(np.state).toBe('waiting');
    a.onloadedmetadata!();
    expect(a.currentTime).toBe(3);
    expect(a.paused).toBe(false);
    expect(np.state).toBe('playing');
    expect(np.text).toBe('Two.');

    np.skip(15_000);
    expect(a.currentTime).toBe(18);
    np.skip(15_000);
    expect(a.currentTime).toBe(30); // the file's end
    np.seek(6_000);
    np.step(-1);
    expect(a.currentTime).toBe(2);
    np.act('next-sentence');
    expect(a.currentTime).toBe(5.4);
    np.act('back');
    expect(a.currentTime).toBe(0);

    np.seek(7_250);
    np.act('toggle');
    expect(np.state).toBe('paused');
    expect(a.paused).toBe(true);
    expect(loadResume(storage, 'chapter:b/0')?.ms).toBe(7_250);
    np.act('toggle');
    expect(a.paused).toBe(false);
    expect(a.currentTime).toBe(7.25);

    a.onended!();
    expect(np.state).toBe('ended');
    expect(loadResume(storage, 'chapter:b/0')).toBeNull();
    np.stop();
    expect(np.track).toBeNull();
  });

  it('another track keeps the place of the one it replaces', async () => {
    const { nowPlaying: np } = await import('../src/lib/nowPlaying.svelte');
    np.play({ kind: 'chapter', key: 'chapter:b/1', title: 'One', src: 'ch1.mp3', sentences });
    FakeAudio.made.at(-1)!.onloadedmetadata!();
    np.seek(8_000);
    np.play({ kind: 'chapter', key: 'chapter:b/2', title: 'Two', src: 'ch2.mp3', sentences });
    expect(loadResume(storage, 'chapter:b/1')?.ms).toBe(8_000);
    expect(np.playing('chapter:b/2')).toBe(true);
    expect(FakeAudio.made[0].paused).toBe(true);
    np.stop();
  });
});

// ---- a render still speaking: its chunks as they are listed -----------------

type Page = { status: string; total: number; chunks: { index: number; text: string; url: string; duration_ms: number }[]; next?: number; evicted?: boolean };
const pages: Page[] = [];
vi.mock('../src/lib/episodes', () => ({
  episodesApi: {
    // Each poll answers the next page queued by the test (the last one again once they run out).
    chunks: async (_id: string, from: number) => {
      const p = pages.length > 1 ? pages.shift()! : pages[0];
      return { ...p, from, chunks: p.chunks.filter((c) => c.index >= from) };
    },
    status: async () => ({ timings: { chapters: [] } }),
  },
  audioUrl: (id: string) => `audio/${id}`,
}));

const chunk = (index: number, duration_ms: number) => ({ index, text: `Sentence ${index}.`, url: `c${index}.wav`, duration_ms, chapter: 0, sentence: index, segment: 0 });

describe('the player on a render still speaking', () => {
  beforeEach(() => {
    Object.assign(globalThis, { localStorage: memoryStorage(), Audio: FakeAudio });
    FakeAudio.made = [];
    pages.length = 0;
    vi.useFakeTimers();
  });

  it('plays each chunk as it is listed, waits for the next, seeks only within what is spoken, and ends when the render has', async () => {
    const { nowPlaying: np } = await import('../src/lib/nowPlaying.svelte');
    pages.push({ status: 'running', total: 3, chunks: [chunk(0, 1000)], next: 1 });
    np.play({ kind: 'issue', key: 'issue:d', title: 'The issue', render: 'r1' });
    await vi.advanceTimersByTimeAsync(0);
    const first = FakeAudio.made.find((a) => a.src === 'c0.wav')!;
    expect(first.paused).toBe(false);
    expect(np.state).toBe('playing');
    expect(np.endMs).toBe(1000);
    np.skip(15_000);
    expect(np.positionMs).toBe(1000); // no further than what is spoken
    first.onended!();
    expect(np.state).toBe('waiting');

    pages.splice(0, pages.length, { status: 'succeeded', total: 2, chunks: [chunk(0, 1000), chunk(1, 2000)] });
    await vi.advanceTimersByTimeAsync(600);
    const second = FakeAudio.made.find((a) => a.src === 'c1.wav')!;
    expect(second.paused).toBe(false);
    expect(np.done).toBe(true);
    expect(np.text).toBe('Sentence 1.');
    np.seek(500); // back into the first sentence
    expect(np.index).toBe(0);
    expect(first.currentTime).toBe(0.5);
    np.step(1);
    expect(np.index).toBe(1);
    FakeAudio.made.find((a) => a.src === 'c1.wav' && !a.paused)!.onended!();
    expect(np.state).toBe('ended');
    np.stop();
  });

  it('a start at a time not spoken yet waits for it; a start at a sentence waits until the page can pick it', async () => {
    const { nowPlaying: np } = await import('../src/lib/nowPlaying.svelte');
    pages.push({ status: 'running', total: 3, chunks: [chunk(0, 1000)], next: 1 });
    pages.push({ status: 'running', total: 3, chunks: [chunk(0, 1000), chunk(1, 1000), chunk(2, 1000)] , next: 3 });
    pages.push({ status: 'succeeded', total: 3, chunks: [chunk(0, 1000), chunk(1, 1000), chunk(2, 1000)] });
    np.play({ kind: 'article', key: 'article:d/a', title: 'A', render: 'r2' }, { ms: 2_500 });
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeAudio.made.some((a) => !a.paused)).toBe(false); // 2.5 s is not spoken yet
    await vi.advanceTimersByTimeAsync(600);
    const third = FakeAudio.made.find((a) => a.src === 'c2.wav')!;
    expect(third.paused).toBe(false);
    expect(third.currentTime).toBe(0.5);

    pages.length = 0;
    pages.push({ status: 'running', total: 3, chunks: [chunk(0, 1000)], next: 1 });
    pages.push({ status: 'succeeded', total: 3, chunks: [chunk(0, 1000), chunk(1, 1000), chunk(2, 1000)] });
    np.play({ kind: 'article', key: 'article:d/a', title: 'A', render: 'r3' }, { pick: (s) => (s.length > 1 ? 1 : null) });
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeAudio.made.filter((a) => !a.paused)).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(600);
    expect(np.index).toBe(1);
    expect(FakeAudio.made.find((a) => a.src === 'c1.wav' && !a.paused)).toBeTruthy();
    np.stop();
    vi.useRealTimers();
  });
});

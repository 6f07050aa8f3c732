import { describe, expect, it } from 'vitest';
import { chapterAt, clampSpeed, formatTime, loadSpeed, saveSpeed, sentenceAt, sortChapters, SPEED_KEY, SPEEDS } from '../src/lib/player';

const chapters = [
  { title: 'Opening', start_ms: 0 },
  { title: 'Middle', start_ms: 60_000 },
  { title: 'End', start_ms: 125_500 },
];

const sentences = [
  { start_ms: 200, end_ms: 1_500, text: 'One.' },
  { start_ms: 1_500, end_ms: 3_000, text: 'Two.' },
  { start_ms: 3_400, end_ms: 5_000, text: 'Three.' },
];

describe('current chapter', () => {
  it('is the last chapter started at that time', () => {
    expect([0, 59_999, 60_000, 125_499, 125_500, 10_000_000].map((ms) => chapterAt(chapters, ms))).toEqual([0, 0, 1, 1, 2, 2]);
  });
  it('is none before the first chapter starts and when there are none', () => {
    expect(chapterAt([{ title: 'Late', start_ms: 5_000 }], 4_999)).toBe(-1);
    expect(chapterAt([], 1_000)).toBe(-1);
  });
  it('is found in chapters given out of order once they are sorted', () => {
    const sorted = sortChapters([chapters[2], chapters[0], chapters[1]]);
    expect(sorted.map((c) => c.title)).toEqual(['Opening', 'Middle', 'End']);
    expect(chapterAt(sorted, 70_000)).toBe(1);
  });
  it('finds the right one of many', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ title: `c${i}`, start_ms: i * 1000 }));
    expect(chapterAt(many, 437_250)).toBe(437);
  });
});

describe('current sentence', () => {
  it('is the sentence spoken at that time; a sentence ends where the next starts', () => {
    expect([200, 1_499, 1_500, 2_999, 3_400, 4_999].map((ms) => sentenceAt(sentences, ms))).toEqual([0, 0, 1, 1, 2, 2]);
  });
  it('is none before the first, in a pause and after the last', () => {
    expect([0, 199, 3_000, 3_399, 5_000, 9_000].map((ms) => sentenceAt(sentences, ms))).toEqual([-1, -1, -1, -1, -1, -1]);
  });
});

describe('speed', () => {
  it('stays within 0.5–3× in steps of 0.05', () => {
    expect([0, 0.1, 0.5, 1.234, 2.99, 3, 10].map(clampSpeed)).toEqual([0.5, 0.5, 0.5, 1.25, 3, 3, 3]);
  });
  it('is 1× for what is not a number', () => {
    expect([NaN, Infinity, -Infinity].map(clampSpeed)).toEqual([1, 1, 1]);
  });
  it('offers only speeds it keeps, from 0.5× to 3×', () => {
    expect(SPEEDS[0]).toBe(0.5);
    expect(SPEEDS[SPEEDS.length - 1]).toBe(3);
    for (const s of SPEEDS) expect(clampSpeed(s)).toBe(s);
  });
  it('is remembered, clamped, and 1× when nothing or nonsense was saved', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(loadSpeed(storage)).toBe(1);
    expect(saveSpeed(storage, 1.75)).toBe(1.75);
    expect(store.get(SPEED_KEY)).toBe('1.75');
    expect(loadSpeed(storage)).toBe(1.75);
    saveSpeed(storage, 9);
    expect(loadSpeed(storage)).toBe(3);
    store.set(SPEED_KEY, 'fast');
    expect(loadSpeed(storage)).toBe(1);
  });
  it('still applies when storage refuses it', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(saveSpeed(refusing, 2)).toBe(2);
    expect(loadSpeed(refusing)).toBe(1);
    expect(loadSpeed(undefined)).toBe(1);
  });
});

describe('time format', () => {
  it('reads m:ss below an hour and h:mm:ss from an hour on', () => {
    expect([0, 999, 1_000, 65_000, 599_999, 3_599_999, 3_600_000, 3_723_000, 36_000_000].map(formatTime)).toEqual([
      '0:00', '0:00', '0:01', '1:05', '9:59', '59:59', '1:00:00', '1:02:03', '10:00:00',
    ]);
  });
  it('reads an unknown or negative time as 0:00', () => {
    expect([NaN, Infinity, -5].map(formatTime)).toEqual(['0:00', '0:00', '0:00']);
  });
});

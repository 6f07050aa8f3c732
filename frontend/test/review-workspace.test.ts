import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  changedSinceApproval, cleanupNote, clampView, FIT, fitScale, fixOrderNote, memberLabel, mergeDrafts, panBy, refocusSaved, regionLabels,
  reviewApi, shortcut, zoomAt, type Article,
} from '../src/lib/review';
import type { Region } from '../src/lib/magazine';

const r = (id: string, kind: Region['kind'], text = ''): Region => ({ id, kind, bbox: [0, 0, 1, 1], text });

afterEach(() => vi.unstubAllGlobals());

describe('focus after a save', () => {
  it('returns to the saved field only when the redraw dropped focus and the user did nothing since', () => {
    expect(refocusSaved('', 'a', false)).toBe(true);
    // The user clicked (or tabbed) somewhere else: stay there.
    expect(refocusSaved('', 'a', true)).toBe(false);
    expect(refocusSaved('b', 'a', false)).toBe(false);
    expect(refocusSaved('*', 'a', false)).toBe(false);
    expect(refocusSaved('', '', false)).toBe(false);
  });

  it('a reload never eats a draft being typed, but takes the server text for saved or refused fields', () => {
    const shown = { a: 'old a', b: 'old b', c: 'old c' };
    const drafts = { a: 'typed a', b: 'typing b', c: 'old c' };
    const next = [r('a', 'paragraph', 'typed a!'), r('b', 'paragraph', 'old b'), r('c', 'paragraph', 'new c'), r('d', 'paragraph', 'd')];
    expect(mergeDrafts(shown, drafts, next, ['a'])).toEqual({ a: 'typed a!', b: 'typing b', c: 'new c', d: 'd' });
    // Without the discard list a's unsaved change stays too.
    expect(mergeDrafts(shown, drafts, next).a).toBe('typed a');
  });
});

describe('labels', () => {
  it('names regions by kind and place among their kind, never by id', () => {
    const labels = regionLabels([r('r9', 'headline'), r('r2', 'paragraph'), r('r7', 'image'), r('r1', 'paragraph'), r('r3', 'pull-quote')]);
    expect([...labels.values()]).toEqual(['headline 1', 'paragraph 1', 'image 1', 'paragraph 2', 'pull-quote 1']);
    expect(labels.get('r1')).toBe('paragraph 2');
  });

  it('names article members by kind, place and page', () => {
    const pages = new Map([[4, regionLabels([r('x', 'paragraph'), r('y', 'paragraph'), r('z', 'paragraph')])], [2, regionLabels([r('p', 'image')])]]);
    expect(memberLabel({ page: 4, region: 'z' }, pages)).toBe('paragraph 3 on p. 4');
    expect(memberLabel({ page: 2, region: 'p' }, pages)).toBe('image 1 on p. 2');
    expect(memberLabel({ page: 2, region: 'gone' }, pages)).toBe('a removed region on p. 2');
    expect(memberLabel({ page: 9, region: 'q' }, pages)).toBe('a region on p. 9');
  });

  it('shows "changed since approval" only when the server says so', () => {
    const a = { id: 'a', title: 't', approved: true, issue_id: 'i', regions: [], images: [], changed_since_approval: false } as Article;
    expect(changedSinceApproval(a)).toBe(false);
    expect(changedSinceApproval({ ...a, changed_since_approval: true } as Article)).toBe(true);
  });

  it('says what a cleanup and a reading-order fix did', () => {
    const labels = new Map([['r1', 'paragraph 1'], ['r9', 'paragraph 2']]);
    expect(cleanupNote([], labels)).toMatch(/nothing to change/);
    expect(cleanupNote([{ region_id: 'r1', from: 'paragraph', to: 'byline', rule: 'short line' }], labels)).toBe(
      'Cleaned up 1 box: paragraph 1: paragraph → byline (short line). Restore layout backup undoes it.',
    );
    expect(fixOrderNote([1, 3], [2])).toBe('Reading order fixed on 2 pages (1, 3); 1 hand-ordered page left alone (2).');
    expect(fixOrderNote([], [])).toBe('Reading order: no page needed fixing.');
  });
});

describe('zoom and pan', () => {
  it('zooms around the pointer, which stays over the same spot of the page', () => {
    const v = zoomAt(FIT, 2, 100, 50, 400, 500);
    expect(v).toEqual({ z: 2, x: -100, y: -50 });
    // The page point under (100, 50) before is (100, 50) in page pixels; after: x + 100 * z = 100.
    expect(v.x + 100 * v.z).toBe(100);
    const w = zoomAt(v, 1.5, 300, 300, 400, 500);
    expect((300 - w.x) / w.z).toBeCloseTo((300 - v.x) / v.z);
  });

  it('never zooms out past the fitted page nor in past 8×, and never shows a gap', () => {
    expect(zoomAt(FIT, 0.5, 10, 10, 400, 500)).toEqual(FIT);
    expect(zoomAt({ z: 6, x: 0, y: 0 }, 4, 0, 0, 400, 500).z).toBe(8);
    expect(panBy({ z: 2, x: 0, y: 0 }, 50, 50, 400, 500)).toEqual({ z: 2, x: 0, y: 0 });
    expect(panBy({ z: 2, x: 0, y: 0 }, -1000, -1000, 400, 500)).toEqual({ z: 2, x: -400, y: -500 });
    expect(clampView({ z: 1, x: -30, y: 12 }, 400, 500)).toEqual(FIT);
  });

  it('fits the page in the space given, by width when height is free', () => {
    expect(fitScale(612, 792, 1000, 600)).toBeCloseTo(600 / 792);
    expect(fitScale(612, 792, 306, 0)).toBe(0.5);
    expect(fitScale(612, 792, 0, 600)).toBe(0);
  });

  it('zoom keys work outside text fields only', () => {
    const body = { tagName: 'BODY' } as unknown as EventTarget;
    const textarea = { tagName: 'TEXTAREA' } as unknown as EventTarget;
    expect(['+', '=', '-', '0'].map((key) => shortcut({ key, target: body }))).toEqual(['zoom-in', 'zoom-in', 'zoom-out', 'zoom-fit']);
    expect(shortcut({ key: '+', target: textarea })).toBe('');
  });
});

describe('page edits carry the page version', () => {
  it('sends If-Match on every page-scoped edit', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => '', setItem: () => {}, removeItem: () => {} });
    const fetch = vi.fn(async () => new Response(JSON.stringify({ revision: 1, changes: [], region: { id: 'x' }, regions: [], removed: 'y' }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const d = 'abcdefgh12';
    await reviewApi.patch(d, 3, 7, 'r1', { text: 'x' });
    await reviewApi.remove(d, 3, 7, 'r1');
    await reviewApi.split(d, 3, 7, 'r1', 2);
    await reviewApi.mergeNext(d, 3, 7, 'r1');
    await reviewApi.add(d, 3, 7, [0, 0, 10, 10], 'paragraph');
    await reviewApi.bulk(d, 3, 7, ['r1'], 'delete');
    await reviewApi.setOrder(d, 3, 7, ['r1']);
    await reviewApi.autoOrder(d, 3, 7);
    await reviewApi.cleanup(d, 3, 7);
    await reviewApi.restore(d, 3, 7);
    await reviewApi.recognize(d, 3, 7, 'tesseract');
    const calls = fetch.mock.calls as unknown as [string, RequestInit][];
    expect(calls).toHaveLength(11);
    for (const [url, init] of calls) {
      expect(url).toMatch(/^api\/magazine\/abcdefgh12\/pages\/3\//);
      expect((init.headers as Record<string, string>)['If-Match']).toBe('7');
    }
  });
});

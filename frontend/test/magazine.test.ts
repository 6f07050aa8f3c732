import { describe, expect, it } from 'vitest';
import { inReadingOrder, kindColor, livePage, parseMagazineHash, progressOf, toDisplay, type IssueView, type Page } from '../src/lib/magazine';

function view(over: Partial<IssueView>): IssueView {
  return { id: 'abc12345', title: 't', status: 'processing', page_count: 3, pages_done: 0, created: '', pages: [], ...over };
}

describe('magazine helpers', () => {
  it('progress counts finished pages and names the page being worked on', () => {
    const v = view({
      pages: [
        { page: 1, step: 'order', done: true },
        { page: 2, step: 'recognize', done: false },
        { page: 3, step: 'queued', done: false },
      ],
    });
    expect(progressOf(v)).toEqual({ done: 1, total: 3, fraction: 1 / 3, label: 'Page 2: text read, finding figures' });
    expect(livePage(v)).toBe(2);
  });

  it('a ready issue with failed pages says so; a failed issue gives its reason', () => {
    expect(progressOf(view({ status: 'ready', page_errors: [{ page: 2, step: 'Render', error: 'x' }] })).label).toBe('Ready, 1 page(s) failed');
    expect(progressOf(view({ status: 'failed', error: 'encrypted: the PDF is encrypted' })).label).toContain('encrypted');
    expect(progressOf(view({ page_count: 0 })).label).toBe('Checking the PDF…');
  });

  it('the live page is the last rendered one once all are done', () => {
    const v = view({ status: 'ready', pages: [{ page: 1, step: 'order', done: true }, { page: 2, step: 'order', done: true }] });
    expect(livePage(v)).toBe(2);
    expect(livePage(view({ pages: [{ page: 1, step: 'queued', done: false }] }))).toBe(0);
  });

  it('boxes scale from points to the shown image', () => {
    expect(toDisplay([72, 36, 144, 72], { width: 612, height: 792 }, { width: 306, height: 396 })).toEqual([36, 18, 72, 36]);
  });

  it('regions come in reading order, unordered ones last', () => {
    const page = {
      regions: [{ id: 'a', kind: 'paragraph', bbox: [0, 0, 1, 1] }, { id: 'b', kind: 'headline', bbox: [0, 0, 1, 1] }, { id: 'c', kind: 'image', bbox: [0, 0, 1, 1] }],
      order: ['b', 'a', 'gone'],
    } as unknown as Page;
    expect(inReadingOrder(page).map((r) => r.id)).toEqual(['b', 'a', 'c']);
  });

  it('hash routes are parsed strictly', () => {
    expect(parseMagazineHash('#/magazine')).toEqual({ issue: undefined, page: undefined });
    expect(parseMagazineHash('#/magazine/1a2b3c4d5e/3')).toEqual({ issue: '1a2b3c4d5e', page: 3 });
    expect(parseMagazineHash('#/magazine/../etc/3')).toEqual({ issue: undefined, page: undefined });
    expect(parseMagazineHash('#/magazine/1a2b3c4d5e/0')).toEqual({ issue: '1a2b3c4d5e', page: undefined });
  });

  it('every kind has a colour', () => {
    expect(kindColor('headline')).toMatch(/^#/);
    expect(kindColor('something-new')).toBe('#667085');
  });
});

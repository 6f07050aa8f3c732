import { afterEach, describe, expect, it, vi } from 'vitest';
import { addRegionRequestKindValues, bulkRegionsRequestKindValues, reviewRegionPatchKindValues } from '../src/lib/api.gen';
import { regionLabel, inReadingOrder, KIND_COLORS, KINDS, kindColor, livePage, magazineApi, parseMagazineHash, progressOf, progressText, toDisplay, type IssueView, type Page, type Step } from '../src/lib/magazine';

function view(over: Partial<IssueView>): IssueView {
  return { id: 'abc12345', title: 't', status: 'processing', source_key: '', page_count: 3, pages_done: 0, revision: 1, created: '', updated: '', pages: [], ...over };
}

const step = (page: number, name: string, done: boolean): Step => ({ page, step: name, done, at: '' });

describe('magazine helpers', () => {
  it('progress counts finished pages and names the page being worked on', () => {
    const v = view({
      pages: [
        step(1, 'order', true),
        step(2, 'recognize', false),
        step(3, 'queued', false),
      ],
    });
    expect(progressOf(v)).toEqual({ done: 1, total: 3, fraction: 1 / 3, label: 'Page 2: text read, finding figures' });
    expect(livePage(v)).toBe(2);
  });

  it('the progress line gives the count once, also when no page is busy', () => {
    const v = view({ pages: [step(1, 'order', true), step(2, 'queued', false), step(3, 'queued', false)] });
    expect(progressText(progressOf(v))).toBe('Reading pages — 1 of 3 pages');
    expect(progressText(progressOf(view({ page_count: 0 })))).toBe('Checking the PDF…');
  });

  it('a ready issue with failed pages says so; a failed issue gives its reason', () => {
    expect(progressOf(view({ status: 'ready', page_errors: [{ page: 2, step: 'Render', error: 'x' }] })).label).toBe('Ready, 1 page(s) failed');
    expect(progressOf(view({ status: 'failed', error: 'encrypted: the PDF is encrypted' })).label).toContain('encrypted');
    expect(progressOf(view({ page_count: 0 })).label).toBe('Checking the PDF…');
  });

  it('the live page is the last rendered one once all are done', () => {
    const v = view({ status: 'ready', pages: [step(1, 'order', true), step(2, 'order', true)] });
    expect(livePage(v)).toBe(2);
    expect(livePage(view({ pages: [step(1, 'queued', false)] }))).toBe(0);
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

  it('every kind has a colour, and only kinds do', () => {
    expect(Object.keys(KIND_COLORS).sort()).toEqual([...KINDS].sort());
    for (const k of KINDS) expect(KIND_COLORS[k]).toMatch(/^#[0-9a-f]{6}$/);
    expect(kindColor('something-new')).toBe('#667085');
  });

  it('the kind menus offer every kind of the API document, each accepted by every edit that takes a kind', () => {
    expect(KINDS).toContain('paragraph');
    for (const accepted of [bulkRegionsRequestKindValues, reviewRegionPatchKindValues, addRegionRequestKindValues]) expect(accepted).toEqual(KINDS);
  });
});

describe('magazine api', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a page whose regions the server sends as null has none', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => '' });
    const fetch = vi.fn(async () => new Response(JSON.stringify({ issue_id: 'abcdefgh12', number: 2, regions: null, order: null })));
    vi.stubGlobal('fetch', fetch);
    const page = await magazineApi.page('abcdefgh12', 2);
    expect(page.regions).toEqual([]);
    expect(inReadingOrder(page)).toEqual([]);
    expect(fetch.mock.calls[0]).toEqual(['api/magazine/abcdefgh12/pages/2', expect.objectContaining({ method: 'GET' })]);
  });
});

describe('the split control names regions', () => {
  it('by page, kind and first words, cut at a word', () => {
    expect(regionLabel(2, { kind: 'headline', text: 'Storm  Season\nAhead' }, 3)).toBe('p. 2 · headline: “Storm Season Ahead”');
    expect(regionLabel(1, { kind: 'paragraph', text: 'The harbour authority said on Monday that the new breakwater would open in spring.' }, 2))
      .toBe('p. 1 · paragraph: “The harbour authority said on Monday…”');
  });
  it('by place while its text is not known', () => {
    expect(regionLabel(4, undefined, 5)).toBe('p. 4 · region 5');
    expect(regionLabel(4, { kind: 'figure', text: '' }, 5)).toBe('p. 4 · figure 5');
  });
});

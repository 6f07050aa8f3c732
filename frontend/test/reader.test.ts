import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadName } from '../src/lib/episodes';
import { followRender } from '../src/lib/listen';
import { speedChoices, SPEEDS } from '../src/lib/player';
import { parseMagazineHash, type Page, type Region } from '../src/lib/magazine';
import {
  approvedFirst, articlePages, cut, describeNote, descriptionProblem, followJob, loadDescriptions, loadNarrator, locate, readerBlocks,
  readingSequence, saveDescriptions, saveNarrator, sentenceCount, type Block,
} from '../src/lib/reader';
import { apiHosts, edited, editedTurns, generateMissing, lengthLabel, loadHosts, markFlagged, saveHosts, violationsByTurn } from '../src/lib/podcast';
import { addChunks, nextFrom, nextStep, streamLabel, type StreamChunk } from '../src/lib/stream';

function memory(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k), clear: () => m.clear(), key: () => null, length: 0 };
}

const region = (id: string, kind: Region['kind'], text = '', over: Partial<Region> = {}): Region => ({ id, kind, bbox: [0, 0, 1, 1], text, ...over });
const page = (number: number, regions: Region[], order = regions.map((r) => r.id)): Page =>
  ({ number, version: 7, regions, order, width: 612, height: 792 }) as unknown as Page;

afterEach(() => vi.unstubAllGlobals());

describe('the reader route', () => {
  it('reads #/magazine/<doc>/articles[/<article>] and keeps the page routes', () => {
    expect(parseMagazineHash('#/magazine/abcd1234/articles')).toEqual({ issue: 'abcd1234', articles: true });
    expect(parseMagazineHash('#/magazine/abcd1234/articles/a1b2')).toEqual({ issue: 'abcd1234', articles: true, article: 'a1b2' });
    expect(parseMagazineHash('#/magazine/abcd1234/articles/..%2F')).toEqual({ issue: 'abcd1234', articles: true });
    expect(parseMagazineHash('#/magazine/abcd1234/3')).toEqual({ issue: 'abcd1234', page: 3 });
  });
});

describe('what an article reads', () => {
  const pages = new Map([
    [1, page(1, [region('h', 'headline', 'Harbour  Reborn'), region('b', 'byline', 'By Ada'), region('f', 'figure', '', { description: 'A map of the bay.', crop_key: 'k' }), region('p', 'paragraph', 'The quay\nwas rebuilt.'), region('n', 'page-number', '1')])],
    [2, page(2, [region('c', 'chart', '', { description: '' }), region('q', 'paragraph', 'It opened in May.')])],
  ]);
  const article = {
    regions: [{ page: 1, region: 'h' }, { page: 1, region: 'b' }, { page: 1, region: 'p' }, { page: 1, region: 'n' }, { page: 2, region: 'q' }],
    images: [{ page: 2, region: 'c' }, { page: 1, region: 'f' }, { page: 9, region: 'gone' }],
  };

  it('places each picture of the image list where the pages read it, as the server does', () => {
    expect(readingSequence(article, pages).map((r) => `${r.page}-${r.region}`)).toEqual(['1-h', '1-b', '1-f', '1-p', '1-n', '2-c', '2-q']);
  });

  it('blocks: read kinds with collapsed text, pictures with description, crop and page version; silent kinds left out', () => {
    const blocks = readerBlocks('doc12345', { ...article, title: 'Harbour reborn.' }, pages);
    // The title first; the headline that repeats it is not shown twice.
    expect(blocks.map((b) => b.key)).toEqual(['title', '1-b', '1-f', '1-p', '2-c', '2-q']);
    expect(blocks[0].text).toBe('Harbour reborn.');
    expect(blocks[3].text).toBe('The quay was rebuilt.');
    expect(blocks[2].figure).toEqual({ description: 'A map of the bay.', crop: 'api/magazine/doc12345/pages/1/crops/f', version: 7 });
    expect(blocks[4].figure?.crop).toBe('');
    const other = readerBlocks('doc12345', { ...article, title: 'Spring issue' }, pages);
    expect(other.map((b) => b.key).slice(0, 2)).toEqual(['title', '1-h']);
    expect(other[1].text).toBe('Harbour Reborn');
    expect(articlePages(article)).toEqual([1, 2, 9]);
  });

  it('approved articles come first, each group in order', () => {
    const list = [{ id: 'a', approved: false }, { id: 'b', approved: true }, { id: 'c', approved: false }, { id: 'd', approved: true }];
    expect(approvedFirst(list).map((a) => a.id)).toEqual(['b', 'd', 'a', 'c']);
  });
});

describe('finding the spoken sentence', () => {
  const blocks: Block[] = [
    { key: '1-h', ref: { page: 1, region: 'h' }, kind: 'headline', text: 'Harbour Reborn' },
    { key: '1-f', ref: { page: 1, region: 'f' }, kind: 'figure', text: '', figure: { description: 'A map. It shows the bay.', crop: '', version: 1 } },
    { key: '1-p', ref: { page: 1, region: 'p' }, kind: 'paragraph', text: 'It rained. The quay was rebuilt. It rained.' },
  ];

  it('finds a chunk in a paragraph, whitespace aside, and the next repeat after the last spot', () => {
    const first = locate(blocks, 'It  rained.', false);
    expect(first).toEqual({ block: '1-p', part: 'text', start: 0, end: 10 });
    const second = locate(blocks, 'The quay was rebuilt.', false, first);
    expect(second).toEqual({ block: '1-p', part: 'text', start: 11, end: 32 });
    expect(locate(blocks, 'It rained.', false, second)).toEqual({ block: '1-p', part: 'text', start: 33, end: 43 });
  });

  it('a title spoken with a full stop is found without it', () => {
    expect(locate(blocks, 'Harbour Reborn.', false)).toEqual({ block: '1-h', part: 'text', start: 0, end: 14 });
  });

  it('descriptions are searched only when they are read', () => {
    expect(locate(blocks, 'It shows the bay.', true)).toEqual({ block: '1-f', part: 'description', start: 7, end: 24 });
    expect(locate(blocks, 'It shows the bay.', false)).toBeNull();
    expect(locate(blocks, 'Not on the page.', true)).toBeNull();
    expect(locate(blocks, '   ', true)).toBeNull();
  });

  it('cut splits around a spot and leaves the text whole without one', () => {
    expect(cut('It rained. Then sun.', { start: 11, end: 20 })).toEqual(['It rained. ', 'Then sun.', '']);
    expect(cut('abc', null)).toEqual(['abc', '', '']);
    expect(cut('abc', { start: 2, end: 9 })).toEqual(['abc', '', '']);
  });
});

describe('descriptions by hand', () => {
  it('one or two sentences, or empty to clear', () => {
    expect(sentenceCount('A map of the bay. It shows the quay.')).toBe(2);
    expect(sentenceCount('')).toBe(0);
    expect(descriptionProblem('')).toBe('');
    expect(descriptionProblem('One. Two.')).toBe('');
    expect(descriptionProblem('One. Two. Three.')).toMatch(/one or two sentences; this has 3/);
    expect(descriptionProblem('x'.repeat(601))).toMatch(/600/);
  });

  it('a describe job says what it did', () => {
    expect(describeNote({ status: 'failed', error: 'vision engine down' })).toEqual({ ok: false, text: 'Describing failed: vision engine down' });
    const r = describeNote({ status: 'succeeded', result: { described: 1, total: 3, images: [
      { image: '1-a', outcome: 'described' }, { image: '1-b', outcome: 'empty' }, { image: '1-c', outcome: 'failed', reason: 'timeout' },
    ] } });
    expect(r).toEqual({ ok: false, text: 'Described 1 of 3 figures; 1 got no answer (nothing stored); 1 failed: timeout.' });
    expect(describeNote({ status: 'succeeded', result: { described: 0, total: 0, images: [] } }).text).toBe('Every figure already has a description.');
  });

  it('followJob polls until the job ends and reports each state', async () => {
    const states = ['running', 'running', 'succeeded'];
    const seen: string[] = [];
    vi.stubGlobal('sessionStorage', { getItem: () => '' });
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ id: 'j', status: states.shift(), progress: 0.5 }), { status: 200 }));
    const j = await followJob('j', (x) => seen.push(x.status), () => Promise.resolve());
    expect(j.status).toBe('succeeded');
    expect(seen).toEqual(['running', 'running', 'succeeded']);
  });

  it('followJob stops on a job that is gone', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => '' });
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ title: 'Not Found', status: 404, detail: 'no job j' }), { status: 404 }));
    await expect(followJob('j', () => {}, () => Promise.resolve())).rejects.toThrow('no job j');
  });
});

describe('remembered choices', () => {
  it('descriptions are off by default and remembered', () => {
    const s = memory();
    expect(loadDescriptions(s)).toBe(false);
    saveDescriptions(s, true);
    expect(loadDescriptions(s)).toBe(true);
    expect(loadDescriptions(undefined)).toBe(false);
  });

  it('the narrator is remembered; junk reads as none', () => {
    const s = memory();
    expect(loadNarrator(s)).toBeNull();
    saveNarrator(s, { id: 'espeak-ng-en-us', name: 'English (America)' });
    expect(loadNarrator(s)).toEqual({ id: 'espeak-ng-en-us', name: 'English (America)' });
    s.setItem('lectern.reader.narrator', '{"id":3}');
    expect(loadNarrator(s)).toBeNull();
    s.setItem('lectern.reader.narrator', 'not json');
    expect(loadNarrator(s)).toBeNull();
  });

  it('hosts are remembered with defaults for what is missing', () => {
    const s = memory();
    expect(loadHosts(s)).toEqual([{ name: 'Alex', voice: null }, { name: 'Sam', voice: null }]);
    saveHosts(s, [{ name: 'Ann', voice: { id: 'v1', name: 'V1' } }, { name: ' ', voice: null }]);
    expect(loadHosts(s)).toEqual([{ name: 'Ann', voice: { id: 'v1', name: 'V1' } }, { name: 'Sam', voice: null }]);
    expect(apiHosts(loadHosts(s))).toEqual([{ name: 'Ann', voice_id: 'v1' }, { name: 'Sam', voice_id: '' }]);
    expect(generateMissing(apiHosts(loadHosts(s)), 3)).toBe('Choose a voice for each host.');
    expect(generateMissing([{ name: 'A', voice_id: 'a' }, { name: 'B', voice_id: 'b' }], 0)).toMatch(/1 to 30/);
    expect(generateMissing([{ name: 'A', voice_id: 'a' }, { name: 'B', voice_id: 'b' }], 2)).toBe('');
  });
});

describe('streaming chunks', () => {
  const chunk = (index: number): StreamChunk => ({ index, chapter: 0, sentence: index, segment: 0, text: `S${index}.`, url: `u${index}`, duration_ms: 500 });

  it('chunks merge in order, each once; the next request starts after the unbroken run', () => {
    const have = addChunks(addChunks([], [chunk(1), chunk(0)]), [chunk(1), chunk(3)]);
    expect(have.map((c) => c.index)).toEqual([0, 1, 3]);
    expect(nextFrom(have)).toBe(2);
    expect(nextFrom([])).toBe(0);
  });

  it('plays the next chunk when it is there, waits while rendering, ends when done', () => {
    const have = [chunk(0), chunk(1)];
    expect(nextStep(have, -1, false)).toEqual({ play: 0 });
    expect(nextStep(have, 0, false)).toEqual({ play: 1 });
    expect(nextStep(have, 1, false)).toEqual({ wait: true });
    expect(nextStep(have, 1, true)).toEqual({ end: true });
    expect(streamLabel(-1, 0, 0, false)).toBe('Waiting for the first sentence…');
    expect(streamLabel(1, 2, 10, false)).toBe('Sentence 2 of 10 (still rendering)');
  });
});

describe('podcast helpers', () => {
  it('marks flagged words, case-insensitive, overlaps once', () => {
    expect(markFlagged('In 1999 Bob said 1999.', ['1999', 'bob'])).toEqual([
      { text: 'In ', flagged: false }, { text: '1999', flagged: true }, { text: ' ', flagged: false }, { text: 'Bob', flagged: true },
      { text: ' said ', flagged: false }, { text: '1999', flagged: true }, { text: '.', flagged: false },
    ]);
    expect(markFlagged('plain', [])).toEqual([{ text: 'plain', flagged: false }]);
    expect(markFlagged('', [])).toEqual([{ text: '', flagged: false }]);
  });

  it('violations by turn, edited turns, lengths', () => {
    expect(violationsByTurn([{ turn: 2, kind: 'number', text: '7' }, { turn: 2, kind: 'name', text: 'Bo' }]).get(2)?.length).toBe(2);
    const turns = [{ host: 0, text: 'Hello.' }, { host: 1, text: 'Hi.' }];
    expect(edited(turns, ['Hello.', 'Hi.'])).toBe(false);
    expect(edited(turns, ['Hello there.', 'Hi.'])).toBe(true);
    expect(editedTurns(turns, ['Hello there. ', ''])).toEqual([{ host: 0, text: 'Hello there.' }]);
    expect(lengthLabel(150)).toBe('about 2 min 30 s');
    expect(lengthLabel(45)).toBe('about 45 s');
  });

  it('download names are safe', () => {
    expect(downloadName('Harbour Reborn: a story!', 'mp3')).toBe('Harbour-Reborn-a-story.mp3');
    expect(downloadName('***', 'm4b')).toBe('lectern.m4b');
  });
});

describe('following a render', () => {
  it('polls until it ends; a render that is gone stops with gone set', async () => {
    vi.useFakeTimers();
    try {
      vi.stubGlobal('sessionStorage', { getItem: () => '' });
      const answers = [{ status: 'running' }, { status: 'succeeded' }];
      vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ id: 'r', progress: 0, format: 'mp3', voice_id: 'v', ...answers.shift() }), { status: 200 }));
      const seen: string[] = [];
      followRender('r', (s) => seen.push(s.status), () => seen.push('error'));
      await vi.runAllTimersAsync();
      expect(seen).toEqual(['running', 'succeeded']);

      vi.stubGlobal('fetch', async () => new Response('{"detail":"no render r"}', { status: 404 }));
      const errors: boolean[] = [];
      followRender('r', () => {}, (_, gone) => errors.push(gone));
      await vi.runAllTimersAsync();
      expect(errors).toEqual([true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the speed menu keeps a remembered speed that is not a usual one', () => {
    expect(speedChoices(1)).toBe(SPEEDS);
    expect(speedChoices(1.1)).toEqual([0.5, 0.75, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3]);
  });
});

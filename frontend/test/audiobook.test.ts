import { describe, expect, it } from 'vitest';
import {
  appendSegments, castModeFrom, chapterKey, chapterOfKey, cutAround, latestPlace, spokenSegment, importNote, MAX_UPLOAD_BYTES, uploadProblem, castNote, colourIndex, contrast, groupParagraphs, withoutHeading, loadCastMode, PALETTE_SIZE, parseAudiobookHash, percent,
  replaceSegment, saveCastMode, segmentPosition, speakerChoices, speakerColour, SPAN_MODE_KEY, type Character, type Segment,
} from '../src/lib/audiobook';

function memory(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v), removeItem: (k) => void m.delete(k), clear: () => m.clear(), key: () => null, length: 0 };
}

let n = 0;
const seg = (text: string, over: Partial<Segment> = {}): Segment => ({
  id: `c00-s${String(n++).padStart(4, '0')}`, chapter: 0, start: 0, end: text.length, kind: 'narration', text, ...over,
});
const line = (text: string, speaker: string, over: Partial<Segment> = {}) => seg(text, { kind: 'dialogue', speaker, ...over });
const said = (ps: ReturnType<typeof groupParagraphs>) => ps.map((p) => p.pieces.map((x) => x.text).join(''));

describe('ab-span-mode', () => {
  it('0 selects the classic engine; any other state selects span mode', () => {
    expect(castModeFrom('0')).toBe('classic');
    expect(castModeFrom(' 0 ')).toBe('classic');
    for (const other of [null, undefined, '', '1', '2', 'span', 'false', '00x', '-1']) expect(castModeFrom(other)).toBe('span');
  });

  it('is stored under exactly ab-span-mode and read back', () => {
    const s = memory();
    expect(loadCastMode(s)).toBe('span');
    saveCastMode(s, 'classic');
    expect(s.getItem('ab-span-mode')).toBe('0');
    expect(SPAN_MODE_KEY).toBe('ab-span-mode');
    expect(loadCastMode(s)).toBe('classic');
    saveCastMode(s, 'span');
    expect(s.getItem('ab-span-mode')).toBe('1');
    expect(loadCastMode(s)).toBe('span');
  });

  it('a storage that refuses falls back to span mode and keeps going', () => {
    const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(loadCastMode(refusing)).toBe('span');
    expect(() => saveCastMode(refusing, 'classic')).not.toThrow();
  });
});

describe('speaker colours', () => {
  it('the same speaker always gets the same colour, whatever the case or spacing', () => {
    expect(speakerColour('Alice')).toEqual(speakerColour('Alice'));
    expect(speakerColour('the  Queen')).toEqual(speakerColour('The Queen'));
    expect(colourIndex('Mock Turtle')).toBe(colourIndex(' mock turtle '));
  });

  it('spreads a cast over the palette', () => {
    const cast = ['Alice', 'the Queen', 'the King', 'the Hatter', 'the March Hare', 'the Duchess', 'the Cat', 'the Mock Turtle', 'the Gryphon', 'the Caterpillar', 'the White Rabbit', 'Bill'];
    const used = new Set(cast.map(colourIndex));
    expect(used.size).toBeGreaterThanOrEqual(8);
    for (const c of cast) expect(colourIndex(c)).toBeLessThan(PALETTE_SIZE);
  });

  it('every colour keeps its text readable (WCAG AAA, 7:1) and its underline visible on it', () => {
    for (let i = 0; i < 400; i++) {
      const c = speakerColour(`speaker ${i}`);
      expect(contrast(c.fg, c.bg)).toBeGreaterThanOrEqual(7);
      expect(contrast(c.border, c.bg)).toBeGreaterThanOrEqual(3);
    }
    const none = speakerColour('');
    expect(none).toEqual(speakerColour(undefined));
    expect(contrast(none.fg, none.bg)).toBeGreaterThanOrEqual(7);
  });
});

describe('segments as paragraphs', () => {
  it('a blank line in narration ends a paragraph; lines of one paragraph stay together with their narration', () => {
    const segs = [
      seg('CHAPTER I.\nDown the Rabbit-Hole\n\n\nAlice was tired; '),
      line('"What is the use of a book,"', 'Alice'),
      seg(' thought Alice\n'),
      line('"without pictures?"', 'Alice'),
      seg('\n\nSo she was considering.\n\n'),
    ];
    const ps = groupParagraphs(segs);
    expect(said(ps)).toEqual([
      'CHAPTER I. Down the Rabbit-Hole',
      'Alice was tired; "What is the use of a book," thought Alice "without pictures?"',
      'So she was considering.',
    ]);
    expect(ps[1].pieces.map((p) => p.seg.kind)).toEqual(['narration', 'dialogue', 'narration', 'dialogue']);
    expect(new Set(ps.map((p) => p.key)).size).toBe(ps.length);
  });

  it('the chapter heading, shown as the title, is not shown again in the prose (one line or two)', () => {
    const one = groupParagraphs([seg('CHAPTER I. Down the Rabbit-Hole\n\nAlice was tired.')]);
    expect(said(withoutHeading(one, 'CHAPTER I. Down the Rabbit-Hole'))).toEqual(['Alice was tired.']);
    const two = groupParagraphs([seg('CHAPTER I.\n\nDown the Rabbit-Hole\n\nAlice was tired.')]);
    expect(said(withoutHeading(two, 'CHAPTER I. Down the Rabbit-Hole'))).toEqual(['Alice was tired.']);
    const none = groupParagraphs([seg('Alice was tired.')]);
    expect(said(withoutHeading(none, 'Opening'))).toEqual(['Alice was tired.']);
  });

  it('a quotation over two paragraphs is one segment in both, its second piece not a new line start', () => {
    const q = line('"First part.\n\n"Second part."', 'the Hatter');
    const ps = groupParagraphs([seg('He said: '), q, seg(' and stopped.')]);
    expect(said(ps)).toEqual(['He said: "First part.', '"Second part." and stopped.']);
    expect(ps[0].pieces[1]).toMatchObject({ seg: q, part: 0 });
    expect(ps[1].pieces[0]).toMatchObject({ seg: q, part: 1 });
  });

  it('a chapter starts a paragraph; empty and whitespace-only segments draw nothing', () => {
    const ps = groupParagraphs([seg('End of one.'), seg('   \n  '), seg('Start of two.', { chapter: 1 }), seg('')]);
    expect(said(ps)).toEqual(['End of one.', 'Start of two.']);
    expect(ps.map((p) => p.chapter)).toEqual([0, 1]);
    expect(groupParagraphs([])).toEqual([]);
  });

  it('Windows line ends break paragraphs too', () => {
    expect(said(groupParagraphs([seg('One.\r\n\r\nTwo.')]))).toEqual(['One.', 'Two.']);
  });

  it('pages append without repeating a segment, and a saved line replaces its old state keeping its text', () => {
    const a = seg('a');
    const b = line('"b"', 'Alice', { mark: 'disputed', other_answer: 'the Queen' });
    expect(appendSegments([a, b], [b, seg('c')]).map((s) => s.text)).toEqual(['a', '"b"', 'c']);
    const next = replaceSegment([a, b], { ...b, text: undefined, speaker: 'the Queen', source: 'hand', mark: '' });
    expect(next[1]).toMatchObject({ speaker: 'the Queen', source: 'hand', mark: '', text: '"b"' });
    expect(next[0]).toBe(a);
  });
});

describe('the rest of the section', () => {
  it('finds the place of a line in its chapter from its id (span and classic ids)', () => {
    expect(segmentPosition('c03-s0042')).toBe(42);
    expect(segmentPosition('c11-k012345')).toBe(12345);
    expect(segmentPosition('c03-x0042')).toBeNull();
    expect(segmentPosition('../c03-s0042')).toBeNull();
  });

  it('refuses an empty, too large or unknown file before sending it', () => {
    expect(uploadProblem({ name: 'alice.txt', size: 144277 })).toBe('');
    expect(uploadProblem({ name: 'Book.EPUB', size: MAX_UPLOAD_BYTES })).toBe('');
    expect(uploadProblem({ name: 'empty.txt', size: 0 })).toBe('empty.txt is empty.');
    expect(uploadProblem({ name: 'war.txt', size: MAX_UPLOAD_BYTES + 1 })).toBe('war.txt is larger than 4 MiB, the most a book may have.');
    expect(uploadProblem({ name: 'scan.pdf', size: 10 })).toBe('scan.pdf is not a .txt or .epub file.');
  });

  it('reads its hash', () => {
    expect(parseAudiobookHash('#/audiobook')).toEqual({});
    expect(parseAudiobookHash('#/audiobook/abcd1234')).toEqual({ book: 'abcd1234' });
    expect(parseAudiobookHash('#/audiobook/abcd1234/3')).toEqual({ book: 'abcd1234', chapter: 3 });
    expect(parseAudiobookHash('#/audiobook/abcd1234/x')).toEqual({ book: 'abcd1234' });
    expect(parseAudiobookHash('#/audiobook/..%2F')).toEqual({});
    expect(parseAudiobookHash('#/magazine/abcd1234')).toEqual({});
  });

  const ch = (name: string, lines: number, mentions = 0): Character => ({ id: name.toLowerCase(), name, aliases: [], gender: '', narrator: false, lines, mentions, version: 1 });

  it('offers speakers most lines first and keeps a current speaker the cast lacks', () => {
    const cast = [ch('Bill', 1), ch('Alice', 40), ch('the Queen', 12, 5), ch('the King', 12, 9)];
    expect(speakerChoices(cast, 'Alice')).toEqual(['Alice', 'the King', 'the Queen', 'Bill']);
    expect(speakerChoices(cast, 'Dinah')).toEqual(['Dinah', 'Alice', 'the King', 'the Queen', 'Bill']);
  });

  it('says how an import stands: waiting, the job\'s step with its progress, or failed with the recorded reason', () => {
    const b = { filename: 'alice.epub', error: undefined };
    expect(importNote({ ...b, status: 'ready' })).toEqual({ state: 'ready', text: '' });
    expect(importNote({ ...b, status: 'importing' }).text).toBe('Importing alice.epub: waiting to start…');
    expect(importNote({ ...b, status: 'importing', import_job_status: { status: 'queued', progress: 0 } }).text).toBe('Importing alice.epub: waiting to start…');
    expect(importNote({ ...b, status: 'importing', import_job_status: { status: 'running', progress: 0.5, message: 'finding the cast and naming the speakers' } }))
      .toEqual({ state: 'importing', text: 'Importing alice.epub: finding the cast and naming the speakers (50%)…' });
    expect(importNote({ ...b, status: 'failed', error: 'long.epub: epub: the text runs past 8388608 bytes: the book is too large' }))
      .toEqual({ state: 'failed', text: 'The import failed: long.epub: epub: the text runs past 8388608 bytes: the book is too large.' });
    expect(importNote({ ...b, status: 'failed', error: 'the server stopped 2 times while importing this book.' }).text).toBe('The import failed: the server stopped 2 times while importing this book.');
    expect(importNote({ ...b, status: 'failed' }).text).toBe('The import failed: no reason was recorded.');
  });

  it('says how a cast ended', () => {
    expect(castNote({ status: 'failed', error: 'LLM call failed: 500' })).toEqual({ ok: false, text: 'Casting failed: LLM call failed: 500' });
    const done = castNote({ status: 'succeeded', result: { mode: 'span', requests: 2, asked_spans: 61, verify_requests: 25, agreed: 900, disputed: 1, kept_hand_set: 1 } });
    expect(done.ok).toBe(true);
    expect(done.text).toBe('Cast in span mode: 2 LLM request(s) about 61 line(s) the rules left; verified with 25 request(s): 900 agreed, 1 disputed; 1 speaker(s) set by hand kept.');
    expect(castNote({ status: 'succeeded', result: { mode: 'classic', requests: 3 } }).text).toBe('Cast in classic mode: 3 LLM request(s).');
    expect(percent(0.485)).toBe('48.5%');
  });
});

describe('the text follows a playing chapter', () => {
  it('a chapter key names its book and chapter, and no other', () => {
    expect(chapterOfKey('book1', chapterKey('book1', 3))).toBe(3);
    expect(chapterOfKey('book1', chapterKey('book2', 3))).toBeNull();
    expect(chapterOfKey('book1', 'article:book1/3')).toBeNull();
    expect(chapterOfKey('book1', 'chapter:book1/x')).toBeNull();
    expect(chapterOfKey('book1', undefined)).toBeNull();
  });
  it("the render's segment number skips blank segments, as the render does", () => {
    const segs = [seg('CHAPTER I.'), seg('  \n '), line('"Hello," ', 'Ann'), seg('she said.'), line('"Bye."', 'Bob')];
    expect(spokenSegment(segs, 0)).toBe(segs[0].id);
    expect(spokenSegment(segs, 1)).toBe(segs[2].id);
    expect(spokenSegment(segs, 3)).toBe(segs[4].id);
    expect(spokenSegment(segs, 4)).toBeNull(); // not loaded yet
    expect(spokenSegment(segs, undefined)).toBeNull();
    expect(spokenSegment(segs, -1)).toBeNull();
  });
  it('the spoken sentence is cut out of its piece, whitespace read as one space', () => {
    expect(cutAround('It rained. The wind rose at night. Then dawn.', 'The wind\nrose at night.')).toEqual(['It rained. ', 'The wind rose at night.', ' Then dawn.']);
    expect(cutAround('It rained.', 'Not here.')).toBeNull();
    expect(cutAround('It rained.', '  ')).toBeNull();
  });
  it('Continue listening picks the chapter left last', () => {
    const places = new Map([[0, { ms: 5000, at: 10 }], [2, { ms: 9000, at: 30 }], [1, null], [4, { ms: 3000, at: 20 }]]);
    expect(latestPlace(places)).toEqual({ chapter: 2, place: { ms: 9000, at: 30 } });
    expect(latestPlace(new Map([[0, null]]))).toBeNull();
  });
});

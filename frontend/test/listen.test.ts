import { describe, expect, it } from 'vitest';
import { finished, parseChapters, playerTimings, pollDelay, progressLabel, renderRequest, SAMPLE_TEXT } from '../src/lib/listen';
import { chapterAt, sentenceAt } from '../src/lib/player';

describe('the Listen text', () => {
  it('"# " lines start chapters; blank lines separate paragraphs; lines of a paragraph join', () => {
    expect(parseChapters('# One\n\nFirst sentence. Second sentence.\n\n# Two\n\nThird sentence.')).toEqual([
      { title: 'One', text: 'First sentence. Second sentence.' },
      { title: 'Two', text: 'Third sentence.' },
    ]);
    expect(parseChapters('Intro line one\nline two\n\n\nNext paragraph.\r\n#  Later  \r\nEnd.')).toEqual([
      { title: '', text: 'Intro line one line two\n\nNext paragraph.' },
      { title: 'Later', text: 'End.' },
    ]);
  });
  it('a heading with no text, "#" without a space, and an empty box', () => {
    expect(parseChapters('# Empty\n\n# Full\nText.')).toEqual([{ title: 'Full', text: 'Text.' }]);
    expect(parseChapters('#hashtag is text')).toEqual([{ title: '', text: '#hashtag is text' }]);
    expect(parseChapters('  \n\n ')).toEqual([]);
    expect(parseChapters(SAMPLE_TEXT).length).toBe(2);
  });
  it('one untitled chapter is sent as text, chapters as chapters', () => {
    expect(renderRequest('v1', 'Just this.', 'm4b')).toEqual({ voice_id: 'v1', format: 'm4b', text: 'Just this.' });
    expect(renderRequest('v1', '# A\nOne.\n# B\nTwo.', 'mp3', ' Title ')).toEqual({
      voice_id: 'v1', format: 'mp3', title: 'Title', chapters: [{ title: 'A', text: 'One.' }, { title: 'B', text: 'Two.' }],
    });
  });
});

describe("a render's timings as the player's props", () => {
  const timings = {
    duration_ms: 3795,
    chapters: [
      { title: 'One', start_ms: 0, end_ms: 2579, sentences: [
        { text: 'First sentence.', start_ms: 0, end_ms: 1244, segment: 0 },
        { text: 'Second sentence.', start_ms: 1244, end_ms: 2579, segment: 0 },
      ] },
      { title: 'Two', start_ms: 2579, end_ms: 3795, sentences: [{ text: 'Third sentence.', start_ms: 2579, end_ms: 3795, segment: 0 }] },
    ],
  };
  it('chapters by start and every sentence; the time of chapter Two highlights its sentence', () => {
    const p = playerTimings(timings);
    expect(p.chapters).toEqual([{ title: 'One', start_ms: 0 }, { title: 'Two', start_ms: 2579 }]);
    expect(p.sentences.map((s) => s.text)).toEqual(['First sentence.', 'Second sentence.', 'Third sentence.']);
    expect(chapterAt(p.chapters, 2579)).toBe(1);
    expect(p.sentences[sentenceAt(p.sentences, 2579)].text).toBe('Third sentence.');
  });
  it("a book chapter's sentences keep their segment", () => {
    const p = playerTimings({ duration_ms: 9, chapters: [{ title: 'I', start_ms: 0, end_ms: 9, sentences: [{ text: 'A.', start_ms: 0, end_ms: 4, segment: 0 }, { text: 'B.', start_ms: 4, end_ms: 9, segment: 2 }] }] });
    expect(p.sentences.map((s) => s.segment)).toEqual([0, 2]);
  });
  it('null lists, untitled chapters and no timings', () => {
    expect(playerTimings({ duration_ms: 1, chapters: null })).toEqual({ chapters: [], sentences: [] });
    expect(playerTimings(undefined)).toEqual({ chapters: [], sentences: [] });
    const one = playerTimings({ duration_ms: 9, chapters: [{ title: '', start_ms: 0, end_ms: 9, sentences: null }] });
    expect(one.chapters).toEqual([]);
    const two = playerTimings({ duration_ms: 9, chapters: [{ title: '', start_ms: 0, end_ms: 4, sentences: [] }, { title: 'B', start_ms: 4, end_ms: 9, sentences: [] }] });
    expect(two.chapters.map((c) => c.title)).toEqual(['Chapter 1', 'B']);
  });
});

describe('render progress', () => {
  it('polling stops once the render ended', () => {
    expect(finished({ status: 'queued' })).toBe(false);
    expect(finished({ status: 'running' })).toBe(false);
    expect(finished({ status: 'succeeded' })).toBe(true);
    expect(finished({ status: 'failed' })).toBe(true);
  });
  it('says where the render is', () => {
    expect(progressLabel({ status: 'queued', progress: 0 })).toBe('Waiting to start…');
    expect(progressLabel({ status: 'running', progress: 0.5, message: '2 of 4 chunks spoken' })).toBe('Speaking… 50% (2 of 4 chunks spoken)');
    expect(progressLabel({ status: 'failed', progress: 0.5, error: 'engine down' })).toBe('Failed: engine down');
  });
  it('polls quickly at first, then every 2 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(pollDelay)).toEqual([250, 500, 1000, 2000, 2000, 2000]);
  });
});

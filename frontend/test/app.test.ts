import { describe, expect, it } from 'vitest';
import { ApiError, CAUSE, explain } from '../src/lib/api';
import { retryDelay } from '../src/lib/connection';
import { sameEngineURL } from '../src/lib/engines';
import { ingesting, pagesLabel, type Issue } from '../src/lib/magazine';
import { sending, type Upload } from '../src/lib/uploads.svelte';

describe('connection banner', () => {
  it('retries after 1, 2, 4, 8 s and then every 15 s', () => {
    expect([0, 1, 2, 3, 4, 9].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 15000, 15000]);
  });
});

describe('error texts', () => {
  it('shows the whole sentence for the user and keeps the rest for the details', () => {
    const e = new ApiError(422, {
      title: 'Unprocessable Entity',
      detail: 'The box is off the page. It ends at x=900 on a page 612 wide.',
      errors: [{ location: 'body.bbox', message: 'outside the page' }],
    });
    const shown = explain(e);
    expect(shown.short).toBe('The box is off the page. It ends at x=900 on a page 612 wide.');
    expect(shown.details).toEqual(['HTTP 422 Unprocessable Entity', 'body.bbox: outside the page']);
  });
  it('says there was no answer when the server did not reply', () => {
    const shown = explain(new ApiError(0, { title: 'Server unreachable', detail: 'The server did not answer.' }));
    expect(shown.short).toBe('The server did not answer.');
    expect(shown.details).toEqual(['no answer from the server']);
  });
  it('never cuts a long sentence, and keeps the technical cause out of it', () => {
    const detail = `This PDF is damaged or cut short, so its pages cannot be read. ${'Download or export it again and upload the new copy. '.repeat(3)}`.trim();
    const e = new ApiError(422, { title: 'Unprocessable Entity', detail, errors: [{ location: CAUSE, message: 'corrupt: read context: xref table: unexpected eof' }] });
    const shown = explain(e);
    expect(shown.short).toBe(detail);
    expect(shown.details).toContain('Cause: corrupt: read context: xref table: unexpected eof');
    expect(e.message).toBe(detail);
  });
});

describe('issue list', () => {
  it('names the pages of an article as a reader would', () => {
    expect(pagesLabel([])).toBe('');
    expect(pagesLabel([{ page: 3 }, { page: 3 }])).toBe('p. 3');
    expect(pagesLabel([{ page: 4 }, { page: 3 }])).toBe('pp. 3–4');
    expect(pagesLabel([{ page: 2 }, { page: 5 }, { page: 6 }, { page: 7 }])).toBe('pp. 2, 5–7');
  });
  it('polls fast only while an issue is being ingested', () => {
    const is = (status: string) => ({ status }) as Issue;
    expect(ingesting([is('ready'), is('failed')])).toBe(false);
    expect(ingesting([is('ready'), is('processing')])).toBe(true);
  });
});

describe('engine cards', () => {
  it('finds the active LLM whatever the slashes and /v1', () => {
    expect(sameEngineURL('http://Host:8000/', 'http://host:8000/v1')).toBe(true);
    expect(sameEngineURL('http://host:8000', 'http://host:8001/v1')).toBe(false);
    expect(sameEngineURL('', '')).toBe(false);
  });
});

describe('uploads', () => {
  it('averages the uploads still sending for the header', () => {
    const u = (sent: number, issue = '', error: unknown = null) => ({ key: 1, name: 'a.pdf', sent, issue, error, finished: false }) as Upload;
    expect(sending([])).toBeNull();
    expect(sending([u(1, 'done')])).toBeNull();
    expect(sending([u(0.2), u(0.6), u(1, 'done'), u(0.5, '', new Error('x'))])).toBeCloseTo(0.4);
  });
});

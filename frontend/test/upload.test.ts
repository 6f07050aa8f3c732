import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadIssue } from '../src/lib/magazine';
import { FakeXHR } from './fakexhr';

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXHR.reset();
});

describe('upload', () => {
  it('in AWS mode asks for a presigned form, then POSTs its fields and the PDF last to S3', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => '', setItem: () => {}, removeItem: () => {} });
    vi.stubGlobal('XMLHttpRequest', FakeXHR);
    const fetch = vi.fn(async () => new Response(JSON.stringify({
      issue: { id: 'abcdefgh12', title: 'harbour', status: 'uploading' },
      upload_url: 'https://uploads.s3.example', method: 'POST', content_type: 'application/pdf', max_bytes: 209715200,
      fields: { key: 'uploads/abcdefgh12.pdf', 'Content-Type': 'application/pdf', policy: 'eyJ9', 'X-Amz-Signature': 'x' },
    }), { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    const progress: number[] = [];
    const pdf = new Blob(['%PDF-1.7 ...'], { type: 'application/pdf' });
    const issue = await uploadIssue('presigned', pdf, 'harbour.pdf', '', (s) => progress.push(s));
    expect(issue.status).toBe('uploading');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('api/magazine/uploads');
    expect(JSON.parse(init.body as string)).toEqual({ filename: 'harbour.pdf', size: pdf.size });
    expect(FakeXHR.sent).toHaveLength(1);
    expect(FakeXHR.sent[0]).toMatchObject({ method: 'POST', url: 'https://uploads.s3.example' });
    expect(FakeXHR.sent[0].headers).toEqual({});
    const form = FakeXHR.sent[0].body as FormData;
    // S3 reads the policy fields before the file: the file must come last.
    expect([...form.keys()]).toEqual(['key', 'Content-Type', 'policy', 'X-Amz-Signature', 'file']);
    expect(form.get('key')).toBe('uploads/abcdefgh12.pdf');
    const sent = form.get('file') as File;
    expect(sent.type).toBe('application/pdf');
    expect(await sent.text()).toBe('%PDF-1.7 ...');
    expect(progress).toEqual([0.25, 1]);
  });

  it('locally posts the PDF as a form', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => 'tok-123', setItem: () => {}, removeItem: () => {} });
    vi.stubGlobal('XMLHttpRequest', FakeXHR);
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await uploadIssue('form', new Blob(['%PDF']), 'x.pdf', 'Title', () => {});
    expect(fetch).not.toHaveBeenCalled();
    expect(FakeXHR.sent[0]).toMatchObject({ method: 'POST', url: 'api/magazine', headers: { Authorization: 'Bearer tok-123' } });
    expect((FakeXHR.sent[0].body as FormData).get('title')).toBe('Title');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { uploadIssue } from '../src/lib/magazine';
import { FakeXHR } from './fakexhr';

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXHR.reset();
});

describe('upload', () => {
  it('in AWS mode asks for a presigned URL, then PUTs the PDF there with the signed content type', async () => {
    vi.stubGlobal('sessionStorage', { getItem: () => '', setItem: () => {}, removeItem: () => {} });
    vi.stubGlobal('XMLHttpRequest', FakeXHR);
    const fetch = vi.fn(async () => new Response(JSON.stringify({
      issue: { id: 'abcdefgh12', title: 'harbour', status: 'uploading' },
      upload_url: 'https://uploads.s3.example/uploads/abcdefgh12.pdf?X-Amz-Signature=x', method: 'PUT', content_type: 'application/pdf',
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
    expect(FakeXHR.sent[0]).toMatchObject({ method: 'PUT', url: 'https://uploads.s3.example/uploads/abcdefgh12.pdf?X-Amz-Signature=x', headers: { 'Content-Type': 'application/pdf' }, body: pdf });
    expect(FakeXHR.sent[0].headers).not.toHaveProperty('Authorization');
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

// Magazine API calls and the pure helpers the Magazine section draws with.
// Types come from the API document (api.gen.ts): shared/magazine, shared/issues
// and magazineapi as the server describes them.
import { apiUrl, authHeaders, call, problemFrom, reach, sendWithProgress, type Answer, type Listed, type PathParams, type PathWith, type Schemas } from './api';
import { magazineRegionKindValues } from './api.gen';

export type Issue = Schemas['MagazineIssue'];
export type PageError = Schemas['MagazinePageError'];
export type Step = Schemas['IssuesStep'];
export type IssueView = Schemas['MagazineapiIssueView'];
export type PageSummary = Schemas['MagazineapiPageSummary'];
export type Region = Schemas['MagazineRegion'];
export type RegionKind = Region['kind'];
/** [x, y, w, h] in PDF points from the page's top-left corner. */
export type BBox = Region['bbox'];
/** A page as magazineApi.page gives it: its region list is never null. */
export type Page = Listed<Schemas['MagazineapiPageView'], 'regions'>;
/** A live preview: its html is built on the server with every text escaped. */
export type Preview = Schemas['PreviewOutputBody'];

/** Every region kind, in the order the review UI offers them: Go's magazine.Kinds, through the document's enum. */
export const KINDS: readonly RegionKind[] = magazineRegionKindValues;

/** A GET that may answer 304: `changed` is false when the ETag still holds. */
export type Polled<T> = { changed: false } | { changed: true; etag: string; body: T };

async function poll<P extends PathWith<'get'>>(path: P, params: PathParams<'get', P>, etag: string): Promise<Polled<Answer<'get', P>>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders() };
  if (etag) headers['If-None-Match'] = etag;
  const resp = await reach(apiUrl(path, params), { headers, cache: 'no-store' });
  if (resp.status === 304) return { changed: false };
  const text = await resp.text();
  if (!resp.ok) throw problemFrom(resp.status, text);
  return { changed: true, etag: resp.headers.get('ETag') ?? '', body: JSON.parse(text) as Answer<'get', P> };
}

export const magazineApi = {
  list: () => call('get', '/api/magazine', {}).then((r) => ({ ...r, issues: r.issues ?? [] })),
  issue: (doc: string, etag = '') => poll('/api/magazine/{doc}', { doc }, etag),
  pages: (doc: string) => call('get', '/api/magazine/{doc}/pages', { doc }).then((r) => r.pages ?? []),
  page: (id: string, n: number): Promise<Page> =>
    call('get', '/api/magazine/{doc}/pages/{page}', { doc: id, page: n }).then((p) => ({ ...p, regions: p.regions ?? [] })),
  preview: (doc: string, n: number, etag = '') => poll('/api/magazine/{doc}/pages/{page}/preview', { doc, page: n }, etag),
  rename: (doc: string, title: string) => call('patch', '/api/magazine/{doc}', { doc }, { title }),
  remove: (doc: string) => call('delete', '/api/magazine/{doc}', { doc }),
  deleteArticle: (doc: string, article: string) => call('delete', '/api/magazine/{doc}/articles/{article}', { doc, article }),
};

/** How the server takes PDFs: a form post to the API (local) or a presigned form post to S3 (AWS). */
export type UploadMethod = Schemas['IssueListOutputBody']['upload'];

/**
 * Uploads a PDF the way the server takes it, reporting the share sent (0..1).
 * Locally it is a multipart POST to the API; in AWS the server hands out a
 * presigned S3 POST form, bounded by the size limit, and the upload itself
 * starts ingest.
 */
export async function uploadIssue(method: UploadMethod, file: Blob, name: string, title: string, onProgress: (sent: number) => void): Promise<Issue> {
  if (method === 'presigned') {
    const grant = await call('post', '/api/magazine/uploads', {}, {
      filename: name,
      size: file.size,
      title: title.trim() || undefined,
    });
    // S3's POST policy: the signed fields first, the file last. S3 itself
    // refuses a file over the size bound, another key or content type.
    const form = new FormData();
    for (const [k, v] of Object.entries(grant.fields)) form.append(k, v);
    form.append('file', new File([file], name, { type: grant.content_type }));
    await sendWithProgress(grant.method, grant.upload_url, form, {}, onProgress);
    return grant.issue;
  }
  const form = new FormData();
  form.append('file', new File([file], name, { type: 'application/pdf' }));
  if (title.trim()) form.append('title', title.trim());
  const text = await sendWithProgress('POST', apiUrl('/api/magazine', {}), form, { ...authHeaders(), Accept: 'application/json' }, onProgress);
  return JSON.parse(text) as Answer<'post', '/api/magazine'>;
}

/** Progress of an issue for the bar: pages finished of the total and the step shown. */
export function progressOf(view: IssueView): { done: number; total: number; fraction: number; label: string } {
  const pages = view.pages ?? [];
  const total = view.page_count || pages.length;
  const done = pages.filter((p) => p.done).length;
  let label: string;
  if (view.status === 'ready') label = view.page_errors?.length ? `Ready, ${view.page_errors.length} page(s) failed` : 'Ready';
  else if (view.status === 'failed') label = `Failed: ${view.error ?? 'see the page errors'}`;
  else if (!total) label = 'Checking the PDF…';
  else {
    const busy = pages.find((p) => !p.done && p.step !== 'queued');
    // The count is added by progressText, once: the label says only the step.
    label = busy ? `Page ${busy.page}: ${stepLabel(busy.step)}` : 'Reading pages';
  }
  return { done, total, fraction: total ? done / total : 0, label };
}

/** The progress line: the step, then the pages done of the total, once. */
export function progressText(p: { done: number; total: number; label: string }): string {
  return p.total ? `${p.label} — ${p.done} of ${p.total} pages` : p.label;
}

const stepLabels: Record<string, string> = {
  queued: 'waiting',
  render: 'rendered, reading text',
  recognize: 'text read, finding figures',
  figures: 'figures found, cleaning up',
  cleanup: 'cleaned up, ordering',
  order: 'done',
  failed: 'failed',
};

export function stepLabel(step: string): string {
  return stepLabels[step] ?? step;
}

/** The page to show live while ingest runs: the furthest page that has a render. */
export function livePage(view: IssueView): number {
  const rendered = (view.pages ?? []).filter((p) => p.step !== 'queued' && p.step !== 'failed');
  if (!rendered.length) return 0;
  const working = rendered.filter((p) => !p.done);
  return (working.length ? working[0] : rendered[rendered.length - 1]).page;
}

/** Kind → overlay colour: exactly the kinds of KINDS (the type checks it). */
export const KIND_COLORS: Record<RegionKind, string> = {
  headline: '#d92d20',
  deck: '#e04f16',
  subhead: '#f79009',
  byline: '#7a5af8',
  paragraph: '#2e90fa',
  list: '#1570ef',
  caption: '#12b76a',
  'pull-quote': '#ee46bc',
  sidebar: '#6172f3',
  footnote: '#667085',
  source: '#98a2b3',
  'page-number': '#98a2b3',
  furniture: '#98a2b3',
  ad: '#b54708',
  image: '#039855',
  figure: '#039855',
  chart: '#0e9384',
  table: '#0e9384',
  code: '#344054',
  noise: '#d0d5dd',
  duplicate: '#d0d5dd',
  'text-in-image': '#a6f4c5',
};

/** A kind's overlay colour; a kind this build does not know gets a neutral grey. */
export function kindColor(kind: string): string {
  return KIND_COLORS[kind as RegionKind] ?? '#667085';
}

/** Scales a region box in points to the displayed image's pixels. */
export function toDisplay(b: BBox, page: { width: number; height: number }, shown: { width: number; height: number }): BBox {
  const sx = shown.width / page.width;
  const sy = shown.height / page.height;
  return [b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy];
}

/** Regions in reading order first, then any the order leaves out. */
export function inReadingOrder(page: Page): Region[] {
  const byId = new Map(page.regions.map((r) => [r.id, r]));
  const ordered = (page.order ?? []).map((id) => byId.get(id)).filter((r): r is Region => !!r);
  const rest = page.regions.filter((r) => !(page.order ?? []).includes(r.id));
  return [...ordered, ...rest];
}

/** Hash routes of the section: #/magazine, #/magazine/<id>, #/magazine/<id>/<page>,
 *  and the reader: #/magazine/<id>/articles[/<article>]. */
export function parseMagazineHash(hash: string): { issue?: string; page?: number; articles?: true; article?: string } {
  const parts = hash.replace(/^#\/?/, '').split('/');
  if (parts[0] !== 'magazine') return {};
  const issue = /^[a-z0-9]{8,40}$/.test(parts[1] ?? '') ? parts[1] : undefined;
  if (issue && parts[2] === 'articles') {
    const article = /^[A-Za-z0-9_-]{1,64}$/.test(parts[3] ?? '') ? parts[3] : undefined;
    return article ? { issue, articles: true, article } : { issue, articles: true };
  }
  const page = issue && /^\d{1,6}$/.test(parts[2] ?? '') ? Number(parts[2]) : undefined;
  return { issue, page: page && page > 0 ? page : undefined };
}

/** The pages an article's regions sit on, as a reader names them: "p. 3",
 *  "pp. 3–4", "pp. 2, 5–7"; "" when it has none. */
export function pagesLabel(refs: { page: number }[]): string {
  const pages = [...new Set(refs.map((r) => r.page))].sort((a, b) => a - b);
  if (!pages.length) return '';
  const runs: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j] + 1) j++;
    runs.push(i === j ? `${pages[i]}` : `${pages[i]}–${pages[j]}`);
    i = j + 1;
  }
  return `${pages.length === 1 ? 'p.' : 'pp.'} ${runs.join(', ')}`;
}

/** How a split control names a region: its page, kind and first words,
 *  "p. 2 · headline: “Storm Season Ahead”" (the words cut at about 40
 *  characters); by its place when its text is not known. */
export function regionLabel(page: number, region: { kind?: string; text?: string } | undefined, place: number): string {
  const words = (region?.text ?? '').replace(/\s+/g, ' ').trim();
  if (!region || !words) return `p. ${page} · ${region?.kind ?? 'region'} ${place}`;
  const cut = words.length > 40 ? `${words.slice(0, 40).replace(/\s+\S*$/, '')}…` : words;
  return `p. ${page} · ${region.kind ?? 'region'}: “${cut}”`;
}

/** Whether the issue list must keep polling: some issue is still being ingested. */
export function ingesting(issues: Issue[]): boolean {
  return issues.some((i) => i.status === 'processing' || i.status === 'uploading');
}


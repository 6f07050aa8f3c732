// Listening to articles: the renders the reader starts (an article in the
// narrator's voice, the whole issue as one M4B with a chapter per approved
// article), the chunks a render has spoken so far, and the download link.
import { apiUrl, call, callQuery } from './api';
import { speechApi, type Format, type RenderStatus } from './listen';
import type { Article } from './review';
import type { ChunkPage } from './stream';

/** The article's text as Listen speaks it; with descriptions, each picture's description where it occurs. */
export function articleText(doc: string, article: string, descriptions: boolean): Promise<string> {
  return callQuery('/api/magazine/{doc}/articles/{article}/text', { doc, article }, new URLSearchParams({ descriptions: descriptions ? '1' : '0' })).then((r) => r.text);
}

/** Articles in print order: by the first page they are on (those on no page last), ties as listed. */
export function printOrder<T extends Pick<Article, 'regions'>>(articles: readonly T[]): T[] {
  const first = (a: T) => Math.min(...(a.regions ?? []).map((r) => r.page), Infinity);
  return [...articles].sort((x, y) => first(x) - first(y));
}

/** The issue's chapters: one per approved article, titled, in print order. */
export async function issueChapters(doc: string, articles: readonly Article[], descriptions: boolean): Promise<{ title: string; text: string }[]> {
  const approved = printOrder(articles.filter((a) => a.approved));
  const texts = await Promise.all(approved.map((a) => articleText(doc, a.id, descriptions)));
  return approved.map((a, i) => ({ title: a.title, text: texts[i] })).filter((c) => c.text.trim() !== '');
}

export const episodesApi = {
  /** Renders one article in a voice. */
  async article(doc: string, a: Pick<Article, 'id' | 'title'>, voiceID: string, descriptions: boolean, format: Format): Promise<RenderStatus> {
    const text = await articleText(doc, a.id, descriptions);
    if (!text.trim()) throw new Error('This article has nothing to read aloud yet.');
    return speechApi.start({ voice_id: voiceID, format, title: a.title, chapters: [{ title: a.title, text }] });
  },
  /** Renders the issue's approved articles as one M4B, a chapter each. */
  async issue(doc: string, title: string, articles: readonly Article[], voiceID: string, descriptions: boolean): Promise<RenderStatus> {
    const chapters = await issueChapters(doc, articles, descriptions);
    if (!chapters.length) throw new Error('Approve an article first: the issue audiobook has a chapter per approved article.');
    return speechApi.start({ voice_id: voiceID, format: 'm4b', title, chapters });
  },
  /** The chunks a render has spoken from index `from` on. */
  chunks: (id: string, from: number, limit = 50): Promise<ChunkPage> =>
    callQuery('/api/speech/renders/{id}/chunks', { id }, new URLSearchParams({ from: String(from), limit: String(limit) })),
  status: (id: string) => call('get', '/api/speech/renders/{id}', { id }),
};

/** Where a finished render's audio is downloaded. */
export const audioUrl = (id: string) => apiUrl('/api/speech/renders/{id}/audio', { id });

/** A file name for a download: the title's words, safe on every system. */
export function downloadName(title: string, format: Format): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80);
  return `${base || 'lectern'}.${format}`;
}

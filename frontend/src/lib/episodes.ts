// Listening to articles: the renders the reader starts (an article in the
// narrator's voice, the whole issue as one M4B with a chapter per approved
// article; the server decides what is read, readaloud.Narration), the chunks
// a render has spoken so far, and the download link.
import { apiUrl, call, callQuery } from './api';
import type { Format } from './listen';
import type { ChunkPage } from './stream';

export const episodesApi = {
  /** Renders one article in the narrator's voice: its title, then what it reads (descriptions on request). */
  article: (doc: string, article: string, voiceID: string, descriptions: boolean, format: Format) =>
    call('post', '/api/magazine/{doc}/articles/{article}/listen', { doc, article }, { voice_id: voiceID, descriptions, format }),
  /** Renders the issue's approved articles as one M4B, a chapter each in print order. */
  issue: (doc: string, voiceID: string, descriptions: boolean) =>
    call('post', '/api/magazine/{doc}/listen', { doc }, { voice_id: voiceID, descriptions, format: 'm4b' }),
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

// Listening to a voice read a text: the speech renderer's calls, how the
// text box becomes chapters, and how a finished render's timings become the
// audio player's chapters and sentences. Types come from the API document
// (speechapi and shared/speech/render).
import { ApiError, call, type Schemas } from './api';
import type { Chapter, Sentence } from './player';

export type RenderStatus = Schemas['RenderStatus'];
export type RenderTimings = Schemas['RenderTimings'];
export type RenderRequest = Schemas['StartInputBody'];
export type Format = NonNullable<RenderRequest['format']>;
/** One chapter of the text to render. */
export type TextChapter = { title: string; text: string };

export const speechApi = {
  start: (body: RenderRequest) => call('post', '/api/speech/renders', {}, body),
  status: (id: string) => call('get', '/api/speech/renders/{id}', { id }),
};

/** The text the Listen box starts with: two chapters, so the player shows both. */
export const SAMPLE_TEXT = '# Opening\n\nThe lamp was lit at dusk. The sea was calm that night.\n\n# The letter\n\nA letter arrived forty years too late.';

/**
 * The chapters of a text: a line starting with "# " starts a chapter with
 * the rest of the line as its title; the text before the first one is an
 * untitled chapter. Paragraphs are separated by blank lines and kept so;
 * lines of one paragraph are joined with a space. Chapters with no text are
 * dropped (a render speaks text, not titles).
 */
export function parseChapters(text: string): TextChapter[] {
  const chapters: { title: string; paragraphs: string[][] }[] = [{ title: '', paragraphs: [[]] }];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const ch = chapters[chapters.length - 1];
    if (/^#\s/.test(line)) chapters.push({ title: line.slice(1).trim(), paragraphs: [[]] });
    else if (line === '') ch.paragraphs.push([]);
    else ch.paragraphs[ch.paragraphs.length - 1].push(line);
  }
  return chapters
    .map((c) => ({ title: c.title, text: c.paragraphs.filter((p) => p.length).map((p) => p.join(' ')).join('\n\n') }))
    .filter((c) => c.text !== '');
}

/** The render request of a text: one untitled chapter is sent as text, anything else as chapters. */
export function renderRequest(voiceID: string, text: string, format: Format, title = ''): RenderRequest {
  const chapters = parseChapters(text);
  const body: RenderRequest = { voice_id: voiceID, format };
  if (title.trim()) body.title = title.trim();
  if (chapters.length === 1 && !chapters[0].title) body.text = chapters[0].text;
  else body.chapters = chapters;
  return body;
}

/** The audio player's props from a render's timings: chapters by start, every sentence of every chapter. */
export function playerTimings(t: RenderTimings | undefined): { chapters: Chapter[]; sentences: Sentence[] } {
  const chapters: Chapter[] = [];
  const sentences: Sentence[] = [];
  for (const [i, c] of (t?.chapters ?? []).entries()) {
    chapters.push({ title: c.title || `Chapter ${i + 1}`, start_ms: c.start_ms });
    for (const s of c.sentences ?? []) sentences.push({ start_ms: s.start_ms, end_ms: s.end_ms, text: s.text, segment: s.segment });
  }
  // One untitled chapter is no chapter list worth showing.
  return { chapters: chapters.length === 1 && !t?.chapters?.[0].title ? [] : chapters, sentences };
}

/** The render has ended, well or not: polling stops. */
export function finished(s: Pick<RenderStatus, 'status'>): boolean {
  return s.status === 'succeeded' || s.status === 'failed';
}

/** What the progress line says: the server's message, or the state. */
export function progressLabel(s: Pick<RenderStatus, 'status' | 'progress' | 'message' | 'error'>): string {
  switch (s.status) {
    case 'queued':
      return 'Waiting to start…';
    case 'running':
      return `Speaking… ${Math.round((s.progress || 0) * 100)}%${s.message ? ` (${s.message})` : ''}`;
    case 'succeeded':
      return s.message ? `Done: ${s.message}` : 'Done';
    case 'failed':
      return `Failed: ${s.error || 'the render stopped'}`;
  }
  return s.status;
}

/** How long to wait before polling again: quick at first, then every 2 s. */
export function pollDelay(attempt: number): number {
  return Math.min(2000, 250 * 2 ** Math.min(attempt, 3));
}

/**
 * Follows a render until it ends: onStatus sees every state polled, onError
 * every failed poll. No answer or a server error is asked again, slower; a
 * 4xx (the render is gone) stops, with gone set. Returns the stop function.
 */
export function followRender(id: string, onStatus: (s: RenderStatus) => void, onError: (e: unknown, gone: boolean) => void): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = (attempt: number) => {
    timer = setTimeout(async () => {
      if (stopped) return;
      try {
        const s = await speechApi.status(id);
        if (stopped) return;
        onStatus(s);
        if (!finished(s)) poll(attempt + 1);
      } catch (e) {
        if (stopped) return;
        const gone = e instanceof ApiError && e.status >= 400 && e.status < 500;
        onError(e, gone);
        if (!gone) poll(attempt + 1);
      }
    }, pollDelay(attempt));
  };
  poll(0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

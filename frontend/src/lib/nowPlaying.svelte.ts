// The app's one player: what plays (an article, a podcast, an issue or a
// book chapter) and where, whatever page is open. Player.svelte shows it
// and takes the keys; pages start things (play) and read the sentence being
// spoken (text) to highlight it. Two sources share one timeline:
// - a render still speaking: its chunks (a sentence's WAV each) play as they
//   are listed, the next one preloaded; a seek goes anywhere already spoken;
// - a finished file (a book chapter's MP3, or a render whose chunks left the
//   cache) with its sentence timings.
// The pure rules are in player.ts and stream.ts.
import { ApiError } from './api';
import { audioUrl, episodesApi } from './episodes';
import { playerTimings } from './listen';
import {
  chunkTimeline, loadResume, loadSpeed, saveResume, saveSpeed, sentenceFor, sentenceStep, skipTime, SKIP_MS,
  type KeyAction, type Sentence,
} from './player';
import { addChunks, chunkPollDelay, nextFrom, type StreamChunk } from './stream';

export type TrackKind = 'article' | 'podcast' | 'issue' | 'chapter';

/** What to play: a speech render (streamed while it speaks) or a finished file with its timings. */
export type Track = {
  kind: TrackKind;
  /** Names the item for resume: the same article, book chapter… has the same key. */
  key: string;
  title: string;
  render?: string;
  src?: string;
  /** The file's sentence timings (a src), when known. */
  sentences?: Sentence[];
  /** performance.now() when the user asked, for the time to first audio. */
  startedAt?: number;
  /** Anything the page that started it wants back (the reader: whether descriptions are read). */
  meta?: Record<string, unknown>;
};

/** Where to start: a time, or a sentence a page picks once the sentences are known (null: not yet). */
export type StartAt = { ms: number } | { pick: (sentences: readonly Sentence[], done: boolean) => number | null };

export type PlayState = 'idle' | 'waiting' | 'playing' | 'paused' | 'ended';

const storage = () => globalThis.localStorage;

class NowPlaying {
  track = $state<Track | null>(null);
  /** The timeline so far: every sentence spoken (a stream) or timed (a file). */
  sentences = $state<Sentence[]>([]);
  /** Sentences the render will have in all (0 until planned); a file's are all known. */
  total = $state(0);
  /** No more sentences will come. */
  done = $state(false);
  state = $state<PlayState>('idle');
  positionMs = $state(0);
  /** A file's own length, once its metadata is read. */
  fileMs = $state(0);
  speed = $state(loadSpeed(storage()));
  firstAudioMs = $state<number | null>(null);
  error = $state<unknown>(null);
  note = $state('');
  /** The page follows the voice (scrolls with it) until the user scrolls. */
  follow = $state(true);
  /** Bumped when the player should take the keyboard focus. */
  focusTick = $state(0);

  #chunks: StreamChunk[] = [];
  #elements = new Map<number, HTMLAudioElement>();
  #audio: HTMLAudioElement | null = null; // the one playing
  #playingChunk = -1;
  #file: HTMLAudioElement | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #generation = 0;
  #start: StartAt | null = null;
  #whole: { src: string; sentences: Sentence[] } | null = null;
  #saved = 0; // the position last remembered

  /** The sentence being spoken (its index in sentences), -1 between or before. */
  get index(): number {
    return sentenceFor(this.sentences, this.positionMs);
  }

  /** Its text, for the page to highlight (null when nothing is spoken). */
  get text(): string | null {
    const i = this.index;
    return this.state !== 'idle' && this.state !== 'ended' && i >= 0 && this.positionMs < this.sentences[i].end_ms ? this.sentences[i].text : null;
  }

  /** How far can be played now: what is spoken so far, or the whole file. */
  get endMs(): number {
    const timed = this.sentences.length ? this.sentences[this.sentences.length - 1].end_ms : 0;
    return Math.max(timed, this.#file ? this.fileMs : 0);
  }

  /** Whether the item with this key is the one loaded. */
  playing(key: string): boolean {
    return this.track?.key === key;
  }

  /** Plays a track from the start, from a time, or from a sentence a page picks; replaces what played. */
  play(track: Track, from: StartAt | null = null, opts: { focus?: boolean } = {}) {
    this.stop();
    const gen = ++this.#generation;
    this.track = track;
    this.state = 'waiting';
    this.follow = true;
    this.#start = from;
    if (opts.focus) this.focusTick++;
    if (track.src) this.#openFile(track.src, track.sentences ?? [], gen);
    else if (track.render) this.#poll(track.render, gen, 0);
  }

  /** Stops and forgets the track (its place stays remembered). */
  stop() {
    this.remember();
    this.#generation++;
    clearTimeout(this.#timer);
    for (const el of this.#elements.values()) this.#silence(el);
    this.#elements.clear();
    if (this.#file) this.#silence(this.#file);
    this.#file = null;
    this.#audio = null;
    this.#chunks = [];
    this.#playingChunk = -1;
    this.#whole = null;
    this.#start = null;
    this.track = null;
    this.sentences = [];
    this.total = 0;
    this.done = false;
    this.state = 'idle';
    this.positionMs = 0;
    this.fileMs = 0;
    this.firstAudioMs = null;
    this.error = null;
    this.note = '';
  }

  toggle() {
    if (!this.track) return;
    if (this.state === 'ended') return this.seek(0);
    if (this.state === 'paused') {
      this.state = 'waiting';
      return this.seek(this.positionMs);
    }
    this.#audio?.pause();
    this.state = 'paused';
    this.remember();
  }

  /** Plays from ms (kept within what can be played now). */
  seek(ms: number) {
    if (!this.track) return;
    const to = skipTime(ms, 0, this.endMs);
    this.positionMs = to;
    if (this.state === 'paused') {
      if (this.#file) this.#file.currentTime = to / 1000;
      return this.remember();
    }
    if (this.#file) {
      this.#file.currentTime = to / 1000;
      this.#resume(this.#file);
      return;
    }
    const i = sentenceFor(this.sentences, to);
    if (i < 0) {
      this.state = 'waiting';
      return;
    }
    this.#playChunk(i, to - this.sentences[i].start_ms);
  }

  skip(deltaMs: number) {
    this.seek(skipTime(this.positionMs, deltaMs, this.endMs));
  }

  /** Plays from the start of the sentence before or after the one spoken. */
  step(dir: 1 | -1) {
    const i = sentenceStep(this.sentences, this.positionMs, dir);
    if (i >= 0) this.seek(this.sentences[i].start_ms);
  }

  /** Plays from sentence i of the timeline. */
  playSentence(i: number) {
    if (i < 0 || i >= this.sentences.length) return;
    if (this.state === 'paused' || this.state === 'ended') this.state = 'waiting';
    this.seek(this.sentences[i].start_ms);
  }

  act(action: KeyAction) {
    switch (action) {
      case 'toggle':
        return this.toggle();
      case 'back':
        return this.skip(-SKIP_MS);
      case 'forward':
        return this.skip(SKIP_MS);
      case 'previous-sentence':
        return this.step(-1);
      case 'next-sentence':
        return this.step(1);
    }
  }

  setSpeed(value: number) {
    this.speed = saveSpeed(storage(), value);
    for (const el of [...this.#elements.values(), this.#file]) {
      if (!el) continue;
      el.defaultPlaybackRate = this.speed;
      el.playbackRate = this.speed;
    }
  }

  // ---- a render, chunk by chunk -----------------------------------------

  async #poll(render: string, gen: number, attempt: number) {
    try {
      const page = await episodesApi.chunks(render, nextFrom(this.#chunks));
      if (gen !== this.#generation) return;
      this.#chunks = addChunks(this.#chunks, page.chunks);
      this.sentences = chunkTimeline(this.#chunks);
      this.total = page.total;
      this.error = null;
      if (page.status === 'failed') this.note = `The render failed${page.error ? ` (${page.error})` : ''}; what was spoken can be played.`;
      const finished = page.status === 'succeeded' || page.status === 'failed';
      if (page.evicted && page.status === 'succeeded') {
        // The sentences are no longer kept one by one: the whole recording takes over.
        const st = await episodesApi.status(render);
        if (gen !== this.#generation) return;
        const t = playerTimings(st.timings);
        this.#whole = { src: st.audio_url || audioUrl(render), sentences: t.sentences };
        this.note = 'The sentences are no longer kept one by one: playing the whole recording.';
        return this.#openFile(this.#whole.src, this.#whole.sentences, gen);
      }
      this.done = finished && page.next == null;
      this.#started();
      // Waiting for the next sentence (or the first): it plays once listed.
      if (this.state === 'waiting' && this.#start === null && this.#audio === null && this.#playingChunk + 1 < this.sentences.length) {
        this.#playChunk(this.#playingChunk + 1, 0);
      } else this.#preload(this.#playingChunk + 1);
      if (!this.done) this.#timer = setTimeout(() => this.#poll(render, gen, attempt + 1), chunkPollDelay(this.#chunks.length, attempt));
      else if (this.state === 'waiting' && this.#playingChunk >= this.sentences.length - 1 && this.#audio === null) this.#ended();
    } catch (e) {
      if (gen !== this.#generation) return;
      this.error = e;
      // A 4xx (the render is gone) will not change: stop; otherwise ask again, slower.
      if (e instanceof ApiError && e.status >= 400 && e.status < 500) {
        this.state = 'paused';
        this.note = 'This recording is no longer kept: start it again to render it anew.';
        return;
      }
      this.#timer = setTimeout(() => this.#poll(render, gen, attempt + 1), 2000);
    }
  }

  /** Resolves where to start once the sentences allow it, and starts there. */
  #started() {
    const from = this.#start;
    if (!from) return;
    if ('ms' in from) {
      if (this.endMs < from.ms && !this.done) return; // not spoken so far yet
      this.#start = null;
      this.state = 'waiting';
      return this.seek(Math.min(from.ms, this.endMs));
    }
    const i = from.pick(this.sentences, this.done);
    if (i === null && !this.done) return;
    this.#start = null;
    this.state = 'waiting';
    this.seek(i !== null && i >= 0 && i < this.sentences.length ? this.sentences[i].start_ms : 0);
  }

  #element(i: number): HTMLAudioElement {
    let el = this.#elements.get(i);
    if (!el) {
      el = new Audio(this.#chunks[i].url);
      el.preload = 'auto';
      el.defaultPlaybackRate = this.speed;
      el.playbackRate = this.speed;
      this.#elements.set(i, el);
    }
    return el;
  }

  #preload(i: number) {
    if (i >= 0 && i < this.#chunks.length) this.#element(i);
  }

  #playChunk(i: number, offsetMs: number) {
    const gen = this.#generation;
    if (this.#audio && this.#playingChunk !== i) this.#audio.pause();
    // Chunks more than one behind are let go (memory); one ahead is kept.
    for (const [k, el] of this.#elements) if (k < i - 1 || k > i + 1) (this.#silence(el), this.#elements.delete(k));
    const el = this.#element(i);
    const start = this.sentences[i].start_ms;
    this.#playingChunk = i;
    this.#audio = el;
    el.currentTime = Math.max(0, offsetMs) / 1000;
    el.ontimeupdate = () => {
      // Paused, the place is the user's: pause() queues one last timeupdate that must not undo a seek made since.
      if (gen === this.#generation && this.#audio === el && this.state !== 'paused') this.positionMs = start + el.currentTime * 1000;
    };
    el.onended = () => {
      if (gen !== this.#generation || this.#audio !== el) return;
      this.#audio = null;
      this.positionMs = this.sentences[i].end_ms;
      this.remember();
      if (i + 1 < this.sentences.length) this.#playChunk(i + 1, 0);
      else if (this.done) this.#ended();
      else this.state = 'waiting';
    };
    el.onerror = () => {
      if (gen !== this.#generation || this.#audio !== el) return;
      this.note = `Sentence ${i + 1} could not be played.`;
      el.onended?.(new Event('ended'));
    };
    this.positionMs = start + Math.max(0, offsetMs);
    this.#resume(el);
    this.#preload(i + 1);
  }

  // ---- a finished file ---------------------------------------------------

  #openFile(src: string, sentences: Sentence[], gen: number) {
    for (const el of this.#elements.values()) this.#silence(el);
    this.#elements.clear();
    this.#audio = null;
    const el = new Audio(src);
    el.preload = 'auto';
    el.defaultPlaybackRate = this.speed;
    el.playbackRate = this.speed;
    this.#file = el;
    this.sentences = [...sentences].sort((a, b) => a.start_ms - b.start_ms);
    this.total = this.sentences.length;
    this.done = true;
    el.onloadedmetadata = () => {
      if (gen !== this.#generation) return;
      if (Number.isFinite(el.duration)) this.fileMs = el.duration * 1000;
      if (this.#start) this.#started();
      else if (this.state === 'waiting') this.seek(this.positionMs);
    };
    el.ontimeupdate = () => {
      if (gen !== this.#generation || this.#file !== el || this.state === 'paused') return;
      this.positionMs = el.currentTime * 1000;
      // The place is kept every few seconds (a chunk's end keeps it for a stream).
      if (Math.abs(this.positionMs - this.#saved) > 5000) this.remember();
    };
    el.onended = () => {
      if (gen === this.#generation && this.#file === el) this.#ended();
    };
    el.onerror = () => {
      if (gen !== this.#generation) return;
      this.error = new Error(`The audio could not be loaded (${el.error?.message || `code ${el.error?.code ?? '?'}`}).`);
      this.state = 'paused';
    };
  }

  // ---- shared ------------------------------------------------------------

  #resume(el: HTMLAudioElement) {
    const gen = this.#generation;
    this.#audio = el;
    el.playbackRate = this.speed;
    el.onplaying = () => {
      if (gen !== this.#generation) return;
      this.state = 'playing';
      if (this.firstAudioMs === null && this.track?.startedAt !== undefined) this.firstAudioMs = Math.round(performance.now() - this.track.startedAt);
    };
    if (this.state !== 'playing') this.state = 'waiting';
    el.play().catch((e) => {
      if (gen !== this.#generation || (e instanceof DOMException && e.name === 'AbortError')) return;
      this.note = `Press play to listen (${e instanceof Error ? e.message : String(e)}).`;
      this.state = 'paused';
    });
  }

  #ended() {
    this.state = 'ended';
    this.positionMs = this.endMs;
    if (this.track) saveResume(storage(), this.track.key, null);
  }

  /** Keeps the place of what plays, to resume it after a reload (also called when the page goes away). */
  remember() {
    const t = this.track;
    if (!t || this.state === 'ended' || this.state === 'idle') return;
    this.#saved = this.positionMs;
    saveResume(storage(), t.key, { ms: Math.round(this.positionMs), render: t.render, at: Date.now() });
  }

  #silence(el: HTMLAudioElement) {
    el.onended = el.onerror = el.ontimeupdate = el.onplaying = el.onloadedmetadata = null;
    el.pause();
    el.removeAttribute('src');
  }
}

/** The one player of the app. */
export const nowPlaying = new NowPlaying();

/** The remembered place of an item (see player.ts). */
export const resumeOf = (key: string) => loadResume(storage(), key);

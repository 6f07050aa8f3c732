package render

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/speech/ear"
)

// Output formats.
const (
	FormatMP3 = "mp3"
	FormatM4B = "m4b"
)

// ContentType is the media type of an output format: M4B is MP4 audio with
// chapters, which browsers play as audio/mp4.
func ContentType(format string) string {
	if format == FormatM4B {
		return "audio/mp4"
	}
	return "audio/mpeg"
}

// Per-engine chunk limits, in characters. espeak-ng takes any length, but
// one process per sentence keeps the work spread over the workers; Piper
// speaks a sentence per call too, so the first audio comes soon and each
// chunk's timing is a sentence's; an OpenAI-compatible endpoint takes at
// most speech.MaxTextChars.
const (
	EspeakLimit = 1000
	PiperLimit  = 1000
	OpenAILimit = speech.MaxTextChars
)

// lookersPerSpeaker is how many cache look-ups run at once for each engine
// call: two, so the next chunk is known to be missing by the time a
// speaker is free even when a look-up takes a while.
const lookersPerSpeaker = 2

// cacheWriteTimeout bounds a cache write made while a render stops.
const cacheWriteTimeout = 30 * time.Second

// CachePrefix is where spoken chunks are kept, by a digest of everything
// that decides their sound.
const CachePrefix = "speech/cache/"

// Segment is a stretch of a chapter spoken in one voice: a podcast host's
// turn, a character's line.
type Segment struct {
	VoiceID string `json:"voice_id,omitempty" doc:"a voice of the library; empty is the render's voice_id"`
	Text    string `json:"text"`
}

// Chapter is one chapter of a text: its text in the render's voice, or its
// segments, each in its own voice.
type Chapter struct {
	Title    string    `json:"title"`
	Text     string    `json:"text"`
	Segments []Segment `json:"segments,omitempty" doc:"the chapter by voice; give text or segments"`
}

// segments is the chapter as segments: its text is one in the default voice.
func (c Chapter) segments() []Segment {
	if len(c.Segments) > 0 {
		return c.Segments
	}
	return []Segment{{Text: c.Text}}
}

// Engine is the voice a render speaks in.
type Engine struct {
	// Name identifies the engine in the cache: "espeak-ng", or a card's name
	// and model. Two engines with one Name must sound the same.
	Name  string
	Voice string // the engine's own voice id
	// Speaker is asked for WAV, so chunks can be joined without decoding.
	Speaker speech.Synthesizer
	Limit   int // characters per call; 0 means OpenAILimit
	// Concurrency is how many calls it takes at once; 0 means the
	// renderer's Options.Concurrency.
	Concurrency int
}

// Request is one render.
type Request struct {
	// Engine is the default voice's: a chapter's text and a segment
	// without a voice of its own speak in it.
	Engine Engine
	// VoiceID is the default voice's library id, for the timings.
	VoiceID string
	// Voices are the engines of the segments' voices, by library id.
	Voices   map[string]Engine
	Speed    float64 // 0 means 1.0
	Chapters []Chapter
	Format   string // FormatMP3 or FormatM4B
	Title    string
	Artist   string
	// Album is the work the file is part of (a chapter's book); empty is
	// Title. Track and Tracks number it in the album ("3/12"); 0 is none.
	Album         string
	Track, Tracks int
	// Output is the blob key prefix (ending in "/") the audio and the
	// timings are stored under.
	Output string
	// Check has the renderer's ear hear every chunk (see ear.go).
	Check bool
}

// Timings place every sentence in the output, for a player to highlight.
type Timings struct {
	DurationMS int64           `json:"duration_ms"`
	Chapters   []ChapterTiming `json:"chapters"`
}

// ChapterTiming is one chapter's place in the output and its sentences'.
type ChapterTiming struct {
	Title     string           `json:"title"`
	StartMS   int64            `json:"start_ms"`
	EndMS     int64            `json:"end_ms"`
	Sentences []SentenceTiming `json:"sentences"`
}

// SentenceTiming is one sentence's place in the output.
type SentenceTiming struct {
	Text    string `json:"text"`
	StartMS int64  `json:"start_ms"`
	EndMS   int64  `json:"end_ms"`
	VoiceID string `json:"voice_id,omitempty" doc:"the library voice speaking it"`
	Segment int    `json:"segment" doc:"index of its segment within the chapter (0 for a chapter given as text)"`
}

// Result says what a render made and what it cost.
type Result struct {
	Key         string `json:"key" doc:"blob key of the audio"`
	ContentType string `json:"content_type"`
	TimingsKey  string `json:"timings_key" doc:"blob key of the sentence timings (JSON)"`
	// DurationMS is the sum of the chunks' durations.
	DurationMS int64 `json:"duration_ms"`
	Chunks     int   `json:"chunks" doc:"engine-sized pieces of text"`
	Cached     int   `json:"cached" doc:"distinct chunks found in the cache, not spoken again (a chunk said twice is spoken once)"`
	// EngineCalls counts calls made, retries included.
	EngineCalls int `json:"engine_calls"`
	Evicted     int `json:"evicted" doc:"cached chunks of other renders removed afterwards, the least recently used, to keep the cache within its budget"`
	// Ear is what the ear heard; absent on results made before it.
	Ear *EarReport `json:"ear,omitempty" doc:"the speech recognition check of every chunk"`
}

// Progress is told how many chunks are spoken (or found cached) of all.
type Progress func(ctx context.Context, done, total int) error

// Options tune a Renderer; zero values take the defaults.
type Options struct {
	Concurrency int           // engine calls at once; default 2
	MaxAttempts int           // calls per chunk; default 4
	BaseDelay   time.Duration // first backoff; default 500 ms, doubling
	MaxDelay    time.Duration // backoff cap; default 20 s
	// MaxRetryAfter is the longest Retry-After honoured; an engine asking
	// for more fails the chunk as busy (the job retries later). Default 2 min.
	MaxRetryAfter time.Duration
	FFmpeg        string // the command; default "ffmpeg" on PATH
	TempDir       string // work files; default os.TempDir()
	// CacheBudget is how many bytes of spoken chunks the cache keeps:
	// after each render the least recently used beyond it are removed,
	// never the render's own. Default DefaultCacheBudget; negative keeps
	// every chunk.
	CacheBudget int64
	// Ear hears the chunks of renders that ask for a check; nil is none
	// (such renders say the ear is unavailable).
	Ear Listener
}

// DefaultCacheBudget is about 180 hours of espeak-ng's speech (22050 Hz,
// 16-bit mono), or a few dozen audiobooks: recent renders stay cached.
const DefaultCacheBudget = 2 << 30

// Renderer speaks texts into audio files through a blob store.
type Renderer struct {
	blobs blob.Store
	opts  Options
}

// New builds a renderer over blobs (cache, outputs).
func New(blobs blob.Store, opts Options) *Renderer {
	if opts.Concurrency <= 0 {
		opts.Concurrency = 2
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 4
	}
	if opts.BaseDelay <= 0 {
		opts.BaseDelay = 500 * time.Millisecond
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = 20 * time.Second
	}
	if opts.MaxRetryAfter <= 0 {
		opts.MaxRetryAfter = 2 * time.Minute
	}
	if opts.FFmpeg == "" {
		opts.FFmpeg = "ffmpeg"
	}
	if opts.CacheBudget == 0 {
		opts.CacheBudget = DefaultCacheBudget
	}
	return &Renderer{blobs: blobs, opts: opts}
}

// planned is one chunk with its place, its voice and its cache key.
type planned struct {
	chapter int
	Chunk
	key string
	eng Engine
	// segment is the chunk's segment within its chapter, voiceID its
	// segment's library voice.
	segment int
	voiceID string
}

func plannedChunk(chapter int, c Chunk, eng Engine, speed float64) planned {
	return planned{chapter: chapter, Chunk: c, key: CacheKey(eng.Name, eng.Voice, c.Text, speed), eng: eng}
}

// plan cuts req's chapters into chunks, each segment in its voice's
// engine's limit. A segment's end ends a sentence; sentences are numbered
// through the chapter.
func (req Request) plan() ([]planned, error) {
	var out []planned
	for ci, ch := range req.Chapters {
		sentences := 0
		for si, seg := range ch.segments() {
			id, eng := req.VoiceID, req.Engine
			if seg.VoiceID != "" && seg.VoiceID != req.VoiceID {
				id, eng = seg.VoiceID, req.Voices[seg.VoiceID]
			}
			if eng.Speaker == nil {
				return nil, fmt.Errorf("%w: chapter %d segment %d: no engine for voice %q", ErrInvalid, ci+1, si+1, id)
			}
			limit := eng.Limit
			if limit <= 0 {
				limit = OpenAILimit
			}
			cs := Split(seg.Text, limit)
			for _, c := range cs {
				c.Sentence += sentences
				p := plannedChunk(ci, c, eng, req.Speed)
				p.segment, p.voiceID = si, id
				out = append(out, p)
			}
			if n := len(cs); n > 0 {
				sentences += cs[n-1].Sentence + 1
			}
		}
	}
	return out, nil
}

// Plan cuts the chapters into chunks for eng, as Render would.
func Plan(chapters []Chapter, limit int) [][]Chunk {
	if limit <= 0 {
		limit = OpenAILimit
	}
	out := make([][]Chunk, len(chapters))
	for i, c := range chapters {
		out[i] = Split(c.Text, limit)
	}
	return out
}

// CacheKey is the blob key of one chunk's audio: a digest of the engine,
// its voice, the text and the settings, so a key that exists holds the
// right audio and any change makes a new one.
func CacheKey(engine, voice, text string, speed float64) string {
	if speed == 0 {
		speed = 1
	}
	// v2: chunks are stored with exact WAV sizes (see canonicalWAV).
	sum := sha256.Sum256([]byte("v2\x00" + engine + "\x00" + voice + "\x00" + strconv.FormatFloat(speed, 'g', -1, 64) + "\x00wav\x00" + text))
	return CachePrefix + hex.EncodeToString(sum[:16]) + ".wav"
}

// Render speaks req's chapters (each chunk once: cached chunks are not
// spoken again, which is also how a run after a crash resumes), joins them,
// normalises the loudness and encodes the result, storing the audio and
// the timings under req.Output.
func (r *Renderer) Render(ctx context.Context, req Request, progress Progress) (Result, error) {
	if req.Format != FormatMP3 && req.Format != FormatM4B {
		return Result{}, fmt.Errorf("%w: format %q is not mp3 or m4b", ErrInvalid, req.Format)
	}
	chunks, err := req.plan()
	if err != nil {
		return Result{}, err
	}
	if len(chunks) == 0 {
		return Result{}, fmt.Errorf("%w: the text has nothing to speak", ErrInvalid)
	}
	if err := r.storePlan(ctx, req.Output, chunks); err != nil {
		return Result{}, err
	}
	res := Result{Chunks: len(chunks), ContentType: ContentType(req.Format)}
	cached, calls, heard, err := r.synthesize(ctx, req, chunks, progress)
	res.Cached, res.EngineCalls, res.Ear = cached, calls, heard
	if err != nil {
		return res, err
	}

	dir, err := os.MkdirTemp(r.opts.TempDir, "render-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	wavPath := filepath.Join(dir, "speech.wav")
	timings, err := r.assemble(ctx, req, chunks, wavPath)
	if err != nil {
		return res, err
	}
	res.DurationMS = timings.DurationMS
	outPath := filepath.Join(dir, "out."+req.Format)
	if err := r.encode(ctx, req, timings, wavPath, outPath); err != nil {
		return res, err
	}
	res.Key, res.TimingsKey = req.Output+"audio."+req.Format, req.Output+"timings.json"
	tj, err := json.Marshal(timings)
	if err != nil {
		return res, err
	}
	if err := r.blobs.Put(ctx, res.TimingsKey, bytes.NewReader(tj), "application/json"); err != nil {
		return res, fmt.Errorf("store timings: %w", err)
	}
	f, err := os.Open(outPath)
	if err != nil {
		return res, err
	}
	defer f.Close()
	if err := r.blobs.Put(ctx, res.Key, f, res.ContentType); err != nil {
		return res, fmt.Errorf("store audio: %w", err)
	}
	own := make(map[string]bool, len(chunks))
	for _, c := range chunks {
		own[c.key] = true
	}
	// Best effort: the render has made its audio, and a failed eviction
	// leaves the cache over budget only until the next render's.
	res.Evicted, _ = r.evict(ctx, own)
	return res, nil
}

// evict removes the least recently used chunks (by ModTime, which a use
// renews, see cached) until the cache is within its budget, keeping those
// in own, and answers how many it removed.
func (r *Renderer) evict(ctx context.Context, own map[string]bool) (int, error) {
	if r.opts.CacheBudget < 0 {
		return 0, nil
	}
	chunks, err := r.blobs.List(ctx, CachePrefix)
	if err != nil {
		return 0, fmt.Errorf("cache: %w", err)
	}
	var size int64
	for _, c := range chunks {
		size += c.Size
	}
	if size <= r.opts.CacheBudget {
		return 0, nil
	}
	slices.SortFunc(chunks, func(a, b blob.Info) int { return a.ModTime.Compare(b.ModTime) })
	removed := 0
	for _, c := range chunks {
		if size <= r.opts.CacheBudget {
			break
		}
		if own[c.Key] {
			continue
		}
		if err := r.blobs.Delete(ctx, c.Key); err != nil {
			return removed, fmt.Errorf("cache: %w", err)
		}
		_ = r.blobs.Delete(ctx, earKey(c.Key)) // its verdict, if any

		size -= c.Size
		removed++
	}
	return removed, nil
}

// synthesize makes sure every chunk's audio is in the cache, speaking the
// missing ones in text order with at most each engine's concurrency of
// calls to it at once, and
// answers how many were cached already and how many engine calls it made.
// Cache look-ups and writes run beside the calls, not between them, so a
// slow disk or bucket does not leave the engine idle.
func (r *Renderer) synthesize(ctx context.Context, req Request, chunks []planned, progress Progress) (cached, calls int, heard *EarReport, err error) {
	speed := req.Speed
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var nCached, nCalls, done atomic.Int64
	var total int
	var mu sync.Mutex // progress calls in order, one at a time
	lastStep := -1
	report := func() {
		d := int(done.Add(1))
		// About 20 reports a render: each is a write of the job record.
		step := d * 20 / total
		mu.Lock()
		defer mu.Unlock()
		if progress != nil && (step != lastStep || d == total) {
			lastStep = step
			if err := progress(ctx, d, total); err != nil {
				cancel(err)
			}
		}
	}
	// A slot per call an engine takes at once, shared by its voices.
	slots := map[string]chan struct{}{}
	workers := 0
	for _, c := range chunks {
		if slots[c.eng.Name] == nil {
			n := r.opts.Concurrency
			if c.eng.Concurrency > 0 {
				n = c.eng.Concurrency
			}
			slots[c.eng.Name] = make(chan struct{}, n)
			workers += n
		}
	}
	workers = min(workers, len(chunks))
	// The ear, set before the first chunk is fed; nil hears nothing.
	var ears *listening
	type spoken struct {
		planned
		data []byte
	}
	work := make(chan planned)
	// Chunks not in the cache. Unbuffered: the look-ups run at most one
	// chunk per looker ahead of the speakers.
	misses := make(chan planned)
	// Room for a few chunks per speaker, so a slow write (a busy disk, a
	// slow bucket) does not hold a speaker back; at about 200 KB a chunk.
	stores := make(chan spoken, 8*workers)
	var lookers, speakers, writers sync.WaitGroup
	// Cache look-ups run beside the calls too: a speaker that had to wait
	// for one (a round trip to S3) before each call would idle that long.
	for range lookersPerSpeaker * workers {
		lookers.Add(1)
		go func() {
			defer lookers.Done()
			for c := range work {
				if ctx.Err() != nil {
					continue
				}
				hit, err := r.cached(ctx, c.key)
				switch {
				case err != nil:
					cancel(err)
				case hit:
					nCached.Add(1)
					ears.add(c)
					report()
				default:
					select {
					case misses <- c:
					case <-ctx.Done():
					}
				}
			}
		}()
	}
	for range workers {
		speakers.Add(1)
		go func() {
			defer speakers.Done()
			for c := range misses {
				if ctx.Err() != nil {
					continue
				}
				eng, slot := c.eng, slots[c.eng.Name]
				select {
				case slot <- struct{}{}:
				case <-ctx.Done():
					continue
				}
				audio, n, err := r.speak(ctx, eng, speech.Request{Text: c.Text, Voice: eng.Voice, Format: speech.FormatWAV, Speed: speed})
				<-slot
				nCalls.Add(int64(n))
				var wav []byte
				if err == nil {
					if f, pcm, perr := parseWAV(audio.Data); perr != nil {
						err = fmt.Errorf("%w: engine %s: %v", ErrEngine, eng.Name, perr)
					} else if _, _, exact := parseCachedWAV(audio.Data); exact == nil {
						wav = audio.Data // espeak-ng's, whose sizes the adapter fixes
					} else {
						wav = canonicalWAV(f, pcm)
					}
				}
				if err != nil {
					cancel(err)
					continue
				}
				stores <- spoken{c, wav}
			}
		}()
		writers.Add(1)
		go func() {
			defer writers.Done()
			for s := range stores {
				// Audio already paid for is kept even when the render is
				// being stopped: the next run then need not speak it again.
				wctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cacheWriteTimeout)
				// A cache put skips the local disk's flush: a chunk a crash
				// damages is found out when read, and spoken again.
				err := r.blobs.PutCache(wctx, s.key, bytes.NewReader(s.data), "audio/wav")
				stop()
				if err != nil {
					cancel(fmt.Errorf("cache: %w", err))
					continue
				}
				ears.add(s.planned)
				report()
			}
		}()
	}
	// A sentence said twice (a refrain, "Yes.") is spoken once.
	seen := make(map[string]bool, len(chunks))
	var unique []planned
	for _, c := range chunks {
		if !seen[c.key] {
			seen[c.key] = true
			unique = append(unique, c)
		}
	}
	total = len(unique)
	switch {
	case !req.Check:
		heard = &EarReport{Status: EarOff, Marked: []MarkedChunk{}}
	case r.opts.Ear == nil:
		heard = &EarReport{Status: EarUnavailable, Reason: ear.ErrUnavailable.Error() + ": this renderer has none", Marked: []MarkedChunk{}}
	default:
		ears = r.listen(ctx, speed, slots, len(unique))
	}
feed:
	for _, c := range unique {
		select {
		case work <- c:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	lookers.Wait()
	close(misses)
	speakers.Wait()
	close(stores)
	writers.Wait()
	if ears != nil {
		// The ear goes on after the last chunk is spoken, so a chunk it
		// has spoken again is the one joined.
		ears.wait()
		heard = ears.report(chunks)
		nCalls.Add(int64(ears.calls))
	}
	return int(nCached.Load()), int(nCalls.Load()), heard, context.Cause(ctx)
}

// touchAfter is how old a cached chunk's mark of use may get before a
// render that uses it marks it again: eviction goes by the day, so once a
// day is enough, and in S3 a mark is a copy of the object.
const touchAfter = 24 * time.Hour

// cached reports whether key is in the cache, marking its use. A chunk too
// short to be one (what a crash may leave of a cache put) is missing.
func (r *Renderer) cached(ctx context.Context, key string) (bool, error) {
	info, err := r.blobs.Head(ctx, key)
	switch {
	case errors.Is(err, blob.ErrNotFound):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("cache: %w", err)
	case info.Size <= wavHeaderSize:
		return false, nil
	}
	if time.Since(info.ModTime) > touchAfter {
		// A mark that fails only lets the chunk be evicted sooner.
		if err := r.blobs.Touch(ctx, key); errors.Is(err, blob.ErrNotFound) { // evicted meanwhile
			return false, nil
		}
	}
	return true, nil
}

// speak calls the engine until it answers, a failure is not worth
// retrying, or the attempts are used up. It waits as long as a 429 or 503
// answer's Retry-After asks, else an exponential backoff with jitter.
func (r *Renderer) speak(ctx context.Context, eng Engine, req speech.Request) (speech.Audio, int, error) {
	for attempt := 1; ; attempt++ {
		audio, err := eng.Speaker.Speak(ctx, req)
		if err == nil {
			return audio, attempt, nil
		}
		if ctx.Err() != nil {
			return speech.Audio{}, attempt, ctx.Err()
		}
		if !retryable(err) {
			if errors.Is(err, speech.ErrInvalid) {
				return speech.Audio{}, attempt, fmt.Errorf("%w: engine %s: %v", ErrInvalid, eng.Name, err)
			}
			return speech.Audio{}, attempt, fmt.Errorf("%w: engine %s: %v", ErrEngine, eng.Name, err)
		}
		wait := r.backoff(attempt)
		if ra, ok := retryAfter(err); ok {
			if ra > r.opts.MaxRetryAfter {
				return speech.Audio{}, attempt, fmt.Errorf("%w: engine %s asks to wait %s: %v", ErrBusy, eng.Name, ra, err)
			}
			wait = ra
		}
		if attempt >= r.opts.MaxAttempts {
			return speech.Audio{}, attempt, fmt.Errorf("%w: engine %s, %d attempts: %v", ErrBusy, eng.Name, attempt, err)
		}
		select {
		case <-ctx.Done():
			return speech.Audio{}, attempt, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// backoff is the wait before attempt+1: BaseDelay doubling per attempt, up
// to MaxDelay, of which a random half, so many renders retrying at once
// spread out.
func (r *Renderer) backoff(attempt int) time.Duration {
	d := r.opts.BaseDelay << min(attempt-1, 16)
	d = min(d, r.opts.MaxDelay)
	return d/2 + rand.N(d/2+1)
}

// retryable says whether another call might succeed: no answer, a timeout,
// 408, 425, 429 or a 5xx, or a local engine that failed without refusing
// the request. A refused request or key is final.
func retryable(err error) bool {
	if errors.Is(err, speech.ErrInvalid) || errors.Is(err, speech.ErrUnauthorized) {
		return false
	}
	var ee *speech.EngineError
	if errors.As(err, &ee) {
		s := ee.Status
		return s == 0 || s == http.StatusRequestTimeout || s == http.StatusTooEarly || s == http.StatusTooManyRequests || s >= 500
	}
	return !errors.Is(err, speech.ErrNotInstalled)
}

// retryAfter reads the Retry-After header (seconds or an HTTP date) of an
// engine's 429 or 503 answer.
func retryAfter(err error) (time.Duration, bool) {
	var ee *speech.EngineError
	if !errors.As(err, &ee) || ee.RetryAfter == "" {
		return 0, false
	}
	v := strings.TrimSpace(ee.RetryAfter)
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// assemble joins the chunks' samples, in order, into one WAV file at path
// and times every sentence and chapter from the samples' lengths.
func (r *Renderer) assemble(ctx context.Context, req Request, chunks []planned, path string) (Timings, error) {
	f, err := os.Create(path)
	if err != nil {
		return Timings{}, err
	}
	defer f.Close()
	var format pcmFormat
	if err := writeWAVHeader(f, format, 0); err != nil { // rewritten at the end
		return Timings{}, err
	}
	tm := Timings{Chapters: make([]ChapterTiming, len(req.Chapters))}
	for i, c := range req.Chapters {
		tm.Chapters[i].Title = c.Title
	}
	var total int64 // bytes of samples
	ms := func() int64 {
		if format.SampleRate == 0 {
			return 0
		}
		return format.duration(int(total)).Milliseconds()
	}
	chapterStarted := make([]bool, len(req.Chapters))
	for _, c := range chunks {
		rc, _, err := r.blobs.Get(ctx, c.key)
		if err != nil {
			return Timings{}, fmt.Errorf("cache: %w", err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return Timings{}, fmt.Errorf("cache: %w", err)
		}
		cf, pcm, err := parseCachedWAV(data)
		if err != nil {
			// A chunk a crash cut short: the next run speaks it again.
			_ = r.blobs.Delete(ctx, c.key)
			return Timings{}, fmt.Errorf("cache %s is damaged, removed: %w", c.key, err)
		}
		if format.SampleRate == 0 {
			format = cf
		} else if cf != format {
			// Another voice's engine speaks at another rate: the first
			// chunk's format is the render's.
			pcm = convertPCM(pcm, cf, format)
		}
		ch := &tm.Chapters[c.chapter]
		if !chapterStarted[c.chapter] {
			chapterStarted[c.chapter] = true
			ch.StartMS = ms()
		}
		start := ms()
		if _, err := f.Write(pcm); err != nil {
			return Timings{}, err
		}
		total += int64(len(pcm))
		if n := len(ch.Sentences); n > 0 && n-1 == c.Sentence {
			s := &ch.Sentences[n-1]
			s.Text += " " + c.Text
			s.EndMS = ms()
		} else {
			ch.Sentences = append(ch.Sentences, SentenceTiming{Text: c.Text, StartMS: start, EndMS: ms(), VoiceID: c.voiceID, Segment: c.segment})
		}
		ch.EndMS = ms()
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Timings{}, err
	}
	if err := writeWAVHeader(f, format, total); err != nil {
		return Timings{}, err
	}
	tm.DurationMS = ms()
	// A chapter with no text sits where the previous one ended.
	for i := range tm.Chapters {
		if !chapterStarted[i] && i > 0 {
			tm.Chapters[i].StartMS, tm.Chapters[i].EndMS = tm.Chapters[i-1].EndMS, tm.Chapters[i-1].EndMS
		}
	}
	return tm, f.Close()
}

package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/speech/ear"
)

// Listener transcribes speech (ear.Whisper satisfies it): the words heard
// in the WAV file at path. An error matching ear.ErrUnavailable means it
// cannot listen at all.
type Listener interface {
	Hear(ctx context.Context, path string) (string, error)
}

// Ear statuses of a render.
const (
	EarChecked     = "checked"
	EarOff         = "off"
	EarUnavailable = "unavailable"
)

// EarReport is what the ear made of a render's chunks.
type EarReport struct {
	Status  string  `json:"status" enum:"checked,off,unavailable" doc:"checked; off when switched off (by the request or in Settings); unavailable when Whisper is not installed or failed (the render is unchecked)"`
	Reason  string  `json:"reason,omitempty" doc:"why the ear was unavailable"`
	Checked int     `json:"checked" doc:"distinct chunks heard"`
	Retried int     `json:"retried" doc:"chunks spoken again because they were heard wrong"`
	Median  float64 `json:"median_wer" doc:"median word error rate of the chunks heard"`
	Worst   float64 `json:"worst_wer" doc:"worst word error rate of the chunks heard"`
	// Marked are the chunks still heard wrong after being spoken again.
	Marked []MarkedChunk `json:"marked"`
}

// MarkedChunk is a chunk the ear heard wrong twice.
type MarkedChunk struct {
	Index    int     `json:"index" doc:"the chunk's place in the render, from 0"`
	Chapter  int     `json:"chapter"`
	Sentence int     `json:"sentence" doc:"its sentence's index within the chapter, as in the timings"`
	Text     string  `json:"text" doc:"what the chunk should say"`
	Heard    string  `json:"heard" doc:"what the ear heard"`
	WER      float64 `json:"wer"`
}

// verdict is the ear's word on one chunk's audio, kept beside the cache
// (earKey) so a render that finds the chunk cached need not hear it again.
type verdict struct {
	Heard   string  `json:"heard"`
	WER     float64 `json:"wer"`
	Wrong   bool    `json:"wrong"`
	Retried bool    `json:"retried,omitempty"`
}

// EarPrefix is where verdicts are kept, by the chunk's cache digest.
const EarPrefix = "speech/ear/"

// earVersion names the ear and the rule that made a verdict: another
// model or threshold hears every chunk afresh.
const earVersion = "tiny.en-v1-"

func earKey(cacheKey string) string {
	return EarPrefix + earVersion + strings.TrimSuffix(strings.TrimPrefix(cacheKey, CachePrefix), ".wav") + ".json"
}

// earWindow is how much audio the ear hears at once: Whisper encodes 30 s
// at a time whatever it is given, so a window of sentences costs about
// what one sentence does, and the fuller the window the less the ear costs
// a second of speech. Just under 30 s keeps a window to one pass.
const earWindow = 29500 * time.Millisecond

// earGap is the most silence the ear hears after a chunk: engines end
// sentences with a pause (espeak-ng about 300 ms), which would fill the
// windows with nothing to hear. The output keeps its pauses.
const earGap = 150 * time.Millisecond

// listening hears chunks beside the speakers: the speakers hand it every
// chunk once its audio is in the cache, and it never holds them up (the
// live player plays chunks as they are cached). A chunk heard wrong is
// spoken again once, its new audio replacing the cached one before the
// render joins the chunks.
type listening struct {
	r      *Renderer
	ear    Listener
	speed  float64
	slots  map[string]chan struct{}
	queue  chan planned
	done   chan struct{}
	mu     sync.Mutex
	heard  map[string]verdict // by cache key
	failed error              // the ear stopped: why
	calls  int                // engine calls of retries
}

func (r *Renderer) listen(ctx context.Context, speed float64, slots map[string]chan struct{}, unique int) *listening {
	l := &listening{r: r, ear: r.opts.Ear, speed: speed, slots: slots, queue: make(chan planned, unique), done: make(chan struct{}), heard: map[string]verdict{}}
	go l.run(ctx)
	return l
}

// add hands a chunk whose audio is cached to the ear; it never blocks (the
// queue has room for every distinct chunk).
func (l *listening) add(c planned) {
	if l != nil {
		l.queue <- c
	}
}

// wait closes the queue and waits until every chunk is heard.
func (l *listening) wait() {
	close(l.queue)
	<-l.done
}

func (l *listening) run(ctx context.Context) {
	defer close(l.done)
	// The window being filled: chunks without a verdict, their samples in
	// the first one's format.
	var window []planned
	var pcms [][]byte
	var format pcmFormat
	var filled time.Duration
	flush := func() {
		if len(window) > 0 && ctx.Err() == nil && !l.stopped() {
			l.fail(l.judge(ctx, window, format, pcms))
		}
		window, pcms, filled = nil, nil, 0
	}
	for c := range l.queue {
		if ctx.Err() != nil || l.stopped() {
			continue // drain
		}
		v, ok, err := l.stored(ctx, c.key)
		if err == nil && ok {
			l.record(c.key, v)
			continue
		}
		var f pcmFormat
		var pcm []byte
		if err == nil {
			f, pcm, err = l.load(ctx, c.key)
		}
		if err != nil {
			l.fail(err)
			continue
		}
		pcm = trimTail(f, pcm, earGap)
		if len(window) > 0 && filled+f.duration(len(pcm)) > earWindow {
			flush()
		}
		if len(window) == 0 {
			format = f
		} else if f != format {
			pcm = convertPCM(pcm, f, format)
		}
		window, pcms, filled = append(window, c), append(pcms, pcm), filled+format.duration(len(pcm))
	}
	flush()
}

func (l *listening) stopped() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.failed != nil
}

// fail stops the ear for this render, saying why (a cancelled render is
// not the ear's failure).
func (l *listening) fail(err error) {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return
	}
	l.mu.Lock()
	if l.failed == nil {
		l.failed = err
	}
	l.mu.Unlock()
}

// judge hears a window of chunks at once and gives each its verdict,
// speaking those heard wrong again.
func (l *listening) judge(ctx context.Context, window []planned, format pcmFormat, pcms [][]byte) error {
	text, err := l.hear(ctx, format, pcms)
	if err != nil {
		return err
	}
	wants := make([]string, len(window))
	for i, c := range window {
		wants[i] = c.Text
	}
	heard := ear.Split(wants, text)
	for i, c := range window {
		rate, wrong := ear.Wrong(c.Text, heard[i])
		v := verdict{Heard: heard[i], WER: rate, Wrong: wrong}
		if wrong {
			if v, err = l.retry(ctx, c, v); err != nil {
				return err
			}
		}
		l.keep(ctx, c.key, v)
	}
	return nil
}

// retry speaks a chunk heard wrong again and hears it alone: better audio
// replaces the cached one; still wrong, the chunk is marked.
func (l *listening) retry(ctx context.Context, c planned, first verdict) (verdict, error) {
	slot := l.slots[c.eng.Name]
	select {
	case slot <- struct{}{}:
	case <-ctx.Done():
		return first, ctx.Err()
	}
	audio, n, err := l.r.speak(ctx, c.eng, speech.Request{Text: c.Text, Voice: c.eng.Voice, Format: speech.FormatWAV, Speed: l.speed})
	<-slot
	l.mu.Lock()
	l.calls += n
	l.mu.Unlock()
	first.Retried = true
	if err != nil {
		return first, nil // the first audio stands, marked
	}
	f, pcm, err := parseWAV(audio.Data)
	if err != nil {
		return first, nil
	}
	heard, err := l.hear(ctx, f, [][]byte{pcm})
	if err != nil {
		return first, err
	}
	rate, wrong := ear.Wrong(c.Text, heard)
	if rate >= first.WER {
		return first, nil
	}
	wctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cacheWriteTimeout)
	defer stop()
	if err := l.r.blobs.PutCache(wctx, c.key, bytes.NewReader(canonicalWAV(f, pcm)), "audio/wav"); err != nil {
		return first, fmt.Errorf("cache: %w", err)
	}
	return verdict{Heard: heard, WER: rate, Wrong: wrong, Retried: true}, nil
}

// load reads a chunk's samples from the cache.
func (l *listening) load(ctx context.Context, key string) (pcmFormat, []byte, error) {
	rc, _, err := l.r.blobs.Get(ctx, key)
	if err != nil {
		return pcmFormat{}, nil, fmt.Errorf("cache: %w", err)
	}
	data, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		return pcmFormat{}, nil, fmt.Errorf("cache: %w", err)
	}
	f, pcm, err := parseCachedWAV(data)
	if err != nil {
		return pcmFormat{}, nil, fmt.Errorf("cache %s: %w", key, err)
	}
	return f, pcm, nil
}

// hear writes the pieces as one WAV file and asks the ear what it says.
func (l *listening) hear(ctx context.Context, f pcmFormat, pcms [][]byte) (string, error) {
	file, err := os.CreateTemp(l.r.opts.TempDir, "ear-*.wav")
	if err != nil {
		return "", err
	}
	defer os.Remove(file.Name())
	var total int64
	for _, p := range pcms {
		total += int64(len(p))
	}
	err = writeWAVHeader(file, f, total)
	for _, p := range pcms {
		if err == nil {
			_, err = file.Write(p)
		}
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return l.ear.Hear(ctx, filepath.Clean(file.Name()))
}

// trimTail cuts the silence at the end of 16-bit samples down to keep
// (other formats are left whole).
func trimTail(f pcmFormat, pcm []byte, keep time.Duration) []byte {
	frame := f.Channels * 2
	if f.Bits != 16 || frame == 0 {
		return pcm
	}
	// Quieter than about -50 dBFS is silence.
	const quiet = 100
	end := len(pcm) - len(pcm)%frame
	for end >= frame {
		loud := false
		for i := end - frame; i < end; i += 2 {
			v := int16(uint16(pcm[i]) | uint16(pcm[i+1])<<8)
			if v > quiet || v < -quiet {
				loud = true
				break
			}
		}
		if loud {
			break
		}
		end -= frame
	}
	limit := end + int(keep.Seconds()*float64(f.SampleRate))*frame
	if limit < len(pcm) {
		return pcm[:limit]
	}
	return pcm
}

// stored reads a chunk's verdict, if it has one.
func (l *listening) stored(ctx context.Context, key string) (verdict, bool, error) {
	rc, _, err := l.r.blobs.Get(ctx, earKey(key))
	if errors.Is(err, blob.ErrNotFound) {
		return verdict{}, false, nil
	}
	if err != nil {
		return verdict{}, false, fmt.Errorf("ear verdict: %w", err)
	}
	defer rc.Close()
	var v verdict
	if err := json.NewDecoder(io.LimitReader(rc, 1<<20)).Decode(&v); err != nil {
		return verdict{}, false, nil // damaged: heard again
	}
	return v, true, nil
}

// keep records a verdict and stores it (best effort: a verdict not stored
// is heard again next time).
func (l *listening) keep(ctx context.Context, key string, v verdict) {
	l.record(key, v)
	if data, err := json.Marshal(v); err == nil {
		wctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cacheWriteTimeout)
		_ = l.r.blobs.PutCache(wctx, earKey(key), bytes.NewReader(data), "application/json")
		stop()
	}
}

func (l *listening) record(key string, v verdict) {
	l.mu.Lock()
	l.heard[key] = v
	l.mu.Unlock()
}

// report sums the verdicts up over the render's chunks in order.
func (l *listening) report(chunks []planned) *EarReport {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failed != nil && !errors.Is(l.failed, ear.ErrUnavailable) && len(l.heard) == 0 {
		l.failed = fmt.Errorf("%w: %v", ear.ErrUnavailable, l.failed)
	}
	rep := &EarReport{Status: EarChecked, Marked: []MarkedChunk{}}
	if l.failed != nil {
		rep.Status, rep.Reason = EarUnavailable, l.failed.Error()
	}
	var rates []float64
	seen := map[string]bool{}
	for i, c := range chunks {
		v, ok := l.heard[c.key]
		if !ok {
			continue
		}
		if !seen[c.key] {
			seen[c.key] = true
			rates = append(rates, v.WER)
			if v.Retried {
				rep.Retried++
			}
		}
		if v.Wrong {
			rep.Marked = append(rep.Marked, MarkedChunk{Index: i, Chapter: c.chapter, Sentence: c.Sentence, Text: c.Text, Heard: v.Heard, WER: v.WER})
		}
	}
	rep.Checked = len(rates)
	if len(rates) > 0 {
		slices.Sort(rates)
		rep.Median, rep.Worst = median(rates), rates[len(rates)-1]
	}
	return rep
}

// median of sorted values.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

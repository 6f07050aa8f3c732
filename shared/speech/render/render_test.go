package render

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/blob/localfs"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/engines/speech/oaispeech"
)

func newBlobs(t testing.TB) blob.Store {
	t.Helper()
	s, err := localfs.New(t.TempDir(), "http://127.0.0.1:1", bytes.Repeat([]byte{7}, 32), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// counting counts the calls that reach an engine.
type counting struct {
	next  speech.Synthesizer
	calls atomic.Int64
}

func (c *counting) Speak(ctx context.Context, r speech.Request) (speech.Audio, error) {
	c.calls.Add(1)
	return c.next.Speak(ctx, r)
}

func need(t *testing.T, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("%s is not installed (make deps-system installs it)", c)
		}
	}
}

// probe is what ffprobe says of a file.
type probe struct {
	Format struct {
		Duration string            `json:"duration"`
		Tags     map[string]string `json:"tags"`
	} `json:"format"`
	Chapters []struct {
		StartTime string            `json:"start_time"`
		Tags      map[string]string `json:"tags"`
	} `json:"chapters"`
	Streams []struct {
		CodecName string `json:"codec_name"`
	} `json:"streams"`
}

func ffprobe(t *testing.T, data []byte) probe {
	t.Helper()
	cmd := exec.Command("ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_chapters", "-show_streams", "-")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	var p probe
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func readBlob(t *testing.T, s blob.Store, key string) ([]byte, blob.Info) {
	t.Helper()
	rc, info, err := s.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return data, info
}

var threeChapters = []Chapter{
	{Title: "The Beginning", Text: "It was a bright cold day in April. The clocks were striking thirteen."},
	{Title: "The Middle", Text: "Nobody answered the door. So she waited, and waited; then she left."},
	{Title: "The End", Text: "Everything ended well. Mr. Smith went home!"},
}

// TestRenderM4BWithEspeak is the check: a 3-chapter text spoken
// by the real espeak-ng becomes an M4B with 3 chapters and a duration
// within 2% of the chunks' sum; rendering it again, even with the output
// deleted (a crash after the chunks were spoken), calls no engine.
func TestRenderM4BWithEspeak(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg", "ffprobe")
	ctx := context.Background()
	blobs := newBlobs(t)
	engine := &counting{next: speech.Espeak{}}
	r := New(blobs, Options{})
	req := Request{
		Engine:   Engine{Name: "espeak-ng", Voice: "en-us", Speaker: engine, Limit: EspeakLimit},
		Chapters: threeChapters, Format: FormatM4B, Title: "A Test Book", Artist: "Lectern", Output: "speech/renders/t1/",
	}
	res, err := r.Render(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Chunks != 6 || res.Cached != 0 || engine.calls.Load() != 6 || res.EngineCalls != 6 {
		t.Fatalf("first render: %+v, engine calls %d; want 6 chunks spoken once each", res, engine.calls.Load())
	}
	data, info := readBlob(t, blobs, res.Key)
	if info.ContentType != "audio/mp4" {
		t.Errorf("content type %q", info.ContentType)
	}
	p := ffprobe(t, data)
	if len(p.Chapters) != 3 {
		t.Fatalf("ffprobe shows %d chapters, want 3", len(p.Chapters))
	}
	for i, c := range p.Chapters {
		if c.Tags["title"] != threeChapters[i].Title {
			t.Errorf("chapter %d title %q, want %q", i, c.Tags["title"], threeChapters[i].Title)
		}
	}
	if p.Format.Tags["title"] != "A Test Book" || p.Format.Tags["album"] != "A Test Book" || p.Format.Tags["artist"] != "Lectern" {
		t.Errorf("metadata %v", p.Format.Tags)
	}
	// The MP4 muxer adds a text track that holds the chapter titles
	// (QuickTime chapters) beside the Nero chapter list ffprobe reads.
	if len(p.Streams) == 0 || p.Streams[0].CodecName != "aac" || len(p.Streams) > 1 && p.Streams[1].CodecName != "mov_text" {
		t.Errorf("streams %+v, want AAC audio and at most the chapter text track", p.Streams)
	}
	dur, _ := strconv.ParseFloat(p.Format.Duration, 64)
	sum := float64(res.DurationMS) / 1000
	if sum < 3 || math.Abs(dur-sum)/sum > 0.02 {
		t.Fatalf("ffprobe duration %.3f s, chunk sum %.3f s: more than 2%% apart", dur, sum)
	}
	t.Logf("M4B %d bytes, %.3f s (chunks %.3f s, %.2f%% apart)", len(data), dur, sum, 100*math.Abs(dur-sum)/sum)

	onTarget(t, data)

	// Timings: every sentence, in order, inside its chapter.
	tj, _ := readBlob(t, blobs, res.TimingsKey)
	var tm Timings
	if err := json.Unmarshal(tj, &tm); err != nil {
		t.Fatal(err)
	}
	if len(tm.Chapters) != 3 || tm.DurationMS != res.DurationMS {
		t.Fatalf("timings %+v", tm)
	}
	var last int64
	for _, ch := range tm.Chapters {
		if len(ch.Sentences) != 2 || ch.StartMS != last {
			t.Fatalf("chapter %q: %d sentences from %d ms, want 2 from %d", ch.Title, len(ch.Sentences), ch.StartMS, last)
		}
		for _, s := range ch.Sentences {
			if s.StartMS != last || s.EndMS <= s.StartMS {
				t.Fatalf("sentence %q at %d..%d, previous ended %d", s.Text, s.StartMS, s.EndMS, last)
			}
			last = s.EndMS
		}
		if ch.EndMS != last {
			t.Fatalf("chapter %q ends %d, its last sentence %d", ch.Title, ch.EndMS, last)
		}
	}
	if got := tm.Chapters[2].Sentences[1].Text; got != "Mr. Smith went home!" {
		t.Errorf("last sentence %q", got)
	}

	// Again, with the output gone: every chunk comes from the cache.
	if err := blobs.Delete(ctx, res.Key); err != nil {
		t.Fatal(err)
	}
	var reports []int
	again, err := r.Render(ctx, req, func(_ context.Context, done, total int) error {
		reports = append(reports, done)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if engine.calls.Load() != 6 || again.EngineCalls != 0 || again.Cached != 6 {
		t.Fatalf("second render: %+v, engine calls now %d; want none", again, engine.calls.Load())
	}
	if len(reports) == 0 || reports[len(reports)-1] != 6 {
		t.Errorf("progress reports %v, want the last to be 6 of 6", reports)
	}
	if _, err := blobs.Head(ctx, res.Key); err != nil {
		t.Errorf("output not made again: %v", err)
	}
}

func TestRenderMP3HasChapters(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg", "ffprobe")
	blobs := newBlobs(t)
	res, err := New(blobs, Options{}).Render(context.Background(), Request{
		Engine:   Engine{Name: "espeak-ng", Voice: "en-gb", Speaker: speech.Espeak{}},
		Chapters: threeChapters, Format: FormatMP3, Title: "The Middle", Artist: "Ann Writer",
		Album: "A Test Book", Track: 2, Tracks: 3, Output: "r/",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, info := readBlob(t, blobs, res.Key)
	p := ffprobe(t, data)
	if info.ContentType != "audio/mpeg" || len(p.Chapters) != 3 || p.Streams[0].CodecName != "mp3" {
		t.Fatalf("content type %q, %d chapters, streams %+v", info.ContentType, len(p.Chapters), p.Streams)
	}
	// ID3v2 as ffprobe reads it: a chapter file of a book.
	want := map[string]string{"title": "The Middle", "album": "A Test Book", "artist": "Ann Writer", "track": "2/3"}
	for k, v := range want {
		if p.Format.Tags[k] != v {
			t.Errorf("tag %s = %q, want %q (tags %v)", k, p.Format.Tags[k], v, p.Format.Tags)
		}
	}
	onTarget(t, data)
}

// onTarget checks an encoded render's loudness as a player decodes it
// (ffmpeg's ebur128): integrated loudness -16 LUFS ±1 LU and the true
// peak at or under -1 dBTP.
func onTarget(t *testing.T, data []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "audio")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffmpeg", "-nostdin", "-hide_banner", "-nostats", "-i", file,
		"-af", "ebur128=peak=true:framelog=verbose", "-f", "null", "-").CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg ebur128: %v: %s", err, out)
	}
	lufs, truePeak, err := parseEBUR128(string(out))
	if err != nil {
		t.Fatal(err)
	}
	// The README's promise, in numbers.
	if math.Abs(lufs-(-16)) > 1 || truePeak > -1 {
		t.Fatalf("output at %.1f LUFS, true peak %.1f dBTP; want -16 ±1 LUFS, at most -1 dBTP", lufs, truePeak)
	}
	t.Logf("output loudness %.1f LUFS, true peak %.1f dBTP", lufs, truePeak)
}

// tone is a WAV of n ms of a quiet square wave at 24 kHz, as an engine
// would answer.
func tone(ms int) []byte {
	n := 24000 * ms / 1000
	var b bytes.Buffer
	writeWAVHeader(&b, pcmFormat{Channels: 1, SampleRate: 24000, Bits: 16}, int64(2*n))
	for i := range n {
		v := int16(2000)
		if (i/40)%2 == 0 {
			v = -2000
		}
		binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// speechServer speaks OpenAI's /v1/audio/speech: the first answers come
// from script (a status and Retry-After), the rest are audio.
func speechServer(t *testing.T, script ...[2]string) (*httptest.Server, *[]time.Time) {
	var mu sync.Mutex
	var seen []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Input          string `json:"input"`
			ResponseFormat string `json:"response_format"`
		}
		if r.URL.Path != "/v1/audio/speech" || json.NewDecoder(r.Body).Decode(&body) != nil || body.ResponseFormat != "wav" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		mu.Lock()
		n := len(seen)
		seen = append(seen, time.Now())
		mu.Unlock()
		if n < len(script) {
			status, _ := strconv.Atoi(script[n][0])
			if script[n][1] != "" {
				w.Header().Set("Retry-After", script[n][1])
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, `{"error":{"message":"slow down","type":"rate_limit"}}`)
			return
		}
		w.Header().Set("Content-Type", "audio/wav")
		w.Write(tone(300 + 10*len(body.Input)))
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func openAIEngine(srv *httptest.Server) Engine {
	// Retries are the renderer's: the client makes one call per Speak.
	return Engine{Name: "card", Voice: "alloy", Limit: OpenAILimit,
		Speaker: oaispeech.NewOpenAI(oaispeech.Config{BaseURL: srv.URL + "/v1", MaxRetries: -1})}
}

// TestRetryAfterIsHonoured: an engine answering 429 with Retry-After: 1
// is called again no sooner than a second later, and the render succeeds.
func TestRetryAfterIsHonoured(t *testing.T) {
	need(t, "ffmpeg")
	srv, seen := speechServer(t, [2]string{"429", "1"}, [2]string{"503", "1"})
	blobs := newBlobs(t)
	r := New(blobs, Options{Concurrency: 1, BaseDelay: time.Millisecond})
	res, err := r.Render(context.Background(), Request{Engine: openAIEngine(srv), Chapters: []Chapter{{Text: "One sentence only."}}, Format: FormatMP3, Output: "x/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(*seen) != 3 || res.EngineCalls != 3 {
		t.Fatalf("%d requests, %d calls counted; want 3", len(*seen), res.EngineCalls)
	}
	for i := 1; i < 3; i++ {
		if gap := (*seen)[i].Sub((*seen)[i-1]); gap < 950*time.Millisecond {
			t.Fatalf("call %d came %s after the one told to wait 1 s", i+1, gap)
		}
	}
}

// TestFailuresEndTheRender: retries stop at MaxAttempts, a refusal is not
// retried, and a Retry-After beyond MaxRetryAfter fails at once as busy.
func TestFailuresEndTheRender(t *testing.T) {
	for _, c := range []struct {
		name   string
		script [][2]string
		want   error
		calls  int
	}{
		{"5xx three times", [][2]string{{"500", ""}, {"502", ""}, {"503", ""}, {"500", ""}}, ErrBusy, 3},
		{"a refusal", [][2]string{{"400", ""}}, ErrEngine, 1},
		{"a Retry-After of an hour", [][2]string{{"429", "3600"}}, ErrBusy, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, seen := speechServer(t, c.script...)
			r := New(newBlobs(t), Options{MaxAttempts: 3, BaseDelay: time.Millisecond})
			_, err := r.Render(context.Background(), Request{Engine: openAIEngine(srv), Chapters: []Chapter{{Text: "Hello."}}, Format: FormatMP3, Output: "x/"}, nil)
			if !errors.Is(err, c.want) || len(*seen) != c.calls {
				t.Fatalf("err %v after %d calls; want %v after %d", err, len(*seen), c.want, c.calls)
			}
		})
	}
}

// gauge records the most calls in flight at once. Calls wait until want are
// in flight together (or a minute passes: then the peak tells), so that on a
// loaded machine the calls still overlap; then each speaks for 20 ms, during
// which a call over the limit would show.
type gauge struct {
	now, peak atomic.Int64
	want      int64
	once      sync.Once
	all       chan struct{}
}

func newGauge(want int64) *gauge { return &gauge{want: want, all: make(chan struct{})} }

func (g *gauge) Speak(ctx context.Context, r speech.Request) (speech.Audio, error) {
	n := g.now.Add(1)
	defer g.now.Add(-1)
	for {
		p := g.peak.Load()
		if n <= p || g.peak.CompareAndSwap(p, n) {
			break
		}
	}
	if n >= g.want {
		g.once.Do(func() { close(g.all) })
	}
	select {
	case <-g.all:
	case <-ctx.Done():
	case <-time.After(time.Minute):
		g.once.Do(func() { close(g.all) }) // the rest need not wait again
	}
	time.Sleep(20 * time.Millisecond)
	return speech.Audio{Data: tone(100), ContentType: "audio/wav"}, nil
}

func TestConcurrencyIsBounded(t *testing.T) {
	need(t, "ffmpeg")
	g := newGauge(1)
	text := strings.Repeat("This is a sentence. ", 12)
	res, err := New(newBlobs(t), Options{Concurrency: 3}).Render(context.Background(),
		Request{Engine: Engine{Name: "g", Speaker: g}, Chapters: []Chapter{{Text: text}}, Format: FormatMP3, Output: "x/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Twelve equal sentences share one cache key: one call.
	if res.Chunks != 12 || res.EngineCalls != 1 {
		t.Fatalf("%+v", res)
	}
	text = ""
	for i := range 12 {
		text += "Sentence number " + strconv.Itoa(i) + ". "
	}
	g = newGauge(3)
	res, err = New(newBlobs(t), Options{Concurrency: 3}).Render(context.Background(),
		Request{Engine: Engine{Name: "g", Speaker: g}, Chapters: []Chapter{{Text: text}}, Format: FormatMP3, Output: "x/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := g.peak.Load(); p != 3 || res.EngineCalls != 12 {
		t.Fatalf("peak %d calls at once (want 3), %d calls (want 12)", p, res.EngineCalls)
	}
}

func TestCacheKeyDependsOnEverything(t *testing.T) {
	base := CacheKey("espeak-ng", "en-us", "Hello.", 1)
	for name, k := range map[string]string{
		"engine": CacheKey("card", "en-us", "Hello.", 1),
		"voice":  CacheKey("espeak-ng", "en-gb", "Hello.", 1),
		"text":   CacheKey("espeak-ng", "en-us", "Hello!", 1),
		"speed":  CacheKey("espeak-ng", "en-us", "Hello.", 1.5),
	} {
		if k == base {
			t.Errorf("changing the %s keeps the key", name)
		}
	}
	if CacheKey("espeak-ng", "en-us", "Hello.", 0) != base {
		t.Error("speed 0 is 1.0 and should share its key")
	}
}

func TestMetadataEscapes(t *testing.T) {
	got := metadata(Request{Title: "A=B; #1\nx"}, Timings{Chapters: []ChapterTiming{{Title: "", StartMS: 0, EndMS: 10}, {Title: "Empty", StartMS: 10, EndMS: 10}}})
	if !strings.Contains(got, `title=A\=B\; \#1 x`) || !strings.Contains(got, "title=Chapter 1") || strings.Contains(got, "Empty") {
		t.Fatalf("metadata:\n%s", got)
	}
}

// crashing speaks until it has answered n calls, then stops the run as a
// crash would (the context ends mid-render).
type crashing struct {
	n      int64
	calls  atomic.Int64
	cancel context.CancelFunc
}

func (c *crashing) Speak(ctx context.Context, r speech.Request) (speech.Audio, error) {
	if c.calls.Add(1) > c.n && c.cancel != nil {
		c.cancel()
		return speech.Audio{}, ctx.Err()
	}
	return speech.Audio{Data: tone(50 + len(r.Text)), ContentType: "audio/wav"}, nil
}

// TestResumeAfterACrash: a render stopped after 4 of 10 chunks were spoken
// speaks only the other 6 when run again.
func TestResumeAfterACrash(t *testing.T) {
	need(t, "ffmpeg")
	blobs := newBlobs(t)
	var text string
	for i := range 10 {
		text += "Sentence " + strconv.Itoa(i) + " is here. "
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := &crashing{n: 4, cancel: cancel}
	req := Request{Engine: Engine{Name: "fake", Speaker: first}, Chapters: []Chapter{{Text: text}}, Format: FormatMP3, Output: "x/"}
	r := New(blobs, Options{Concurrency: 1})
	if _, err := r.Render(ctx, req, nil); err == nil {
		t.Fatal("the crashed render succeeded")
	}
	second := &crashing{n: 1 << 30}
	req.Engine.Speaker = second
	res, err := r.Render(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if second.calls.Load() != 6 || res.Cached != 4 || res.Chunks != 10 {
		t.Fatalf("after the crash: %d calls, %+v; want 6 calls and 4 cached", second.calls.Load(), res)
	}
}

func TestGain(t *testing.T) {
	for _, c := range []struct{ already, lufs, want float64 }{
		{0, -26, 10},    // quiet: up to the target
		{0, -10, -6},    // loud: down to the target
		{8, -17.5, 9.5}, // after a gain of 8 (and the limiter) still short
		{0, -90, 30},    // near silence: at most maxGainDB
	} {
		if got := gain(c.already, c.lufs); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("gain(%v, %v) = %v, want %v", c.already, c.lufs, got, c.want)
		}
	}
}

func TestParseEBUR128(t *testing.T) {
	log := "[Parsed_ebur128_0 @ 0x1] Summary:\n\n  Integrated loudness:\n    I:         -21.9 LUFS\n    Threshold: -31.9 LUFS\n\n  Sample peak:\n    Peak:      -18.1 dBFS\n"
	lufs, peak, err := parseEBUR128(log)
	if err != nil || lufs != -21.9 || peak != -18.1 {
		t.Fatalf("got %v %v %v", lufs, peak, err)
	}
	if _, _, err := parseEBUR128("no summary"); err == nil {
		t.Fatal("a log without a summary parsed")
	}
}

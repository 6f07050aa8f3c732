package render

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/speech/ear"
)

// whisper is the real ear, from the venv `make deps` installs.
func whisper(t testing.TB) *ear.Whisper {
	t.Helper()
	py := ear.DefaultPython()
	if py == "" {
		t.Fatal("Whisper is not installed: make deps installs faster-whisper into ~/.cache/lectern/ear")
	}
	w := &ear.Whisper{Python: py}
	t.Cleanup(func() { w.Close() })
	return w
}

// droppingServer is a TTS engine speaking OpenAI's /v1/audio/speech with
// espeak-ng, except that it drops the sentences in drop: for those it
// answers a moment of silence, the first `times` times it is asked.
func droppingServer(t *testing.T, times int, drop ...string) (*httptest.Server, func(text string) int) {
	var mu sync.Mutex
	asked := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Input string `json:"input"`
		}
		if r.URL.Path != "/v1/audio/speech" || json.NewDecoder(r.Body).Decode(&body) != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		mu.Lock()
		asked[body.Input]++
		n := asked[body.Input]
		mu.Unlock()
		w.Header().Set("Content-Type", "audio/wav")
		if slices.Contains(drop, body.Input) && n <= times {
			w.Write(silence(400))
			return
		}
		a, err := (speech.Espeak{}).Speak(r.Context(), speech.Request{Text: body.Input, Voice: "en-us", Format: speech.FormatWAV})
		if err != nil {
			http.Error(w, `{"error":{"message":"`+err.Error()+`"}}`, http.StatusInternalServerError)
			return
		}
		w.Write(a.Data)
	}))
	t.Cleanup(srv.Close)
	return srv, func(text string) int {
		mu.Lock()
		defer mu.Unlock()
		return asked[text]
	}
}

// silence is ms of 16-bit mono silence at 22050 Hz, as a WAV.
func silence(ms int) []byte {
	f := pcmFormat{Channels: 1, SampleRate: 22050, Bits: 16}
	return canonicalWAV(f, make([]byte, f.bytesPerSecond()*ms/1000))
}

const earText = "The morning was cold and grey over the harbour. " +
	"Margaret walked down to the water with her brother. " +
	"They watched the fishing boats come slowly back to the quay. " +
	"Nobody spoke for a long time."

// TestEarMarksADroppedSentence: an engine that drops a sentence every
// time it is asked is caught by the ear: the chunk is spoken again once,
// then marked with what was heard; the other chunks pass.
func TestEarMarksADroppedSentence(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg")
	victim := "Margaret walked down to the water with her brother."
	srv, asked := droppingServer(t, 1000, victim)
	r := New(newBlobs(t), Options{Ear: whisper(t)})
	res, err := r.Render(context.Background(), Request{Engine: openAIEngine(srv), Chapters: []Chapter{{Title: "One", Text: earText}},
		Format: FormatMP3, Output: "out/", Check: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := res.Ear
	if e == nil || e.Status != EarChecked || e.Checked != 4 || e.Retried != 1 {
		t.Fatalf("ear report %+v: want 4 chunks checked, 1 retried", e)
	}
	if len(e.Marked) != 1 || e.Marked[0].Text != victim || e.Marked[0].Index != 1 || e.Marked[0].Sentence != 1 || e.Marked[0].WER <= ear.Threshold {
		t.Fatalf("marked %+v: want the dropped sentence (index 1)", e.Marked)
	}
	if n := asked(victim); n != 2 {
		t.Errorf("the dropped sentence was asked for %d times, want 2 (spoken once more)", n)
	}
	if e.Worst < ear.Threshold || e.Median > ear.Threshold {
		t.Errorf("median %.2f worst %.2f: want the worst over the threshold, the median under", e.Median, e.Worst)
	}
	t.Logf("heard for the dropped sentence: %q (WER %.2f); median %.2f", e.Marked[0].Heard, e.Marked[0].WER, e.Median)

	// A render of the same text finds every chunk and its verdict cached:
	// nothing is spoken or heard again, and the mark stands.
	again, err := r.Render(context.Background(), Request{Engine: openAIEngine(srv), Chapters: []Chapter{{Title: "One", Text: earText}},
		Format: FormatMP3, Output: "again/", Check: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.EngineCalls != 0 || len(again.Ear.Marked) != 1 || again.Ear.Marked[0].Heard != e.Marked[0].Heard {
		t.Errorf("cached render: %d calls, ear %+v; want none and the same mark", again.EngineCalls, again.Ear)
	}
}

// TestEarRetryMends: an engine that drops a sentence only the first time
// is caught, spoken again, and the good audio replaces the bad in the
// cache and in the output; nothing is marked.
func TestEarRetryMends(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg")
	victim := "They watched the fishing boats come slowly back to the quay."
	srv, asked := droppingServer(t, 1, victim)
	blobs := newBlobs(t)
	r := New(blobs, Options{Ear: whisper(t)})
	res, err := r.Render(context.Background(), Request{Engine: openAIEngine(srv), Chapters: []Chapter{{Text: earText}},
		Format: FormatMP3, Output: "out/", Check: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Ear.Retried != 1 || len(res.Ear.Marked) != 0 || asked(victim) != 2 {
		t.Fatalf("ear %+v, asked %d times: want one retry that mends it", res.Ear, asked(victim))
	}
	data, _ := readBlob(t, blobs, CacheKey("card", "alloy", victim, 0))
	if f, pcm, err := parseCachedWAV(data); err != nil || f.duration(len(pcm)) < time.Second {
		t.Errorf("the cached chunk is not the spoken sentence (%v)", err)
	}
	tm := timingsOf(t, blobs, res)
	if s := tm.Chapters[0].Sentences[2]; s.EndMS-s.StartMS < 1000 {
		t.Errorf("the output still has the dropped sentence's silence: %d ms", s.EndMS-s.StartMS)
	}
}

func timingsOf(t *testing.T, blobs blob.Store, res Result) Timings {
	t.Helper()
	data, _ := readBlob(t, blobs, res.TimingsKey)
	var tm Timings
	if err := json.Unmarshal(data, &tm); err != nil {
		t.Fatal(err)
	}
	return tm
}

// TestEarUnavailable: without Whisper a checked render still succeeds and
// says the ear was unavailable, and why.
func TestEarUnavailable(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg")
	eng := Engine{Name: "espeak-ng", Voice: "en-us", Speaker: speech.Espeak{}, Limit: EspeakLimit}
	for name, l := range map[string]Listener{
		"no python":      &ear.Whisper{},
		"no whisper":     &ear.Whisper{Python: "python3"}, // the system's, without faster-whisper
		"no such python": &ear.Whisper{Python: filepath.Join(t.TempDir(), "python")},
	} {
		t.Run(name, func(t *testing.T) {
			r := New(newBlobs(t), Options{Ear: l})
			res, err := r.Render(context.Background(), Request{Engine: eng, Chapters: []Chapter{{Text: "Hello there. Good morning."}}, Format: FormatMP3, Output: "o/", Check: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Ear.Status != EarUnavailable || !strings.Contains(res.Ear.Reason, "not available") || res.Ear.Checked != 0 {
				t.Errorf("ear %+v: want unavailable with a reason", res.Ear)
			}
		})
	}
}

// TestEarEspeakWER measures the ear on espeak-ng reading a novel (the
// first 120 sentences of Alice's Adventures in Wonderland that have at
// least 4 words): the threshold must not mark normal speech. It prints
// the median, the 90th percentile and the worst rate, which chose
// ear.Threshold. Whisper tiny.en on formant speech mishears the odd short
// exclamation, and which one varies with the machine's load (a make test
// run under two busy loops marked "Oh dear, what nonsense I'm talking!"
// where idle runs marked none): the bound is a false-alarm rate, at most
// one sentence in fifty, not none.
func TestEarEspeakWER(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg")
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		dir = "../../../../shared/data"
	}
	raw, err := os.ReadFile(filepath.Join(dir, "books", "AlicesAdventuresInWonderland", "novel_text.txt"))
	if err != nil {
		t.Fatalf("the sample novel (LECTERN_SAMPLE_DATA): %v", err)
	}
	text := string(raw)
	if i := strings.Index(text, "Alice was beginning"); i > 0 {
		text = text[i:]
	}
	var picked []string
	for _, s := range Sentences(text) {
		if len(strings.Fields(s)) >= 4 && len(s) < EspeakLimit {
			picked = append(picked, s)
		}
		if len(picked) == 120 {
			break
		}
	}
	r := New(newBlobs(t), Options{Ear: whisper(t)})
	eng := Engine{Name: "espeak-ng", Voice: "en-us", Speaker: speech.Espeak{}, Limit: EspeakLimit}
	res, err := r.Render(context.Background(), Request{Engine: eng, Chapters: []Chapter{{Text: strings.Join(picked, "\n\n")}}, Format: FormatMP3, Output: "o/", Check: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := res.Ear
	if e.Status != EarChecked || e.Checked < 100 {
		t.Fatalf("ear %+v", e)
	}
	t.Logf("espeak-ng, %d sentences of Alice: median WER %.3f, worst %.3f, retried %d, marked %d", e.Checked, e.Median, e.Worst, e.Retried, len(e.Marked))
	for _, m := range e.Marked {
		t.Logf("marked: %q heard %q (%.2f)", m.Text, m.Heard, m.WER)
	}
	if len(e.Marked)*50 > e.Checked || e.Median > 0.25 {
		t.Errorf("normal espeak-ng speech was marked (%d of %d, more than one in fifty) or its median %.3f is over 0.25", len(e.Marked), e.Checked, e.Median)
	}
}

// TestEarDefaultFollowsSettingsWhenTheRenderRuns: a render that does not
// ask either way is heard by the ear as Settings say when its job runs
// (not when it was asked for), with the summary a checked render has; a
// render that asks overrides Settings either way.
func TestEarDefaultFollowsSettingsWhenTheRenderRuns(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg")
	blobs := newBlobs(t)
	q := &queueSpy{}
	var on atomic.Bool
	var broken error
	svc := NewService(New(blobs, Options{Ear: whisper(t)}), q, espeakLibrary{"v": "en-us"}, espeakEngines{&counting{next: speech.Espeak{}}}, blobs).
		WithEarDefault(func(context.Context) (bool, error) { return on.Load(), broken })
	ctx := t.Context()
	yes, no := true, false
	run := func(check *bool, settingAsked, settingRun bool) *EarReport {
		t.Helper()
		on.Store(settingAsked)
		if _, err := svc.Start(ctx, Spec{Text: earText, VoiceID: "v", Format: FormatMP3, Check: check}); err != nil {
			t.Fatal(err)
		}
		on.Store(settingRun)
		out, err := svc.Job(ctx, q.jobs[len(q.jobs)-1].Payload, noProgress{})
		if err != nil {
			t.Fatal(err)
		}
		var res Result
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatal(err)
		}
		return res.Ear
	}
	// Off when asked, on when it runs: heard, with a summary.
	e := run(nil, false, true)
	if e == nil || e.Status != EarChecked || e.Checked != 4 || e.Worst < e.Median || e.Marked == nil {
		t.Fatalf("ear %+v: want the 4 chunks checked with median and worst", e)
	}
	if e.Median > ear.Threshold {
		t.Errorf("median WER %.2f of espeak-ng's clear speech is over the threshold", e.Median)
	}
	if e := run(nil, true, false); e.Status != EarOff || e.Checked != 0 {
		t.Errorf("ear %+v: switched off in Settings before the render ran, want off", e)
	}
	if e := run(&no, true, true); e.Status != EarOff {
		t.Errorf("ear %+v: the render asked for no check, want off", e)
	}
	if e := run(&yes, false, false); e.Status != EarChecked || e.Checked != 4 {
		t.Errorf("ear %+v: the render asked for a check, want checked", e)
	}
	// Settings that cannot be read make the job worth another run.
	broken = errors.New("the table is away")
	if _, err := svc.Start(ctx, Spec{Text: earText, VoiceID: "v", Format: FormatMP3}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Job(ctx, q.jobs[len(q.jobs)-1].Payload, noProgress{}); !errors.Is(err, jobs.ErrTransient) {
		t.Errorf("unreadable settings: %v, want a transient error", err)
	}
}

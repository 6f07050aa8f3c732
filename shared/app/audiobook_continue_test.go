package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/httpapi/speechapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/voices"
)

// heldQueue keeps the jobs enqueued, queued, so the test runs their
// handlers itself; Get answers them.
type heldQueue struct {
	mu   sync.Mutex
	jobs map[string]jobs.Job
	last []jobs.Job
}

func (q *heldQueue) Enqueue(_ context.Context, kind string, payload json.RawMessage) (jobs.Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	j := jobs.Job{ID: jobs.NewID(), Kind: kind, Status: jobs.StatusQueued, Payload: payload}
	q.jobs[j.ID] = j
	q.last = append(q.last, j)
	return j, nil
}

func (q *heldQueue) Get(_ context.Context, id string) (jobs.Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	j, ok := q.jobs[id]
	if !ok {
		return j, jobs.ErrNotFound
	}
	return j, nil
}

// stallAt holds the first progress report at or past share until the
// render job's working time is over, as a slow engine would.
type stallAt struct {
	share float64
	until time.Time
	mu    sync.Mutex
	first float64
	last  float64
	calls int
}

func (r *stallAt) Progress(_ context.Context, f float64, _ string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == 0 {
		r.first = f
	}
	r.calls++
	r.last = f
	if f >= r.share && !r.until.IsZero() {
		time.Sleep(time.Until(r.until))
		r.until = time.Time{}
	}
	return nil
}

// voicedBook imports text on a local platform whose jobs go to q, with a
// narrator and a voice for Alice: ready to render.
func voicedBook(t *testing.T, q jobs.Queue, text string) (*audiobook.Service, *platform.Deps, audiobook.Book) {
	t.Helper()
	local := openTestLocal(t, "http://127.0.0.1", 1)
	ctx := context.Background()
	d := local.Deps
	svc := audiobook.NewService(d.Table, d.Blobs, q, d.Voices, d.Clock, nil, speechapi.NewRenderService(d)).WithFFmpeg(d.Config.FFmpegCommand)
	b, err := svc.Import(ctx, "book.txt", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SetNarrator(ctx, b.ID, voices.EngineVoiceID(voices.BuiltinEngine, "en-us")); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SetVoice(ctx, b.ID, "alice", voices.EngineVoiceID(voices.BuiltinEngine, "en-gb")); err != nil {
		t.Fatal(err)
	}
	return svc, d, b
}

// startLongRender queues the render of longBook, its jobs held in q.
func startLongRender(t *testing.T) (*heldQueue, *audiobook.Service, *platform.Deps, audiobook.Book, jobs.Job) {
	t.Helper()
	q := &heldQueue{jobs: map[string]jobs.Job{}}
	svc, d, b := voicedBook(t, q, longBook())
	started, err := svc.StartRender(context.Background(), b.ID, audiobook.RenderRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return q, svc, d, b, started
}

// readBlob is the blob at key.
func readBlob(t *testing.T, d *platform.Deps, key string) []byte {
	t.Helper()
	rc, _, err := d.Blobs.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// longBook is a three-chapter book of 30 distinct lines a chapter: more
// chunks than the speech renderer speaks ahead of a stalled cache write.
func longBook() string {
	var b strings.Builder
	b.WriteString("THE LONG GARDEN\n\n")
	for i, title := range []string{"CHAPTER I. The Door", "CHAPTER II. The Key", "CHAPTER III. The Garden"} {
		b.WriteString(title + "\n\n")
		for n := 1; n <= 30; n++ {
			fmt.Fprintf(&b, "\"This is line %d of chapter %d,\" said Alice.\n\n", n, i+1)
		}
	}
	return b.String()
}

// TestAudiobookRenderContinuesPastItsDeadline: a render job whose deadline
// comes (as the worker Lambda's timeout would) records its progress and
// queues its continuation, which the book then names and GET …/render
// follows without its progress going back; the continuation speaks only
// the chunks not yet spoken and makes an M4B whose chapters are the
// book's, and chapter MP3s that speak nothing.
func TestAudiobookRenderContinuesPastItsDeadline(t *testing.T) {
	needSpeechTools(t)
	ctx := context.Background()
	q, svc, d, b, started := startLongRender(t)
	cached := func() int {
		list, err := d.Blobs.List(ctx, render.CachePrefix)
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}

	// The first job gets 3 s of work before its reserve; its cache writes
	// are held from a tenth of the M4B's chunks until that is over, so the
	// deadline comes while it speaks.
	work := 3 * time.Second
	cut, cancel := context.WithTimeout(ctx, audiobook.RenderReserve+work)
	defer cancel()
	first := &stallAt{share: 0.08, until: time.Now().Add(work + 100*time.Millisecond)}
	raw, err := svc.RenderJob(cut, started.Payload, first)
	if err != nil {
		t.Fatalf("the cut-off job: %v", err)
	}
	cont := decode[audiobook.RenderContinued](t, raw)
	spokenBefore := cached()
	if len(q.last) != 2 || cont.ContinuedBy != q.last[1].ID || cont.Reached < 0.08 || cont.Reached >= 0.8 || spokenBefore == 0 {
		t.Fatalf("the cut-off job answered %s; queued %d jobs; %d chunks cached", raw, len(q.last), spokenBefore)
	}
	if got, _ := svc.Get(ctx, b.ID); got.RenderJob != cont.ContinuedBy {
		t.Fatalf("the book names render job %s, not the continuation %s", got.RenderJob, cont.ContinuedBy)
	}
	v, err := svc.Render(ctx, b.ID)
	if err != nil || v.JobID != cont.ContinuedBy || v.Status != jobs.StatusQueued || v.Progress != cont.Reached {
		t.Fatalf("GET render while the continuation waits: %+v %v", v, err)
	}

	second := &stallAt{}
	raw, err = svc.RenderJob(ctx, q.last[1].Payload, second)
	if err != nil {
		t.Fatalf("the continuation: %v", err)
	}
	res := decode[audiobook.RenderResult](t, raw)
	t.Logf("cut off at %.0f%% with %d chunks spoken; the continuation: M4B %d chunks, %d cached, %d engine calls", 100*cont.Reached, spokenBefore, res.Book.Chunks, res.Book.Cached, res.Book.EngineCalls)
	// Nothing spoken twice: the continuation found every chunk the first
	// job spoke, and each of its engine calls added one to the cache.
	if second.first != cont.Reached || res.Book.Cached < spokenBefore || res.Book.EngineCalls == 0 || cached() != spokenBefore+res.Book.EngineCalls || len(res.Chapters) != 3 {
		t.Fatalf("the continuation (first progress %.2f): %+v; %d chunks cached", second.first, res, cached())
	}
	for _, ch := range res.Chapters {
		if ch.EngineCalls != 0 {
			t.Fatalf("chapter %d spoke again: %+v", ch.Chapter, ch)
		}
	}
	m4b := readBlob(t, d, res.Book.Key)
	titles := chapterTitles(t, ffprobeBytes(t, m4b, "-show_chapters"))
	var want []string
	for _, ch := range b.Chapters {
		want = append(want, ch.Title)
	}
	if !slices.Equal(titles, want) {
		t.Fatalf("the M4B's chapters are %q, want %q", titles, want)
	}

}

// stallOn holds the render at the first report whose message is msg
// until the job's working time is over, and keeps every message.
type stallOn struct {
	msg   string
	until time.Time
	mu    sync.Mutex
	msgs  []string
}

func (r *stallOn) Progress(_ context.Context, _ float64, msg string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, msg)
	if msg == r.msg && !r.until.IsZero() {
		time.Sleep(time.Until(r.until))
		r.until = time.Time{}
	}
	return nil
}

// TestAudiobookRenderResumesAtTheNextChapter: a render job cut off after
// its first chapter's M4B part goes on at the second chapter without
// making the first again, and the joined M4B (a stream copy of the parts)
// lasts as long as the parts together.
func TestAudiobookRenderResumesAtTheNextChapter(t *testing.T) {
	needSpeechTools(t)
	ctx := context.Background()
	q, svc, d, b, started := startLongRender(t)
	// Each job gets 15 s of work and is held, once chapter 1's part is
	// made, until that is over. On a busy machine a job may be cut off
	// before chapter 1 is spoken: its continuation goes on from the cache,
	// until one is cut off just after chapter 1's part (the state under
	// test). The bound on tries only bounds a failure.
	payload := started.Payload
	for try := 1; ; try++ {
		work := 15 * time.Second
		cut, cancel := context.WithTimeout(ctx, audiobook.RenderReserve+work)
		first := &stallOn{msg: "M4B chapter 1 of 3 made", until: time.Now().Add(work + 100*time.Millisecond)}
		raw, err := svc.RenderJob(cut, payload, first)
		cancel()
		if err != nil {
			t.Fatalf("the cut-off job: %v", err)
		}
		cont := decode[audiobook.RenderContinued](t, raw)
		if len(q.last) != try+1 || cont.ContinuedBy != q.last[try].ID {
			t.Fatalf("the cut-off job answered %s; queued %d jobs; reported %q", raw, len(q.last), first.msgs)
		}
		payload = q.last[try].Payload
		if slices.Contains(first.msgs, first.msg) {
			break
		}
		if try == 10 {
			t.Fatalf("no job of %d reached chapter 1's part before its cut; the last reported %q", try, first.msgs)
		}
	}
	second := &stallOn{}
	raw, err := svc.RenderJob(ctx, payload, second)
	if err != nil {
		t.Fatalf("the continuation: %v", err)
	}
	res := decode[audiobook.RenderResult](t, raw)
	for _, m := range second.msgs {
		if strings.HasPrefix(m, "M4B chapter 1 of 3") {
			t.Fatalf("the continuation made chapter 1's part again: %q", m)
		}
	}
	if !slices.Contains(second.msgs, "M4B chapter 2 of 3 made") || !slices.Contains(second.msgs, "M4B chapter 3 of 3 made") {
		t.Fatalf("the continuation did not make chapters 2 and 3: %q", second.msgs)
	}
	m4b := readBlob(t, d, res.Book.Key)
	probe := decode[struct {
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}](t, ffprobeBytes(t, m4b, "-show_format"))
	var secs float64
	if _, err := fmt.Sscan(probe.Format.Duration, &secs); err != nil {
		t.Fatal(err)
	}
	// res.Book.DurationMS is the parts' durations summed.
	if diff := secs - float64(res.Book.DurationMS)/1000; diff < -0.1 || diff > 0.1 || res.Book.DurationMS == 0 {
		t.Fatalf("the joined M4B lasts %.3f s; its parts %d ms", secs, res.Book.DurationMS)
	}
	titles := chapterTitles(t, ffprobeBytes(t, m4b, "-show_chapters"))
	if len(titles) != 3 || titles[0] != b.Chapters[0].Title || titles[2] != b.Chapters[2].Title {
		t.Fatalf("the M4B's chapters are %q", titles)
	}
}

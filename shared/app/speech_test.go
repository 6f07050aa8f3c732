package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lectern/lectern/shared/blob/localfs"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/httpapi/speechapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/voices"
)

// serveLocal serves the local app with every feature on a loopback port.
func serveLocal(t *testing.T, workers int) (*httptest.Server, *apiClient) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	local := openTestLocal(t, "http://"+srv.Listener.Addr().String(), workers)
	srv.Config.Handler = LocalHandler("0.0.0", "", local.Log, SiteParts{Blobs: local.BlobHandler, Static: fstest.MapFS{}}, local.Operations()...)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &apiClient{t: t, base: srv.URL}
}

// TestSpeechRenderOverHTTP renders a 3-chapter text with espeak-ng through
// the local app: POST answers 202 with the render's id, GET follows the job
// to its audio URL and sentence timings, the audio is served with its type
// and Range support, and rendering the same text again speaks nothing.
func TestSpeechRenderOverHTTP(t *testing.T) {
	for _, c := range []string{"espeak-ng", "ffmpeg"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("%s is not installed (make deps-system)", c)
		}
	}
	srv, c := serveLocal(t, 2)
	voice := voices.EngineVoiceID(voices.BuiltinEngine, "en-us")

	body := fmt.Sprintf(`{"voice_id":%q,"format":"m4b","title":"Three","artist":"Lectern","chapters":[
		{"title":"One","text":"The first chapter begins. It ends here."},
		{"title":"Two","text":"A second chapter, short and plain."},
		{"title":"Three","text":"The last one. Goodbye!"}]}`, voice)
	run := func() render.Status {
		t.Helper()
		status, _, b := c.do("POST", "/api/speech/renders", []byte(body))
		if status != http.StatusAccepted {
			t.Fatalf("POST answered %d: %s", status, b)
		}
		st := decode[render.Status](t, b)
		deadline := time.Now().Add(slowBound)
		for !st.Status.Final() && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			_, _, b = c.do("GET", "/api/speech/renders/"+st.ID, nil)
			st = decode[render.Status](t, b)
		}
		if st.Status != "succeeded" {
			t.Fatalf("render ended %s: %s", st.Status, st.Error)
		}
		return st
	}
	st := run()
	if st.Progress != 1 || st.Result == nil || st.Result.Chunks != 5 || st.Result.EngineCalls != 5 || st.Timings == nil || len(st.Timings.Chapters) != 3 {
		t.Fatalf("first render: %+v", st)
	}
	if s := st.Timings.Chapters[2].Sentences; len(s) != 2 || s[1].Text != "Goodbye!" || s[1].EndMS != st.Timings.DurationMS {
		t.Fatalf("last chapter's sentences %+v", s)
	}

	// The audio endpoint redirects to a URL that serves ranges.
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(srv.URL + "/api/speech/renders/" + st.ID + "/audio")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusFound || loc == "" {
		t.Fatalf("audio answered %d, Location %q", resp.StatusCode, loc)
	}
	req, _ := http.NewRequest("GET", loc, nil)
	req.Header.Set("Range", "bytes=0-99")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	part, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent || len(part) != 100 || resp.Header.Get("Content-Type") != "audio/mp4" ||
		!strings.HasPrefix(resp.Header.Get("Content-Range"), "bytes 0-99/") || string(part[4:8]) != "ftyp" {
		t.Fatalf("range answered %d, %d bytes, type %q, range %q", resp.StatusCode, len(part), resp.Header.Get("Content-Type"), resp.Header.Get("Content-Range"))
	}

	// The same text again: every chunk from the cache.
	again := run()
	if again.ID == st.ID || again.Result.EngineCalls != 0 || again.Result.Cached != 5 {
		t.Fatalf("second render: %+v", again.Result)
	}
}

func TestSpeechRenderRefusesBadInput(t *testing.T) {
	_, c := serveLocal(t, 1)
	voice := voices.EngineVoiceID(voices.BuiltinEngine, "en-us")
	for _, tc := range []struct {
		name, body string
		status     int
		detail     string
	}{
		{"an unknown voice", `{"voice_id":"nope","text":"Hi."}`, 422, "no voice"},
		{"text and chapters", fmt.Sprintf(`{"voice_id":%q,"text":"Hi.","chapters":[{"text":"Hi."}]}`, voice), 422, "not both"},
		{"no text", fmt.Sprintf(`{"voice_id":%q,"text":"   "}`, voice), 422, "empty"},
		{"an unknown format", fmt.Sprintf(`{"voice_id":%q,"text":"Hi.","format":"wav"}`, voice), 422, ""},
		{"a speed out of range", fmt.Sprintf(`{"voice_id":%q,"text":"Hi.","speed":0.1}`, voice), 422, "speed"},
		{"an unknown field", fmt.Sprintf(`{"voice_id":%q,"text":"Hi.","colour":"red"}`, voice), 422, ""},
		{"not JSON", `{"voice_id":`, 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, h, b := c.do("POST", "/api/speech/renders", []byte(tc.body))
			p := decode[problem](t, b)
			if status != tc.status || h.Get("Content-Type") != "application/problem+json" || p.Status != tc.status || !strings.Contains(p.Detail, tc.detail) {
				t.Fatalf("answered %d %s: %s", status, h.Get("Content-Type"), b)
			}
		})
	}
	for _, path := range []string{"/api/speech/renders/aaaaaaaaaaaaaaaaaaaaaaaaaa", "/api/speech/renders/bad%20id", "/api/speech/renders/aaaaaaaaaaaaaaaaaaaaaaaaaa/audio"} {
		status, h, b := c.do("GET", path, nil)
		if status != http.StatusNotFound || h.Get("Content-Type") != "application/problem+json" {
			t.Fatalf("GET %s answered %d %s: %s", path, status, h.Get("Content-Type"), b)
		}
	}
}

// queueSpy keeps the jobs it is given and runs none.
type queueSpy struct {
	mu   sync.Mutex
	jobs []jobs.Job
}

func (q *queueSpy) Enqueue(_ context.Context, kind string, payload json.RawMessage) (jobs.Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	j := jobs.Job{ID: jobs.NewID(), Kind: kind, Status: jobs.StatusQueued, Payload: payload}
	q.jobs = append(q.jobs, j)
	return j, nil
}

func (q *queueSpy) Get(context.Context, string) (jobs.Job, error) {
	return jobs.Job{}, jobs.ErrNotFound
}

// espeakVoices is a library of every espeak-ng voice.
type espeakVoices struct{}

func (espeakVoices) Get(_ context.Context, id string) (voices.Voice, error) {
	return voices.Voice{ID: id, Engine: voices.BuiltinEngine, EngineVoice: "en-us"}, nil
}

func (espeakVoices) Engine(_ context.Context, engine, voice string) (render.Engine, error) {
	return render.Engine{Name: engine, Voice: voice, Speaker: speech.Espeak{}, Limit: render.EspeakLimit}, nil
}

// TestSpeechRenderTakesANovel: through the API's own limits, a 2 MB text
// (a long novel; a job's payload holds 256 KiB) is queued with a small
// payload, and a text over render.MaxTextBytes is refused with a problem
// naming the limit (past the body limit, 413), nothing queued. The jobs
// are not run: speaking a novel takes minutes.
func TestSpeechRenderTakesANovel(t *testing.T) {
	blobs, err := localfs.New(t.TempDir(), "http://127.0.0.1:1", bytes.Repeat([]byte{7}, 32), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer blobs.Close()
	queue := &queueSpy{}
	svc := render.NewService(render.New(blobs, render.Options{}), queue, espeakVoices{}, espeakVoices{}, blobs)
	srv := httptest.NewServer(LocalHandler("0.0.0", "", slog.New(slog.DiscardHandler), SiteParts{Static: fstest.MapFS{}}, speechapi.Operations(svc)...))
	defer srv.Close()
	c := &apiClient{t: t, base: srv.URL}
	text := func(n int) string {
		return strings.Repeat("The rain went on all night. ", n/28+1)[:n]
	}

	status, _, b := c.do("POST", "/api/speech/renders", []byte(fmt.Sprintf(`{"voice_id":"v","text":%q}`, text(2_000_000))))
	if status != http.StatusAccepted {
		t.Fatalf("a 2 MB text: answered %d: %.300s", status, b)
	}
	if len(queue.jobs) != 1 || len(queue.jobs[0].Payload) > 1024 {
		t.Fatalf("%d jobs queued; the payload: %.300s", len(queue.jobs), queue.jobs[0].Payload)
	}
	for _, tc := range []struct {
		name   string
		body   string
		status int
		detail string
	}{
		{"one byte too long", fmt.Sprintf(`{"voice_id":"v","text":%q}`, text(render.MaxTextBytes+1)), 422, "5000000"},
		{"too long in chapters", fmt.Sprintf(`{"voice_id":"v","chapters":[{"text":%q},{"text":%q}]}`, text(render.MaxTextBytes/2), text(render.MaxTextBytes/2+1)), 422, "at most 5000000"},
		{"a body over the limit", fmt.Sprintf(`{"voice_id":"v","text":%q}`, text(2*render.MaxTextBytes+100<<10)), 413, "takes at most"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, h, b := c.do("POST", "/api/speech/renders", []byte(tc.body))
			p := decode[problem](t, b)
			if status != tc.status || h.Get("Content-Type") != "application/problem+json" || p.Status != tc.status || !strings.Contains(string(b), tc.detail) {
				t.Fatalf("answered %d %s: %.500s", status, h.Get("Content-Type"), b)
			}
			if len(queue.jobs) != 1 {
				t.Fatalf("%d jobs queued", len(queue.jobs))
			}
		})
	}
}

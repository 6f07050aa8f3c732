package app

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"testing/fstest"
	"time"

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
		deadline := time.Now().Add(60 * time.Second)
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

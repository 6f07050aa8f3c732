package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// inkedPDF has pages of ink without a text layer: each is read by
// Tesseract, so an ingest of it runs long enough to be killed part-way.
func inkedPDF(pages int) []byte {
	d := &pdftest.Doc{}
	for range pages {
		p := d.AddPage(612, 792)
		for i := range 12 {
			p.Rect(72, 72+float64(i)*50, 400, 20, 0.2)
		}
	}
	return d.Bytes()
}

type issueView struct {
	ID, Status, Step, Error string
	Pages                   []struct {
		Page int
		Done bool
		At   time.Time
	}
}

func (s *server) request(t *testing.T, method, path string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+s.addr+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func (s *server) issue(t *testing.T, id string) issueView {
	t.Helper()
	var is issueView
	s.getJSON(t, "/api/magazine/"+id, &is)
	return is
}

// getJSON reads path, which must answer 200, into out.
func (s *server) getJSON(t *testing.T, path string, out any) {
	t.Helper()
	status, b := s.request(t, http.MethodGet, path)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, status, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

// done maps each finished page to when it finished.
func (is issueView) done() map[int]time.Time {
	out := map[int]time.Time{}
	for _, p := range is.Pages {
		if p.Done {
			out[p.Page] = p.At
		}
	}
	return out
}

func (s *server) upload(t *testing.T, pdf []byte) string {
	t.Helper()
	ct, body := multipartBody(t, pdf)
	resp, err := http.Post("http://"+s.addr+"/api/magazine", ct, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var is issueView
	if err := json.NewDecoder(resp.Body).Decode(&is); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("upload: %d %v", resp.StatusCode, err)
	}
	return is.ID
}

// waitPages waits until more than n pages of the issue are done while it is
// still processing, and answers it.
func (s *server) waitPages(t *testing.T, id string, n int) issueView {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		is := s.issue(t, id)
		if is.Status != "processing" {
			t.Fatalf("the issue ended (%s, %s) before %d pages were done: the test could not stop it part-way", is.Status, is.Error, n+1)
		}
		if len(is.done()) > n {
			return is
		}
		if time.Now().After(deadline) {
			t.Fatalf("fewer than %d pages done after 3 minutes: %+v", n+1, is)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An ingest the process died in is resumed once, from the pages it had
// finished; when the process dies in it again it is given up: the issue
// fails with the reason and can be deleted, rather than run at every start
// (issue 30: an out-of-memory death looped four restarts, and a restart
// began again at page 1).
func TestIngestTheProcessDiesInIsResumedOnceThenGivenUp(t *testing.T) {
	data := t.TempDir()
	srv := startServer(t, data)
	id := srv.upload(t, inkedPDF(40))
	first := srv.waitPages(t, id, 2).done()
	srv.kill(t)

	srv = startServer(t, data)
	resumed := srv.waitPages(t, id, len(first))
	for n, at := range first {
		if got, ok := resumed.done()[n]; !ok || !got.Equal(at) {
			t.Errorf("page %d, done before the kill at %v, was processed again (now %v, done %v)", n, at, got, ok)
		}
	}
	srv.kill(t)

	srv = startServer(t, data)
	is := srv.issue(t, id)
	if is.Status != "failed" || !strings.Contains(is.Error, "the server stopped 2 times while this job ran") {
		t.Fatalf("after the second death the issue is %s (%q), want failed saying the server stopped twice", is.Status, is.Error)
	}
	if status, b := srv.request(t, http.MethodDelete, "/api/magazine/"+id); status != http.StatusNoContent {
		t.Fatalf("delete of the given-up issue: %d %s", status, b)
	}
}

// A running ingest can be cancelled, which stops it and lets the issue be
// deleted; a second cancel answers 409.
func TestCancelStopsARunningIngest(t *testing.T) {
	srv := startServer(t, t.TempDir())
	id := srv.upload(t, inkedPDF(40))
	srv.waitPages(t, id, 0)
	if status, b := srv.request(t, http.MethodDelete, "/api/magazine/"+id); status != http.StatusConflict || !strings.Contains(string(b), "/cancel") {
		t.Errorf("delete while ingesting: %d %s, want 409 naming cancel", status, b)
	}
	status, b := srv.request(t, http.MethodPost, "/api/magazine/"+id+"/cancel")
	var is issueView
	if err := json.Unmarshal(b, &is); err != nil || status != http.StatusOK || is.Status != "failed" || is.Step != "cancelled" {
		t.Fatalf("cancel: %d %s", status, b)
	}
	// Stopped: nothing more is done on it.
	done := len(srv.issue(t, id).done())
	if status, b := srv.request(t, http.MethodPost, "/api/magazine/"+id+"/cancel"); status != http.StatusConflict {
		t.Errorf("second cancel: %d %s", status, b)
	}
	if got := srv.issue(t, id); len(got.done()) != done || got.Status != "failed" {
		t.Errorf("after cancel the issue went on: %s, %d pages done (was %d)", got.Status, len(got.done()), done)
	}
	if status, b := srv.request(t, http.MethodDelete, "/api/magazine/"+id); status != http.StatusNoContent {
		t.Fatalf("delete after cancel: %d %s", status, b)
	}
	if status, _ := srv.request(t, http.MethodGet, "/api/magazine/"+id); status != http.StatusNotFound {
		t.Errorf("the issue is still there after delete: %d", status)
	}
}

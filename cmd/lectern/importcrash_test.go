package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

type bookView struct {
	ID, Status, Error string
	Counts            struct{ Segments, Dialogue int }
	ImportJobStatus   *struct {
		Status   string
		Progress float64
	} `json:"import_job_status"`
}

func (s *server) book(t *testing.T, id string) bookView {
	t.Helper()
	var v bookView
	s.getJSON(t, "/api/audiobook/books/"+id, &v)
	return v
}

func (s *server) uploadBook(t *testing.T, name string, text []byte) string {
	t.Helper()
	ct, body := formFile(t, name, "text/plain", text)
	resp, err := http.Post("http://"+s.addr+"/api/audiobook/books", ct, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v bookView
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("upload %s: %d %v", name, resp.StatusCode, err)
	}
	return v.ID
}

// waitBook polls a book until done says its state is reached.
func (s *server) waitBook(t *testing.T, id, what string, done func(bookView) bool) bookView {
	t.Helper()
	deadline := time.Now().Add(slowBound)
	for {
		v := s.book(t, id)
		if done(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("book %s: not %s after %s: %+v", id, what, slowBound, v)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// castingNow is a book whose import job has reached its longest step
// (finding the cast and naming the speakers, at half way).
func castingNow(t *testing.T) func(bookView) bool {
	return func(v bookView) bool {
		if v.Status != "importing" {
			t.Fatalf("the import ended (%s, %q) before the test could stop it part-way", v.Status, v.Error)
		}
		return v.ImportJobStatus != nil && v.ImportJobStatus.Status == "running" && v.ImportJobStatus.Progress >= 0.5
	}
}

// longNovel is a book near the upload limit whose cast takes long enough
// to be killed in.
func longNovel() []byte {
	names := []string{"Mary", "Tom", "Mrs. Bell", "Dr. Grant", "Lucy", "Captain Hart"}
	var b strings.Builder
	narration := strings.Repeat("The fire burned low in the grate, and the wind went round the house. ", 4)
	// About 5,000 exchanges: 3 MB and 35,000 spans, inside the limits.
	for ch := 1; ch <= 100; ch++ {
		fmt.Fprintf(&b, "CHAPTER %d.\n\n", ch)
		for i := range 50 {
			a, c := names[(ch+i)%len(names)], names[(ch+i+1)%len(names)]
			fmt.Fprintf(&b, "%s looked at %s. %s\n\n\"Line %d of chapter %d,\" said %s.\n\n\"Nothing at all,\" %s answered. %s\n\n", a, c, narration, i, ch, a, c, narration)
		}
	}
	return []byte(b.String())
}

// A book import the process dies in is run again at the next start; when
// the process dies in it again it is given up: the book reads failed with
// the reason and can be deleted, never importing forever, and a book
// imported before is untouched (issue 30.1).
func TestImportTheProcessDiesInIsResumedOnceThenGivenUp(t *testing.T) {
	data := t.TempDir()
	srv := startServer(t, data)
	kept := srv.waitBook(t, srv.uploadBook(t, "kept.txt", []byte("CHAPTER I.\n\n\"Good morning,\" said Anne.\n\n\"Good morning,\" said Tom.\n")), "ready",
		func(v bookView) bool { return v.Status != "importing" })
	if kept.Status != "ready" {
		t.Fatalf("the first book: %s %q", kept.Status, kept.Error)
	}
	id := srv.uploadBook(t, "long.txt", longNovel())
	srv.waitBook(t, id, "casting", castingNow(t))
	srv.kill(t)

	srv = startServer(t, data)
	srv.waitBook(t, id, "casting again", castingNow(t))
	srv.kill(t)

	srv = startServer(t, data)
	v := srv.book(t, id)
	if v.Status != "failed" || !strings.Contains(v.Error, "the server stopped 2 times while importing this book") {
		t.Fatalf("after the second death the book is %s (%q), want failed saying the server stopped twice", v.Status, v.Error)
	}
	if got := srv.book(t, kept.ID); got.Status != "ready" || got.Counts != kept.Counts {
		t.Fatalf("the book imported before: %+v, was %+v", got, kept)
	}
	if status, b := srv.request(t, http.MethodDelete, "/api/audiobook/books/"+id); status != http.StatusNoContent {
		t.Fatalf("delete of the given-up book: %d %s", status, b)
	}
}

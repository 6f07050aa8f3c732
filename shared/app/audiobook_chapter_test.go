package app

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/httpapi/audiobookapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/voices"
)

// TestAudiobookChapterRenderOverHTTP: one chapter rendered on its own with
// espeak-ng makes that chapter's MP3 alone, with its sentence timings; after
// a whole render, rendering one chapter again replaces only its MP3 (the M4B
// and the other chapters stay); a chapter the book does not have is a
// problem, and nothing is lost.
func TestAudiobookChapterRenderOverHTTP(t *testing.T) {
	needSpeechTools(t)
	c := newLocalApp(t)
	id := c.importBook("garden.txt", "text/plain", []byte(smallBook)).ID
	if status, _, b := c.do(http.MethodPut, "/api/audiobook/books/"+id+"/narrator", []byte(`{"voice_id":"`+voices.EngineVoiceID(voices.BuiltinEngine, "en-us")+`"}`)); status != http.StatusOK {
		t.Fatalf("narrator: %d %s", status, b)
	}
	view := func() audiobookapi.RenderView {
		return decode[audiobookapi.RenderView](t, c.get("/api/audiobook/books/"+id+"/render"))
	}
	render1 := func(body string) {
		t.Helper()
		if v := c.waitJob(c.startJob("/api/audiobook/books/"+id+"/render", body)); v.Status != jobs.StatusSucceeded {
			t.Fatalf("render %s: %+v", body, v)
		}
	}

	for _, bad := range []string{`{"chapter":3}`, `{"chapter":-1}`, `{"chapter":"one"}`} {
		status, _, b := c.do(http.MethodPost, "/api/audiobook/books/"+id+"/render", []byte(bad))
		if status != http.StatusBadRequest && status != http.StatusUnprocessableEntity || !strings.Contains(string(b), `"title"`) {
			t.Fatalf("render %s = %d %s, want a 400/422 problem", bad, status, b)
		}
	}
	if status, _, b := c.do(http.MethodGet, "/api/audiobook/books/"+id+"/render", nil); status != http.StatusNotFound {
		t.Fatalf("a refused chapter render started one: %d %s", status, b)
	}

	// Chapter 1 alone: its MP3 and timings, no M4B, no other chapter.
	render1(`{"chapter":1}`)
	v := view()
	if v.Book != nil || len(v.ChapterURLs) != 1 || v.ChapterURLs[0].Chapter != 1 || v.ChapterURLs[0].TimingsURL == "" {
		t.Fatalf("after rendering chapter 1: %+v", v)
	}
	tm := decode[render.Timings](t, c.get(v.ChapterURLs[0].TimingsURL))
	said := ""
	for _, ch := range tm.Chapters {
		for _, s := range ch.Sentences {
			said += s.Text + " "
		}
	}
	if len(tm.Chapters) != 1 || len(tm.Chapters[0].Sentences) < 3 || !strings.Contains(said, "key lay on the glass table") || strings.Contains(said, "garden wall") || tm.DurationMS <= 0 {
		t.Fatalf("chapter 1's timings: %+v", tm)
	}
	status, _, mp3 := c.do(http.MethodGet, v.ChapterURLs[0].URL, nil)
	if status != http.StatusOK || len(mp3) < 1000 {
		t.Fatalf("chapter 1's MP3: %d, %d bytes", status, len(mp3))
	}
	if status, _, b := c.do(http.MethodGet, "/api/audiobook/books/"+id+"/render/chapters/0/timings", nil); status != http.StatusConflict {
		t.Fatalf("timings of a chapter not rendered: %d %s, want 409", status, b)
	}

	// The whole book, then chapter 2 again: only its MP3 changes.
	render1(`{}`)
	before := view()
	if before.Book == nil || len(before.Chapters) != 3 {
		t.Fatalf("whole render: %+v", before)
	}
	render1(`{"chapter":2}`)
	after := view()
	if after.Book == nil || after.Book.Key != before.Book.Key || len(after.Chapters) != 3 {
		t.Fatalf("after rendering chapter 2 again the book's files are %+v, were %+v", after, before)
	}
	for i, ch := range after.Chapters {
		changed := ch.Key != before.Chapters[i].Key
		if ch.Chapter != i || changed != (i == 2) {
			t.Fatalf("chapter %d after re-rendering chapter 2: %+v (before %+v)", i, ch, before.Chapters[i])
		}
	}
	// Nothing new was spoken: the chunks of chapter 2 were in the cache.
	if ch := after.Chapters[2]; ch.EngineCalls != 0 || ch.Cached != ch.Chunks || ch.Title != "CHAPTER III. The Garden" {
		t.Fatalf("chapter 2 again: %+v", ch)
	}
	if status, _, b := c.do(http.MethodGet, after.ChapterURLs[2].URL, nil); status != http.StatusOK || len(b) < 1000 {
		t.Fatalf("chapter 2's new MP3: %d", status)
	}
}

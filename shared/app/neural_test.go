package app

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/voices"
)

// TestNeuralNarratorThroughTheRenderer: on a fresh local server (Piper as
// `make deps` installs it) the default voice is the neural one, and a
// render in it goes through the same pipeline as espeak-ng's: sentence
// timings, chunks listed while rendering, the chunk cache (a longer text
// speaks only its new sentences, as a run after a crash does), all spoken
// by one worker.
func TestNeuralNarratorThroughTheRenderer(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("ffmpeg is not installed (make deps-system)")
	}
	srv := httptest.NewUnstartedServer(nil)
	local := openTestLocal(t, "http://"+srv.Listener.Addr().String(), 2)
	if err := local.Piper.Status(t.Context()); err != nil {
		t.Fatalf("Piper is not installed (make deps installs it): %v", err)
	}
	srv.Config.Handler = LocalHandler("0.0.0", "", local.Log, SiteParts{Blobs: local.BlobHandler, Static: fstest.MapFS{}}, local.Operations()...)
	srv.Start()
	t.Cleanup(srv.Close)
	c := &apiClient{t: t, base: srv.URL}

	_, _, b := c.do("GET", "/api/voices/default", nil)
	def := decode[voices.DefaultVoice](t, b)
	if !def.Neural || def.Voice.ID != voices.DefaultVoiceID {
		t.Fatalf("default voice on a fresh server: %s", b)
	}
	// firstAudio is the time from the POST to chunk 0 listed with its URL:
	// what a player waits before it can start.
	var firstAudio time.Duration
	renderText := func(text string) render.Status {
		start := time.Now()
		status, _, b := c.do("POST", "/api/speech/renders", []byte(fmt.Sprintf(`{"voice_id":%q,"format":"mp3","text":%q}`, def.Voice.ID, text)))
		if status != http.StatusAccepted {
			t.Fatalf("POST answered %d: %s", status, b)
		}
		st := decode[render.Status](t, b)
		first := pollChunks(t, c, st.ID, 0)
		firstAudio = time.Since(start)
		if len(first.Chunks) == 0 || first.Chunks[0].VoiceID != def.Voice.ID {
			t.Fatalf("first chunk listing %+v", first)
		}
		checkChunkWAV(t, first.Chunks[0])
		return waitRendered(t, c, st)
	}
	start := time.Now()
	const more = "\n\nAt dawn the harbour was quiet again."
	st := renderText(threeParagraphs)
	t.Logf("three paragraphs in the neural voice: %s; first audio after %s (the first use after start: the worker starts)", time.Since(start).Round(time.Millisecond), firstAudio.Round(time.Millisecond))
	sentences := render.Sentences(threeParagraphs)
	tm := st.Timings.Chapters[0].Sentences
	if st.Result.Chunks != len(sentences) || st.Result.EngineCalls != len(sentences) || len(tm) != len(sentences) {
		t.Fatalf("render: %+v, %d timed sentences; want %d of each", st.Result, len(tm), len(sentences))
	}
	for i, s := range tm {
		// Every sentence is spoken (half a second at least) right after the last.
		if s.Text != sentences[i] || s.EndMS-s.StartMS < 500 || (i > 0 && s.StartMS != tm[i-1].EndMS) {
			t.Fatalf("sentence %d timed %+v", i, s)
		}
	}
	again := renderText(threeParagraphs + more)
	warm := renderText("A new sentence for a warm server. And another one after it.")
	t.Logf("first audio on a warm server: %s (render %s)", firstAudio.Round(time.Millisecond), warm.ID)
	if again.Result.Cached != len(sentences) || again.Result.EngineCalls != 1 {
		t.Fatalf("a longer text spoke %d chunks with %d cached; want 1 and %d", again.Result.EngineCalls, again.Result.Cached, len(sentences))
	}
	if n := local.Piper.Starts(); n != 1 {
		t.Fatalf("%d Piper workers started for three renders; want 1", n)
	}
}

// TestImportCastsVoicesByGender: a novel imported on a local server is
// narrated by the default (neural) voice, and its characters of known
// gender get voices of their gender, distinct while the library has
// enough; the user can change any of them with the cast routes.
func TestImportCastsVoicesByGender(t *testing.T) {
	_, c := serveLocal(t, 2)
	book := c.importBook("novel_text.txt", "text/plain", aliceText(t))
	if book.NarratorVoice != voices.DefaultVoiceID {
		t.Fatalf("narrator voice %q; want the default %q", book.NarratorVoice, voices.DefaultVoiceID)
	}
	voiceOf := map[string]voices.Voice{}
	lookup := func(id string) voices.Voice {
		if v, ok := voiceOf[id]; ok {
			return v
		}
		v := decode[voices.Voice](t, c.get("/api/voices/"+id))
		voiceOf[id] = v
		return v
	}
	used := map[voices.Gender]map[string]string{voices.GenderFemale: {}, voices.GenderMale: {}}
	voiced := 0
	for _, ch := range book.Cast {
		if ch.Gender == "" || ch.Narrator {
			if ch.VoiceID != "" {
				t.Errorf("%s (gender %q, narrator %v) was given voice %s; want the narrator's", ch.Name, ch.Gender, ch.Narrator, ch.VoiceID)
			}
			continue
		}
		if ch.VoiceID == "" || ch.VoiceID == book.NarratorVoice {
			t.Errorf("%s (%s) has voice %q", ch.Name, ch.Gender, ch.VoiceID)
			continue
		}
		v := lookup(ch.VoiceID)
		if string(v.Gender) != ch.Gender || v.Unavailable != "" {
			t.Errorf("%s (%s) speaks in %s (%s, unavailable %q)", ch.Name, ch.Gender, v.Name, v.Gender, v.Unavailable)
		}
		// The first few of each gender (most mentioned first) are distinct.
		g := used[voices.Gender(ch.Gender)]
		if other, taken := g[ch.VoiceID]; taken && len(g) < 4 {
			t.Errorf("%s and %s share %s", ch.Name, other, v.Name)
		}
		g[ch.VoiceID] = ch.Name
		voiced++
	}
	if voiced < 5 || len(used[voices.GenderFemale]) < 2 || len(used[voices.GenderMale]) < 2 {
		t.Fatalf("%d characters voiced; women's voices %v, men's %v", voiced, used[voices.GenderFemale], used[voices.GenderMale])
	}
	// The user changes one with the existing route, and it stays.
	i := slices.IndexFunc(book.Cast, func(ch audiobook.Character) bool { return ch.VoiceID != "" })
	other := voices.EngineVoiceID(voices.BuiltinEngine, "en-gb")
	if status, _, b := c.do(http.MethodPut, "/api/audiobook/books/"+book.ID+"/cast/"+book.Cast[i].ID+"/voice", []byte(`{"voice_id":"`+other+`"}`)); status != http.StatusOK {
		t.Fatalf("set voice: %d %s", status, b)
	}
	if got := c.book(book.ID).Cast; got[slices.IndexFunc(got, func(ch audiobook.Character) bool { return ch.ID == book.Cast[i].ID })].VoiceID != other {
		t.Fatalf("the voice set by hand did not stay")
	}
}

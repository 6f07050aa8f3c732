package app

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"testing"
	"testing/fstest"
	"time"

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
	renderText := func(text string) render.Status {
		status, _, b := c.do("POST", "/api/speech/renders", []byte(fmt.Sprintf(`{"voice_id":%q,"format":"mp3","text":%q}`, def.Voice.ID, text)))
		if status != http.StatusAccepted {
			t.Fatalf("POST answered %d: %s", status, b)
		}
		st := decode[render.Status](t, b)
		first := pollChunks(t, c, st.ID, 0)
		if len(first.Chunks) == 0 || first.Chunks[0].VoiceID != def.Voice.ID {
			t.Fatalf("first chunk listing %+v", first)
		}
		checkChunkWAV(t, first.Chunks[0])
		return waitRendered(t, c, st)
	}
	start := time.Now()
	const more = "\n\nAt dawn the harbour was quiet again."
	st := renderText(threeParagraphs)
	t.Logf("three paragraphs in the neural voice: %s", time.Since(start).Round(time.Millisecond))
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
	if again.Result.Cached != len(sentences) || again.Result.EngineCalls != 1 {
		t.Fatalf("a longer text spoke %d chunks with %d cached; want 1 and %d", again.Result.EngineCalls, again.Result.Cached, len(sentences))
	}
	if n := local.Piper.Starts(); n != 1 {
		t.Fatalf("%d Piper workers started for two renders; want 1", n)
	}
}

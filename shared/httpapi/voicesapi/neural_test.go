package voicesapi

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/voices"
)

// installedPiper is the Piper `make deps` installs (or LECTERN_PIPER's):
// the test setup installs it, so its absence fails the test.
func installedPiper(t *testing.T) *speech.Piper {
	t.Helper()
	python := os.Getenv("LECTERN_PIPER")
	if python == "" {
		python = speech.DefaultPiperPython()
	}
	p := speech.NewPiper(python)
	if err := p.Status(context.Background()); err != nil {
		t.Fatalf("Piper is not installed (make deps installs it): %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestNeuralVoiceIsTheDefaultWithACastOfVoices: with Piper installed the
// library's default is the neural voice, which speaks its preview through
// one worker for all its variations; the cast has women and old voices.
func TestNeuralVoiceIsTheDefaultWithACastOfVoices(t *testing.T) {
	piper := installedPiper(t)
	r := newRigWith(t, nil, piper)
	if _, err := r.svc.ImportBuiltin(context.Background()); err != nil {
		t.Fatal(err)
	}
	var def voices.DefaultVoice
	if code, _ := r.call(t, "GET", "/api/voices/default", nil, &def); code != 200 || !def.Neural || def.Voice.ID != voices.DefaultVoiceID || def.Voice.Engine != voices.PiperEngine || def.Reason != "" {
		t.Fatalf("default voice %d %+v", code, def)
	}
	var neural voices.Result
	r.call(t, "GET", "/api/voices?engine=piper&q=neural&limit=100", nil, &neural)
	if neural.Total < 3 {
		t.Fatalf("neural voices: %+v", neural)
	}
	for _, v := range neural.Items {
		if v.Unavailable != "" || v.Source != voices.SourceBuiltin || v.Gender == "" || v.Age == "" {
			t.Errorf("neural voice %+v: want available, built-in, with gender and age", v)
		}
	}
	var women voices.Result
	r.call(t, "GET", "/api/voices?gender=female&language=en&limit=100", nil, &women)
	ages := map[voices.Age]int{}
	for _, v := range women.Items {
		ages[v.Age]++
	}
	if women.Total < 4 || ages[voices.AgeYoung] == 0 || ages[voices.AgeOld] == 0 {
		t.Fatalf("English women's voices %d, by age %v; want 4 or more, young and old among them", women.Total, ages)
	}
	var old voices.Result
	if r.call(t, "GET", "/api/voices?gender=male&age=old&language=en", nil, &old); old.Total < 2 {
		t.Fatalf("old men's voices: %d", old.Total)
	}
	for _, v := range neural.Items {
		var p voices.Preview
		if code, _ := r.call(t, "POST", "/api/voices/"+v.ID+"/preview", nil, &p); code != 200 || p.ContentType != "audio/wav" {
			t.Fatalf("preview of %s: %d %+v", v.Name, code, p)
		}
		resp, err := http.Get(p.URL)
		if err != nil {
			t.Fatal(err)
		}
		wav, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(wav) < 44100 || string(wav[:4]) != "RIFF" {
			t.Fatalf("preview of %s: %d bytes", v.Name, len(wav))
		}
	}
	if n := piper.Starts(); n != 1 {
		t.Fatalf("%d Piper workers started for %d previews; want 1", n, neural.Total)
	}
	if r.espeaks() != 0 {
		t.Fatalf("espeak-ng spoke %d times for neural previews", r.espeaks())
	}
}

// TestNeuralVoiceAbsentFallsBackToEspeak: without Piper the neural voices
// are still listed, each saying why it cannot speak; the default is
// espeak-ng's with that reason, and a preview is refused with it.
func TestNeuralVoiceAbsentFallsBackToEspeak(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-piper", "python")
	r := newRigWith(t, nil, speech.NewPiper(missing))
	if _, err := r.svc.ImportBuiltin(context.Background()); err != nil {
		t.Fatal(err)
	}
	var def voices.DefaultVoice
	if code, _ := r.call(t, "GET", "/api/voices/default", nil, &def); code != 200 || def.Neural || def.Voice.ID != voices.FallbackVoiceID || !strings.Contains(def.Reason, missing) {
		t.Fatalf("default voice without Piper %d %+v", code, def)
	}
	var neural voices.Result
	r.call(t, "GET", "/api/voices?engine=piper", nil, &neural)
	if neural.Total == 0 {
		t.Fatal("the neural voices are not listed")
	}
	for _, v := range neural.Items {
		if !strings.Contains(v.Unavailable, "make deps") {
			t.Errorf("%s: unavailable %q; want the reason and the fix", v.Name, v.Unavailable)
		}
	}
	var stored voices.Voice
	if stored, _ = r.store.Get(context.Background(), voices.DefaultVoiceID); stored.Unavailable != "" {
		t.Fatalf("the reason was stored in the shared library: %q", stored.Unavailable)
	}
	code, _ := r.call(t, "POST", "/api/voices/"+voices.DefaultVoiceID+"/preview", nil, nil)
	if code != 422 {
		t.Fatalf("preview of the neural voice without Piper: %d; want 422", code)
	}
	var espeak voices.Voice
	if r.call(t, "GET", "/api/voices/"+voices.FallbackVoiceID, nil, &espeak); espeak.Unavailable != "" {
		t.Fatalf("espeak-ng's voice says %q", espeak.Unavailable)
	}
}

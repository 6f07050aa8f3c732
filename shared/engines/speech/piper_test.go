package speech

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// piperPython is the interpreter `make deps` installs Piper into (or
// LECTERN_PIPER's). The test setup installs it, so a test that needs it
// fails, never skips, without it.
func piperPython(t testing.TB) *Piper {
	t.Helper()
	python := os.Getenv("LECTERN_PIPER")
	if python == "" {
		python = DefaultPiperPython()
	}
	p := NewPiper(python)
	if err := p.Status(t.Context()); err != nil {
		t.Fatalf("Piper is not installed (make deps installs it): %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// speech16 reads a WAV answer: its rate and samples, checking the header
// describes exactly the samples that follow.
func speech16(t *testing.T, wav []byte) (int, []int16) {
	t.Helper()
	le := binary.LittleEndian
	if len(wav) < 44 || string(wav[0:4]) != "RIFF" || string(wav[8:16]) != "WAVEfmt " || string(wav[36:40]) != "data" {
		t.Fatalf("not a canonical WAV: %.44q", wav)
	}
	if n := int(le.Uint32(wav[40:44])); n != len(wav)-44 || int(le.Uint32(wav[4:8])) != len(wav)-8 {
		t.Fatalf("WAV sizes %d/%d do not match %d bytes", n, le.Uint32(wav[4:8]), len(wav))
	}
	samples := make([]int16, (len(wav)-44)/2)
	for i := range samples {
		samples[i] = int16(le.Uint16(wav[44+2*i:]))
	}
	return int(le.Uint32(wav[24:28])), samples
}

// rms is the loudness of samples, 0..1.
func rms(s []int16) float64 {
	var sum float64
	for _, v := range s {
		f := float64(v) / 32768
		sum += f * f
	}
	return math.Sqrt(sum / float64(max(len(s), 1)))
}

// TestPiperKeepsOneWorkerForManySentences: many requests are spoken by
// one worker started at the first, each answer real speech of about the
// sentence's length.
func TestPiperKeepsOneWorkerForManySentences(t *testing.T) {
	p := piperPython(t)
	if p.Starts() != 0 {
		t.Fatalf("a worker started before any request (%d)", p.Starts())
	}
	sentences := []string{
		"Alice was beginning to get very tired of sitting by her sister on the bank.",
		"So she was considering in her own mind what she should do.",
		"There was nothing so very remarkable in that.",
		"Down, down, down.",
		"Would the fall never come to an end?",
		"Either the well was very deep, or she fell very slowly.",
	}
	for _, s := range sentences {
		a, err := p.Speak(t.Context(), Request{Text: s})
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		rate, samples := speech16(t, a.Data)
		secs := float64(len(samples)) / float64(rate)
		if rate != 22050 || secs < 0.5 || secs > 8 {
			t.Fatalf("%q: %.2f s at %d Hz; want 0.5..8 s at 22050 Hz", s, secs, rate)
		}
		if l := rms(samples); l < 0.02 {
			t.Fatalf("%q is near silence (RMS %.4f)", s, l)
		}
	}
	if n := p.Starts(); n != 1 {
		t.Fatalf("%d workers started for %d sentences; want 1", n, len(sentences))
	}
}

// TestPiperReplacesAWorkerThatDied: a worker killed between requests is
// replaced at the next one, which still succeeds.
func TestPiperReplacesAWorkerThatDied(t *testing.T) {
	p := piperPython(t)
	if _, err := p.Speak(t.Context(), Request{Text: "First."}); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	_ = p.w.cmd.Process.Kill()
	<-p.w.done
	p.mu.Unlock()
	if _, err := p.Speak(t.Context(), Request{Text: "Second, after the crash."}); err != nil {
		t.Fatalf("after the worker died: %v", err)
	}
	if n := p.Starts(); n != 2 {
		t.Fatalf("%d workers started; want 2 (the first and its replacement)", n)
	}
}

// TestPiperVariants: pitch changes the voice but not the pace; rate does
// change the pace.
func TestPiperVariants(t *testing.T) {
	p := piperPython(t)
	const text = "The quick brown fox jumps over the lazy dog, and runs away into the forest."
	length := func(voice string) float64 {
		a, err := p.Speak(t.Context(), Request{Text: text, Voice: voice})
		if err != nil {
			t.Fatalf("%s: %v", voice, err)
		}
		rate, s := speech16(t, a.Data)
		return float64(len(s)) / float64(rate)
	}
	plain, low, slow := length(PiperModel), length(PiperModel+";pitch=85"), length(PiperModel+";rate=75")
	if math.Abs(low/plain-1) > 0.15 {
		t.Errorf("pitch 85%%: %.2f s against %.2f s; want the same pace (±15%%)", low, plain)
	}
	if slow/plain < 1.15 {
		t.Errorf("rate 75%%: %.2f s against %.2f s; want at least 15%% longer", slow, plain)
	}
}

// TestPiperAbsent: without Piper the voice is unavailable, with the reason,
// and a request fails at once instead of crashing.
func TestPiperAbsent(t *testing.T) {
	for _, python := range []string{"", filepath.Join(t.TempDir(), "no-python")} {
		p := NewPiper(python)
		err := p.Status(t.Context())
		if !errors.Is(err, ErrPiperUnavailable) {
			t.Fatalf("python %q: status %v; want ErrPiperUnavailable", python, err)
		}
		if _, err := p.Speak(t.Context(), Request{Text: "Hello."}); !errors.Is(err, ErrPiperUnavailable) {
			t.Fatalf("python %q: speak %v; want ErrPiperUnavailable", python, err)
		}
		if p.Starts() != 0 {
			t.Fatalf("python %q: a worker was started", python)
		}
	}
	// An interpreter without the packages says which are missing.
	p := NewPiper("/usr/bin/python3")
	if err := p.Status(t.Context()); !errors.Is(err, ErrPiperUnavailable) {
		t.Fatalf("system python3: %v; want ErrPiperUnavailable naming the missing packages", err)
	}
}

func TestParsePiperSpec(t *testing.T) {
	for _, c := range []struct {
		in   string
		want PiperSpec
		ok   bool
	}{
		{"", PiperSpec{Model: PiperModel}, true},
		{PiperModel, PiperSpec{Model: PiperModel}, true},
		{PiperModel + ";rate=90;pitch=88;var=120", PiperSpec{Model: PiperModel, Rate: 90, Pitch: 88, Variation: 120}, true},
		{"en_GB-alan-low", PiperSpec{}, false},
		{PiperModel + ";pitch=200", PiperSpec{}, false},
		{PiperModel + ";speed=2", PiperSpec{}, false},
	} {
		got, err := ParsePiperSpec(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParsePiperSpec(%q) = %+v, %v; want %+v ok=%v", c.in, got, err, c.want, c.ok)
		}
		if c.ok && c.in != "" {
			if got.String() != c.in {
				t.Errorf("String() = %q; want %q", got.String(), c.in)
			}
		}
	}
}

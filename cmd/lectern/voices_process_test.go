package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestTwoServeProcessesShareOneVoiceLibrary starts lectern twice,
// with their own data folders and instance names and one LECTERN_VOICES
// file, and shows each sees the other's changes as soon as they are made.
func TestTwoServeProcessesShareOneVoiceLibrary(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two lectern processes")
	}
	dir := t.TempDir()
	// The test binary runs as lectern (TestMain, beLectern): no second build.
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	library := filepath.Join(dir, "shared-voices.db")
	a := startBinary(t, bin, library, "a")
	b := startBinary(t, bin, library, "b")
	seeEachOthersChanges(t, a, b)
}

// TestAnInstanceUsesAnotherInstancesVoiceLibraryByURL starts a with its own
// library file and b with LECTERN_VOICES set to a's base URL: each sees the
// other's changes as soon as they are made, as two instances sharing the file do.
// A third whose library URL answers nothing says so, naming the URL, at once.
func TestAnInstanceUsesAnotherInstancesVoiceLibraryByURL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three lectern processes")
	}
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a := startBinary(t, bin, filepath.Join(t.TempDir(), "voices.db"), "a")
	b := startBinary(t, bin, a, "b")
	seeEachOthersChanges(t, b, a)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + ln.Addr().String()
	ln.Close()
	c := startBinary(t, bin, gone, "c")
	start := time.Now()
	resp, err := http.Get(c + "/api/voices?q=narrator")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var problem struct{ Detail string }
	_ = json.NewDecoder(resp.Body).Decode(&problem)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(problem.Detail, gone) {
		t.Fatalf("search with the library down: %d %q, want 503 naming %s", resp.StatusCode, problem.Detail, gone)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the refusal took %v", took)
	}
	t.Logf("library down: %d %s", resp.StatusCode, problem.Detail)
}

// seeEachOthersChanges shows that instances a and b use one library: a
// voice added in a, edited in b and deleted in a is seen by the other
// as soon as it is answered, and an edit of a version the other moved on is refused.
func seeEachOthersChanges(t *testing.T, a, b string) {
	t.Helper()
	// Both imported espeak-ng's voices at start, into one library: each
	// voice is there once.
	var builtinA, builtinB struct{ Total int }
	getJSON(t, a+"/api/voices?source=builtin&limit=1", &builtinA)
	getJSON(t, b+"/api/voices?source=builtin&limit=1", &builtinB)
	if builtinA.Total < 100 || builtinA.Total != builtinB.Total {
		t.Fatalf("built-in voices: %d in a, %d in b", builtinA.Total, builtinB.Total)
	}

	send(t, "PUT", a+"/api/voices/shared-narrator", `{"name":"Shared Narrator","engine":"espeak-ng","engine_voice":"en-gb-scotland","tags":["calm"]}`, 201)
	visibleAtOnce(t, "a voice added in a", func() bool {
		return status(t, b+"/api/voices/shared-narrator") == 200 && total(t, b+"/api/voices?q=shared+narrator") == 1
	})
	send(t, "PUT", b+"/api/voices/shared-narrator", `{"name":"Shared Narrator","engine":"espeak-ng","engine_voice":"en-gb-scotland","tags":["gruff"],"version":1}`, 200)
	visibleAtOnce(t, "b's edit", func() bool { return total(t, a+"/api/voices?q=gruff") == 1 })
	// a's view is version 1; b's edit moved it on, so a stale edit is refused.
	send(t, "PUT", a+"/api/voices/shared-narrator", `{"name":"Lost update","engine":"espeak-ng","engine_voice":"en-gb-scotland","version":1}`, 409)
	send(t, "DELETE", a+"/api/voices/shared-narrator", "", 204)
	visibleAtOnce(t, "a's delete", func() bool { return status(t, b+"/api/voices/shared-narrator") == 404 })
}

// startBinary runs `lectern serve` on a free loopback port with library as
// its LECTERN_VOICES (a file or another instance's URL) and answers its base
// URL; the process is stopped when the test ends.
func startBinary(t *testing.T, bin, library, instance string) string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", filepath.Join(t.TempDir(), "data-"+instance), "--instance", instance)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LECTERN_VOICES=" + library, beLectern + "=1"}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	addr := regexp.MustCompile(`"addr":"(127\.0\.0\.1:\d+)"`)
	found := make(chan string, 1)
	go func() {
		// Reads the log to its end, so the server never blocks writing it.
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if m := addr.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- "http://" + m[1]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case base, ok := <-found:
		if !ok {
			t.Fatalf("instance %s exited before serving", instance)
		}
		return base
	case <-time.After(slowBound):
		t.Fatalf("instance %s never logged its address", instance)
	}
	return ""
}

// visibleAtOnce fails unless seen holds at the first look, made after the
// change was answered: the library has no cache, so the other process sees
// a change as soon as it is made. (A bound in seconds would measure the
// machine: a loaded one takes more than a second for a few requests.)
func visibleAtOnce(t *testing.T, what string, seen func() bool) {
	t.Helper()
	if !seen() {
		t.Fatalf("%s was not visible in the other process once it was answered", what)
	}
}

func send(t *testing.T, method, url, body string, want int) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s %s: %d %s, want %d", method, url, resp.StatusCode, b, want)
	}
}

func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func getJSON(t *testing.T, url string, out any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
}

func total(t *testing.T, url string) int {
	t.Helper()
	var r struct{ Total int }
	getJSON(t, url, &r)
	return r.Total
}

package mcpserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// countingServer answers every request with body and counts them.
func countingServer(t *testing.T, body string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// TestURLImportsFetchOnlyPublicAddresses: an agent's URL reaches neither
// this machine, nor a private or link-local network, nor a metadata
// service, in any spelling, unless --fetch-allow names it. Nothing here
// leaves loopback: refused addresses are refused before a connection.
func TestURLImportsFetchOnlyPublicAddresses(t *testing.T) {
	book, hits := countingServer(t, "%PDF-1.7 Chapter One. It was a dark night.")
	_, p, _ := strings.Cut(book.Listener.Addr().String(), ":")
	s, rec := recordingSession(t)
	for _, raw := range []string{
		book.URL + "/book.txt",
		"http://localhost:" + p + "/book.txt",
		"http://[::1]:" + p + "/book.txt",
		"http://[::ffff:127.0.0.1]:" + p + "/book.txt",
		"http://169.254.169.254/latest/meta-data/iam/security-credentials/",
		"http://[::ffff:169.254.169.254]/latest/meta-data/",
		"http://[fd00:ec2::254]/latest/meta-data/",
		"http://[fe80::1]/book.txt",
		"http://[fc00::1]/book.txt",
		"http://10.0.0.1/book.txt",
		"http://192.168.1.1/book.txt",
		"http://100.100.100.200/latest/meta-data/",
	} {
		for _, tool := range []string{"lectern_import_book", "lectern_upload_issue"} {
			text := s.fails(tool, map[string]any{"url": raw}, "Error: Refused: ")
			if !strings.Contains(text, "--fetch-allow") {
				t.Errorf("%s %s: %q does not say how to allow it", tool, raw, text)
			}
		}
	}
	if hits.Load() != 0 || len(rec.calls) != 0 {
		t.Fatalf("refused URLs reached the server %d times and the API %v", hits.Load(), rec.calls)
	}
}

// TestRedirectsAreCheckedAtConnectTime: an allowed server redirects to a
// loopback port nobody allowed; the connection there is refused by the
// dialler (the URL checked before the request was the allowed one).
func TestRedirectsAreCheckedAtConnectTime(t *testing.T) {
	target, targetHits := countingServer(t, "%PDF-1.7 secret")
	var firstHits atomic.Int32
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		firstHits.Add(1)
		http.Redirect(w, r, target.URL+"/latest/meta-data/", http.StatusFound)
	}))
	t.Cleanup(first.Close)
	api, err := NewClient("http://127.0.0.1:1", "tok", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := connect(t, api, Options{FetchAllow: []string{first.Listener.Addr().String()}}, nil)
	text := s.fails("lectern_upload_issue", map[string]any{"url": first.URL + "/issue.pdf"}, "Error: Refused: ")
	if !strings.Contains(text, "127.0.0.1 is a loopback address") {
		t.Errorf("refusal %q does not say why", text)
	}
	if firstHits.Load() != 1 || targetHits.Load() != 0 {
		t.Fatalf("allowed server hit %d times, redirect target %d times; want 1 and 0", firstHits.Load(), targetHits.Load())
	}
}

// TestPathsStayInsideTheGivenFolders: a path is read only beneath a folder
// given with --files; "..", absolute paths elsewhere and symbolic links out
// of the folder are refused, and with no folder nothing is read.
func TestPathsStayInsideTheGivenFolders(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "shadow")
	must(t, os.WriteFile(secret, []byte("%PDF-1.7 root:$6$secret"), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "issue.pdf"), []byte("%PDF-1.7 issue"), 0o600))
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o700))
	must(t, os.Symlink(secret, filepath.Join(dir, "link.pdf")))
	must(t, os.Symlink(outside, filepath.Join(dir, "sub", "out")))
	must(t, os.Symlink("../issue.pdf", filepath.Join(dir, "sub", "alias.pdf")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.pdf"), 0o600))

	roots, err := newFileRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "issue.pdf"), "%PDF-1.7 issue"},
		{filepath.Join(dir, "sub", "alias.pdf"), "%PDF-1.7 issue"}, // a link that stays inside
		{filepath.Join(dir, "sub", "..", "issue.pdf"), "%PDF-1.7 issue"},
	} {
		if got, err := roots.read(c.path, maxPDF); err != nil || string(got) != c.want {
			t.Errorf("%s = %q, %v; want %q", c.path, got, err, c.want)
		}
	}
	for _, c := range []struct{ path, why string }{
		{secret, "outside the folders"},
		{"/etc/passwd", "outside the folders"},
		{filepath.Join(dir, "..", filepath.Base(outside), "shadow"), "outside the folders"},
		{filepath.Join(dir, "link.pdf"), "leads outside its folder"},
		{filepath.Join(dir, "sub", "out", "shadow"), "leads outside its folder"},
		{filepath.Join(dir, "fifo.pdf"), "is not a file"},
		{dir, "is not a file"},
	} {
		got, err := roots.read(c.path, maxPDF)
		if err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s = %q, %v; want a refusal saying %q", c.path, got, err, c.why)
		}
	}
	// Through the tool: the same refusal, and no folder reads nothing.
	api, err := NewClient("http://127.0.0.1:1", "tok", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := connect(t, api, Options{FileRoots: []string{dir}}, nil)
	s.fails("lectern_upload_issue", map[string]any{"path": filepath.Join(dir, "link.pdf")}, "Error: Refused: ")
	s.fails("lectern_import_book", map[string]any{"path": secret}, "Error: Refused: ")
	none := connect(t, api, Options{}, nil)
	none.fails("lectern_import_book", map[string]any{"path": filepath.Join(dir, "issue.pdf")}, "Error: Not supported: this server reads no local files")
	if _, err := New(api, Options{FileRoots: []string{filepath.Join(dir, "issue.pdf")}}); err == nil {
		t.Error("a file was accepted as a folder to read")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestHTTPRefusesForeignOrigins: the transport answers 403 to a browser
// page of another origin, before any tool runs, with sessions and
// stateless; its own origin, allowed origins and non-browser clients pass.
func TestHTTPRefusesForeignOrigins(t *testing.T) {
	for _, stateless := range []bool{false, true} {
		api, rec := recordingAPI(t)
		h, err := HTTPHandler(api, Options{}, HTTPOptions{Stateless: stateless, AllowedOrigins: []string{"https://notes.example"}})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"lectern_get_issue_status","arguments":{"issue_id":"abcd1234"}}}`
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
		post := func(origin, body string) (int, string) {
			req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2025-06-18")
			if origin != "" {
				req.Header.Set("Origin", origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		for _, origin := range []string{"http://evil.example", "null", "http://127.0.0.1", "https://notes.example.evil", "http://" + srv.Listener.Addr().String() + ".evil.example"} {
			for _, body := range []string{init, call} {
				code, text := post(origin, body)
				var msg struct {
					Error struct{ Message string } `json:"error"`
				}
				if code != http.StatusForbidden || json.Unmarshal([]byte(text), &msg) != nil || !strings.Contains(msg.Error.Message, "Origin") {
					t.Errorf("stateless %t, Origin %s: %d %s; want 403 with a JSON-RPC error", stateless, origin, code, text)
				}
			}
		}
		if len(rec.calls) != 0 {
			t.Fatalf("stateless %t: a refused request reached the API: %v", stateless, rec.calls)
		}
		for _, origin := range []string{"", "http://" + srv.Listener.Addr().String(), "https://notes.example"} {
			if code, text := post(origin, init); code != http.StatusOK {
				t.Errorf("stateless %t, Origin %q: initialize answered %d %s", stateless, origin, code, text)
			}
		}
		if stateless {
			if code, text := post("", call); code != http.StatusOK || !strings.Contains(text, "abcd1234") {
				t.Errorf("a stateless call without Origin answered %d %s", code, text)
			}
		}
	}
	api, err := NewClient("http://127.0.0.1:1", "", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := HTTPHandler(api, Options{}, HTTPOptions{AllowedOrigins: []string{"notes.example/path"}}); err == nil {
		t.Error("an allowed origin that is not scheme://host was accepted")
	}
}

// TestHostedPresignedUploadIsCheckedAtConnectTime: a hosted server posts
// a presigned form only where the engine URL rule allows, so an upload URL
// on this machine (as a tampered or misconfigured API could answer) is
// refused at connect time and storage never sees the file.
func TestHostedPresignedUploadIsCheckedAtConnectTime(t *testing.T) {
	p, api := newPresignedAPI(t)
	s := connect(t, api, Options{Hosted: true, FetchAllow: []string{p.srv.Listener.Addr().String()}}, nil)
	text := s.fails("lectern_upload_issue", map[string]any{"url": p.srv.URL + "/files/spring.pdf", "title": "Spring Issue"}, "Error: Refused: ")
	if !strings.Contains(text, "loopback") {
		t.Errorf("refusal %q does not say why", text)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stored != nil {
		t.Errorf("storage on loopback got %d bytes from a hosted server", len(p.stored))
	}
}

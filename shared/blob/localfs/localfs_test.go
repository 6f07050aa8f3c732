package localfs_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/blob/blobtest"
	"github.com/lectern/lectern/shared/blob/localfs"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// fakeClock is the time presigned URLs are checked against; Elapse moves it.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// serve starts a server that mounts the store's handler the way the local
// server does, and returns the store it serves.
func serve(t *testing.T, dir string, clock func() time.Time, opts ...localfs.Option) (*localfs.Store, *httptest.Server) {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s, err := localfs.New(dir, srv.URL, testSecret, clock, opts...)
	if err != nil {
		t.Fatalf("new store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	mux.Handle(localfs.PathPrefix, s.Handler())
	return s, srv
}

func TestContract(t *testing.T) {
	t.Run("localfs", func(t *testing.T) {
		blobtest.Run(t, blobtest.Harness{
			New: func(t *testing.T) blobtest.Fixture {
				clock := &fakeClock{now: time.Now()}
				s, _ := serve(t, t.TempDir(), clock.Now)
				return blobtest.Fixture{Store: s, Elapse: clock.Advance}
			},
			Client:         &http.Client{Timeout: time.Minute},
			SignatureParam: "sig",
		})
	})
}

func TestKeysOutsideTheRootAreRefused(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "store")
	victim := filepath.Join(base, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := localfs.New(root, "http://127.0.0.1:1", testSecret, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	for _, c := range []struct{ name, key string }{
		{"empty", ""},
		{"parent", "../victim.txt"},
		{"grandparent", "../../victim.txt"},
		{"climbs out through a real folder name", "objects/../../victim.txt"},
		{"climbs out after a segment", "a/../../../victim.txt"},
		{"dot dot alone", ".."},
		{"dot dot at the end", "a/.."},
		{"dot segment", "./victim.txt"},
		{"absolute path of the file", victim},
		{"absolute", "/victim.txt"},
		{"backslash parent", `..\victim.txt`},
		{"backslash climb", `objects\..\..\victim.txt`},
		{"drive letter", `C:\victim.txt`},
		{"double slash", "a//victim.txt"},
		{"trailing slash", "dir/"},
		{"NUL byte", "nul\x00.txt"},
		{"escaped slash then dot dot", "..%2fvictim.txt/.."},
	} {
		key := c.key
		t.Run(c.name, func(t *testing.T) {
			err := s.Put(context.Background(), key, strings.NewReader("overwritten"), "text/plain")
			if !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("put %q: got %v, want ErrInvalidKey", key, err)
			}
			if err := s.Delete(context.Background(), key); !errors.Is(err, blob.ErrInvalidKey) {
				t.Errorf("delete %q: got %v, want ErrInvalidKey", key, err)
			}
		})
	}
	if got, _ := os.ReadFile(victim); string(got) != "keep me" {
		t.Errorf("file outside the root now holds %q", got)
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != 2 {
		t.Errorf("folder around the root holds %d entries, want store and victim.txt only", len(entries))
	}
}

func TestSymlinkOutOfTheRootIsNotFollowed(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	if err := os.Mkdir(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "store")
	s, err := localfs.New(root, "http://127.0.0.1:1", testSecret, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// A valid key whose first segment someone replaced with a link outside.
	if err := os.Symlink(outside, filepath.Join(root, "objects", "link")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Get(context.Background(), "link/secret.txt"); err == nil {
		t.Error("get through a symlink out of the root succeeded")
	}
	if err := s.Put(context.Background(), "link/planted.txt", strings.NewReader("x"), ""); err == nil {
		t.Error("put through a symlink out of the root succeeded")
	}
	if _, err := os.Stat(filepath.Join(outside, "planted.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file was written outside the root: %v", err)
	}
}

func TestNestedKeysConflictUntilDeleted(t *testing.T) {
	s, err := localfs.New(t.TempDir(), "http://127.0.0.1:1", testSecret, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	put := func(key string) error { return s.Put(ctx, key, strings.NewReader(key), "text/plain") }

	if err := put("a/b"); err != nil {
		t.Fatal(err)
	}
	if err := put("a"); !errors.Is(err, blob.ErrInvalidKey) {
		t.Errorf("put a over folder a/: got %v, want ErrInvalidKey", err)
	}
	if _, err := s.Head(ctx, "a"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("head of a folder: got %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, "a"); err != nil {
		t.Errorf("delete of a folder name: %v", err)
	}
	if err := s.Delete(ctx, "a/b"); err != nil {
		t.Fatal(err)
	}
	// The emptied folder was pruned, so "a" is free now.
	if err := put("a"); err != nil {
		t.Errorf("put a after deleting a/b: %v", err)
	}
	if err := put("a/c"); !errors.Is(err, blob.ErrInvalidKey) {
		t.Errorf("put a/c under object a: got %v, want ErrInvalidKey", err)
	}
	if _, _, err := s.Get(ctx, "a/c"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("get a/c under object a: got %v, want ErrNotFound", err)
	}
}

func TestWritesLeaveNoTempFiles(t *testing.T) {
	dir := t.TempDir()
	s, err := localfs.New(dir, "http://127.0.0.1:1", testSecret, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Put(ctx, "ok/one", strings.NewReader("1"), ""); err != nil {
		t.Fatal(err)
	}
	failing := io.MultiReader(strings.NewReader("partial"), errorReader{})
	if err := s.Put(ctx, "bad/one", failing, ""); err == nil {
		t.Fatal("put from a failing reader succeeded")
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(entries) != 0 {
		t.Errorf("tmp holds %d files after puts finished", len(entries))
	}
	// What a reader of the folder sees: plain files plus sidecars.
	if got, _ := os.ReadFile(filepath.Join(dir, "objects", "ok", "one")); string(got) != "1" {
		t.Errorf("object file holds %q", got)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "meta", "ok", "one")); !bytes.Contains(got, []byte(blob.DefaultContentType)) {
		t.Errorf("sidecar holds %q", got)
	}
}

func TestNewRemovesOnlyStaleTempFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o700); err != nil {
		t.Fatal(err)
	}
	stale, fresh := filepath.Join(dir, "tmp", "stale"), filepath.Join(dir, "tmp", "fresh")
	for _, f := range []string{stale, fresh} {
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	s, err := localfs.New(dir, "http://127.0.0.1:1", testSecret, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale temp file survived: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temp file (maybe another writer's) was removed: %v", err)
	}
}

func TestSweepTempsRemovesEveryTempFile(t *testing.T) {
	dir := t.TempDir()
	s, err := localfs.New(dir, "http://127.0.0.1:1", testSecret, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(t.Context(), "uploads/a.pdf", strings.NewReader("%PDF-"), "application/pdf"); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "tmp", "cut-short-upload")
	if err := os.WriteFile(fresh, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, err := s.SweepTemps(); err != nil || n != 1 {
		t.Fatalf("sweep = %d, %v; want 1", n, err)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temp file survived the sweep: %v", err)
	}
	if _, err := s.Head(t.Context(), "uploads/a.pdf"); err != nil {
		t.Errorf("the sweep touched an object: %v", err)
	}
}

func TestNewRefusesAShortSecret(t *testing.T) {
	if _, err := localfs.New(t.TempDir(), "http://x", []byte("short"), time.Now); err == nil {
		t.Error("New accepted a 5-byte signing secret")
	}
}

func TestHandler(t *testing.T) {
	clock := &fakeClock{now: time.Now()}
	s, srv := serve(t, t.TempDir(), clock.Now, localfs.WithMaxPutBytes(1024))
	ctx := context.Background()
	if err := s.Put(ctx, "doc/text.txt", strings.NewReader("abcdefgh"), "text/plain"); err != nil {
		t.Fatal(err)
	}
	getURL, err := s.PresignGet(ctx, "doc/text.txt", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(getURL, srv.URL+"/blobs/doc/text.txt?") {
		t.Errorf("URL %s is not under %s/blobs/", getURL, srv.URL)
	}
	putURL, err := s.PresignPut(ctx, "up/file.bin", "application/octet-stream", time.Minute)
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name     string
		method   string
		url      string
		body     io.Reader
		header   map[string]string
		want     int
		wantBody string
	}{
		{"range request", http.MethodGet, getURL, nil, map[string]string{"Range": "bytes=2-4"}, http.StatusPartialContent, "cde"},
		{"HEAD is not signed", http.MethodHead, getURL, nil, nil, http.StatusForbidden, ""},
		{"DELETE is not signed", http.MethodDelete, getURL, nil, nil, http.StatusForbidden, ""},
		{"no signature at all", http.MethodGet, srv.URL + "/blobs/doc/text.txt", nil, nil, http.StatusForbidden, ""},
		{"signature of another op", http.MethodGet, strings.Replace(putURL, "op=put", "op=get", 1), nil, nil, http.StatusForbidden, ""},
		{"exp pushed later", http.MethodGet, bumpExp(t, getURL), nil, nil, http.StatusForbidden, ""},
		{"key with a backslash", http.MethodGet, srv.URL + "/blobs/a%5Cb?op=get", nil, nil, http.StatusNotFound, ""},
		{"body at the limit", http.MethodPut, putURL, bytes.NewReader(make([]byte, 1024)),
			map[string]string{"Content-Type": "application/octet-stream"}, http.StatusOK, ""},
		{"body over the limit", http.MethodPut, putURL, bytes.NewReader(make([]byte, 1025)),
			map[string]string{"Content-Type": "application/octet-stream"}, http.StatusRequestEntityTooLarge, ""},
		// Without a length up front, the limit is enforced while reading.
		{"chunked body over the limit", http.MethodPut, putURL, struct{ io.Reader }{bytes.NewReader(make([]byte, 4096))},
			map[string]string{"Content-Type": "application/octet-stream"}, http.StatusRequestEntityTooLarge, ""},
		{"PUT without Content-Type", http.MethodPut, putURL, strings.NewReader("x"), nil, http.StatusForbidden, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, c.url, c.body)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Errorf("status %d (%s), want %d", resp.StatusCode, body, c.want)
			}
			if c.wantBody != "" && string(body) != c.wantBody {
				t.Errorf("body %q, want %q", body, c.wantBody)
			}
		})
	}
	// The accepted upload is whole; the refused ones replaced nothing.
	info, err := s.Head(ctx, "up/file.bin")
	if err != nil || info.Size != 1024 {
		t.Errorf("after the uploads, head = %+v, %v; want the 1024-byte one", info, err)
	}
	if got := resp(t, srv, getURL).Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
	}
}

func bumpExp(t *testing.T, u string) string {
	t.Helper()
	i := strings.Index(u, "exp=")
	if i < 0 {
		t.Fatalf("no exp in %s", u)
	}
	// Add a digit: ten times later, same signature.
	return u[:i+4] + "9" + u[i+4:]
}

func resp(t *testing.T, srv *httptest.Server, u string) *http.Response {
	t.Helper()
	r, err := srv.Client().Get(u)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, r.Body)
	r.Body.Close()
	return r
}

type errorReader struct{}

func (errorReader) Read([]byte) (int, error) { return 0, errors.New("disk unplugged") }

func TestSidecarsOfOneTypeShareAFile(t *testing.T) {
	dir := t.TempDir()
	s, err := localfs.New(dir, "http://127.0.0.1:1", testSecret, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := t.Context()
	for key, ct := range map[string]string{"a/one.wav": "audio/wav", "a/two.wav": "audio/wav", "b/three.txt": "text/plain"} {
		if err := s.Put(ctx, key, strings.NewReader(key), ct); err != nil {
			t.Fatal(err)
		}
	}
	stat := func(key string) os.FileInfo {
		t.Helper()
		fi, err := os.Stat(filepath.Join(dir, "meta", filepath.FromSlash(key)))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	if !os.SameFile(stat("a/one.wav"), stat("a/two.wav")) {
		t.Error("two audio/wav objects have sidecars of their own: a new file each where a link does")
	}
	if os.SameFile(stat("a/one.wav"), stat("b/three.txt")) {
		t.Fatal("objects of two content types share a sidecar")
	}
	// Replacing an object's type relinks its sidecar; the others keep theirs.
	if err := s.Put(ctx, "a/two.wav", strings.NewReader("now text"), "text/plain"); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"a/one.wav": "audio/wav", "a/two.wav": "text/plain", "b/three.txt": "text/plain"} {
		if info, err := s.Head(ctx, key); err != nil || info.ContentType != want {
			t.Errorf("head %s = %q, %v; want %q", key, info.ContentType, err, want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(entries) != 0 {
		t.Errorf("tmp holds %d files after puts finished", len(entries))
	}
}

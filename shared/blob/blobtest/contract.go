// Package blobtest is the contract every blob.Store adapter meets: one suite
// of behaviours, run by each adapter's tests against a real backend (a temp
// folder behind an httptest server, MinIO), so both modes behave alike.
package blobtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob"
)

// Harness adapts one adapter to the suite.
type Harness struct {
	// New returns an empty store for one subtest and registers its teardown
	// with t.Cleanup. Subtests run in parallel, so New must be safe to call
	// concurrently.
	New func(t *testing.T) Fixture
	// Client sends the HTTP requests to presigned URLs.
	Client *http.Client
	// SignatureParam names the query parameter that carries a presigned
	// URL's signature ("X-Amz-Signature" for S3).
	SignatureParam string
}

// Fixture is one store under test.
type Fixture struct {
	Store blob.Store
	// Elapse lets d pass on the clock the store checks presigned URLs
	// against: a fake clock is moved, a real server's clock is waited for.
	Elapse func(d time.Duration)
}

// Run runs every contract case as a parallel subtest, each on a fresh store.
func Run(t *testing.T, h Harness) {
	cases := []struct {
		name string
		run  func(t *testing.T, h Harness, f Fixture)
	}{
		{"put then get returns the bytes and content type", putGetRoundTrip},
		{"a cache put is read back as a put is, and replaces", putCacheRoundTrip},
		{"touch moves the modification time on, keeping bytes and type", touchMarksUse},
		{"touch of a missing key answers ErrNotFound", touchMissing},
		{"an empty object with no content type gets the default type", emptyObjectDefaultType},
		{"head describes the object", headDescribes},
		{"head of a missing key answers ErrNotFound", headMissing},
		{"get of a missing key answers ErrNotFound", getMissing},
		{"delete then get answers ErrNotFound", deleteThenGet},
		{"delete of a missing key succeeds", deleteMissing},
		{"purge removes an overwritten object and nothing beside it", purgeRemoves},
		{"list by prefix is ordered and excludes neighbours", listByPrefix},
		{"list of an unused prefix is empty", listEmpty},
		{"delete prefix removes one folder and nothing beside it", deletePrefix},
		{"overwrite replaces bytes and content type", overwriteReplaces},
		{"a failed put keeps the previous object", failedPutKeepsPrevious},
		{"a put with a cancelled context stores nothing", cancelledPut},
		{"a large object streams through put and get", largeObject},
		{"concurrent puts to one key leave one whole object", concurrentPuts},
		{"invalid keys are refused with ErrInvalidKey", invalidKeys},
		{"presign refuses lifetimes outside 1s to 7 days", presignTTLBounds},
		{"presigned put then presigned get work over HTTP", presignedRoundTrip},
		{"presigned get of a missing object answers 404", presignedGetMissing},
		{"a tampered presigned URL is refused with 403", tamperedURLs},
		{"an expired presigned URL is refused with 403", expiredURLs},
		{"an expired presigned post form is refused with 403", expiredPostForm},
		{"a presigned post stores a file within its bound and nothing else", presignedPost},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, h, h.New(t))
		})
	}
}

func putGetRoundTrip(t *testing.T, _ Harness, f Fixture) {
	data := []byte("Page one of the lighthouse issue.\n\x00\xff binary tail")
	put(t, f.Store, "issues/42/pages/0001.txt", data, "text/plain; charset=utf-8")

	got, info := get(t, f.Store, "issues/42/pages/0001.txt")
	if !bytes.Equal(got, data) {
		t.Errorf("get returned %q, want %q", got, data)
	}
	wantInfo(t, info, "issues/42/pages/0001.txt", int64(len(data)), "text/plain; charset=utf-8")

	// A key with spaces and non-ASCII must survive URL escaping in both adapters.
	odd := "voices/Zoë reads/clip (1).wav"
	put(t, f.Store, odd, []byte("RIFF"), "audio/wav")
	got, info = get(t, f.Store, odd)
	if string(got) != "RIFF" || info.ContentType != "audio/wav" || info.Key != odd {
		t.Errorf("get %q = %q, %+v", odd, got, info)
	}
}

func putCacheRoundTrip(t *testing.T, _ Harness, f Fixture) {
	for _, data := range [][]byte{[]byte("RIFF first"), []byte("RIFF second, longer")} {
		if err := f.Store.PutCache(t.Context(), "speech/cache/ab.wav", bytes.NewReader(data), "audio/wav"); err != nil {
			t.Fatalf("put cache: %v", err)
		}
		got, info := get(t, f.Store, "speech/cache/ab.wav")
		if !bytes.Equal(got, data) {
			t.Errorf("get returned %q, want %q", got, data)
		}
		wantInfo(t, info, "speech/cache/ab.wav", int64(len(data)), "audio/wav")
	}
	if keys := listKeys(t, f.Store, "speech/cache/"); len(keys) != 1 {
		t.Errorf("list = %q, want the one key", keys)
	}
}

func touchMarksUse(t *testing.T, _ Harness, f Fixture) {
	data := []byte("RIFF chunk")
	put(t, f.Store, "speech/cache/cd.wav", data, "audio/wav")
	before, err := f.Store.Head(t.Context(), "speech/cache/cd.wav")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // S3 keeps whole seconds
	if err := f.Store.Touch(t.Context(), "speech/cache/cd.wav"); err != nil {
		t.Fatalf("touch: %v", err)
	}
	got, info := get(t, f.Store, "speech/cache/cd.wav")
	if !bytes.Equal(got, data) {
		t.Errorf("get after touch returned %q, want %q", got, data)
	}
	wantInfo(t, info, "speech/cache/cd.wav", int64(len(data)), "audio/wav")
	if !info.ModTime.After(before.ModTime) {
		t.Errorf("ModTime %v after touch, %v before", info.ModTime, before.ModTime)
	}
	listed, err := f.Store.List(t.Context(), "speech/cache/")
	// Listings and Head may differ in precision (S3: ms against whole seconds).
	if err != nil || len(listed) != 1 || !listed[0].ModTime.After(before.ModTime) {
		t.Errorf("list = %+v, %v; want a time after %v", listed, err, before.ModTime)
	}
}

func touchMissing(t *testing.T, _ Harness, f Fixture) {
	put(t, f.Store, "speech/cache/ef.wav", []byte("x"), "audio/wav")
	for _, key := range []string{"speech/cache/nope.wav", "speech/cache"} {
		if err := f.Store.Touch(t.Context(), key); !errors.Is(err, blob.ErrNotFound) {
			t.Errorf("touch %q: got %v, want ErrNotFound", key, err)
		}
	}
}

func emptyObjectDefaultType(t *testing.T, _ Harness, f Fixture) {
	put(t, f.Store, "empty/marker", nil, "")
	got, info := get(t, f.Store, "empty/marker")
	if len(got) != 0 {
		t.Errorf("get returned %d bytes, want 0", len(got))
	}
	wantInfo(t, info, "empty/marker", 0, blob.DefaultContentType)
}

func headDescribes(t *testing.T, _ Harness, f Fixture) {
	data := bytes.Repeat([]byte("ab"), 1500)
	put(t, f.Store, "renders/p1.png", data, "image/png")
	info, err := f.Store.Head(t.Context(), "renders/p1.png")
	if err != nil {
		t.Fatalf("head: %v", err)
	}
	wantInfo(t, info, "renders/p1.png", 3000, "image/png")
}

func headMissing(t *testing.T, _ Harness, f Fixture) {
	put(t, f.Store, "renders/p1.png", []byte("x"), "image/png")
	for _, key := range []string{"renders/p2.png", "renders/p1", "renders"} {
		if _, err := f.Store.Head(t.Context(), key); !errors.Is(err, blob.ErrNotFound) {
			t.Errorf("head %q: got %v, want ErrNotFound", key, err)
		}
	}
}

func getMissing(t *testing.T, _ Harness, f Fixture) {
	rc, _, err := f.Store.Get(t.Context(), "nothing/here.bin")
	if !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("get missing: got %v, want ErrNotFound", err)
	}
	if rc != nil {
		rc.Close()
		t.Error("get missing returned a reader along with the error")
	}
}

func deleteThenGet(t *testing.T, _ Harness, f Fixture) {
	ctx := t.Context()
	put(t, f.Store, "crops/a.png", []byte("a"), "image/png")
	put(t, f.Store, "crops/b.png", []byte("b"), "image/png")
	if err := f.Store.Delete(ctx, "crops/a.png"); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, _, err := f.Store.Get(ctx, "crops/a.png"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("get after delete: got %v, want ErrNotFound", err)
	}
	if _, err := f.Store.Head(ctx, "crops/a.png"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("head after delete: got %v, want ErrNotFound", err)
	}
	if keys := listKeys(t, f.Store, "crops/"); !slices.Equal(keys, []string{"crops/b.png"}) {
		t.Errorf("list after delete = %q, want only crops/b.png", keys)
	}
	// The neighbour is untouched.
	if got, _ := get(t, f.Store, "crops/b.png"); string(got) != "b" {
		t.Errorf("neighbour reads %q after delete", got)
	}
}

func deleteMissing(t *testing.T, _ Harness, f Fixture) {
	put(t, f.Store, "audio/ch1.mp3", []byte("id3"), "audio/mpeg")
	for i := range 2 {
		if err := f.Store.Delete(t.Context(), "audio/ch2.mp3"); err != nil {
			t.Errorf("delete missing (try %d): %v", i+1, err)
		}
	}
	// Deleting twice is fine too.
	for i := range 2 {
		if err := f.Store.Delete(t.Context(), "audio/ch1.mp3"); err != nil {
			t.Errorf("delete existing then missing (try %d): %v", i+1, err)
		}
	}
}

func purgeRemoves(t *testing.T, _ Harness, f Fixture) {
	ctx := t.Context()
	put(t, f.Store, "voices/references/v-1.wav", []byte("first take"), "audio/wav")
	put(t, f.Store, "voices/references/v-1.wav", []byte("second take"), "audio/wav")
	put(t, f.Store, "voices/references/v-1.wav.keep", []byte("neighbour"), "audio/wav")
	for i := range 2 { // purging what is gone succeeds
		if err := f.Store.Purge(ctx, "voices/references/v-1.wav"); err != nil {
			t.Fatalf("purge (try %d): %v", i+1, err)
		}
	}
	if _, err := f.Store.Head(ctx, "voices/references/v-1.wav"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("head after purge: got %v, want ErrNotFound", err)
	}
	if got, _ := get(t, f.Store, "voices/references/v-1.wav.keep"); string(got) != "neighbour" {
		t.Errorf("neighbour reads %q after purge", got)
	}
}

func listByPrefix(t *testing.T, _ Harness, f Fixture) {
	// "a-b" sorts before "a/1" ('-' < '/') although a folder walk meets
	// the folder "a" first: the order must be the keys' byte order.
	objects := map[string]string{
		"list/a/1":     "1",
		"list/a/10":    "10",
		"list/a/2":     "22",
		"list/a/sub/x": "xxx",
		"list/a-b":     "ab",
		"list/ab":      "abab",
		"list/b/1":     "b1",
		"lis":          "neighbour without slash",
		"listing/a/1":  "neighbour with longer segment",
	}
	for k, v := range objects {
		put(t, f.Store, k, []byte(v), "text/plain")
	}
	for _, c := range []struct {
		prefix string
		want   []string
	}{
		{"list/a/", []string{"list/a/1", "list/a/10", "list/a/2", "list/a/sub/x"}},
		{"list/a", []string{"list/a-b", "list/a/1", "list/a/10", "list/a/2", "list/a/sub/x", "list/ab"}},
		{"list/a/1", []string{"list/a/1", "list/a/10"}},
		{"list/", []string{"list/a-b", "list/a/1", "list/a/10", "list/a/2", "list/a/sub/x", "list/ab", "list/b/1"}},
		{"", []string{"lis", "list/a-b", "list/a/1", "list/a/10", "list/a/2", "list/a/sub/x", "list/ab", "list/b/1", "listing/a/1"}},
	} {
		infos, err := f.Store.List(t.Context(), c.prefix)
		if err != nil {
			t.Errorf("list %q: %v", c.prefix, err)
			continue
		}
		var keys []string
		for _, in := range infos {
			keys = append(keys, in.Key)
			if in.Size != int64(len(objects[in.Key])) {
				t.Errorf("list %q: %s has size %d, want %d", c.prefix, in.Key, in.Size, len(objects[in.Key]))
			}
			if in.ContentType != "" {
				t.Errorf("list %q: %s has content type %q; List leaves it empty (S3 listings lack it)", c.prefix, in.Key, in.ContentType)
			}
			wantRecent(t, in.ModTime)
		}
		if !slices.Equal(keys, c.want) {
			t.Errorf("list %q =\n  %q\nwant\n  %q", c.prefix, keys, c.want)
		}
	}
}

func listEmpty(t *testing.T, _ Harness, f Fixture) {
	put(t, f.Store, "books/1/text.txt", []byte("x"), "text/plain")
	for _, prefix := range []string{"books/2/", "nothing", "books/1/text.txt/"} {
		if keys := listKeys(t, f.Store, prefix); len(keys) != 0 {
			t.Errorf("list %q = %q, want none", prefix, keys)
		}
	}
}

func deletePrefix(t *testing.T, _ Harness, f Fixture) {
	keep := []string{"issues/1.pdf", "issues/10/pages/0001.png", "issues/1-b/x", "uploads/1.pdf"}
	gone := []string{"issues/1/pages/0001.png", "issues/1/pages/0001.thumb.png", "issues/1/crops/0001/p1.png"}
	for _, k := range append(append([]string{}, keep...), gone...) {
		put(t, f.Store, k, []byte(k), "image/png")
	}
	n, err := f.Store.DeletePrefix(t.Context(), "issues/1/")
	if err != nil || n != len(gone) {
		t.Fatalf("delete prefix = %d, %v; want %d", n, err, len(gone))
	}
	if keys := listKeys(t, f.Store, ""); !slices.Equal(keys, []string{"issues/1-b/x", "issues/1.pdf", "issues/10/pages/0001.png", "uploads/1.pdf"}) {
		t.Errorf("left %q", keys)
	}
	if n, err := f.Store.DeletePrefix(t.Context(), "issues/1/"); err != nil || n != 0 {
		t.Errorf("delete prefix again = %d, %v; want 0, nil", n, err)
	}
	for _, bad := range []string{"", "issues/1", "../x/", "/abs/"} {
		if _, err := f.Store.DeletePrefix(t.Context(), bad); !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("delete prefix %q = %v, want ErrInvalidKey", bad, err)
		}
	}
	if keys := listKeys(t, f.Store, ""); len(keys) != len(keep) {
		t.Errorf("a refused prefix deleted something: %q", keys)
	}
	// More objects than one listing page of a small-paged store.
	for i := range 25 {
		put(t, f.Store, fmt.Sprintf("many/%02d", i), []byte("x"), "text/plain")
	}
	if n, err := f.Store.DeletePrefix(t.Context(), "many/"); err != nil || n != 25 {
		t.Errorf("delete 25 = %d, %v", n, err)
	}
	if keys := listKeys(t, f.Store, "many/"); len(keys) != 0 {
		t.Errorf("left %q", keys)
	}
}

func overwriteReplaces(t *testing.T, _ Harness, f Fixture) {
	put(t, f.Store, "art/portrait", []byte("first version, longer than the second"), "image/png")
	put(t, f.Store, "art/portrait", []byte("second"), "image/webp")
	got, info := get(t, f.Store, "art/portrait")
	if string(got) != "second" {
		t.Errorf("get after overwrite = %q, want %q", got, "second")
	}
	wantInfo(t, info, "art/portrait", 6, "image/webp")
	if keys := listKeys(t, f.Store, "art/"); !slices.Equal(keys, []string{"art/portrait"}) {
		t.Errorf("list after overwrite = %q, want one key", keys)
	}
}

func failedPutKeepsPrevious(t *testing.T, _ Harness, f Fixture) {
	put(t, f.Store, "uploads/issue.pdf", []byte("%PDF-old"), "application/pdf")
	// Small and large failures: adapters may buffer small objects and stream
	// large ones in parts, and neither path may leave a partial object.
	for _, failAfter := range []int{10, 6<<20 + 3} {
		boom := errors.New("upload connection dropped")
		r := io.MultiReader(io.LimitReader(rand.Reader, int64(failAfter)), errReader{boom})
		err := f.Store.Put(t.Context(), "uploads/issue.pdf", r, "application/pdf")
		if err == nil {
			t.Errorf("put failing after %d bytes succeeded", failAfter)
		}
		got, info := get(t, f.Store, "uploads/issue.pdf")
		if string(got) != "%PDF-old" || info.ContentType != "application/pdf" {
			t.Errorf("after a put failing at %d bytes, object is %d bytes %q", failAfter, len(got), info.ContentType)
		}
		// The same for a key that had no object: it must stay absent.
		r = io.MultiReader(io.LimitReader(rand.Reader, int64(failAfter)), errReader{boom})
		if err := f.Store.Put(t.Context(), "uploads/new.pdf", r, "application/pdf"); err == nil {
			t.Errorf("put of a new key failing after %d bytes succeeded", failAfter)
		}
		if _, err := f.Store.Head(t.Context(), "uploads/new.pdf"); !errors.Is(err, blob.ErrNotFound) {
			t.Errorf("failed put of a new key left something: head = %v", err)
		}
	}
}

func cancelledPut(t *testing.T, _ Harness, f Fixture) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := f.Store.Put(ctx, "jobs/out.json", strings.NewReader("{}"), "application/json"); err == nil {
		t.Error("put with a cancelled context succeeded")
	}
	if _, err := f.Store.Head(t.Context(), "jobs/out.json"); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("after a cancelled put, head = %v, want ErrNotFound", err)
	}
}

func largeObject(t *testing.T, _ Harness, f Fixture) {
	const size = 6<<20 + 517 // a few MiB, not a multiple of any part size
	data := make([]byte, size)
	if _, err := rand.Read(data); err != nil {
		t.Fatal(err)
	}
	// Hide the length and Seek: Put gets a plain stream, as from a request body.
	if err := f.Store.Put(t.Context(), "audio/book.m4b", struct{ io.Reader }{bytes.NewReader(data)}, "audio/mp4"); err != nil {
		t.Fatalf("put %d bytes: %v", size, err)
	}
	rc, info, err := f.Store.Get(t.Context(), "audio/book.m4b")
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	defer rc.Close()
	h := sha256.New()
	n, err := io.Copy(h, rc)
	if err != nil {
		t.Fatalf("read after %d bytes: %v", n, err)
	}
	if n != size || info.Size != size {
		t.Errorf("read %d bytes, info.Size %d, want %d", n, info.Size, size)
	}
	if want := sha256.Sum256(data); !bytes.Equal(h.Sum(nil), want[:]) {
		t.Error("bytes read back differ from bytes written")
	}
}

func concurrentPuts(t *testing.T, _ Harness, f Fixture) {
	const writers = 6
	payloads := make([][]byte, writers)
	var wg sync.WaitGroup
	for i := range writers {
		payloads[i] = bytes.Repeat([]byte{byte('a' + i)}, 64<<10+i)
		wg.Go(func() {
			if err := f.Store.Put(t.Context(), "race/key", bytes.NewReader(payloads[i]), fmt.Sprintf("text/x-%d", i)); err != nil {
				t.Errorf("writer %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	got, info := get(t, f.Store, "race/key")
	i := slices.IndexFunc(payloads, func(p []byte) bool { return bytes.Equal(p, got) })
	if i < 0 {
		t.Fatalf("object is %d bytes matching no writer: a torn write", len(got))
	}
	if want := fmt.Sprintf("text/x-%d", i); info.ContentType != want {
		t.Errorf("bytes from writer %d carry content type %q, want %q", i, info.ContentType, want)
	}
}

func invalidKeys(t *testing.T, _ Harness, f Fixture) {
	ctx := t.Context()
	bad := []string{
		"", "/etc/passwd", "../escape", "a/../../b", "a/..", "..", ".", "./a", "a/./b",
		"a//b", "trailing/", `a\b`, `..\..\x`, "nul\x00byte", "line\nbreak",
		"bad\xffutf8", strings.Repeat("k", blob.MaxKeyBytes+1),
	}
	for _, key := range bad {
		if err := f.Store.Put(ctx, key, strings.NewReader("x"), "text/plain"); !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("put %q: got %v, want ErrInvalidKey", key, err)
		}
		if rc, _, err := f.Store.Get(ctx, key); !errors.Is(err, blob.ErrInvalidKey) {
			if rc != nil {
				rc.Close()
			}
			t.Errorf("get %q: got %v, want ErrInvalidKey", key, err)
		}
		if _, err := f.Store.Head(ctx, key); !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("head %q: got %v, want ErrInvalidKey", key, err)
		}
		if err := f.Store.Delete(ctx, key); !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("delete %q: got %v, want ErrInvalidKey", key, err)
		}
		if _, err := f.Store.PresignPut(ctx, key, "text/plain", time.Minute); !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("presign put %q: got %v, want ErrInvalidKey", key, err)
		}
		if _, err := f.Store.PresignGet(ctx, key, time.Minute); !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("presign get %q: got %v, want ErrInvalidKey", key, err)
		}
	}
	for _, prefix := range []string{"/", "/abs", "../", "a/../", "a//", `a\b/`} {
		if _, err := f.Store.List(ctx, prefix); !errors.Is(err, blob.ErrInvalidKey) {
			t.Errorf("list %q: got %v, want ErrInvalidKey", prefix, err)
		}
	}
	// Nothing was stored by any of it.
	if keys := listKeys(t, f.Store, ""); len(keys) != 0 {
		t.Errorf("store holds %q after refused puts", keys)
	}
}

func presignTTLBounds(t *testing.T, _ Harness, f Fixture) {
	for _, ttl := range []time.Duration{0, -time.Minute, time.Millisecond, blob.MaxPresignTTL + time.Second} {
		if _, err := f.Store.PresignGet(t.Context(), "k", ttl); !errors.Is(err, blob.ErrInvalid) {
			t.Errorf("presign get ttl %s: got %v, want ErrInvalid", ttl, err)
		}
		if _, err := f.Store.PresignPut(t.Context(), "k", "text/plain", ttl); !errors.Is(err, blob.ErrInvalid) {
			t.Errorf("presign put ttl %s: got %v, want ErrInvalid", ttl, err)
		}
	}
	if _, err := f.Store.PresignGet(t.Context(), "k", blob.MaxPresignTTL); err != nil {
		t.Errorf("presign get for the longest ttl: %v", err)
	}
}

func presignedRoundTrip(t *testing.T, h Harness, f Fixture) {
	ctx := t.Context()
	key := "uploads/Spring issue/scan 01.pdf"
	data := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte{0, 1, 2, 0xff}, 4096)...)

	putURL, err := f.Store.PresignPut(ctx, key, "application/pdf", 5*time.Minute)
	if err != nil {
		t.Fatalf("presign put: %v", err)
	}
	if code, body := do(t, h.Client, http.MethodPut, putURL, data, "application/pdf"); code != http.StatusOK {
		t.Fatalf("PUT to presigned URL: %d %s", code, body)
	}
	// The upload landed where the store reads.
	got, info := get(t, f.Store, key)
	if !bytes.Equal(got, data) {
		t.Errorf("store reads %d bytes after presigned PUT, want %d", len(got), len(data))
	}
	wantInfo(t, info, key, int64(len(data)), "application/pdf")

	getURL, err := f.Store.PresignGet(ctx, key, 5*time.Minute)
	if err != nil {
		t.Fatalf("presign get: %v", err)
	}
	resp := send(t, h.Client, http.MethodGet, getURL, nil, "")
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("read presigned GET body: %v", err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.Equal(body, data) {
		t.Errorf("presigned GET: %d, %d bytes; want 200, %d bytes", resp.StatusCode, len(body), len(data))
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Errorf("presigned GET Content-Type = %q, want application/pdf", ct)
	}
	// A URL is good for its whole lifetime, not once.
	if code, _ := do(t, h.Client, http.MethodGet, getURL, nil, ""); code != http.StatusOK {
		t.Errorf("second GET of the same URL: %d", code)
	}
}

// presignedPost: the server, not the browser, enforces the form's bound,
// key and content type, and a refused upload stores nothing.
func presignedPost(t *testing.T, h Harness, f Fixture) {
	ctx := t.Context()
	const limit = 64 << 10
	form := func(key string) blob.PostForm {
		t.Helper()
		pf, err := f.Store.PresignPost(ctx, key, "application/pdf", limit, 5*time.Minute)
		if err != nil {
			t.Fatalf("presign post %s: %v", key, err)
		}
		return pf
	}
	stored := func(key string) bool {
		t.Helper()
		_, err := f.Store.Head(ctx, key)
		if err != nil && !errors.Is(err, blob.ErrNotFound) {
			t.Fatalf("head %s: %v", key, err)
		}
		return err == nil
	}
	atLimit := bytes.Repeat([]byte("%PDF"), limit/4)
	if code, body := postForm(t, h.Client, form("uploads/fits.pdf"), nil, atLimit); code != http.StatusNoContent {
		t.Fatalf("POST of %d bytes (the bound): %d %s", len(atLimit), code, body)
	}
	got, info := get(t, f.Store, "uploads/fits.pdf")
	if !bytes.Equal(got, atLimit) {
		t.Errorf("store reads %d bytes after the POST, want %d", len(got), len(atLimit))
	}
	wantInfo(t, info, "uploads/fits.pdf", limit, "application/pdf")

	for _, tc := range []struct {
		name, key string
		change    map[string]string
		file      []byte
		want      int
		notStored string
	}{
		{"one byte over the bound", "uploads/big.pdf", nil, append(atLimit, '\n'), http.StatusBadRequest, "uploads/big.pdf"},
		{"an empty file", "uploads/empty.pdf", nil, []byte{}, http.StatusBadRequest, "uploads/empty.pdf"},
		{"another key", "uploads/signed.pdf", map[string]string{"key": "uploads/other.pdf"}, []byte("%PDF"), http.StatusForbidden, "uploads/other.pdf"},
		{"another content type", "uploads/typed.pdf", map[string]string{"Content-Type": "text/html"}, []byte("%PDF"), http.StatusForbidden, "uploads/typed.pdf"},
	} {
		code, body := postForm(t, h.Client, form(tc.key), tc.change, tc.file)
		if code != tc.want {
			t.Errorf("%s: POST answered %d %s, want %d", tc.name, code, body, tc.want)
		}
		if stored(tc.notStored) {
			t.Errorf("%s: %s was stored", tc.name, tc.notStored)
		}
	}
	if _, err := f.Store.PresignPost(ctx, "uploads/x.pdf", "application/pdf", 0, time.Minute); !errors.Is(err, blob.ErrInvalid) {
		t.Errorf("presign post with no room: %v, want ErrInvalid", err)
	}
	if _, err := f.Store.PresignPost(ctx, "../x.pdf", "application/pdf", limit, time.Minute); !errors.Is(err, blob.ErrInvalidKey) {
		t.Errorf("presign post outside the root: %v, want ErrInvalidKey", err)
	}
}

// postForm sends a presigned form as a browser does: the fields (with
// change applied), then the file last.
func postForm(t *testing.T, c *http.Client, pf blob.PostForm, change map[string]string, file []byte) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fields := maps.Clone(pf.Fields)
	maps.Copy(fields, change)
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if err := mw.WriteField(k, fields[k]); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := mw.CreateFormFile("file", "issue.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(file); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return do(t, c, http.MethodPost, pf.URL, body.Bytes(), mw.FormDataContentType())
}

func presignedGetMissing(t *testing.T, h Harness, f Fixture) {
	u, err := f.Store.PresignGet(t.Context(), "never/written.png", time.Minute)
	if err != nil {
		t.Fatalf("presign get: %v", err)
	}
	if code, body := do(t, h.Client, http.MethodGet, u, nil, ""); code != http.StatusNotFound {
		t.Errorf("GET of a missing object: %d %s, want 404", code, body)
	}
}

func tamperedURLs(t *testing.T, h Harness, f Fixture) {
	ctx := t.Context()
	put(t, f.Store, "tamper/original.txt", []byte("original"), "text/plain")
	put(t, f.Store, "tamper/other.txt", []byte("other"), "text/plain")
	getURL, err := f.Store.PresignGet(ctx, "tamper/original.txt", 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	putURL, err := f.Store.PresignPut(ctx, "tamper/original.txt", "text/plain", 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	changeSig := func(u *url.URL) {
		q := u.Query()
		sig := q.Get(h.SignatureParam)
		if sig == "" {
			t.Fatalf("URL %s has no %s parameter", u, h.SignatureParam)
		}
		last := sig[len(sig)-1]
		flipped := "0"
		if last == '0' {
			flipped = "1"
		}
		q.Set(h.SignatureParam, sig[:len(sig)-1]+flipped)
		u.RawQuery = q.Encode()
	}
	changeKey := func(u *url.URL) {
		if !strings.HasSuffix(u.Path, "/tamper/original.txt") {
			t.Fatalf("URL path %q does not end in the key", u.Path)
		}
		u.Path = strings.TrimSuffix(u.Path, "original.txt") + "other.txt"
		u.RawPath = ""
	}
	// unchanged re-encodes the query like the tampering does, proving the
	// 403s come from the change and not from re-encoding.
	unchanged := func(u *url.URL) { u.RawQuery = u.Query().Encode() }

	for _, c := range []struct {
		name   string
		method string
		url    string
		change func(*url.URL)
		ct     string
		want   int
	}{
		{"re-encoded GET still works", http.MethodGet, getURL, unchanged, "", http.StatusOK},
		{"GET with a changed signature", http.MethodGet, getURL, changeSig, "", http.StatusForbidden},
		{"GET with a changed key", http.MethodGet, getURL, changeKey, "", http.StatusForbidden},
		{"PUT with a changed signature", http.MethodPut, putURL, changeSig, "text/plain", http.StatusForbidden},
		{"PUT with a changed key", http.MethodPut, putURL, changeKey, "text/plain", http.StatusForbidden},
		{"PUT with another content type", http.MethodPut, putURL, unchanged, "text/html", http.StatusForbidden},
		{"PUT to a GET URL", http.MethodPut, getURL, unchanged, "text/plain", http.StatusForbidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			u, err := url.Parse(c.url)
			if err != nil {
				t.Fatal(err)
			}
			c.change(u)
			var body []byte
			if c.method == http.MethodPut {
				body = []byte("<script>overwritten</script>")
			}
			if code, resp := do(t, h.Client, c.method, u.String(), body, c.ct); code != c.want {
				t.Errorf("%s %s: %d %s, want %d", c.method, u, code, resp, c.want)
			}
		})
	}
	// No refused PUT changed anything.
	for key, want := range map[string]string{"tamper/original.txt": "original", "tamper/other.txt": "other"} {
		if got, info := get(t, f.Store, key); string(got) != want || info.ContentType != "text/plain" {
			t.Errorf("%s is %q (%s) after refused requests, want %q", key, got, info.ContentType, want)
		}
	}
}

func expiredURLs(t *testing.T, h Harness, f Fixture) {
	ctx := t.Context()
	put(t, f.Store, "expiry/page.png", []byte("png"), "image/png")
	getURL, err := f.Store.PresignGet(ctx, "expiry/page.png", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	putURL, err := f.Store.PresignPut(ctx, "expiry/page.png", "image/png", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// Before expiry the URL works, so the later 403 is the expiry's doing.
	if code, body := do(t, h.Client, http.MethodGet, getURL, nil, ""); code != http.StatusOK {
		t.Fatalf("GET before expiry: %d %s", code, body)
	}
	f.Elapse(2 * time.Second)
	if code, body := do(t, h.Client, http.MethodGet, getURL, nil, ""); code != http.StatusForbidden {
		t.Errorf("GET after expiry: %d %s, want 403", code, body)
	}
	if code, body := do(t, h.Client, http.MethodPut, putURL, []byte("late"), "image/png"); code != http.StatusForbidden {
		t.Errorf("PUT after expiry: %d %s, want 403", code, body)
	}
	if got, _ := get(t, f.Store, "expiry/page.png"); string(got) != "png" {
		t.Errorf("object is %q after an expired PUT, want %q", got, "png")
	}
}

// expiredPostForm: the server, not the form, ends a presigned POST's life.
// The same form works before its expiry and is refused after, and the
// refused upload leaves the object as it was.
func expiredPostForm(t *testing.T, h Harness, f Fixture) {
	const key = "uploads/expiring.pdf"
	pf, err := f.Store.PresignPost(t.Context(), key, "application/pdf", 1<<10, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if code, body := postForm(t, h.Client, pf, nil, []byte("%PDF first")); code != http.StatusNoContent {
		t.Fatalf("POST before expiry: %d %s", code, body)
	}
	f.Elapse(2 * time.Second)
	if code, body := postForm(t, h.Client, pf, nil, []byte("%PDF late")); code != http.StatusForbidden {
		t.Errorf("POST after expiry: %d %s, want 403", code, body)
	}
	if got, _ := get(t, f.Store, key); string(got) != "%PDF first" {
		t.Errorf("object is %q after an expired POST, want %q", got, "%PDF first")
	}
}

// --- helpers ---

func put(t *testing.T, s blob.Store, key string, data []byte, ct string) {
	t.Helper()
	if err := s.Put(t.Context(), key, bytes.NewReader(data), ct); err != nil {
		t.Fatalf("put %q: %v", key, err)
	}
}

func get(t *testing.T, s blob.Store, key string) ([]byte, blob.Info) {
	t.Helper()
	rc, info, err := s.Get(t.Context(), key)
	if err != nil {
		t.Fatalf("get %q: %v", key, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read %q: %v", key, err)
	}
	return data, info
}

func listKeys(t *testing.T, s blob.Store, prefix string) []string {
	t.Helper()
	infos, err := s.List(t.Context(), prefix)
	if err != nil {
		t.Fatalf("list %q: %v", prefix, err)
	}
	var keys []string
	for _, in := range infos {
		keys = append(keys, in.Key)
	}
	return keys
}

func wantInfo(t *testing.T, got blob.Info, key string, size int64, ct string) {
	t.Helper()
	if got.Key != key || got.Size != size || got.ContentType != ct {
		t.Errorf("info = {%q %d %q}, want {%q %d %q}", got.Key, got.Size, got.ContentType, key, size, ct)
	}
	wantRecent(t, got.ModTime)
}

// wantRecent checks a modification time is set and plausible. Stores keep
// real time (S3 to the second), so the window is generous.
func wantRecent(t *testing.T, mod time.Time) {
	t.Helper()
	if now := time.Now(); mod.Before(now.Add(-time.Hour)) || mod.After(now.Add(time.Hour)) {
		t.Errorf("ModTime %v is not within an hour of now", mod)
	}
}

func send(t *testing.T, c *http.Client, method, u string, body []byte, ct string) *http.Response {
	t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, u, r)
	if err != nil {
		t.Fatalf("build %s %s: %v", method, u, err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	return resp
}

// do sends a request and returns the status and the start of the body (for
// failure messages).
func do(t *testing.T, c *http.Client, method, u string, body []byte, ct string) (int, string) {
	t.Helper()
	resp := send(t, c, method, u, body, ct)
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

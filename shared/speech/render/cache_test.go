package render

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/blob/localfs"
)

// cacheFolder is a local blob store in dir, as the local server keeps one.
func cacheFolder(t *testing.T, dir string) *localfs.Store {
	t.Helper()
	s, err := localfs.New(dir, "http://127.0.0.1:1", bytes.Repeat([]byte{7}, 32), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// age sets the time of the cached chunks of text, as if last used ago.
func age(t *testing.T, dir string, text Chapter, ago time.Duration) {
	t.Helper()
	when := time.Now().Add(-ago)
	for _, c := range Plan([]Chapter{text}, OpenAILimit)[0] {
		file := filepath.Join(dir, "objects", filepath.FromSlash(CacheKey("tone", "a", c.Text, 0)))
		if err := os.Chtimes(file, when, when); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCacheEvictsLeastRecentlyUsed: past its budget the cache loses the
// chunks used least recently, not those of a render made long ago but
// used again lately, nor the render's own; a re-render of a recent text
// still makes no calls.
func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	need(t, "ffmpeg")
	dir := t.TempDir()
	blobs := cacheFolder(t, dir)
	chunk := int64(len(tone(50)))
	// Room for five two-sentence texts' chunks but not six.
	r := New(blobs, Options{CacheBudget: 5*chunk + chunk/2})
	calls := &counting{next: toneSpeaker{}}
	render := func(text Chapter) Result {
		t.Helper()
		res, err := r.Render(t.Context(), Request{Engine: Engine{Name: "tone", Voice: "a", Speaker: calls}, Chapters: []Chapter{text}, Format: FormatMP3, Output: "out/"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	old := Chapter{Text: "An old book. Read again today."}
	stale := Chapter{Text: "A book nobody opened since. It may go."}
	fresh := Chapter{Text: "A new book. It is long."}
	render(old)
	render(stale)
	age(t, dir, old, 72*time.Hour)
	age(t, dir, stale, 48*time.Hour)
	if res := render(old); res.EngineCalls != 0 || res.Evicted != 0 {
		t.Fatalf("re-render of the old book: %+v", res)
	}
	if res := render(fresh); res.EngineCalls != 2 || res.Evicted != 1 {
		t.Fatalf("new book: %+v; want 2 calls and 1 chunk evicted", res)
	}
	if res := render(old); res.EngineCalls != 0 {
		t.Fatalf("the old book, used again lately, lost chunks: %+v", res)
	}
	if res := render(fresh); res.EngineCalls != 0 {
		t.Fatalf("the new book lost chunks: %+v", res)
	}
	if res := render(stale); res.EngineCalls != 1 {
		t.Fatalf("the book left alone: %+v; want one chunk spoken again", res)
	}
	infos, err := blobs.List(t.Context(), CachePrefix)
	if err != nil {
		t.Fatal(err)
	}
	var size int64
	for _, in := range infos {
		size += in.Size
	}
	if size > 5*chunk+chunk/2 {
		t.Fatalf("the cache holds %d bytes, over its budget", size)
	}
}

// TestDamagedChunksAreSpokenAgain: a cached chunk a crash left empty is a
// miss; one cut short fails the run (which the job retries) and is
// removed, so the next run speaks it again.
func TestDamagedChunksAreSpokenAgain(t *testing.T) {
	need(t, "ffmpeg")
	blobs := cacheFolder(t, t.TempDir())
	r := New(blobs, Options{})
	calls := &counting{next: toneSpeaker{}}
	text := Chapter{Text: "One sentence. Another one."}
	req := Request{Engine: Engine{Name: "tone", Voice: "a", Speaker: calls}, Chapters: []Chapter{text}, Format: FormatMP3, Output: "out/"}
	keys := []string{CacheKey("tone", "a", "One sentence.", 0), CacheKey("tone", "a", "Another one.", 0)}
	ctx := t.Context()
	put := func(key string, data []byte) {
		t.Helper()
		if err := blobs.PutCache(ctx, key, bytes.NewReader(data), "audio/wav"); err != nil {
			t.Fatal(err)
		}
	}
	put(keys[0], nil)
	put(keys[1], tone(50)[:300])
	if _, err := r.Render(ctx, req, nil); err == nil {
		t.Fatal("a render from a chunk cut short succeeded")
	}
	if _, err := blobs.Head(ctx, keys[1]); !errors.Is(err, blob.ErrNotFound) {
		t.Fatalf("the chunk cut short is still cached: %v", err)
	}
	calls.calls.Store(0)
	res, err := r.Render(ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.EngineCalls != 1 || res.Cached != 1 {
		t.Fatalf("second run: %+v; want the removed chunk spoken, the other cached", res)
	}
}

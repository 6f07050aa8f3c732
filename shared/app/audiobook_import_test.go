package app

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	lectern "github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/features"
	"github.com/lectern/lectern/shared/httpapi/audiobookapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/jobs/sqsjobs"
	"github.com/lectern/lectern/shared/platform"
)

// importBook uploads a book, which answers 202 with the book importing
// and Location naming it, and waits for the import job to make it ready.
func (c *apiClient) importBook(name, contentType string, data []byte) audiobookapi.BookView {
	c.t.Helper()
	status, b := c.uploadBook(name, contentType, data)
	if status != http.StatusAccepted {
		c.t.Fatalf("upload %s = %d %s, want 202", name, status, b)
	}
	v := decode[audiobookapi.BookView](c.t, b)
	if v.Status != audiobook.StatusImporting && v.Status != audiobook.StatusReady {
		c.t.Fatalf("upload %s answered a book %s: %s", name, v.Status, v.Error)
	}
	v = c.waitImported(v.ID)
	if v.Status != audiobook.StatusReady {
		c.t.Fatalf("import of %s ended %s: %s", name, v.Status, v.Error)
	}
	return v
}

// waitImported polls a book until it is no longer importing.
func (c *apiClient) waitImported(id string) audiobookapi.BookView {
	c.t.Helper()
	var v audiobookapi.BookView
	for deadline := time.Now().Add(slowBound); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		v = c.book(id)
		if v.Status != audiobook.StatusImporting {
			return v
		}
	}
	c.t.Fatalf("book %s still importing: %+v", id, v.Book)
	return v
}

// heldImport wraps the audiobook module's import handler: each run says
// it started on entered, then waits for release (or its context, as a
// stopped process's run does) before importing; panic makes it panic
// instead, as a run that kills its worker.
type heldImport struct {
	entered chan string
	release chan struct{}
	panics  bool
}

func (h *heldImport) features() []platform.New {
	all := features.All()
	for i, f := range all {
		all[i] = func(d *platform.Deps) (platform.Module, error) {
			m, err := f(d)
			if real, ok := m.Jobs[audiobook.ImportJobKind]; ok && err == nil {
				m.Jobs[audiobook.ImportJobKind] = func(ctx context.Context, p json.RawMessage, r jobs.Reporter) (json.RawMessage, error) {
					if h.panics {
						panic("the import took the worker down")
					}
					h.entered <- string(p)
					select {
					case <-h.release:
						return real(ctx, p, r)
					case <-ctx.Done():
						return nil, ctx.Err()
					}
				}
			}
			return m, err
		}
	}
	return all
}

// serveLocalAt serves a local app over dir with the given features.
func serveLocalAt(t *testing.T, dir string, feats []platform.New) (*apiClient, *Local) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := platform.Config{Mode: platform.ModeLocal, Instance: "default", DataDir: dir, Workers: 2}
	local, err := OpenLocal(context.Background(), cfg, base, log, feats...)
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = LocalHandler(lectern.Version(), "", log, SiteParts{Blobs: local.BlobHandler, Static: fstest.MapFS{}}, local.Operations()...)
	srv.Start()
	t.Cleanup(srv.Close)
	return &apiClient{t: t, base: base}, local
}

// TestAudiobookImportRunsOffTheRequest (issue 30.1): the upload answers
// 202 with the book importing while its import job is held, before it
// has parsed anything; the job then makes it ready.
func TestAudiobookImportRunsOffTheRequest(t *testing.T) {
	h := &heldImport{entered: make(chan string, 1), release: make(chan struct{})}
	c, local := serveLocalAt(t, t.TempDir(), h.features())
	t.Cleanup(func() { local.Close() })

	status, body, loc := c.uploadBookWithLocation("garden.txt", "text/plain", []byte(smallBook))
	if status != http.StatusAccepted {
		t.Fatalf("upload = %d %s, want 202 while the import is held", status, body)
	}
	v := decode[audiobookapi.BookView](t, body)
	if v.Status != audiobook.StatusImporting || v.ImportJob == "" || v.Counts.Segments != 0 || loc != "/api/audiobook/books/"+v.ID {
		t.Fatalf("answered %+v, Location %q; want the book importing, with its job", v.Book, loc)
	}
	<-h.entered // the job is running, held
	list := decode[struct{ Books []audiobook.Summary }](t, c.get("/api/audiobook/books"))
	if len(list.Books) != 1 || list.Books[0].Status != audiobook.StatusImporting {
		t.Fatalf("listing while importing = %+v", list.Books)
	}
	// Nothing is cast or voiced before the book is ready.
	status, _, b := c.do(http.MethodPost, "/api/attribute-spans", []byte(`{"book_id":"`+v.ID+`"}`), "Content-Type", "application/json")
	if status != http.StatusConflict && status != http.StatusUnprocessableEntity {
		t.Fatalf("casting an importing book = %d %s", status, b)
	}
	// Nor are characters extracted from a book with no text yet.
	status, _, b = c.do(http.MethodPost, "/api/characters", []byte(`{"book_id":"`+v.ID+`"}`), "Content-Type", "application/json")
	if status != http.StatusConflict || !strings.Contains(string(b), "importing") {
		t.Fatalf("characters of an importing book = %d %s, want 409 saying it is importing", status, b)
	}
	if got := c.book(v.ID); got.Status != audiobook.StatusImporting {
		t.Fatalf("book while held = %s", got.Status)
	}
	close(h.release)
	got := c.waitImported(v.ID)
	if got.Status != audiobook.StatusReady || got.Counts.Dialogue == 0 || len(got.Chapters) != 3 || got.Revision != 1 || got.Title != "The Garden Door" {
		t.Fatalf("imported = %+v", got.Book)
	}
	// The job records its end just after the book turns ready.
	if j := c.waitJob(v.ImportJob); j.Status != jobs.StatusSucceeded {
		t.Fatalf("import job = %+v", j)
	}
	if segs := c.segments(v.ID, ""); len(segs) != got.Counts.Segments {
		t.Fatalf("%d segments, counts say %d", len(segs), got.Counts.Segments)
	}
}

// uploadBookWithLocation is uploadBook with the Location header.
func (c *apiClient) uploadBookWithLocation(name, contentType string, data []byte) (int, []byte, string) {
	c.t.Helper()
	body, formType := bookForm(c.t, name, contentType, data)
	status, h, b := c.do(http.MethodPost, "/api/audiobook/books", body, "Content-Type", formType)
	return status, b, h.Get("Location")
}

// overLongEPUB is an EPUB the upload check passes (its zip directory and
// spine are inside the limits) whose text runs past book.MaxTextBytes:
// a limit found only by the import job.
func overLongEPUB(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	manifest, spine := "", ""
	files := []struct{ name, body string }{
		{"mimetype", "application/epub+zip"},
		{"META-INF/container.xml", `<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`},
	}
	para := "<p>" + strings.Repeat(`"All work and no play," said Jack. `, 3<<20/36) + "</p>"
	for i := range 3 {
		manifest += fmt.Sprintf(`<item id="d%d" href="d%d.xhtml" media-type="application/xhtml+xml"/>`, i, i)
		spine += fmt.Sprintf(`<itemref idref="d%d"/>`, i)
		files = append(files, struct{ name, body string }{fmt.Sprintf("OEBPS/d%d.xhtml", i), "<html><body><h1>Part</h1>" + para + "</body></html>"})
	}
	files = append(files, struct{ name, body string }{"OEBPS/content.opf", `<package><manifest>` + manifest + `</manifest><spine>` + spine + `</spine></package>`})
	for _, f := range files {
		w, err := zw.Create(f.name)
		if err == nil {
			_, err = w.Write([]byte(f.body))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestAudiobookImportFailureMarksTheBook (issue 30.1): a limit found only
// while importing fails the job and leaves the book failed with the
// reason, listed so, and deletable; a book imported before is untouched.
func TestAudiobookImportFailureMarksTheBook(t *testing.T) {
	c := newLocalApp(t)
	kept := c.importBook("garden.txt", "text/plain", []byte(smallBook))
	data := overLongEPUB(t)
	if len(data) > audiobook.MaxUploadBytes {
		t.Fatalf("the EPUB is %d bytes: over the upload limit", len(data))
	}
	status, b := c.uploadBook("long.epub", "application/epub+zip", data)
	if status != http.StatusAccepted {
		t.Fatalf("upload = %d %s, want 202 (the text's length is found by the job)", status, b)
	}
	id := decode[audiobookapi.BookView](t, b).ID
	v := c.waitImported(id)
	if v.Status != audiobook.StatusFailed || !strings.Contains(v.Error, "text runs past") {
		t.Fatalf("book after a failed import: %s %q", v.Status, v.Error)
	}
	if j := c.waitJob(v.ImportJob); j.Status != jobs.StatusFailed {
		t.Fatalf("import job = %+v", j)
	}
	list := decode[struct{ Books []audiobook.Summary }](t, c.get("/api/audiobook/books"))
	i := slices.IndexFunc(list.Books, func(s audiobook.Summary) bool { return s.ID == id })
	if len(list.Books) != 2 || i < 0 || list.Books[i].Status != audiobook.StatusFailed || list.Books[i].Error != v.Error {
		t.Fatalf("listing = %+v", list.Books)
	}
	if status, _, b := c.do(http.MethodDelete, "/api/audiobook/books/"+id, nil); status != http.StatusNoContent {
		t.Fatalf("delete the failed book = %d %s", status, b)
	}
	if got := c.book(kept.ID); got.Status != audiobook.StatusReady || got.Counts != kept.Counts {
		t.Fatalf("the book imported before = %+v", got.Book)
	}
}

// TestAudiobookImportAfterACrash (issue 30.1): a process stopped while
// its import ran leaves the job to the next start, which finishes the
// book; a job that failed without its handler marking the book (a panic,
// or attempts used up by runs that killed the process) leaves the book
// failed with the job's error, never importing forever.
func TestAudiobookImportAfterACrash(t *testing.T) {
	t.Run("a stopped import is finished by the next start", func(t *testing.T) {
		dir := t.TempDir()
		h := &heldImport{entered: make(chan string, 1), release: make(chan struct{})}
		c, local := serveLocalAt(t, dir, h.features())
		status, b := c.uploadBook("garden.txt", "text/plain", []byte(smallBook))
		if status != http.StatusAccepted {
			t.Fatalf("upload = %d %s", status, b)
		}
		id := decode[audiobookapi.BookView](t, b).ID
		<-h.entered
		// Stop at once, as a dying process: the held run is cut short.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_ = local.pool.Stop(ctx)
		local.Close()

		c, local = serveLocalAt(t, dir, features.All())
		t.Cleanup(func() { local.Close() })
		if v := c.waitImported(id); v.Status != audiobook.StatusReady || v.Counts.Dialogue == 0 {
			t.Fatalf("after the restart the book is %s (%s), counts %+v", v.Status, v.Error, v.Counts)
		}
	})
	t.Run("a job that died without a word fails its book", func(t *testing.T) {
		h := &heldImport{panics: true}
		c, local := serveLocalAt(t, t.TempDir(), h.features())
		t.Cleanup(func() { local.Close() })
		status, b := c.uploadBook("garden.txt", "text/plain", []byte(smallBook))
		if status != http.StatusAccepted {
			t.Fatalf("upload = %d %s", status, b)
		}
		id := decode[audiobookapi.BookView](t, b).ID
		v := c.waitImported(id)
		// The book says so in a sentence; the panic stays on the job.
		if v.Status != audiobook.StatusFailed || !strings.HasPrefix(v.Error, "the import stopped on an unexpected error") || strings.Contains(v.Error, "panic") {
			t.Fatalf("book = %s %q, want failed with a sentence, not the panic", v.Status, v.Error)
		}
		if v.ImportJobStatus == nil || !strings.Contains(v.ImportJobStatus.Error, "took the worker down") {
			t.Fatalf("import job = %+v, want the panic on it", v.ImportJobStatus)
		}
		list := decode[struct{ Books []audiobook.Summary }](t, c.get("/api/audiobook/books"))
		if len(list.Books) != 1 || list.Books[0].Status != audiobook.StatusFailed {
			t.Fatalf("listing = %+v", list.Books)
		}
	})
}

// TestAudiobookImportEveryLambdaDiedIn (issue 30.1, AWS mode): a worker
// Lambda killed in the import (out of memory, timeout) writes nothing; SQS
// delivers the job again until its maxReceiveCount, then no more. The
// book must then read failed, saying why, not importing forever.
func TestAudiobookImportEveryLambdaDiedIn(t *testing.T) {
	ctx := context.Background()
	table, blobs := workerStores(t)
	now := time.Now()
	clock := func() time.Time { return now }
	sent := &sentMessages{}
	queue := sqsjobs.New(table, sent, "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs", clock)
	svc := audiobook.NewService(table, blobs, queue, nil, clock, nil, nil)
	b, job, err := svc.StartImport(ctx, "garden.txt", []byte(smallBook))
	if err != nil {
		t.Fatal(err)
	}
	// Each run dies inside the handler: runtime.Goexit ends the run's
	// goroutine with nothing written after the claim, as a killed Lambda.
	reg := jobs.NewRegistry()
	if err := reg.Register(audiobook.ImportJobKind, func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		runtime.Goexit()
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	runner := jobs.NewRunner(table, reg, jobs.RunnerOptions{Now: clock})
	for delivery := 1; delivery <= jobs.DefaultMaxAttempts; delivery++ {
		done := make(chan struct{})
		go func() {
			defer close(done)
			_, _ = runner.Run(ctx, job.ID)
		}()
		<-done
		if got, err := svc.Get(ctx, b.ID); err != nil || got.Status != audiobook.StatusImporting {
			t.Fatalf("after death %d the book is %s (%v), want importing: SQS delivers it again", delivery, got.Status, err)
		}
		now = now.Add(31 * time.Minute) // the queue's visibility timeout, past the lease
	}
	got, err := svc.Get(ctx, b.ID)
	if err != nil || got.Status != audiobook.StatusFailed || !strings.Contains(got.Error, fmt.Sprintf("stopped %d times", jobs.DefaultMaxAttempts)) {
		t.Fatalf("after the last delivery the book is %s %q (%v), want failed saying the runs died", got.Status, got.Error, err)
	}
	list, err := svc.List(ctx)
	if err != nil || len(list) != 1 || list[0].Status != audiobook.StatusFailed {
		t.Fatalf("listing = %+v (%v)", list, err)
	}
	if err := svc.Delete(ctx, b.ID); err != nil {
		t.Fatalf("delete the failed book: %v", err)
	}
}

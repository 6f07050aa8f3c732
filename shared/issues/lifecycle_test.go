package issues

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/store"
)

func setStatus(t *testing.T, s *Service, id string, status magazine.IssueStatus, step string) {
	t.Helper()
	if _, err := s.Repo.Update(context.Background(), id, func(is *magazine.Issue) error {
		is.Status, is.Step = status, step
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func putBlob(t *testing.T, b blob.Store, key string) {
	t.Helper()
	if err := b.Put(context.Background(), key, strings.NewReader("x"), "image/png"); err != nil {
		t.Fatal(err)
	}
}

// partition lists every record of an issue's partition and its list entry.
func partition(t *testing.T, s *Service, id string) []string {
	t.Helper()
	page, err := s.Repo.table.Query(context.Background(), store.Query{PK: PK(id)})
	if err != nil {
		t.Fatal(err)
	}
	var sks []string
	for _, it := range page.Items {
		sks = append(sks, it.SK)
	}
	if _, err := s.Repo.table.Get(context.Background(), indexPK, id); err == nil {
		sks = append(sks, "index")
	}
	return sks
}

func TestDeleteRemovesEveryRecordAndBlob(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t, nil)
	is, err := s.Accept(ctx, "Harbour", bytes.NewReader(onePagePDF()))
	if err != nil {
		t.Fatal(err)
	}
	other, err := s.Accept(ctx, "Neighbour", bytes.NewReader(onePagePDF()))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, is.ID); !errors.Is(err, ErrBusy) || fault.KindOf(err) != fault.Conflict {
		t.Fatalf("delete while processing = %v, want busy (conflict)", err)
	}
	setStatus(t, s, is.ID, magazine.IssueReady, "done")
	for n := 1; n <= 3; n++ {
		if err := s.Repo.PutPage(ctx, magazine.Page{IssueID: is.ID, Number: n}); err != nil {
			t.Fatal(err)
		}
		if err := s.Repo.SetStep(ctx, is.ID, Step{Page: n, Step: "done"}); err != nil {
			t.Fatal(err)
		}
		putBlob(t, s.Media, RenderKey(is.ID, n))
		putBlob(t, s.Media, ThumbKey(is.ID, n))
		putBlob(t, s.Media, CropKey(is.ID, n, "p1", 0))
		putBlob(t, s.Media, CropKey(is.ID, n, "p1", 7))
	}
	putBlob(t, s.Media, RenderKey(other.ID, 1))
	for _, sk := range []string{ArticleSK("a1"), BackupSK(2), UndoSK} {
		if err := s.Repo.table.Put(ctx, store.Item{PK: PK(is.ID), SK: sk, Version: 1, Data: []byte(`{}`)}, store.Condition{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Delete(ctx, is.ID); err != nil {
		t.Fatal(err)
	}
	if left := partition(t, s, is.ID); len(left) != 0 {
		t.Errorf("records left: %v", left)
	}
	for _, prefix := range []string{MediaPrefix(is.ID), SourceKey(is.ID)} {
		if infos, err := s.Media.List(ctx, prefix); err != nil || len(infos) != 0 {
			t.Errorf("blobs left under %s: %+v, %v", prefix, infos, err)
		}
	}
	if _, _, err := s.Repo.Get(ctx, is.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("get after delete = %v", err)
	}
	if list, err := s.Repo.List(ctx); err != nil || len(list) != 1 || list[0].ID != other.ID {
		t.Errorf("list after delete = %+v, %v", list, err)
	}
	if _, err := s.Media.Head(ctx, RenderKey(other.ID, 1)); err != nil {
		t.Errorf("the other issue lost its render: %v", err)
	}
	if _, err := s.Uploads.Head(ctx, SourceKey(other.ID)); err != nil {
		t.Errorf("the other issue lost its PDF: %v", err)
	}
	if err := s.Delete(ctx, is.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("delete twice = %v, want not found", err)
	}
}

func TestDeleteOfAnUploadingIssueWaitsForItsURLToExpire(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t, nil)
	now := time.Now()
	s.Clock = func() time.Time { return now }
	grant, err := s.PresignUpload(ctx, "Harbour", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, grant.Issue.ID); !errors.Is(err, ErrUploadOpen) {
		t.Fatalf("delete with a live upload URL = %v", err)
	}
	now = now.Add(MediaTTL + time.Second)
	if err := s.Delete(ctx, grant.Issue.ID); err != nil {
		t.Fatalf("delete after the URL expired = %v", err)
	}
}

func TestRecoverSettlesWhatAStoppedProcessLeft(t *testing.T) {
	ctx := context.Background()
	var started []string
	s, _ := newService(t, func(_ context.Context, key, _ string) error {
		started = append(started, key)
		return nil
	})
	accept := func(title string) magazine.Issue {
		t.Helper()
		is, err := s.Accept(ctx, title, bytes.NewReader(onePagePDF()))
		if err != nil {
			t.Fatal(err)
		}
		return is
	}
	// Stopped before its ingest was queued (the old upload order): resumed.
	queuedNever := accept("never queued")
	// Its ingest is still queued: left to it.
	stillQueued := accept("still queued")
	// Stopped part-way through ingest (lectern ingest killed): failed.
	midway := accept("mid-way")
	setStatus(t, s, midway.ID, magazine.IssueProcessing, "pages")
	// Its PDF never arrived: failed.
	noPDF := accept("no pdf")
	if err := s.Uploads.Delete(ctx, SourceKey(noPDF.ID)); err != nil {
		t.Fatal(err)
	}
	// Finished: untouched.
	ready := accept("ready")
	setStatus(t, s, ready.ID, magazine.IssueReady, "done")
	// A PDF stored without an issue (stopped before the issue was
	// recorded), and one whose job is queued and will record it.
	orphan, queuedOrphan := SourceKey(NewID(time.Now())), SourceKey(NewID(time.Now().Add(time.Millisecond)))
	for _, k := range []string{orphan, queuedOrphan} {
		if err := s.Uploads.Put(ctx, k, bytes.NewReader(onePagePDF()), "application/pdf"); err != nil {
			t.Fatal(err)
		}
	}

	live := map[string]bool{SourceKey(stillQueued.ID): true, queuedOrphan: true}
	got, err := s.Recover(ctx, func(k string) bool { return live[k] }, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Resumed) != 1 || got.Resumed[0] != queuedNever.ID || len(started) != 1 || started[0] != SourceKey(queuedNever.ID) {
		t.Errorf("resumed %v, started %v; want only %s", got.Resumed, started, queuedNever.ID)
	}
	if len(got.Failed) != 2 || got.Orphans != 1 {
		t.Errorf("recovered %+v; want 2 failed, 1 orphan", got)
	}
	for id, want := range map[string]string{midway.ID: `step "pages"`, noPDF.ID: "upload it again"} {
		is, _, err := s.Repo.Get(ctx, id)
		if err != nil || is.Status != magazine.IssueFailed || !strings.Contains(is.Error, want) {
			t.Errorf("issue %s = %s %q, %v; want failed saying %q", id, is.Status, is.Error, err, want)
		}
	}
	for id, want := range map[string]magazine.IssueStatus{stillQueued.ID: magazine.IssueProcessing, queuedNever.ID: magazine.IssueProcessing, ready.ID: magazine.IssueReady} {
		if is, _, err := s.Repo.Get(ctx, id); err != nil || is.Status != want || is.Error != "" {
			t.Errorf("issue %s = %s %q, %v; want %s untouched", id, is.Status, is.Error, err, want)
		}
	}
	if _, err := s.Uploads.Head(ctx, orphan); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("orphaned PDF kept: %v", err)
	}
	if _, err := s.Uploads.Head(ctx, queuedOrphan); err != nil {
		t.Errorf("a PDF whose job is queued was removed: %v", err)
	}
}

// The issue is recorded only once its PDF is stored and its ingest queued:
// a failure to queue leaves no issue (and no PDF) behind.
func TestUploadRecordsTheIssueLast(t *testing.T) {
	ctx := context.Background()
	var s *Service
	var seen int
	s, _ = newService(t, func(context.Context, string, string) error {
		seen = issueCount(t, s)
		return errors.New("queue is down")
	})
	if _, err := s.Upload(ctx, "Harbour", bytes.NewReader(onePagePDF())); err == nil {
		t.Fatal("upload with a failing queue succeeded")
	}
	if seen != 0 {
		t.Errorf("%d issues existed while the ingest was being queued", seen)
	}
	if n := issueCount(t, s); n != 0 {
		t.Errorf("%d issues left behind", n)
	}
	if infos, err := s.Uploads.List(ctx, "uploads/"); err != nil || len(infos) != 0 {
		t.Errorf("PDFs left behind: %+v, %v", infos, err)
	}
}

func TestOversizeUploadIsRefusedByItsRealSize(t *testing.T) {
	s, _ := newService(t, func(context.Context, string, string) error { return nil })
	s.Limits.MaxBytes = 1000
	// A form upload can seek: its real size is named, and it is not read.
	_, err := s.Upload(context.Background(), "big", bytes.NewReader(make([]byte, 2500)))
	var inv *pdf.InvalidInputError
	if !errors.As(err, &inv) || inv.Reason != pdf.ReasonTooLarge || !strings.Contains(inv.Detail, "2.4 KiB (2500 bytes)") || !strings.Contains(inv.Detail, "the limit is 1000 bytes") {
		t.Fatalf("err = %v", err)
	}
	// A stream that cannot seek is read as far as the limit.
	_, err = s.Upload(context.Background(), "big", io.MultiReader(strings.NewReader(strings.Repeat("x", 2500))))
	if !errors.As(err, &inv) || !strings.Contains(inv.Detail, "larger than the limit of 1000 bytes") {
		t.Fatalf("err = %v", err)
	}
}

func TestTitlesFromFileNamesAreClipped(t *testing.T) {
	long := strings.Repeat("é", 300) + ".pdf"
	got := Title("", long)
	if n := utf8.RuneCountInString(got); n != MaxTitle || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Errorf("title from a 300-character name: %d characters %q", n, got)
	}
	if got := Title("", "short.pdf"); got != "short" {
		t.Errorf("short name = %q", got)
	}
}

// A PDF that arrives as a stream (a pipe, a request body) is checked from a
// copy on disk and stored byte for byte; the copy is removed.
func TestStreamedUploadIsStoredWhole(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	s, _ := newService(t, func(context.Context, string, string) error { return nil })
	ctx := context.Background()
	want := onePagePDF()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.Write(want); w.Close() }()
	defer r.Close()
	for name, file := range map[string]io.Reader{"a stream": io.MultiReader(bytes.NewReader(want)), "a pipe": r} {
		is, err := s.Upload(ctx, name, file)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rc, _, err := s.Uploads.Get(ctx, is.SourceKey)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: stored %d bytes (%v), want the %d sent", name, len(got), err, len(want))
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary folder: %v", left)
	}
}

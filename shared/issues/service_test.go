package issues

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob/localfs"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/pdf/pdftest"
	"github.com/lectern/lectern/shared/store/bolt"
)

type countingRefiner struct{ calls int }

// RefineIssue reports two pages, as the review editor would.
func (r *countingRefiner) RefineIssue(_ context.Context, _ string, progress PageProgress) (Refined, error) {
	r.calls++
	for n := 1; n <= 2; n++ {
		if progress != nil {
			if err := progress(n, 2); err != nil {
				return Refined{}, err
			}
		}
	}
	return Refined{PagesChanged: 2}, nil
}

func newService(t *testing.T, start Starter) (*Service, *countingRefiner) {
	t.Helper()
	dir := t.TempDir()
	table, err := bolt.Open(filepath.Join(dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })
	blobs, err := localfs.New(filepath.Join(dir, "blobs"), "http://127.0.0.1", bytes.Repeat([]byte("k"), 32), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Close() })
	refiner := &countingRefiner{}
	limits := pdf.DefaultLimits()
	return &Service{Repo: NewRepo(table, time.Now), Uploads: blobs, Media: blobs, Limits: limits, Clock: time.Now, Start: start, Refine: refiner}, refiner
}

func onePagePDF() []byte {
	d := &pdftest.Doc{}
	d.AddPage(612, 792).Text(72, 72, 12, false, "A harbour note")
	return d.Bytes()
}

func issueCount(t *testing.T, s *Service) int {
	t.Helper()
	list, err := s.Repo.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

func TestUploadStartsIngestOfTheStoredPDF(t *testing.T) {
	var started []string
	s, _ := newService(t, func(_ context.Context, key, title string) error {
		started = append(started, key+" "+title)
		return nil
	})
	is, err := s.Upload(context.Background(), "Harbour", bytes.NewReader(onePagePDF()))
	if err != nil {
		t.Fatal(err)
	}
	if is.Status != magazine.IssueProcessing || is.SourceKey != SourceKey(is.ID) {
		t.Fatalf("issue = %+v", is)
	}
	if len(started) != 1 || started[0] != is.SourceKey+" Harbour" {
		t.Fatalf("started = %v", started)
	}
	rc, _, err := s.Uploads.Get(context.Background(), is.SourceKey)
	if err != nil {
		t.Fatalf("the PDF was not stored: %v", err)
	}
	rc.Close()
	if s.UploadMode() != "form" {
		t.Fatalf("upload mode = %s, want form", s.UploadMode())
	}
}

func TestRefusedUploadsLeaveNothing(t *testing.T) {
	ctx := context.Background()
	local, _ := newService(t, func(context.Context, string, string) error { return nil })
	aws, _ := newService(t, nil)
	for _, tc := range []struct {
		name string
		call func() error
		svc  *Service
		kind fault.Kind
		is   error
		text string
	}{
		{"a form upload in AWS mode is the wrong path", func() error {
			_, err := aws.Upload(ctx, "x", bytes.NewReader(onePagePDF()))
			return err
		}, aws, fault.Conflict, ErrAWSMode, "POST /api/magazine/uploads"},
		{"a presigned upload in local mode is the wrong path", func() error {
			_, err := local.PresignUpload(ctx, "x", 100)
			return err
		}, local, fault.Conflict, ErrLocalMode, "POST /api/magazine"},
		{"a presigned upload over the limit is too large", func() error {
			_, err := aws.PresignUpload(ctx, "x", aws.Limits.MaxBytes+1)
			return err
		}, aws, fault.TooLarge, nil, "the limit is"},
		{"a file that is not a PDF is invalid", func() error {
			_, err := local.Upload(ctx, "x", strings.NewReader("hello"))
			return err
		}, local, fault.Invalid, nil, "not-a-pdf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if fault.KindOf(err) != tc.kind || (tc.is != nil && !errors.Is(err, tc.is)) || err == nil || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("err = %v (kind %v), want kind %v saying %q", err, fault.KindOf(err), tc.kind, tc.text)
			}
			if n := issueCount(t, tc.svc); n != 0 {
				t.Fatalf("%d issues left behind", n)
			}
		})
	}
}

func TestPresignedUploadCreatesAnUploadingIssue(t *testing.T) {
	s, _ := newService(t, nil)
	grant, err := s.PresignUpload(context.Background(), "Harbour", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if grant.Issue.Status != magazine.IssueUploading || grant.URL == "" || grant.Fields["key"] != grant.Issue.SourceKey ||
		grant.ContentType != "application/pdf" || !grant.ExpiresAt.After(time.Now()) {
		t.Fatalf("grant = %+v", grant)
	}
	if s.UploadMode() != "presigned" {
		t.Fatalf("upload mode = %s, want presigned", s.UploadMode())
	}
}

func TestProgressCountsFinishedPagesWhileProcessing(t *testing.T) {
	ctx := context.Background()
	s, _ := newService(t, nil)
	is, err := s.Accept(ctx, "Harbour", bytes.NewReader(onePagePDF()))
	if err != nil {
		t.Fatal(err)
	}
	for n, done := range map[int]bool{1: true, 2: false, 3: true} {
		if err := s.Repo.SetStep(ctx, is.ID, Step{Page: n, Step: "order", Done: done}); err != nil {
			t.Fatal(err)
		}
	}
	got, steps, err := s.Progress(ctx, is.ID)
	if err != nil || got.PagesDone != 2 || len(steps) != 3 {
		t.Fatalf("progress = %d done, %d steps, %v; want 2 of 3", got.PagesDone, len(steps), err)
	}
	if _, _, err := s.Progress(ctx, "nosuchissue"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown issue = %v, want not found", err)
	}
}

func TestMediaAndRefine(t *testing.T) {
	ctx := context.Background()
	s, refiner := newService(t, nil)
	is, err := s.Accept(ctx, "Harbour", bytes.NewReader(onePagePDF()))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Repo.PutPage(ctx, magazine.Page{IssueID: is.ID, Number: 1, Regions: []magazine.Region{{ID: "p1", Kind: magazine.KindImage, CropKey: CropKey(is.ID, 1, "p1", 0)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PageMediaURL(ctx, is.ID, 1, Render); !errors.Is(err, ErrNoMedia) || fault.KindOf(err) != fault.NotFound {
		t.Fatalf("render before it exists = %v, want nothing stored (not found)", err)
	}
	if url, err := s.PageMediaURL(ctx, is.ID, 1, Crop("p1")); err != nil || !strings.Contains(url, "crops/0001/p1.png") {
		t.Fatalf("crop link = %q, %v", url, err)
	}
	if _, err := s.RefineFigures(ctx, is.ID, nil); !errors.Is(err, ErrBusy) || refiner.calls != 0 {
		t.Fatalf("refine while processing = %v (%d calls), want busy and no refine", err, refiner.calls)
	}
	if _, err := s.Repo.Update(ctx, is.ID, func(is *magazine.Issue) error { is.Status = magazine.IssueReady; return nil }); err != nil {
		t.Fatal(err)
	}
	if r, err := s.RefineFigures(ctx, is.ID, nil); err != nil || r.PagesChanged != 2 || refiner.calls != 1 {
		t.Fatalf("refine when ready = %+v, %v (%d calls)", r, err, refiner.calls)
	}
}

func TestTitle(t *testing.T) {
	for _, tc := range []struct{ title, file, want string }{
		{"Given", "x.pdf", "Given"}, {"", "harbour.pdf", "harbour"}, {"", "HARBOUR.PDF", "HARBOUR"}, {"", "notes", "notes"}, {"", ".pdf", ".pdf"},
	} {
		if got := Title(tc.title, tc.file); got != tc.want {
			t.Errorf("Title(%q, %q) = %q, want %q", tc.title, tc.file, got, tc.want)
		}
	}
}

// reports records a job's progress as the runner would see it.
type reports struct{ messages []string }

func (r *reports) Progress(_ context.Context, fraction float64, message string) error {
	r.messages = append(r.messages, fmt.Sprintf("%.2f %s", fraction, message))
	return nil
}

func TestRefineJobReportsEachPageAndAnswersWhatChanged(t *testing.T) {
	s, refiner := newService(t, nil)
	ctx := context.Background()
	is, err := s.Accept(ctx, "Harbour", bytes.NewReader(onePagePDF()))
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(map[string]string{"issue": is.ID})
	if _, err := s.RefineJob(ctx, payload, &reports{}); !errors.Is(err, ErrBusy) || refiner.calls != 0 {
		t.Fatalf("refine job while processing = %v (%d calls), want busy and no refine", err, refiner.calls)
	}
	if _, err := s.Repo.Update(ctx, is.ID, func(is *magazine.Issue) error { is.Status = magazine.IssueReady; return nil }); err != nil {
		t.Fatal(err)
	}
	rep := &reports{}
	out, err := s.RefineJob(ctx, payload, rep)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0.00 refining page 1 of 2", "0.50 refining page 2 of 2", "1.00 refined the figures: 2 pages changed"}
	if !slices.Equal(rep.messages, want) {
		t.Errorf("progress = %q, want %q", rep.messages, want)
	}
	if !strings.Contains(string(out), `"pages_changed":2`) {
		t.Errorf("result = %s, want the Refined document", out)
	}
	if _, err := s.RefineJob(ctx, json.RawMessage(`[`), rep); fault.KindOf(err) != fault.Invalid {
		t.Errorf("refine job with a broken payload = %v, want invalid", err)
	}
}

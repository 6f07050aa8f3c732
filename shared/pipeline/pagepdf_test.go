package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
	"github.com/lectern/lectern/shared/store"
)

// countingBlobs is a real blob store that counts the bytes read from it,
// by key.
type countingBlobs struct {
	blob.Store
	mu   sync.Mutex
	read map[string]int64
}

func newCountingBlobs(s blob.Store) *countingBlobs {
	return &countingBlobs{Store: s, read: map[string]int64{}}
}

func (c *countingBlobs) Get(ctx context.Context, key string) (io.ReadCloser, blob.Info, error) {
	rc, info, err := c.Store.Get(ctx, key)
	if err != nil {
		return nil, info, err
	}
	return countingReader{rc, c, key}, info, nil
}

// take returns the bytes read by key since the last take, and forgets them.
func (c *countingBlobs) take() map[string]int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.read
	c.read = map[string]int64{}
	return out
}

type countingReader struct {
	io.ReadCloser
	c   *countingBlobs
	key string
}

func (r countingReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	r.c.mu.Lock()
	r.c.read[r.key] += int64(n)
	r.c.mu.Unlock()
	return n, err
}

// countedFixture is the steps fixture with its blob store counted, and the
// page records' split in use.
func countedFixture(t *testing.T) (*stepsFixture, *countingBlobs) {
	f := newStepsFixture(t)
	counted := newCountingBlobs(f.blobs)
	f.steps.Pages.Blobs, f.steps.Pages.Sources = counted, counted
	return f, counted
}

// pagesPDF is n small pages of text with a running head, so Recognize's
// window of neighbours matters.
func pagesPDF(n int) []byte {
	d := &pdftest.Doc{}
	for i := range n {
		p := d.AddPage(612, 792)
		p.Text(72, 40, 8, false, "The Harbour Gazette, running head")
		p.Text(72, 80, 20, true, fmt.Sprintf("Story number %d", i+1))
		for l := range 8 {
			p.Text(72, 120+float64(l)*12, 10, false, fmt.Sprintf("Line %d of the story on page %d, told plainly and at length.", l+1, i+1))
		}
	}
	return d.Bytes()
}

// The page steps, and review's re-reads, read their page's own PDF and
// never the whole upload once Prepare split it.
func TestPageStepsReadOnlyTheirOwnPage(t *testing.T) {
	f, counted := countedFixture(t)
	data := pagesPDF(7)
	id := f.upload(t, data)
	ctx := t.Context()
	if _, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id)}); err != nil {
		t.Fatal(err)
	}
	split, err := f.repo.Split(ctx, id)
	if err != nil || split.Pages != 7 || len(split.Whole) != 0 {
		t.Fatalf("split = %+v, %v; want 7 pages of their own", split, err)
	}
	counted.take()
	noSource := func(what string, page int) {
		t.Helper()
		read := counted.take()
		if n := read[issues.SourceKey(id)]; n > 0 {
			t.Errorf("%s of page %d read %d bytes of the whole upload (%d bytes); a page PDF exists", what, page, n, len(data))
		}
		if what == "Render" && read[issues.PagePDFKey(id, page)] == 0 {
			t.Errorf("Render of page %d did not read its own PDF: %v", page, read)
		}
	}
	for n := 1; n <= 7; n++ {
		ref := PageRef{IssueID: id, Page: n}
		if _, err := f.steps.Render(ctx, ref); err != nil {
			t.Fatal(err)
		}
		noSource("Render", n)
		if _, err := f.steps.Recognize(ctx, ref); err != nil {
			t.Fatal(err)
		}
		noSource("Recognize", n)
	}
	page := stored[magazine.Page](t)(f.repo.Page(ctx, id, 4))
	if _, err := f.steps.Pages.RecognizePage(ctx, page, EngineTextLayer); err != nil {
		t.Fatal(err)
	}
	noSource("RecognizePage", 4)
	if len(page.Regions) == 0 {
		t.Fatal("page 4 has no regions")
	}
	box := page.Regions[0].BBox
	if _, err := f.steps.Pages.ReadArea(ctx, page, box); err != nil {
		t.Fatal(err)
	}
	noSource("ReadArea", 4)
	if _, err := f.steps.Pages.ReadAreaWith(ctx, page, box, EngineTextLayer); err != nil {
		t.Fatal(err)
	}
	noSource("ReadAreaWith", 4)
}

// A PDF pdfcpu cannot read (MuPDF repairs it) is not split: the issue
// still ingests, every page read from the upload, and the split record
// says why.
func TestUnsplittablePDFFallsBackToTheUpload(t *testing.T) {
	f, counted := countedFixture(t)
	d := &pdftest.Doc{NoTrailerRoot: true}
	d.AddPage(612, 792).Text(72, 72, 14, false, "A page pdfcpu cannot read, which MuPDF repairs and reads")
	id := f.upload(t, d.Bytes())
	ctx := t.Context()
	if _, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id)}); err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	split, err := f.repo.Split(ctx, id)
	if err != nil || !reflect.DeepEqual(split.Whole, []int{1}) || !strings.Contains(split.Note, "pdfcpu cannot read it") {
		t.Fatalf("split = %+v, %v; want page 1 read from the upload, with why", split, err)
	}
	if _, err := f.blobs.Head(ctx, issues.PagePDFKey(id, 1)); err == nil {
		t.Error("a page PDF was stored for a file that was not split")
	}
	counted.take()
	ref := PageRef{IssueID: id, Page: 1}
	for _, step := range []stepFunc{f.steps.Render, f.steps.Recognize} {
		if _, err := step(ctx, ref); err != nil {
			t.Fatal(err)
		}
	}
	if counted.take()[issues.SourceKey(id)] == 0 {
		t.Error("the page steps did not read the upload")
	}
	page := stored[magazine.Page](t)(f.repo.Page(ctx, id, 1))
	if !strings.Contains(magazine.PreviewHTML(page, 50), "MuPDF repairs") {
		t.Errorf("page 1 read %+v", page.Regions)
	}
}

// An issue ingested before pages were split has no split record: its
// pages are read from the upload, as they were.
func TestIssueWithoutSplitRecordReadsTheUpload(t *testing.T) {
	f, counted := countedFixture(t)
	id := f.upload(t, pagesPDF(2))
	ctx := t.Context()
	if _, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id)}); err != nil {
		t.Fatal(err)
	}
	if err := f.table.Delete(ctx, issues.PK(id), "SPLIT", store.Condition{}); err != nil {
		t.Fatal(err)
	}
	counted.take()
	if _, err := f.steps.Render(ctx, PageRef{IssueID: id, Page: 2}); err != nil {
		t.Fatal(err)
	}
	if read := counted.take(); read[issues.SourceKey(id)] == 0 || read[issues.PagePDFKey(id, 2)] > 0 {
		t.Errorf("reads %v; want the upload, not the page PDF", read)
	}
}

// Page refusals name the issue's page, not page 1 of the page's own PDF.
func TestPageRefusalNamesTheIssuePage(t *testing.T) {
	f := newStepsFixture(t)
	d := &pdftest.Doc{}
	d.AddPage(612, 792).Text(72, 72, 12, false, "A fine first page of text")
	d.AddPage(14400, 14400) // far over the render budget
	id := f.upload(t, d.Bytes())
	ctx := t.Context()
	if _, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id)}); err != nil {
		t.Fatal(err)
	}
	f.steps.Pages.Limits.MaxRenderPixels = 1_000_000
	_, err := f.steps.Render(ctx, PageRef{IssueID: id, Page: 2})
	if err == nil || !strings.Contains(err.Error(), "page 2:") {
		t.Fatalf("Render of the huge page = %v; want a refusal naming page 2", err)
	}
}

// Deleting an issue deletes its page PDFs.
func TestDeleteRemovesPagePDFs(t *testing.T) {
	f := newStepsFixture(t)
	id := f.upload(t, pagesPDF(3))
	ctx := t.Context()
	if _, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id)}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.blobs.Head(ctx, issues.PagePDFKey(id, 3)); err != nil {
		t.Fatalf("page 3's PDF: %v", err)
	}
	if _, err := f.repo.Update(ctx, id, func(is *magazine.Issue) error { is.Status = magazine.IssueReady; return nil }); err != nil {
		t.Fatal(err)
	}
	svc := &issues.Service{Repo: f.repo, Media: f.blobs, Uploads: f.blobs, Clock: time.Now}
	if err := svc.Delete(ctx, id); err != nil {
		t.Fatal(err)
	}
	left, err := f.blobs.List(ctx, issues.MediaPrefix(id))
	if err != nil || len(left) > 0 {
		t.Errorf("after delete: %v, %v", left, err)
	}
	if _, err := f.repo.Split(ctx, id); err == nil {
		t.Error("the split record outlived the issue")
	}
}

// samePDFs are the sample PDFs the split is checked on: every page reads
// the same (render pixels, regions, engine) from its own PDF as from the
// whole upload.
func samePDFs(t *testing.T) map[string][]byte {
	out := map[string][]byte{"generated": pagesPDF(5)}
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		return out
	}
	for _, rel := range []string{"magazines/05_federal_register_2020-17221.pdf", "magazines/04_faa_amt_handbook_p7-45.pdf", "pdfs-public/pdfplumber/issue-67-example.pdf"} {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(rel)] = data
	}
	return out
}

// Each page ingests the same from its own PDF as from the whole upload
// (render bytes, regions, engine and note), and the bytes each page step
// reads are logged before (the whole upload) and after:
//
//	LECTERN_SAMPLE_DATA=/work/shared/data go test -run TestEvalSplitPagesIngestTheSame -v ./shared/pipeline
func TestEvalSplitPagesIngestTheSame(t *testing.T) {
	for name, data := range samePDFs(t) {
		t.Run(name, func(t *testing.T) {
			before, beforeReads := ingestPages(t, data, false)
			after, afterReads := ingestPages(t, data, true)
			for i := range before {
				b, a := before[i], after[i]
				if !bytes.Equal(b.render, a.render) {
					t.Errorf("page %d: the render differs", i+1)
				}
				if !reflect.DeepEqual(b.page.Regions, a.page.Regions) || b.page.Engine != a.page.Engine || b.page.EngineNote != a.page.EngineNote {
					t.Errorf("page %d: read %d regions by %s from its own PDF, %d by %s from the upload; first differences: %s",
						i+1, len(a.page.Regions), a.page.Engine, len(b.page.Regions), b.page.Engine, firstDifference(b.page.Regions, a.page.Regions))
				}
			}
			for _, step := range []string{"Render", "Recognize"} {
				t.Logf("%s: %d pages; %s read %.0f bytes a page before, %.0f after (the upload is %d bytes)",
					name, len(before), step, float64(beforeReads[step])/float64(len(before)), float64(afterReads[step])/float64(len(after)), len(data))
			}
		})
	}
}

type ingestedPage struct {
	page   magazine.Page
	render []byte
}

// ingestPages runs Prepare and every page's steps; split false reads every
// page from the upload, as before pages were split. It returns the pages
// and the PDF bytes (upload or page PDFs) each page step read in all.
func ingestPages(t *testing.T, data []byte, split bool) ([]ingestedPage, map[string]int64) {
	f, counted := countedFixture(t)
	if !split {
		f.steps.Pages.Splits = nil
	}
	id := f.upload(t, data)
	ctx := t.Context()
	out, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id)})
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]int64{}
	pdfRead := func(step string) {
		for key, n := range counted.take() {
			if strings.HasSuffix(key, ".pdf") {
				reads[step] += n
			}
		}
	}
	counted.take()
	var pages []ingestedPage
	for _, n := range out.Pages {
		ref := PageRef{IssueID: id, Page: n}
		for _, step := range []struct {
			name string
			run  stepFunc
		}{{"Render", f.steps.Render}, {"Recognize", f.steps.Recognize}, {"RefineFigures", f.steps.RefineFigures}, {"Cleanup", f.steps.Cleanup}, {"Order", f.steps.Order}} {
			if _, err := step.run(ctx, ref); err != nil {
				t.Fatalf("%s of page %d: %v", step.name, n, err)
			}
			pdfRead(step.name)
		}
		page := stored[magazine.Page](t)(f.repo.Page(ctx, id, n))
		for i, r := range page.Regions {
			// Crop keys name the issue, which differs between runs.
			page.Regions[i].CropKey = strings.ReplaceAll(r.CropKey, id, "ID")
		}
		png, err := f.steps.Pages.Render(ctx, page)
		if err != nil {
			t.Fatal(err)
		}
		counted.take()
		pages = append(pages, ingestedPage{page: page, render: png.PNG})
	}
	return pages, reads
}

func firstDifference(want, got []magazine.Region) string {
	for i := range min(len(want), len(got)) {
		if !reflect.DeepEqual(want[i], got[i]) {
			return fmt.Sprintf("region %d: %+v from the upload, %+v from the page", i, want[i], got[i])
		}
	}
	return "lengths"
}

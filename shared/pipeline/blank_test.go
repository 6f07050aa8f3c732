package pipeline

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
	"github.com/lectern/lectern/statemachines"
)

// countingTesseract is the real Tesseract, counted.
type countingTesseract struct {
	tesseract.Engine
	calls atomic.Int32
}

func (c *countingTesseract) Recognize(ctx context.Context, png []byte, dpi int) ([]tesseract.Block, error) {
	c.calls.Add(1)
	return c.Engine.Recognize(ctx, png, dpi)
}

// A file of 499 blank pages and one inked page (the page limit) ingests without one OCR run: each
// page's render has no ink, and the page says OCR was skipped. A page with
// ink in the same file is still read by Tesseract (issue 30: the blank file
// cost 20 CPU-minutes).
func TestBlankPagesSkipOCR(t *testing.T) {
	const blanks = 499 // and one inked page: the 500-page limit
	d := &pdftest.Doc{}
	for range blanks {
		d.AddPage(144, 144) // small: the test is of OCR runs, not of render time
	}
	d.AddPage(144, 144).Rect(20, 20, 100, 60, 0.3) // ink, and no text layer
	data := d.Bytes()
	t.Logf("%d pages in %d bytes", blanks+1, len(data))

	f := newStepsFixture(t)
	tess := &countingTesseract{}
	f.steps.Pages.OCR = func(context.Context) (OCRChain, error) { return OCRChain{Tesseract: tess}, nil }
	ingest, err := NewIngest(statemachines.Ingest(), f.steps)
	if err != nil {
		t.Fatal(err)
	}
	id := f.upload(t, data)
	payload, err := json.Marshal(PrepareInput{SourceKey: issues.SourceKey(id)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Job(t.Context(), payload, &reporter{}); err != nil {
		t.Fatal(err)
	}
	if is := f.issue(t, id); is.Status != magazine.IssueReady || is.PagesDone != blanks+1 {
		t.Fatalf("issue %s with %d pages done, want ready with %d", is.Status, is.PagesDone, blanks+1)
	}
	for n := 1; n <= blanks; n++ {
		p := f.page(t, id, n)
		if p.Engine != EngineNone || p.EngineNote != "blank page: "+blankNote || len(p.Regions) != 0 {
			t.Fatalf("blank page %d: engine %q, note %q, %d regions", n, p.Engine, p.EngineNote, len(p.Regions))
		}
	}
	if p := f.page(t, id, blanks+1); p.Engine != EngineTesseract {
		t.Errorf("the inked page was read by %q (note %q), want tesseract", p.Engine, p.EngineNote)
	}
	if n := tess.calls.Load(); n != 1 {
		t.Errorf("Tesseract ran %d times, want once (the inked page only)", n)
	}
}

// An ingest run again after the process died (its execution claiming the
// issue again) keeps the pages it finished and processes only the others
// (issue 30: a restart began again at page 1 with 89 pages done).
func TestResumedIngestKeepsFinishedPages(t *testing.T) {
	f := newStepsFixture(t)
	id := f.upload(t, harbourPDF())
	start := PrepareInput{SourceKey: issues.SourceKey(id), Execution: &Execution{Name: "local:" + issues.SourceKey(id)}}
	if _, err := f.steps.Prepare(t.Context(), start); err != nil {
		t.Fatal(err)
	}
	one := PageRef{IssueID: id, Page: 1}
	for _, step := range []stepFunc{f.steps.Render, f.steps.Recognize, f.steps.RefineFigures, f.steps.Cleanup, f.steps.Order} {
		if _, err := step(t.Context(), one); err != nil {
			t.Fatal(err)
		}
	}
	before := f.page(t, id, 1)
	if before.Step != "done" {
		t.Fatalf("page 1 is %q after its steps", before.Step)
	}
	// The process died here; the same execution starts again.
	out, err := f.steps.Prepare(t.Context(), start)
	if err != nil {
		t.Fatal(err)
	}
	if out.PageCount != 2 || len(out.Pages) != 1 || out.Pages[0] != 2 {
		t.Errorf("resumed Prepare = %+v, want page 2 of 2 to process", out)
	}
	after := f.page(t, id, 1)
	if after.Step != "done" || !after.Updated.Equal(before.Updated) || len(after.Regions) != len(before.Regions) {
		t.Errorf("page 1 was reset: step %q, %d regions, updated %v (was %v)", after.Step, len(after.Regions), after.Updated, before.Updated)
	}
	if st := f.stepOf(t, id, 1); !st.Done {
		t.Errorf("page 1's step record = %+v, want done", st)
	}
}

package pipeline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
	"github.com/lectern/lectern/statemachines"
)

// A page whose inline picture declares 50,000×50,000 pixels fails on its
// own, with its reason on the page, and the issue's other page ingests:
// stopped by the pre-check in a file pdfcpu reads, by MuPDF's memory budget
// in one only MuPDF reads.
func TestInlineBombFailsItsPageAlone(t *testing.T) {
	for _, tc := range []struct {
		name      string
		repaired  bool
		wantError string
	}{
		{"the pre-check refuses it", false, "image-over-budget"},
		{"MuPDF's memory budget refuses it", true, "over memory budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newStepsFixture(t)
			ingest, err := NewIngest(statemachines.Ingest(), f.steps)
			if err != nil {
				t.Fatal(err)
			}
			d := &pdftest.Doc{NoTrailerRoot: tc.repaired}
			d.AddPage(612, 792).InlineBomb(50000)
			d.AddPage(612, 792).Text(72, 72, 24, true, "An Ordinary Page")
			id := f.upload(t, d.Bytes())
			payload, err := json.Marshal(PrepareInput{SourceKey: issues.SourceKey(id), Title: "Hostile"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ingest.Job(t.Context(), payload, &reporter{}); err != nil {
				t.Fatal(err)
			}
			if is := f.issue(t, id); is.Status != magazine.IssueReady || is.PagesDone != 1 || len(is.PageErrors) != 1 || is.PageErrors[0].Page != 1 {
				t.Fatalf("issue = %+v", is)
			}
			if p := f.page(t, id, 1); p.Step != "failed" || !strings.Contains(p.Error, tc.wantError) {
				t.Errorf("page 1: step %q error %q, want %q", p.Step, p.Error, tc.wantError)
			}
			if p := f.page(t, id, 2); p.Step != "done" || len(p.Regions) == 0 {
				t.Errorf("page 2: step %q regions %d", p.Step, len(p.Regions))
			}
		})
	}
}

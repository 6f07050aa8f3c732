package pipeline

import (
	"reflect"
	"testing"

	"github.com/lectern/lectern/shared/pdf"
)

// Locally Draw reads the text layer in its render pass and keeps it; the
// page Recognize then makes is the one it makes reading the layer itself.
func TestTextReadWithTheRenderIsTheTextLayer(t *testing.T) {
	recognized := func(withRender bool) (regions any, kept bool) {
		f := newStepsFixture(t)
		f.steps.Pages.TextWithRender = withRender
		id := f.prepared(t, f.steps.Render)
		_, kept = f.steps.Pages.texts.get(id + "/1")
		if _, err := f.steps.Recognize(t.Context(), PageRef{IssueID: id, Page: 1}); err != nil {
			t.Fatal(err)
		}
		return f.page(t, id, 1).Regions, kept
	}
	apart, keptApart := recognized(false)
	together, keptTogether := recognized(true)
	if keptApart || !keptTogether {
		t.Errorf("text layer kept after Draw: %v without TextWithRender, %v with it", keptApart, keptTogether)
	}
	if !reflect.DeepEqual(apart, together) {
		t.Errorf("regions with the text read in the render pass:\n%+v\nwant as read apart:\n%+v", together, apart)
	}

	// What Draw keeps is what TextLayer reads.
	f := newStepsFixture(t)
	f.steps.Pages.TextWithRender = true
	id := f.prepared(t, f.steps.Render)
	kept, _ := f.steps.Pages.texts.get(id + "/1")
	page, err := pdf.TextLayer(t.Context(), harbourPDF(), 1, pdf.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(kept, page) || len(page.Blocks) == 0 {
		t.Errorf("kept text layer = %+v\nwant TextLayer's %+v", kept, page)
	}
}

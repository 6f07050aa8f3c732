package pipeline

import (
	"fmt"
	"image"
	"testing"
)

func drawnImage(d *drawnRenders, n int) *image.RGBA {
	return &image.RGBA{Pix: d.pixels(n * n * 4), Stride: 4 * n, Rect: image.Rect(0, 0, n, n)}
}

// A render's pixels are drawn into again only once it is retired and no
// borrower holds it; bigger spares serve smaller pages, never the reverse.
func TestDrawnRendersRecycleOnlyWhatNoStepHolds(t *testing.T) {
	var d drawnRenders
	a := drawnImage(&d, 10)
	d.put("a", a)
	got, giveBack, ok := d.borrow("a")
	if !ok || got != a {
		t.Fatalf("borrow = %v, %v", got, ok)
	}
	d.retire("a")
	if _, _, ok := d.borrow("a"); ok {
		t.Error("a retired render is still handed out")
	}
	if b := d.pixels(10 * 10 * 4); &b[0] == &a.Pix[0] {
		t.Fatal("a borrowed render's pixels were handed to another")
	}
	giveBack()
	giveBack() // a second call changes nothing
	if b := d.pixels(20 * 20 * 4); &b[0] == &a.Pix[0] {
		t.Fatal("a smaller render's pixels were handed to a larger one")
	}
	b := d.pixels(5 * 5 * 4)
	if &b[0] != &a.Pix[0] || len(b) != 100 {
		t.Fatalf("the returned pixels were not reused (len %d)", len(b))
	}
	if c := d.pixels(5 * 5 * 4); &c[0] == &b[0] {
		t.Fatal("one spare was handed out twice")
	}
}

// Renders whose pages never reach Refine are let go past drawnKept, and
// put again under the same key replace the old one.
func TestDrawnRendersAreBounded(t *testing.T) {
	var d drawnRenders
	for i := range drawnKept + 3 {
		d.put(fmt.Sprint(i), drawnImage(&d, 4))
	}
	if len(d.entries) != drawnKept {
		t.Fatalf("%d renders kept, want %d", len(d.entries), drawnKept)
	}
	if _, _, ok := d.borrow("0"); ok {
		t.Error("the oldest render is still kept")
	}
	// Each render let go gave its pixels to the next one drawn: one spare
	// is left, from the last.
	if len(d.spare) != 1 {
		t.Errorf("%d spares, want 1", len(d.spare))
	}
	newer := drawnImage(&d, 4)
	d.put("9", newer)
	if got, done, ok := d.borrow("9"); !ok || got != newer {
		t.Error("a render put again did not replace the old one")
	} else {
		done()
	}
}

// Through the steps: Refine gives the render Draw lent back, and the next
// page is drawn into its pixels.
func TestRefineGivesTheRenderBackForTheNextPage(t *testing.T) {
	f := newStepsFixture(t)
	id := f.prepared(t, f.steps.Render, f.steps.Recognize, f.steps.RefineFigures)
	d := &f.steps.Pages.drawn
	if len(d.entries) != 0 || len(d.spare) != 1 {
		t.Fatalf("after page 1's Refine: %d renders lent, %d spare pixels; want 0 and 1", len(d.entries), len(d.spare))
	}
	spare := &d.spare[0][0]
	if _, err := f.steps.Render(t.Context(), PageRef{IssueID: id, Page: 2}); err != nil {
		t.Fatal(err)
	}
	if len(d.spare) != 0 || len(d.entries) != 1 || &d.entries[0].img.Pix[0] != spare {
		t.Fatalf("page 2 was not drawn into page 1's pixels (%d spare, %d lent)", len(d.spare), len(d.entries))
	}
}

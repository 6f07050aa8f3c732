package pipeline

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/magazine"
)

func TestRenderBytesCountsTheImageAndItsPNG(t *testing.T) {
	letter := magazine.Page{Width: 612, Height: 792}
	// 1275×1650 pixels as RGBA (4 bytes a pixel) and an incompressible PNG
	// of them (3).
	if got, want := renderBytes(letter, 150), int64(1275*1650*7); got != want {
		t.Errorf("letter at 150 DPI = %d bytes, want %d", got, want)
	}
	if got, want := renderBytes(letter, 300), 4*renderBytes(letter, 150); got != want {
		t.Errorf("letter at 300 DPI = %d bytes, want four times 150 DPI's, %d", got, want)
	}
	if got, want := renderBytes(magazine.Page{}, 150), renderBytes(letter, 150); got != want {
		t.Errorf("a page of unknown size = %d bytes, want a letter page's %d", got, want)
	}
}

func TestRenderMemoryHoldsRendersBeyondItBack(t *testing.T) {
	page := magazine.Page{Width: 612, Height: 792}
	one := renderBytes(page, DefaultDPI)
	m := &Pages{RenderMemory: one + one/2} // room for one page, not two

	first, err := m.reserve(t.Context(), one)
	if err != nil {
		t.Fatal(err)
	}
	waiting, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := m.reserve(waiting, one); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second page while the first is drawn: %v, want it to wait (deadline exceeded)", err)
	}
	got := make(chan error, 1)
	go func() {
		release, err := m.reserve(t.Context(), one)
		if err == nil {
			release()
		}
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	first()
	first() // releasing twice gives the bytes back once
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting page did not start once the first was done")
	}

	// A render bigger than the whole budget is drawn alone rather than never.
	huge, err := m.reserve(t.Context(), 100*one)
	if err != nil {
		t.Fatal(err)
	}
	huge()
}

// Every render path gives its bytes back: with room for one page at a time,
// a leaked reservation would hold the next render back until the deadline.
func TestRendersGiveTheirMemoryBack(t *testing.T) {
	f := newStepsFixture(t)
	f.steps.Pages.RenderMemory = renderBytes(magazine.Page{Width: 612, Height: 792}, TesseractDPI)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	id := f.prepared(t)
	for n := 1; n <= 2; n++ {
		if _, err := f.steps.Render(ctx, PageRef{IssueID: id, Page: n}); err != nil {
			t.Fatalf("render page %d: %v", n, err)
		}
	}
	page := f.page(t, id, 1)
	pdfs, err := f.steps.Pages.openPDFs(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := f.steps.Pages.pageImage(ctx, pdfs, page, TesseractDPI); err != nil {
			t.Fatalf("page image: %v", err)
		}
		if _, _, err := f.steps.Pages.areaImage(ctx, pdfs, page, magazine.BBox{72, 60, 300, 100}); err != nil {
			t.Fatalf("area image: %v", err)
		}
	}
}

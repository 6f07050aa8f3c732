package review

import (
	"context"
	"errors"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
)

func TestViewArea(t *testing.T) {
	letter := magazine.Page{Number: 1, Width: 612, Height: 792}
	for _, tc := range []struct {
		name string
		dpi  int
		box  magazine.BBox
		want magazine.BBox
		bad  bool
	}{
		{name: "an area on the page is drawn as asked", dpi: 300, box: magazine.BBox{100, 200, 150, 100}, want: magazine.BBox{100, 200, 150, 100}},
		{name: "an area past the page's edge is cut to it", dpi: 144, box: magazine.BBox{500, 700, 200, 200}, want: magazine.BBox{500, 700, 112, 92}},
		{name: "a negative corner is cut to the page", dpi: 144, box: magazine.BBox{-10, -10, 110, 60}, want: magazine.BBox{0, 0, 100, 50}},
		{name: "the whole page at 400 DPI fits the pixel limit", dpi: 400, box: magazine.BBox{0, 0, 612, 792}, want: magazine.BBox{0, 0, 612, 792}},
		{name: "an area off the page is refused", dpi: 144, box: magazine.BBox{700, 10, 50, 50}, bad: true},
		{name: "an empty area is refused", dpi: 144, box: magazine.BBox{10, 10, 0, 50}, bad: true},
		{name: "a dpi over the cap is refused", dpi: 601, box: magazine.BBox{0, 0, 10, 10}, bad: true},
		{name: "a dpi under the floor is refused", dpi: 20, box: magazine.BBox{0, 0, 10, 10}, bad: true},
		{name: "the whole page at 600 DPI is over the pixel limit", dpi: 600, box: magazine.BBox{0, 0, 612, 792}, bad: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ViewArea(letter, tc.dpi, tc.box)
			if tc.bad {
				if !errors.Is(err, ErrBadView) {
					t.Fatalf("ViewArea = %v, %v; want ErrBadView", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ViewArea = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// A view of a page that exists is drawn over the area cut to the page; a
// missing page or a bad area draws nothing.
func TestEditorView(t *testing.T) {
	ed, _, pics := fixture(t)
	ctx := context.Background()
	png, err := ed.View(ctx, issueID, 1, 288, magazine.BBox{600, 0, 100, 100})
	if err != nil || string(png) != "\x89PNG" {
		t.Fatalf("View = %q, %v", png, err)
	}
	if pics.viewed != (magazine.BBox{600, 0, 12, 100}) || pics.viewedDPI != 288 {
		t.Fatalf("drew %v at %d DPI, want [600 0 12 100] at 288", pics.viewed, pics.viewedDPI)
	}
	if _, err := ed.View(ctx, issueID, 2, 288, magazine.BBox{0, 0, 10, 10}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("a missing page: %v, want ErrNotFound", err)
	}
	if _, err := ed.View(ctx, issueID, 1, 288, magazine.BBox{0, 900, 10, 10}); !errors.Is(err, ErrBadView) {
		t.Fatalf("an area below the page: %v, want ErrBadView", err)
	}
	if n := pics.views.Load(); n != 1 {
		t.Fatalf("%d views drawn, want 1", n)
	}
}

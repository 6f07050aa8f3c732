package app

import (
	"bytes"
	"image/png"
	"net/http"
	"strings"
	"testing"
)

// The zoomed view: a part of a page drawn from its PDF at the zoom's
// resolution, cached by the browser; bad areas and resolutions answer a
// problem and draw nothing.
func TestPageViewOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	base := "/api/magazine/" + id + "/pages/1/view"

	// The headline band (72..272 × 40..140 points) at 288 DPI: 4 pixels a point.
	status, h, b := c.do(http.MethodGet, base+"?dpi=288&x=72&y=40&w=200&h=100", nil)
	if status != http.StatusOK || h.Get("Content-Type") != "image/png" {
		t.Fatalf("view = %d %s %.200s", status, h.Get("Content-Type"), b)
	}
	if cc := h.Get("Cache-Control"); !strings.Contains(cc, "max-age=") {
		t.Errorf("Cache-Control = %q, want a max-age", cc)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 800 || img.Bounds().Dy() != 400 {
		t.Fatalf("200×100 points at 288 DPI = %v, want 800×400", img.Bounds())
	}
	dark := 0
	for y := 0; y < 400; y++ {
		for x := 0; x < 800; x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r < 0x4000 {
				dark++
			}
		}
	}
	if dark < 1000 {
		t.Errorf("the headline band drew %d dark pixels; want the headline's ink", dark)
	}
	// Asked again with its ETag: not drawn again.
	if status, _, b := c.do(http.MethodGet, base+"?dpi=288&x=72&y=40&w=200&h=100", nil, "If-None-Match", h.Get("ETag")); status != http.StatusNotModified {
		t.Errorf("view with If-None-Match = %d %.200s, want 304", status, b)
	}
	// An area past the page's corner is cut to the page (612×792 points).
	status, _, b = c.do(http.MethodGet, base+"?dpi=144&x=600&y=780&w=100&h=100", nil)
	if status != http.StatusOK {
		t.Fatalf("area past the corner = %d %.200s", status, b)
	}
	if img, err := png.Decode(bytes.NewReader(b)); err != nil || img.Bounds().Dx() != 24 || img.Bounds().Dy() != 24 {
		t.Errorf("12×12 points left on the page at 144 DPI: %v, want 24×24 (%v)", img.Bounds(), err)
	}

	for _, tc := range []struct {
		name, query string
		want        int
		says        string
	}{
		{"a dpi over the cap", "dpi=601&x=0&y=0&w=10&h=10", 422, "dpi"},
		{"no dpi", "x=0&y=0&w=10&h=10", 422, "dpi"},
		{"an empty area", "dpi=144&x=0&y=0&w=0&h=10", 422, "w"},
		{"an area off the page", "dpi=144&x=5000&y=0&w=10&h=10", 422, "not on page 1"},
		{"the whole page at 600 DPI, over the pixel limit", "dpi=600&x=0&y=0&w=612&h=792", 422, "over the limit"},
		{"not a number", "dpi=144&x=left&y=0&w=10&h=10", 422, "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, h, b := c.do(http.MethodGet, base+"?"+tc.query, nil)
			if status != tc.want || h.Get("Content-Type") != "application/problem+json" || !strings.Contains(string(b), tc.says) {
				t.Errorf("%s = %d %s %s, want %d problem saying %q", tc.query, status, h.Get("Content-Type"), b, tc.want, tc.says)
			}
		})
	}
	if status, _, b := c.do(http.MethodGet, "/api/magazine/"+id+"/pages/9/view?dpi=144&x=0&y=0&w=10&h=10", nil); status != http.StatusNotFound {
		t.Errorf("a page the issue does not have = %d %s, want 404", status, b)
	}
}

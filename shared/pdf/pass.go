package pdf

import (
	"errors"
	"fmt"
	"image"
)

// What a MuPDF pass is asked for and gives back, the same in builds with
// MuPDF (mupdf.go) and without it (mupdf_nocgo.go).

// pageRun is what one MuPDF pass over a page produced.
type pageRun struct {
	pixels        []byte  // render passes: RGBA samples, w×h
	text          []byte  // text passes: glyph records, then the font names
	namesAt       int     // where the font names start in text
	textErr       error   // a render that also read the text: why the text could not be read
	w, h          int     // render pixels (render passes only)
	width, height float64 // page size in points
	errors        int     // errors MuPDF recovered from (a broken content stream, a bad image)
	firstError    string  // the first of them
}

// passWant is what a pass over a page makes: a render at dpi (0: none),
// its structured text, or both from the one loaded page. A render is drawn
// into pixels' bytes (nil: new ones).
type passWant struct {
	dpi    int
	text   bool
	pixels Pixels
	clip   [4]float64 // x, y, w, h in points; w or h 0: the whole page
}

// Pixels hands a render the n bytes (width×height×4) it is drawn into.
// MuPDF paints every byte, so bytes used before need no clearing: a caller
// that is done with a render may give its bytes to the next.
type Pixels func(n int) []byte

func (p Pixels) get(n int) []byte {
	if p != nil {
		if b := p(n); len(b) == n {
			return b
		}
	}
	return make([]byte, n)
}

// errAborted is returned when the context ended and MuPDF was told to stop.
var errAborted = errors.New("stopped: the page took too long")

// memoryError: MuPDF asked for more memory than the page's budget leaves.
type memoryError struct{ wanted, budget int64 }

func (e *memoryError) Error() string {
	return fmt.Sprintf("over memory budget: MuPDF asked for %s at once; a page may use at most %s", humanBytes(e.wanted), humanBytes(e.budget))
}

// image wraps a render's samples, already in image.RGBA's layout.
func (run pageRun) image() *image.RGBA {
	return &image.RGBA{Pix: run.pixels, Stride: 4 * run.w, Rect: image.Rect(0, 0, run.w, run.h)}
}

// errMuPDFPassword: MuPDF found the PDF needs a password.
var errMuPDFPassword = errors.New("the PDF needs a password")

package pdf

import (
	"bytes"
	"context"
	"errors"
	"image"
	"math"

	"github.com/lectern/lectern/shared/magazine"
	"golang.org/x/image/draw"
)

// Render draws one page (1-based) at dpi as opaque RGBA pixels, into bytes
// from pixels (nil: new ones). The page is checked first (CheckPage); a
// render over MaxRenderPixels and a page that takes longer than PageTimeout
// are refused with an *InvalidInputError naming the page.
func Render(ctx context.Context, data []byte, page, dpi int, lim Limits, pixels Pixels) (*image.RGBA, error) {
	if err := CheckPage(data, page, lim); err != nil {
		return nil, err
	}
	run, err := runLimited(ctx, data, page, passWant{dpi: dpi, pixels: pixels}, lim)
	if err != nil {
		return nil, err
	}
	return run.image(), nil
}

// RenderArea draws the part of a page inside clip ([x, y, w, h] in points
// from the page's top-left corner, cut to the page) at dpi, checked and
// bounded as Render is: a zoomed view drawn at the zoom's resolution costs
// the pixels of the part in view, not of the whole page.
func RenderArea(ctx context.Context, data []byte, page, dpi int, clip [4]float64, lim Limits) (*image.RGBA, error) {
	if clip[2] <= 0 || clip[3] <= 0 {
		return nil, invalid(ReasonRenderBudget, page, "the area to draw is empty")
	}
	if err := CheckPage(data, page, lim); err != nil {
		return nil, err
	}
	run, err := runLimited(ctx, data, page, passWant{dpi: dpi, clip: clip}, lim)
	if err != nil {
		return nil, err
	}
	return run.image(), nil
}

// Drawn is a page rendered and its text layer read in one MuPDF pass.
type Drawn struct {
	Image *image.RGBA
	Text  magazine.TextPage
	// TextErr says why the text layer could not be read; the render
	// stands (TextLayer would refuse the page with the same error).
	TextErr error
}

// RenderWithText draws a page as Render does and reads its text layer as
// TextLayer does, in one pass: the page is checked, loaded and its fonts
// read once, where a render and a text layer apart cost all of that twice.
func RenderWithText(ctx context.Context, data []byte, page, dpi int, lim Limits, pixels Pixels) (Drawn, error) {
	if err := CheckPage(data, page, lim); err != nil {
		return Drawn{}, err
	}
	run, err := runLimited(ctx, data, page, passWant{dpi: dpi, text: true, pixels: pixels}, lim)
	if err != nil {
		return Drawn{}, err
	}
	d := Drawn{Image: run.image(), TextErr: pageFailure(run.textErr, page, lim)}
	if d.TextErr == nil {
		d.Text, d.TextErr = textPage(run, page)
	}
	return d, nil
}

// MinFitDPI is the lowest resolution FitDPI goes down to: below it a page
// is too coarse to read or show.
const MinFitDPI = 100

// FitDPI is the highest resolution, at most want, at which a page of
// width×height points renders within maxPixels, but not below MinFitDPI. A
// page too large even at MinFitDPI gets want, so its render is refused as
// over budget.
func FitDPI(width, height float64, want int, maxPixels int64) int {
	pixels := func(dpi int) int64 {
		return int64(math.Ceil(width*float64(dpi)/72)) * int64(math.Ceil(height*float64(dpi)/72))
	}
	if width <= 0 || height <= 0 || pixels(want) <= maxPixels {
		return want
	}
	dpi := min(want, int(72*math.Sqrt(float64(maxPixels)/(width*height))))
	for dpi >= MinFitDPI && pixels(dpi) > maxPixels {
		dpi--
	}
	if dpi < MinFitDPI {
		return want
	}
	return dpi
}

// runLimited runs one MuPDF pass with the page timeout and turns its
// failures into page errors. A context the caller cancels stays a plain
// context error so the caller can tell shutdown from a hostile page.
func runLimited(ctx context.Context, data []byte, page int, want passWant, lim Limits) (pageRun, error) {
	tctx, cancel := context.WithTimeout(ctx, lim.PageTimeout)
	defer cancel()
	run, err := runPage(tctx, data, page-1, want, lim.MaxRenderPixels, lim.MaxMemoryBytes)
	if err == nil {
		// Errors MuPDF recovered from (a repaired xref, a missing builtin
		// font, a bad image) leave a page it could draw: the page ingests
		// with what was drawn. Undecodable drawing instructions are refused
		// before MuPDF runs (CheckPage).
		return run, nil
	}
	if ctx.Err() != nil {
		return pageRun{}, ctx.Err()
	}
	return pageRun{}, pageFailure(err, page, lim)
}

// pageFailure turns a failed MuPDF pass into the page's refusal.
func pageFailure(err error, page int, lim Limits) error {
	switch {
	case err == nil:
		return nil
	case errors.As(err, new(*memoryError)):
		return invalid(ReasonMemoryBudget, page, "%v", err)
	case errors.Is(err, errAborted):
		return invalid(ReasonTimeout, page, "MuPDF took longer than %s", lim.PageTimeout)
	case bytes.Contains([]byte(err.Error()), []byte("over the budget")):
		return invalid(ReasonRenderBudget, page, "%v", err)
	default:
		return invalid(ReasonBrokenPage, page, "%v", err)
	}
}

// Thumbnail scales img to width pixels wide, keeping its aspect ratio.
func Thumbnail(img image.Image, width int) *image.RGBA {
	b := img.Bounds()
	if b.Dx() <= width {
		width = b.Dx()
	}
	height := max(1, b.Dy()*width/max(1, b.Dx()))
	dst := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

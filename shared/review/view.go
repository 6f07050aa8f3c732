package review

import (
	"context"
	"fmt"
	"math"

	"github.com/lectern/lectern/shared/magazine"
)

// The zoomed view's limits: finer than 600 DPI shows nothing more of a
// print page, and 16 million pixels (a 4000×4000 PNG, 64 MB drawn) is far
// more than any screen shows at once.
const (
	MinViewDPI    = 36
	MaxViewDPI    = 600
	MaxViewPixels = 16_000_000
)

// ViewArea is the part of a page a view asks for, cut to the page; an area
// off the page, or one whose drawing would be over MaxViewPixels, is
// refused (ErrBadView) before anything is drawn.
func ViewArea(p magazine.Page, dpi int, box magazine.BBox) (magazine.BBox, error) {
	if dpi < MinViewDPI || dpi > MaxViewDPI {
		return box, fmt.Errorf("dpi %d is outside %d..%d: %w", dpi, MinViewDPI, MaxViewDPI, ErrBadView)
	}
	x0, y0 := math.Max(box[0], 0), math.Max(box[1], 0)
	x1, y1 := math.Min(box[0]+box[2], p.Width), math.Min(box[1]+box[3], p.Height)
	if box[2] <= 0 || box[3] <= 0 || x1-x0 <= 0 || y1-y0 <= 0 {
		return box, fmt.Errorf("the area [%g %g %g %g] is not on page %d (%g × %g points): %w", box[0], box[1], box[2], box[3], p.Number, p.Width, p.Height, ErrBadView)
	}
	area := magazine.BBox{x0, y0, x1 - x0, y1 - y0}
	scale := float64(dpi) / 72
	if pixels := math.Ceil(area[2]*scale) * math.Ceil(area[3]*scale); pixels > MaxViewPixels {
		return box, fmt.Errorf("drawing %g × %g points at %d DPI is %.0f pixels, over the limit of %d: ask for a smaller area or a lower dpi: %w",
			area[2], area[3], dpi, pixels, MaxViewPixels, ErrBadView)
	}
	return area, nil
}

// View draws a part of a page at dpi as PNG (ViewArea says which part).
func (e *Editor) View(ctx context.Context, issue string, page, dpi int, box magazine.BBox) ([]byte, error) {
	p, _, err := newState(e.Service, ctx, issue).Page(page)
	if err != nil {
		return nil, err
	}
	area, err := ViewArea(p, dpi, box)
	if err != nil {
		return nil, err
	}
	return e.pics.View(ctx, p, dpi, area)
}

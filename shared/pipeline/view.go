package pipeline

import (
	"context"
	"math"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
)

// View draws a part of a page (box in points, already on the page) at dpi
// as PNG, from the page's PDF: the review workspace's zoomed view, sharp
// at any zoom while the stored render is drawn at the ingest's DPI. It
// waits for room in the process's render memory like every other render.
func (m *Pages) View(ctx context.Context, page magazine.Page, dpi int, box magazine.BBox) ([]byte, error) {
	pdfs, err := m.openPDFs(ctx, page.IssueID)
	if err != nil {
		return nil, err
	}
	data, at, err := pdfs.page(ctx, page.Number)
	if err != nil {
		return nil, err
	}
	px := func(points float64) int64 { return int64(math.Ceil(points*float64(dpi)/72)) + 1 }
	release, err := m.reserve(ctx, px(box[2])*px(box[3])*(4+3))
	if err != nil {
		return nil, err
	}
	defer release()
	img, err := pdf.RenderArea(ctx, data, at, dpi, box, m.Limits)
	if err != nil {
		return nil, pageNumbered(err, page.Number)
	}
	return pdf.EncodePNG(img)
}

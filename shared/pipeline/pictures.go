package pipeline

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
)

// Crop stores the render's exact pixels at the region's box. The key carries
// the issue revision, so an undo that restores an older box also restores
// the crop that was cut for it.
func (s *Steps) Crop(ctx context.Context, page magazine.Page, r magazine.Region, rev int64) (string, error) {
	img, err := s.loadRenderImage(ctx, page)
	if err != nil {
		return "", err
	}
	crop, err := magazine.CropPixels(img, magazine.PixelRect(r.BBox, float64(page.DPI)/72, img.Bounds()))
	if err != nil {
		return "", &pdf.InvalidInputError{Reason: "bad-box", Page: page.Number, Detail: err.Error()}
	}
	b, err := pdf.EncodePNG(crop)
	if err != nil {
		return "", err
	}
	key := fmt.Sprintf("issues/%s/crops/%04d/%s-r%d.png", page.IssueID, page.Number, r.ID, rev)
	return key, s.put(ctx, key, b)
}

// ReadArea reads the text inside a box of a page: the PDF's own text layer
// when it has text there, else the OCR chain on the area rendered at
// TesseractDPI. "" means nothing readable.
func (s *Steps) ReadArea(ctx context.Context, page magazine.Page, box magazine.BBox) (string, error) {
	data, err := s.source(ctx, page.IssueID)
	if err != nil {
		return "", err
	}
	tp, err := pdf.TextLayer(ctx, data, page.Number, s.Limits)
	if err != nil {
		return "", err
	}
	var inside []magazine.TextBlock
	for _, b := range tp.Blocks {
		cx, cy := b.BBox[0]+b.BBox[2]/2, b.BBox[1]+b.BBox[3]/2
		if cx >= box[0] && cx <= box[0]+box[2] && cy >= box[1] && cy <= box[1]+box[3] {
			inside = append(inside, b)
		}
	}
	if len(inside) > 0 {
		sort.SliceStable(inside, func(i, j int) bool { return inside[i].BBox[1] < inside[j].BBox[1] })
		parts := make([]string, len(inside))
		for i, b := range inside {
			parts[i] = b.Text
		}
		return strings.Join(parts, " "), nil
	}
	chain := OCRChain{}
	if s.OCR != nil {
		if chain, err = s.OCR(ctx); err != nil {
			return "", err
		}
	}
	full, err := pdf.Render(ctx, data, page.Number, TesseractDPI, s.Limits)
	if err != nil {
		return "", err
	}
	area := func(dpi int) (PageImage, error) {
		crop, err := magazine.CropPixels(full, magazine.PixelRect(box, float64(TesseractDPI)/72, full.Bounds()))
		if err != nil {
			return PageImage{}, err
		}
		png, err := pdf.EncodePNG(crop)
		return PageImage{PNG: png, Width: crop.Bounds().Dx(), Height: crop.Bounds().Dy(), DPI: dpi}, err
	}
	img, err := area(TesseractDPI)
	if err != nil {
		return "", nil // a box outside the page has nothing to read
	}
	rec, err := chain.Recognize(ctx, PageInput{
		Width: box[2], Height: box[3], Render: img,
		HighRes: func(context.Context) (PageImage, error) { return img, nil },
	})
	if err != nil {
		return "", nil // no engine could read it: nothing readable
	}
	var parts []string
	for _, r := range rec.Regions {
		if t := strings.TrimSpace(r.Text); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " "), nil
}

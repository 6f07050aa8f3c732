package pipeline

import (
	"context"
	"image"
	"testing"

	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// scanPDF is one page of w×h points that is only a picture (a scan without
// a text layer).
func scanPDF(w, h float64) []byte {
	d := &pdftest.Doc{}
	scan := image.NewRGBA(image.Rect(0, 0, 40, 50))
	for i := range scan.Pix {
		scan.Pix[i] = uint8(40 + i%151)
	}
	d.AddPage(w, h).Image(0, 0, w, h, scan)
	return d.Bytes()
}

// renderRecognize prepares data as an issue and runs Render and Recognize
// on page 1 with tess as the only OCR engine.
func (f *stepsFixture) renderRecognize(t *testing.T, data []byte, tess *fakeTesseract) magazine.Page {
	t.Helper()
	f.steps.Pages.OCR = func(context.Context) (OCRChain, error) { return OCRChain{Tesseract: tess}, nil }
	id := f.upload(t, data)
	if _, err := f.steps.Prepare(t.Context(), PrepareInput{SourceKey: issues.SourceKey(id)}); err != nil {
		t.Fatal(err)
	}
	ref := PageRef{IssueID: id, Page: 1}
	if _, err := f.steps.Render(t.Context(), ref); err != nil {
		t.Fatalf("Render: %v", err)
	}
	if _, err := f.steps.Recognize(t.Context(), ref); err != nil {
		t.Fatalf("Recognize: %v", err)
	}
	return f.page(t, id, 1)
}

func TestPictureOnlyPageIngestsAsAPicture(t *testing.T) {
	f := newStepsFixture(t)
	p := f.renderRecognize(t, scanPDF(612, 792), &fakeTesseract{}) // Tesseract finds no text
	if len(p.Regions) != 1 || p.Regions[0].Kind != magazine.KindImage || p.Regions[0].Text != "" {
		t.Fatalf("regions = %+v, want one picture", p.Regions)
	}
	if p.Engine != EngineTesseract || p.Error != "" {
		t.Errorf("engine %q, error %q", p.Engine, p.Error)
	}
}

func TestHugeScanRendersWithinTheBudget(t *testing.T) {
	f := newStepsFixture(t)
	// A 17×22 inch scan: 8.4 million pixels at 150 DPI and 34 million at
	// 300, against a budget of 4 million (the default is 60 million; the
	// page is scaled down with it to keep the test quick).
	f.steps.Pages.Limits.MaxRenderPixels = 4_000_000
	tess := &fakeTesseract{blocks: []tesseract.Block{{BBox: [4]float64{72, 72, 300, 20}, Text: "Scanned words on a huge page", Lines: 1, LineHeight: 14, Confidence: 90}}}
	p := f.renderRecognize(t, scanPDF(1224, 1584), tess)
	if p.DPI < 100 || p.DPI >= DefaultDPI {
		t.Fatalf("render DPI %d, want the finest within the budget, at least 100", p.DPI)
	}
	if size := f.pngSize(t, p.RenderKey); int64(size.X)*int64(size.Y) > 4_000_000 || size.X != (1224*p.DPI+71)/72 {
		t.Errorf("render is %v pixels at %d DPI", size, p.DPI)
	}
	if got := int(tess.dpi.Load()); got != p.OCRDPI || got < 100 || got >= TesseractDPI {
		t.Errorf("tesseract read at %d DPI, page records %d", got, p.OCRDPI)
	}
	if p.Engine != EngineTesseract || len(p.Regions) == 0 {
		t.Errorf("engine %q, regions %+v", p.Engine, p.Regions)
	}
}

package app

import (
	"bytes"
	"context"
	"image"
	"image/draw"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// textPicture is a picture of a letter page printed with pdftest.ScanBody,
// 12 pt from (72, 100): a real PDF page rendered at dpi.
func textPicture(t *testing.T, dpi int) image.Image {
	t.Helper()
	var src pdftest.Doc
	p := src.AddPage(612, 792)
	for i, l := range pdftest.ScanBody {
		p.Text(72, 100+float64(i)*16, 12, false, l)
	}
	img, err := pdf.Render(context.Background(), src.Bytes(), 1, dpi, pdf.DefaultLimits(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// scannedPage is a page that is one picture of printed text (textPicture at
// 150 DPI, grey paper), optionally with a halftone photo
// under the text, and the given invisible OCR layer over it.
func scannedPage(t *testing.T, photo bool, layer []string) []byte {
	t.Helper()
	img := textPicture(t, 150)
	// Grey paper with scanner noise, worked on the pixel rows (a call per
	// pixel is slow under -race).
	scan := image.NewGray(img.Bounds())
	draw.Draw(scan, scan.Bounds(), img, img.Bounds().Min, draw.Src)
	rng := rand.New(rand.NewPCG(1, 2))
	for i, v := range scan.Pix {
		scan.Pix[i] = uint8(int(v)*220/255 + rng.IntN(8))
	}
	if photo { // a halftone photograph at (300, 400), 240 × 180 pt
		for y := 400 * 150 / 72; y < 580*150/72; y++ {
			row := scan.Pix[scan.PixOffset(0, y):]
			for x := 300 * 150 / 72; x < 540*150/72; x++ {
				if (x+y)%3 != 0 {
					row[x] = uint8(40 + (x*y)%60)
				}
			}
		}
	}
	var d pdftest.Doc
	page := d.AddPage(612, 792).Image(0, 0, 612, 792, scan)
	for i, l := range layer {
		page.Invisible(72, 100+float64(i)*16, 12, l)
	}
	return d.Bytes()
}

// TestScanTextLayer: a scan's OCR layer is judged before it is read aloud.
// A misread layer is set aside for Tesseract (and the page says why); a good
// one is kept; either way the scan itself is not one page-sized picture
// region, and a photograph on it is found from the render.
func TestScanTextLayer(t *testing.T) {
	mag := magazineOf(t, openTestLocal(t, "http://127.0.0.1", 2))
	ingest := func(name string, data []byte) magazine.Page { return ingestOnePage(t, mag, name, data) }
	pictures := func(p magazine.Page) []magazine.BBox {
		var out []magazine.BBox
		for _, r := range p.Regions {
			if magazine.IsVisual(r.Kind) {
				out = append(out, r.BBox)
			}
		}
		return out
	}

	misread := ingest("misread.pdf", scannedPage(t, false, pdftest.MisreadBody))
	text := readAloud(misread)
	if misread.Engine != "tesseract" || !strings.Contains(misread.EngineNote, "set aside") || !strings.Contains(misread.EngineNote, "dictionary words") {
		t.Errorf("misread layer: engine %q, note %q; want tesseract and why", misread.Engine, misread.EngineNote)
	}
	if !strings.Contains(text, "agreed that the work should begin") || strings.Contains(text, "tbe") {
		t.Errorf("misread layer: read aloud %q", text)
	}
	if got := pictures(misread); len(got) != 0 {
		t.Errorf("misread layer: a page of type has pictures %v", got)
	}

	good := ingest("good.pdf", scannedPage(t, true, pdftest.ScanBody))
	if good.Engine != "text-layer" || good.EngineNote != "" {
		t.Errorf("good layer: engine %q, note %q; want the text layer", good.Engine, good.EngineNote)
	}
	if text := readAloud(good); !strings.Contains(text, "agreed that the work should begin before the winter storms arrive.") {
		t.Errorf("good layer: read aloud %q", text)
	}
	got := pictures(good)
	if len(got) != 1 || got[0].Overlap(magazine.BBox{300, 400, 240, 180}) < 0.8*240*180 || got[0].Area() > 1.3*240*180 {
		t.Errorf("good layer: pictures %v, want the photo at [300 400 240 180]", got)
	}
}

// ingestOnePage ingests a one-page PDF, which must end ready, and returns
// its page.
func ingestOnePage(t *testing.T, mag *magazineapi.Parts, name string, data []byte) magazine.Page {
	t.Helper()
	ctx := context.Background()
	is, err := mag.IngestFile(ctx, name, bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if is.Status != magazine.IssueReady || len(is.PageErrors) > 0 {
		t.Fatalf("%s: issue %s %s %+v", name, is.Status, is.Error, is.PageErrors)
	}
	pages, err := mag.Issues.Repo.Pages(ctx, is.ID)
	if err != nil || len(pages) != 1 {
		t.Fatalf("%s: pages %v %v", name, len(pages), err)
	}
	return pages[0]
}

// TestShortTextLayer: a text layer of fewer than MinRealTextChars letters
// and digits is read by OCR too, and kept when OCR reads no more of it: a
// title page's few exact words are not traded for Tesseract's reading of
// them (it may miss a small line under a huge one, or text under an
// annotation), while a scan that carries only a stray label is read by
// OCR. A table of figures without a letter is text, not a page to OCR.
func TestShortTextLayer(t *testing.T) {
	mag := magazineOf(t, openTestLocal(t, "http://127.0.0.1", 2))

	var title pdftest.Doc
	title.AddPage(612, 792).Text(72, 200, 40, true, "Spring Issue").Text(72, 260, 14, false, "Vol. 2")
	page := ingestOnePage(t, mag, "title.pdf", title.Bytes())
	if page.Engine != "text-layer" || !strings.Contains(page.EngineNote, "only 15 letters and digits") {
		t.Errorf("title page: engine %q, note %q; want the text layer, kept though short", page.Engine, page.EngineNote)
	}
	if text := readAloud(page); !strings.Contains(text, "Spring Issue") || !strings.Contains(text, "Vol. 2") {
		t.Errorf("title page: read aloud %q", text)
	}

	var figures pdftest.Doc
	table := figures.AddPage(612, 792)
	for i, row := range []string{"1,204      3,518      77.2", "2,871      4,090      81.5", "3,330      5,127      84.9"} {
		table.Text(72, 100+float64(i)*16, 11, false, row)
	}
	page = ingestOnePage(t, mag, "figures.pdf", figures.Bytes())
	if page.Engine != "text-layer" || page.EngineNote != "" {
		t.Errorf("table of figures: engine %q, note %q; want the text layer", page.Engine, page.EngineNote)
	}
	if text := readAloud(page); !strings.Contains(text, "4,090") {
		t.Errorf("table of figures: read aloud %q", text)
	}

	// A Chinese scan whose layer holds only its date: chi_sim reads more.
	var src pdftest.Doc
	cn := src.AddPage(612, 792)
	for i, l := range []string{"关于浙江菲达环保科技股份有限公司", "年度报告中有关财务事项的说明", "当事人申领编号为进料加工手册", "备案出口主蒸汽管道配管成品"} {
		cn.Chinese(60, 80+float64(i)*40, 20, l)
	}
	img, err := pdf.Render(context.Background(), src.Bytes(), 1, 200, pdf.DefaultLimits(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var scan pdftest.Doc
	scan.AddPage(612, 792).Image(0, 0, 612, 792, img).Invisible(400, 700, 12, "2021 3 31")
	page = ingestOnePage(t, mag, "chinese.pdf", scan.Bytes())
	if page.Engine != "tesseract" || !strings.Contains(page.EngineNote, "set aside: it holds only 7 letters and digits") {
		t.Errorf("Chinese scan dated in its layer: engine %q, note %q; want Tesseract, and why", page.Engine, page.EngineNote)
	}
	if text := readAloud(page); !strings.Contains(strings.ReplaceAll(text, " ", ""), "当事人申领编号") {
		t.Errorf("Chinese scan dated in its layer: read aloud %q", text)
	}

	labelled := ingestOnePage(t, mag, "labelled.pdf", scannedPage(t, false, []string{"Page 3"}))
	if labelled.Engine != "tesseract" || !strings.Contains(labelled.EngineNote, "set aside: it holds only 5 letters and digits") {
		t.Errorf("scan with a label: engine %q, note %q; want Tesseract, and why", labelled.Engine, labelled.EngineNote)
	}
	if text := readAloud(labelled); !strings.Contains(text, "agreed that the work should begin") {
		t.Errorf("scan with a label: read aloud %q", text)
	}
}

// pictureOf is a PDF whose one page is a 200 DPI picture of the page that
// set lays out: a scan with no text layer at all.
func pictureOf(t *testing.T, set func(p *pdftest.Page)) []byte {
	t.Helper()
	return picturesOf(t, 1, func(p *pdftest.Page, _ int) { set(p) })
}

// picturesOf is pictureOf for n pages; set lays out page i (0-based).
func picturesOf(t *testing.T, n int, set func(p *pdftest.Page, i int)) []byte {
	t.Helper()
	var d pdftest.Doc
	for i := range n {
		var src pdftest.Doc
		set(src.AddPage(612, 792), i)
		img, err := pdf.Render(context.Background(), src.Bytes(), 1, 200, pdf.DefaultLimits(), nil)
		if err != nil {
			t.Fatal(err)
		}
		d.AddPage(612, 792).Image(0, 0, 612, 792, img)
	}
	return d.Bytes()
}

// scannedIssue is three scanned pages with a running head and a footer that
// read as sentences in body type: only their repetition marks them as
// furniture.
func scannedIssue(p *pdftest.Page, i int) {
	p.Text(72, 30, 12, false, "The harbour gazette is read in every house of the town")
	for k, l := range pdftest.ScanBody {
		p.Text(72, 100+float64(k)*16, 12, false, l)
	}
	p.Text(72, 400, 12, false, "Page "+strconv.Itoa(i+1)+" of the report on the harbour.")
	p.Text(72, 750, 12, false, "and the fishermen take it with them out to the sea")
}

// twoShortColumns sets a headline over two columns of five lines: tesseract
// takes columns this short for one block and runs each line on across the
// gutter.
func twoShortColumns(p *pdftest.Page) {
	p.Text(72, 40, 24, true, "Harbour News Tonight")
	left := []string{"The harbour board met on Tuesday to", "discuss the new pier and agreed that", "the work should begin before winter.", "Fishermen have waited for years for", "a safe place to land their catch."}
	right := []string{"The council will meet again in the", "spring to choose a builder and to", "decide how the cost is to be shared.", "Visitors are expected to return once", "the pier is open to the public."}
	for i := range left {
		p.Text(72, 120+float64(i)*14, 11, false, left[i])
		p.Text(320, 120+float64(i)*14, 11, false, right[i])
	}
}

// scannedRunningHead is one scanned book page whose top line is a running
// head: folio, the book's title in capitals and a bracketed chapter mark
// (issue 34, class 2). One page: no repetition to find it by.
func scannedRunningHead(p *pdftest.Page) {
	p.Text(72, 50, 11, false, "12")
	p.Text(220, 50, 11, false, "THE HARBOUR GAZETTE")
	p.Text(470, 50, 11, false, "[CHAP. III")
	for k, l := range pdftest.ScanBody {
		p.Text(72, 100+float64(k)*16, 12, false, l)
	}
}

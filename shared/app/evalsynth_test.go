package app

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/evalbench"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
	"github.com/lectern/lectern/shared/pipeline"
)

// synthPage is one generated page for a failure class of issue 10, with the
// checks that class must pass (olmOCR-bench types, as in checks.jsonl).
type synthPage struct {
	name   string
	class  string
	build  func() []byte
	checks []evalbench.Check
}

// writeBody sets the first four lines of pdftest.ScanBody as one paragraph
// of 10 pt lines from (x, top): sentences a reader must hear.
func writeBody(p *pdftest.Page, x, top float64) *pdftest.Page {
	for i, l := range pdftest.ScanBody[:4] {
		p.Text(x, top+float64(i)*12, 10, false, l)
	}
	return p
}

func present(text string, diffs int) evalbench.Check {
	return evalbench.Check{Type: "present", Text: text, MaxDiffs: diffs}
}

func absent(text string, diffs int) evalbench.Check {
	return evalbench.Check{Type: "absent", Text: text, MaxDiffs: diffs}
}

func order(before, after string, diffs int) evalbench.Check {
	return evalbench.Check{Type: "order", Before: before, After: after, MaxDiffs: diffs}
}

var bodyPresent = present("agreed that the work should begin before the winter storms arrive.", 2)

// synthPages: at least one generated page per failure class of issue 10.
func synthPages(t *testing.T) []synthPage {
	doc := func(setup func(d *pdftest.Doc)) func() []byte {
		return func() []byte {
			var d pdftest.Doc
			setup(&d)
			return d.Bytes()
		}
	}
	return []synthPage{
		{"contents-array", "1-valid-pdfs", doc(func(d *pdftest.Doc) {
			p := d.AddPage(612, 792)
			p.SplitContents = true
			p.Text(72, 60, 24, true, "Harbour News")
			writeBody(p, 72, 120)
		}), []evalbench.Check{present("Harbour News", 0), bodyPresent}},
		{"broken-xref", "1-valid-pdfs", doc(func(d *pdftest.Doc) {
			d.WrongXRef = true
			writeBody(d.AddPage(612, 792), 72, 120)
		}), []evalbench.Check{bodyPresent}},
		{"sizeless-picture", "1-valid-pdfs", doc(func(d *pdftest.Doc) {
			p := d.AddPage(612, 792).SizelessPicture(72, 300, 200, 150)
			writeBody(p, 72, 120)
		}), []evalbench.Check{bodyPresent}},
		{"cjk-font-not-embedded", "1-valid-pdfs", doc(func(d *pdftest.Doc) {
			p := d.AddPage(595, 842).Chinese(100, 100, 16, "关于浙江菲达环保科技股份有限公司")
			writeBody(p, 72, 160)
		}), []evalbench.Check{present("关于浙江菲达环保科技股份有限公司", 0), bodyPresent}},
		{"huge-scan", "2-huge-scans", func() []byte { return hugeScan(t) }, []evalbench.Check{
			present("agreed that the work should begin before the winter storms arrive.", 3),
			present("and to decide how the cost of the work is to be shared out.", 3),
		}},
		{"single-page-furniture", "3-furniture", doc(func(d *pdftest.Doc) {
			p := d.AddPage(612, 792)
			p.Text(72, 20, 7, false, "Downloaded from www.example.org on 3 May 2022")
			p.Text(420, 30, 8, false, "Journal of Harbours, Vol. 12, No. 3")
			writeBody(p, 72, 120)
			p.Text(72, 760, 8, false, "Page 1 of 1")
			p.Text(250, 760, 8, false, "Harbour Reporting Company")
		}), []evalbench.Check{
			absent("Downloaded from www.example.org", 2), absent("Journal of Harbours", 1),
			absent("Page 1 of 1", 0), absent("Harbour Reporting Company", 2), bodyPresent,
		}},
		{"footer-row-above-band", "3-furniture", doc(func(d *pdftest.Doc) {
			// A document footer (revision, page N of M, part number) set
			// 90 pt from the foot, in body size: above the outer tenth
			// FurnitureBand asks for. The closing paragraph mentions a
			// date and must still be read.
			p := d.AddPage(612, 792)
			writeBody(p, 72, 120)
			p.Text(72, 640, 10, false, "The harbour board will meet again on 3 May 2022 at the town hall.")
			p.Text(72, 700, 10, false, "Rev. C 04/2019")
			p.Text(270, 700, 10, false, "Page 2 of 7")
			p.Text(450, 700, 10, false, "Doc. No. HB-4471")
		}), []evalbench.Check{
			absent("Rev. C 04/2019", 1), absent("Page 2 of 7", 0), absent("Doc. No. HB-4471", 1), bodyPresent,
			present("The harbour board will meet again on 3 May 2022 at the town hall.", 1),
		}},
		{"date-line-closing-page", "3-furniture", doc(func(d *pdftest.Doc) {
			// Negative: the last line of the page, low on it and set apart,
			// is a sentence with a date: text, not a footer.
			p := d.AddPage(612, 792)
			writeBody(p, 72, 120)
			p.Text(72, 730, 10, false, "Signed for the harbour board on 3 May 2022 by its clerk")
		}), []evalbench.Check{present("Signed for the harbour board on 3 May 2022 by its clerk", 1), bodyPresent}},
		{"printed-stamp-after-text", "3-furniture", doc(func(d *pdftest.Doc) {
			// A report's printing stamp right under its last line, mid-page.
			p := d.AddPage(595, 842)
			writeBody(p, 72, 120)
			p.Text(72, 200, 10, false, "Printed: 16.11.2012 21:07:09")
		}), []evalbench.Check{absent("Printed: 16.11.2012", 1), bodyPresent}},
		{"single-scan-running-head", "3-furniture", func() []byte { return pictureOf(t, scannedRunningHead) },
			[]evalbench.Check{
				absent("THE HARBOUR GAZETTE", 2), absent("CHAP. III", 1),
				present("agreed that the work should begin before the winter storms arrive.", 3),
				order("The harbour board met on Tuesday", "and to decide how the cost", 3),
			}},
		{"justified-columns-and-drop-cap", "4-lines", doc(func(d *pdftest.Doc) {
			p := d.AddPage(612, 792)
			p.Text(72, 60, 24, true, "The Silted Harbour")
			last := len(justifiedLeft) - 1
			for i := range last {
				p.Justified(72, 110+float64(i)*12, 220, 10, justifiedLeft[i])
				p.Justified(320, 110+float64(i)*12, 220, 10, justifiedRight[i])
			}
			p.Text(72, 110+float64(last)*12, 10, false, justifiedLeft[last])
			p.Text(320, 110+float64(last)*12, 10, false, justifiedRight[last])
			w := p.DropCap(72, 200, 10, 12, 3, "O")
			p.Justified(72+w+3, 200, 220-w-3, 10, "ver the years the harbour")
			p.Justified(72+w+3, 212, 220-w-3, 10, "has silted up, and the boats")
			p.Justified(72+w+3, 224, 220-w-3, 10, "must wait for the tide to")
			p.Text(72, 236, 10, false, "come in before they can land.")
		}), []evalbench.Check{
			present("The harbour board met on Tuesday to discuss the new pier, and agreed that the construction should begin", 2),
			present("Fishermen have waited for years for a safe place to land their catch, and the townspeople hope", 2),
			order("when the boats cannot leave the harbour for weeks.", "Fishermen have waited", 0),
			present("Over the years the harbour has silted up, and the boats must wait for the tide to come in", 1),
			order("The Silted Harbour", "Over the years", 0),
		}},
		{"accents-and-tex-quotes", "5-characters", doc(func(d *pdftest.Doc) {
			p := d.AddPage(612, 792)
			// WinAnsi: 0xB4 is a spacing acute after its letter, 0x91 and
			// 0x92 the single quotes LaTeX doubles into “ and ”.
			p.Raw("BT /F1 10 Tf 72 600 Td (The re\xb4sume\xb4 of the \x91\x91harbour master\x92\x92 was read.) Tj ET\n")
			writeBody(p, 72, 120)
		}), []evalbench.Check{present("The résumé of the “harbour master” was read.", 0), bodyPresent}},
		{"captions-without-space-glyphs", "5-characters", doc(func(d *pdftest.Doc) {
			// Words moved apart by TJ kerning, and glyphs placed one by one,
			// 0.12 em apart: under the gap MuPDF makes a space of.
			p := d.AddPage(612, 792).Image(72, 200, 200, 120, tinted(200, 120)).Image(320, 200, 200, 120, tinted(200, 120))
			p.Kerned(72, 326, 8, 0.12, "Figure 2 The pier at dawn, seen from the harbour wall")
			p.Glyphwise(320, 326, 8, 0.12, "Figure 3 Boats wait for the tide in the outer harbour")
			writeBody(p, 72, 120)
		}), []evalbench.Check{
			present("Figure 2 The pier at dawn, seen from the harbour wall", 1),
			present("Figure 3 Boats wait for the tide in the outer harbour", 1),
			bodyPresent,
		}},
		{"text-on-a-background-picture", "6-text-on-pictures", doc(func(d *pdftest.Doc) {
			p := d.AddPage(612, 792).Image(60, 100, 480, 120, tinted(480, 120))
			writeBody(p, 72, 120)
		}), []evalbench.Check{bodyPresent}},
		{"misread-scan-layer", "7-bad-text-layers", func() []byte { return scannedPage(t, false, pdftest.MisreadBody) },
			[]evalbench.Check{
				present("agreed that the work should begin before the winter storms arrive.", 3),
				present("Fishermen have waited for years for a safe place to land their", 3),
				absent("Tne harbonr bnard", 2),
			}},
		{"scan-two-short-columns", "7-bad-text-layers", func() []byte { return pictureOf(t, twoShortColumns) },
			[]evalbench.Check{
				present("The harbour board met on Tuesday to discuss the new pier and agreed that the work should begin before winter.", 3),
				order("Fishermen have waited for years", "The council will meet again", 2),
				present("Harbour News Tonight", 1),
			}},
		{"scanned-running-heads", "3-furniture", func() []byte { return picturesOf(t, 3, scannedIssue) },
			[]evalbench.Check{
				absent("The harbour gazette is read in every house of the town", 3),
				absent("and the fishermen take it with them out to the sea", 3),
				present("agreed that the work should begin before the winter storms arrive.", 3),
			}},
		{"footnote-table-url", "8-kinds", doc(func(d *pdftest.Doc) {
			p := d.AddPage(612, 792)
			writeBody(p, 72, 100)
			p.Text(72, 170, 10, false, "www.example.org/harbour")
			for r, row := range [][]string{{"Berth", "Length", "Depth"}, {"North", "120 m", "8 m"}, {"South", "95 m", "6 m"}, {"East", "60 m", "4 m"}} {
				for c, cell := range row {
					p.Text(72+float64(c)*150, 220+float64(r)*14, 10, false, cell)
				}
			}
			p.Text(72, 700, 7, false, "1 The depths are given at the lowest tide of the year.")
		}), []evalbench.Check{
			present("North 120 m 8 m", 1), order("North", "South", 0), present("www.example.org/harbour", 0),
			absent("The depths are given at the lowest tide", 2), bodyPresent,
		}},
	}
}

// TestEvalSynthetic ingests a generated page for each failure class of issue
// 10 through the real local pipeline and scores its read-aloud text, and
// `pdftotext`'s, with the same checks. Every Lectern check must pass.
func TestEvalSynthetic(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext (poppler-utils) is not installed; make deps installs it")
	}
	mag := magazineOf(t, openTestLocal(t, "http://127.0.0.1", 2))
	ctx := context.Background()
	dir := t.TempDir()
	var checks []evalbench.Check
	lectern, poppler := map[string]string{}, map[string]string{}
	for _, sp := range synthPages(t) {
		data := sp.build()
		path := filepath.Join(dir, sp.name+".pdf")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("pdftotext", "-f", "1", "-l", "1", path, "-").Output()
		if err != nil {
			t.Logf("%s: pdftotext: %v", sp.name, err)
		}
		poppler[sp.name] = string(out)
		is, err := mag.IngestFile(ctx, sp.name, bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: refused: %v", sp.name, err)
			continue
		}
		if is.Status != magazine.IssueReady || len(is.PageErrors) > 0 {
			t.Errorf("%s: issue %s: %s %+v", sp.name, is.Status, is.Error, is.PageErrors)
		}
		pages, err := mag.Issues.Repo.Pages(ctx, is.ID)
		if err != nil || len(pages) == 0 {
			t.Fatalf("%s: pages: %v", sp.name, err)
		}
		lectern[sp.name] = readAloud(pages[0])
		if check := synthPageChecks[sp.name]; check != nil {
			if err := check(pages[0]); err != nil {
				t.Errorf("%s: %v", sp.name, err)
			}
		}
		for i, c := range sp.checks {
			c.PDF, c.Page, c.ID, c.Category = sp.name, 1, fmt.Sprintf("%s_%d", sp.name, i+1), sp.class
			if err := c.Validate(); err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			checks = append(checks, c)
			if !c.Pass(lectern[sp.name]) {
				t.Errorf("lectern fails %s (%s): %+v\nread aloud: %q", c.ID, c.Category, c, lectern[sp.name])
			}
		}
	}
	ours := evalbench.Score(checks, func(pdf string, _ int) string { return lectern[pdf] })
	theirs := evalbench.Score(checks, func(pdf string, _ int) string { return poppler[pdf] })
	var classes []string
	for c := range ours {
		if c != "all" {
			classes = append(classes, c)
		}
	}
	slices.Sort(classes)
	var table strings.Builder
	fmt.Fprintf(&table, "%d checks on %d generated pages\n%-22s %12s %12s\n", len(checks), len(lectern), "class", "lectern", "pdftotext")
	for _, c := range append(classes, "all") {
		fmt.Fprintf(&table, "%-22s %5d / %-4d %5d / %-4d\n", c, ours[c].Pass, ours[c].Total, theirs[c].Pass, theirs[c].Total)
	}
	t.Log("\n" + table.String())
}

// tinted is a pale card a page sets text on.
func tinted(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{C: color.RGBA{R: 214, G: 226, B: 240, A: 255}}, image.Point{}, draw.Src)
	return img
}

// Two justified columns set on the same baselines, each word placed on its
// own 1.1 to 2.4 em from the next, the columns 28 pt (2.8 em) apart; the
// last line of each is set ragged (issue 10, class 4).
var (
	justifiedLeft = []string{
		"The harbour board met on Tuesday",
		"to discuss the new pier, and agreed",
		"that the construction should begin",
		"before the winter storms arrive,",
		"when the boats cannot leave the",
		"harbour for weeks.",
	}
	justifiedRight = []string{
		"Fishermen have waited for years for",
		"a safe place to land their catch, and",
		"the townspeople hope that this",
		"new pier will bring visitors back",
		"to the shops and cafes along the",
		"harbour front.",
	}
)

// synthPageChecks check a generated page beyond its text, by page name.
var synthPageChecks = map[string]func(magazine.Page) error{
	// The huge scan is read by Tesseract at the finest DPI the pixel budget
	// allows, and the page records it.
	"huge-scan": func(p magazine.Page) error {
		if p.Engine != pipeline.EngineTesseract || p.OCRDPI < 100 || p.OCRDPI >= 300 {
			return fmt.Errorf("read by %q at %d DPI, want tesseract within the pixel budget (100 to 299 DPI)", p.Engine, p.OCRDPI)
		}
		return nil
	},
}

// hugeScan is a 27 × 35 inch page that is one scanned picture of printed
// text: 300 DPI would take 85 million pixels, over the budget of 60 million,
// so OCR must read it at the finest DPI within the budget. The picture
// itself is small (the text rendered at 120 DPI, then drawn over the page).
func hugeScan(t *testing.T) []byte {
	t.Helper()
	var d pdftest.Doc
	d.AddPage(1944, 2516).Image(0, 0, 1944, 2516, textPicture(t, 120))
	return d.Bytes()
}

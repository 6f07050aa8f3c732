package app

import (
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
)

// synthPage is one generated page for a failure class of issue 10, with the
// checks that class must pass (olmOCR-bench types, as in checks.jsonl).
type synthPage struct {
	name   string
	class  string
	build  func() []byte
	checks []evalbench.Check
}

// synthBody is body text: sentences a reader must hear, one line each.
var synthBody = []string{
	"The harbour board met on Tuesday to discuss the new pier and",
	"agreed that the work should begin before the winter storms arrive.",
	"Fishermen have waited for years for a safe place to land their",
	"catch, and the town hopes the pier will bring visitors back.",
}

// writeBody sets synthBody as one paragraph of 10 pt lines from (x, top).
func writeBody(p *pdftest.Page, x, top float64) *pdftest.Page {
	for i, l := range synthBody {
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
		{"accents-and-tex-quotes", "5-characters", doc(func(d *pdftest.Doc) {
			p := d.AddPage(612, 792)
			// WinAnsi: 0xB4 is a spacing acute after its letter, 0x91 and
			// 0x92 the single quotes LaTeX doubles into “ and ”.
			p.Raw("BT /F1 10 Tf 72 600 Td (The re\xb4sume\xb4 of the \x91\x91harbour master\x92\x92 was read.) Tj ET\n")
			writeBody(p, 72, 120)
		}), []evalbench.Check{present("The résumé of the “harbour master” was read.", 0), bodyPresent}},
		{"text-on-a-background-picture", "6-text-on-pictures", doc(func(d *pdftest.Doc) {
			p := d.AddPage(612, 792).Image(60, 100, 480, 120, tinted(480, 120))
			writeBody(p, 72, 120)
		}), []evalbench.Check{bodyPresent}},
		{"misread-scan-layer", "7-bad-text-layers", func() []byte { return scannedPage(t, false, misreadBody) },
			[]evalbench.Check{
				present("agreed that the work should begin before the winter storms arrive.", 3),
				present("Fishermen have waited for years for a safe place to land their", 3),
				absent("Tne harbonr bnard", 2),
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
		is, err := mag.IngestFile(ctx, sp.name, data)
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

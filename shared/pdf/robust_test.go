package pdf

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// Valid or repairable PDFs that readers show must ingest: each case is one
// shape the public corpus had refused (issue 10, class 1).
func TestReadablePagesIngest(t *testing.T) {
	body := func(p *pdftest.Page) *pdftest.Page {
		p.Text(72, 72, 24, true, "Readable Headline")
		p.Text(72, 120, 11, false, "A paragraph of ordinary text that every reader shows.")
		return p
	}
	tests := []struct {
		name  string
		build func(d *pdftest.Doc)
	}{
		{"contents as a reference to an array of streams", func(d *pdftest.Doc) { body(d.AddPage(612, 792)).SplitContents = true }},
		{"a picture without a declared size", func(d *pdftest.Doc) { body(d.AddPage(612, 792)).SizelessPicture(300, 300, 100, 100) }},
		{"a cross-reference table MuPDF repairs", func(d *pdftest.Doc) { d.WrongXRef = true; body(d.AddPage(612, 792)) }},
		{"a trailer without /Root", func(d *pdftest.Doc) { d.NoTrailerRoot = true; body(d.AddPage(612, 792)) }},
		{"a metadata stream pdfcpu cannot read", func(d *pdftest.Doc) { d.BrokenMetadata = true; body(d.AddPage(612, 792)) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := build(tc.build)
			lim := DefaultLimits()
			info, err := Inspect(data, lim)
			if err != nil || len(info.Pages) != 1 || info.Pages[0] != (PageBox{612, 792}) {
				t.Fatalf("Inspect = %+v, %v", info, err)
			}
			if _, err := Render(context.Background(), data, 1, 72, lim, nil); err != nil {
				t.Fatalf("Render: %v", err)
			}
			tp, err := TextLayer(context.Background(), data, 1, lim)
			if err != nil || len(tp.Blocks) == 0 || tp.Blocks[0].Text != "Readable Headline" {
				t.Fatalf("TextLayer = %+v, %v", tp.Blocks, err)
			}
		})
	}
}

func TestRepairedFileStillRefusesHostilePages(t *testing.T) {
	// Without pdfcpu's page checks (it cannot read this file), MuPDF's
	// render budget still refuses a page far too large to draw.
	data := build(func(d *pdftest.Doc) { d.BrokenMetadata = true; d.AddPage(14400, 14400) })
	if _, err := Inspect(data, DefaultLimits()); err != nil {
		t.Fatalf("Inspect: %v", err)
	}
	_, err := Render(context.Background(), data, 1, 150, DefaultLimits(), nil)
	var inv *InvalidInputError
	if !errors.As(err, &inv) || inv.Reason != ReasonRenderBudget {
		t.Fatalf("Render = %v, want %s", err, ReasonRenderBudget)
	}
}

func TestFitDPI(t *testing.T) {
	const budget = 60_000_000
	for _, tc := range []struct {
		w, h float64
		want int
	}{
		{612, 792, 300},     // a letter page fits at 300 DPI
		{2448, 3168, 200},   // a 34×44 inch scan: the finest DPI in budget
		{14400, 14400, 300}, // too large even at MinFitDPI: the render is refused
	} {
		got := FitDPI(tc.w, tc.h, 300, budget)
		if got != tc.want {
			t.Errorf("FitDPI(%v×%v) = %d, want %d", tc.w, tc.h, got, tc.want)
		}
		if got < 300 {
			px := int64((tc.w*float64(got)/72)+1) * int64((tc.h*float64(got)/72)+1)
			if px > budget {
				t.Errorf("FitDPI(%v×%v) = %d: %d pixels over budget", tc.w, tc.h, got, px)
			}
		}
	}
}

func TestStextSurvivesBadCharacters(t *testing.T) {
	// Structured text comes from MuPDF's C API as numbers: a control
	// character, a surrogate, a number past Unicode or a font name that is
	// not UTF-8 reads as it can instead of breaking the page.
	glyphs := []stextGlyph{{kind: glyphBlock}, {kind: glyphLine}}
	for i, c := range []int{'A', 'b', 'c', 0x01, 0xD800, 0x110000, -5, 'd'} {
		glyphs = append(glyphs, stextGlyph{kind: glyphChar, c: c, font: 0, box: magazine.BBox{float64(10 + 6*i), 10, 6, 12}, size: 12})
	}
	for range 20 {
		glyphs = append(glyphs, stextGlyph{kind: glyphChar, c: 'x', font: 0, box: magazine.BBox{58, 10, 6, 12}, size: 12})
	}
	tp := buildStext(glyphs, []string{"Bad\xff\xfeFont-Bold"})
	if len(tp.Blocks) != 1 || !strings.HasPrefix(tp.Blocks[0].Text, "Abc    dx") || !tp.Blocks[0].Bold || !utf8.ValidString(tp.Blocks[0].Text) {
		t.Fatalf("blocks = %+v", tp.Blocks)
	}
}

func TestDecodeStextRefusesAGarbledBuffer(t *testing.T) {
	if _, _, err := decodeStext(make([]byte, 40), 33); err == nil {
		t.Fatal("a names offset inside a record was accepted")
	}
}

func TestBombInAFileOnlyMuPDFReads(t *testing.T) {
	// pdfcpu cannot read this file, so its picture-size check does not run:
	// MuPDF alone meets the 40000×40000 picture (4.8 GB of samples). It
	// decodes pictures subsampled to the render's resolution, so the page
	// fails or draws without it, quickly, instead of exhausting memory.
	data := build(func(d *pdftest.Doc) { d.NoTrailerRoot = true; d.AddPage(612, 792).Bomb(40000) })
	if _, err := Inspect(data, DefaultLimits()); err != nil {
		t.Fatalf("Inspect: %v", err)
	}
	start := time.Now()
	_, err := Render(context.Background(), data, 1, 150, DefaultLimits(), nil)
	var inv *InvalidInputError
	if err != nil && !errors.As(err, &inv) {
		t.Fatalf("Render = %v", err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("Render took %v", took)
	}
}

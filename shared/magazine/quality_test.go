package magazine

import (
	"image"
	"image/color"
	"image/draw"
	"strings"
	"testing"
)

// known is a small lexicon for the tests.
func known(w string) bool {
	return strings.Contains(" the harbour board met on tuesday to discuss new pier and agreed that work should begin before winter storms arrive ", " "+w+" ")
}

// scanPage lays blocks over one page-sized picture.
func scanPage(blocks ...TextBlock) TextPage {
	return TextPage{Width: 612, Height: 792, Pictures: []BBox{{0, 0, 612, 792}}, Blocks: blocks}
}

func TestMeasureText(t *testing.T) {
	good := "The harbour board met on Tuesday to discuss the new pier and agreed that the work should begin before the winter storms arrive."
	misread := "Tne harbonr bnard rnet on Tnesday tc discnss tbe ncw pler aud agrecd tliat tbe wcrk shonld bcgin bcfore tbe wiuter stornis arrlve."
	para := func(text string) TextBlock { return TextBlock{BBox: BBox{72, 100, 400, 40}, Text: text, LineCount: 3} }
	words := func(text string) []TextBlock {
		var out []TextBlock
		for i, w := range strings.Fields(text) {
			out = append(out, TextBlock{BBox: BBox{72 + float64(i%8)*50, 100 + float64(i/8)*12, 40, 10}, Text: w, LineCount: 1})
		}
		return out
	}
	tests := []struct {
		name string
		page TextPage
		poor string // a word of the reason; "" for a layer worth reading
	}{
		{"a clean scan's OCR layer is read", scanPage(para(good), para(good), para(good)), ""},
		{"a misread scan's OCR layer is set aside", scanPage(para(misread), para(misread), para(misread)), "dictionary"},
		{"a scan's layer set word by word and misspelled is set aside",
			scanPage(words(good + " " + misread[:60] + " " + good)...), "word by word"},
		{"a scan's layer set word by word but spelled right is read (lines are rebuilt)",
			scanPage(words(good + " " + good + " " + good)...), ""},
		{"a born-digital page in a language the lexicon lacks is read",
			TextPage{Width: 612, Height: 792, Blocks: []TextBlock{para(misread), para(misread), para(misread)}}, ""},
		{"private-use glyphs (a font without a Unicode map) are set aside on any page",
			TextPage{Width: 612, Height: 792, Blocks: []TextBlock{para(strings.Repeat("\ue001\ue002\ue003 ", 30) + good)}}, "no script"},
		{"a scan with a few words says nothing", scanPage(para("Tne harbonr")), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := MeasureText(tc.page, known)
			poor, why := q.Poor()
			if poor != (tc.poor != "") || !strings.Contains(why, tc.poor) {
				t.Errorf("poor %v (%q), want %q; quality %+v", poor, why, tc.poor, q)
			}
		})
	}
	clean, bad := MeasureText(scanPage(para(good), para(good)), known), MeasureText(scanPage(para(misread), para(misread)), known)
	if clean.DictionaryRate != 1 || bad.DictionaryRate > 0.2 || !clean.Scan {
		t.Errorf("rates: clean %+v, misread %+v", clean, bad)
	}
	if q := MeasureText(scanPage(para(misread), para(misread)), nil); q.Looked || q.DictionaryRate != 0 {
		t.Errorf("without a lexicon no word is looked up: %+v", q)
	} else if poor, why := q.Poor(); poor {
		t.Errorf("without a lexicon a scan is judged poor: %s", why)
	}
	if !clean.Better(bad) || bad.Better(clean) {
		t.Errorf("a clean reading must beat a misread one: %+v vs %+v", clean, bad)
	}
}

func TestIsScan(t *testing.T) {
	if !IsScan(scanPage()) {
		t.Error("a page-sized picture is a scan")
	}
	if IsScan(TextPage{Width: 612, Height: 792, Pictures: []BBox{{72, 72, 300, 300}}}) {
		t.Error("a figure is not a scan")
	}
	if IsScan(TextPage{}) {
		t.Error("a page without a size is not a scan")
	}
}

func TestFindPictures(t *testing.T) {
	// A yellowed 100 DPI scan: a halftone photo, a column of type (lines of
	// dark strokes), a thin black scanner border and a bold rule.
	const dpi = 100.0
	scale := dpi / 72
	px := func(pt float64) int { return int(pt * scale) }
	img := image.NewGray(image.Rect(0, 0, px(612), px(792)))
	draw.Draw(img, img.Bounds(), &image.Uniform{C: color.Gray{Y: 215}}, image.Point{}, draw.Src)
	fill := func(x, y, w, h float64, grey uint8) {
		draw.Draw(img, image.Rect(px(x), px(y), px(x+w), px(y+h)), &image.Uniform{C: color.Gray{Y: grey}}, image.Point{}, draw.Src)
	}
	fill(0, 0, 612, 6, 10) // scanner border, top and left
	fill(0, 0, 6, 792, 10)
	for y := 300.0; y < 460; y += 2 { // halftone: dark dots on every other row
		for x := 320.0; x < 540; x += 2 {
			fill(x, y, 1.5, 1.5, 40)
		}
	}
	var text []BBox
	for y := 100.0; y < 700; y += 12 { // the text column, left
		for x := 60.0; x < 280; x += 6 {
			fill(x, y, 3, 8, 30)
		}
		text = append(text, BBox{60, y, 220, 8})
	}
	fill(60, 720, 480, 2, 0)           // a rule
	for y := 560.0; y < 680; y += 12 { // type the OCR layer missed, at the right: thin strokes
		for x := 320.0; x < 540; x += 3 {
			fill(x, y, 1, 8, 30)
		}
	}
	got := FindPictures(img, scale, text)
	if len(got) != 1 {
		t.Fatalf("found %v, want the photo alone", got)
	}
	want := BBox{320, 300, 220, 160}
	for i := range 4 {
		if d := got[0][i] - want[i]; d < -6 || d > 6 {
			t.Fatalf("photo at %v, want %v within a cell", got[0], want)
		}
	}
}

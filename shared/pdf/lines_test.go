package pdf

import (
	"context"
	"slices"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

func blockTexts(tp magazine.TextPage) []string {
	var out []string
	for _, b := range tp.Blocks {
		out = append(out, b.Text)
	}
	return out
}

func textLayerOf(t *testing.T, f func(p *pdftest.Page)) magazine.TextPage {
	t.Helper()
	var d pdftest.Doc
	f(d.AddPage(612, 792))
	tp, err := TextLayer(context.Background(), d.Bytes(), 1, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// Two justified columns of short lines: every word is placed on its own
// with 1.0 to 2.1 em between words, and the columns are 1.8 em apart.
var (
	justifiedLeft = []string{
		"The harbour board met on",
		"Tuesday to discuss the new",
		"pier, and agreed that work",
		"winter storms arrive in the bay.",
	}
	justifiedRight = []string{
		"Fishermen have waited for years",
		"for a safe place to land",
		"and the town hopes that the new",
		"pier will bring the visitors back.",
	}
)

func TestLinesAreBuiltFromBaselines(t *testing.T) {
	tests := []struct {
		name string
		page func(p *pdftest.Page)
		want []string
	}{
		{
			name: "justified lines with wide word spacing stay whole and columns on one baseline stay apart",
			page: func(p *pdftest.Page) {
				for i := range justifiedLeft {
					p.Justified(72, 100+float64(i)*12, 190, 10, justifiedLeft[i])
					p.Justified(280, 100+float64(i)*12, 190, 10, justifiedRight[i])
				}
			},
			want: []string{
				"The harbour board met on Tuesday to discuss the new pier, and agreed that work winter storms arrive in the bay.",
				"Fishermen have waited for years for a safe place to land and the town hopes that the new pier will bring the visitors back.",
			},
		},
		{
			name: "a lone justified line with wide spacing is one line",
			page: func(p *pdftest.Page) { p.Justified(72, 100, 220, 10, "Harbour works begin in the spring") },
			want: []string{"Harbour works begin in the spring"},
		},
		{
			name: "ragged columns on one baseline stay apart",
			page: func(p *pdftest.Page) {
				for i, w := range []string{"north", "south", "east"} {
					p.Text(72, 100+float64(i)*12, 10, false, "The left column reads on the "+w+" side")
					p.Text(300, 100+float64(i)*12, 10, false, "while the right one reads "+w+" too")
				}
			},
			want: []string{
				"The left column reads on the north side The left column reads on the south side The left column reads on the east side",
				"while the right one reads north too while the right one reads south too while the right one reads east too",
			},
		},
		{
			name: "table cells a channel apart stay apart",
			page: func(p *pdftest.Page) {
				for r, row := range [][]string{{"Berth", "Length", "Depth"}, {"North", "120", "8"}, {"South", "95", "6"}} {
					for c, cell := range row {
						p.Text(72+float64(c)*50, 100+float64(r)*12, 10, false, cell)
					}
				}
			},
			want: []string{"Berth North South", "Length 120 95", "Depth 8 6"},
		},
		{
			name: "figures a table sets evenly apart stay apart",
			page: func(p *pdftest.Page) {
				for r, row := range [][]string{{"1.25", "2.50", "3.75"}, {"4.00", "5.25", "6.50"}} {
					for c, cell := range row {
						p.Text(72+float64(c)*40, 100+float64(r)*30, 10, false, cell)
					}
				}
			},
			want: []string{"1.25", "2.50", "3.75", "4.00", "5.25", "6.50"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := blockTexts(textLayerOf(t, tc.page)); !slices.Equal(got, tc.want) {
				t.Errorf("blocks:\n%q\nwant:\n%q", got, tc.want)
			}
		})
	}
}

func TestDropCapJoinsItsParagraph(t *testing.T) {
	tp := textLayerOf(t, func(p *pdftest.Page) {
		p.Text(72, 60, 24, true, "The Silted Harbour")
		w := p.DropCap(72, 100, 10, 12, 3, "O")
		p.Justified(72+w+3, 100, 190-w-3, 10, "ver the years the harbour")
		p.Justified(72+w+3, 112, 190-w-3, 10, "has silted up and the boats")
		p.Justified(72+w+3, 124, 190-w-3, 10, "must wait for the tide to")
		p.Justified(72, 136, 190, 10, "come in before they can land, and")
		p.Text(72, 148, 10, false, "the board has had enough.")
	})
	want := []string{"The Silted Harbour", "Over the years the harbour has silted up and the boats must wait for the tide to come in before they can land, and the board has had enough."}
	if got := blockTexts(tp); !slices.Equal(got, want) {
		t.Fatalf("blocks:\n%q\nwant:\n%q", got, want)
	}
	b := tp.Blocks[1]
	if b.FontSize != 10 || b.LineCount != 5 || b.BBox[0] != 72 || b.Lines[0].Text != "Over the years the harbour" {
		t.Errorf("paragraph = %+v", b)
	}
	// The cap is no headline of its own: the page has one headline, and the
	// paragraph it starts is read as one.
	regions := magazine.ClassifyPages([]magazine.TextPage{tp})[0]
	var kinds []magazine.Kind
	for _, r := range regions {
		kinds = append(kinds, r.Kind)
	}
	if !slices.Equal(kinds, []magazine.Kind{magazine.KindHeadline, magazine.KindParagraph}) {
		t.Errorf("regions = %+v", regions)
	}
}

func TestWordSpacesWithoutSpaceGlyphs(t *testing.T) {
	const caption = "The pier at dawn, seen from the harbour wall"
	tests := []struct {
		name string
		page func(p *pdftest.Page)
		want string
	}{
		// MuPDF adds a space only where a gap reaches 0.15 em.
		{"words moved apart by TJ kerning", func(p *pdftest.Page) { p.Kerned(72, 100, 8, 0.12, caption) }, caption},
		{"every glyph placed by its own move", func(p *pdftest.Page) { p.Glyphwise(72, 100, 8, 0.12, caption) }, caption},
		{"wider gaps MuPDF spaces itself", func(p *pdftest.Page) { p.Glyphwise(72, 100, 8, 0.3, caption) }, caption},
		{"letter-spaced capitals stay one word", func(p *pdftest.Page) {
			p.Raw("BT /F1 9 Tf 1.1 Tc 72 600 Td (HARBOUR) Tj ET\n")
		}, "HARBOUR"},
		{"no space opens before punctuation", func(p *pdftest.Page) {
			p.Raw("BT /F1 9 Tf 72 600 Td [(measure P) -120 (, if P) -120 (.)] TJ ET\n")
		}, "measure P, if P."},
		{"tightly set words get their space", func(p *pdftest.Page) {
			p.Raw("BT /F1 9 Tf -0.3 Tc 72 600 Td [(HARBOUR) -160 (NEWS)] TJ ET\n")
		}, "HARBOUR NEWS"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := blockTexts(textLayerOf(t, tc.page)); !slices.Equal(got, []string{tc.want}) {
				t.Errorf("blocks %q, want %q", got, tc.want)
			}
		})
	}
}

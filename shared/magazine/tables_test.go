package magazine

import (
	"strconv"
	"strings"
	"testing"
)

// cell9 is a one-line block at 9 pt, w points wide.
func cell9(x, y, w float64, text string) TextBlock {
	return TextBlock{BBox: BBox{x, y, w, 10}, Text: text, FontSize: 9, LineCount: 1}
}

// grid lays out rows of cells: column k's cells start at xs[k], row r at y0 + r·pitch.
func grid(y0, pitch float64, xs, ws []float64, rows ...[]string) []TextBlock {
	var out []TextBlock
	for r, row := range rows {
		for k, text := range row {
			out = append(out, cell9(xs[k], y0+float64(r)*pitch, ws[k], text))
		}
	}
	return out
}

// column9 is one block of 9 pt lines, pitch points apart, that knows its lines.
func column9(x, y, pitch, w float64, lines ...string) TextBlock {
	b := TextBlock{BBox: BBox{x, y, w, pitch*float64(len(lines)-1) + 10}, Text: strings.Join(lines, " "), FontSize: 9, LineCount: len(lines)}
	for k, l := range lines {
		b.Lines = append(b.Lines, TextLine{BBox: BBox{x, y + float64(k)*pitch, w * float64(len(l)) / 20, 10}, Text: l})
	}
	return b
}

func TestClassifyTables(t *testing.T) {
	xs, ws := []float64{60, 250, 400}, []float64{120, 60, 60}
	tests := []struct {
		name   string
		blocks []TextBlock
		want   string // the table's text; "" for no table
	}{
		{"a grid of labels and numbers is one table",
			grid(300, 14, xs, ws,
				[]string{"Item", "Cost", "Change"},
				[]string{"Labor ..........", "$85", "+3%"},
				[]string{"Parts", "$1,200", "-1.5%"},
				[]string{"Total per airplane", "$1,285", "0%"}),
			"Item\tCost\tChange\nLabor\t$85\t+3%\nParts\t$1,200\t-1.5%\nTotal per airplane\t$1,285\t0%"},
		{"header cells centred over their columns align",
			append([]TextBlock{cell9(100, 300, 40, "Action"), cell9(255, 300, 50, "Labor cost")},
				grid(320, 14, []float64{60, 250}, []float64{120, 60},
					[]string{"Wiring change", "$3,790"},
					[]string{"Sensor test", "$0"})...),
			"Action\tLabor cost\nWiring change\t$3,790\nSensor test\t$0"},
		{"number columns set as one block each count their lines as rows",
			[]TextBlock{
				cell9(60, 300, 120, "Action"), cell9(250, 300, 60, "Labor"), cell9(400, 300, 60, "Parts"),
				{BBox: BBox{60, 320, 120, 30}, Text: "Install Verify Remove", FontSize: 9, LineCount: 3},
				{BBox: BBox{250, 320, 60, 30}, Text: "$85 $85 $0", FontSize: 9, LineCount: 3},
				{BBox: BBox{400, 320, 60, 30}, Text: "$0 $10 $6,205", FontSize: 9, LineCount: 3},
			},
			"Action\tLabor\tParts\nInstall Verify Remove\t$85 $85 $0\t$0 $10 $6,205"},
		{"columns set as one block each, names and figures, read row by row",
			[]TextBlock{
				column9(60, 300, 12, 120, "State", "Alabama", "District of Columbia", "Texas"),
				column9(250, 300, 12, 60, "Permit", "18,870", "0", "21,550"),
				column9(400, 300, 12, 60, "Handgun", "23,022", "1,017", "56,941"),
			},
			"State\tPermit\tHandgun\nAlabama\t18,870\t23,022\nDistrict of Columbia\t0\t1,017\nTexas\t21,550\t56,941"},
		{"narrow prose columns of short lines are not a table",
			[]TextBlock{
				column9(60, 300, 12, 100, "The council met", "again on Tuesday", "and voted on the", "bridge in the rain", "after a debate."),
				column9(250, 300, 12, 100, "Work starts in", "spring, and the", "engineers expect", "the repairs to last", "into the autumn."),
			},
			""},
		{"prose columns whose lines each hold a number are not a table",
			[]TextBlock{
				column9(60, 300, 12, 100, "Column 1 on the nets of the bay, line a", "Column 1 on the gulls of the bay, line b", "Column 1 on the tides of the bay, line c", "Column 1 on the ropes of the bay, line d"),
				column9(330, 300, 12, 100, "In 1998 the quay was rebuilt by the town", "In 2004 the harbour wall was raised again", "By 2010 the 12 boats had come back home", "In 2021 the 40 nets were mended by hand"),
			},
			""},
		{"two-column body text is not a table",
			[]TextBlock{body10(50, 300, lorem), body10(320, 300, lorem), body10(50, 410, lorem), body10(320, 410, lorem), body10(50, 520, lorem), body10(320, 520, lorem)},
			""},
		{"a list of short lines is not a table",
			grid(300, 14, []float64{60}, []float64{150}, []string{"Bread"}, []string{"Milk"}, []string{"Eggs"}, []string{"Butter"}),
			""},
		{"a bulleted list is not a table",
			grid(300, 14, []float64{60, 72}, []float64{5, 150}, []string{"•", "Bread"}, []string{"•", "Milk"}, []string{"•", "Eggs"}, []string{"1.", "Butter"}),
			""},
		{"a form of two label and value rows is not a table",
			grid(300, 14, []float64{60, 160}, []float64{80, 150}, []string{"Name:", "Jane Doe"}, []string{"Date:", "12 May 2020"}),
			""},
		{"short lines in two columns at staggered heights are not a table",
			append(grid(300, 14, []float64{60}, []float64{150}, []string{"Bread"}, []string{"Milk"}, []string{"Eggs"}),
				grid(307, 14, []float64{320}, []float64{150}, []string{"Butter"}, []string{"Cheese"}, []string{"Apples"})...),
			""},
		{"rows far apart are not a table",
			grid(200, 120, xs, ws, []string{"North", "12", "14"}, []string{"South", "9", "11"}, []string{"East", "4", "5"}),
			""},
		{"sentences in a grid are not a table",
			grid(300, 14, []float64{60, 320}, []float64{240, 240},
				[]string{"The council met again on Tuesday", "and voted on the bridge in the"},
				[]string{"evening after a long debate about", "the cost of the work and who pays"},
				[]string{"for the repairs that the engineers", "asked for after the flood in May"}),
			""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			blocks := append([]TextBlock{body10(50, 50, lorem), body10(320, 50, lorem)}, tc.blocks...)
			page := TextPage{Width: 612, Height: 792, Blocks: blocks}
			got := ClassifyPages([]TextPage{page})[0]
			var tables []Region
			for i, r := range got {
				if r.ID != "r"+strconv.Itoa(i+1) {
					t.Errorf("region %d has id %q", i, r.ID)
				}
				if r.Kind == KindTable {
					tables = append(tables, r)
				}
			}
			if tc.want == "" {
				if len(tables) != 0 || len(got) != len(blocks) {
					t.Fatalf("got %d tables in %d regions, want none in %d: %+v", len(tables), len(got), len(blocks), tables)
				}
				return
			}
			if len(tables) != 1 {
				t.Fatalf("got %d tables, want 1: %+v", len(tables), got)
			}
			tab := tables[0]
			if tab.Text != tc.want || tab.OriginalText != tc.want || tab.VisualKind != KindTable {
				t.Errorf("table text %q (visual kind %q), want %q", tab.Text, tab.VisualKind, tc.want)
			}
			want := tc.blocks[0].BBox
			for _, b := range tc.blocks[1:] {
				want = want.Union(b.BBox)
			}
			if tab.BBox != want {
				t.Errorf("table box %v, want the union %v", tab.BBox, want)
			}
			if len(got) != 3 || got[0].Kind != KindParagraph || got[1].Kind != KindParagraph || got[2].ID != "r3" {
				t.Errorf("regions %+v, want the two paragraphs then the table", got)
			}
		})
	}
}

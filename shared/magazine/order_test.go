package magazine

import (
	"slices"
	"testing"
)

func reg(id string, k Kind, x, y, w, h float64) Region {
	return Region{ID: id, Kind: k, BBox: BBox{x, y, w, h}}
}

func withSize(r Region, size float64) Region { r.FontSize = size; return r }

func TestReadingOrder(t *testing.T) {
	// A4-ish page, two columns at x=40 and x=310, 250 pt wide.
	tests := []struct {
		name    string
		regions []Region
		want    []string
	}{
		{
			name: "one-line cells of a form under a centred heading are rows, not columns",
			regions: []Region{
				withSize(reg("h", KindHeadline, 221, 95, 152, 16), 16),
				withSize(reg("v1", KindParagraph, 265, 421.5, 56, 10), 9), withSize(reg("l1", KindParagraph, 58, 421.8, 54, 9), 9),
				withSize(reg("v2", KindParagraph, 372, 421.5, 56, 10), 9),
				withSize(reg("l2", KindParagraph, 58, 442, 144, 9), 9), withSize(reg("v3", KindParagraph, 262, 441.5, 59, 10), 9),
				withSize(reg("p", KindParagraph, 57, 622, 482, 41), 9),
			},
			want: []string{"h", "l1", "v1", "v2", "l2", "v3", "p"},
		},
		{
			name: "two columns read column by column",
			regions: []Region{
				reg("b1", KindParagraph, 310, 100, 250, 200), reg("a1", KindParagraph, 40, 100, 250, 200),
				reg("a2", KindParagraph, 40, 320, 250, 200), reg("b2", KindParagraph, 310, 320, 250, 120),
			},
			want: []string{"a1", "a2", "b1", "b2"},
		},
		{
			name: "spanning headline and deck are read before the columns below them",
			regions: []Region{
				reg("a1", KindParagraph, 40, 200, 250, 300), reg("b1", KindParagraph, 310, 200, 250, 300),
				reg("h", KindHeadline, 40, 60, 520, 50), reg("d", KindDeck, 40, 120, 520, 40),
			},
			want: []string{"h", "d", "a1", "b1"},
		},
		{
			name: "a centred title block (title, author, date) is read whole before the columns and a side heading under it",
			regions: []Region{
				reg("abstract", KindSubhead, 40, 245, 62, 14),
				reg("a1", KindParagraph, 40, 271, 250, 400), reg("b1", KindParagraph, 310, 249, 250, 400),
				reg("title", KindHeadline, 150, 154, 300, 17),
				reg("author", KindDeck, 272, 187, 58, 12), reg("date", KindDeck, 260, 210, 81, 12),
			},
			want: []string{"title", "author", "date", "abstract", "a1", "b1"},
		},
		{
			name: "headline mid-page splits the page into bands",
			regions: []Region{
				reg("a0", KindParagraph, 40, 40, 250, 200), reg("b0", KindParagraph, 310, 40, 250, 200),
				reg("h", KindHeadline, 40, 300, 520, 40),
				reg("a1", KindParagraph, 40, 360, 250, 300), reg("b1", KindParagraph, 310, 360, 250, 300),
			},
			want: []string{"a0", "b0", "h", "a1", "b1"},
		},
		{
			name: "headline inside one column stays in that column",
			regions: []Region{
				reg("a1", KindParagraph, 40, 40, 250, 600), reg("h", KindHeadline, 310, 40, 250, 40),
				reg("b1", KindParagraph, 310, 100, 250, 500),
			},
			want: []string{"a1", "h", "b1"},
		},
		{
			name: "pull-quote goes to the end of the page",
			regions: []Region{
				reg("a1", KindParagraph, 40, 40, 250, 300), reg("q", KindPullQuote, 40, 360, 250, 80),
				reg("a2", KindParagraph, 40, 460, 250, 200), reg("b1", KindParagraph, 310, 40, 250, 600),
			},
			want: []string{"a1", "a2", "b1", "q"},
		},
		{
			name: "furniture and page numbers come after pull-quotes",
			regions: []Region{
				reg("pn", KindPageNumber, 290, 800, 20, 10), reg("run", KindFurniture, 40, 10, 200, 10),
				reg("q", KindPullQuote, 310, 300, 250, 60), reg("a1", KindParagraph, 40, 40, 250, 600),
			},
			want: []string{"a1", "q", "run", "pn"},
		},
		{
			name: "columns come from text starts even when a picture bridges the gutter",
			regions: []Region{
				reg("a1", KindParagraph, 40, 40, 250, 200), reg("b1", KindParagraph, 310, 40, 250, 200),
				reg("img", KindImage, 150, 260, 300, 200), reg("cap", KindCaption, 150, 465, 300, 20),
				reg("a2", KindParagraph, 40, 500, 250, 200), reg("b2", KindParagraph, 310, 500, 250, 200),
			},
			want: []string{"a1", "img", "cap", "a2", "b1", "b2"},
		},
		{
			name: "indents and short last paragraphs keep their column",
			regions: []Region{
				reg("a1", KindParagraph, 40, 40, 250, 200), reg("a2", KindParagraph, 52, 250, 238, 200),
				reg("b1", KindParagraph, 312, 40, 248, 200), reg("b2", KindParagraph, 310, 250, 120, 14),
			},
			want: []string{"a1", "a2", "b1", "b2"},
		},
		{
			name: "three columns with a headline over the right two",
			regions: []Region{
				reg("a1", KindParagraph, 30, 40, 170, 700),
				reg("h", KindHeadline, 215, 40, 350, 60),
				reg("b1", KindParagraph, 215, 120, 170, 600), reg("c1", KindParagraph, 400, 120, 170, 600),
			},
			want: []string{"a1", "h", "b1", "c1"},
		},
		{
			name:    "page without paragraphs reads top to bottom",
			regions: []Region{reg("i2", KindImage, 40, 400, 500, 300), reg("h", KindHeadline, 40, 40, 500, 60), reg("i1", KindImage, 40, 120, 500, 260)},
			want:    []string{"h", "i1", "i2"},
		},
		{name: "empty page has an empty order", regions: nil, want: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ReadingOrder(Page{Width: 595, Height: 842, Regions: tc.regions})
			if !slices.Equal(got, tc.want) {
				t.Errorf("order %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReadingOrderKeepsEveryIDOnce(t *testing.T) {
	var regions []Region
	for i, k := range Kinds {
		regions = append(regions, reg(string(k.Kind), k.Kind, float64(40+(i%3)*180), float64(40+i*30), 170, 25))
	}
	got := ReadingOrder(Page{Regions: regions})
	if len(got) != len(regions) {
		t.Fatalf("got %d ids, want %d", len(got), len(regions))
	}
	seen := map[string]bool{}
	for _, id := range got {
		if seen[id] {
			t.Errorf("id %q twice", id)
		}
		seen[id] = true
	}
}

func TestApplyOrder(t *testing.T) {
	regions := []Region{reg("b", KindParagraph, 40, 300, 250, 100), reg("a", KindParagraph, 40, 40, 250, 100)}
	hand := Page{Regions: regions, Order: []string{"b", "a"}, HandOrdered: true}
	if got := ApplyOrder(hand); !slices.Equal(got.Order, []string{"b", "a"}) {
		t.Errorf("hand-ordered page reordered to %v", got.Order)
	}
	auto := Page{Regions: regions, Order: []string{"b", "a"}}
	if got := ApplyOrder(auto); !slices.Equal(got.Order, []string{"a", "b"}) {
		t.Errorf("order %v, want [a b]", got.Order)
	}
}

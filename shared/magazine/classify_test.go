package magazine

import (
	"strings"
	"testing"
)

// body10 is a paragraph block at 10 pt.
func body10(x, y float64, text string) TextBlock {
	return TextBlock{BBox: BBox{x, y, 250, 100}, Text: text, FontSize: 10, LineCount: 8}
}

var lorem = strings.Repeat("The council met again on Tuesday and voted on the bridge. ", 8)

func TestClassifyPages(t *testing.T) {
	tests := []struct {
		name  string
		block TextBlock
		pics  []BBox
		want  Kind
	}{
		{"body-size prose is paragraph", body10(50, 300, lorem), nil, KindParagraph},
		{"large short text is headline", TextBlock{BBox: BBox{50, 100, 500, 40}, Text: "Bridge Vote Splits Town", FontSize: 28}, nil, KindHeadline},
		{"large but long text is not headline", TextBlock{BBox: BBox{50, 100, 500, 300}, Text: lorem, FontSize: 16}, nil, KindParagraph},
		{"digits at the bottom edge are a page number", TextBlock{BBox: BBox{300, 760, 12, 10}, Text: "12", FontSize: 8}, nil, KindPageNumber},
		{"Page 12 at the top edge is a page number", TextBlock{BBox: BBox{500, 20, 40, 10}, Text: "Page 12", FontSize: 8}, nil, KindPageNumber},
		{"number with magazine name at the edge is a page number", TextBlock{BBox: BBox{40, 770, 120, 10}, Text: "12 | The Monthly", FontSize: 8}, nil, KindPageNumber},
		{"digits mid-page are not a page number", TextBlock{BBox: BBox{300, 400, 12, 10}, Text: "12", FontSize: 10}, nil, KindParagraph},
		{"By Jane Doe is a byline", TextBlock{BBox: BBox{50, 200, 200, 12}, Text: "By Jane Doe", FontSize: 10}, nil, KindByline},
		{"run-on byline is still a byline", TextBlock{BBox: BBox{50, 200, 250, 100}, Text: "By Jane Doe The council voted on Tuesday to widen the bridge.", FontSize: 10}, nil, KindByline},
		{"By the end of ... is a paragraph", body10(50, 300, "By the end of the year, prices rose sharply in every district."), nil, KindParagraph},
		{"Words by is a byline", TextBlock{BBox: BBox{50, 200, 200, 12}, Text: "Words by Sam Lee", FontSize: 9}, nil, KindByline},
		{"dash attribution is a byline", TextBlock{BBox: BBox{50, 200, 200, 12}, Text: "— Sam Lee", FontSize: 9}, nil, KindByline},
		{"Source: line is source", TextBlock{BBox: BBox{50, 500, 200, 12}, Text: "Source: Office for National Statistics", FontSize: 8}, nil, KindSource},
		{"Photo: line is source", TextBlock{BBox: BBox{50, 500, 200, 12}, Text: "Photo: Getty Images", FontSize: 8}, nil, KindSource},
		{"Photographs by is source", TextBlock{BBox: BBox{50, 500, 200, 12}, Text: "Photographs by Ana Ruiz", FontSize: 8}, nil, KindSource},
		{"Figure N is caption", TextBlock{BBox: BBox{50, 500, 200, 24}, Text: "Figure 3. Rainfall by month", FontSize: 10}, nil, KindCaption},
		{"Fig. N is caption", TextBlock{BBox: BBox{50, 500, 200, 24}, Text: "Fig. 2 The old bridge", FontSize: 10}, nil, KindCaption},
		{"small text under a picture is caption", TextBlock{BBox: BBox{50, 410, 200, 24}, Text: "The old bridge in 1910, before the flood.", FontSize: 8}, []BBox{{50, 200, 250, 200}}, KindCaption},
		{"small text far from a picture is paragraph", TextBlock{BBox: BBox{50, 600, 200, 24}, Text: "The old bridge in 1910, before the flood.", FontSize: 8}, []BBox{{50, 200, 250, 200}}, KindParagraph},
		{"moderately large short text alone is subhead", TextBlock{BBox: BBox{50, 500, 250, 14}, Text: "A long history", FontSize: 12}, nil, KindSubhead},
		{"bold body-size short line is subhead", TextBlock{BBox: BBox{50, 500, 250, 12}, Text: "What happens next", FontSize: 10, Bold: true, LineCount: 1}, nil, KindSubhead},
		{"bold sentence is paragraph", TextBlock{BBox: BBox{50, 500, 250, 12}, Text: "Note that the bridge is closed.", FontSize: 10, Bold: true, LineCount: 1}, nil, KindParagraph},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			page := TextPage{Width: 612, Height: 792, Pictures: tc.pics,
				Blocks: []TextBlock{body10(50, 600, lorem), body10(320, 600, lorem), tc.block}}
			got := ClassifyPages([]TextPage{page})[0]
			if got[2].Kind != tc.want {
				t.Errorf("kind %q, want %q", got[2].Kind, tc.want)
			}
			if got[2].OriginalText != strings.TrimSpace(tc.block.Text) || got[2].ID != "r3" {
				t.Errorf("region %+v lost its text or id", got[2])
			}
		})
	}
}

func TestClassifyDeckFollowsHeadline(t *testing.T) {
	page := TextPage{Width: 612, Height: 792, Blocks: []TextBlock{
		{BBox: BBox{50, 80, 500, 40}, Text: "Bridge Vote Splits Town", FontSize: 30},
		{BBox: BBox{50, 128, 500, 30}, Text: "After years of debate the council chose the wider plan", FontSize: 13},
		body10(50, 200, lorem),
		body10(320, 200, lorem),
	}}
	got := ClassifyPages([]TextPage{page})[0]
	want := []Kind{KindHeadline, KindDeck, KindParagraph, KindParagraph}
	for i, k := range want {
		if got[i].Kind != k {
			t.Errorf("block %d kind %q, want %q", i, got[i].Kind, k)
		}
	}
}

func TestClassifyFurnitureRepeatsAcrossPages(t *testing.T) {
	mk := func(n int, header string) TextPage {
		return TextPage{Width: 612, Height: 792, Blocks: []TextBlock{
			{BBox: BBox{50, 30, 200, 10}, Text: header, FontSize: 10},
			body10(50, 200, lorem),
			{BBox: BBox{400, 200, 150, 14}, Text: "Only here " + strings.Repeat("x", n), FontSize: 10},
		}}
	}
	pages := []TextPage{mk(1, "THE MONTHLY · MARCH 2024"), mk(2, "THE MONTHLY · MARCH 2025"), mk(3, "Something else"), mk(4, "THE MONTHLY · MARCH 2026")}
	// Facing page: the running head mirrored to the right.
	pages[3].Blocks[0].BBox = BBox{362, 30, 200, 10}
	got := ClassifyPages(pages)
	for pi, want := range []Kind{KindFurniture, KindFurniture, KindParagraph, KindFurniture} {
		if got[pi][0].Kind != want {
			t.Errorf("page %d header kind %q, want %q", pi+1, got[pi][0].Kind, want)
		}
	}
	if got[0][2].Kind == KindFurniture {
		t.Error("text that appears at the same place but not on half the pages is furniture")
	}

	single := ClassifyPages([]TextPage{mk(1, "THE MONTHLY · MARCH 2024")})
	if single[0][0].Kind == KindFurniture {
		t.Error("a one-page document has no furniture")
	}
}

func TestClassifyBodySizeWeightedByText(t *testing.T) {
	// Many short 12 pt labels but most text at 9 pt: body is 9, so 12 pt is a deck/subhead size, not body.
	blocks := []TextBlock{{BBox: BBox{50, 300, 250, 300}, Text: lorem + lorem, FontSize: 9}}
	for i := range 5 {
		blocks = append(blocks, TextBlock{BBox: BBox{320, float64(100 + 20*i), 100, 14}, Text: "Label", FontSize: 12})
	}
	if got := BodySize(blocks); got != 9 {
		t.Errorf("body size %v, want 9", got)
	}
	// Classify (page size inferred) agrees.
	regions := Classify([][]TextBlock{blocks})[0]
	if regions[0].Kind != KindParagraph || regions[1].Kind != KindSubhead {
		t.Errorf("kinds %q, %q", regions[0].Kind, regions[1].Kind)
	}
}

package magazine

import "testing"

// bodyPage is a one-column page (612×792 pt) of 10 pt text from y=120 to
// 600, plus the given blocks; it returns the kinds of those blocks.
func bodyPage(extra ...TextBlock) []Kind {
	blocks := []TextBlock{{BBox: BBox{72, 120, 468, 480}, Text: lorem + lorem + lorem, FontSize: 10, LineCount: 40}}
	blocks = append(blocks, extra...)
	regions := ClassifyPages([]TextPage{{Width: 612, Height: 792, Blocks: blocks}})[0]
	kinds := make([]Kind, len(extra))
	for i := range extra {
		kinds[i] = regions[i+1].Kind
	}
	return kinds
}

func TestEdgeRows(t *testing.T) {
	tests := []struct {
		name   string
		blocks []TextBlock
		want   []Kind
	}{
		// Footers set above the outer tenth of the page (issue 34, class 3).
		{"folio and web address above the band", []TextBlock{line(301, 690, 10, 20, "1"), line(469, 697, 71, 10, "www.ck12.org")},
			[]Kind{KindPageNumber, KindFurniture}},
		{"revision, page N of M and part number in body size", []TextBlock{
			line(72, 690, 80, 10, "Rev. C 04/2019"), line(270, 690, 60, 10, "Page 2 of 7"), line(450, 690, 90, 10, "Doc. No. HB-4471")},
			[]Kind{KindFurniture, KindPageNumber, KindFurniture}},
		{"printing stamp under the last line, mid-page", []TextBlock{line(72, 610, 130, 10, "Printed: 16.11.2012 21:07:09")},
			[]Kind{KindFurniture}},
		// Running heads on a single page (class 2).
		{"folio, title in capitals and chapter mark", []TextBlock{line(72, 50, 12, 11, "12"), line(220, 50, 140, 11, "THE HARBOUR GAZETTE"), line(470, 50, 60, 11, "[CHAP. III")},
			[]Kind{KindFurniture, KindFurniture, KindFurniture}},
		{"running head read as one OCR line", []TextBlock{line(72, 50, 460, 11, "CHAP. III.] THE HARBOUR GAZETTE 13")},
			[]Kind{KindFurniture}},

		// Counter-examples: text stays text.
		{"a closing sentence with a date low on the page", []TextBlock{line(72, 730, 400, 10, "Signed for the harbour board on 3 May 2022 by its clerk")},
			[]Kind{KindParagraph}},
		{"a numbered section heading on the top line", []TextBlock{line(72, 60, 90, 10, "2 METHODS")},
			[]Kind{KindParagraph}},
		{"a chapter title in capitals without folio", []TextBlock{line(150, 60, 300, 10, "THE HARBOUR AND ITS PEOPLE")},
			[]Kind{KindParagraph}},
		{"a printing stamp with text under it", []TextBlock{line(72, 610, 130, 10, "Printed: 16.11.2012 21:07:09"), body10(72, 640, lorem)},
			[]Kind{KindParagraph, KindParagraph}},
		{"a dated last line glued to the text above", []TextBlock{line(72, 601, 130, 10, "Berlin, 3 May 2022")},
			[]Kind{KindParagraph}},
		{"a table's last row of dates and numbers, set apart", []TextBlock{
			line(72, 700, 50, 8, "07/17/2015"), line(130, 700, 50, 8, "07/13/2015"), line(190, 700, 50, 8, "07/21/2015"),
			line(250, 700, 120, 8, "American Management"), line(400, 700, 50, 8, "Monterey"), line(480, 700, 20, 8, "56")},
			[]Kind{KindParagraph, KindParagraph, KindParagraph, KindParagraph, KindParagraph, KindParagraph}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bodyPage(tt.blocks...)
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("block %d %q: kind %s, want %s", i, tt.blocks[i].Text, got[i], tt.want[i])
				}
			}
		})
	}
}

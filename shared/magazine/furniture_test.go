package magazine

import (
	"strconv"
	"testing"
)

// onePage classifies block on a one-page document (612×792 pt) with two
// 10 pt body columns from y=200 to 560, and returns its kind.
func onePage(block TextBlock) Kind {
	page := TextPage{Width: 612, Height: 792, Blocks: []TextBlock{
		{BBox: BBox{50, 200, 250, 360}, Text: lorem + lorem, FontSize: 10, LineCount: 30},
		{BBox: BBox{320, 200, 250, 360}, Text: lorem + lorem, FontSize: 10, LineCount: 30},
		block,
	}}
	return ClassifyPages([]TextPage{page})[0][2].Kind
}

func line(x, y, w float64, size float64, text string) TextBlock {
	return TextBlock{BBox: BBox{x, y, w, size * 1.2}, Text: text, FontSize: size, LineCount: 1}
}

func TestClassifySinglePageFurniture(t *testing.T) {
	tests := []struct {
		name  string
		block TextBlock
		want  Kind
	}{
		// Position (top or bottom band) plus a pattern.
		{"URL in the footer", line(50, 760, 150, 8, "www.themonthly.com"), KindFurniture},
		{"https URL in the header", line(50, 30, 250, 8, "https://example.org/reports/2024/bridge"), KindFurniture},
		{"date and time stamp in the footer", line(50, 760, 200, 8, "Printed 12/03/2024 14:05"), KindFurniture},
		{"full date in the header", line(400, 30, 150, 8, "Thursday, August 6, 2020"), KindFurniture},
		{"Page x of y in the footer", line(500, 760, 60, 8, "Page 3 of 12"), KindPageNumber},
		{"a folio of title and number in the footer", line(450, 760, 100, 8, "The Monthly – 12"), KindPageNumber},
		{"a month and year at display size in the header is not a page number", line(466, 43, 117, 15, "November - 2015"), KindHeadline},
		{"Page x of y inside a footer line", line(50, 760, 300, 8, "Annual report — Page 3 of 12"), KindFurniture},
		{"copyright line in the footer", line(50, 760, 300, 8, "© 2021 Elsevier Ltd. All rights reserved."), KindFurniture},
		{"Copyright word in the footer", line(50, 760, 300, 8, "Copyright 2019 The Authors"), KindFurniture},
		{"journal volume and issue in the header", line(50, 30, 250, 8, "Journal of Bridges, Vol. 12, No. 3"), KindFurniture},
		{"running head at body size with volume and date", line(120, 30, 370, 10, "Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020 / Proposed Rules"), KindFurniture},
		{"downloaded-from stamp in the footer", line(50, 760, 400, 7, "Downloaded from https://academic.example.com on 3 May 2022"), KindFurniture},
		{"published-by archive line in the footer", line(50, 760, 400, 7, "Published by: The University of Chicago Press"), KindFurniture},
		{"repository download date in the footer", line(50, 760, 300, 7, "Download date: 12. Jan. 2024"), KindFurniture},
		{"document number and revision in the footer", line(50, 760, 300, 7, "Doc. No. 4711-B Rev. C"), KindFurniture},
		{"scanner credit in the footer", line(400, 760, 150, 7, "Digitized by Google"), KindFurniture},
		// Size plus a stamp, anywhere.
		{"small stamp outside the bands", line(50, 600, 400, 7, "Downloaded from www.jstor.org on 3 May 2022"), KindFurniture},
		// Rotated in a side margin.
		{"rotated stamp in the left margin", TextBlock{BBox: BBox{15, 500, 6, 110}, Text: "jbell on DSKJLSW7X2PROD with PROPOSALS", FontSize: 5, LineCount: 1}, KindFurniture},
		{"rotated download stamp in the right margin", TextBlock{BBox: BBox{590, 300, 8, 200}, Text: "Downloaded from example.org on May 3, 2022", FontSize: 7, LineCount: 1}, KindFurniture},

		// Counter-examples.
		{"headline at the top in a large font is not furniture", line(50, 20, 500, 30, "Bridge Opens on June 1, 2024"), KindHeadline},
		{"body paragraph mentioning a date is not furniture", body10(50, 600, "On August 6, 2020 the council met again and voted on the bridge plan, which had been delayed for years."), KindParagraph},
		{"sentence at body size in the footer band is not furniture", line(50, 725, 500, 10, "The vote on August 6, 2020 was close and the mayor said it was a fair one."), KindParagraph},
		// Position plus size: a short line in small type set apart in a band.
		{"small jump line in the footer band", line(50, 760, 200, 8, "Continued overleaf"), KindFurniture},
		{"small running head of title and month", line(50, 30, 200, 8, "THE MONTHLY · MARCH 2024"), KindFurniture},
		{"small reporter's line in the footer", line(263, 743, 122, 10*0.83, "Alderson Reporting Company"), KindFurniture},
		{"form code with its revision date in the footer", line(24, 757, 104, 8, "DCF-F-2476-E  (R. 04/2014)"), KindFurniture},
		{"journal short title, volume and issue in the margin", TextBlock{BBox: BBox{20, 82, 21, 27}, Text: "ER 29,2", FontSize: 13, LineCount: 2}, KindFurniture},
		{"small sentence in the footer band is not furniture", line(50, 760, 400, 8, "The bridge opened to traffic in May."), KindParagraph},
		{"small note with a mark in the footer band is a footnote", line(50, 760, 400, 8, "* Figures are for 2020"), KindFootnote},
		{"margin note in words is not furniture", TextBlock{BBox: BBox{5, 300, 40, 24}, Text: "See the map", FontSize: 7, LineCount: 2}, KindParagraph},
		{"small date outside the bands is not furniture", line(50, 600, 200, 8, "Thursday, August 6, 2020"), KindParagraph},
		{"month and year alone in the header at body size is not furniture", line(50, 30, 200, 10, "THE MONTHLY · MARCH 2024"), KindParagraph},
		{"tall narrow block of several lines is not a rotated stamp", TextBlock{BBox: BBox{590, 300, 8, 60}, Text: "10 60 12", FontSize: 7, LineCount: 3}, KindParagraph},
		{"URL-only line is not a subhead", line(50, 600, 200, 13, "www.themonthly.com/bridge"), KindParagraph},
		{"bold URL-only line is not a subhead", TextBlock{BBox: BBox{50, 600, 200, 12}, Text: "https://example.org/bridge", FontSize: 10, Bold: true, LineCount: 1}, KindParagraph},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := onePage(tc.block); got != tc.want {
				t.Errorf("kind %q, want %q", got, tc.want)
			}
		})
	}
}

func TestClassifyColumnRunningIntoTheBandIsNotFurniture(t *testing.T) {
	// A dense page: the column's last lines, with a date, sit in the bottom
	// band right under the text above them.
	page := TextPage{Width: 612, Height: 792, Blocks: []TextBlock{
		{BBox: BBox{50, 60, 250, 660}, Text: lorem + lorem + lorem, FontSize: 10, LineCount: 55},
		line(50, 722, 250, 8, "April 21, 1901."),
		line(50, 52, 250, 8, "www.example.com"),
		{BBox: BBox{320, 60, 250, 660}, Text: lorem + lorem + lorem, FontSize: 10, LineCount: 55},
		line(320, 760, 250, 8, "www.example.com"),
	}}
	got := ClassifyPages([]TextPage{page})[0]
	if got[1].Kind != KindParagraph || got[2].Kind != KindParagraph {
		t.Errorf("lines glued to the column: %q, %q, want paragraph", got[1].Kind, got[2].Kind)
	}
	if got[4].Kind != KindFurniture {
		t.Errorf("footer set apart from the column: %q, want furniture", got[4].Kind)
	}
}

func TestClassifyFurnitureWeakRepetitionInBand(t *testing.T) {
	// Six pages: a running head on two of them (fewer than half) is
	// furniture when it sits in the top band; the same text repeated mid-page
	// is not.
	pages := make([]TextPage, 6)
	for i := range pages {
		pages[i] = TextPage{Width: 612, Height: 792, Blocks: []TextBlock{
			{BBox: BBox{50, 200, 250, 360}, Text: lorem + lorem, FontSize: 10, LineCount: 30},
			line(50, 30, 200, 8, "Chapter "+string(rune('A'+i))),
			line(50, 620, 200, 10, "Only on some pages"+string(rune('a'+i))),
		}}
	}
	pages[1].Blocks[1].Text, pages[2].Blocks[1].Text = "Bridges and towns", "Bridges and towns"
	pages[1].Blocks[2].Text, pages[2].Blocks[2].Text = "See the map", "See the map"
	got := ClassifyPages(pages)
	if got[1][1].Kind != KindFurniture || got[2][1].Kind != KindFurniture {
		t.Errorf("head repeated on two pages in the band: %q, %q, want furniture", got[1][1].Kind, got[2][1].Kind)
	}
	if got[0][1].Kind != KindFurniture {
		t.Error("a small head set apart in the top band on one page only is not furniture")
	}
	if got[1][2].Kind == KindFurniture {
		t.Error("text repeated mid-page on two of six pages is furniture")
	}
}

func TestClassifyFootnotes(t *testing.T) {
	// Two 10 pt columns from y=60; notes at 7 pt at the foot of the columns.
	mk := func(extra ...TextBlock) []Region {
		page := TextPage{Width: 612, Height: 792, Blocks: append([]TextBlock{
			{BBox: BBox{50, 60, 250, 500}, Text: lorem + lorem + lorem, FontSize: 10, LineCount: 40},
			{BBox: BBox{320, 60, 250, 500}, Text: lorem + lorem + lorem, FontSize: 10, LineCount: 40},
		}, extra...)}
		return ClassifyPages([]TextPage{page})[0]
	}
	note := func(x, y float64, text string) TextBlock {
		return TextBlock{BBox: BBox{x, y, 245, 40}, Text: text, FontSize: 7, LineCount: 4}
	}
	tests := []struct {
		name  string
		block TextBlock
		want  Kind
	}{
		{"numbered note at the foot", note(50, 680, "1 See the council minutes of 12 May, pages 4 to 9."), KindFootnote},
		{"asterisk note at the foot", note(320, 680, "* The author sits on the bridge committee."), KindFootnote},
		{"dagger note at the foot", note(50, 680, "† Died in 2019 before the vote."), KindFootnote},
		{"superscript note at the foot", note(50, 680, "¹ Figures from the town survey."), KindFootnote},
		{"number run into the text", note(50, 680, "2Figures from the town survey."), KindFootnote},
		{"small text at the foot without a mark is not a note", note(50, 680, "The council thanks everyone who wrote in."), KindParagraph},
		{"numbered small text mid-page is not a note", note(50, 300, "1 See the council minutes of 12 May."), KindParagraph},
		{"body-size numbered text at the foot is not a note", TextBlock{BBox: BBox{50, 680, 245, 40}, Text: "1 See the council minutes of 12 May, pages 4 to 9.", FontSize: 10, LineCount: 3}, KindParagraph},
		{"table cell at the foot is not a note", note(190, 680, "1 work-hour × $85 per hour = $85 ........"), KindParagraph},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mk(tc.block)[2].Kind; got != tc.want {
				t.Errorf("kind %q, want %q", got, tc.want)
			}
		})
	}

	t.Run("note continued from the previous page, beside a marked note", func(t *testing.T) {
		got := mk(note(50, 680, "ruled on the matter in 2019 and again in 2020."), note(320, 680, "3 See the survey of 2018."))
		if got[2].Kind != KindFootnote || got[3].Kind != KindFootnote {
			t.Errorf("kinds %q, %q, want footnote twice", got[2].Kind, got[3].Kind)
		}
	})
	t.Run("a note with body text under it is not a note", func(t *testing.T) {
		got := mk(note(50, 580, "1 See the council minutes of 12 May."), body10(50, 640, lorem))
		if got[2].Kind != KindParagraph {
			t.Errorf("kind %q, want paragraph", got[2].Kind)
		}
	})
	if IsRead(KindFootnote) {
		t.Error("footnotes are read aloud in the main flow")
	}
}

func TestClassifyLineNumbers(t *testing.T) {
	// A transcript: lines 1–20 numbered in the left margin, 25.8 pt apart,
	// the text starting clear of them.
	numbered := func(x float64) TextPage {
		p := TextPage{Width: 612, Height: 792}
		for n := 1; n <= 20; n++ {
			y := 64 + float64(n-1)*25.8
			p.Blocks = append(p.Blocks, line(x, y, 14, 12, strconv.Itoa(n)))
			p.Blocks = append(p.Blocks, line(126, y, 380, 12, "argument before the Supreme Court of the United States"))
		}
		return p
	}
	got := ClassifyPages([]TextPage{numbered(90)})[0]
	for i, r := range got {
		want := KindParagraph
		if i%2 == 0 {
			want = KindFurniture
		}
		if r.Kind != want {
			t.Errorf("region %d %q: kind %q, want %q", i, r.Text, r.Kind, want)
		}
	}

	// A table's rank column: its rows' text starts at the numbers' edge,
	// so they are cells, not line numbers.
	rank := TextPage{Width: 612, Height: 792}
	for n := 1; n <= 20; n++ {
		y := 64 + float64(n-1)*25.8
		rank.Blocks = append(rank.Blocks, line(90, y, 14, 12, strconv.Itoa(n)), line(60, y+30, 300, 12, "argument before the Court"))
	}
	for i, r := range ClassifyPages([]TextPage{rank})[0] {
		if r.Kind == KindFurniture {
			t.Errorf("region %d %q of a ranked list is furniture", i, r.Text)
		}
	}
}

func TestClassifyFooterLineMates(t *testing.T) {
	page := TextPage{Width: 595, Height: 842, Blocks: []TextBlock{
		{BBox: BBox{50, 200, 480, 360}, Text: lorem + lorem, FontSize: 14, LineCount: 24},
		line(85, 780, 156, 14, "诚信  公正  务实  专业"),
		line(444, 771, 114, 9, "Add:128 Xx Rd., Hangzhou, China www.example.com"),
		line(85, 700, 156, 14, "A label mid-page"),
	}}
	got := ClassifyPages([]TextPage{page})[0]
	if got[2].Kind != KindFurniture || got[1].Kind != KindFurniture {
		t.Errorf("footer line: address %q, motto beside it %q; want both furniture", got[2].Kind, got[1].Kind)
	}
	if got[3].Kind == KindFurniture {
		t.Errorf("a label outside the bands is furniture")
	}
}

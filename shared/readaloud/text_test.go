package readaloud

import (
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/podcast"
)

func TestNarrationReadsTheTitleFirstAndOnce(t *testing.T) {
	for _, tc := range []struct {
		name, title string
		parts       []Part
		want        string
	}{
		{"a headline repeating the title is read once", "Harbour Reborn",
			[]Part{{Kind: magazine.KindHeadline, Text: "HARBOUR  reborn."}, {Kind: magazine.KindParagraph, Text: "Boats came back."}},
			"Harbour Reborn.\n\nBoats came back."},
		{"a different headline is read after the title", "Harbour",
			[]Part{{Kind: magazine.KindHeadline, Text: "Harbour Reborn"}, {Kind: magazine.KindByline, Text: "By Ada"}, {Kind: magazine.KindParagraph, Text: "Boats."}},
			"Harbour.\n\nHarbour Reborn\n\nBy Ada\n\nBoats."},
		{"a title ending in a question mark keeps it", "Why boats?", []Part{{Kind: magazine.KindParagraph, Text: "Tides."}}, "Why boats?\n\nTides."},
		{"no title", "  ", []Part{{Kind: magazine.KindParagraph, Text: "Tides."}}, "Tides."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Narration(tc.title, tc.parts); got != tc.want {
				t.Fatalf("Narration = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestBylineDropsBy(t *testing.T) {
	for in, want := range map[string]string{"By Ada Lovelace": "Ada Lovelace", "by  Mary\nSomerville ": "Mary Somerville", "Caroline Herschel": "Caroline Herschel", "Byron Smith": "Byron Smith"} {
		if got := Byline([]Part{{Kind: magazine.KindParagraph, Text: "text"}, {Kind: magazine.KindByline, Text: in}}); got != want {
			t.Errorf("Byline(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Byline([]Part{{Kind: magazine.KindParagraph, Text: "By the sea."}}); got != "" {
		t.Errorf("a paragraph was taken for a byline: %q", got)
	}
}

func TestPodcastArticleLeavesOutTheRepeatedHeadlineAndByline(t *testing.T) {
	art := PodcastArticle("Harbour Reborn", []Part{{Kind: magazine.KindHeadline, Text: "Harbour Reborn"}, {Kind: magazine.KindByline, Text: "By Ada"}, {Kind: magazine.KindParagraph, Text: "One."}, {Kind: magazine.KindSubhead, Text: "Later"}, {Kind: magazine.KindParagraph, Text: "Two."}})
	if art.Title != "Harbour Reborn" || art.Byline != "Ada" || strings.Join(art.Paragraphs, "|") != "One.|Later|Two." {
		t.Fatalf("PodcastArticle = %+v", art)
	}
}

func TestIssueOrderFollowsThePages(t *testing.T) {
	pages := map[int]magazine.Page{
		1: {Number: 1, Order: []string{"a", "b"}, Regions: []magazine.Region{{ID: "a"}, {ID: "b"}}},
		2: {Number: 2, Order: []string{"c"}, Regions: []magazine.Region{{ID: "c"}}},
	}
	ref := func(p int, r string) []magazine.RegionRef { return []magazine.RegionRef{{Page: p, Region: r}} }
	arts := []magazine.Article{
		{ID: "z1", Regions: ref(2, "c")},
		{ID: "z2"},
		{ID: "z3", Regions: ref(1, "b")},
		{ID: "z4", Regions: ref(1, "a")},
	}
	var ids []string
	for _, a := range IssueOrder(arts, pages) {
		ids = append(ids, a.ID)
	}
	if got := strings.Join(ids, " "); got != "z4 z3 z1 z2" {
		t.Fatalf("IssueOrder = %s, want z4 z3 z1 z2", got)
	}
}

func words(n int) string { return strings.TrimSpace(strings.Repeat("word ", n)) }

func TestBoundLengthCutsAtATurnBoundaryKeepingTheClosing(t *testing.T) {
	// 150 words a minute: a 1-minute target holds 150 words, 172 with the tolerance.
	turns := []podcast.Turn{{Host: 0, Text: words(60)}, {Host: 1, Text: words(60)}, {Host: 0, Text: words(60)}, {Host: 1, Text: "Thanks for listening."}}
	s := podcast.Script{Turns: turns}
	cut, trimmed := BoundLength(s, 1)
	if !trimmed || len(cut.Turns) != 3 || cut.Turns[2].Text != "Thanks for listening." || cut.Turns[1].Text != turns[1].Text {
		t.Fatalf("BoundLength cut to %d turns (trimmed %v), want the first two and the closing", len(cut.Turns), trimmed)
	}
	if cut.EstimatedSeconds() > 60 {
		t.Fatalf("the cut script lasts %gs, over the minute", cut.EstimatedSeconds())
	}
	within := podcast.Script{Turns: []podcast.Turn{{Host: 0, Text: words(100)}, {Host: 1, Text: words(70)}, {Host: 0, Text: "Bye."}}}
	if _, trimmed := BoundLength(within, 1); trimmed {
		t.Fatalf("a script within 15%% of its minutes was cut")
	}
	long := podcast.Script{Turns: []podcast.Turn{{Host: 0, Text: words(400)}, {Host: 1, Text: words(10)}, {Host: 0, Text: "Bye."}}}
	if cut, _ := BoundLength(long, 1); len(cut.Turns) != 2 || cut.Turns[0].Text != long.Turns[0].Text {
		t.Fatalf("an over-long opening turn was not kept with the closing: %d turns", len(cut.Turns))
	}
}

func TestGroundingFeedbackNamesEachViolation(t *testing.T) {
	fb := GroundingFeedback([]podcast.Violation{{Turn: 2, Kind: podcast.KindNumber, Text: "42"}, {Turn: 3, Kind: podcast.KindName, Text: "Boston"}, {Turn: 4, Kind: podcast.KindQuote, Text: "we will rebuild it"}})
	for _, want := range []string{`turn 2: the number "42"`, `turn 3: the name "Boston"`, `turn 4: the quotation "we will rebuild it"`, "JSON"} {
		if !strings.Contains(fb, want) {
			t.Errorf("feedback lacks %q:\n%s", want, fb)
		}
	}
}

func TestPartsReadATableByItsHeadingsOrSkipIt(t *testing.T) {
	tb := &magazine.Table{Caption: "Refit prices", Rows: [][]magazine.Cell{
		{{Text: "Item", Header: true}, {Text: "Cost", Header: true}},
		{{Text: "Labor"}, {Text: "$85"}},
		{{Text: "Parts"}, {Text: "$1,200"}},
	}}
	page := magazine.Page{Number: 1, Order: []string{"r1", "r2", "r3"}, Regions: []magazine.Region{
		{ID: "r1", Kind: magazine.KindParagraph, Text: "The yard sent its prices."},
		{ID: "r2", Kind: magazine.KindTable, Text: tb.Text(), Table: tb},
		{ID: "r3", Kind: magazine.KindParagraph, Text: "Work starts in May."},
	}}
	a := magazine.Article{Regions: []magazine.RegionRef{{Page: 1, Region: "r1"}, {Page: 1, Region: "r2"}, {Page: 1, Region: "r3"}}}
	pages := map[int]magazine.Page{1: page}
	say := func(o magazine.Reading) string { return Narration("", Parts(a, pages, o)) }
	if got, want := say(magazine.Reading{}), "The yard sent its prices.\n\nRefit prices.\nItem: Labor, Cost: $85.\nItem: Parts, Cost: $1,200.\n\nWork starts in May."; got != want {
		t.Errorf("read aloud\n%q\nwant\n%q", got, want)
	}
	if got, want := say(magazine.Reading{SkipTables: true}), "The yard sent its prices.\n\nWork starts in May."; got != want {
		t.Errorf("with skip_tables\n%q\nwant\n%q", got, want)
	}
}

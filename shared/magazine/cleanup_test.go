package magazine

import (
	"reflect"
	"slices"
	"testing"
)

func textReg(id string, k Kind, x, y, w, h float64, text string) Region {
	return Region{ID: id, Kind: k, BBox: BBox{x, y, w, h}, Text: text, OriginalText: text}
}

func TestCleanupRules(t *testing.T) {
	photo := reg("img", KindImage, 100, 100, 300, 200)
	tests := []struct {
		name    string
		regions []Region
		// wantKinds: region id → kind after cleanup.
		wantKinds map[string]Kind
		wantRule  map[string]string
	}{
		{
			name:      "text inside a picture becomes text-in-image",
			regions:   []Region{photo, textReg("lbl", KindParagraph, 150, 150, 60, 12, "AXIS 2020")},
			wantKinds: map[string]Kind{"lbl": KindTextInFigure, "img": KindImage},
			wantRule:  map[string]string{"lbl": RuleTextInImage},
		},
		{
			name:      "text only partly over a picture is kept",
			regions:   []Region{photo, textReg("p", KindParagraph, 350, 250, 200, 100, "The council voted on the bridge plan.")},
			wantKinds: map[string]Kind{"p": KindParagraph},
		},
		{
			name:      "headline on a full-page background photo is kept",
			regions:   []Region{reg("bg", KindImage, 0, 0, 595, 842), textReg("h", KindHeadline, 40, 100, 500, 60, "Summer Issue")},
			wantKinds: map[string]Kind{"h": KindHeadline},
		},
		{
			name: "lone symbols and letterless text are noise",
			regions: []Region{
				textReg("dot", KindParagraph, 300, 300, 4, 4, "•"), textReg("dash", KindParagraph, 40, 500, 200, 8, "——————"),
				textReg("empty", KindParagraph, 40, 600, 100, 20, "  "),
			},
			wantKinds: map[string]Kind{"dot": KindNoise, "dash": KindNoise, "empty": KindNoise},
			wantRule:  map[string]string{"dot": RuleNoise},
		},
		{
			name: "tiny box with one letter is noise but a drop cap is not",
			regions: []Region{
				textReg("speck", KindParagraph, 300, 300, 5, 6, "i"), textReg("dropcap", KindParagraph, 40, 100, 40, 48, "T"),
				textReg("pn", KindPageNumber, 290, 820, 6, 8, "7"),
			},
			wantKinds: map[string]Kind{"speck": KindNoise, "dropcap": KindParagraph, "pn": KindPageNumber},
		},
		{
			name: "the smaller of two identical texts is a duplicate",
			regions: []Region{
				textReg("small", KindParagraph, 40, 700, 100, 20, "Bridge vote: what next?"),
				textReg("big", KindParagraph, 40, 100, 250, 40, "Bridge  vote — what next"),
			},
			wantKinds: map[string]Kind{"small": KindDuplicate, "big": KindParagraph},
			wantRule:  map[string]string{"small": RuleDuplicate},
		},
		{
			name: "equal-size duplicates keep the first in reading order",
			regions: []Region{
				textReg("b", KindParagraph, 40, 400, 100, 20, "Continued on page 12"),
				textReg("a", KindParagraph, 40, 100, 100, 20, "Continued on page 12"),
			},
			wantKinds: map[string]Kind{"a": KindParagraph, "b": KindDuplicate},
		},
		{
			name: "a pull-quote repeating body text is not a duplicate",
			regions: []Region{
				textReg("p", KindParagraph, 40, 100, 250, 40, "We will build it."),
				textReg("q", KindPullQuote, 310, 300, 250, 60, "We will build it."),
			},
			wantKinds: map[string]Kind{"p": KindParagraph, "q": KindPullQuote},
		},
		{
			name:      "pictures are never re-typed",
			regions:   []Region{reg("c", KindChart, 40, 40, 3, 3), photo},
			wantKinds: map[string]Kind{"c": KindChart, "img": KindImage},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Page{Width: 595, Height: 842, Regions: tc.regions}
			in.Order = ReadingOrder(in)
			before := slices.Clone(in.Regions)
			got, changes := Cleanup(in)
			if !reflect.DeepEqual(in.Regions, before) {
				t.Error("Cleanup modified its input")
			}
			if len(got.Regions) != len(tc.regions) {
				t.Fatalf("region count %d, want %d (nothing is deleted)", len(got.Regions), len(tc.regions))
			}
			for _, r := range got.Regions {
				if want, ok := tc.wantKinds[r.ID]; ok && r.Kind != want {
					t.Errorf("%s kind %q, want %q", r.ID, r.Kind, want)
				}
				if rule, ok := tc.wantRule[r.ID]; ok && (r.CleanedFrom == nil || r.CleanedFrom.Rule != rule) {
					t.Errorf("%s cleaned %+v, want rule %q", r.ID, r.CleanedFrom, rule)
				}
				if r.CleanedFrom != nil && IsRead(r.Kind) {
					t.Errorf("%s re-typed to a read kind %q", r.ID, r.Kind)
				}
			}
			retyped := 0
			for _, r := range got.Regions {
				if r.CleanedFrom != nil {
					retyped++
				}
			}
			if retyped != len(changes) {
				t.Errorf("%d re-typed regions but %d changes", retyped, len(changes))
			}
			// Uncleanup gives every kind back.
			back := Uncleanup(got)
			for i, r := range back.Regions {
				if r.Kind != tc.regions[i].Kind || r.CleanedFrom != nil {
					t.Errorf("after Uncleanup %s is %q (%+v), want %q", r.ID, r.Kind, r.CleanedFrom, tc.regions[i].Kind)
				}
			}
		})
	}
}

func TestCleanupSplitsRunOnByline(t *testing.T) {
	src := textReg("r2", KindByline, 40, 100, 250, 100, "By Jane Doe The council voted on Tuesday to widen the bridge.")
	src.ArticleID = "a1"
	in := Page{Regions: []Region{textReg("r1", KindHeadline, 40, 40, 500, 40, "Bridge"), src, textReg("r3", KindParagraph, 40, 220, 250, 100, "More text follows here.")}}
	in.Order = []string{"r1", "r2", "r3"}
	got, changes := Cleanup(in)
	if len(got.Regions) != 4 {
		t.Fatalf("regions %+v", got.Regions)
	}
	by, part := got.Regions[1], got.Regions[2]
	if by.Kind != KindByline || by.Text != "By Jane Doe" {
		t.Errorf("byline %q %q", by.Kind, by.Text)
	}
	if part.ID != "r2-s" || part.Kind != KindParagraph || part.Text != "The council voted on Tuesday to widen the bridge." || part.ArticleID != "a1" {
		t.Errorf("split-off part %+v", part)
	}
	if by.OriginalText != src.Text || part.OriginalText != src.Text {
		t.Errorf("original text not kept: %q / %q", by.OriginalText, part.OriginalText)
	}
	if by.BBox[1]+by.BBox[3] != part.BBox[1] || part.BBox[1]+part.BBox[3] != 200 {
		t.Errorf("boxes %v and %v do not tile the source box", by.BBox, part.BBox)
	}
	if !slices.Equal(got.Order, []string{"r1", "r2", "r2-s", "r3"}) {
		t.Errorf("order %v", got.Order)
	}
	if len(changes) != 1 || changes[0].Rule != RuleBylineSplit || changes[0].NewRegionID != "r2-s" {
		t.Errorf("changes %+v", changes)
	}

	for _, keep := range []string{"By Jane Doe", "By Jane Doe, Staff Writer", "By Jane Doe and John Roe"} {
		p, ch := Cleanup(Page{Regions: []Region{textReg("b", KindByline, 0, 0, 100, 20, keep)}})
		if len(p.Regions) != 1 || len(ch) != 0 || p.Regions[0].Text != keep {
			t.Errorf("byline %q was split: %+v", keep, p.Regions)
		}
	}

	// A taken id gets a numbered suffix.
	taken := Page{Regions: []Region{src, textReg("r2-s", KindParagraph, 300, 300, 100, 100, "Other text entirely here.")}}
	p, _ := Cleanup(taken)
	if p.Regions[1].ID != "r2-s2" {
		t.Errorf("new id %q, want r2-s2", p.Regions[1].ID)
	}
}

func TestCleanupIsIdempotent(t *testing.T) {
	in := Page{Width: 595, Height: 842, Regions: []Region{
		reg("img", KindImage, 100, 100, 300, 200),
		textReg("lbl", KindParagraph, 150, 150, 60, 12, "AXIS"),
		textReg("by", KindByline, 40, 320, 250, 60, "By Jane Doe The council voted on Tuesday."),
		textReg("d1", KindParagraph, 40, 400, 250, 40, "The same sentence twice."),
		textReg("d2", KindParagraph, 40, 500, 250, 40, "The same sentence twice."),
		textReg("d3", KindParagraph, 40, 600, 200, 40, "The same sentence twice."),
		textReg("x", KindParagraph, 500, 700, 3, 3, "~"),
	}}
	in.Order = ReadingOrder(in)
	once, changes := Cleanup(in)
	if len(changes) == 0 {
		t.Fatal("first run changed nothing")
	}
	twice, more := Cleanup(once)
	if len(more) != 0 || !reflect.DeepEqual(once, twice) {
		t.Errorf("second run changed %+v", more)
	}
	// Reversing one region only.
	back := Uncleanup(once, "lbl")
	for _, r := range back.Regions {
		if r.ID == "lbl" && (r.Kind != KindParagraph || r.CleanedFrom != nil) {
			t.Errorf("lbl not restored: %+v", r)
		}
		if r.ID == "x" && r.Kind != KindNoise {
			t.Errorf("x restored although not asked: %+v", r)
		}
	}
}

func TestCleanupKeepsTextSetOnPictures(t *testing.T) {
	card := reg("card", KindImage, 40, 100, 300, 300)
	withFont := func(r Region, size float64) Region { r.FontSize = size; return r }
	tests := []struct {
		name   string
		region Region
		want   Kind
	}{
		{"a paragraph of several lines on a tinted card stays text", withFont(textReg("p", KindParagraph, 60, 120, 260, 60, "Bridges connect towns and people across the river every day and night"), 10), KindParagraph},
		{"a one-line sentence on a photo stays text", textReg("s", KindParagraph, 60, 300, 260, 12, "The old bridge was built in 1910."), KindParagraph},
		{"a headline-like sentence with an exclamation stays text", textReg("h", KindSubhead, 60, 200, 200, 14, "Come and see the river!"), KindSubhead},
		{"a short label in a diagram becomes text-in-image", withFont(textReg("l", KindParagraph, 60, 150, 60, 10, "Locking shoulder"), 8), KindTextInFigure},
		{"a two-line label with few words becomes text-in-image", withFont(textReg("l2", KindParagraph, 60, 150, 60, 20, "Threaded nut core"), 8), KindTextInFigure},
		{"an axis label with digits becomes text-in-image", textReg("ax", KindParagraph, 60, 380, 80, 10, "Rainfall (mm) 2020"), KindTextInFigure},
		{"a short phrase ending in a full stop is still a label", textReg("f", KindParagraph, 60, 380, 80, 10, "Nut case."), KindTextInFigure},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := Cleanup(Page{Width: 595, Height: 842, Regions: []Region{card, tc.region}})
			if got.Regions[1].Kind != tc.want {
				t.Errorf("kind %q, want %q", got.Regions[1].Kind, tc.want)
			}
		})
	}
}

// A table's refined box can take in cells the grid did not (a header set
// over ruled columns, a second ruled table touching it): they are table
// text, read in place, never labels.
func TestCleanupKeepsTextOnTables(t *testing.T) {
	table := reg("t", KindTable, 56, 204, 480, 253)
	for _, text := range []string{"总资产（元）", "298,608,889.04", "Labor"} {
		cellReg := textReg("c", KindParagraph, 60, 420, 60, 10, text)
		got, changes := Cleanup(Page{Width: 595, Height: 842, Regions: []Region{table, cellReg}})
		if got.Regions[1].Kind != KindParagraph || len(changes) != 0 {
			t.Errorf("%q on a table: kind %q, changes %+v; want a paragraph, no change", text, got.Regions[1].Kind, changes)
		}
	}
}

package magazine

import (
	"slices"
	"testing"
)

// pageOf makes a page whose reading order is the regions' order.
func propPage(n int, rs ...Region) Page {
	p := Page{Number: n, Regions: rs}
	for _, r := range rs {
		p.Order = append(p.Order, r.ID)
	}
	return p
}

func preg(id string, k Kind, text string, size float64) Region {
	return Region{ID: id, Kind: k, Text: text, FontSize: size}
}

func refIDs(refs []RegionRef) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Region)
	}
	return out
}

func TestProposeArticles(t *testing.T) {
	pages := []Page{
		propPage(1,
			preg("f1", KindFurniture, "THE WEEKLY · MAY 2026", 8),
			preg("k1", KindHeadline, "SCIENCE", 12),
			preg("h1", KindHeadline, "Bees can count", 30),
			preg("d1", KindDeck, "A new study finds more than we knew.", 14),
			preg("b1", KindByline, "By Ada Lovelace", 9),
			preg("p1", KindParagraph, "Bees were trained to count.", 10),
			preg("i1", KindImage, "", 0),
			preg("c1", KindCaption, "A bee.", 8),
			preg("s1", KindHeadline, "How it was done", 14), // a subhead set as a headline
			preg("p2", KindParagraph, "They used sugar. (Continued on page 3)", 10),
			preg("a1", KindAd, "BUY SOAP", 20),
			preg("h2", KindHeadline, "Town hall reopens", 28),
			preg("p3", KindParagraph, "The hall opened on Monday.", 10),
			preg("n1", KindPageNumber, "1", 8),
		),
		propPage(2,
			preg("p4", KindParagraph, "The mayor spoke.", 10),
			preg("sb", KindSidebar, "Opening hours: 9 to 5.", 9),
		),
		propPage(3,
			preg("h3", KindHeadline, "Letters", 28),
			preg("p5", KindParagraph, "Dear editor, bees.", 10),
			preg("j1", KindParagraph, "Continued from page 1", 9),
			preg("p6", KindParagraph, "The bees got sugar for right answers.", 10),
		),
	}
	got := ProposeArticles(pages, nil)
	if len(got) != 3 {
		t.Fatalf("%d proposals, want 3: %+v", len(got), got)
	}
	want := []struct {
		title, author string
		regions       []string
		images        []string
	}{
		{"Bees can count", "Ada Lovelace", []string{"k1", "h1", "d1", "b1", "p1", "c1", "s1", "p2", "j1", "p6"}, []string{"i1"}},
		{"Town hall reopens", "", []string{"h2", "p3", "p4", "sb"}, nil},
		{"Letters", "", []string{"h3", "p5"}, nil},
	}
	for i, w := range want {
		g := got[i]
		if g.Title != w.title || g.Author != w.author || !slices.Equal(refIDs(g.Regions), w.regions) || !slices.Equal(refIDs(g.Images), w.images) {
			t.Errorf("proposal %d = %q by %q %v images %v, want %q by %q %v images %v", i, g.Title, g.Author, refIDs(g.Regions), refIDs(g.Images), w.title, w.author, w.regions, w.images)
		}
	}
	// Regions already in an article stay out of every proposal.
	got = ProposeArticles(pages, func(r RegionRef) bool { return r.Page == 1 && r.Region == "p3" })
	if slices.Contains(refIDs(got[1].Regions), "p3") {
		t.Errorf("a taken region was proposed: %v", refIDs(got[1].Regions))
	}
	// No headline at all: one article titled by its opening words.
	got = ProposeArticles([]Page{propPage(1, preg("p", KindParagraph, "Once upon a time there was a very long story to tell", 10))}, nil)
	if len(got) != 1 || got[0].Title != "Once upon a time there was a very…" {
		t.Errorf("untitled = %+v", got)
	}
}

func TestSplitAndMergeArticles(t *testing.T) {
	pages := map[int]Page{1: propPage(1,
		preg("h1", KindHeadline, "One", 30), preg("p1", KindParagraph, "a", 10),
		preg("h2", KindHeadline, "Two", 30), preg("b2", KindByline, "By Grace Hopper", 9), preg("i2", KindImage, "", 0), preg("p2", KindParagraph, "b", 10),
		preg("h3", KindHeadline, "Three", 30))}
	a := Article{ID: "a", Title: "One", Regions: []RegionRef{{1, "h1"}, {1, "p1"}, {1, "h2"}, {1, "b2"}, {1, "p2"}}, Images: []RegionRef{{1, "i2"}}}
	first, second, err := SplitArticle(a, RegionRef{1, "h2"}, pages)
	if err != nil {
		t.Fatal(err)
	}
	if first.ID != "a" || !slices.Equal(refIDs(first.Regions), []string{"h1", "p1"}) || len(first.Images) != 0 ||
		second.Title != "Two" || second.Author != "Grace Hopper" || !slices.Equal(refIDs(second.Regions), []string{"h2", "b2", "p2"}) || !slices.Equal(refIDs(second.Images), []string{"i2"}) {
		t.Errorf("split = %+v / %+v", first, second)
	}
	if _, _, err := SplitArticle(a, RegionRef{1, "h1"}, pages); err == nil {
		t.Error("a split at the first region was accepted")
	}
	if _, _, err := SplitArticle(a, RegionRef{1, "h3"}, pages); err == nil {
		t.Error("a split at a region outside the article was accepted")
	}
	second.ID = "b"
	third := Article{ID: "c", Title: "Three", Regions: []RegionRef{{1, "h3"}}}
	all := []Article{first, second, third}
	merged, err := MergeArticles(first, second, all, pages)
	if err != nil || merged.ID != "a" || merged.Title != "One" || !slices.Equal(refIDs(merged.Regions), refIDs(a.Regions)) || merged.Author != "Grace Hopper" {
		t.Errorf("merge = %+v, %v", merged, err)
	}
	if _, err := MergeArticles(first, third, all, pages); err == nil {
		t.Error("a merge over the article between was accepted")
	}
	if _, err := MergeArticles(second, first, all, pages); err == nil {
		t.Error("a merge with the article before was accepted")
	}
}

// boxed is a region with a box (x, y, width, height).
func boxed(id string, k Kind, text string, size float64, x, y, w, h float64) Region {
	r := preg(id, k, text, size)
	r.BBox = BBox{x, y, w, h}
	return r
}

// A newspaper page: two articles side by side under their headlines, read
// in an order that interleaves their columns, with an OCR speck read as a
// headline inside the first article's body and a column of cards beside.
func TestProposeArticlesNewspaperColumns(t *testing.T) {
	page := propPage(1,
		boxed("ha", KindHeadline, "Battleship visits the harbor", 30, 0, 0, 400, 40),
		boxed("a1", KindParagraph, "The ship arrived at dawn.", 10, 0, 50, 190, 100),
		boxed("hb", KindHeadline, "Auction sale", 24, 420, 0, 180, 30),
		boxed("b1", KindParagraph, "At ten o'clock, furniture.", 10, 420, 40, 180, 100),
		boxed("a2", KindParagraph, "Her guns were silent.", 10, 210, 50, 190, 100),
		boxed("sp", KindHeadline, "i..", 30, 100, 160, 20, 30),
		boxed("a3", KindParagraph, "Crowds cheered on the wharf.", 10, 0, 200, 190, 100),
		boxed("b2", KindParagraph, "Jas. Morgan, auctioneer.", 10, 420, 150, 180, 40),
		// A column of cards under no headline is no article.
		boxed("c1", KindParagraph, "Dr. Day, office hours 9 to 12.", 8, 620, 0, 80, 30),
	)
	got := ProposeArticles([]Page{page}, nil)
	if len(got) != 2 {
		t.Fatalf("%d proposals, want 2: %+v", len(got), got)
	}
	if got[0].Title != "Battleship visits the harbor" || !slices.Equal(refIDs(got[0].Regions), []string{"ha", "a1", "a2", "sp", "a3"}) {
		t.Errorf("first article %q %v", got[0].Title, refIDs(got[0].Regions))
	}
	if got[1].Title != "Auction sale" || !slices.Equal(refIDs(got[1].Regions), []string{"hb", "b1", "b2"}) {
		t.Errorf("second article %q %v", got[1].Title, refIDs(got[1].Regions))
	}
	// The same regions in one column (no headlines side by side) keep
	// their reading order.
	if order, heads := columnOrder(propPage(1, page.Regions[:2]...)); heads != nil || !slices.Equal(order, []string{"ha", "a1"}) {
		t.Errorf("single column: %v %v", order, heads)
	}
}

func TestDebrisHeadline(t *testing.T) {
	for text, want := range map[string]bool{"i..": true, "tne ....": true, ";l lew ua.": true, "1": true,
		"TO LEASE": false, "Letters": false, "Annexe B": false, "安徽省": false} {
		if got := debris(text); got != want {
			t.Errorf("debris(%q) = %v, want %v", text, got, want)
		}
	}
}

// A table of contents and an index are proposed as no article; the
// chapter between them is.
func TestProposeArticlesLeavesOutReferenceMatter(t *testing.T) {
	pages := []Page{
		propPage(1,
			preg("t", KindHeadline, "Contenido", 20), // named in no language known: found by its leaders
			preg("t1", KindParagraph, "1 Introduction . . . . . . . 2", 10),
			preg("t2", KindParagraph, "2 Methods . . . . . . . . . 5", 10),
			preg("t3", KindParagraph, "3 Results ……………… 9", 10),
			preg("t4", KindParagraph, "Annex", 10),
			preg("t5", KindParagraph, "A Data . . . . . . . . . . 12", 10),
		),
		propPage(2,
			preg("h", KindHeadline, "1 Introduction", 20),
			preg("p", KindParagraph, "We begin at the start. . . . and go on.", 10),
			preg("x", KindHeadline, "Index", 20),
			preg("x1", KindParagraph, "apple, 2", 10),
		),
	}
	got := ProposeArticles(pages, nil)
	if len(got) != 1 || got[0].Title != "1 Introduction" {
		t.Fatalf("proposals %+v, want the chapter alone", got)
	}
}

// A cover of title lines alone does not take the next page's section.
func TestProposeArticlesCoverKeepsToItsPage(t *testing.T) {
	pages := []Page{
		propPage(1, preg("c1", KindHeadline, "Quarterly Report", 24), preg("c2", KindHeadline, "April 2018", 14)),
		propPage(2, preg("s1", KindHeadline, "Section One: Notices", 18), preg("p1", KindParagraph, "The board vouches for this report.", 10)),
		propPage(3, preg("s2", KindHeadline, "Section Two: Accounts", 18), preg("p2", KindParagraph, "Sales fell.", 10),
			preg("n2", KindHeadline, "Notes to the accounts", 14), preg("p3", KindParagraph, "Figures in yuan.", 10)),
	}
	got := ProposeArticles(pages, nil)
	if len(got) != 3 || got[0].Title != "Quarterly Report" || got[1].Title != "Section One: Notices" || got[2].Title != "Section Two: Accounts" {
		t.Fatalf("proposals %+v, want the cover and the two sections", got)
	}
	// A divider page's band takes the next page's headline of subhead
	// size: the annex and its first section are one article.
	pages[1].Regions[0].FontSize = 14
	if got := ProposeArticles(pages, nil); len(got) != 2 || !slices.Equal(refIDs(got[0].Regions), []string{"c1", "c2", "s1", "p1"}) {
		t.Fatalf("proposals %+v, want the divider with its section, then section two", got)
	}
}

// A divider page after the first ("Annex B" and a subtitle) takes the
// sections that follow it, set smaller, until a headline of its size.
func TestProposeArticlesDividerTakesItsSections(t *testing.T) {
	pages := []Page{
		propPage(1, preg("h1", KindHeadline, "Chapter One", 24), preg("p1", KindParagraph, "Text.", 10),
			preg("s1", KindHeadline, "Section heading", 14), preg("p2", KindParagraph, "More.", 10),
			preg("s2", KindHeadline, "Another section", 14), preg("p3", KindParagraph, "Still more.", 10)),
		propPage(2, preg("d1", KindHeadline, "Annex B", 28), preg("d2", KindHeadline, "Survey results", 14)),
		propPage(3, preg("a1", KindHeadline, "Transport habits", 18), preg("q1", KindParagraph, "Question 1.", 10),
			preg("a2", KindHeadline, "Opinions on transport", 18), preg("q2", KindParagraph, "Question 2.", 10)),
		propPage(4, preg("c", KindHeadline, "Annex C", 28), preg("q3", KindParagraph, "Maps.", 10)),
	}
	got := ProposeArticles(pages, nil)
	var titles []string
	for _, a := range got {
		titles = append(titles, a.Title)
	}
	if !slices.Equal(titles, []string{"Chapter One", "Annex B", "Annex C"}) || !slices.Equal(refIDs(got[1].Regions), []string{"d1", "d2", "a1", "q1", "a2", "q2"}) {
		t.Fatalf("proposals %q %v, want the annex with its sections", titles, got)
	}
}

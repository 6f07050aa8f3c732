package magazine

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Proposal is one article ProposeArticles found: its title (the headline),
// its author (from the byline), and its regions in reading order with the
// pictures that go with it.
type Proposal struct {
	Title   string
	Author  string
	Regions []RegionRef
	Images  []RegionRef
}

// Jump lines: "(Continued on page 7)", "See PARK, page 3", and on the page
// the text jumps to, "Continued from page 1".
var (
	jumpTo   = regexp.MustCompile(`(?i)(?:continued|cont'?d\.?|turn to|see [^,]{1,40},?)\s+(?:on\s+)?page\s+(\d{1,4})\W*$`)
	jumpFrom = regexp.MustCompile(`(?i)^\W*(?:continued|cont'?d\.?)\s+from\s+(?:page\s+)?(\d{1,4})`)
)

// proposable: the kinds an article takes. Ads, running heads and feet, page
// numbers, credits and what cleanup silenced stay out.
func proposable(k Kind) bool {
	switch k {
	case KindAd, KindFurniture, KindPageNumber, KindSource, KindNoise, KindDuplicate, KindTextInFigure:
		return false
	}
	return true
}

// building is a proposal while the pages are walked.
type building struct {
	Proposal
	headSize float64 // the headline's font size (0: unknown)
	body     bool    // it has text beyond its headline band
	divider  bool    // its headline band had a page of its own, not the first
}

// ProposeArticles groups an issue's regions into articles, walking the
// pages in order and each page in its reading order: a headline band (a
// headline with any kicker or second deck line just before or after it)
// starts an article; the deck, byline, body, subheads, captions and
// sidebars that follow belong to it, across pages, until the next headline.
// A smaller headline inside an article's body is a subhead. Text before a
// page's first headline continues the article last read, or the article
// that said "continued on page N" when the page is N. Regions in taken
// (already in an article) are left where they are.
func ProposeArticles(pages []Page, taken func(RegionRef) bool) []Proposal {
	pages = slices.Clone(pages)
	slices.SortFunc(pages, func(a, b Page) int { return a.Number - b.Number })
	sub := subheadLevel(pages)
	var arts []*building
	var cur *building
	jumps := map[int]*building{} // page number → the article that jumps there
	for _, p := range pages {
		byID := map[string]Region{}
		for _, r := range p.Regions {
			byID[r.ID] = r
		}
		if j, ok := jumps[p.Number]; ok {
			cur = j
		}
		order, heads := columnOrder(p)
		if heads != nil {
			// A newspaper's article has its headline: text under none
			// continues only the article that jumped to this page.
			cur = jumps[p.Number]
		}
		for _, id := range order {
			r, ok := byID[id]
			ref := RegionRef{Page: p.Number, Region: id}
			if !ok || !proposable(r.Kind) || taken != nil && taken(ref) {
				continue
			}
			text := strings.Join(strings.Fields(r.Text), " ")
			if m := jumpFrom.FindStringSubmatch(text); m != nil {
				if j, ok := jumps[p.Number]; ok {
					cur = j
				} else if from, _ := strconv.Atoi(m[1]); from > 0 {
					if j := jumpedFrom(arts, from, p.Number); j != nil {
						cur = j
					}
				}
			}
			if heads[id] || r.Kind == KindHeadline && startsArticle(cur, r, p.Number, pages[0].Number, sub) {
				cur = &building{headSize: r.FontSize}
				arts = append(arts, cur)
			}
			if cur == nil && heads != nil {
				continue // a newspaper's column under no headline: cards, notices
			}
			if cur == nil { // text before any headline: an article of its own
				cur = &building{}
				arts = append(arts, cur)
			}
			cur.add(ref, r, text)
			if m := jumpTo.FindStringSubmatch(text); m != nil && IsRead(r.Kind) {
				if to, _ := strconv.Atoi(m[1]); to > p.Number {
					jumps[to] = cur
				}
			}
		}
	}
	var out []Proposal
	for _, a := range arts {
		if len(a.Regions) == 0 || !a.hasText() {
			continue
		}
		if a.Title == "" {
			a.Title = a.fallbackTitle(pages)
		}
		if a.reference(pages) {
			continue
		}
		out = append(out, a.Proposal)
	}
	return out
}

// startsArticle: a headline starts a new article unless the current one is
// still in its headline band (only headlines and decks so far: a kicker
// and its headline, a divider page and the page after it) or it is a
// clearly smaller heading inside the body.
func startsArticle(cur *building, r Region, page, first int, sub float64) bool {
	if debris(r.Text) {
		return false
	}
	if cur == nil {
		return true
	}
	if !cur.body {
		if len(cur.Regions) == 0 || cur.Regions[len(cur.Regions)-1].Page == page {
			return false
		}
		// A band of headlines alone on its page: the document's cover is
		// an article of its own, unless the next page opens at subhead
		// size; a later short one (a title and a line or two) is a
		// divider ("Annexe B"), whose smaller headlines that follow are
		// its sections.
		if cur.Regions[0].Page != first && len(cur.Regions) <= 3 {
			cur.divider = true
			return false
		}
		return r.FontSize > sub
	}
	if cur.headSize > 0 && r.FontSize > 0 && r.FontSize < 0.8*cur.headSize && (r.FontSize <= sub || cur.divider) {
		return false
	}
	return true
}

// debris: a "headline" without a word of four letters (or a run of two
// CJK characters) is OCR debris, a speck read large ("i..", "tne ...."),
// and starts nothing.
func debris(text string) bool {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) }) {
		rs := []rune(w)
		if len(rs) >= 4 || len(rs) >= 2 && unicode.In(rs[0], unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return false
		}
	}
	return true
}

// columnOrder is the order a page is walked in. On a page laid out as a
// newspaper (two headlines side by side: several articles in parallel
// columns), an article lies under its headline: each region goes to the
// nearest headline above it across most of the region's width, and the
// page is walked headline by headline (in reading order), each followed by
// its regions; regions under no headline come first (they continue only
// an article that jumped to the page). Reading order alone interleaves
// the columns of neighbouring articles there. heads are the headlines that
// start an article whatever came before. Other pages keep their reading
// order.
func columnOrder(p Page) (order []string, heads map[string]bool) {
	byID := map[string]Region{}
	for _, r := range p.Regions {
		byID[r.ID] = r
	}
	var hs []Region // headlines that can start an article, in reading order
	for _, id := range p.Order {
		if r, ok := byID[id]; ok && r.Kind == KindHeadline && !debris(r.Text) && r.BBox[2] > 0 {
			hs = append(hs, r)
		}
	}
	if !sideBySide(hs) {
		return p.Order, nil
	}
	// under is the headline a region lies under ("" for none): the
	// nearest above it across most of the region's width.
	under := func(r Region) string {
		cy := r.BBox[1] + r.BBox[3]/2
		best, bestY := "", math.Inf(-1)
		for _, h := range hs {
			bottom := h.BBox[1] + h.BBox[3]
			across := min(r.BBox[0]+r.BBox[2], h.BBox[0]+h.BBox[2]) - max(r.BBox[0], h.BBox[0])
			if h.ID != r.ID && bottom <= cy && across >= 0.6*r.BBox[2] && bottom > bestY {
				best, bestY = h.ID, bottom
			}
		}
		return best
	}
	// group: a headline set just under another (a second headline line,
	// a kicker's headline) stays in that one's group.
	group := map[string]string{}
	heads = map[string]bool{}
	for _, h := range hs {
		g := h.ID
		if o := under(h); o != "" {
			above := byID[o]
			if gap := h.BBox[1] - (above.BBox[1] + above.BBox[3]); gap < 0.25*max(h.BBox[3], above.BBox[3]) {
				g = group[o]
			}
		}
		group[h.ID] = g
		if g == h.ID {
			heads[h.ID] = true
		}
	}
	members := map[string][]string{}
	var loose []string
	for _, id := range p.Order {
		r, ok := byID[id]
		if !ok {
			loose = append(loose, id)
			continue
		}
		g, isHead := group[id]
		if !isHead {
			if o := under(r); o != "" {
				g = group[o]
			}
		}
		if g == "" {
			loose = append(loose, id)
			continue
		}
		members[g] = append(members[g], id)
	}
	// Each group is walked from its headline band (in reading order),
	// then the rest of its regions.
	order = loose
	for _, h := range hs {
		if !heads[h.ID] {
			continue
		}
		for _, b := range hs {
			if group[b.ID] == h.ID {
				order = append(order, b.ID)
			}
		}
		for _, id := range members[h.ID] {
			if _, band := group[id]; !band {
				order = append(order, id)
			}
		}
	}
	return order, heads
}

// sideBySide: two headlines share a line's height but not its width.
func sideBySide(hs []Region) bool {
	for i, a := range hs {
		for _, b := range hs[i+1:] {
			vert := min(a.BBox[1]+a.BBox[3], b.BBox[1]+b.BBox[3]) - max(a.BBox[1], b.BBox[1])
			horiz := min(a.BBox[0]+a.BBox[2], b.BBox[0]+b.BBox[2]) - max(a.BBox[0], b.BBox[0])
			if vert > 0.5*min(a.BBox[3], b.BBox[3]) && horiz < 0 {
				return true
			}
		}
	}
	return false
}

// subheadLevel is the largest font size a headline inside an article's body
// may have and still be read as its subhead: the smallest size two or more
// headlines share (a report's section heads), so a cover's large title does
// not swallow the chapters set a size below it. With no shared size, only
// the size relative to the article's headline counts.
func subheadLevel(pages []Page) float64 {
	count := map[float64]int{}
	for _, p := range pages {
		for _, r := range p.Regions {
			if r.Kind == KindHeadline && r.FontSize > 0 {
				count[math.Round(r.FontSize)]++
			}
		}
	}
	level := math.Inf(1)
	for size, n := range count {
		if n >= 2 && size < level {
			level = size
		}
	}
	return level + 0.5
}

func (a *building) add(ref RegionRef, r Region, text string) {
	switch {
	case IsVisual(r.Kind):
		a.Images = append(a.Images, ref)
		return
	case r.Kind == KindHeadline && !a.body:
		if a.Title == "" {
			a.Title = clipTitle(text)
		} else if r.FontSize > a.headSize && a.headSize > 0 {
			// A kicker came first: the larger line is the headline.
			a.Title, a.headSize = clipTitle(text), r.FontSize
		}
		a.headSize = max(a.headSize, r.FontSize)
	case r.Kind == KindByline:
		if a.Author == "" {
			a.Author = author(text)
		}
	case r.Kind != KindDeck:
		a.body = true
	}
	a.Regions = append(a.Regions, ref)
}

// Reference matter: a table of contents, an index, a list of figures,
// abbreviations or symbols, by its heading (English, French, German,
// Spanish), or by its lines' dot leaders.
var (
	referenceTitle = regexp.MustCompile(`(?i)^\W*(?:(?:table of )?contents|index|sommaire|table des mati[eè]res|index alphab[eé]tique|[ií]ndice|inhalt|inhaltsverzeichnis|stichwortverzeichnis|sachverzeichnis|symbolverzeichnis|abk[uü]rzungsverzeichnis|abbildungsverzeichnis|tabellenverzeichnis|list of (?:figures|tables|abbreviations|symbols)|liste des (?:figures|tableaux|abr[eé]viations|sigles|symboles))\W*$`)
	dotLeader      = regexp.MustCompile(`(?:\.\s?){4,}|…{2,}`)
)

// reference: the proposal is reference matter, which no one listens to as
// an article: its title names it, or most of its lines lead dots to a
// page number.
func (a *building) reference(pages []Page) bool {
	if referenceTitle.MatchString(a.Title) {
		return true
	}
	lines, leaders := 0, 0
	for _, ref := range a.Regions {
		if r, ok := findRegion(pages, ref); ok && strings.TrimSpace(r.Text) != "" {
			lines++
			if dotLeader.MatchString(r.Text) {
				leaders++
			}
		}
	}
	return lines >= 5 && 2*leaders >= lines
}

// hasText: a proposal of pictures alone is not an article.
func (a *building) hasText() bool { return a.body || a.Title != "" }

// fallbackTitle: an article without a headline is titled by its first
// subhead, else the opening words of its first text.
func (a *building) fallbackTitle(pages []Page) string {
	first := ""
	for _, ref := range a.Regions {
		r, ok := findRegion(pages, ref)
		if !ok || strings.TrimSpace(r.Text) == "" {
			continue
		}
		if r.Kind == KindSubhead {
			return clipTitle(r.Text)
		}
		if first == "" {
			first = r.Text
		}
	}
	words := strings.Fields(first)
	if len(words) > 8 {
		return strings.Join(words[:8], " ") + "…"
	}
	if len(words) == 0 {
		return "Untitled article"
	}
	return strings.Join(words, " ")
}

func findRegion(pages []Page, ref RegionRef) (Region, bool) {
	for _, p := range pages {
		if p.Number != ref.Page {
			continue
		}
		for _, r := range p.Regions {
			if r.ID == ref.Region {
				return r, true
			}
		}
	}
	return Region{}, false
}

// jumpedFrom is the article on page from that jumped to page to (the last
// one with a region there), or nil.
func jumpedFrom(arts []*building, from, to int) *building {
	for i := len(arts) - 1; i >= 0; i-- {
		if slices.ContainsFunc(arts[i].Regions, func(r RegionRef) bool { return r.Page == from }) && from < to {
			return arts[i]
		}
	}
	return nil
}

// maxTitle bounds a title taken from a headline (the API takes 300).
const maxTitle = 200

func clipTitle(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxTitle {
		return s
	}
	if cut := strings.LastIndex(s[:maxTitle], " "); cut > 0 {
		return s[:cut] + "…"
	}
	return strings.ToValidUTF8(s[:maxTitle], "") + "…"
}

var byPrefix = regexp.MustCompile(`(?i)^(?:by|words by|text by|written by)\s+`)

// author is the name a byline gives, without its "By".
func author(byline string) string {
	return clipTitle(strings.TrimRight(byPrefix.ReplaceAllString(strings.TrimSpace(byline), ""), " ,;"))
}

// SplitArticle cuts a before the region at (one of its regions, not the
// first): the first part keeps a's id and title, the second (no id yet) is
// titled by its first headline, else its first subhead or opening words,
// and takes the pictures on the pages after the cut's page, and those on
// the cut's page read after it.
func SplitArticle(a Article, at RegionRef, pages map[int]Page) (Article, Article, error) {
	i := slices.Index(a.Regions, at)
	if i <= 0 {
		return a, Article{}, fmt.Errorf("region %s on page %d is not in the article after its first region", at.Region, at.Page)
	}
	first, second := a, a
	first.Regions, second.Regions = slices.Clone(a.Regions[:i]), slices.Clone(a.Regions[i:])
	first.Images, second.Images = []RegionRef{}, []RegionRef{}
	cut := slices.Index(pages[at.Page].Order, at.Region)
	for _, img := range a.Images {
		if img.Page > at.Page || img.Page == at.Page && slices.Index(pages[at.Page].Order, img.Region) >= cut {
			second.Images = append(second.Images, img)
		} else {
			first.Images = append(first.Images, img)
		}
	}
	second.ID, second.Author = "", ""
	b := &building{Proposal: Proposal{Regions: second.Regions}}
	list := slices.Collect(maps.Values(pages))
	for _, ref := range second.Regions {
		if r, ok := findRegion(list, ref); ok {
			switch {
			case r.Kind == KindHeadline && b.Title == "":
				b.Title = clipTitle(r.Text)
			case r.Kind == KindByline && second.Author == "":
				second.Author = author(r.Text)
			}
		}
	}
	if b.Title == "" {
		b.Title = b.fallbackTitle(list)
	}
	second.Title = b.Title
	return first, second, nil
}

// MergeArticles joins a and the article that follows it in the issue's
// reading order (b): a keeps its id and title and takes b's regions and
// pictures after its own. Another article starting between them refuses.
func MergeArticles(a, b Article, all []Article, pages map[int]Page) (Article, error) {
	if a.ID == b.ID {
		return a, fmt.Errorf("an article cannot merge with itself")
	}
	sa, oka := start(a, pages)
	sb, okb := start(b, pages)
	if !oka || !okb || !sa.before(sb) {
		return a, fmt.Errorf("article %q does not follow %q in the issue", b.Title, a.Title)
	}
	for _, x := range all {
		if sx, ok := start(x, pages); ok && x.ID != a.ID && x.ID != b.ID && sa.before(sx) && sx.before(sb) {
			return a, fmt.Errorf("article %q lies between %q and %q; merge adjacent articles only", x.Title, a.Title, b.Title)
		}
	}
	a.Regions = append(slices.Clone(a.Regions), b.Regions...)
	a.Images = append(slices.Clone(a.Images), b.Images...)
	if a.Author == "" {
		a.Author = b.Author
	}
	return a, nil
}

// place is where a region is read in the issue.
type place struct{ page, index int }

func (x place) before(y place) bool { return x.page < y.page || x.page == y.page && x.index < y.index }

// start is where an article's first region is read.
func start(a Article, pages map[int]Page) (place, bool) {
	for _, r := range a.Regions {
		if i := slices.Index(pages[r.Page].Order, r.Region); i >= 0 {
			return place{r.Page, i}, true
		}
	}
	return place{}, false
}

// InIssueOrder sorts articles by where their first region is read (page,
// then place in the page's reading order); articles with no region placed
// go last, in the order given.
func InIssueOrder(arts []Article, pages map[int]Page) {
	slices.SortStableFunc(arts, func(x, y Article) int {
		px, okx := start(x, pages)
		py, oky := start(y, pages)
		switch {
		case okx != oky && okx:
			return -1
		case okx != oky:
			return 1
		case !okx || px == py:
			return 0
		case px.before(py):
			return -1
		}
		return 1
	})
}

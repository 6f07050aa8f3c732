package magazine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/fault"
)

// Errors of region editing.
var (
	// ErrNoRegion: the page has no region with that id (a second delete).
	ErrNoRegion = fault.New(fault.NotFound, "no such region")
	// ErrBadEdit: the edit cannot apply (offset outside the text, no next
	// region, a kind that does not exist, an empty box).
	ErrBadEdit = fault.New(fault.Invalid, "edit does not apply")
	// ErrOtherArticle: a merge would move text out of an article the
	// surviving region is not in.
	ErrOtherArticle = fault.New(fault.Conflict, "the regions belong to different articles")
)

// RegionRef names a region of an issue.
type RegionRef struct {
	Page   int    `json:"page" minimum:"1"`
	Region string `json:"region" minLength:"1" maxLength:"64"`
}

// Article is a group of regions read as one piece, in order, with the
// pictures that go with it. Its approval state is one of: draft (neither
// flag), approved (Approved), or changed since approval
// (ChangedSinceApproval): approved once, then changed.
type Article struct {
	ID       string      `json:"id"`
	IssueID  string      `json:"issue_id"`
	Title    string      `json:"title"`
	Regions  []RegionRef `json:"regions"`
	Images   []RegionRef `json:"images"`
	Approved bool        `json:"approved" doc:"approved, and nothing in the article changed since (its title, region or image list, or any of its regions' text, box, kind or description)"`
	// ChangedSinceApproval keeps a withdrawn approval visible: the article
	// needs a new look, not a first one.
	ChangedSinceApproval bool `json:"changed_since_approval" doc:"the article was approved, then something in it changed, which withdrew the approval (approved is false); approving it again clears this"`
	// Proposed: found by ProposeArticles and not yet accepted; it can be
	// listened to at once, and accepting it approves it.
	Proposed bool   `json:"proposed,omitempty" doc:"proposed automatically from the issue's headlines and not yet accepted (status proposed); it can be listened to, and accepting it approves it"`
	Author   string `json:"author,omitempty" maxLength:"300" doc:"the author its byline names, when a proposal found one"`
}

// Membership is how an edit changed which regions exist, so articles can
// follow: removed regions leave every article, a split's new part follows
// its original, a merge keeps the survivor.
type Membership struct {
	Removed []string          // ids that no longer exist
	After   map[string]string // new id → the id it follows (split)
}

// Follow applies a page edit's membership change to articles.
func (m Membership) Follow(page int, articles []Article) []Article {
	out := make([]Article, len(articles))
	for i, a := range articles {
		a.Regions = follow(page, a.Regions, m)
		a.Images = follow(page, a.Images, m)
		out[i] = a
	}
	return out
}

func follow(page int, refs []RegionRef, m Membership) []RegionRef {
	out := []RegionRef{} // an empty list, never null, for clients
	for _, r := range refs {
		if r.Page == page && slices.Contains(m.Removed, r.Region) {
			continue
		}
		out = append(out, r)
		if r.Page != page {
			continue
		}
		for newID, after := range m.After {
			if after == r.Region {
				out = append(out, RegionRef{Page: page, Region: newID})
			}
		}
	}
	return out
}

func (p Page) index(id string) (int, error) {
	i := slices.IndexFunc(p.Regions, func(r Region) bool { return r.ID == id })
	if i < 0 {
		return -1, fmt.Errorf("region %s on page %d: %w", id, p.Number, ErrNoRegion)
	}
	return i, nil
}

func (p Page) clone() Page {
	p.Regions = slices.Clone(p.Regions)
	p.Order = slices.Clone(p.Order)
	return p
}

// distinct refuses a set that names one id twice: the second would answer
// "no such region" for a region that exists.
func distinct(ids []string) error {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return fmt.Errorf("id %s named twice: %w", id, ErrBadEdit)
		}
		seen[id] = true
	}
	return nil
}

// DeleteRegions removes regions (all must exist, each named once) and
// their place in the reading order.
func DeleteRegions(p Page, ids []string) (Page, Membership, error) {
	if err := distinct(ids); err != nil {
		return Page{}, Membership{}, err
	}
	p = p.clone()
	for _, id := range ids {
		i, err := p.index(id)
		if err != nil {
			return Page{}, Membership{}, err
		}
		p.Regions = slices.Delete(p.Regions, i, i+1)
		p.Order = slices.DeleteFunc(p.Order, func(o string) bool { return o == id })
	}
	return p, Membership{Removed: slices.Clone(ids)}, nil
}

// MoveRegion gives a region a new box (move or resize); the box is then
// hand-placed.
func MoveRegion(p Page, id string, b BBox) (Page, error) {
	if err := CheckBox(p, b); err != nil {
		return Page{}, err
	}
	p = p.clone()
	i, err := p.index(id)
	if err != nil {
		return Page{}, err
	}
	p.Regions[i].BBox = b
	p.Regions[i].HandPlaced = true
	return p, nil
}

// CheckBox refuses a box that is not a real area of the page: NaN or
// infinite numbers, no width or height, or any part off the page (a point
// of slack for rounding).
func CheckBox(p Page, b BBox) error {
	for _, v := range b {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("box %v: %w", b, ErrBadEdit)
		}
	}
	if b[2] <= 0 || b[3] <= 0 || b[0] < 0 || b[1] < 0 || (p.Width > 0 && b[0]+b[2] > p.Width+1) || (p.Height > 0 && b[1]+b[3] > p.Height+1) {
		return fmt.Errorf("box %v is empty or outside the %gx%g page: %w", b, p.Width, p.Height, ErrBadEdit)
	}
	return nil
}

// SetText replaces a region's text; original_text stays as first read.
func SetText(p Page, id, text string) (Page, error) {
	p = p.clone()
	i, err := p.index(id)
	if err != nil {
		return Page{}, err
	}
	// The text of a table with cells is its cells': an edit of the text
	// alone would leave the grid saying something else.
	if p.Regions[i].Table != nil && p.Regions[i].Kind == KindTable {
		return Page{}, fmt.Errorf("region %s is a table with cells: edit its cells (PATCH …/regions/%s/table), not its text: %w", id, id, ErrBadEdit)
	}
	if p.Regions[i].OriginalText == "" {
		p.Regions[i].OriginalText = p.Regions[i].Text
	}
	p.Regions[i].Text = text
	return p, nil
}

// Split cuts a text region at a rune offset into two regions, the second
// placed right after the first in the reading order and in every article.
// The box is shared out by the length of each part.
func Split(p Page, id string, offset int) (Page, string, Membership, error) {
	p = p.clone()
	i, err := p.index(id)
	if err != nil {
		return Page{}, "", Membership{}, err
	}
	r := p.Regions[i]
	runes := []rune(r.Text)
	if IsVisual(r.Kind) || offset <= 0 || offset >= len(runes) {
		return Page{}, "", Membership{}, fmt.Errorf("split %s at %d of %d characters: %w", id, offset, len(runes), ErrBadEdit)
	}
	first, second := strings.TrimSpace(string(runes[:offset])), strings.TrimSpace(string(runes[offset:]))
	share := float64(utf8.RuneCountInString(first)) / float64(max(1, utf8.RuneCountInString(first)+utf8.RuneCountInString(second)))
	top := r
	top.Text = first
	top.BBox[3] = r.BBox[3] * share
	bottom := r
	bottom.ID = uniqueID(p.Regions, r.ID+"s")
	bottom.Text = second
	bottom.BBox[1] = r.BBox[1] + top.BBox[3]
	bottom.BBox[3] = r.BBox[3] - top.BBox[3]
	// Both halves remember the whole text as first read.
	orig := r.OriginalText
	if orig == "" {
		orig = r.Text
	}
	top.OriginalText, bottom.OriginalText = orig, orig
	top.CropKey, bottom.CropKey = "", ""
	p.Regions[i] = top
	p.Regions = slices.Insert(p.Regions, i+1, bottom)
	if at := slices.Index(p.Order, id); at >= 0 {
		p.Order = slices.Insert(p.Order, at+1, bottom.ID)
	}
	return p, bottom.ID, Membership{After: map[string]string{bottom.ID: id}}, nil
}

// NextInOrder is the region read after id (reading order, else page order).
func NextInOrder(p Page, id string) (string, bool) {
	order := p.Order
	if len(order) == 0 {
		order = ReadingOrder(p)
	}
	at := slices.Index(order, id)
	if at < 0 || at+1 >= len(order) {
		return "", false
	}
	return order[at+1], true
}

// MergeNext joins the region read after id into it: texts joined, boxes
// united. The next region leaves the page and every article.
func MergeNext(p Page, id string) (Page, string, Membership, error) {
	next, ok := NextInOrder(p, id)
	if !ok {
		return Page{}, "", Membership{}, fmt.Errorf("region %s has no next region to merge: %w", id, ErrBadEdit)
	}
	p = p.clone()
	i, err := p.index(id)
	if err != nil {
		return Page{}, "", Membership{}, err
	}
	j, err := p.index(next)
	if err != nil {
		return Page{}, "", Membership{}, err
	}
	a, b := p.Regions[i], p.Regions[j]
	if IsVisual(a.Kind) != IsVisual(b.Kind) {
		return Page{}, "", Membership{}, fmt.Errorf("merge a %s with a %s: %w", a.Kind, b.Kind, ErrBadEdit)
	}
	if a.Table != nil || b.Table != nil {
		return Page{}, "", Membership{}, fmt.Errorf("merge %s with %s: a table with cells is edited cell by cell (add rows to it instead): %w", id, next, ErrBadEdit)
	}
	if a.OriginalText == "" {
		a.OriginalText = a.Text
	}
	bo := b.OriginalText
	if bo == "" {
		bo = b.Text
	}
	// Two halves of one split both remember the whole text as first read:
	// joined again, that text is kept once, not twice.
	if !halves(a, b) {
		a.OriginalText = strings.TrimSpace(a.OriginalText + " " + bo)
	}
	a.Text = JoinRun(a.Text, b.Text)
	a.BBox = a.BBox.Union(b.BBox)
	a.CropKey = ""
	p.Regions[i] = a
	p.Regions = slices.Delete(p.Regions, j, j+1)
	p.Order = slices.DeleteFunc(p.Order, func(o string) bool { return o == next })
	return p, next, Membership{Removed: []string{next}}, nil
}

// halves reports whether a and b are parts of one split region: a split
// names the new part after the old (p1, p1s, p1ss) and gives both the
// original text.
func halves(a, b Region) bool {
	return a.OriginalText != "" && a.OriginalText == b.OriginalText &&
		(strings.HasPrefix(b.ID, a.ID) || strings.HasPrefix(a.ID, b.ID))
}

// CheckMerge refuses a merge of next into id that would take text out of
// an article: every article holding next must hold id too. (A region in no
// article may join one.)
func CheckMerge(page int, id, next string, articles []Article) error {
	holds := func(a Article, r string) bool {
		ref := RegionRef{Page: page, Region: r}
		return slices.Contains(a.Regions, ref) || slices.Contains(a.Images, ref)
	}
	for _, a := range articles {
		if holds(a, next) && !holds(a, id) {
			return fmt.Errorf("region %s is in article %q and %s is not: merging would take its text out of that article; move it into the same article first: %w", next, a.Title, id, ErrOtherArticle)
		}
	}
	return nil
}

// SetKind re-types regions. A text region that becomes a picture folds the
// text regions inside it into the picture (they become text-in-image); a
// picture that becomes text drops its crop. Article membership is kept.
// Returns the ids of regions whose crop must be cut again.
func SetKind(p Page, ids []string, kind Kind) (Page, []string, error) {
	if _, ok := Info(kind); !ok {
		return Page{}, nil, fmt.Errorf("kind %q: %w", kind, ErrBadEdit)
	}
	if err := distinct(ids); err != nil {
		return Page{}, nil, err
	}
	p = p.clone()
	var recrop []string
	for _, id := range ids {
		i, err := p.index(id)
		if err != nil {
			return Page{}, nil, err
		}
		r := &p.Regions[i]
		wasVisual := IsVisual(r.Kind)
		r.Kind = kind
		r.CleanedFrom = nil
		switch {
		case IsVisual(kind) && !wasVisual:
			r.VisualKind = visualKindOf(kind)
			recrop = append(recrop, id)
			foldInto(&p, i)
		case IsVisual(kind):
			r.VisualKind = visualKindOf(kind)
		case wasVisual:
			r.CropKey, r.VisualKind = "", ""
		}
	}
	return p, recrop, nil
}

func visualKindOf(k Kind) Kind {
	switch k {
	case KindChart, KindTable, KindCode:
		return k
	}
	return KindFigure
}

// foldInto turns the text regions lying inside picture i into labels of
// the picture, so they are no longer read as body text.
func foldInto(p *Page, i int) {
	pic := p.Regions[i].BBox
	for j := range p.Regions {
		r := &p.Regions[j]
		if j == i || IsVisual(r.Kind) || r.Kind == KindTextInFigure {
			continue
		}
		if r.BBox.Overlap(pic) >= 0.8*r.BBox.Area() {
			r.CleanedFrom = &Cleaned{Kind: r.Kind, Rule: "folded-into-picture"}
			r.Kind = KindTextInFigure
		}
	}
}

// AddRegion draws a new region (hand-placed); a hand-ordered page keeps its
// order, with the new region read last.
func AddRegion(p Page, b BBox, kind Kind, text string) (Page, string, error) {
	if _, ok := Info(kind); !ok {
		return Page{}, "", fmt.Errorf("kind %q: %w", kind, ErrBadEdit)
	}
	if err := CheckBox(p, b); err != nil {
		return Page{}, "", err
	}
	p = p.clone()
	id := uniqueID(p.Regions, "n1")
	r := Region{ID: id, Kind: kind, BBox: b, Text: text, OriginalText: text, HandPlaced: true}
	if IsVisual(kind) {
		r.VisualKind = visualKindOf(kind)
	}
	p.Regions = append(p.Regions, r)
	if p.HandOrdered {
		p.Order = append(p.Order, id)
	} else {
		p.Order = ReadingOrder(p)
	}
	return p, id, nil
}

// SetOrder fixes a page's reading order by hand: the ids given come first,
// in that order, then any others in their current order. The page is then
// hand-ordered: automatic ordering leaves it alone.
func SetOrder(p Page, ids []string) (Page, error) {
	p = p.clone()
	seen := map[string]bool{}
	order := make([]string, 0, len(p.Regions))
	for _, id := range ids {
		if _, err := p.index(id); err != nil {
			return Page{}, err
		}
		if seen[id] {
			return Page{}, fmt.Errorf("region %s is listed twice: %w", id, ErrBadEdit)
		}
		seen[id] = true
		order = append(order, id)
	}
	rest := p.Order
	if len(rest) == 0 {
		rest = ReadingOrder(p)
	}
	for _, id := range rest {
		if !seen[id] {
			seen[id] = true
			order = append(order, id)
		}
	}
	for _, r := range p.Regions {
		if !seen[r.ID] {
			order = append(order, r.ID)
		}
	}
	p.Order = order
	p.HandOrdered = true
	return p, nil
}

// AutoOrder recomputes the reading order and unlocks the page.
func AutoOrder(p Page) Page {
	p = p.clone()
	p.HandOrdered = false
	p.Order = ReadingOrder(p)
	return p
}

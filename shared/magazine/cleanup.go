package magazine

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cleanup rule names, recorded in Cleaned.Rule and Change.Rule.
const (
	RuleTextInImage = "text-in-image"
	RuleNoise       = "noise"
	RuleDuplicate   = "duplicate"
	RuleBylineSplit = "byline-split"
)

// Cleanup constants.
const (
	// InsidePictureShare: a text region is inside a picture when at least
	// this share of its area lies within the picture.
	InsidePictureShare = 0.8
	// BackgroundPictureShare: a picture covering more of the page than this is
	// a background (a cover photo under the headline); text on it is kept.
	BackgroundPictureShare = 0.6
	// SentenceMinWords / ParagraphMinWords: text inside a picture is kept as
	// text (set on a tinted card or a photo) when it is a sentence of at
	// least SentenceMinWords words, or runs over two or more lines with at
	// least ParagraphMinWords words; shorter text is a label.
	SentenceMinWords  = 4
	ParagraphMinWords = 6
	// NoiseMaxRunes / NoiseMaxArea: a region with at most this many letters or
	// digits in a box smaller than this many square points is noise.
	NoiseMaxRunes = 2
	NoiseMaxArea  = 64.0
	// DuplicateMinRunes: shorter normalised texts are not compared.
	DuplicateMinRunes = 4
	// SplitMinWords: the text running on after a byline must have at least
	// this many words, one of them lower-case, to be split off ("By Jane Doe,
	// Staff Writer" is not split).
	SplitMinWords = 3
)

// Change is one thing Cleanup did.
type Change struct {
	RegionID string `json:"region_id"`
	Rule     string `json:"rule"`
	From     Kind   `json:"from"`
	To       Kind   `json:"to"`
	// NewRegionID is the paragraph split off a run-on byline.
	NewRegionID string `json:"new_region_id,omitempty"`
}

// CleanupMembership is how cleanup changed which regions exist: each
// paragraph split off a run-on byline follows the byline, right after it,
// in every article that holds the byline.
func CleanupMembership(changes []Change) Membership {
	m := Membership{After: map[string]string{}}
	for _, c := range changes {
		if c.NewRegionID != "" {
			m.After[c.NewRegionID] = c.RegionID
		}
	}
	return m
}

// Cleanup applies the cleanup rules (spec: Cleanup of boxes) and returns the
// new page and what changed. The input page is not modified.
//
//  1. byline-split: a byline whose text runs on into a sentence
//     ("By Jane Doe The council voted…") keeps "By Jane Doe"; the rest becomes
//     a paragraph region inserted right after it (in Regions and in Order),
//     id "<byline id>-s" (suffixed "-s2", "-s3"… if taken), same article, both
//     keeping the source's OriginalText; the box is cut vertically in
//     proportion to the text (each part at least 15%). A split is not a
//     re-type: it is reversed with the layout backup, not Uncleanup.
//  2. text-in-image: a text region with InsidePictureShare of its area inside
//     a picture region (not a page background, see BackgroundPictureShare;
//     not a table, which is read) that is a label, not a sentence or paragraph set on the picture (see
//     readsAsText);
//  3. noise: a text region with no letters or digits, or at most
//     NoiseMaxRunes letters/digits in a box under NoiseMaxArea pt²
//     (page numbers excepted);
//  4. duplicate: the same normalised text (case, spacing and punctuation
//     ignored, at least DuplicateMinRunes) twice on the page: the region with
//     the larger box is kept (ties: the one earlier in the reading order),
//     the others are duplicates. Pull-quotes repeat body text by design and
//     are left alone.
//
// Rules 2–4 only re-type, to a non-read kind, recording CleanedFrom; nothing
// is deleted. Regions already carrying CleanedFrom and picture regions are
// never touched, which makes Cleanup idempotent.
func Cleanup(page Page) (Page, []Change) {
	page.Regions = slices.Clone(page.Regions)
	page.Order = slices.Clone(page.Order)
	var changes []Change

	// 1. Run-on bylines.
	for i := 0; i < len(page.Regions); i++ {
		r := page.Regions[i]
		if r.Kind != KindByline || r.CleanedFrom != nil {
			continue
		}
		byline, rest, ok := splitByline(r.Text)
		if !ok || !looksLikeSentence(rest) {
			continue
		}
		orig := r.OriginalText
		if orig == "" {
			orig = r.Text
		}
		newID := uniqueID(page.Regions, r.ID+"-s")
		frac := float64(utf8.RuneCountInString(byline)) / float64(utf8.RuneCountInString(byline)+utf8.RuneCountInString(rest))
		frac = min(max(frac, 0.15), 0.85)
		top := r
		top.Text, top.OriginalText = byline, orig
		top.BBox[3] = r.BBox[3] * frac
		part := Region{
			ID: newID, Kind: KindParagraph, Text: rest, OriginalText: orig, ArticleID: r.ArticleID,
			BBox:     BBox{r.BBox[0], r.BBox[1] + top.BBox[3], r.BBox[2], r.BBox[3] - top.BBox[3]},
			FontSize: r.FontSize,
		}
		page.Regions[i] = top
		page.Regions = slices.Insert(page.Regions, i+1, part)
		if at := slices.Index(page.Order, r.ID); at >= 0 {
			page.Order = slices.Insert(page.Order, at+1, newID)
		}
		changes = append(changes, Change{RegionID: r.ID, Rule: RuleBylineSplit, From: KindByline, To: KindByline, NewRegionID: newID})
		i++
	}

	retype := func(i int, to Kind, rule string) {
		r := &page.Regions[i]
		changes = append(changes, Change{RegionID: r.ID, Rule: rule, From: r.Kind, To: to})
		r.CleanedFrom = &Cleaned{Kind: r.Kind, Rule: rule}
		r.Kind = to
	}
	eligible := func(r Region) bool {
		info, known := Info(r.Kind)
		return r.CleanedFrom == nil && !(known && (info.Visual || info.Cleanup))
	}

	// 2. Text inside pictures.
	pageArea := page.Width * page.Height
	for i, r := range page.Regions {
		if !eligible(r) || readsAsText(r) {
			continue
		}
		for _, p := range page.Regions {
			// A table is read, so text on it (cells it did not take in) is
			// read in its place too, never silenced as a label.
			if !IsVisual(p.Kind) || p.Kind == KindTable || p.ID == r.ID {
				continue
			}
			if pageArea > 0 && p.BBox.Area() > BackgroundPictureShare*pageArea {
				continue
			}
			if a := r.BBox.Area(); a > 0 && r.BBox.Overlap(p.BBox) >= InsidePictureShare*a {
				retype(i, KindTextInFigure, RuleTextInImage)
				break
			}
		}
	}

	// 3. Noise.
	for i, r := range page.Regions {
		if !eligible(r) || r.Kind == KindPageNumber {
			continue
		}
		alnum := 0
		for _, c := range r.Text {
			if unicode.IsLetter(c) || unicode.IsDigit(c) {
				alnum++
			}
		}
		if alnum == 0 || (alnum <= NoiseMaxRunes && r.BBox.Area() < NoiseMaxArea) {
			retype(i, KindNoise, RuleNoise)
		}
	}

	// 4. Duplicates.
	rank := map[string]int{}
	for i, id := range page.Order {
		rank[id] = i
	}
	position := func(i int) int {
		if at, ok := rank[page.Regions[i].ID]; ok {
			return at
		}
		return len(page.Order) + i
	}
	groups := map[string][]int{}
	var keys []string
	for i, r := range page.Regions {
		if !eligible(r) || r.Kind == KindPullQuote {
			continue
		}
		key := duplicateKey(r.Text)
		if utf8.RuneCountInString(key) < DuplicateMinRunes {
			continue
		}
		if groups[key] == nil {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], i)
	}
	for _, key := range keys {
		members := groups[key]
		if len(members) < 2 {
			continue
		}
		keep := members[0]
		for _, m := range members[1:] {
			if a, b := page.Regions[m].BBox.Area(), page.Regions[keep].BBox.Area(); a > b || (a == b && position(m) < position(keep)) {
				keep = m
			}
		}
		for _, m := range members {
			if m != keep {
				retype(m, KindDuplicate, RuleDuplicate)
			}
		}
	}
	return page, changes
}

// Uncleanup reverses cleanup re-types: every region with CleanedFrom (or,
// when ids are given, only those) gets its earlier kind back and the record
// cleared. Byline splits are not re-types and stay (the layout backup undoes
// them).
func Uncleanup(page Page, ids ...string) Page {
	page.Regions = slices.Clone(page.Regions)
	for i, r := range page.Regions {
		if r.CleanedFrom == nil || (len(ids) > 0 && !slices.Contains(ids, r.ID)) {
			continue
		}
		page.Regions[i].Kind = r.CleanedFrom.Kind
		page.Regions[i].CleanedFrom = nil
	}
	return page
}

// readsAsText: body text drawn over a card or photo rather than a label in a
// chart or diagram: a sentence (sentence punctuation, SentenceMinWords), or
// several lines (judged from the box and font size) of ParagraphMinWords.
func readsAsText(r Region) bool {
	words := 0
	for _, w := range strings.Fields(r.Text) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			words++
		}
	}
	if words >= SentenceMinWords && sentenceEndRe.MatchString(r.Text) {
		return true
	}
	return words >= ParagraphMinWords && r.FontSize > 0 && r.BBox[3] >= 1.8*r.FontSize
}

var sentenceEndRe = regexp.MustCompile(`[\p{Ll}\d%][.!?]["'”’)]?(?:\s|$)`)

func looksLikeSentence(s string) bool {
	words := strings.Fields(s)
	if len(words) < SplitMinWords {
		return false
	}
	for _, w := range words {
		if startsLower(w) {
			return true
		}
	}
	return false
}

func uniqueID(regions []Region, base string) string {
	taken := func(id string) bool {
		return slices.ContainsFunc(regions, func(r Region) bool { return r.ID == id })
	}
	id := base
	for n := 2; taken(id); n++ {
		id = base + strconv.Itoa(n)
	}
	return id
}

// duplicateKey lower-cases the text, keeps letters and digits, and joins
// words with single spaces.
func duplicateKey(text string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

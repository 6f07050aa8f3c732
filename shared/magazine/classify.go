package magazine

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TextBlock is one block of a PDF text layer, as the pdf adapter reads it.
type TextBlock struct {
	BBox      BBox
	Text      string
	FontSize  float64 // dominant size of the block, points
	Bold      bool
	Italic    bool
	LineCount int
	// Lines are the block's lines, top to bottom, when the source knows
	// them (the PDF text layer); a table is read from its lines, row by row.
	Lines []TextLine
}

// TextLine is one line of a text block.
type TextLine struct {
	BBox BBox
	Text string
}

// TextPage is one page of text-layer blocks with the page size and, when
// known, the picture boxes on it (for caption adjacency).
type TextPage struct {
	Width, Height float64
	Blocks        []TextBlock
	Pictures      []BBox
}

// Classification thresholds.
const (
	// HeadlineRatio: a headline's font is at least this many times the body size.
	HeadlineRatio = 1.5
	// DeckRatio: a deck (or subhead) is at least this many times the body size, below HeadlineRatio.
	DeckRatio = 1.15
	// CaptionRatio: caption text is at most this many times the body size.
	CaptionRatio = 0.92
	// HeadlineMaxRunes / DeckMaxRunes / ShortLineRunes bound "short".
	HeadlineMaxRunes = 160
	DeckMaxRunes     = 400
	ShortLineRunes   = 80
	// EdgeBand: share of the page height at the top and bottom where page
	// numbers and running heads live.
	EdgeBand = 0.08
	// FurnitureMaxRunes: longer blocks are never furniture.
	FurnitureMaxRunes = 150
	// FurnitureTolerance: share of the page size two repeats may differ in position.
	FurnitureTolerance = 0.03
	// PageBodyMinRunes: a page with less text uses the document's body size.
	PageBodyMinRunes = 400
)

var (
	pageNumberRe = regexp.MustCompile(`(?i)^(?:(?:page|p\.|pg\.?)\s*)?\d{1,4}(?:\s+of\s+\d{1,4})?$|^(?:page|p\.|pg\.?)\s*\d{1,4}\s*/\s*\d{1,4}$|^\d{1,4}\s*[|·•—–-]\s*\S.{0,60}$|^.{0,60}\S\s*[|·•—–-]\s*\d{1,4}$`)
	// monthYearRe: a dateline ending in a year ("November - 2015"), which
	// the folio pattern "Title – 12" would otherwise take for a page number.
	monthYearRe = regexp.MustCompile(`(?i)\b` + monthRe + `\.?\W{0,3}\d{4}$`)
	captionRe   = regexp.MustCompile(`(?i)^(?:fig\.|fig|figure|table|chart|exhibit|plate|illustration)\s*\d+[a-z]?\b`)
	sourceRe    = regexp.MustCompile(`(?i)^(?:(?:sources?|photos?|photographs?|photography|pictures?|images?|credits?|illustrations?|graphics?|photo credit|image credit)\s*(?::|by\b)|courtesy\b|©|\(c\)\s)`)
	photoByRe   = regexp.MustCompile(`(?i)^(?:photos?|photographs?|photography|illustrations?)\s+by\b`)
)

// Classify labels text-layer blocks, one region per block in block order,
// ids "r1".."rN" per page. The page size is taken as the blocks' extent
// (callers that know it use ClassifyPages).
func Classify(pages [][]TextBlock) [][]Region {
	tp := make([]TextPage, len(pages))
	for i, blocks := range pages {
		for _, b := range blocks {
			tp[i].Width = math.Max(tp[i].Width, b.BBox[0]+b.BBox[2])
			tp[i].Height = math.Max(tp[i].Height, b.BBox[1]+b.BBox[3])
		}
		tp[i].Blocks = blocks
	}
	return ClassifyPages(tp)
}

// ClassifyPages labels text-layer blocks. Rules, first match wins:
//
//  1. page-number: only digits ("12", "Page 12", "Page 3 of 9", "12 |
//     Magazine") in the top or bottom EdgeBand of the page;
//  2. furniture: the same text with digits masked, at about the same place
//     (FurnitureTolerance), on at least half the pages and at least two; or
//     by the page's own evidence (position, size, pattern; weak repetition
//     counts as a pattern), see pageFurniture;
//  3. source: "Source:", "Photo:", "Credit:", "Photos by", "Courtesy", "©";
//  4. caption: "Figure 3", "Fig. 2", "Table 1" …;
//  5. byline: "By Jane Doe", "Words by …", "— Jane Doe" (see splitByline), short
//     or running on into a sentence (cleanup then splits it);
//  6. headline: font ≥ HeadlineRatio × body and ≤ HeadlineMaxRunes;
//  7. deck: font ≥ DeckRatio × body, ≤ DeckMaxRunes, directly below a headline;
//     subhead: the same size range but not below a headline and short, or bold
//     at body size on one short line without a closing full stop;
//  8. caption: small text (≤ CaptionRatio × body) directly above or below a picture;
//  9. paragraph; a paragraph that is a note at the page foot becomes a
//     footnote (see footnotes).
//
// A line that is only a web address is never a subhead.
//
// Body size: the most common font size (rounded to 0.5 pt) weighted by text
// length — per page when the page has PageBodyMinRunes of text, else over the
// document. Block text is first repaired by NormalizeText (spacing accents,
// TeX quotes, NFC); every region gets OriginalText = Text. Last, a grid of
// short blocks becomes one table region (see tables).
func ClassifyPages(pages []TextPage) [][]Region {
	docBody := BodySize(allBlocks(pages))
	repeats, need := furnitureBlocks(pages)
	out := make([][]Region, len(pages))
	for pi, p := range pages {
		body := docBody
		if textRunes(p.Blocks) >= PageBodyMinRunes {
			body = BodySize(p.Blocks)
		}
		regions := make([]Region, len(p.Blocks))
		for bi, b := range p.Blocks {
			text := NormalizeText(strings.TrimSpace(b.Text))
			regions[bi] = Region{
				ID: "r" + strconv.Itoa(bi+1), BBox: b.BBox, Text: text, OriginalText: text,
				FontSize: b.FontSize, Bold: b.Bold,
			}
		}
		for bi, b := range p.Blocks {
			regions[bi].Kind = classifyBlock(p, bi, b, regions, body, repeats[pi][bi], need)
		}
		// A page dense with notes can make their size the page's body size;
		// notes are small against the document's body too.
		for bi, footer := range furnitureLineMates(p, regions, body) {
			if footer {
				regions[bi].Kind = KindFurniture
			}
		}
		for bi, k := range edgeRows(p, regions, body) {
			if k != "" {
				regions[bi].Kind = k
			}
		}
		for bi, numbering := range lineNumbers(p) {
			if numbering {
				regions[bi].Kind = KindFurniture
			}
		}
		for bi, note := range footnotes(p, regions, math.Max(body, docBody)) {
			if note && regions[bi].Kind == KindParagraph {
				regions[bi].Kind = KindFootnote
			}
		}
		out[pi] = tables(p.Blocks, regions, body)
	}
	return out
}

// classifyBlock types one block; repeats is on how many pages of the window
// its text stands at about the same place, need how many make furniture.
func classifyBlock(p TextPage, bi int, b TextBlock, regions []Region, body float64, repeats, need int) Kind {
	text := regions[bi].Text
	n := utf8.RuneCountInString(text)
	ratio := 1.0
	if body > 0 && b.FontSize > 0 {
		ratio = b.FontSize / body
	}
	switch {
	case pageNumberRe.MatchString(text) && !monthYearRe.MatchString(text) && nearEdge(p, b.BBox):
		return KindPageNumber
	case repeats >= need, pageFurniture(p, b, text, body, ratio, repeats >= 2):
		return KindFurniture
	case sourceRe.MatchString(text) || photoByRe.MatchString(text):
		return KindSource
	case captionRe.MatchString(text):
		return KindCaption
	case isByline(text):
		return KindByline
	case ratio >= HeadlineRatio && n <= HeadlineMaxRunes:
		return KindHeadline
	case ratio >= DeckRatio && n <= DeckMaxRunes && belowHeadline(regions, bi, body):
		return KindDeck
	case ratio >= DeckRatio && n <= ShortLineRunes && !isURLOnly(text):
		return KindSubhead
	case (b.Bold || b.Italic) && ratio < DeckRatio && ratio > CaptionRatio && n <= ShortLineRunes && b.LineCount <= 1 &&
		!strings.HasSuffix(text, ".") && strings.IndexFunc(text, unicode.IsLetter) >= 0 && !isURLOnly(text):
		return KindSubhead
	case ratio <= CaptionRatio && nextToPicture(p.Pictures, b.BBox, body):
		return KindCaption
	}
	return KindParagraph
}

func isByline(text string) bool {
	byline, rest, ok := splitByline(text)
	if !ok {
		return false
	}
	if rest == "" {
		return utf8.RuneCountInString(byline) <= ShortLineRunes
	}
	// Run-on: a name of at least two words then a sentence ("By Jane Doe The council…").
	_, words, _ := splitName(strings.TrimSpace(bylineLead.ReplaceAllString(byline, "")))
	return words >= 2 && startsUpper(rest)
}

// belowHeadline: the block's top is within 3 body sizes under an earlier-
// classified headline it overlaps horizontally.
func belowHeadline(regions []Region, bi int, body float64) bool {
	b := regions[bi].BBox
	gap := 3 * math.Max(body, 6)
	for i := range bi {
		h := regions[i]
		if h.Kind != KindHeadline && h.Kind != KindDeck {
			continue
		}
		bottom := h.BBox[1] + h.BBox[3]
		if b[1] >= bottom-1 && b[1]-bottom <= gap && overlapX(h.BBox, b) > 0 {
			return true
		}
	}
	return false
}

func nextToPicture(pictures []BBox, b BBox, body float64) bool {
	gap := 2 * math.Max(body, 6)
	for _, pic := range pictures {
		if overlapX(pic, b) < 0.5*b[2] {
			continue
		}
		below := b[1] - (pic[1] + pic[3])
		above := pic[1] - (b[1] + b[3])
		if (below >= -2 && below <= gap) || (above >= -2 && above <= gap) {
			return true
		}
	}
	return false
}

func nearEdge(p TextPage, b BBox) bool {
	band := EdgeBand * p.Height
	return b[1] <= band || b[1]+b[3] >= p.Height-band
}

// furnitureBlocks counts, for each block, on how many pages its digit-masked
// text stands at about the same position; need is how many make furniture
// on repetition alone: at least half the pages, and at least two.
func furnitureBlocks(pages []TextPage) (repeats [][]int, need int) {
	out := make([][]int, len(pages))
	type occ struct {
		page int
		cx   float64 // centre as a share of the page size
		cy   float64
	}
	byText := map[string][]occ{}
	for pi, p := range pages {
		out[pi] = make([]int, len(p.Blocks))
		if p.Width <= 0 || p.Height <= 0 {
			continue
		}
		for _, b := range p.Blocks {
			key := furnitureKey(b.Text)
			if key == "" {
				continue
			}
			byText[key] = append(byText[key], occ{pi, (b.BBox[0] + b.BBox[2]/2) / p.Width, (b.BBox[1] + b.BBox[3]/2) / p.Height})
		}
	}
	need = max(2, (len(pages)+1)/2)
	for pi, p := range pages {
		if p.Width <= 0 || p.Height <= 0 {
			continue
		}
		for bi, b := range p.Blocks {
			key := furnitureKey(b.Text)
			if key == "" {
				continue
			}
			cx, cy := (b.BBox[0]+b.BBox[2]/2)/p.Width, (b.BBox[1]+b.BBox[3]/2)/p.Height
			onPages := map[int]bool{}
			for _, o := range byText[key] {
				// Facing pages mirror running heads left/right, so only the
				// vertical position must agree, plus either x or mirrored x.
				if math.Abs(o.cy-cy) <= FurnitureTolerance &&
					(math.Abs(o.cx-cx) <= FurnitureTolerance || math.Abs(o.cx-(1-cx)) <= FurnitureTolerance) {
					onPages[o.page] = true
				}
			}
			out[pi][bi] = len(onPages)
		}
	}
	return out, need
}

func furnitureKey(text string) string {
	text = strings.TrimSpace(text)
	if text == "" || utf8.RuneCountInString(text) > FurnitureMaxRunes {
		return ""
	}
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsDigit(r):
			b.WriteByte('#')
			space = false
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
			}
			space = true
		default:
			b.WriteRune(r)
			space = false
		}
	}
	return b.String()
}

// BodySize is the most common font size, rounded to 0.5 pt, weighted by text length.
func BodySize(blocks []TextBlock) float64 {
	weight := map[float64]int{}
	for _, b := range blocks {
		if b.FontSize > 0 {
			weight[math.Round(b.FontSize*2)/2] += utf8.RuneCountInString(strings.TrimSpace(b.Text))
		}
	}
	sizes := make([]float64, 0, len(weight))
	for s := range weight {
		sizes = append(sizes, s)
	}
	sort.Float64s(sizes) // ties go to the smaller size
	best, bestW := 0.0, -1
	for _, s := range sizes {
		if weight[s] > bestW {
			best, bestW = s, weight[s]
		}
	}
	return best
}

func allBlocks(pages []TextPage) []TextBlock {
	var all []TextBlock
	for _, p := range pages {
		all = append(all, p.Blocks...)
	}
	return all
}

func textRunes(blocks []TextBlock) int {
	n := 0
	for _, b := range blocks {
		n += utf8.RuneCountInString(b.Text)
	}
	return n
}

func overlapX(a, b BBox) float64 {
	return math.Min(a[0]+a[2], b[0]+b[2]) - math.Max(a[0], b[0])
}

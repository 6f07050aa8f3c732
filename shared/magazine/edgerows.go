package magazine

import (
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Single-page evidence for the top and bottom lines of a page (issue 34,
// classes 2 and 3). The FurnitureBand test asks a block to lie wholly in the
// outer tenth of the page; many documents set their footer (a folio beside a
// web address) or their running head (folio, title, chapter mark) a little
// further in. So the page's first and last rows are judged as lines: what
// the whole row says and that it stands apart from the text, never a
// position alone.
const (
	// EdgeRowZone: a head row ends within this share of the page height
	// from the top, a footer row starts within it from the bottom.
	EdgeRowZone = 0.15
	// EdgeRowGap: the row stands at least this many body sizes clear of
	// the text next to it (line boxes hold a large folio's ascent, so the
	// gap seen is smaller than the one printed; what the row says is the
	// main evidence).
	EdgeRowGap = 0.4
	// HeadRowMinSpan: a running head spans at least this share of the
	// text's width (folio at one edge, title across); a numbered section
	// heading does not.
	HeadRowMinSpan = 0.5
	// EdgeRowMaxBlocks: a head or footer line has at most this many parts
	// (left, centre, right and one more); a table's last row has more.
	EdgeRowMaxBlocks = 4
)

var (
	// printedStampRe: a line that only says when or by what the document
	// was printed or generated ("Printed: 16.11.2012 21:07:09"); the last
	// line of a page anywhere when it stands apart.
	printedStampRe = regexp.MustCompile(`(?i)^(?:printed|generated|created|produced|last\s+(?:updated|modified|revised)|revised|effective)(?:\s+(?:on|at|by))?\s*:?\s*\d`)
	// bracketMarkRe: a bracketed chapter or section mark ("[CHAP. III", "SECT. 2.]").
	bracketMarkRe = regexp.MustCompile(`\[\s*\p{Lu}|\p{Lu}\.?\s*[IVXLC\d]+\.?\s*\]`)
	// folioTokenRe: a page number token: digits or a lower-case roman numeral.
	folioTokenRe = regexp.MustCompile(`^(?:\d{1,4}|[ivxlc]{1,6})$`)
	// footerFolioRe: a footer block that is only the page number ("7",
	// "Page 2 of 7"); a code such as "HB-4471" is furniture.
	footerFolioRe = regexp.MustCompile(`(?i)^(?:(?:page|p\.)\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$`)
)

// edgeRows types the page's first and last rows: the blocks level with the
// topmost (bottom-most) block. A last row that stands clear of the text
// above it, holds only labels, numbers and addresses, and shows a footer's
// evidence (a page number, a date, a code, a web address, a stamp) is
// furniture, its page number a page number; it qualifies in the bottom
// EdgeRowZone, or anywhere when it is a printing stamp (printedStampRe).
// A first row in the top EdgeRowZone that stands clear of the text below,
// has no lower-case word, spans HeadRowMinSpan of the text's width and
// carries a folio at either end or a bracketed chapter mark is a running
// head. A row with a sentence in it is never typed (a closing paragraph
// that mentions a date stays text). Only paragraphs, subheads and
// headlines set no larger than a deck are retyped (a folio any size).
func edgeRows(p TextPage, regions []Region, body float64) []Kind {
	out := make([]Kind, len(p.Blocks))
	if p.Height <= 0 || len(p.Blocks) < 2 {
		return out
	}
	body = math.Max(body, 6)
	if row := edgeRow(p, false); row != nil && footerRow(p, regions, row, body) {
		for _, i := range row {
			out[i] = KindFurniture
			if footerFolioRe.MatchString(regions[i].Text) || regions[i].Kind == KindPageNumber {
				out[i] = KindPageNumber
			}
		}
	}
	if row := edgeRow(p, true); row != nil && headRow(p, regions, row, body) {
		for _, i := range row {
			out[i] = KindFurniture
		}
	}
	return out
}

// edgeRow is the blocks level with the page's topmost (top) or bottom-most
// block, overlapping it vertically by half the smaller height.
func edgeRow(p TextPage, top bool) []int {
	edge := -1
	for i, b := range p.Blocks {
		if edge < 0 || top && b.BBox[1] < p.Blocks[edge].BBox[1] ||
			!top && b.BBox[1]+b.BBox[3] > p.Blocks[edge].BBox[1]+p.Blocks[edge].BBox[3] {
			edge = i
		}
	}
	e := p.Blocks[edge].BBox
	var row []int
	for i, b := range p.Blocks {
		if overlapY(b.BBox, e) >= 0.5*math.Min(b.BBox[3], e[3]) {
			row = append(row, i)
		}
	}
	if len(row) == len(p.Blocks) || len(row) > EdgeRowMaxBlocks {
		return nil // the page is one line, or the row is a table's
	}
	return row
}

// rowText joins the row's texts left to right.
func rowText(p TextPage, regions []Region, row []int) string {
	sorted := append([]int(nil), row...)
	for a := 1; a < len(sorted); a++ {
		for b := a; b > 0 && p.Blocks[sorted[b]].BBox[0] < p.Blocks[sorted[b-1]].BBox[0]; b-- {
			sorted[b], sorted[b-1] = sorted[b-1], sorted[b]
		}
	}
	parts := make([]string, len(sorted))
	for k, i := range sorted {
		parts[k] = regions[i].Text
	}
	return strings.Join(parts, " ")
}

// retypable: a kind the edge rows may change, and a block short enough to
// be one line of furniture.
func retypable(p TextPage, regions []Region, i int, body float64) bool {
	switch regions[i].Kind {
	case KindParagraph, KindSubhead, KindHeadline, KindFurniture, KindPageNumber:
	default:
		return false
	}
	b := p.Blocks[i]
	text := regions[i].Text
	if pageNumberRe.MatchString(text) {
		return true
	}
	return b.LineCount <= 2 && utf8.RuneCountInString(text) <= FurnitureMaxRunes &&
		(b.FontSize <= 0 || b.FontSize < DeckRatio*body)
}

// rowClear: no block outside the row, overlapping it horizontally, lies
// within EdgeRowGap body sizes above (below) it.
func rowClear(p TextPage, row []int, body float64, above bool) bool {
	in := make(map[int]bool, len(row))
	var box BBox
	for k, i := range row {
		in[i] = true
		if k == 0 {
			box = p.Blocks[i].BBox
		} else {
			box = unionBox(box, p.Blocks[i].BBox)
		}
	}
	gap := EdgeRowGap * body
	for i, o := range p.Blocks {
		if in[i] || overlapX(box, o.BBox) <= 0 {
			continue
		}
		d := box[1] - (o.BBox[1] + o.BBox[3]) // o above the row
		if !above {
			d = o.BBox[1] - (box[1] + box[3]) // o below the row
		}
		if d < gap {
			return false
		}
	}
	return true
}

func footerRow(p TextPage, regions []Region, row []int, body float64) bool {
	text := rowText(p, regions, row)
	stamp := printedStampRe.MatchString(strings.TrimSpace(text))
	top := math.Inf(1)
	evidence := stamp
	for _, i := range row {
		t := regions[i].Text
		if !retypable(p, regions, i, body) || lowerWords(t) >= ProseMinLowerWords || strings.HasSuffix(t, ".") && !pageNumberRe.MatchString(t) {
			return false
		}
		if !pageNumberRe.MatchString(t) && !isURLOnly(t) && !isLabel(t) {
			return false
		}
		if pageNumberRe.MatchString(t) || isURLOnly(t) || furniturePattern(t) {
			evidence = true
		}
		top = math.Min(top, p.Blocks[i].BBox[1])
	}
	if !evidence || !(stamp || top >= (1-EdgeRowZone)*p.Height) {
		return false
	}
	return rowClear(p, row, body, true)
}

func headRow(p TextPage, regions []Region, row []int, body float64) bool {
	var bottom float64
	left, right := math.Inf(1), math.Inf(-1)
	for _, i := range row {
		b := p.Blocks[i].BBox
		if !retypable(p, regions, i, body) || lowerWords(regions[i].Text) > 0 {
			return false
		}
		bottom = math.Max(bottom, b[1]+b[3])
		left, right = math.Min(left, b[0]), math.Max(right, b[0]+b[2])
	}
	if bottom > EdgeRowZone*p.Height {
		return false
	}
	textLeft, textRight := math.Inf(1), math.Inf(-1)
	for _, b := range p.Blocks {
		textLeft, textRight = math.Min(textLeft, b.BBox[0]), math.Max(textRight, b.BBox[0]+b.BBox[2])
	}
	if right-left < HeadRowMinSpan*(textRight-textLeft) {
		return false
	}
	text := rowText(p, regions, row)
	words := strings.Fields(text)
	if len(words) == 0 || len(words) > LabelMaxWords+2 || strings.IndexFunc(text, unicode.IsLetter) < 0 {
		return false
	}
	folio := folioTokenRe.MatchString(strings.Trim(words[0], ".,")) || folioTokenRe.MatchString(strings.Trim(words[len(words)-1], ".,"))
	if !folio && !bracketMarkRe.MatchString(text) {
		return false
	}
	return rowClear(p, row, body, false)
}

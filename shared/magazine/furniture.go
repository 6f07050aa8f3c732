package magazine

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Single-page evidence for furniture and footnotes. Repetition across pages
// (furnitureBlocks) cannot see the footer of a one-page document, so a block
// is also furniture when its own page shows it: where it sits, how large it
// is set, and what it says. Position or size alone is never enough (a
// headline sits at the top, a caption is small), nor is a pattern alone (a
// paragraph may mention a date).
const (
	// FurnitureBand: share of the page height at the top and bottom (and of
	// the width at the sides, for rotated stamps) that a block must lie
	// wholly inside to count as placed like furniture.
	FurnitureBand = 0.10
	// FurnitureMaxLines: a block of more lines is text, not furniture.
	FurnitureMaxLines = 3
	// ProseMinLowerWords: a block at body size or larger with this many
	// lower-case words reads as a sentence and is not furniture without
	// repetition.
	ProseMinLowerWords = 5
	// RotatedMinRunes: a single line whose box is at least RotatedAspect
	// times taller than wide, holding this many characters, is set rotated.
	RotatedMinRunes = 6
	RotatedAspect   = 3.0
	// GlueLines: a head or footer stands at least this many body sizes
	// clear of the text column next to it.
	GlueLines = 0.6
	// FootnoteZone: a footnote's box centre lies below this share of the
	// page height.
	FootnoteZone = 0.5
)

const monthRe = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

var (
	// furniturePatterns: what running heads, footers and stamps say. Each
	// is evidence only together with position or size (pageFurniture).
	furniturePatterns = []*regexp.Regexp{
		// URLs, web addresses, DOIs.
		regexp.MustCompile(`(?i)\bhttps?://\S|\bwww\.\S|\b[a-z0-9-]+\.(?:com|org|net|gov|edu|int|info)\b|\bdoi\s*:?\s*10\.\d{4,}/`),
		// Full dates (a day, a month and a year; month and year alone is
		// the issue line of many mastheads and stays to repetition).
		regexp.MustCompile(`(?i)\b\d{1,2}(?:st|nd|rd|th)?\.?\s+` + monthRe + `\.?,?\s+\d{4}\b|\b` + monthRe + `\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b`),
		// Times of day.
		regexp.MustCompile(`(?i)\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\b\.?)?`),
		// Copyright lines.
		regexp.MustCompile(`(?i)©|\(c\)\s*\d{4}|\bcopyright\b|\ball rights reserved\b`),
		// Journal volume and issue, serial numbers.
		regexp.MustCompile(`(?i)\bvol(?:ume)?\.?\s*\d+|\bissue\s+(?:no\.?\s*)?\d+\b|\bISS[NB]\b`),
		// Document part numbers and revisions ("Doc. No. 4711-B", "Rev. C",
		// "Frm 00012").
		regexp.MustCompile(`(?i)\brev(?:ision)?\.?\s*(?:[a-z]\b|\d)|\b(?:part|doc(?:ument)?|pub(?:lication)?|form|report|order)\.?\s*(?:no\.?|number|#)\s*[a-z0-9]|\bp/n\b|^[a-z]{1,6}\.?\s+\d{4,}$`),
		// Form codes and their revision dates ("DCF-F-2476-E (R. 04/2014)").
		regexp.MustCompile(`^[A-Z]{2,6}(?:-[A-Z0-9]{1,6}){2,}\b|\(\s*(?i:r|rev)\.?\s*\d{1,2}/\d{2,4}\s*\)`),
		// A journal's short title with volume and issue ("ER 29,2").
		regexp.MustCompile(`^\p{Lu}{2,6}\s+\d{1,3}\s*[,(/]\s*\d{1,2}\)?$`),
	}
	// stampRe: archive, repository and scanner stamps, and "Page x of y".
	// These are never body text, so small type anywhere is evidence enough.
	stampRe     = regexp.MustCompile(`(?i)\bdownload(?:ed)?\s+(?:from|by|on|date)\b|^published\s+(?:by|online)\b|\bstable\s+url\b|\baccessed\s*:|\b(?:digiti[sz]ed|scanned)\s+by\b|\ball rights reserved\b|\bpage\s+\d+\s+(?:of|/)\s+\d+\b`)
	dotLeaderRe = regexp.MustCompile(`\.{4,}|(?:\. ){3,}`)
	urlOnlyRe   = regexp.MustCompile(`(?i)^(?:https?://|www\.)\S+$|^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|gov|edu|int|info|io|co\.uk)(?:/\S*)?$`)
	// footnoteMarkRe: a note opens with a number, a symbol or superscript
	// digits, then its text.
	footnoteMarkRe = regexp.MustCompile(`^(?:\d{1,3}\.?\s+|\d{1,3}(?:\p{Lu}|\p{Ll}{2})|[*†‡§¶]+\s*|[¹²³⁴⁵⁶⁷⁸⁹⁰]+\s*|\[\d{1,3}\]\s*)\S`)
)

// pageFurniture reports whether a block is furniture by the evidence of its
// own page, plus weak repetition (on at least two pages of the window, but
// fewer than the half furnitureBlocks needs):
//
//   - always: a short code with digits wholly in a side margin (inMargin);
//   - never: a long block (FurnitureMaxRunes, FurnitureMaxLines) or a
//     display size (≥ DeckRatio × body: a headline near the top);
//   - placed: wholly inside the top or bottom FurnitureBand and set apart
//     from the text column (gluedToBody), or a rotated line in a side band
//     (a margin stamp);
//   - small: at most CaptionRatio × body;
//   - furniture when placed and (a pattern, or repeated, or rotated and
//     small, or small and a label: isLabel, no picture beside it), or
//     small with a stamp (stampRe) anywhere. A block at body
//     size that reads as a sentence (ProseMinLowerWords) needs repetition.
func pageFurniture(p TextPage, b TextBlock, text string, body, ratio float64, repeated bool) bool {
	if inMargin(p, b.BBox) && b.LineCount <= 2 && utf8.RuneCountInString(text) <= MarginMaxRunes &&
		strings.IndexFunc(text, unicode.IsDigit) >= 0 && !gluedToBody(p, b.BBox, body) {
		// A short code with digits alone in the outer margin, at any size:
		// a journal's volume line, a folio, a stamp number.
		return true
	}
	if utf8.RuneCountInString(text) > FurnitureMaxRunes || b.LineCount > FurnitureMaxLines || ratio >= DeckRatio {
		return false
	}
	small := ratio <= CaptionRatio
	rotated := isRotated(b, text) && inSideBand(p, b.BBox)
	placed := rotated || (inEdgeBand(p, b.BBox) && !gluedToBody(p, b.BBox, body))
	if !small && lowerWords(text) >= ProseMinLowerWords {
		return placed && repeated
	}
	switch {
	case placed && (repeated || (rotated && small)):
		return true
	case placed && furniturePattern(text):
		return true
	case placed && small && isLabel(text) && !nextToPicture(p.Pictures, b.BBox, body):
		// A short line in small type set apart in the top or bottom band:
		// a running head or a printer's line, not a caption (no picture
		// beside it) nor a note (no mark, no sentence).
		return true
	}
	return small && stampRe.MatchString(text)
}

// Label and margin limits for single-page furniture.
const (
	// LabelMaxWords: a running head in small type has at most this many words.
	LabelMaxWords = 8
	// MarginMaxRunes: a margin code is at most this many characters.
	MarginMaxRunes = 12
)

// isLabel: a few words that do not make a sentence or a note.
func isLabel(text string) bool {
	t := strings.TrimSpace(text)
	words := len(strings.Fields(t))
	return words > 0 && words <= LabelMaxWords && !strings.HasSuffix(t, ".") && !isFootnoteStart(t) &&
		strings.IndexFunc(t, unicode.IsLetter) >= 0
}

// inMargin: the box lies wholly inside the left or right FurnitureBand.
func inMargin(p TextPage, b BBox) bool {
	if p.Width <= 0 {
		return false
	}
	band := FurnitureBand * p.Width
	return b[0]+b[2] <= band || b[0] >= p.Width-band
}

// Line numbering (legal transcripts, line-numbered manuscripts).
const (
	// LineNumbersMin: at least this many numbers make a numbering column.
	LineNumbersMin = 5
	// LineNumbersSpan: the column runs down at least this share of the page.
	LineNumbersSpan = 0.4
)

var bareNumberRe = regexp.MustCompile(`^\d{1,4}$`)

// lineNumbers marks the blocks that number the page's lines: bare numbers
// right-aligned (or left-aligned) in one column, rising by one top to
// bottom, running down LineNumbersSpan of the page, with every other block
// beside them starting clear of the column. A table's rank column fails the
// last test: its rows' text starts left of or at the numbers' edge.
func lineNumbers(p TextPage) []bool {
	out := make([]bool, len(p.Blocks))
	if p.Height <= 0 {
		return out
	}
	var nums []int
	for i, b := range p.Blocks {
		if bareNumberRe.MatchString(strings.TrimSpace(b.Text)) {
			nums = append(nums, i)
		}
	}
	for len(nums) >= LineNumbersMin {
		// The column of the first number: those aligned on its right or left edge.
		first := p.Blocks[nums[0]].BBox
		tol := math.Max(p.Blocks[nums[0]].FontSize, 6) / 2
		var col, rest []int
		for _, i := range nums {
			b := p.Blocks[i].BBox
			if math.Abs(b[0]+b[2]-first[0]-first[2]) <= tol || math.Abs(b[0]-first[0]) <= tol {
				col = append(col, i)
			} else {
				rest = append(rest, i)
			}
		}
		if isLineNumbering(p, col) {
			for _, i := range col {
				out[i] = true
			}
		}
		nums = rest
	}
	return out
}

func isLineNumbering(p TextPage, col []int) bool {
	if len(col) < LineNumbersMin {
		return false
	}
	sorted := slices.Clone(col)
	slices.SortFunc(sorted, func(a, b int) int { return cmp.Compare(p.Blocks[a].BBox[1], p.Blocks[b].BBox[1]) })
	rising := 0
	left, right := math.Inf(1), math.Inf(-1)
	for k, i := range sorted {
		b := p.Blocks[i].BBox
		left, right = math.Min(left, b[0]), math.Max(right, b[0]+b[2])
		if k > 0 {
			prev, _ := strconv.Atoi(strings.TrimSpace(p.Blocks[sorted[k-1]].Text))
			cur, _ := strconv.Atoi(strings.TrimSpace(p.Blocks[i].Text))
			if cur == prev+1 {
				rising++
			}
		}
	}
	top := p.Blocks[sorted[0]].BBox[1]
	last := p.Blocks[sorted[len(sorted)-1]].BBox
	if rising < (len(sorted)-1)*3/4 || (last[1]+last[3]-top) < LineNumbersSpan*p.Height {
		return false
	}
	// Every other block level with the column lies wholly to one side of it.
	for i, b := range p.Blocks {
		if slices.Contains(col, i) || b.BBox[1]+b.BBox[3] < top || b.BBox[1] > last[1]+last[3] {
			continue
		}
		if b.BBox[0] < right && b.BBox[0]+b.BBox[2] > left {
			return false
		}
	}
	return true
}

func furniturePattern(text string) bool {
	if stampRe.MatchString(text) {
		return true
	}
	for _, re := range furniturePatterns {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}

// inEdgeBand: the box lies wholly inside the top or bottom FurnitureBand.
func inEdgeBand(p TextPage, b BBox) bool {
	if p.Height <= 0 {
		return false
	}
	band := FurnitureBand * p.Height
	return b[1]+b[3] <= band || b[1] >= p.Height-band
}

// gluedToBody: a block outside the bands, overlapping the box horizontally,
// starts or ends less than GlueLines × body under or over it: the box is
// the first or last line of a text column that runs into the band (a dense
// newspaper page), not a head or footer set apart.
func gluedToBody(p TextPage, b BBox, body float64) bool {
	gap := GlueLines * math.Max(body, 6)
	for _, o := range p.Blocks {
		if o.BBox == b || inEdgeBand(p, o.BBox) || overlapX(b, o.BBox) <= 0 {
			continue
		}
		below := o.BBox[1] - (b[1] + b[3])
		above := b[1] - (o.BBox[1] + o.BBox[3])
		if (below > -gap && below < gap) || (above > -gap && above < gap) {
			return true
		}
	}
	return false
}

// inSideBand: the box's centre lies in the left or right FurnitureBand.
func inSideBand(p TextPage, b BBox) bool {
	if p.Width <= 0 {
		return false
	}
	cx := (b[0] + b[2]/2) / p.Width
	return cx <= FurnitureBand || cx >= 1-FurnitureBand
}

// isRotated: one line in a box much taller than wide cannot be horizontal
// text once it holds a few characters.
func isRotated(b TextBlock, text string) bool {
	return b.LineCount <= 1 && b.BBox[3] >= RotatedAspect*b.BBox[2] && utf8.RuneCountInString(text) >= RotatedMinRunes
}

// lowerWords counts the words starting with a lower-case letter, web
// addresses excepted (a footer's "www.example.com" is not prose).
func lowerWords(text string) int {
	n := 0
	for _, w := range strings.Fields(text) {
		if startsLower(w) && !urlOnlyRe.MatchString(strings.TrimRight(w, ".,;:")) {
			n++
		}
	}
	return n
}

// isURLOnly: the whole text is one web address.
func isURLOnly(text string) bool {
	return urlOnlyRe.MatchString(strings.TrimRight(strings.TrimSpace(text), ".,;:"))
}

// footnotes marks the page's footnotes: small text (≤ CaptionRatio × body)
// whose box centre is below FootnoteZone, with no larger text under it in
// its column, starting where body text above it starts (not a table cell),
// without dot leaders, that opens with a note mark ("1 ", "* ", "†", "¹"). A block
// that qualifies but for the mark, set in the same size as a marked note on
// the page, is a note continued from the previous page or column.
// Furniture and page numbers (already typed) are ignored as text under it.
func footnotes(p TextPage, regions []Region, body float64) []bool {
	out := make([]bool, len(p.Blocks))
	if p.Height <= 0 || body <= 0 {
		return out
	}
	atFoot := make([]bool, len(p.Blocks))
	var markedSizes []float64
	for i, b := range p.Blocks {
		if b.FontSize <= 0 || b.FontSize/body > CaptionRatio || (b.BBox[1]+b.BBox[3]/2)/p.Height < FootnoteZone {
			continue
		}
		if hasTextBelow(p, regions, i, body) || !startsColumn(p, i, body) || dotLeaderRe.MatchString(b.Text) {
			continue
		}
		atFoot[i] = true
		if isFootnoteStart(regions[i].Text) {
			out[i] = true
			markedSizes = append(markedSizes, b.FontSize)
		}
	}
	for i, b := range p.Blocks {
		if !atFoot[i] || out[i] {
			continue
		}
		for _, s := range markedSizes {
			if math.Abs(s-b.FontSize) <= 0.5 {
				out[i] = true
				break
			}
		}
	}
	return out
}

// startsColumn: block i's left edge is within one body size of the left
// edge of a larger-set block above it.
func startsColumn(p TextPage, i int, body float64) bool {
	b := p.Blocks[i].BBox
	for j, o := range p.Blocks {
		if j != i && o.FontSize/body > CaptionRatio && o.BBox[1] < b[1] && math.Abs(o.BBox[0]-b[0]) <= math.Max(body, 6) {
			return true
		}
	}
	return false
}

// isFootnoteStart: a note mark followed by words with letters.
func isFootnoteStart(text string) bool {
	if !footnoteMarkRe.MatchString(text) {
		return false
	}
	words := 0
	for _, w := range strings.Fields(text) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			words++
		}
	}
	return words >= 2
}

// hasTextBelow: some block under block i, overlapping it horizontally by
// half the narrower width, is set larger than CaptionRatio × body and is
// not furniture or a page number.
func hasTextBelow(p TextPage, regions []Region, i int, body float64) bool {
	b := p.Blocks[i].BBox
	for j, o := range p.Blocks {
		if j == i || o.BBox[1] < b[1]+b[3]-1 || o.FontSize/body <= CaptionRatio {
			continue
		}
		if k := regions[j].Kind; k == KindFurniture || k == KindPageNumber {
			continue
		}
		if overlapX(b, o.BBox) >= 0.5*math.Min(b[2], o.BBox[2]) {
			return true
		}
	}
	return false
}

// furnitureLineMates marks the short labels set apart in the top or bottom
// band level with a block already typed furniture: the other parts of a
// footer line (a motto beside the address, a title beside the date).
func furnitureLineMates(p TextPage, regions []Region, body float64) []bool {
	out := make([]bool, len(p.Blocks))
	for i, b := range p.Blocks {
		k := regions[i].Kind
		if k != KindParagraph && k != KindSubhead || b.LineCount > FurnitureMaxLines || !isLabel(regions[i].Text) ||
			!inEdgeBand(p, b.BBox) || gluedToBody(p, b.BBox, body) {
			continue
		}
		for j, o := range p.Blocks {
			if j != i && regions[j].Kind == KindFurniture && inEdgeBand(p, o.BBox) && overlapY(b.BBox, o.BBox) > 0 {
				out[i] = true
				break
			}
		}
	}
	return out
}

// overlapY is how far two boxes overlap vertically (0 when apart).
func overlapY(a, b BBox) float64 {
	return math.Max(0, math.Min(a[1]+a[3], b[1]+b[3])-math.Max(a[1], b[1]))
}

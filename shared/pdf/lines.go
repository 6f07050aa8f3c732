package pdf

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/lectern/lectern/shared/magazine"
)

// Lines are built from baselines, not from the gaps between words. MuPDF
// starts a new line at any gap wider than about 0.8 em, so a justified line
// set with wide word spacing arrives as one line per word, as do two
// columns or table cells set on one baseline. The pieces of a MuPDF block
// on one baseline are put back into one row, left to right, and the row is
// cut only where a gap is a gutter (isGutter): the rows around leave the
// same white channel open with a column's flush edge, or the gap is several
// times the word spacing beside it, or it parts figures or characters of a
// script set without spaces. Where no space glyph was drawn, word spaces
// come from the gaps between glyphs (wordSpaces).

// pieceGapEms: a gap wider than this many font sizes inside one MuPDF line
// ends a piece: it may be a gutter (MuPDF itself splits lines at about 0.8).
const pieceGapEms = 0.8

// spaceGapEms: a gap this many font sizes wider than the line's spacing
// between letters is a word space, when the PDF drew no space glyph there.
// MuPDF adds a space only from 0.15 em, which tight or condensed setting
// stays under.
const spaceGapEms = 0.1

// unevenEms: when the gaps between a line's letters differ by more than
// this many font sizes, glyph gaps do not tell word spaces.
const unevenEms = 0.05

// rowSizeRatio: pieces whose font sizes differ by more than this ratio are
// not one row, and not rows that show each other's columns (a drop cap, a
// headline beside body text).
const rowSizeRatio = 1.3

// Gutter tests (isGutter), lengths in font sizes. A gap is like its row's
// spacing when it is at most justifiedMaxEms and no wider than
// justifiedRatio times the median of the word gaps beside it on one side
// (up to sideGaps) plus justifiedSlackEms, and under wideRatio times the
// gap next to it on either side. The rows around are up to neighbourRows
// on each side, each within rowPitchEms of the next; a white channel is
// open when channelEms wide (and riverRatio of a gap like the spacing);
// edges are in line within alignEms, or looseAlignEms over longRun rows; a
// channel openRatio of the gap over three rows is a table's. Gaps within
// equalEms are the same width; a row next to the gap whose words cover
// crossedRatio of it sets running text across it.
const (
	justifiedMaxEms   = 3.0
	justifiedRatio    = 1.5
	justifiedSlackEms = 0.3
	sideGaps          = 3
	wideRatio         = 3.0
	rowPitchEms       = 3.0
	neighbourRows     = 6
	nearRows          = 2 // rows on each side looked at for a wider gap
	channelEms        = 0.5
	riverRatio        = 0.5
	alignEms          = 0.1
	looseAlignEms     = 0.3
	longRun           = 4
	openRatio         = 0.75
	equalEms          = 0.03
	crossedRatio      = 0.3
)

// stextChar is one character MuPDF placed, with its style.
type stextChar struct {
	c            int
	box          magazine.BBox
	size         float64
	bold, italic bool
}

// piece is a run of characters MuPDF set on one line, up to a gap wider
// than pieceGapEms: a whole line, a word of a widely spaced one, or one
// column's part of a line shared by two columns.
type piece struct {
	chars    []stextChar
	box      magazine.BBox
	size     float64      // dominant font size
	words    [][2]float64 // left and right edge of each word
	lettered []bool       // whether each word has a letter (not a number)
}

// splitPieces cuts one MuPDF line into pieces at its wide gaps.
func splitPieces(chars []stextChar) []*piece {
	var out []*piece
	start := 0
	for i := 1; i <= len(chars); i++ {
		if i < len(chars) && chars[i].box[0]-right(chars[i-1]) <= pieceGapEms*math.Max(chars[i].size, 1) {
			continue
		}
		if p := newPiece(chars[start:i]); p != nil {
			out = append(out, p)
		}
		start = i
	}
	return out
}

func right(c stextChar) float64 { return c.box[0] + c.box[2] }

// newPiece measures a run of characters; nil when it holds only spaces.
func newPiece(chars []stextChar) *piece {
	p := &piece{chars: chars}
	sizes := map[float64]int{}
	var word [2]float64
	inWord, letters := false, false
	end := func() {
		if inWord {
			p.words = append(p.words, word)
			p.lettered = append(p.lettered, letters)
		}
		inWord, letters = false, false
	}
	for i, c := range chars {
		if i == 0 {
			p.box = c.box
		} else {
			p.box = p.box.Union(c.box)
		}
		sizes[math.Round(c.size*10)/10]++
		if isBlank(c.c) {
			end()
			continue
		}
		if inWord && c.box[0]-word[1] >= spaceGapEms*math.Max(c.size, 1) {
			end()
		}
		if !inWord {
			word = [2]float64{c.box[0], right(c)}
			inWord = true
		}
		word[0], word[1] = math.Min(word[0], c.box[0]), math.Max(word[1], right(c))
		letters = letters || unicode.IsLetter(rune(c.c))
	}
	end()
	if len(p.words) == 0 {
		return nil
	}
	p.size = dominant(sizes)
	return p
}

func isBlank(c int) bool { return glyphText(c) == " " }

// dominant is the size most characters have; the larger one on a tie.
func dominant(sizes map[float64]int) float64 {
	best, n := 0.0, -1
	for s, c := range sizes {
		if c > n || (c == n && s > best) {
			best, n = s, c
		}
	}
	return best
}

func sameSize(a, b float64) bool {
	a, b = math.Max(a, 0.1), math.Max(b, 0.1)
	return math.Max(a, b)/math.Min(a, b) <= rowSizeRatio
}

// sameBaseline: the pieces' boxes share most of their height and their
// sizes are alike.
func sameBaseline(a, b magazine.BBox, sa, sb float64) bool {
	overlap := math.Min(a[1]+a[3], b[1]+b[3]) - math.Max(a[1], b[1])
	return sameSize(sa, sb) && overlap >= 0.6*math.Min(a[3], b[3])
}

// pageRow is the pieces of a page on one baseline, for seeing which
// columns the rows around a gap leave open. Pieces join a row by its first
// piece, so a row cannot creep down the page.
type pageRow struct {
	pieces []*piece
	box    magazine.BBox // all its pieces
	size   float64
}

func (r *pageRow) centre() float64 { return r.pieces[0].box[1] + r.pieces[0].box[3]/2 }

// pageRows groups all pieces of a page by baseline, whatever MuPDF block
// they are in, sorted by their centres.
func pageRows(blocks [][]*piece) []*pageRow {
	var rows []*pageRow
	near := rowIndex{}
	for _, b := range blocks {
		for _, p := range b {
			if k := near.find(p, func(k int) bool { return sameBaseline(rows[k].pieces[0].box, p.box, rows[k].size, p.size) }); k >= 0 {
				rows[k].pieces = append(rows[k].pieces, p)
				rows[k].box = rows[k].box.Union(p.box)
				continue
			}
			near.add(p, len(rows))
			rows = append(rows, &pageRow{pieces: []*piece{p}, box: p.box, size: p.size})
		}
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].centre() < rows[j].centre() })
	return rows
}

// rowIndex finds rows by the height of their first piece, so grouping
// pieces into rows costs little more than one pass on a page of thousands.
type rowIndex map[int][]int // band of 4 pt → rows (by number) whose first piece is centred there

const rowBand = 4.0

// find is the first row (by number) near p that ok accepts; -1 if none.
// Rows on p's baseline are centred within 1.5 times its height of it.
func (ix rowIndex) find(p *piece, ok func(int) bool) int {
	c, reach := p.box[1]+p.box[3]/2, 1.5*p.box[3]+rowBand
	best := -1
	for band := int(math.Floor((c - reach) / rowBand)); band <= int(math.Floor((c+reach)/rowBand)); band++ {
		for _, k := range ix[band] {
			if (best < 0 || k < best) && ok(k) {
				best = k
			}
		}
	}
	return best
}

func (ix rowIndex) add(p *piece, k int) {
	band := int(math.Floor((p.box[1] + p.box[3]/2) / rowBand))
	ix[band] = append(ix[band], k)
}

// blockLines turns one MuPDF block's pieces into lines: the pieces on one
// baseline form a row, left to right, and a row is cut only at gutters.
// Lines keep the order in which MuPDF gave their pieces.
func blockLines(pieces []*piece, page []*pageRow) []*stextLine {
	type row struct {
		pieces []*piece
		order  []int // each piece's place in MuPDF's order
	}
	var rows []*row
	near := rowIndex{}
	for i, p := range pieces {
		if k := near.find(p, func(k int) bool {
			r := rows[k]
			return sameBaseline(r.pieces[0].box, p.box, r.pieces[0].size, p.size) && !overlapsAny(r.pieces, p)
		}); k >= 0 {
			rows[k].pieces = append(rows[k].pieces, p)
			rows[k].order = append(rows[k].order, i)
			continue
		}
		near.add(p, len(rows))
		rows = append(rows, &row{pieces: []*piece{p}, order: []int{i}})
	}
	type ordered struct {
		line  *stextLine
		order int
	}
	var lines []ordered
	for _, r := range rows {
		idx := make([]int, len(r.pieces))
		for k := range idx {
			idx[k] = k
		}
		sort.SliceStable(idx, func(i, j int) bool { return r.pieces[idx[i]].box[0] < r.pieces[idx[j]].box[0] })
		ps := make([]*piece, len(idx))
		for k, at := range idx {
			ps[k] = r.pieces[at]
		}
		start := 0
		for i := 1; i <= len(ps); i++ {
			if i < len(ps) && !isGutter(ps, i, page) {
				continue
			}
			// Each part of a row cut at gutters takes the place MuPDF gave
			// the first of its pieces.
			first := len(pieces)
			for _, at := range idx[start:i] {
				first = min(first, r.order[at])
			}
			lines = append(lines, ordered{newLine(ps[start:i]), first})
			start = i
		}
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].order < lines[j].order })
	out := make([]*stextLine, len(lines))
	for i, l := range lines {
		out[i] = l.line
	}
	return out
}

// overlapsAny: p runs into one of the pieces horizontally (text drawn
// twice, or over other text), so it is not their neighbour on a row.
func overlapsAny(ps []*piece, p *piece) bool {
	for _, q := range ps {
		if math.Min(q.box[0]+q.box[2], p.box[0]+p.box[2])-math.Max(q.box[0], p.box[0]) > 0.1*math.Max(p.size, 1) {
			return true
		}
	}
	return false
}

// isGutter decides whether the white between pieces ps[i-1] and ps[i] of a
// row, sorted left to right, separates two columns (or table cells).
//
// Justified text shares a line's spare space out equally between its words,
// so a gap like those beside it on the row is word spacing, unless the rows
// around leave the same white open with an edge in line with the gap's, as
// a column's flush edge is (word gaps that happen to line up over a few
// rows, a river, wander), or the white is as wide as the gap down a table.
// A gap clearly wider than the row's spacing is a gutter when it is several
// times the gap next to it, when the nearest rows on one side leave it
// open, or when no row around sets running text across it.
func isGutter(ps []*piece, i int, page []*pageRow) bool {
	a, b := ps[i-1], ps[i]
	size := math.Max(math.Max(a.size, b.size), 1)
	left, rightEdge := a.words[len(a.words)-1][1], b.words[0][0]
	gap := rightEdge - left
	if gap <= 0 {
		return true // set over each other: not one line's words
	}
	// Chinese and Japanese set no word spaces, so a wide gap between their
	// characters is never one, nor is one between two numbers (a table's
	// figures).
	if noSpaces(lastChar(a.chars)) && noSpaces(firstChar(b.chars)) || isFigure(a.chars) && isFigure(b.chars) {
		return true
	}
	before, after := sideGapsOf(ps, left, rightEdge)
	like := func(gaps []float64) bool {
		// Only gaps a justified line could have tell its spacing.
		gaps = slices.DeleteFunc(slices.Clone(gaps), func(g float64) bool { return g > justifiedMaxEms*size })
		return len(gaps) > 0 && gap <= justifiedRatio*median(gaps)+justifiedSlackEms*size
	}
	// A gap several times the word gap next to it on either side is no
	// word space of that side's line, even a sentence's in loose TeX (under
	// 3 times a word space).
	far := len(before) > 0 && gap >= wideRatio*before[len(before)-1] || len(after) > 0 && gap >= wideRatio*after[0]
	// Spacing: like the gaps on one side, and far from neither.
	spacing := gap <= justifiedMaxEms*size && (like(before) || like(after)) && !far
	// A gap the very width of one beside it is a typesetter's share of a
	// line's spare space.
	equal := slices.ContainsFunc(append(slices.Clone(before), after...), func(g float64) bool { return math.Abs(g-gap) <= equalEms*size })

	centre := (math.Max(a.box[1], b.box[1]) + math.Min(a.box[1]+a.box[3], b.box[1]+b.box[3])) / 2
	above, below := rowsAround(page, centre, size, (left+rightEdge)/2)
	if !spacing {
		open := func(rs []*pageRow) bool {
			rs = rs[:min(len(rs), nearRows)]
			return len(rs) > 0 && width(channel(left, rightEdge, rs)) >= channelEms*size
		}
		if far || len(above)+len(below) == 0 || open(above) || open(below) {
			return true
		}
		return !crossed(left, rightEdge, above, below)
	}

	// Walk out from the row on each side while the rows leave the white
	// open, past one row that crosses it (a stray mark in a scan's text
	// layer). next: the rows open next to the row, before any miss.
	need := math.Max(channelEms*size, riverRatio*gap)
	var open, next []*pageRow
	c0, c1 := left, rightEdge // the white all the next rows leave open
	for _, side := range [][]*pageRow{above, below} {
		s0, s1 := left, rightEdge
		missed := false
		for _, r := range side {
			n0, n1 := channel(s0, s1, []*pageRow{r})
			if n1-n0 < need {
				if missed {
					break
				}
				missed = true
				continue
			}
			s0, s1 = n0, n1
			open = append(open, r)
			if !missed {
				c0, c1 = math.Max(c0, n0), math.Min(c1, n1)
				next = append(next, r)
			}
		}
	}
	// A channel nearly as wide as a gap of its own width (cells of a table
	// centred in their columns) over the next rows.
	if !equal && len(next) >= 3 && c1-c0 >= openRatio*gap {
		return true
	}
	// Edges in line in all rows but one: over a long run a little loosely
	// (a scan's text layer places words within a point or two), else
	// exactly and in the rows right next to the row.
	tol := looseAlignEms * size
	if len(open) < longRun {
		open, tol = next, alignEms*size
	}
	inLeft, inRight, rows := 0, 0, 0
	for _, r := range open {
		wl, wr := whiteAround(r, (left+rightEdge)/2)
		if wl < left-gap && wr > rightEdge+gap {
			continue // nothing near the gap on this row: it tells nothing
		}
		rows++
		if math.Abs(wl-left) <= tol {
			inLeft++
		}
		if math.Abs(wr-rightEdge) <= tol {
			inRight++
		}
	}
	if rows >= 2 && max(inLeft, inRight) >= max(2, min(rows-1, (2*rows+2)/3)) {
		return true
	}
	// No column edge in sight. A gap the very width of its neighbours is
	// justification, river or not. Otherwise (a scan's text layer spaces
	// words unevenly; a table's cells differ in width) the gap is spacing
	// only amid running text.
	return !equal && !crossed(left, rightEdge, above, below)
}

// crossed: a row right next to the gap from x0 to x1, above or below, sets
// words across it: the gap is amid running text.
func crossed(x0, x1 float64, above, below []*pageRow) bool {
	for _, side := range [][]*pageRow{above, below} {
		if len(side) > 0 && coverage(x0, x1, side[0]) >= crossedRatio {
			return true
		}
	}
	return false
}

// coverage is the share of x0…x1 the words of row r cover, counting only
// words with letters (running text, not a table's figures).
func coverage(x0, x1 float64, r *pageRow) float64 {
	var ink [][2]float64
	for _, p := range r.pieces {
		for k, w := range p.words {
			if p.lettered[k] && w[1] > x0 && w[0] < x1 {
				ink = append(ink, [2]float64{math.Max(w[0], x0), math.Min(w[1], x1)})
			}
		}
	}
	slices.SortFunc(ink, func(x, y [2]float64) int { return cmp.Compare(x[0], y[0]) })
	covered, at := 0.0, x0
	for _, w := range ink {
		if w[1] > at {
			covered += w[1] - math.Max(w[0], at)
			at = w[1]
		}
	}
	return covered / (x1 - x0)
}

// sideGapsOf is the row's word gaps nearest to the gap from left to right
// on each side of it, up to sideGaps each.
func sideGapsOf(ps []*piece, left, right float64) (before, after []float64) {
	var words [][2]float64
	for _, p := range ps {
		words = append(words, p.words...)
	}
	slices.SortFunc(words, func(x, y [2]float64) int { return cmp.Compare(x[0], y[0]) })
	for k := 1; k < len(words); k++ {
		g := math.Max(words[k][0]-words[k-1][1], 0)
		switch {
		case words[k][0] < right:
			before = append(before, g)
		case words[k-1][1] > left:
			after = append(after, g)
		}
	}
	if len(before) > sideGaps {
		before = before[len(before)-sideGaps:]
	}
	return before, after[:min(len(after), sideGaps)]
}

// rowsAround is, on each side of a row at centre, the rows in type of about
// size that reach across x, nearest first, as long as they follow one
// another at a line's distance (a table further down or a heading further
// up is another matter).
func rowsAround(page []*pageRow, centre, size, x float64) (above, below []*pageRow) {
	reach := neighbourRows * rowPitchEms * size
	from, _ := slices.BinarySearchFunc(page, centre-reach, func(r *pageRow, y float64) int { return cmp.Compare(r.centre(), y) })
	for _, r := range page[from:] {
		d := r.centre() - centre
		if d > reach {
			break
		}
		if !sameSize(r.size, size) || math.Abs(d) < 0.5*size {
			continue
		}
		if r.box[0] >= x || r.box[0]+r.box[2] <= x {
			continue // does not reach across: tells nothing
		}
		if d < 0 {
			above = append(above, r)
		} else {
			below = append(below, r)
		}
	}
	following := func(rs []*pageRow) []*pageRow {
		sort.Slice(rs, func(i, j int) bool { return math.Abs(rs[i].centre()-centre) < math.Abs(rs[j].centre()-centre) })
		at := centre
		for k, r := range rs {
			if k == neighbourRows || math.Abs(r.centre()-at) > rowPitchEms*size {
				return rs[:k]
			}
			at = r.centre()
		}
		return rs
	}
	return following(above), following(below)
}

// median of gaps; 0 when there are none.
func median(gaps []float64) float64 {
	if len(gaps) == 0 {
		return 0
	}
	gaps = slices.Clone(gaps)
	slices.Sort(gaps)
	return gaps[len(gaps)/2]
}

// whiteAround is the white run of row r around x: from the end of the word
// before x to the start of the word after it (infinite where there is none).
func whiteAround(r *pageRow, x float64) (float64, float64) {
	wl, wr := math.Inf(-1), math.Inf(1)
	for _, p := range r.pieces {
		for _, w := range p.words {
			if w[1] <= x {
				wl = math.Max(wl, w[1])
			}
			if w[0] >= x {
				wr = math.Min(wr, w[0])
			}
		}
	}
	return wl, wr
}

func width(x0, x1 float64) float64 { return x1 - x0 }

// channel is the widest run between x0 and x1 that the words of rows leave
// open.
func channel(x0, x1 float64, rows []*pageRow) (float64, float64) {
	var ink [][2]float64
	for _, r := range rows {
		for _, p := range r.pieces {
			for _, w := range p.words {
				if w[1] > x0 && w[0] < x1 {
					ink = append(ink, w)
				}
			}
		}
	}
	slices.SortFunc(ink, func(x, y [2]float64) int { return cmp.Compare(x[0], y[0]) })
	b0, b1, at := x0, x0, x0
	for _, w := range ink {
		if w[0]-at > b1-b0 {
			b0, b1 = at, w[0]
		}
		at = math.Max(at, w[1])
	}
	if x1-at > b1-b0 {
		b0, b1 = at, x1
	}
	return b0, b1
}

// newLine joins the pieces of one row segment, left to right, into a line,
// with a space wherever glyphs stand apart like words but no space glyph
// was drawn.
func newLine(ps []*piece) *stextLine {
	var chars []stextChar
	for k, p := range ps {
		// A space between pieces, unless one of them brings its own.
		if k > 0 && !isBlank(chars[len(chars)-1].c) && !isBlank(p.chars[0].c) {
			prev := chars[len(chars)-1]
			chars = append(chars, stextChar{c: ' ', box: magazine.BBox{right(prev), prev.box[1], math.Max(p.box[0]-right(prev), 0), prev.box[3]}, size: prev.size})
		}
		chars = append(chars, p.chars...)
	}
	l := &stextLine{sizes: map[float64]int{}}
	l.box = ps[0].box
	for _, p := range ps[1:] {
		l.box = l.box.Union(p.box)
	}
	spaced := wordSpaces(chars)
	for i, c := range chars {
		if spaced[i] {
			l.text.WriteByte(' ')
		}
		l.text.WriteString(glyphText(c.c))
		l.sizes[math.Round(c.size*10)/10]++
		l.chars++
		if c.bold {
			l.bold++
		}
		if c.italic {
			l.italic++
		}
	}
	return l
}

// wordSpaces marks the characters that need a space before them: where the
// gap from the glyph before is wider than the line's spacing between
// letters by spaceGapEms, and no space glyph is there. A line that does not
// run left to right (right-to-left or vertical text, glyphs drawn over each
// other) gets none, nor do Chinese and Japanese, written without spaces, a
// number's separators ("3,000"), or punctuation from the word it belongs to.
func wordSpaces(chars []stextChar) []bool {
	out := make([]bool, len(chars))
	between := func(i int) bool {
		a, b := chars[i-1], chars[i]
		if isBlank(a.c) || isBlank(b.c) || b.box[0] <= a.box[0] || noSpaces(a.c) || noSpaces(b.c) {
			return false
		}
		if i >= 2 && (a.c == ',' || a.c == '.') && isDigit(chars[i-2].c) && isDigit(b.c) {
			return false
		}
		// No space opens before closing punctuation or after opening.
		return !strings.ContainsRune(",.;:!?)]}’”»…", rune(b.c)) && !strings.ContainsRune("([{‘“«", rune(a.c))
	}
	var gaps []float64
	pairs, forward := 0, 0
	for i := 1; i < len(chars); i++ {
		a, b := chars[i-1], chars[i]
		if isBlank(a.c) || isBlank(b.c) {
			continue
		}
		pairs++
		if b.box[0] > a.box[0] {
			forward++
		}
		if between(i) {
			gaps = append(gaps, b.box[0]-right(a))
		}
	}
	if len(gaps) == 0 || forward*10 < pairs*9 {
		return out
	}
	letters := median(gaps)
	// Most gaps are between letters of a word and alike; where they are
	// not (glyphs placed from a scan) a wide one says nothing.
	slices.Sort(gaps)
	if gaps[len(gaps)*7/10]-letters > unevenEms*math.Max(chars[0].size, 1) {
		return out
	}
	for i := 1; i < len(chars); i++ {
		a, b := chars[i-1], chars[i]
		out[i] = between(i) && b.box[0]-right(a)-letters >= spaceGapEms*math.Max(math.Min(a.size, b.size), 1)
	}
	return out
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

// firstChar and lastChar are a piece's first and last characters that are
// not blank.
func firstChar(chars []stextChar) int {
	for _, c := range chars {
		if !isBlank(c.c) {
			return c.c
		}
	}
	return ' '
}

func lastChar(chars []stextChar) int {
	for i := len(chars) - 1; i >= 0; i-- {
		if !isBlank(chars[i].c) {
			return chars[i].c
		}
	}
	return ' '
}

// isFigure: a piece that is a number ("12", "3,000", "-1.5", "4.2%") or a
// table's dash for none.
func isFigure(chars []stextChar) bool {
	digits, marks := 0, 0
	for _, c := range chars {
		switch {
		case isDigit(c.c):
			digits++
		case isBlank(c.c):
		case strings.ContainsRune("+-−–—.,%()$€£", rune(c.c)):
			marks++
		default:
			return false
		}
	}
	return digits > 0 || marks == 1 && strings.ContainsRune("-−–—", rune(firstChar(chars)))
}

// noSpaces: a character of a script written without word spaces (Han,
// kana) or a full-width form or CJK punctuation.
func noSpaces(c int) bool {
	r := rune(c)
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF
}

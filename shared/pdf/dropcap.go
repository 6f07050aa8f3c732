package pdf

import (
	"math"
	"strings"
	"unicode"

	"github.com/lectern/lectern/shared/magazine"
)

// dropCapMinRatio: an initial at least this many times the size of the text
// beside it spans two lines or more: a drop cap, not a word.
const dropCapMinRatio = 1.8

// joinDropCaps puts a drop cap back at the start of its paragraph: "O" set
// large to the left of the first lines and "ver the years…" beside it read
// "Over the years…". The other lines beside the cap and those below it,
// flush with its left edge, continue the same paragraph and join it too,
// whatever blocks MuPDF made of them. The cap no longer stands alone, so it
// cannot be read as a headline.
func joinDropCaps(blocks []magazine.TextBlock) []magazine.TextBlock {
	drop := make([]bool, len(blocks))
	for i, initial := range blocks {
		if drop[i] || !isInitial(initial) {
			continue
		}
		j := besideCap(blocks, drop, i)
		if j < 0 {
			continue
		}
		p := &blocks[j]
		p.Text = strings.TrimSpace(initial.Text) + p.Text
		if len(p.Lines) > 0 {
			first := &p.Lines[0]
			first.Text = strings.TrimSpace(initial.Text) + first.Text
			first.BBox = magazine.BBox{initial.BBox[0], first.BBox[1], first.BBox[0] + first.BBox[2] - initial.BBox[0], first.BBox[3]}
		}
		bottom := p.BBox[1] + p.BBox[3] // of the text, not of the cap
		indent := p.BBox[0]             // where the lines beside the cap start
		p.BBox = p.BBox.Union(initial.BBox)
		drop[i] = true
		// The lines beside the cap, and those that wrap under it, back at the
		// column's edge.
		for {
			k := nextLines(blocks, drop, *p, bottom, indent, initial)
			if k < 0 {
				break
			}
			q := blocks[k]
			p.Text = joinText(p.Text, q.Text)
			p.BBox = p.BBox.Union(q.BBox)
			p.LineCount += q.LineCount
			p.Lines = append(p.Lines, q.Lines...)
			bottom = q.BBox[1] + q.BBox[3]
			drop[k] = true
		}
	}
	out := blocks[:0:0]
	for i, b := range blocks {
		if !drop[i] {
			out = append(out, b)
		}
	}
	return out
}

// isInitial: a block that is one capital letter, perhaps after an opening
// quote, on one line.
func isInitial(b magazine.TextBlock) bool {
	r := []rune(strings.TrimSpace(b.Text))
	if b.LineCount != 1 || len(r) == 0 || len(r) > 2 {
		return false
	}
	if len(r) == 2 && !strings.ContainsRune("\"'“‘«„", r[0]) {
		return false
	}
	return unicode.IsUpper(r[len(r)-1])
}

// besideCap finds the paragraph the drop cap blocks[c] begins: body text
// much smaller than the cap, starting just right of it with its first line
// in the cap's upper half, and going on as the rest of a word (lower case)
// or in capitals (an opening set in small capitals). -1 when there is none.
func besideCap(blocks []magazine.TextBlock, drop []bool, c int) int {
	initial := blocks[c]
	best, bestGap := -1, math.Inf(1)
	for j, p := range blocks {
		if j == c || drop[j] || p.FontSize <= 0 || initial.FontSize < dropCapMinRatio*p.FontSize || isInitial(p) {
			continue
		}
		size := p.FontSize
		gap := p.BBox[0] - (initial.BBox[0] + initial.BBox[2])
		if p.BBox[0] < initial.BBox[0]+initial.BBox[2]/2 || gap > 3*size {
			continue
		}
		if p.BBox[1] < initial.BBox[1]-size || p.BBox[1] > initial.BBox[1]+initial.BBox[3]/2 {
			continue
		}
		if !continuesWord(p.Text) {
			continue
		}
		if gap < bestGap {
			best, bestGap = j, gap
		}
	}
	return best
}

// continuesWord: text that can follow a drop cap in one word: lower case,
// or a word in capitals.
func continuesWord(s string) bool {
	word := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(word) == 0 {
		return false
	}
	first := []rune(word[0])
	return unicode.IsLower(first[0]) || len(first) > 1 && strings.ToUpper(word[0]) == word[0]
}

// nextLines finds the block that carries paragraph p on below its first
// line: same type, starting right under p's text, which ends at bottom, and
// flush with the lines beside the cap (at indent) or with the cap's left
// edge. -1 when there is none.
func nextLines(blocks []magazine.TextBlock, drop []bool, p magazine.TextBlock, bottom, indent float64, initial magazine.TextBlock) int {
	size := math.Max(p.FontSize, 1)
	for k, q := range blocks {
		if drop[k] || q.Bold != p.Bold || q.Italic != p.Italic || math.Abs(q.FontSize-p.FontSize) >= 0.5 {
			continue
		}
		gap := q.BBox[1] - bottom
		flush := math.Abs(q.BBox[0]-indent) <= paragraphIndentEms*size || math.Abs(q.BBox[0]-initial.BBox[0]) <= paragraphIndentEms*size
		if flush && gap >= -0.5*size && gap <= paragraphGapEms*size && q.BBox[1] > initial.BBox[1] {
			return k
		}
	}
	return -1
}

package pdf

import (
	"math"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/magazine"
)

// Display lines set in pieces: a headline is often drawn as several text
// objects ("ONCE MORE" and "THE FAMOUS OREGON," side by side), which MuPDF
// keeps as blocks of their own, to be read apart.
const (
	// displayRatio: a block at least this many times the page's body size
	// is display type.
	displayRatio = 1.5
	// displayGapEms: pieces of one display line are at most this many
	// font sizes apart (a word space at display size, never a gutter
	// between two headlines of that size).
	displayGapEms = 1.0
)

// joinDisplayLines joins one-line blocks of display type that sit on one
// baseline in the same size and weight, nearer than displayGapEms, with no
// other block between them, into one line read left to right.
func joinDisplayLines(blocks []magazine.TextBlock) []magazine.TextBlock {
	body := magazine.BodySize(blocks)
	if body <= 0 {
		return blocks
	}
	display := func(b magazine.TextBlock) bool {
		return b.LineCount == 1 && b.FontSize >= displayRatio*body && strings.TrimSpace(b.Text) != ""
	}
	out := slices.Clone(blocks)
	gone := make([]bool, len(out))
	for joined := true; joined; {
		joined = false
		for i := range out {
			if gone[i] || !display(out[i]) {
				continue
			}
			j := nextOnLine(out, gone, i, display)
			if j < 0 {
				continue
			}
			a, b := out[i], out[j]
			a.Text = strings.TrimSpace(a.Text) + " " + strings.TrimSpace(b.Text)
			a.BBox = a.BBox.Union(b.BBox)
			a.Lines = []magazine.TextLine{{BBox: a.BBox, Text: a.Text}}
			out[i], gone[j], joined = a, true, true
		}
	}
	kept := out[:0]
	for i, b := range out {
		if !gone[i] {
			kept = append(kept, b)
		}
	}
	return kept
}

// nextOnLine finds the display block that continues block i's line on the
// right: same size and weight, same baseline, a word space away, nothing in
// between. -1 when there is none.
func nextOnLine(blocks []magazine.TextBlock, gone []bool, i int, display func(magazine.TextBlock) bool) int {
	a := blocks[i]
	right := a.BBox[0] + a.BBox[2]
	best, bestGap := -1, math.Inf(1)
	for j, b := range blocks {
		if j == i || gone[j] || !display(b) || b.Bold != a.Bold || b.Italic != a.Italic ||
			math.Max(a.FontSize, b.FontSize)/math.Min(a.FontSize, b.FontSize) > sizeSplitRatio {
			continue
		}
		gap := b.BBox[0] - right
		baseline := math.Abs((a.BBox[1] + a.BBox[3]) - (b.BBox[1] + b.BBox[3]))
		if gap < 0 || gap > displayGapEms*a.FontSize || baseline > 0.25*a.FontSize || gap >= bestGap {
			continue
		}
		best, bestGap = j, gap
	}
	if best < 0 {
		return -1
	}
	// Nothing may sit in the gap between them.
	between := magazine.BBox{right, math.Min(a.BBox[1], blocks[best].BBox[1]), bestGap, math.Max(a.BBox[3], blocks[best].BBox[3])}
	for k, c := range blocks {
		if k != i && k != best && !gone[k] && between[2] > 0 && c.BBox.Overlap(between) > 0 {
			return -1
		}
	}
	return best
}

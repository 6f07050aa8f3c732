package pdf

import (
	"bytes"
	"context"
	"encoding/xml"

	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/lectern/lectern/shared/magazine"
)

// MinRealTextLetters: a page whose text layer holds fewer letters than this
// has no real text (a scan with a stray label), so OCR reads it instead.
const MinRealTextLetters = 20

// wordGapEms: a horizontal gap wider than this many font sizes inside one
// MuPDF line is a column gutter, so the line is split there.
const wordGapEms = 1.2

// sizeSplitRatio: lines in one MuPDF block whose font sizes differ by more
// than this ratio become separate blocks (a headline set tight on its body).
const sizeSplitRatio = 1.15

// TextLayer reads a page's (1-based) own text with MuPDF's structured text:
// characters → lines → blocks, each block with its box, dominant font size
// and weight, plus the boxes of the pictures on the page. HasRealText tells
// whether OCR can be skipped.
func TextLayer(ctx context.Context, data []byte, page int, lim Limits) (magazine.TextPage, error) {
	if err := CheckPage(data, page, lim); err != nil {
		return magazine.TextPage{}, err
	}
	run, err := runLimited(ctx, data, page, 0, lim)
	if err != nil {
		return magazine.TextPage{}, err
	}
	tp, err := parseStext(run.data)
	if err != nil {
		return magazine.TextPage{}, invalid(ReasonBrokenPage, page, "structured text: %v", err)
	}
	tp.Width, tp.Height = run.width, run.height
	return tp, nil
}

// HasRealText reports whether the text layer is worth more than OCR.
func HasRealText(tp magazine.TextPage) bool {
	letters := 0
	for _, b := range tp.Blocks {
		for _, r := range b.Text {
			if unicode.IsLetter(r) {
				letters++
			}
		}
	}
	return letters >= MinRealTextLetters
}

type stextLine struct {
	right  float64 // x where the last character ended
	box    magazine.BBox
	text   strings.Builder
	sizes  map[float64]int // font size → characters
	bold   int             // bold characters
	italic int             // italic characters
	chars  int
}

// style is the line's dominant weight and slant.
func (l *stextLine) style() (bold, italic bool) {
	return l.chars > 0 && l.bold*2 > l.chars, l.chars > 0 && l.italic*2 > l.chars
}

func (l *stextLine) size() float64 {
	best, n := 0.0, -1
	for s, c := range l.sizes {
		if c > n || (c == n && s > best) {
			best, n = s, c
		}
	}
	return best
}

// parseStext reads MuPDF's stext XML: <page><block bbox><line bbox><font
// name size><char c/>…, and <image bbox/> for pictures.
func parseStext(data []byte) (magazine.TextPage, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var (
		tp         magazine.TextPage
		block      []*stextLine
		line       *stextLine
		fontSize   float64
		fontBold   bool
		fontItalic bool
	)
	flush := func() {
		for _, col := range byColumn(block) {
			tp.Blocks = append(tp.Blocks, linesToBlocks(col)...)
		}
		block = nil
	}
	endLine := func() {
		if line != nil && strings.TrimSpace(line.text.String()) != "" {
			block = append(block, line)
		}
		line = nil
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return tp, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "block":
				block = nil
			case "image":
				if b, ok := parseBox(attr(t, "bbox")); ok {
					tp.Pictures = append(tp.Pictures, b)
				}
			case "line":
				line = nil // started by its first character
			case "font":
				fontSize, _ = strconv.ParseFloat(attr(t, "size"), 64)
				fontBold = isBoldFont(attr(t, "name"))
				fontItalic = isItalicFont(attr(t, "name"))
			case "char":
				q, ok := parseQuad(attr(t, "quad"))
				if !ok {
					continue
				}
				// A wide gap inside one line is a gutter between columns
				// set on the same baseline: split the line there.
				if line != nil && q[0]-line.right > wordGapEms*math.Max(fontSize, 1) {
					endLine()
				}
				if line == nil {
					line = &stextLine{box: q, sizes: map[float64]int{}}
				}
				line.box = line.box.Union(q)
				line.right = q[0] + q[2]
				line.text.WriteString(attr(t, "c"))
				line.sizes[math.Round(fontSize*10)/10]++
				line.chars++
				if fontBold {
					line.bold++
				}
				if fontItalic {
					line.italic++
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "line":
				endLine()
			case "block":
				flush()
			}
		}
	}
	tp.Blocks = mergeBlocks(tp.Blocks)
	return tp, nil
}

// paragraphIndentEms: a line starting this many font sizes right of the
// block above is indented: a new paragraph.
const paragraphIndentEms = 0.5

// paragraphGapEms: a block that starts within this many font sizes below
// another in the same column, in the same type, continues it.
const paragraphGapEms = 0.8

// mergeBlocks joins lines MuPDF left as blocks of their own that continue a
// paragraph: same column edge, same size and style, right below it.
func mergeBlocks(blocks []magazine.TextBlock) []magazine.TextBlock {
	var out []magazine.TextBlock
	for _, b := range blocks {
		joined := false
		for i := range out {
			a := &out[i]
			gap := b.BBox[1] - (a.BBox[1] + a.BBox[3])
			// Only a lone line joins a block above it, and only flush with
			// it: MuPDF's multi-line blocks are paragraphs already, and an
			// indented line starts a new one.
			if b.LineCount == 1 && a.Bold == b.Bold && a.Italic == b.Italic && math.Abs(a.FontSize-b.FontSize) < 0.5 &&
				math.Abs(a.BBox[0]-b.BBox[0]) <= paragraphIndentEms*math.Max(b.FontSize, 1) &&
				gap >= -0.5*b.FontSize && gap <= paragraphGapEms*b.FontSize {
				a.Text = joinText(a.Text, b.Text)
				a.BBox = a.BBox.Union(b.BBox)
				a.LineCount += b.LineCount
				joined = true
				break
			}
		}
		if !joined {
			out = append(out, b)
		}
	}
	return out
}

// joinText joins two lines of one paragraph, undoing a hyphen that split a
// word across them.
func joinText(prev, next string) string {
	if strings.HasSuffix(prev, "-") && len(prev) > 1 && unicode.IsLetter(rune(prev[len(prev)-2])) && startsLower(next) {
		return strings.TrimSuffix(prev, "-") + next
	}
	return prev + " " + next
}

// columnTolerance: line pieces of one block whose left edges are within this
// many font sizes belong to the same column (a first-line indent stays in).
const columnTolerance = 3.0

// byColumn separates the pieces of lines that were split at a gutter into
// one run per column, each in its original order.
func byColumn(lines []*stextLine) [][]*stextLine {
	var cols [][]*stextLine
	for _, l := range lines {
		placed := false
		for i, c := range cols {
			if math.Abs(c[0].box[0]-l.box[0]) <= columnTolerance*math.Max(l.size(), 1) && l.box[1] >= c[len(c)-1].box[1] {
				cols[i] = append(c, l)
				placed = true
				break
			}
		}
		if !placed {
			cols = append(cols, []*stextLine{l})
		}
	}
	return cols
}

// linesToBlocks splits a MuPDF block where the font size jumps, then joins
// each run of lines into one TextBlock.
func linesToBlocks(lines []*stextLine) []magazine.TextBlock {
	var out []magazine.TextBlock
	start := 0
	for i := 1; i <= len(lines); i++ {
		if i < len(lines) {
			a, b := lines[i-1].size(), lines[i].size()
			ab, ai := lines[i-1].style()
			bb, bi := lines[i].style()
			// A size jump, or a whole line set in another style (a run-in
			// heading in italics or bold), starts a new block.
			if a > 0 && b > 0 && math.Max(a, b)/math.Min(a, b) <= sizeSplitRatio && ab == bb && ai == bi {
				continue
			}
		}
		out = append(out, joinLines(lines[start:i]))
		start = i
	}
	return out
}

func joinLines(lines []*stextLine) magazine.TextBlock {
	var text strings.Builder
	box := lines[0].box
	sizes := map[float64]int{}
	bold, italic, chars := 0, 0, 0
	for i, l := range lines {
		s := strings.TrimSpace(l.text.String())
		if i > 0 {
			// A word hyphenated across lines is joined back; a dash that
			// ends a line before a capital stays.
			joined := joinText(text.String(), s)
			text.Reset()
			text.WriteString(joined)
			box = box.Union(l.box)
		} else {
			text.WriteString(s)
		}
		for sz, n := range l.sizes {
			sizes[sz] += n
		}
		bold += l.bold
		italic += l.italic
		chars += l.chars
	}
	agg := stextLine{sizes: sizes}
	return magazine.TextBlock{
		BBox:      box,
		Text:      text.String(),
		FontSize:  agg.size(),
		Bold:      chars > 0 && bold*2 > chars,
		Italic:    chars > 0 && italic*2 > chars,
		LineCount: len(lines),
	}
}

func startsLower(s string) bool {
	for _, r := range s {
		return unicode.IsLower(r)
	}
	return false
}

func isBoldFont(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"bold", "black", "heavy", "semibold", "demi", ",b"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

func isItalicFont(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "italic") || strings.Contains(n, "oblique") || strings.HasSuffix(n, ",i") || strings.HasSuffix(n, "-it")
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// parseBox turns MuPDF's "x0 y0 x1 y1" into [x, y, w, h].
func parseBox(s string) (magazine.BBox, bool) {
	f := strings.Fields(s)
	if len(f) != 4 {
		return magazine.BBox{}, false
	}
	var v [4]float64
	for i, x := range f {
		n, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return magazine.BBox{}, false
		}
		v[i] = n
	}
	return magazine.BBox{v[0], v[1], v[2] - v[0], v[3] - v[1]}, true
}

// parseQuad turns a character's "ulx uly urx ury llx lly lrx lry" into its
// box.
func parseQuad(s string) (magazine.BBox, bool) {
	f := strings.Fields(s)
	if len(f) != 8 {
		return magazine.BBox{}, false
	}
	xs, ys := make([]float64, 4), make([]float64, 4)
	for i, x := range f {
		n, err := strconv.ParseFloat(x, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return magazine.BBox{}, false
		}
		if i%2 == 0 {
			xs[i/2] = n
		} else {
			ys[i/2] = n
		}
	}
	x0, x1 := slices.Min(xs), slices.Max(xs)
	y0, y1 := slices.Min(ys), slices.Max(ys)
	return magazine.BBox{x0, y0, x1 - x0, y1 - y0}, true
}

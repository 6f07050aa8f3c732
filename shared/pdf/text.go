package pdf

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/lectern/lectern/shared/magazine"
)

// MinRealTextChars: a page whose text layer holds fewer letters and digits
// than this may have more text than its layer (a scan with a stray label, a
// title set in outlines), so OCR reads it too, and the layer stays only when
// OCR reads no better.
const MinRealTextChars = 20

// sizeSplitRatio: lines in one MuPDF block whose font sizes differ by more
// than this ratio become separate blocks (a headline set tight on its body).
const sizeSplitRatio = 1.15

// TextLayer reads a page's (1-based) own text with MuPDF's structured text:
// characters → lines → blocks, each block with its box, dominant font size
// and weight, plus the boxes of the pictures on the page. Alphanumerics
// against MinRealTextChars tells whether OCR need read the page too.
func TextLayer(ctx context.Context, data []byte, page int, lim Limits) (magazine.TextPage, error) {
	if err := CheckPage(data, page, lim); err != nil {
		return magazine.TextPage{}, err
	}
	run, err := runLimited(ctx, data, page, passWant{text: true}, lim)
	if err != nil {
		return magazine.TextPage{}, err
	}
	return textPage(run, page)
}

// textPage builds the text layer from a pass's structured text.
func textPage(run pageRun, page int) (magazine.TextPage, error) {
	glyphs, fonts, err := decodeStext(run.text, run.namesAt)
	if err != nil {
		return magazine.TextPage{}, invalid(ReasonBrokenPage, page, "structured text: %v", err)
	}
	tp := buildStext(glyphs, fonts)
	tp.Width, tp.Height = run.width, run.height
	return tp, nil
}

// Alphanumerics counts the letters and digits of the text layer: a table
// of figures is text as much as a paragraph is.
func Alphanumerics(tp magazine.TextPage) int {
	n := 0
	for _, b := range tp.Blocks {
		for _, r := range b.Text {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				n++
			}
		}
	}
	return n
}

type stextLine struct {
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

func (l *stextLine) size() float64 { return dominant(l.sizes) }

// Glyph record kinds, as the MuPDF shim writes them.
const (
	glyphBlock = 1 // a text block starts
	glyphLine  = 2 // a line starts
	glyphChar  = 3
	glyphImage = 4 // a picture's box
)

// glyphSize is the size of one record: kind, character and font index
// (int32), the box x0 y0 x1 y1 and the font size (float32).
const glyphSize = 32

// stextGlyph is one record of MuPDF's structured text.
type stextGlyph struct {
	kind, c, font int
	box           magazine.BBox // x, y, w, h
	size          float64
}

// decodeStext reads the shim's structured text: glyph records, then the
// font names, each ending in a NUL. Nothing in a page's text can break
// this: characters are numbers and names are only matched, not parsed.
func decodeStext(data []byte, namesAt int) ([]stextGlyph, []string, error) {
	if namesAt < 0 || namesAt > len(data) || namesAt%glyphSize != 0 {
		return nil, nil, fmt.Errorf("structured text of %d bytes, names at %d", len(data), namesAt)
	}
	glyphs := make([]stextGlyph, 0, namesAt/glyphSize)
	for rec := data[:namesAt]; len(rec) >= glyphSize; rec = rec[glyphSize:] {
		i := func(at int) int { return int(int32(binary.NativeEndian.Uint32(rec[at:]))) }
		f := func(at int) float64 { return printed(math.Float32frombits(binary.NativeEndian.Uint32(rec[at:]))) }
		x0, y0, x1, y1 := f(12), f(16), f(20), f(24)
		glyphs = append(glyphs, stextGlyph{kind: i(0), c: i(4), font: i(8), box: magazine.BBox{x0, y0, x1 - x0, y1 - y0}, size: f(28)})
	}
	names := strings.Split(strings.TrimSuffix(string(data[namesAt:]), "\x00"), "\x00")
	return glyphs, names, nil
}

// printed is v as MuPDF's text output printed it (%g: six significant
// digits), so layout decisions match those made on that output.
func printed(v float32) float64 {
	f, err := strconv.ParseFloat(strconv.FormatFloat(float64(v), 'g', 6, 64), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// glyphText is a character as text: a control character, a surrogate or a
// number that is no character at all reads as a space.
func glyphText(c int) string {
	r := rune(c)
	if c < 0 || c > unicode.MaxRune || r < 0x20 && r != '\t' || r >= 0xD800 && r <= 0xDFFF || r == 0xFFFE || r == 0xFFFF {
		return " "
	}
	return string(r)
}

// buildStext turns structured text into blocks: characters → pieces of
// MuPDF's lines → lines rebuilt from baselines (lines.go) → blocks, pictures'
// boxes aside.
func buildStext(glyphs []stextGlyph, fonts []string) magazine.TextPage {
	var (
		tp     magazine.TextPage
		blocks [][]*piece // MuPDF's text blocks, in its order
		line   []stextChar
	)
	endLine := func() {
		if len(line) > 0 && len(blocks) > 0 {
			blocks[len(blocks)-1] = append(blocks[len(blocks)-1], splitPieces(line)...)
		}
		line = nil
	}
	for _, g := range glyphs {
		switch g.kind {
		case glyphBlock:
			endLine()
			blocks = append(blocks, nil)
		case glyphImage:
			endLine()
			tp.Pictures = append(tp.Pictures, g.box)
			blocks = append(blocks, nil) // text after a picture is a block of its own
		case glyphLine:
			endLine() // the next line starts with its first character
		case glyphChar:
			if len(blocks) == 0 {
				blocks = append(blocks, nil)
			}
			name := ""
			if g.font >= 0 && g.font < len(fonts) {
				name = fonts[g.font]
			}
			line = append(line, stextChar{c: g.c, box: g.box, size: g.size, bold: isBoldFont(name), italic: isItalicFont(name)})
		}
	}
	endLine()
	rows := pageRows(blocks)
	for _, b := range blocks {
		for _, col := range byColumn(blockLines(b, rows)) {
			tp.Blocks = append(tp.Blocks, linesToBlocks(col)...)
		}
	}
	tp.Blocks = joinDisplayLines(mergeBlocks(joinDropCaps(tp.Blocks)))
	return tp
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
				a.Lines = append(a.Lines, b.Lines...)
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
	return magazine.JoinRun(prev, next)
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
	own := make([]magazine.TextLine, len(lines))
	for i, l := range lines {
		s := strings.TrimSpace(l.text.String())
		own[i] = magazine.TextLine{BBox: l.box, Text: s}
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
		Lines:     own,
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

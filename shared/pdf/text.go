package pdf

import (
	"bytes"
	"context"
	"encoding/xml"

	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/lectern/lectern/shared/magazine"
)

// MinRealTextLetters: a page whose text layer holds fewer letters than this
// has no real text (a scan with a stray label), so OCR reads it instead.
const MinRealTextLetters = 20

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
	box   magazine.BBox
	text  strings.Builder
	sizes map[float64]int // font size → characters
	bold  int             // bold characters
	chars int
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
		tp       magazine.TextPage
		block    []*stextLine
		line     *stextLine
		fontSize float64
		fontBold bool
	)
	flush := func() {
		tp.Blocks = append(tp.Blocks, linesToBlocks(block)...)
		block = nil
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
				b, _ := parseBox(attr(t, "bbox"))
				line = &stextLine{box: b, sizes: map[float64]int{}}
			case "font":
				fontSize, _ = strconv.ParseFloat(attr(t, "size"), 64)
				fontBold = isBoldFont(attr(t, "name"))
			case "char":
				if line == nil {
					continue
				}
				line.text.WriteString(attr(t, "c"))
				line.sizes[math.Round(fontSize*10)/10]++
				line.chars++
				if fontBold {
					line.bold++
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "line":
				if line != nil && strings.TrimSpace(line.text.String()) != "" {
					block = append(block, line)
				}
				line = nil
			case "block":
				flush()
			}
		}
	}
	return tp, nil
}

// linesToBlocks splits a MuPDF block where the font size jumps, then joins
// each run of lines into one TextBlock.
func linesToBlocks(lines []*stextLine) []magazine.TextBlock {
	var out []magazine.TextBlock
	start := 0
	for i := 1; i <= len(lines); i++ {
		if i < len(lines) {
			a, b := lines[i-1].size(), lines[i].size()
			if a > 0 && b > 0 && math.Max(a, b)/math.Min(a, b) <= sizeSplitRatio {
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
	bold, chars := 0, 0
	for i, l := range lines {
		s := strings.TrimSpace(l.text.String())
		if i > 0 {
			prev := text.String()
			// A word hyphenated across lines is joined back; a dash that
			// ends a line before a capital stays.
			if strings.HasSuffix(prev, "-") && len(prev) > 1 && unicode.IsLetter(rune(prev[len(prev)-2])) && startsLower(s) {
				text.Reset()
				text.WriteString(strings.TrimSuffix(prev, "-"))
			} else {
				text.WriteByte(' ')
			}
			box = union(box, l.box)
		}
		text.WriteString(s)
		for sz, n := range l.sizes {
			sizes[sz] += n
		}
		bold += l.bold
		chars += l.chars
	}
	agg := stextLine{sizes: sizes}
	return magazine.TextBlock{
		BBox:      box,
		Text:      text.String(),
		FontSize:  agg.size(),
		Bold:      chars > 0 && bold*2 > chars,
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

func union(a, b magazine.BBox) magazine.BBox {
	x0, y0 := math.Min(a[0], b[0]), math.Min(a[1], b[1])
	x1, y1 := math.Max(a[0]+a[2], b[0]+b[2]), math.Max(a[1]+a[3], b[1]+b[3])
	return magazine.BBox{x0, y0, x1 - x0, y1 - y0}
}

package magazine

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// olmOCR placement rules.
const (
	// olmLineCover: a line of Tesseract's belongs to the block whose words
	// cover at least this share of the line's words.
	olmLineCover = 0.6
	// olmStrongWords: a line of at least this many words is placed by its
	// words alone; a shorter one ("9", "large tables.") only next to lines
	// of its block, or for a block no longer than twice the line.
	olmStrongWords = 3
)

// olmFrontMatter is the YAML olmOCR puts on top of its answer.
type olmFrontMatter struct {
	PrimaryLanguage    *string `yaml:"primary_language"`
	IsRotationValid    *bool   `yaml:"is_rotation_valid"`
	RotationCorrection int     `yaml:"rotation_correction"`
	IsTable            bool    `yaml:"is_table"`
	IsDiagram          bool    `yaml:"is_diagram"`
}

var (
	olmFigureRe = regexp.MustCompile(`^!\[([^\]]*)\]\(([^)]*)\)$`)
	olmNameRe   = regexp.MustCompile(`(\d+)_(\d+)_(\d+)_(\d+)\.\w+$`)
	olmListRe   = regexp.MustCompile(`^(?:[-*+•]|\d{1,3}[.)])\s+`)
	olmHeadRe   = regexp.MustCompile(`^(#{1,6})\s+`)
)

// olmBlock is one block of olmOCR's Markdown.
type olmBlock struct {
	kind Kind
	text string
	box  *BBox // figures name their box; text is placed on the anchors
}

// parseOlmOCR reads olmOCR's front matter and Markdown. Text blocks carry no
// boxes, so each is placed on the lines of anchors (Tesseract's blocks, in
// points) whose words it holds; a figure's box comes from its file name
// (page_x_y_w_h.png, pixels of the image the model saw, spaceW×spaceH). A
// block no line matches is set just below the block before it, so no text
// is lost; when no block matches at all the answer is ErrUnplaced.
func parseOlmOCR(answer string, g PageGeom, spaceW, spaceH float64, anchors []TextBlock) ([]Region, error) {
	body := strings.TrimSpace(stripFence(strings.TrimSpace(answer)))
	if strings.HasPrefix(body, "---") {
		rest := strings.TrimPrefix(body, "---")
		end := strings.Index(rest, "\n---")
		if end < 0 {
			return nil, fmt.Errorf("%w: the front matter never closes", ErrTruncated)
		}
		var fm olmFrontMatter
		if err := yaml.Unmarshal([]byte(rest[:end]), &fm); err != nil {
			return nil, fmt.Errorf("%w: front matter: %v", ErrUnparsable, err)
		}
		if fm.RotationCorrection != 0 || (fm.IsRotationValid != nil && !*fm.IsRotationValid) {
			return nil, fmt.Errorf("%w by %d degrees", ErrRotated, fm.RotationCorrection)
		}
		body = strings.TrimSpace(strings.TrimPrefix(rest[end+4:], "-"))
	}
	if body == "" || body == "null" {
		return nil, ErrEmptyAnswer
	}
	if HasRepetitionLoop(body) {
		return nil, ErrRepetitionLoop
	}
	blocks := olmBlocks(body)
	if len(blocks) == 0 {
		return nil, ErrEmptyAnswer
	}
	sx, sy := g.W/spaceW, g.H/spaceH
	for i, b := range blocks {
		if b.kind != KindFigure {
			continue
		}
		m := olmNameRe.FindStringSubmatch(b.text)
		blocks[i].text = ""
		if m == nil {
			continue
		}
		var v [4]float64
		for j := range v {
			v[j], _ = strconv.ParseFloat(m[j+1], 64)
		}
		if v[0]+v[2] > spaceW*1.02 || v[1]+v[3] > spaceH*1.02 {
			return nil, fmt.Errorf("%w: figure %s in an image of %gx%g", ErrBoxOutside, m[0], spaceW, spaceH)
		}
		box := BBox{v[0] * sx, v[1] * sy, v[2] * sx, v[3] * sy}
		blocks[i].box = &box
	}
	boxes := placeBlocks(blocks, anchors)
	placed := 0
	for _, b := range boxes {
		if b != nil {
			placed++
		}
	}
	textBlocks := 0
	for _, b := range blocks {
		if b.kind != KindFigure {
			textBlocks++
		}
	}
	if textBlocks > 0 && placed == countFigures(blocks) {
		return nil, fmt.Errorf("%w: none of its %d text blocks matches the words Tesseract read (%d blocks)", ErrUnplaced, textBlocks, len(anchors))
	}
	var out []Region
	var prev *BBox
	for i, b := range blocks {
		box := boxes[i]
		if box == nil {
			if b.kind == KindFigure {
				continue // a figure without a usable name: the page render still shows it
			}
			box = unplacedBox(prev, g)
		}
		r := presetRegion(len(out), b.kind, clampBox(*box, g), b.text, true)
		if !(r.BBox[2] > 0 && r.BBox[3] > 0) {
			continue
		}
		out = append(out, r)
		prev = box
	}
	if len(out) == 0 {
		return nil, ErrNoRegions
	}
	return out, nil
}

func countFigures(blocks []olmBlock) int {
	n := 0
	for _, b := range blocks {
		if b.box != nil {
			n++
		}
	}
	return n
}

// olmBlocks splits olmOCR's Markdown into blocks: paragraphs (blank-line
// separated), headings, HTML tables, figure references and runs of list
// items each make one.
func olmBlocks(body string) []olmBlock {
	var out []olmBlock
	var cur []string
	kind := KindParagraph
	flush := func() {
		if len(cur) > 0 {
			out = append(out, olmBlock{kind: kind, text: strings.Join(cur, "\n")})
		}
		cur, kind = nil, KindParagraph
	}
	lines := strings.Split(body, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == "":
			flush()
		case strings.HasPrefix(strings.ToLower(l), "<table"):
			flush()
			j := i
			for ; j < len(lines) && !strings.Contains(strings.ToLower(lines[j]), "</table>"); j++ {
			}
			j = min(j, len(lines)-1)
			out = append(out, olmBlock{kind: KindTable, text: strings.Join(lines[i:j+1], "\n")})
			i = j
		case olmFigureRe.MatchString(l):
			flush()
			out = append(out, olmBlock{kind: KindFigure, text: olmFigureRe.FindStringSubmatch(l)[2]})
		case olmHeadRe.MatchString(l):
			flush()
			k := KindSubhead
			if len(olmHeadRe.FindStringSubmatch(l)[1]) == 1 {
				k = KindHeadline
			}
			out = append(out, olmBlock{kind: k, text: l})
		case olmListRe.MatchString(l):
			if kind != KindList {
				flush()
				kind = KindList
			}
			cur = append(cur, l)
		default:
			if kind == KindList && len(cur) > 0 {
				cur[len(cur)-1] += " " + l // a list item's wrapped line
				continue
			}
			cur = append(cur, l)
		}
	}
	flush()
	return out
}

// anchorLine is one line of a Tesseract block: its box estimated from the
// block's box and line count, its words from the block's text.
type anchorLine struct {
	box   BBox
	words []string
}

// anchorLines splits blocks into lines, giving each word the line its
// place in the block's text falls on (Tesseract joins a block's lines with
// spaces, so a line is found by its share of the characters).
func anchorLines(anchors []TextBlock) []anchorLine {
	var out []anchorLine
	for _, a := range anchors {
		n := max(a.LineCount, 1)
		fields := strings.Fields(a.Text)
		total := 0
		for _, f := range fields {
			total += len(f) + 1
		}
		lines := make([]anchorLine, n)
		h := a.BBox[3] / float64(n)
		for i := range lines {
			lines[i].box = BBox{a.BBox[0], a.BBox[1] + float64(i)*h, a.BBox[2], h}
		}
		done := 0
		for _, f := range fields {
			li := min(n-1, int(float64(done)/float64(max(total, 1))*float64(n)))
			done += len(f) + 1
			if w := normWord(f); w != "" {
				lines[li].words = append(lines[li].words, w)
			}
		}
		for _, l := range lines {
			if len(l.words) > 0 {
				out = append(out, l)
			}
		}
	}
	return out
}

// normWord is a word as compared: letters and digits, lower case.
func normWord(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// placeBlocks gives each text block the union of the anchor lines that are
// its words; figures keep their own boxes.
func placeBlocks(blocks []olmBlock, anchors []TextBlock) []*BBox {
	lines := anchorLines(anchors)
	bags := make([]map[string]int, len(blocks))
	sizes := make([]int, len(blocks))
	for i, b := range blocks {
		bags[i] = map[string]int{}
		if b.kind == KindFigure {
			continue
		}
		for _, f := range strings.Fields(htmlTableText(markdownText(b.text))) {
			if w := normWord(f); w != "" {
				bags[i][w]++
				sizes[i]++
			}
		}
	}
	cover := func(bi int, l anchorLine) float64 {
		hit := 0
		for _, w := range l.words {
			if bags[bi][w] > 0 {
				hit++
			}
		}
		return float64(hit) / float64(len(l.words))
	}
	best := func(l anchorLine, ok func(int) bool) int {
		bi, top := -1, olmLineCover
		for i := range blocks {
			if blocks[i].kind == KindFigure || !ok(i) {
				continue
			}
			if c := cover(i, l); c >= top+1e-9 || (bi < 0 && c >= top) {
				bi, top = i, c
			}
		}
		return bi
	}
	boxes := make([]*BBox, len(blocks))
	grow := func(i int, b BBox) {
		if boxes[i] == nil {
			nb := b
			boxes[i] = &nb
			return
		}
		*boxes[i] = unionBox(*boxes[i], b)
	}
	// Strong lines first: enough words to say where they belong.
	for _, l := range lines {
		if len(l.words) >= olmStrongWords {
			if bi := best(l, func(int) bool { return true }); bi >= 0 {
				grow(bi, l.box)
			}
		}
	}
	core := make([]*BBox, len(blocks))
	for i, b := range boxes {
		if b != nil {
			c := *b
			core[i] = &c
		}
	}
	// Short lines: next to their block's strong lines, or a short block of their own.
	for _, l := range lines {
		if len(l.words) >= olmStrongWords {
			continue
		}
		bi := best(l, func(i int) bool {
			if core[i] != nil {
				return nearBox(*core[i], l.box)
			}
			return sizes[i] <= 2*len(l.words)+2
		})
		if bi >= 0 {
			grow(bi, l.box)
		}
	}
	for i, b := range blocks {
		if b.box != nil {
			boxes[i] = b.box
		}
	}
	return boxes
}

// nearBox: l starts within two of its heights of c's top or bottom and
// overlaps it across.
func nearBox(c, l BBox) bool {
	gap := 2 * l[3]
	overlapX := math.Min(c[0]+c[2], l[0]+l[2]) - math.Max(c[0], l[0])
	return overlapX > 0 && l[1] >= c[1]-gap && l[1] <= c[1]+c[3]+gap
}

func unionBox(a, b BBox) BBox {
	x0, y0 := math.Min(a[0], b[0]), math.Min(a[1], b[1])
	x1, y1 := math.Max(a[0]+a[2], b[0]+b[2]), math.Max(a[1]+a[3], b[1]+b[3])
	return BBox{x0, y0, x1 - x0, y1 - y0}
}

// unplacedBox is where a block no anchor matched is set: a line's height
// under the block before it, or at the top of the page.
func unplacedBox(prev *BBox, g PageGeom) *BBox {
	const line = 12.0
	if prev == nil {
		return &BBox{0, 0, g.W, line}
	}
	return &BBox{prev[0], math.Min(prev[1]+prev[3], g.H-line), prev[2], line}
}

func clampBox(b BBox, g PageGeom) BBox {
	x0, y0 := clamp(b[0], 0, g.W), clamp(b[1], 0, g.H)
	x1, y1 := clamp(b[0]+b[2], 0, g.W), clamp(b[1]+b[3], 0, g.H)
	return BBox{x0, y0, x1 - x0, y1 - y0}
}

// Package tesseract is the built-in last-resort OCR engine: it runs the
// tesseract command (Debian's tesseract-ocr) on a page render and turns its
// TSV output into text blocks positioned in PDF points.
package tesseract

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// RecommendedDPI is the render resolution to give tesseract: at 150 DPI it
// misread lines that 300 DPI got right.
const RecommendedDPI = 300

// ErrNotInstalled means the tesseract command is missing.
var ErrNotInstalled = errors.New("tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)")

// Block is one paragraph tesseract found. BBox is [x, y, w, h] in PDF points
// from the top-left corner; LineHeight (points) stands in for a font size.
type Block struct {
	BBox       [4]float64
	Text       string
	Lines      int
	LineHeight float64
	Confidence float64 // mean word confidence, 0..100
}

// Engine runs tesseract with one language set.
type Engine struct {
	// Command is the executable; empty means "tesseract" on PATH.
	Command string
	// Languages is tesseract's -l argument; empty means "eng".
	Languages string
}

// Recognize reads the PNG (rendered at dpi) and returns its paragraphs in
// tesseract's order. A page with no words gives no blocks and no error.
func (e Engine) Recognize(ctx context.Context, png []byte, dpi int) ([]Block, error) {
	if dpi <= 0 {
		return nil, fmt.Errorf("tesseract: dpi must be positive, got %d", dpi)
	}
	command, langs := e.Command, e.Languages
	if command == "" {
		command = "tesseract"
	}
	if langs == "" {
		langs = "eng"
	}
	if _, err := exec.LookPath(command); err != nil {
		return nil, ErrNotInstalled
	}
	cmd := exec.CommandContext(ctx, command, "stdin", "stdout", "-l", langs, "--dpi", strconv.Itoa(dpi), "tsv")
	cmd.Stdin = bytes.NewReader(png)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("tesseract: %w", ctx.Err())
		}
		return nil, fmt.Errorf("tesseract: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return ParseTSV(stdout.Bytes(), dpi)
}

type word struct {
	left, top, width, height int
	conf                     float64
	text                     string
}

type lineKey struct{ block, par, line int }
type parKey struct{ block, par int }

// ParseTSV turns tesseract's TSV (12 columns: level page_num block_num
// par_num line_num word_num left top width height conf text) into blocks,
// one per paragraph, with pixel boxes converted to points at dpi.
func ParseTSV(tsv []byte, dpi int) ([]Block, error) {
	scale := 72 / float64(dpi)
	lines := map[lineKey][]word{}
	var lineOrder []lineKey
	sc := bufio.NewScanner(bytes.NewReader(tsv))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	header := true
	for sc.Scan() {
		if header {
			header = false
			if !strings.HasPrefix(sc.Text(), "level") {
				return nil, fmt.Errorf("tesseract: output is not TSV: %.40q", sc.Text())
			}
			continue
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 12 || f[0] != "5" {
			continue // only word rows carry text
		}
		text := strings.TrimSpace(f[11])
		n, err := atois(f[2], f[3], f[4], f[6], f[7], f[8], f[9])
		conf, cerr := strconv.ParseFloat(f[10], 64)
		if err != nil || cerr != nil {
			return nil, fmt.Errorf("tesseract: bad TSV row %q", sc.Text())
		}
		if text == "" || conf < 0 {
			continue
		}
		k := lineKey{n[0], n[1], n[2]}
		if _, ok := lines[k]; !ok {
			lineOrder = append(lineOrder, k)
		}
		lines[k] = append(lines[k], word{left: n[3], top: n[4], width: n[5], height: n[6], conf: conf, text: text})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("tesseract: read TSV: %w", err)
	}

	type acc struct {
		x0, y0, x1, y1 int
		lines          []string
		heights, confs float64
		words          int
	}
	pars := map[parKey]*acc{}
	var parOrder []parKey
	for _, lk := range lineOrder {
		pk := parKey{lk.block, lk.par}
		a := pars[pk]
		if a == nil {
			a = &acc{x0: 1 << 30, y0: 1 << 30}
			pars[pk] = a
			parOrder = append(parOrder, pk)
		}
		var texts []string
		lineTop, lineBottom := 1<<30, 0
		for _, w := range lines[lk] {
			texts = append(texts, w.text)
			a.x0, a.y0 = min(a.x0, w.left), min(a.y0, w.top)
			a.x1, a.y1 = max(a.x1, w.left+w.width), max(a.y1, w.top+w.height)
			lineTop, lineBottom = min(lineTop, w.top), max(lineBottom, w.top+w.height)
			a.confs += w.conf
			a.words++
		}
		a.heights += float64(lineBottom - lineTop)
		a.lines = append(a.lines, strings.Join(texts, " "))
	}
	blocks := make([]Block, 0, len(parOrder))
	for _, pk := range parOrder {
		a := pars[pk]
		blocks = append(blocks, Block{
			BBox:       [4]float64{float64(a.x0) * scale, float64(a.y0) * scale, float64(a.x1-a.x0) * scale, float64(a.y1-a.y0) * scale},
			Text:       joinLines(a.lines),
			Lines:      len(a.lines),
			LineHeight: a.heights / float64(len(a.lines)) * scale,
			Confidence: a.confs / float64(a.words),
		})
	}
	return blocks, nil
}

// joinLines joins a paragraph's lines with spaces, mending words hyphenated
// across a line end ("maga-" + "zine" → "magazine").
func joinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev := b.String()
			if strings.HasSuffix(prev, "-") && len(prev) > 1 && isLetter(prev[len(prev)-2]) && l != "" && isLower(l[0]) {
				b.Reset()
				b.WriteString(prev[:len(prev)-1])
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isLower(c byte) bool  { return c >= 'a' && c <= 'z' }

func atois(ss ...string) ([]int, error) {
	out := make([]int, len(ss))
	for i, s := range ss {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

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
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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
	Words      int     // words read
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
//
// With no Languages set it reads English, and when English reads poorly
// (mean word confidence under MinConfidence) it asks tesseract's script
// detection which script the page is in and, if a model for that script is
// installed, reads the page again with it, keeping the more confident
// reading: a scan in Chinese is not read as garbled English.
func (e Engine) Recognize(ctx context.Context, png []byte, dpi int) ([]Block, error) {
	if dpi <= 0 {
		return nil, fmt.Errorf("tesseract: dpi must be positive, got %d", dpi)
	}
	if _, err := exec.LookPath(e.command()); err != nil {
		return nil, ErrNotInstalled
	}
	if e.Languages != "" {
		return e.read(ctx, png, dpi, e.Languages)
	}
	blocks, err := e.read(ctx, png, dpi, "eng")
	if err != nil || len(blocks) > 0 && meanConfidence(blocks) >= MinConfidence {
		return blocks, err
	}
	lang := e.scriptLanguage(ctx, png, dpi)
	if lang == "" {
		return blocks, nil
	}
	other, err := e.read(ctx, png, dpi, lang)
	if err != nil || len(other) == 0 || meanConfidence(other) <= meanConfidence(blocks) {
		return blocks, nil // the English reading stands
	}
	return other, nil
}

// MinConfidence: an English reading whose words average less confidence
// than this (0–100) is tried again in the page's own script. English print
// reads at 85–95; a Chinese page read as English at about 33.
const MinConfidence = 60

// scriptModels are the models for scripts other than Latin, used when
// installed (Debian's tesseract-ocr-<lang> packages).
var scriptModels = map[string]string{
	"Han": "chi_sim", "Japanese": "jpn", "Hangul": "kor", "Cyrillic": "rus", "Arabic": "ara",
	"Greek": "ell", "Hebrew": "heb", "Devanagari": "hin", "Thai": "tha",
}

// scriptLanguage asks tesseract's orientation and script detection (the
// osd model) for the page's script and returns the installed model for it;
// "" when detection fails, the script is Latin, or no model is installed.
func (e Engine) scriptLanguage(ctx context.Context, png []byte, dpi int) string {
	out, err := e.run(ctx, png, "stdin", "stdout", "--psm", "0", "--dpi", strconv.Itoa(dpi))
	if err != nil {
		return ""
	}
	script := ""
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, "Script:"); ok {
			script = strings.TrimSpace(v)
		}
	}
	lang := scriptModels[script]
	if lang == "" {
		return ""
	}
	list, err := e.run(ctx, nil, "--list-langs")
	if err != nil || !slices.Contains(strings.Fields(string(list)), lang) {
		return ""
	}
	return lang
}

// read runs one recognition with the given -l languages.
func (e Engine) read(ctx context.Context, png []byte, dpi int, langs string) ([]Block, error) {
	out, err := e.run(ctx, png, "stdin", "stdout", "-l", langs, "--dpi", strconv.Itoa(dpi), "tsv")
	if err != nil {
		return nil, err
	}
	return ParseTSV(out, dpi)
}

// run runs tesseract with args, the PNG (if any) on its input.
func (e Engine) run(ctx context.Context, png []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, e.command(), args...)
	// One thread per tesseract: pages are read in parallel already, and
	// Tesseract's OpenMP threads spin while they wait, so several processes
	// with a thread per core each took 4-5 times the CPU of single-threaded
	// ones on this 2-core machine (14 s against 3 s for one page at 300 dpi).
	// Tesseract's own docs advise OMP_THREAD_LIMIT=1 for parallel runs.
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	if png != nil {
		cmd.Stdin = bytes.NewReader(png)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("tesseract: %w", ctx.Err())
		}
		return nil, fmt.Errorf("tesseract: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

func (e Engine) command() string {
	if e.Command == "" {
		return "tesseract"
	}
	return e.Command
}

// meanConfidence is the blocks' word confidence, weighted by words.
func meanConfidence(blocks []Block) float64 {
	sum, n := 0.0, 0
	for _, b := range blocks {
		sum += b.Confidence * float64(b.Words)
		n += b.Words
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
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

	// Lines grouped by paragraph, in tesseract's order; a paragraph that
	// spans a column gutter is split into one per column.
	byPar := map[parKey][][]word{}
	var parOrder []parKey
	for _, lk := range lineOrder {
		pk := parKey{lk.block, lk.par}
		if _, ok := byPar[pk]; !ok {
			parOrder = append(parOrder, pk)
		}
		byPar[pk] = append(byPar[pk], lines[lk])
	}
	var blocks []Block
	for _, pk := range parOrder {
		for _, par := range splitColumns(byPar[pk]) {
			blocks = append(blocks, paragraph(par, scale))
		}
	}
	if blocks == nil {
		blocks = []Block{}
	}
	return blocks, nil
}

// paragraph is one block of lines (each a run of words, left to right).
func paragraph(lines [][]word, scale float64) Block {
	x0, y0, x1, y1 := 1<<30, 1<<30, 0, 0
	var texts []string
	heights, confs, words := 0.0, 0.0, 0
	for _, l := range lines {
		var ws []string
		top, bottom := 1<<30, 0
		for _, w := range l {
			ws = append(ws, w.text)
			x0, y0 = min(x0, w.left), min(y0, w.top)
			x1, y1 = max(x1, w.left+w.width), max(y1, w.top+w.height)
			top, bottom = min(top, w.top), max(bottom, w.top+w.height)
			confs += w.conf
			words++
		}
		heights += float64(bottom - top)
		texts = append(texts, joinWords(ws))
	}
	return Block{
		BBox:       [4]float64{float64(x0) * scale, float64(y0) * scale, float64(x1-x0) * scale, float64(y1-y0) * scale},
		Text:       joinLines(texts),
		Lines:      len(lines),
		LineHeight: heights / float64(len(lines)) * scale,
		Confidence: confs / float64(words),
		Words:      words,
	}
}

// Column gutters inside one tesseract paragraph.
const (
	// gutterWordGaps: a gutter is at least this many times the
	// paragraph's median gap between words...
	gutterWordGaps = 2.5
	// gutterLineHeights: ...and at least this many line heights wide.
	gutterLineHeights = 1.0
	// gutterMinLines: at least this many lines have words on both sides.
	gutterMinLines = 2
)

// splitColumns splits a paragraph that tesseract read across a column
// gutter (short columns side by side are often taken for one block, and
// each line then runs on into the next column) at every vertical white
// channel: an x no word of the paragraph covers, where at least
// gutterMinLines lines have words on both sides with a gap that is wide for
// this paragraph's type. Columns come out left to right.
func splitColumns(lines [][]word) [][][]word {
	var gaps []int
	height := 0
	for _, l := range lines {
		for i := 1; i < len(l); i++ {
			gaps = append(gaps, l[i].left-(l[i-1].left+l[i-1].width))
		}
		for _, w := range l {
			height = max(height, w.height)
		}
	}
	if len(gaps) == 0 || len(lines) < gutterMinLines {
		return [][][]word{lines}
	}
	slices.Sort(gaps)
	wide := max(gutterWordGaps*float64(max(gaps[len(gaps)/2], 1)), gutterLineHeights*float64(height))
	for _, l := range lines {
		for i := 1; i < len(l); i++ {
			a, b := l[i-1].left+l[i-1].width, l[i].left
			if float64(b-a) < wide {
				continue
			}
			x := (a + b) / 2
			if !clearAt(lines, x) || spanning(lines, x, wide) < gutterMinLines {
				continue
			}
			var left, right [][]word
			for _, m := range lines {
				k := 0
				for k < len(m) && m[k].left+m[k].width <= x {
					k++
				}
				if k > 0 {
					left = append(left, m[:k])
				}
				if k < len(m) {
					right = append(right, m[k:])
				}
			}
			return append(splitColumns(left), splitColumns(right)...)
		}
	}
	return [][][]word{lines}
}

// clearAt: no word of the paragraph covers x.
func clearAt(lines [][]word, x int) bool {
	for _, l := range lines {
		for _, w := range l {
			if w.left <= x && x < w.left+w.width {
				return false
			}
		}
	}
	return true
}

// spanning counts the lines with words on both sides of x and a gap at
// least wide between them.
func spanning(lines [][]word, x int, wide float64) int {
	n := 0
	for _, l := range lines {
		for i := 1; i < len(l); i++ {
			a, b := l[i-1].left+l[i-1].width, l[i].left
			if a <= x && x < b && float64(b-a) >= wide {
				n++
			}
		}
	}
	return n
}

// joinWords joins a line's words with spaces, except between two words
// that end and start in Chinese or Japanese script, which tesseract gives
// one character a word and which are written without spaces.
func joinWords(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			prev, _ := utf8.DecodeLastRuneInString(words[i-1])
			next, _ := utf8.DecodeRuneInString(w)
			if !(unspaced(prev) && unspaced(next)) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(w)
	}
	return b.String()
}

// unspaced: a character of a script written without word spaces, or the
// full-width punctuation set with it.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}

// joinLines joins a paragraph's lines with spaces, mending words hyphenated
// across a line end ("maga-" + "zine" → "magazine").
func joinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev := b.String()
			last, _ := utf8.DecodeLastRuneInString(prev)
			first, _ := utf8.DecodeRuneInString(l)
			switch {
			case strings.HasSuffix(prev, "-") && len(prev) > 1 && isLetter(prev[len(prev)-2]) && l != "" && isLower(l[0]):
				b.Reset()
				b.WriteString(prev[:len(prev)-1])
			case unspaced(last) && unspaced(first):
				// Chinese and Japanese run on across lines.
			default:
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

package evalbench

import (
	"html"
	"regexp"
	"strings"
)

// Table is a Markdown table read back from a page's text: its rows of
// cells, the first row its heading row.
type Table [][]string

// ruleRe is a pipe table's rule line under the heading row.
var ruleRe = regexp.MustCompile(`^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$`)

// Tables finds the pipe tables of a Markdown text (a heading row, a rule
// line, then rows), as olmOCR-bench parses a Markdown answer.
func Tables(text string) []Table {
	lines := strings.Split(text, "\n")
	var out []Table
	for i := 0; i+1 < len(lines); i++ {
		head := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(head, "|") || !ruleRe.MatchString(strings.TrimSpace(lines[i+1])) {
			continue
		}
		t := Table{splitRow(head)}
		j := i + 2
		for ; j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|"); j++ {
			t = append(t, splitRow(strings.TrimSpace(lines[j])))
		}
		out = append(out, t)
		i = j - 1
	}
	return out
}

// splitRow splits a row at the pipes no backslash escapes and unescapes
// each cell.
func splitRow(line string) []string {
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	var cells []string
	var cur strings.Builder
	escaped := false
	for _, r := range line {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\':
			escaped = true
		case r == '|':
			cells = append(cells, html.UnescapeString(strings.TrimSpace(cur.String())))
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	return append(cells, html.UnescapeString(strings.TrimSpace(cur.String())))
}

// passTable: some table of the page has a cell matching Cell whose
// neighbours (up, down, left, right), heading (the heading row's cell of
// its column) and row heading (its row's first cell) match those asked
// for, each within MaxDiffs edits.
func (c Check) passTable(page string) bool {
	same := func(a, b string) bool {
		a, b = Normalize(a), Normalize(b)
		return levenshtein([]rune(a), []rune(b)) <= c.MaxDiffs
	}
	at := func(t Table, r, k int) (string, bool) {
		if r < 0 || r >= len(t) || k < 0 || k >= len(t[r]) {
			return "", false
		}
		return t[r][k], true
	}
	want := func(t Table, r, k int, text string) bool {
		if text == "" {
			return true
		}
		got, ok := at(t, r, k)
		return ok && same(got, text)
	}
	for _, t := range Tables(page) {
		for r, row := range t {
			for k, cell := range row {
				if !same(cell, c.Cell) {
					continue
				}
				if want(t, r-1, k, c.Up) && want(t, r+1, k, c.Down) && want(t, r, k-1, c.Left) && want(t, r, k+1, c.Right) &&
					(c.TopHeading == "" || r > 0 && want(t, 0, k, c.TopHeading)) &&
					(c.LeftHeading == "" || k > 0 && want(t, r, 0, c.LeftHeading)) {
					return true
				}
			}
		}
	}
	return false
}

// levenshtein is the edit distance of a and b.
func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := range a {
		cur[0] = i + 1
		for j := range b {
			cost := 1
			if a[i] == b[j] {
				cost = 0
			}
			cur[j+1] = min(prev[j]+cost, prev[j+1]+1, cur[j]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

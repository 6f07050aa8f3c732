// Package evalbench scores a page's text against checks written in the
// olmOCR-bench format (allenai/olmocr, olmocr/bench): one JSON object a line,
// each a "present", "absent" or "order" test on one page, matched fuzzily
// (at most max_diffs character edits) after normalization. Pure: the caller
// supplies the text to score.
package evalbench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ErrInvalid: a check that cannot be scored (unknown type, missing text).
var ErrInvalid = errors.New("invalid check")

// Test types.
const (
	TypePresent = "present" // text occurs on the page
	TypeAbsent  = "absent"  // text does not occur (furniture must not be read)
	TypeOrder   = "order"   // before occurs, and ahead of after
	TypeTable   = "table"   // a table cell with its neighbours and headings
)

// Check is one test, as olmOCR-bench writes it.
type Check struct {
	PDF      string `json:"pdf"`  // relative to the sample folder
	Page     int    `json:"page"` // 1-based
	ID       string `json:"id"`
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Before   string `json:"before,omitempty"`
	After    string `json:"after,omitempty"`
	MaxDiffs int    `json:"max_diffs"`
	Category string `json:"category"`
	// Table checks (olmOCR-bench's TableTest): a cell of a Markdown table
	// in the text and what must be beside it; empty fields are not checked.
	Cell        string `json:"cell,omitempty"`
	Up          string `json:"up,omitempty"`
	Down        string `json:"down,omitempty"`
	Left        string `json:"left,omitempty"`
	Right       string `json:"right,omitempty"`
	TopHeading  string `json:"top_heading,omitempty"`
	LeftHeading string `json:"left_heading,omitempty"`
}

// Validate reports a check that cannot be scored.
func (c Check) Validate() error {
	switch {
	case c.PDF == "" || c.Page < 1 || c.ID == "":
		return fmt.Errorf("%w: %q needs pdf, page and id", ErrInvalid, c.ID)
	case c.MaxDiffs < 0:
		return fmt.Errorf("%w: %s: negative max_diffs", ErrInvalid, c.ID)
	case (c.Type == TypePresent || c.Type == TypeAbsent) && Normalize(c.Text) == "":
		return fmt.Errorf("%w: %s: %s needs text", ErrInvalid, c.ID, c.Type)
	case c.Type == TypeOrder && (Normalize(c.Before) == "" || Normalize(c.After) == ""):
		return fmt.Errorf("%w: %s: order needs before and after", ErrInvalid, c.ID)
	case c.Type == TypeTable && (Normalize(c.Cell) == "" || c.Up+c.Down+c.Left+c.Right+c.TopHeading+c.LeftHeading == ""):
		return fmt.Errorf("%w: %s: table needs a cell and something beside it", ErrInvalid, c.ID)
	case c.Type != TypePresent && c.Type != TypeAbsent && c.Type != TypeOrder && c.Type != TypeTable:
		return fmt.Errorf("%w: %s: unknown type %q", ErrInvalid, c.ID, c.Type)
	}
	return nil
}

// Read parses a JSONL checks file; blank lines are skipped and every check
// is validated, with ids unique.
func Read(r io.Reader) ([]Check, error) {
	var checks []Check
	ids := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c Check
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrInvalid, line, err)
		}
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if ids[c.ID] {
			return nil, fmt.Errorf("%w: line %d: id %s twice", ErrInvalid, line, c.ID)
		}
		ids[c.ID] = true
		checks = append(checks, c)
	}
	return checks, sc.Err()
}

// Pass scores one check against the page's text.
func (c Check) Pass(page string) bool {
	text := []rune(Normalize(page))
	switch c.Type {
	case TypePresent:
		_, ok := firstEnd([]rune(Normalize(c.Text)), text, c.MaxDiffs)
		return ok
	case TypeAbsent:
		_, ok := firstEnd([]rune(Normalize(c.Text)), text, c.MaxDiffs)
		return !ok
	case TypeOrder:
		before, after := []rune(Normalize(c.Before)), []rune(Normalize(c.After))
		end, ok := firstEnd(before, text, c.MaxDiffs)
		if !ok {
			return false
		}
		start, ok := lastStart(after, text, c.MaxDiffs)
		return ok && end <= start
	case TypeTable:
		return c.passTable(page)
	}
	return false
}

// Normalize prepares text for matching: NFC, typographic quotes, dashes and
// ligature-like spaces unified, hyphenation at line ends joined, whitespace
// collapsed, lower case.
func Normalize(s string) string {
	s = norm.NFC.String(s)
	s = replacer.Replace(s)
	// A word broken at a line end ("read-\naloud") reads as one word.
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "-\n", "")), " ")
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		return unicode.ToLower(r)
	}, s)
}

var replacer = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'", "\u2032", "'", "`", "'", "\u00b4", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u201f", `"`, "\u2033", `"`, "\u00ab", `"`, "\u00bb", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-", "\u00ad", "",
	"\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl",
	"\u00a0", " ", "\u2009", " ", "\u202f", " ", "\u2026", "...",
)

// firstEnd is the end (exclusive, in runes) of the earliest approximate
// occurrence of pat in text with at most k edits (Sellers' algorithm: edit
// distance where the match may start anywhere in text).
func firstEnd(pat, text []rune, k int) (int, bool) {
	if len(pat) == 0 {
		return 0, true
	}
	if len(pat) <= k {
		return 0, true
	}
	prev := make([]int, len(pat)+1)
	cur := make([]int, len(pat)+1)
	for i := range prev {
		prev[i] = i
	}
	for j, tr := range text {
		cur[0] = 0
		for i, pr := range pat {
			cost := 1
			if pr == tr {
				cost = 0
			}
			cur[i+1] = min(prev[i]+cost, prev[i+1]+1, cur[i]+1)
		}
		if cur[len(pat)] <= k {
			return j + 1, true
		}
		prev, cur = cur, prev
	}
	return 0, false
}

// lastStart is the start of the latest approximate occurrence of pat in
// text: the earliest occurrence of the reversed pattern in the reversed text.
func lastStart(pat, text []rune, k int) (int, bool) {
	end, ok := firstEnd(reversed(pat), reversed(text), k)
	return len(text) - end, ok
}

func reversed(rs []rune) []rune {
	out := make([]rune, len(rs))
	for i, r := range rs {
		out[len(rs)-1-i] = r
	}
	return out
}

// Tally is passes out of checks.
type Tally struct{ Pass, Total int }

// ScoreEach runs every check against the text textOf gives for it (a
// table check may score another form of the page) and tallies by
// category; "all" holds the total.
func ScoreEach(checks []Check, textOf func(Check) string) map[string]Tally {
	out := map[string]Tally{}
	for _, c := range checks {
		ok := c.Pass(textOf(c))
		for _, cat := range []string{c.Category, "all"} {
			t := out[cat]
			t.Total++
			if ok {
				t.Pass++
			}
			out[cat] = t
		}
	}
	return out
}

// Score runs every check against texts (the page text for each check's pdf
// and page, from pageText) and tallies by category; "all" holds the total.
func Score(checks []Check, pageText func(pdf string, page int) string) map[string]Tally {
	return ScoreEach(checks, func(c Check) string { return pageText(c.PDF, c.Page) })
}

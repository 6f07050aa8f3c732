package magazine

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
)

// htmlTableText turns an engine's HTML table into Lectern's table text: the
// rows top to bottom, one a line, cells left to right joined by a tab (see
// tables). Text that holds no table has its tags dropped.
func htmlTableText(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var rows [][]string
	var row []string
	var cell, loose strings.Builder
	inCell, sawTable := false, false
	endCell := func() {
		if inCell {
			row = append(row, strings.Join(strings.Fields(cell.String()), " "))
			cell.Reset()
			inCell = false
		}
	}
	endRow := func() {
		endCell()
		if len(row) > 0 {
			rows = append(rows, row)
		}
		row = nil
	}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		name, _ := z.TagName()
		tag := string(name)
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			switch tag {
			case "table":
				sawTable = true
			case "tr":
				endRow()
			case "td", "th":
				endCell()
				inCell = true
			case "br":
				cell.WriteByte(' ')
				loose.WriteByte('\n')
			}
		case html.EndTagToken:
			switch tag {
			case "td", "th":
				endCell()
			case "tr", "table":
				endRow()
			case "p", "div":
				loose.WriteByte('\n')
			}
		case html.TextToken:
			t := string(z.Text())
			if inCell {
				cell.WriteString(t)
			} else {
				loose.WriteString(t)
			}
		}
	}
	endRow()
	if !sawTable {
		return strings.TrimSpace(loose.String())
	}
	lines := make([]string, len(rows))
	for i, r := range rows {
		lines[i] = strings.Join(r, "\t")
	}
	return strings.Join(lines, "\n")
}

var (
	mdHeadingRe = regexp.MustCompile(`(?m)^#{1,6}[ \t]+`)
	mdEscapeRe  = regexp.MustCompile("\\\\([\\\\`*_{}\\[\\]()#+\\-.!|>~])")
	mdStrongRe  = regexp.MustCompile(`\*\*(.+?)\*\*|__(.+?)__`)
	// mdEmRe: *word* emphasis, not a list's "* " marker nor a product a*b.
	mdEmRe = regexp.MustCompile(`(^|[\s(\["“])\*([^*\s](?:[^*\n]*[^*\s])?)\*`)
)

// markdownText is an engine's Markdown as plain text: heading marks,
// emphasis marks and backslash escapes go; list markers, LaTeX and line
// breaks stay.
func markdownText(s string) string {
	s = mdHeadingRe.ReplaceAllString(s, "")
	s = mdStrongRe.ReplaceAllString(s, "$1$2")
	s = mdEmRe.ReplaceAllString(s, "$1$2")
	return mdEscapeRe.ReplaceAllString(s, "$1")
}

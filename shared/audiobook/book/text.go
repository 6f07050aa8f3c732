package book

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/fault"
)

// ParseText reads a plain-text book: UTF-8 (with or without a byte order
// mark) or, when the bytes are not valid UTF-8, Latin-1 (read as
// Windows-1252, its superset in practice, so its curly quotes survive). The
// Project Gutenberg header, footer and licence are stripped, title and
// author are taken from the header when present, else from a title page
// at the text's top (see titlePage), and chapters are found from their
// headings. filename names the book only when the text does not.
func ParseText(data []byte, filename string) (Book, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if err := CheckText(data, filename); err != nil {
		return Book{}, err
	}
	var all string
	if utf8.Valid(data) {
		all = string(data)
	} else {
		all = decodeLatin1(data)
	}
	start, end := gutenbergBody(all)
	head := all[:start]
	if start > 0 || end < len(all) {
		start, end = trimBody(all, start, end)
	}
	if start >= end {
		return Book{}, fmt.Errorf("%s: no text between the Project Gutenberg markers: %w", filename, ErrInvalid)
	}
	b := Book{Text: all[start:end]}
	b.Title, b.Author = gutenbergTitle(head)
	if b.Title == "" {
		// A header without its START marker is the text's top.
		b.Title, b.Author = gutenbergTitle(b.Text[:min(len(b.Text), 4096)])
	}
	if b.Title == "" {
		b.Title, b.Author = titlePage(b.Text)
	}
	if b.Title == "" {
		b.Title = strings.TrimSuffix(path.Base(strings.ReplaceAll(filename, `\`, "/")), path.Ext(filename))
	}
	b.Chapters = findChapters(b.Text, b.Title)
	return b, nil
}

// CheckText refuses at once what is not text: an empty or binary file.
func CheckText(data []byte, filename string) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return fault.Explain(fmt.Errorf("%s: the file is empty: %w", filename, ErrInvalid),
			fmt.Sprintf("%s is empty: there is no text to read. Check that it is the right file.", filename))
	}
	if binary(data) {
		return fault.Explain(fmt.Errorf("%s: the file is binary, not text: %w", filename, ErrInvalid),
			fmt.Sprintf("%s is not a text file: it holds binary data. Upload the book as plain text (.txt) or as an EPUB.", filename))
	}
	return nil
}

// binary reports whether data looks like something other than text: a NUL
// byte, or many control characters, in its first 8 KiB.
func binary(data []byte) bool {
	head := data[:min(len(data), 8192)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	ctl := 0
	for _, c := range head {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' {
			ctl++
		}
	}
	return ctl*50 > len(head)
}

// cp1252 maps the bytes 0x80–0x9F that Windows-1252 gives characters; the
// others keep their Latin-1 meaning.
var cp1252 = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8D, 'Ž', 0x8F,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9D, 'ž', 'Ÿ',
}

func decodeLatin1(data []byte) string {
	var sb strings.Builder
	sb.Grow(len(data) + len(data)/8)
	for _, c := range data {
		if c >= 0x80 && c < 0xA0 {
			sb.WriteRune(cp1252[c-0x80])
		} else {
			sb.WriteRune(rune(c))
		}
	}
	return sb.String()
}

var (
	// producedBy: a credit paragraph at the top of the body.
	producedBy = regexp.MustCompile(`(?i)^(?:produced by|e-?text prepared by|transcribed from|this e-?book was produced by)`)
	headerLine = regexp.MustCompile(`(?m)^(Title|Author):[ \t]*(.+)$`)
	oldHeader  = regexp.MustCompile(`(?i)project gutenberg'?s? e-?book,? of (.+?)(?:, by (.+))?$`)
)

// gutenbergBody is the range of the book between the Gutenberg markers; the
// whole text when it has none. The book begins after the line "*** START
// OF THE (or THIS) PROJECT GUTENBERG EBOOK X ***" (or the 1990s "*END*THE
// SMALL PRINT!...") and ends before the footer's first line: "*** END OF
// THE PROJECT GUTENBERG EBOOK X ***", "End of the Project Gutenberg EBook
// of X" or "End of Project Gutenberg's X".
func gutenbergBody(all string) (int, int) {
	start, end := 0, len(all)
	for at := 0; at < len(all); {
		lineEnd := len(all)
		if nl := strings.IndexByte(all[at:], '\n'); nl >= 0 {
			lineEnd = at + nl
		}
		line := strings.TrimSpace(all[at:lineEnd])
		if line != "" && (line[0] == '*' || line[0] == 'E' || line[0] == 'e') {
			u := strings.ToUpper(line[:min(len(line), 80)])
			bare := strings.TrimLeft(u, "* ")
			switch {
			case start == 0 && strings.HasPrefix(u, "*") && (strings.HasPrefix(bare, "START OF") && strings.Contains(u, "PROJECT GUTENBERG") ||
				strings.HasPrefix(u, "*END*THE SMALL PRINT!")):
				start = min(lineEnd+1, len(all))
			case strings.HasPrefix(bare, "END OF THE PROJECT GUTENBERG") || strings.HasPrefix(bare, "END OF THIS PROJECT GUTENBERG") ||
				strings.HasPrefix(bare, "END OF PROJECT GUTENBERG"):
				return start, at
			}
		}
		at = lineEnd + 1
	}
	return start, end
}

// trimBody drops the blank lines around the body and a producer's credit
// paragraph at its top.
func trimBody(all string, start, end int) (int, int) {
	for {
		for start < end && unicode.IsSpace(rune(all[start])) {
			start++
		}
		if !producedBy.MatchString(all[start:end]) {
			break
		}
		next := blankLine.FindStringIndex(all[start:end])
		if next == nil {
			break
		}
		start += next[1]
	}
	// Keep the first line's indentation: back up to its start.
	for start > 0 && (all[start-1] == ' ' || all[start-1] == '\t') {
		start--
	}
	for end > start && unicode.IsSpace(rune(all[end-1])) {
		end--
	}
	return start, end
}

var blankLine = regexp.MustCompile(`\n[ \t\r]*\n`)

// gutenbergTitle reads title and author from the header.
func gutenbergTitle(head string) (title, author string) {
	for _, m := range headerLine.FindAllStringSubmatch(head, -1) {
		v := strings.TrimSpace(m[2])
		switch {
		case m[1] == "Title" && title == "":
			title = v
		case m[1] == "Author" && author == "":
			author = v
		}
	}
	if title == "" {
		for _, line := range strings.Split(head, "\n") {
			if m := oldHeader.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				title, author = strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
				break
			}
		}
	}
	return title, author
}

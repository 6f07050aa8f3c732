package spans

import (
	"strings"

	"github.com/lectern/lectern/shared/audiobook/book"
)

// isMark reports whether s begins with a quotation mark.
func isMark(s string) bool {
	for _, m := range []string{`"`, "'", "“", "”", "‘", "’"} {
		if strings.HasPrefix(s, m) {
			return true
		}
	}
	return false
}

// Split splits chapter ch of the book whose text is text. The dialogue mark
// (double or single) is decided from the whole text, so Split and SplitBook
// give the same spans.
func Split(text string, ch book.Chapter) []Span {
	return nil
}

// SplitBook splits every chapter of b, in order.
func SplitBook(b book.Book) []Span {
	var out []Span
	for _, ch := range b.Chapters {
		out = append(out, Split(b.Text, ch)...)
	}
	return out
}

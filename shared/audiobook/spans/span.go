package spans

import (
	"fmt"
	"unicode/utf8"
)

// Kind says whether a span is told by the narrator or spoken (or thought) by
// a character.
type Kind string

// The kinds of span.
const (
	Narration Kind = "narration"
	Dialogue  Kind = "dialogue"
)

// Span is a stretch of one chapter: narration, or one quotation (or one
// paragraph of it) with its marks.
type Span struct {
	// ID is stable: "c<chapter>-s<n>" (see the package comment).
	ID string
	// Chapter is the chapter's index (book.Chapter.Index).
	Chapter int
	// Start and End are byte offsets into the book's text.
	Start, End int
	Kind       Kind
	// Unclosed marks a dialogue span whose quotation never closed; it ends
	// at the end of its paragraph (or where the next quotation opens).
	Unclosed bool
	// Continues marks a dialogue span whose quotation goes on in the next
	// dialogue span: the paragraph ended open and the next one reopens with
	// a mark. Such a span has no closing mark.
	Continues bool
}

// SpanID is the stable id of the n-th span (from 0) of chapter ch.
func SpanID(ch, n int) string { return fmt.Sprintf("c%02d-s%04d", ch, n) }

// Text is the span's text, marks included.
func (s Span) Text(book string) string { return book[s.Start:s.End] }

// Inner is the range of a dialogue span without its quotation marks: the
// opening mark, and the closing mark when the quotation closed in this span.
// For narration it is the span itself.
func (s Span) Inner(book string) (start, end int) {
	start, end = s.Start, s.End
	if s.Kind != Dialogue || start >= end {
		return start, end
	}
	if _, n := utf8.DecodeRuneInString(book[start:end]); isMark(book[start:end]) {
		start += n
	}
	if !s.Unclosed && !s.Continues && end > start {
		_, n := utf8.DecodeLastRuneInString(book[start:end])
		end -= n
	}
	return start, end
}

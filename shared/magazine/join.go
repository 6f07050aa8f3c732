package magazine

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// JoinRun joins two pieces of running text (two lines of a paragraph, two
// merged regions) with a space, except where next opens with closing
// punctuation (. , ; : ! ?): that attaches to prev, and a mark prev already
// ends with is dropped, so a stray full stop on a line of its own ("alloy
// only." + ".") never reads "alloy only. .". Punctuation before a digit
// (".5") is a number and keeps its space.
func JoinRun(prev, next string) string {
	prev, next = strings.TrimRightFunc(prev, unicode.IsSpace), strings.TrimLeftFunc(next, unicode.IsSpace)
	if prev == "" || next == "" {
		return prev + next
	}
	lead := len(next) - len(strings.TrimLeft(next, closing))
	if lead == 0 {
		return prev + " " + next
	}
	if r, _ := utf8.DecodeRuneInString(next[lead:]); lead < len(next) && unicode.IsDigit(r) {
		return prev + " " + next
	}
	marks, rest := next[:lead], strings.TrimLeftFunc(next[lead:], unicode.IsSpace)
	if last := prev[len(prev)-1]; strings.IndexByte(closing, last) >= 0 {
		marks = "" // the sentence is closed already
	}
	out := prev + marks
	if rest == "" {
		return out
	}
	return out + " " + rest
}

// closing is the punctuation that never opens a piece of text.
const closing = ".,;:!?"

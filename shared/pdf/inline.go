package pdf

import (
	"bytes"
	"strconv"
)

// maxDeclared caps a declared picture side: past it the size is a lie
// whatever the budget, and the product of two sides stays in an int64.
const maxDeclared = 1 << 30

// InlineImages calls fn with the declared width and height of every inline
// image (BI <dict> ID <data> EI) in decoded drawing instructions, and stops
// at fn's first error. It reads the instructions as tokens (strings,
// comments and dictionaries skipped whole), so "BI" inside a string is not
// a picture, and it never allocates per token: the walk is linear in the
// instructions however they are formed. A picture whose size is missing or
// unreadable is not reported (it cannot be a bomb: MuPDF skips it).
func InlineImages(content []byte, fn func(w, h int64) error) error {
	l := lexer{b: content}
	for {
		tok, ok := l.next()
		if !ok {
			return nil
		}
		if string(tok) != "BI" {
			continue
		}
		w, h, length, ok := l.inlineDict()
		if !ok {
			return nil // no ID: the instructions end inside the picture
		}
		if w > 0 && h > 0 {
			if err := fn(w, h); err != nil {
				return err
			}
		}
		l.skipInlineData(length)
	}
}

type lexer struct {
	b []byte
	i int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// next returns the next operator, number or name (names keep their "/");
// strings, comments and delimiters are skipped.
func (l *lexer) next() ([]byte, bool) {
	for l.i < len(l.b) {
		c := l.b[l.i]
		switch {
		case isSpace(c):
			l.i++
		case c == '%':
			for l.i < len(l.b) && l.b[l.i] != '\n' && l.b[l.i] != '\r' {
				l.i++
			}
		case c == '(':
			l.skipString()
		case c == '<' && l.i+1 < len(l.b) && l.b[l.i+1] == '<', c == '>' && l.i+1 < len(l.b) && l.b[l.i+1] == '>':
			l.i += 2
		case c == '<':
			if end := bytes.IndexByte(l.b[l.i:], '>'); end >= 0 {
				l.i += end + 1
			} else {
				l.i = len(l.b)
			}
		case c == '/':
			start := l.i
			l.i++
			l.regular()
			return l.b[start:l.i], true
		case isDelim(c):
			l.i++
		default:
			start := l.i
			l.regular()
			return l.b[start:l.i], true
		}
	}
	return nil, false
}

func (l *lexer) regular() {
	for l.i < len(l.b) && !isSpace(l.b[l.i]) && !isDelim(l.b[l.i]) {
		l.i++
	}
}

// skipString skips a literal string: balanced parentheses, backslash escapes.
func (l *lexer) skipString() {
	depth := 0
	for ; l.i < len(l.b); l.i++ {
		switch l.b[l.i] {
		case '\\':
			l.i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				l.i++
				return
			}
		}
	}
}

// inlineDict reads an inline image's dictionary up to and including ID:
// its declared width and height (full or abbreviated keys) and the data
// length when given (-1 if not). A size key takes the number right after
// it; the dictionary's other entries (names, arrays) are passed over.
func (l *lexer) inlineDict() (w, h, length int64, ok bool) {
	length = -1
	var into *int64
	for {
		tok, more := l.next()
		if !more {
			return 0, 0, 0, false
		}
		switch s := string(tok); s {
		case "ID":
			return w, h, length, true
		case "/W", "/Width":
			into = &w
		case "/H", "/Height":
			into = &h
		case "/L", "/Length":
			into = &length
		default:
			if into != nil {
				*into = declared(s)
			}
			into = nil
		}
	}
}

// declared reads a size as PDF writes it (an integer or a real), or -1.
func declared(s string) int64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > maxDeclared {
		return -1
	}
	return int64(f)
}

// skipInlineData moves past an inline image's samples: after the one space
// that ends ID, length bytes when known, then up to the EI that stands alone
// as a token.
func (l *lexer) skipInlineData(length int64) {
	if l.i < len(l.b) && isSpace(l.b[l.i]) {
		l.i++
	}
	if length >= 0 && length <= int64(len(l.b)-l.i) {
		l.i += int(length)
	}
	for {
		at := bytes.Index(l.b[l.i:], []byte("EI"))
		if at < 0 {
			l.i = len(l.b)
			return
		}
		end := l.i + at + 2
		before := l.i + at
		if (before == 0 || isSpace(l.b[before-1])) && (end == len(l.b) || isSpace(l.b[end]) || isDelim(l.b[end])) {
			l.i = end
			return
		}
		l.i = before + 1
	}
}

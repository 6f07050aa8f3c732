package cast

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tok is one word or punctuation mark of narration, with its byte range in
// the book text.
type tok struct {
	Start, End int
	Text       string
	Word       bool // letters (with inner apostrophes and hyphens) or digits
}

// tokenize splits text[start:end] into words and single punctuation marks;
// whitespace separates and is dropped.
func tokenize(text string, start, end int) []tok {
	var out []tok
	i := start
	for i < end {
		r, n := utf8.DecodeRuneInString(text[i:end])
		switch {
		case unicode.IsSpace(r):
			i += n
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i + n
			for j < end {
				r2, n2 := utf8.DecodeRuneInString(text[j:end])
				if unicode.IsLetter(r2) || unicode.IsDigit(r2) {
					j += n2
					continue
				}
				// An apostrophe or hyphen inside a word keeps it whole
				// (don't, Fish-Footman); the possessive 's is split off so
				// "Alice's" is not a name followed by a verb.
				if isJoiner(r2) && j+n2 < end {
					r3, _ := utf8.DecodeRuneInString(text[j+n2 : end])
					if unicode.IsLetter(r3) && !(isApostrophe(r2) && isPossessive(text[j+n2:end])) {
						j += n2
						continue
					}
				}
				break
			}
			out = append(out, tok{Start: i, End: j, Text: text[i:j], Word: true})
			i = j
		default:
			out = append(out, tok{Start: i, End: i + n, Text: text[i : i+n]})
			i += n
		}
	}
	return out
}

func isJoiner(r rune) bool { return r == '-' || isApostrophe(r) }

func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// isPossessive reports whether s (the text after an apostrophe) is the
// possessive s: "s" not followed by another letter.
func isPossessive(s string) bool {
	if len(s) == 0 || (s[0] != 's' && s[0] != 'S') {
		return false
	}
	if len(s) == 1 {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[1:])
	return !unicode.IsLetter(r)
}

// capitalised reports whether w starts with an upper-case letter and is not
// written all in capitals (signs such as ORANGE MARMALADE, headings).
func capitalised(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) {
		return false
	}
	if n == len(w) {
		return false // "I", "A": a letter alone is never a name here
	}
	for _, r := range w[n:] {
		if unicode.IsLower(r) {
			return true
		}
	}
	return false
}

// isTerminal reports whether a punctuation token ends a sentence.
func isTerminal(t tok) bool {
	return !t.Word && (t.Text == "." || t.Text == "!" || t.Text == "?" || t.Text == ";")
}

// lexicon counts how each word is written in the book, so a capitalised
// word that is mostly written in lower case (Then, Poor, Well) is not taken
// for a name. It is built once per book and only read afterwards.
type lexicon struct {
	lower map[string]int // written in lower case
	mid   map[string]int // capitalised in mid-sentence (after a word or comma)
}

func newLexicon(text string) *lexicon {
	lx := &lexicon{lower: map[string]int{}, mid: map[string]int{}}
	toks := tokenize(text, 0, len(text))
	for i, t := range toks {
		if !t.Word {
			continue
		}
		key := strings.ToLower(t.Text)
		r, _ := utf8.DecodeRuneInString(t.Text)
		switch {
		case unicode.IsLower(r):
			lx.lower[key]++
		case i > 0 && (toks[i-1].Word || toks[i-1].Text == ","):
			lx.mid[key]++
		}
	}
	return lx
}

// nameWord reports whether a capitalised word standing alone (no article,
// no honorific) can be part of a name.
func (lx *lexicon) nameWord(w string) bool {
	if !capitalised(w) {
		return false
	}
	key := strings.ToLower(w)
	if stopWords[key] || honorifics[key] != "" {
		return false
	}
	// Mostly capitalised in mid-sentence, or never written in lower case
	// (a name seen only at sentence starts, as in a short text).
	mid, lower := lx.mid[key], lx.lower[key]
	return lower*3 <= mid || lower == 0
}

package magazine

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// spacingAccents maps the spacing (stand-alone) accent glyphs PDFs set next
// to a letter, TeX's \'e among them, to their combining marks.
var spacingAccents = map[rune]rune{
	'\u00b4': '\u0301', // ´ acute
	'`':      '\u0300', // grave
	'\u00a8': '\u0308', // ¨ diaeresis
	'\u02c6': '\u0302', // ˆ circumflex
	'\u02dc': '\u0303', // ˜ tilde
	'\u02c7': '\u030c', // ˇ caron
	'\u00b8': '\u0327', // ¸ cedilla
	'\u02da': '\u030a', // ˚ ring
	'\u02d8': '\u0306', // ˘ breve
	'\u02d9': '\u0307', // ˙ dot above
	'\u02dd': '\u030b', // ˝ double acute
	'\u02db': '\u0328', // ˛ ogonek
	'\u00af': '\u0304', // ¯ macron
}

// latexQuotes: TeX's doubled quote marks as PDFs extract them.
var latexQuotes = strings.NewReplacer("``", "“", "‘‘", "“", "’’", "”")

// NormalizeText repairs text-layer text that needs no glyph positions:
//
//   - a spacing accent (´ ` ¨ ˆ ˜ ˇ ¸ ˚ ˘ ˙ ˝ ˛ ¯) touching a letter is composed
//     with it ("e´" and "´e" → "é"), only when the two make one precomposed
//     letter, so "x´" and an accent standing alone between spaces ("the
//     acute ´ mark") stay as they are. Where both neighbours could take it
//     ("oˇr"), the side the text's unambiguous accents take wins: TeX sets
//     the accent before its letter ("caf´e"), other producers after; the
//     letter before wins a tie;
//   - TeX quotes become curly: two grave accents or two left single
//     quotes open (“), two right single quotes or two apostrophes close
//     (”), except two apostrophes after a digit, which are inches;
//   - the result is NFC.
//
// A single apostrophe or quote is never changed.
func NormalizeText(s string) string {
	s = latexQuotes.Replace(s)
	if strings.Contains(s, "''") {
		s = closeTeXQuotes(s)
	}
	if strings.IndexFunc(s, func(r rune) bool { _, ok := spacingAccents[r]; return ok }) >= 0 {
		s = composeAccents([]rune(s))
	}
	return norm.NFC.String(s)
}

// closeTeXQuotes turns ” into ” except after a digit.
func closeTeXQuotes(s string) string {
	var b strings.Builder
	prev := rune(-1)
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "''") && !unicode.IsDigit(prev) {
			b.WriteString("”")
			prev = '”'
			i += 2
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		prev = r
		i += n
	}
	return b.String()
}

// composeAccents attaches each spacing accent to a neighbouring letter.
// Where both neighbours could take it, the side the text's unambiguous
// accents take wins (the letter before on a tie).
func composeAccents(rs []rune) string {
	before, after := 0, 0
	for i, r := range rs {
		mark, ok := spacingAccents[r]
		if !ok {
			continue
		}
		_, b := neighbour(rs, i-1, mark)
		_, a := neighbour(rs, i+1, mark)
		switch {
		case b && !a:
			before++
		case a && !b:
			after++
		}
	}
	sides := [2]int{-1, +1}
	if after > before {
		sides = [2]int{+1, -1}
	}
	out := make([]rune, 0, len(rs))
	for i := 0; i < len(rs); i++ {
		mark, ok := spacingAccents[rs[i]]
		if !ok {
			out = append(out, rs[i])
			continue
		}
		done := false
		for _, side := range sides {
			if c, ok := neighbour(rs, i+side, mark); ok && (side > 0 || len(out) > 0) {
				if side > 0 {
					out = append(out, c)
					i++
				} else {
					out[len(out)-1] = c
				}
				done = true
				break
			}
		}
		if !done {
			out = append(out, rs[i])
		}
	}
	return string(out)
}

// neighbour composes rs[j] with mark when j is in range.
func neighbour(rs []rune, j int, mark rune) (rune, bool) {
	if j < 0 || j >= len(rs) {
		return 0, false
	}
	return composed(rs[j], mark)
}

// composed is the one precomposed letter of letter+mark, if there is one.
func composed(letter, mark rune) (rune, bool) {
	if !unicode.IsLetter(letter) {
		return 0, false
	}
	c := []rune(norm.NFC.String(string([]rune{letter, mark})))
	if len(c) != 1 {
		return 0, false
	}
	return c[0], true
}

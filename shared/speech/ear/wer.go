// Package ear checks spoken audio by listening to it: a transcriber
// (Whisper tiny.en in a long-lived worker process, whisper.go) says what
// it heard, and the word error rate against the text the audio should
// say (pure, this file) decides whether the audio is wrong.
package ear

import (
	"strings"
	"unicode"
)

// Threshold is the word error rate above which a chunk may be wrong.
// espeak-ng read by Whisper tiny.en scores a median of about 0.14 on a
// novel's sentences (0.17 on whole paragraphs), but single short sentences
// scatter up to 0.75 and more, all by words misheard one for one ("Dinah
// was the cat" heard as "I know what's the cat"): measured by
// TestEarEspeakWER on 116 sentences of Alice. What an engine gets wrong
// shows otherwise: a dropped sentence, silence, a repeat or a hallucinated
// ending leaves words missing or extra, and another language is heard as
// almost nothing right. So a chunk over Threshold is wrong when its rate
// is at least Garbled, or when the words heard are fewer or more than the
// words it says by at least Missing of them (and 2 words).
const (
	Threshold = 0.5
	Garbled   = 0.8
	Missing   = 0.4
)

// minWords is the shortest text judged by its words: on one or two words
// a single miss ("Yes." heard as "Yeah.") is a rate of 0.5 or 1, so only
// silence marks them.
const minWords = 3

// Wrong says whether audio that should say want, heard as heard, is wrong,
// and its word error rate.
func Wrong(want, heard string) (rate float64, wrong bool) {
	ref, hyp := Words(want), Words(heard)
	rate = WER(ref, hyp)
	if len(ref) == 0 {
		return rate, false
	}
	if len(hyp) == 0 {
		return rate, true // silence
	}
	if len(ref) < minWords {
		return rate, false
	}
	diff := float64(max(len(ref)-len(hyp), len(hyp)-len(ref)))
	return rate, rate > Threshold && (rate >= Garbled || diff >= max(2, Missing*float64(len(ref))))
}

// WER is the word error rate of hyp against ref: the fewest words
// substituted, deleted and inserted to make ref into hyp, over ref's
// length. An empty ref scores 0 against an empty hyp, else 1.
func WER(ref, hyp []string) float64 {
	if len(ref) == 0 {
		if len(hyp) == 0 {
			return 0
		}
		return 1
	}
	prev := make([]int, len(hyp)+1)
	cur := make([]int, len(hyp)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ref); i++ {
		cur[0] = i
		for j := 1; j <= len(hyp); j++ {
			sub := prev[j-1]
			if ref[i-1] != hyp[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return float64(prev[len(hyp)]) / float64(len(ref))
}

// Words is text in the common form both sides are compared in: lower case,
// without punctuation, numbers spelt out ("1865" → "eighteen sixty five",
// "3rd" → "third", "42" → "forty two"), "&" as "and", hyphenated and
// apostrophe'd words kept whole but without the marks ("o'clock" →
// "oclock", "well-known" → "well known").
func Words(text string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() == 0 {
			return
		}
		out = append(out, spell(cur.String())...)
		cur.Reset()
	}
	rs := []rune(text)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			cur.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’':
			// Inside a word ("don't") the mark goes; at its edges it is a quote.
		case r == '&':
			flush()
			out = append(out, "and")
		case r == '%':
			flush()
			out = append(out, "percent")
		case (r == ',' || r == '.') && cur.Len() > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i+1]) && isDigits(cur.String()):
			// 1,000 and 3.5 stay one number: a thousands comma goes, a
			// decimal point is said.
			if r == '.' {
				flush()
				out = append(out, "point")
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

var ones = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}
var tens = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

// ordinals are the irregular ordinal words, by cardinal.
var ordinals = map[string]string{"one": "first", "two": "second", "three": "third", "five": "fifth",
	"eight": "eighth", "nine": "ninth", "twelve": "twelfth"}

// spell is one token with its digits spelt out as a speaker says them.
func spell(tok string) []string {
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	if i == 0 {
		return []string{tok}
	}
	digits, rest := tok[:i], tok[i:]
	var words []string
	switch n := atoi(digits); {
	case len(digits) > 9 || digits[0] == '0' && len(digits) > 1:
		for _, d := range digits { // a code or a long number: digit by digit
			words = append(words, ones[d-'0'])
		}
	case n >= 1100 && n < 2000 || n >= 2010 && n < 2100 && rest == "":
		// A year: 1865 "eighteen sixty five", 2024 "twenty twenty four";
		// 1900 "nineteen hundred".
		words = cardinal(n / 100)
		if n%100 == 0 {
			words = append(words, "hundred")
		} else if n%100 < 10 {
			words = append(words, "oh", ones[n%100])
		} else {
			words = append(words, cardinal(n%100)...)
		}
	default:
		words = cardinal(n)
	}
	switch rest {
	case "st", "nd", "rd", "th":
		last := words[len(words)-1]
		switch {
		case ordinals[last] != "":
			last = ordinals[last]
		case strings.HasSuffix(last, "y"):
			last = strings.TrimSuffix(last, "y") + "ieth"
		default:
			last += "th"
		}
		words[len(words)-1] = last
	case "s": // the 1920s
		last := words[len(words)-1]
		if strings.HasSuffix(last, "y") {
			last = strings.TrimSuffix(last, "y") + "ies"
		} else {
			last += "s"
		}
		words[len(words)-1] = last
	case "":
	default:
		words = append(words, spell(rest)...)
	}
	return words
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

// cardinal spells n (0 ≤ n < 10⁹) in words, without "and".
func cardinal(n int) []string {
	switch {
	case n < 20:
		return []string{ones[n]}
	case n < 100:
		if n%10 == 0 {
			return []string{tens[n/10]}
		}
		return []string{tens[n/10], ones[n%10]}
	}
	var out []string
	for _, u := range []struct {
		size int
		name string
	}{{1_000_000, "million"}, {1000, "thousand"}, {100, "hundred"}} {
		if n >= u.size {
			out = append(out, cardinal(n/u.size)...)
			out = append(out, u.name)
			n %= u.size
		}
	}
	if n > 0 {
		out = append(out, cardinal(n)...)
	}
	return out
}

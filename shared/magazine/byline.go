package magazine

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// bylineLead matches the words that open a byline: "By", "Words by", "Text
// and interview by", "— " (an attribution dash).
var bylineLead = regexp.MustCompile(`^(?i:(?:(?:words|text|story|report|interview|reporting|written|compiled)(?:\s+and\s+\w+)?\s+)?by)\s+|^[—–]\s*`)

// sentenceStarters are capitalised words that begin a sentence rather than
// continue a name ("By Jane Doe In March, …").
var sentenceStarters = map[string]bool{
	"The": true, "A": true, "An": true, "In": true, "On": true, "At": true, "It": true, "Its": true, "This": true,
	"That": true, "These": true, "Those": true, "When": true, "As": true, "After": true, "Before": true, "For": true,
	"Last": true, "Next": true, "We": true, "I": true, "He": true, "She": true, "They": true, "There": true, "If": true,
	"But": true, "Of": true, "Over": true, "Since": true, "While": true, "From": true, "With": true, "What": true,
	"Why": true, "How": true, "Who": true, "Once": true, "Few": true, "Many": true, "Most": true, "Some": true,
	"Every": true, "Each": true, "Few,": true, "Nobody": true, "No": true, "Not": true, "Our": true, "Their": true,
	"His": true, "Her": true, "My": true, "You": true, "Your": true, "Today": true, "Yesterday": true, "Until": true,
}

// nameParticles may appear lower-case inside a name ("Ludwig van Beethoven").
var nameParticles = map[string]bool{"de": true, "van": true, "von": true, "der": true, "den": true, "da": true, "di": true, "la": true, "le": true, "al": true, "bin": true, "du": true}

// splitByline splits a byline-looking text into the byline and the text that
// runs on after it. ok is false when the text does not open like a byline
// followed by a name of 1–4 capitalised words (joined by "and" or "&" for
// co-authors). rest is empty when nothing runs on.
//
// The name ends at the first of: a line break; a word ending in ".", "," ";"
// ":" or "|" (initials like "J." excepted); a sentence starter ("The", "In", …)
// after at least one name word; a capitalised word followed by a lower-case
// word, once the name has two words ("By Jane Doe Council members voted");
// a lower-case word.
func splitByline(text string) (byline, rest string, ok bool) {
	text = strings.TrimSpace(text)
	loc := bylineLead.FindStringIndex(text)
	if loc == nil {
		return "", "", false
	}
	firstLine, afterLine, hasBreak := strings.Cut(text, "\n")
	if hasBreak && len(firstLine) > loc[1] {
		if _, _, ok := splitName(firstLine[loc[1]:]); ok {
			return strings.TrimSpace(firstLine), strings.TrimSpace(afterLine), true
		}
	}
	nameLen, words, ok := splitName(text[loc[1]:])
	if !ok || words == 0 {
		return "", "", false
	}
	end := loc[1] + nameLen
	return strings.TrimSpace(strings.TrimRight(text[:end], " |,;:")), strings.TrimSpace(strings.TrimLeft(text[end:], " |,;:")), true
}

// splitName returns the byte length of the leading name in s and its word count.
func splitName(s string) (n, words int, ok bool) {
	fields := fieldsWithOffsets(s)
	nameWords := 0
	for i, f := range fields {
		w := f.word
		core := strings.TrimRight(w, ".,;:|")
		switch {
		case (core == "and" || core == "&") && nameWords > 0 && i+1 < len(fields) && startsUpper(fields[i+1].word):
			continue
		case nameParticles[core] && nameWords > 0 && i+1 < len(fields) && startsUpper(fields[i+1].word):
			continue
		case !startsUpper(core):
			return cut(fields, i, s), nameWords, nameWords > 0
		case sentenceStarters[core] && nameWords > 0:
			return cut(fields, i, s), nameWords, true
		case nameWords >= 2 && i+1 < len(fields) && startsLower(fields[i+1].word):
			return cut(fields, i, s), nameWords, true
		case nameWords >= 4:
			return cut(fields, i, s), nameWords, true
		}
		nameWords++
		if core != w && !isInitial(core) {
			return f.end, nameWords, true // punctuation ends the name
		}
	}
	return len(s), nameWords, nameWords > 0
}

type field struct {
	word       string
	start, end int
}

func fieldsWithOffsets(s string) []field {
	var out []field
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, field{s[start:i], start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, field{s[start:], start, len(s)})
	}
	return out
}

func cut(fields []field, i int, s string) int {
	if i == 0 {
		return 0
	}
	return fields[i-1].end
}

func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

func startsLower(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsLower(r)
}

// isInitial: "J." or "J.R."
func isInitial(w string) bool {
	w = strings.ReplaceAll(w, ".", "")
	return utf8.RuneCountInString(w) <= 2 && startsUpper(w)
}

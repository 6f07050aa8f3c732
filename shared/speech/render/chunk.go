// Package render owns the speech renderer: text cut into sentence chunks an
// engine accepts (pure, in this file), each chunk spoken once through a
// speech.Synthesizer with bounded concurrency, retries and Retry-After, a
// blob cache so unchanged text is never spoken twice, and ffmpeg for
// loudness normalisation and MP3/M4B encoding with chapters. Sentence
// timings come from the chunks' own durations, so a player can highlight
// the sentence being read.
package render

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chunk is one engine call's text: a whole sentence, or a piece of one that
// is longer than the engine's limit.
type Chunk struct {
	Text string
	// Sentence is the index, within its chapter, of the sentence the chunk
	// belongs to; pieces of one sentence share it.
	Sentence int
}

// abbreviations end in a full stop without ending a sentence (lower case,
// without the stop).
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "mt": true,
	"jr": true, "sr": true, "vs": true, "etc": true, "e.g": true, "i.e": true, "cf": true,
	"no": true, "vol": true, "fig": true, "p": true, "pp": true, "ch": true, "approx": true,
	"inc": true, "ltd": true, "co": true, "gen": true, "col": true, "capt": true, "lt": true,
}

// closers may follow a sentence's final mark ("Stop!" he said. / (See above.)).
const closers = "\"')]}’”»"

// Split cuts text into chunks of at most limit characters (runes), one
// sentence per chunk where the sentence fits. A longer sentence is cut at
// clause boundaries (after , ; : and dashes), and a clause still too long
// at spaces. A cut never falls inside a word, except for a single word
// longer than limit (a URL, say), which no engine could take whole. Blank
// lines end a sentence too, so headings without a full stop stand alone.
// Whitespace is normalised to single spaces.
func Split(text string, limit int) []Chunk {
	if limit < 1 {
		limit = 1
	}
	var chunks []Chunk
	sentence := 0
	for _, s := range Sentences(text) {
		for _, piece := range fit(s, limit) {
			chunks = append(chunks, Chunk{Text: piece, Sentence: sentence})
		}
		sentence++
	}
	return chunks
}

// Sentences splits text into sentences with whitespace normalised.
func Sentences(text string) []string {
	var out []string
	for _, para := range paragraphs(text) {
		words := strings.Fields(para)
		start := 0
		for i, w := range words {
			if i == len(words)-1 || endsSentence(w, words[i+1]) {
				out = append(out, strings.Join(words[start:i+1], " "))
				start = i + 1
			}
		}
	}
	return out
}

// paragraphs splits at blank lines.
func paragraphs(text string) []string {
	var out []string
	var cur []string
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			if len(cur) > 0 {
				out = append(out, strings.Join(cur, "\n"))
				cur = nil
			}
			continue
		}
		cur = append(cur, line)
	}
	if len(cur) > 0 {
		out = append(out, strings.Join(cur, "\n"))
	}
	return out
}

// endsSentence reports whether word ends a sentence, given the word after
// it: a final mark (. ! ? …) possibly followed by closing quotes, not an
// abbreviation or an initial, and a next word that does not start in lower
// case ("e.g. this" goes on).
func endsSentence(word, next string) bool {
	core := strings.TrimRight(word, closers)
	if core == "" {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(core)
	switch last {
	case '!', '?', '…':
	case '.':
		stem := strings.ToLower(strings.TrimLeft(strings.TrimSuffix(core, "."), "\"'([{‘“«"))
		if abbreviations[stem] {
			return false
		}
		if utf8.RuneCountInString(stem) == 1 && unicode.IsLetter([]rune(stem)[0]) {
			return false // an initial: "J. R. R. Tolkien"
		}
	default:
		return false
	}
	first, _ := utf8.DecodeRuneInString(strings.TrimLeft(next, closers+"‘“«(["))
	return !unicode.IsLower(first)
}

// fit cuts one sentence into pieces of at most limit runes.
func fit(sentence string, limit int) []string {
	if utf8.RuneCountInString(sentence) <= limit {
		return []string{sentence}
	}
	// Clauses, each with its trailing punctuation; packed greedily.
	var clauses []string
	words := strings.Fields(sentence)
	start := 0
	for i, w := range words {
		if i == len(words)-1 || endsClause(w) {
			clauses = append(clauses, strings.Join(words[start:i+1], " "))
			start = i + 1
		}
	}
	var units []string
	for _, c := range clauses {
		if utf8.RuneCountInString(c) <= limit {
			units = append(units, c)
			continue
		}
		for _, w := range strings.Fields(c) {
			units = append(units, splitWord(w, limit)...)
		}
	}
	return pack(units, limit)
}

func endsClause(word string) bool {
	core := strings.TrimRight(word, closers)
	if core == "" {
		return word != "" && strings.ContainsAny(word, "—–")
	}
	last, _ := utf8.DecodeLastRuneInString(core)
	return strings.ContainsRune(",;:—–", last) || word == "-"
}

// splitWord cuts a word longer than limit at rune boundaries: the one case
// where a cut falls inside a word.
func splitWord(w string, limit int) []string {
	r := []rune(w)
	var out []string
	for len(r) > limit {
		out = append(out, string(r[:limit]))
		r = r[limit:]
	}
	return append(out, string(r))
}

// pack joins units with spaces into as few pieces of at most limit runes as
// a greedy fill gives.
func pack(units []string, limit int) []string {
	var out []string
	cur, n := "", 0
	for _, u := range units {
		un := utf8.RuneCountInString(u)
		switch {
		case cur == "":
			cur, n = u, un
		case n+1+un <= limit:
			cur, n = cur+" "+u, n+1+un
		default:
			out = append(out, cur)
			cur, n = u, un
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

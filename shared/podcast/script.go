package podcast

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lectern/lectern/shared/fault"
)

var (
	// ErrEmptyArticle: the article has no paragraph with text to read.
	ErrEmptyArticle = fault.New(fault.Invalid, "article has no paragraphs to read")
	// ErrBadAnswer: the LLM's answer is not a usable script.
	ErrBadAnswer = fault.New(fault.Upstream, "podcast script answer is not usable")
)

// MaxTurnWords is the paragraph length above which the deterministic script
// cuts a paragraph into several turns, so one voice does not read on for
// much more than a minute at a time.
const MaxTurnWords = 150

// Article is what the hosts talk about: an approved article's text.
type Article struct {
	Title      string
	Byline     string
	Paragraphs []string
}

// Host is one of the two podcast voices.
type Host struct {
	Name    string
	VoiceID string
}

// Turn is one stretch spoken by one host.
type Turn struct {
	// Host is 0 or 1, an index into Script.Hosts.
	Host int
	Text string
	// Source holds the indexes of the article paragraphs the turn draws on;
	// empty for the introduction and closing.
	Source []int
}

// Script is the conversation the two hosts speak.
type Script struct {
	Title string
	Hosts [2]Host
	Turns []Turn
}

// DeterministicScript reads the article aloud as a conversation without an
// LLM: an introduction by host 0, the paragraphs in order with the hosts
// taking turns (host 1 first, so the voice changes after the introduction),
// and a closing by host 1. Blank paragraphs are skipped; an article with no
// text is ErrEmptyArticle.
func DeterministicScript(article Article, hosts [2]Host) (Script, error) {
	script := Script{Title: article.Title, Hosts: hosts}
	script.Turns = append(script.Turns, Turn{Host: 0, Text: introduction(article)})
	host := 1
	for i, paragraph := range article.Paragraphs {
		if strings.TrimSpace(paragraph) == "" {
			continue
		}
		for _, piece := range splitLongParagraph(paragraph, MaxTurnWords) {
			script.Turns = append(script.Turns, Turn{Host: host, Text: piece, Source: []int{i}})
		}
		host = 1 - host
	}
	if len(script.Turns) == 1 {
		return Script{}, fmt.Errorf("%w: %q", ErrEmptyArticle, article.Title)
	}
	script.Turns = append(script.Turns, Turn{Host: 1, Text: closing(article)})
	return script, nil
}

func introduction(article Article) string {
	title := spokenTitle(article.Title)
	byline := strings.TrimSpace(article.Byline)
	switch {
	case title != "" && byline != "":
		return fmt.Sprintf("Welcome. Today: %s, by %s.", title, byline)
	case title != "":
		return fmt.Sprintf("Welcome. Today: %s.", title)
	case byline != "":
		return fmt.Sprintf("Welcome. Today, an article by %s.", byline)
	}
	return "Welcome."
}

func closing(article Article) string {
	if title := spokenTitle(article.Title); title != "" {
		return fmt.Sprintf("That was %s. Thanks for listening.", title)
	}
	return "Thanks for listening."
}

// spokenTitle drops a title's final full stop, which the sentence around it
// already supplies.
func spokenTitle(title string) string {
	return strings.TrimSuffix(strings.TrimSpace(title), ".")
}

// sentenceEnd matches the end of a sentence: a stop, question or exclamation
// mark, any closing quotes or brackets, then the following whitespace (which
// stays with the sentence it follows, so the pieces rejoin exactly).
var sentenceEnd = regexp.MustCompile(`[.!?…]+["'”’)\]]*\s+`)

// splitLongParagraph cuts a paragraph of more than maxWords words at sentence
// ends into pieces of at most maxWords words where it can (one longer
// sentence stays whole). The pieces are contiguous: joined, they are the
// paragraph. An abbreviation such as "Dr." may be taken for a sentence end;
// that only moves a turn boundary, never the text.
func splitLongParagraph(paragraph string, maxWords int) []string {
	if countWords(paragraph) <= maxWords {
		return []string{paragraph}
	}
	var sentences []string
	start := 0
	for _, loc := range sentenceEnd.FindAllStringIndex(paragraph, -1) {
		sentences = append(sentences, paragraph[start:loc[1]])
		start = loc[1]
	}
	if start < len(paragraph) {
		sentences = append(sentences, paragraph[start:])
	}
	var pieces []string
	var piece strings.Builder
	words := 0
	for _, sentence := range sentences {
		n := countWords(sentence)
		if words > 0 && words+n > maxWords {
			pieces = append(pieces, piece.String())
			piece.Reset()
			words = 0
		}
		piece.WriteString(sentence)
		words += n
	}
	if piece.Len() > 0 {
		pieces = append(pieces, piece.String())
	}
	return pieces
}

func countWords(text string) int { return len(strings.Fields(text)) }

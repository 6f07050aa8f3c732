package podcast

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Violation kinds: what a turn said that the article does not.
const (
	KindNumber = "number"
	KindName   = "name"
	KindQuote  = "quote"
)

// Violation is one thing a turn says that is not in the article.
type Violation struct {
	// Turn is the index of the turn in Script.Turns.
	Turn int
	// Kind is KindNumber, KindName or KindQuote.
	Kind string
	// Text is the number, name or quotation as the turn wrote it.
	Text string
}

var (
	// numberPattern is a number in digits with an optional currency sign,
	// thousands commas or decimal point, and percent sign. Numbers spelled
	// out in words ("three thousand") are out of scope.
	numberPattern = regexp.MustCompile(`[$€£¥]?\d+(?:[.,]\d+)*%?`)
	// quotationPattern is text between straight or curly double quotes.
	quotationPattern = regexp.MustCompile(`"([^"]*)"|“([^”]*)”`)
	// wordPattern is a word: letters, with inner apostrophes and hyphens.
	wordPattern = regexp.MustCompile(`[\p{L}\p{M}]+(?:['’\-][\p{L}\p{M}]+)*`)
)

// minQuoteWords is the shortest quotation checked: a quoted word or two is
// usually a term ("so-called "smart" roads"), not a quotation.
const minQuoteWords = 3

// commonCapitalised are capitalised words that name nothing the article has
// to contain.
var commonCapitalised = map[string]bool{
	"i": true, "i'm": true, "i've": true, "i'll": true, "i'd": true,
	"ok": true, "okay": true, "mr": true, "mrs": true, "ms": true, "dr": true, "prof": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true,
	"january": true, "february": true, "march": true, "april": true, "may": true, "june": true,
	"july": true, "august": true, "september": true, "october": true, "november": true,
	"december": true,
}

// honorifics end in a full stop that does not end a sentence ("Dr. Lee").
var honorifics = map[string]bool{"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true}

// CheckGrounding lists, turn by turn, the numbers, quotations and names that
// the article (title, byline and paragraphs) does not contain. Each distinct
// violation is listed once per turn. An empty list means the script passed,
// not that every statement is true to the article: only these three are
// checked.
func CheckGrounding(article Article, script Script) []Violation {
	source := newArticleIndex(article)
	allowed := allowedWords(article, script.Hosts)
	var violations []Violation
	for i, turn := range script.Turns {
		seen := map[Violation]bool{}
		report := func(kind, text string) {
			v := Violation{Turn: i, Kind: kind, Text: text}
			if !seen[v] {
				seen[v] = true
				violations = append(violations, v)
			}
		}
		rest := turn.Text
		// Quotations first; a checked quotation is blanked out so that an
		// invented quotation is one violation, not also its names and numbers.
		rest = quotationPattern.ReplaceAllStringFunc(rest, func(match string) string {
			quote := strings.Trim(match, `"“”`)
			if countWords(quote) < minQuoteWords {
				return match
			}
			if !strings.Contains(source.text, normaliseQuote(quote)) {
				report(KindQuote, quote)
			}
			return " ; "
		})
		for _, number := range numberPattern.FindAllString(rest, -1) {
			if !source.numbers[normaliseNumber(number)] {
				report(KindNumber, number)
			}
		}
		for _, name := range capitalisedRuns(rest, allowed) {
			if !strings.Contains(source.words, " "+strings.ToLower(name)+" ") {
				report(KindName, name)
			}
		}
	}
	return violations
}

// articleIndex is the article's text prepared for each check.
type articleIndex struct {
	text    string          // normalised for quotations
	words   string          // lower-case words, space separated and padded
	numbers map[string]bool // normalised numbers
}

func newArticleIndex(article Article) articleIndex {
	all := strings.Join(append([]string{article.Title, article.Byline}, article.Paragraphs...), "\n")
	index := articleIndex{text: normaliseQuote(all), numbers: map[string]bool{}}
	for _, number := range numberPattern.FindAllString(all, -1) {
		index.numbers[normaliseNumber(number)] = true
	}
	index.words = " " + strings.ToLower(strings.Join(wordsOf(all), " ")) + " "
	return index
}

// allowedWords are the lower-case words that need not be in the article:
// the stoplist, the hosts' names and the title's words.
func allowedWords(article Article, hosts [2]Host) map[string]bool {
	allowed := map[string]bool{}
	for word := range commonCapitalised {
		allowed[word] = true
	}
	for _, text := range []string{hosts[0].Name, hosts[1].Name, article.Title} {
		for _, word := range wordsOf(text) {
			allowed[strings.ToLower(word)] = true
		}
	}
	return allowed
}

// normaliseNumber makes "1,200", "1200", "$1,200" and "1200.0" the same
// number. Currency and percent signs are dropped: the check is on the figure.
// A comma is read as a thousands separator, never as a decimal comma.
func normaliseNumber(number string) string {
	digits := strings.NewReplacer(",", "", "%", "", "$", "", "€", "", "£", "", "¥", "").Replace(number)
	if value, err := strconv.ParseFloat(digits, 64); err == nil {
		return strconv.FormatFloat(value, 'f', -1, 64)
	}
	return digits // such as "1.2.3", compared as written
}

// normaliseQuote lower-cases text, unifies apostrophes, collapses whitespace
// and trims the punctuation a speaker adds around a quotation.
func normaliseQuote(text string) string {
	text = strings.ToLower(normaliseApostrophes(text))
	text = strings.Join(strings.Fields(text), " ")
	return strings.TrimFunc(text, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

// wordsOf returns text's words, possessives made plain ("Lee's" is "Lee"),
// as names are compared.
func wordsOf(text string) []string {
	words := wordPattern.FindAllString(normaliseApostrophes(text), -1)
	for i, word := range words {
		words[i] = withoutPossessive(word)
	}
	return words
}

func withoutPossessive(word string) string { return strings.TrimSuffix(word, "'s") }

func normaliseApostrophes(text string) string {
	return strings.NewReplacer("’", "'", "‘", "'").Replace(text)
}

// capitalisedRuns returns the names in text: runs of capitalised words not
// broken by punctuation, leaving out a sentence's first word (capitalised
// whatever it is) and allowed words. A name said only as the first word of a
// sentence is therefore not checked.
func capitalisedRuns(text string, allowed map[string]bool) []string {
	text = normaliseApostrophes(text)
	var runs []string
	var run []string
	flush := func() {
		if len(run) > 0 {
			runs = append(runs, strings.Join(run, " "))
			run = nil
		}
	}
	sentenceStart := true
	previous := ""
	end := 0
	for _, loc := range wordPattern.FindAllStringIndex(text, -1) {
		gap := text[end:loc[0]]
		if strings.TrimSpace(gap) != "" {
			flush()
		}
		if strings.ContainsAny(gap, ".!?:;…\"“\n") && !(honorifics[strings.ToLower(previous)] && strings.TrimSpace(gap) == ".") {
			sentenceStart = true
		}
		word := withoutPossessive(text[loc[0]:loc[1]])
		lower := strings.ToLower(word)
		first := []rune(word)[0]
		if sentenceStart || !unicode.IsUpper(first) || allowed[lower] {
			flush()
		} else {
			run = append(run, word)
		}
		sentenceStart = false
		previous = word
		end = loc[1]
	}
	flush()
	return runs
}

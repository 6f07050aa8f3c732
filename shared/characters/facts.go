package characters

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/audiobook/spans"
)

// Extraction limits.
const (
	// MaxCharacters is the most characters a set keeps (the most mentioned).
	MaxCharacters = 24
	// MaxPassages is the most passages kept per character.
	MaxPassages = 12
	// maxPassageBytes bounds one passage (a sentence, cut at a word).
	maxPassageBytes = 600
	// contextPassages are the first sentences naming a character, kept as
	// passages even when they state no fact, for the story images.
	contextPassages = 3
	// minPassageWords is the shortest sentence kept as a passage.
	minPassageWords = 6
)

// Aspect cue words: a clause of a sentence naming the character that holds
// one of these states a fact of that aspect.
var (
	physicalCues = set("eyes", "eye", "hair", "face", "nose", "mouth", "ears", "ear", "whiskers", "beard", "moustache", "tall", "fat",
		"thin", "neck", "legs", "fur", "tail", "skin", "teeth", "claws", "wings", "shell", "scales", "paws", "chin",
		"height", "inches", "feet", "curls", "ringlets", "spotted", "striped", "freckles", "plump", "stout", "lean", "beak")
	clothingCues = set("coat", "waistcoat", "waistcoat-pocket", "gloves", "glove", "hat", "crown", "dress", "apron", "frock", "shoes",
		"boots", "jacket", "cloak", "robe", "robes", "trousers", "tie", "collar", "spectacles", "cap", "bonnet", "uniform", "livery",
		"wig", "gown", "tunic", "armour", "armor", "cravat", "shawl", "sash", "belt", "tabard", "cape", "hood", "scarf", "fan")
	// descriptive words a cue noun must follow closely to be a fact ("pink
	// eyes", "white kid gloves"), so "rubbed its eyes" is not one.
	descriptive = set("white", "black", "red", "pink", "blue", "green", "yellow", "grey", "gray", "brown", "golden", "gold", "silver",
		"crimson", "scarlet", "purple", "orange", "large", "little", "small", "great", "long", "short", "tall", "thin", "fat", "sharp",
		"round", "curly", "straight", "bright", "velvet", "kid", "silk", "satin", "wooden", "tiny", "huge", "enormous", "shabby",
		"high", "wide", "narrow", "bald", "dark", "fair", "striped", "spotted", "grinning", "pointed", "hooked", "big", "lovely",
		"plain", "neat", "elegant", "ragged", "cotton", "woollen", "leather", "feathered", "jewelled", "heavy", "eager", "flat", "oblong")
	ageRE       = regexp.MustCompile(`\b(?:[a-z0-9-]+ years? old|old (?:man|woman|lady|gentleman|fellow)|little (?:girl|boy)|young (?:man|woman|lady|girl|boy|gentleman)|elderly|middle-aged)\b`)
	sentenceRE  = regexp.MustCompile(`[^.!?]+(?:[.!?]+["'’”)_]*|$)`)
	paragraphRE = regexp.MustCompile(`(?s)[^\n].*?(?:\n\s*\n|$)`)
)

// Sentence is a stretch of the text between sentence ends.
type sentence struct {
	start int
	raw   string // as in the text
	text  string // spaces collapsed
}

// sentences splits text into sentences with their offsets; paragraph
// breaks end a sentence too. Line breaks inside a paragraph become spaces.
func sentences(text string) []sentence {
	var out []sentence
	// Paragraphs first, so a sentence never spans a blank line.
	for _, loc := range paragraphRE.FindAllStringIndex(text, -1) {
		para := text[loc[0]:loc[1]]
		for _, s := range sentenceRE.FindAllStringIndex(para, -1) {
			raw := para[s[0]:s[1]]
			if strings.TrimSpace(raw) == "" {
				continue
			}
			out = append(out, sentence{start: loc[0] + s[0], raw: raw, text: strings.Join(strings.Fields(raw), " ")})
		}
	}
	return out
}

// FromText finds characters in text by rules: the audiobook cast
// (cast.Extract over sp), each with the sentences naming it as passages
// and the clauses of the narration in those sentences that state its
// physical, clothing and age details as facts (what characters say of each
// other is too often a joke or an insult). The most mentioned come first.
func FromText(text string, sp []spans.Span, found []cast.Character) []Character {
	if len(found) > MaxCharacters {
		found = found[:MaxCharacters]
	}
	// Narration only: dialogue bytes become spaces, keeping every offset.
	narration := []byte(text)
	for _, s := range sp {
		if s.Kind == spans.Dialogue && s.Start >= 0 && s.End <= len(narration) && s.Start < s.End {
			for i := s.Start; i < s.End; i++ {
				if narration[i] != '\n' {
					narration[i] = ' '
				}
			}
		}
	}
	told := string(narration)
	sents := sentences(text)
	out := make([]Character, 0, len(found))
	for rank, fc := range found {
		c := Character{ID: fc.ID, Name: fc.Name, Aliases: append([]string{}, fc.Aliases...), Gender: fc.Gender, Mentions: fc.Mentions, Role: role(rank)}
		if c.Aliases == nil {
			c.Aliases = []string{}
		}
		names := namePattern(fc.Names())
		var context int
		for _, s := range sents {
			if len(c.Passages) >= MaxPassages {
				break
			}
			// A heading ("Down the Rabbit-Hole") is no passage.
			if names == nil || wordCount(s.text) < minPassageWords || !names.MatchString(s.text) {
				continue
			}
			facts := factsIn(strings.Join(strings.Fields(told[s.start:s.start+len(s.raw)]), " "), names)
			if len(facts.Physical)+len(facts.Clothing)+len(facts.Age) == 0 {
				if context >= contextPassages {
					continue
				}
				context++
			}
			id := fmt.Sprintf("p%d", len(c.Passages)+1)
			c.Passages = append(c.Passages, Passage{ID: id, Start: s.start, Text: cut(s.text, maxPassageBytes)})
			for _, f := range facts.Physical {
				c.Facts.Physical = addFact(c.Facts.Physical, f, id)
			}
			for _, f := range facts.Clothing {
				c.Facts.Clothing = addFact(c.Facts.Clothing, f, id)
			}
			for _, f := range facts.Age {
				c.Facts.Age = addFact(c.Facts.Age, f, id)
			}
		}
		out = append(out, c)
	}
	return out
}

// Finish gives each extracted character its base form from its facts, its
// age, and its prompts and fingerprint.
func Finish(c Character) Character {
	if c.Aliases == nil {
		c.Aliases = []string{}
	}
	if c.Passages == nil {
		c.Passages = []Passage{}
	}
	for _, p := range []*[]Fact{&c.Facts.Physical, &c.Facts.Clothing, &c.Facts.Age} {
		if *p == nil {
			*p = []Fact{}
		}
	}
	if c.Age == "" && len(c.Facts.Age) > 0 {
		c.Age = c.Facts.Age[0].Text
	}
	if len(c.Forms) == 0 {
		c.Forms = []Form{{ID: "base", Name: "base", Physical: joinFacts(c.Facts.Physical), Clothing: joinFacts(c.Facts.Clothing)}}
	}
	if c.ActiveForm == "" {
		c.ActiveForm = c.Forms[0].ID
	}
	c.Refresh()
	return c
}

func joinFacts(fs []Fact) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, f.Text)
	}
	return strings.Join(parts, "; ")
}

func role(rank int) string {
	switch {
	case rank == 0:
		return "protagonist"
	case rank < 6:
		return "major"
	}
	return "minor"
}

// namePattern matches any of names as whole words (case as written, so
// "the Queen" is not every "queen").
func namePattern(names []string) *regexp.Regexp {
	var alts []string
	for _, n := range names {
		n = strings.TrimSpace(n)
		// "The Queen" is written "the Queen" in running text.
		for _, art := range []string{"The ", "the "} {
			n = strings.TrimPrefix(n, art)
		}
		if n != "" {
			alts = append(alts, regexp.QuoteMeta(n))
		}
	}
	if len(alts) == 0 {
		return nil
	}
	sort.Slice(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) })
	return regexp.MustCompile(`\b(?:` + strings.Join(alts, "|") + `)\b`)
}

// factsIn picks the clauses of a sentence that state facts, by aspect. A
// clause is read only when it is near the name (the clause holding it, or
// one of the two after it) so another character's coat is rarely taken.
func factsIn(s string, names *regexp.Regexp) Facts {
	clauses := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ':' || r == '—' || r == '(' || r == ')' })
	at := -1
	for i, c := range clauses {
		if names.MatchString(c) {
			at = i
			break
		}
	}
	var f Facts
	for i, c := range clauses {
		if at < 0 || i < at || i > at+2 {
			continue
		}
		c = strings.Trim(strings.TrimSpace(c), "\"'“”‘’.!?")
		c = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(c, "and "), "but "))
		if c == "" || wordCount(c) > 25 {
			continue
		}
		// "her sharp little chin into Alice's shoulder": a possessive name
		// owns only what follows it ("the Rabbit's white kid gloves"); what
		// comes before is someone else's.
		if loc := names.FindStringIndex(c); loc != nil && possessive(c[loc[1]:]) {
			c = strings.TrimLeft(c[loc[1]:], "'’s")
		}
		for _, ph := range phrases(c, clothingCues) {
			f.Clothing = append(f.Clothing, Fact{Text: ph})
		}
		for _, ph := range phrases(c, physicalCues) {
			f.Physical = append(f.Physical, Fact{Text: ph})
		}
		if i <= at+1 {
			if m := ageRE.FindString(strings.ToLower(c)); m != "" {
				f.Age = append(f.Age, Fact{Text: m})
			}
		}
	}
	return f
}

// phrases are the descriptions of a cue noun in clause c: the cue with
// the run of descriptive words just before it ("pink eyes", "white kid
// gloves"), so "rubbed its eyes" gives none.
func phrases(c string, cues map[string]bool) []string {
	ws := words(c)
	var out []string
	for i, w := range ws {
		if !cues[w] && !cues[strings.SplitN(w, "-", 2)[0]] {
			continue
		}
		j := i
		for j > 0 && i-j < 3 && descriptive[ws[j-1]] {
			j--
		}
		if j < i {
			out = append(out, strings.Join(ws[j:i+1], " "))
		}
	}
	return out
}

func possessive(after string) bool {
	return strings.HasPrefix(after, "'s ") || strings.HasPrefix(after, "’s ")
}

// addFact adds a fact with its passage, merging the same text, or a longer
// way of saying it ("little white kid gloves" into "white kid gloves").
func addFact(fs []Fact, f Fact, passage string) []Fact {
	for i := range fs {
		if strings.HasSuffix(strings.ToLower(f.Text), strings.ToLower(fs[i].Text)) {
			fs[i].Passages = append(fs[i].Passages, passage)
			return fs
		}
	}
	f.Passages = []string{passage}
	return append(fs, f)
}

// cut shortens s to at most n bytes, at a word boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n-- // never split a character
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	return s + "…"
}

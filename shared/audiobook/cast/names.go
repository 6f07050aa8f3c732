package cast

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// phrase is a name as written in a tag: "the Mock Turtle", "Mr. Darcy",
// "Alice". first and next are token indexes ([first, next)).
type phrase struct {
	Text        string   // normalised: "the" lower-cased, one space between words
	Article     bool     // "the Queen"
	Title       string   // honorific, lower case without its dot ("mr")
	Words       []string // the capitalised words (and connectors) after article and title
	first, next int
}

// nameAt reads a name starting at toks[i]: an optional article, an optional
// honorific, then capitalised words (with connectors such as "of").
func (lx *lexicon) nameAt(toks []tok, i int) (phrase, bool) {
	var p phrase
	j := i
	if j < len(toks) && toks[j].Word && strings.EqualFold(toks[j].Text, "the") && j+1 < len(toks) && capitalised(toks[j+1].Text) {
		p.Article = true
		j++
	}
	if j < len(toks) && toks[j].Word {
		key := strings.ToLower(toks[j].Text)
		if _, ok := honorifics[key]; ok && (capitalised(toks[j].Text) || toks[j].Text == "M") {
			k := j + 1
			if k < len(toks) && toks[k].Text == "." {
				k++
			}
			m := k // a surname's particles in lower case: "Mr. van der Luyden"
			for m < len(toks) && toks[m].Word && surnameParticles[toks[m].Text] {
				m++
			}
			if m < len(toks) && capitalised(toks[m].Text) && !stopWords[strings.ToLower(toks[m].Text)] {
				p.Title = key
				j = k
			}
		}
	}
	start := j
	for j < len(toks) && len(p.Words) < 5 {
		t := toks[j]
		switch {
		case t.Word && capitalised(t.Text):
			p.Words = append(p.Words, t.Text)
			j++
			continue
		case t.Word && connectors[t.Text] && (len(p.Words) > 0 || p.Title != "" && surnameParticles[t.Text]) && j+1 < len(toks) && (capitalised(toks[j+1].Text) || surnameParticles[toks[j+1].Text]):
			p.Words = append(p.Words, t.Text)
			j++
			continue
		}
		break
	}
	if len(p.Words) == 0 {
		return phrase{}, false
	}
	if p.Title == "" && !p.Article {
		// A bare name: leading words written mostly in lower case are the
		// sentence's opening ("Then Alice said"), not the name.
		for len(p.Words) > 0 && !lx.nameWord(p.Words[0]) && !particle(lx, p.Words) {
			p.Words = p.Words[1:]
			start++
		}
		for k, w := range p.Words {
			if !connectors[w] && !lx.nameWord(w) && !(k == 0 && particle(lx, p.Words)) {
				return phrase{}, false
			}
		}
		if len(p.Words) == 0 {
			return phrase{}, false
		}
		i = start
	}
	if p.Article && stopWords[strings.ToLower(p.Words[0])] && honorifics[strings.ToLower(p.Words[0])] == "" && !lx.nameWord(p.Words[0]) && len(p.Words) == 1 {
		return phrase{}, false // "the English", "the End"
	}
	p.first, p.next = i, j
	p.Text = p.render()
	return p, true
}

// particle reports whether words open with a surname's capitalised
// particle before a name word: "De Griers", "Van Tassel".
func particle(lx *lexicon, words []string) bool {
	return len(words) > 1 && connectors[strings.ToLower(words[0])] && capitalised(words[0]) && lx.nameWord(words[1])
}

// render writes the phrase in its normal form.
func (p phrase) render() string {
	var b strings.Builder
	if p.Article {
		b.WriteString("the ")
	}
	if p.Title != "" {
		b.WriteString(titleForm(p.Title))
		b.WriteByte(' ')
	}
	b.WriteString(strings.Join(p.Words, " "))
	return b.String()
}

// titleForm writes an honorific as names use it: "Mr.", "Lady".
func titleForm(key string) string {
	r, n := utf8.DecodeRuneInString(key)
	s := string(unicode.ToUpper(r)) + key[n:]
	switch key {
	case "mr", "mrs", "ms", "dr", "col", "capt", "rev", "mme", "mlle", "m":
		s += "."
	}
	return s
}

// head is the last capitalised word: "Rabbit" of "the White Rabbit", "Hearts"
// of "the King of Hearts" (see core).
func (p phrase) head() string { return p.Words[len(p.Words)-1] }

// core is the words before "of": "King" of "King of Hearts" (a surname's
// particle is part of the name: "Henry van der Luyden").
func (p phrase) core() []string {
	for i, w := range p.Words {
		if w == "of" {
			return p.Words[:i]
		}
	}
	return p.Words
}

// gender is what the honorific or a gendered head word says.
func (p phrase) gender() string {
	if p.Title != "" {
		return honorifics[p.Title]
	}
	core := p.core()
	if len(core) == 0 {
		return ""
	}
	key := strings.ToLower(core[len(core)-1])
	if g := honorifics[key]; g != "" && p.Article {
		return g
	}
	return genderedNouns[key]
}

// normKey is the lookup form of a name: lower case, article dropped, dots
// and extra spaces removed, so "The Queen", "the Queen" and "queen" meet.
func normKey(name string) string {
	f := strings.Fields(strings.ToLower(strings.ReplaceAll(name, ".", " ")))
	if len(f) > 1 && (f[0] == "the" || f[0] == "a" || f[0] == "an") {
		f = f[1:]
	}
	return strings.Join(f, " ")
}

// slug is a stable id made from a name: "The Mock Turtle" → "the-mock-turtle".
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "character"
	}
	return b.String()
}

// displayName writes a name for the cast list: an article is capitalised
// ("The Queen") since the name stands alone there.
func displayName(text string) string {
	if strings.HasPrefix(text, "the ") {
		return "The " + text[4:]
	}
	return text
}

// NameKey is the form two names of one character share when they differ
// only in case, dots or a leading article ("The Rabbit", "rabbit"), as
// Refine and Extract compare them.
func NameKey(name string) string { return normKey(name) }

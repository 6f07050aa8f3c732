package cast

import (
	"sort"
	"strconv"
	"strings"
)

// minDescTags is how many speech tags must name a speaker by one
// description ("said the waiter") for that description to be cast.
const minDescTags = 2

// titleOfNoun maps a title written as a lower-case noun ("the doctor") to
// the honorific the cast's names carry ("Dr. Bull").
var titleOfNoun = map[string]string{"doctor": "dr", "mister": "mr", "reverend": "rev"}

// describedCast adds the speakers the book only describes: a description
// with "the" and a role noun (see personNoun) that heads at least minDescTags speech tags ("said the
// mariner", "the detective answered") becomes an alias of the one cast
// character whose title it is ("the count" of Count Mippipopolous), else a
// character of its own ("The Mariner"), as annotators name such speakers.
// Without it those lines stay blank however often the tag repeats.
func (d *doc) describedCast(chars []Character) []Character {
	n := map[string]int{}
	seen := map[string]bool{}
	for _, l := range d.lines {
		for _, t := range []tag{l.After, l.Before} {
			if !t.OK || t.Desc.Det != "the" || t.Desc.Noun == "" {
				continue
			}
			key := strconv.Itoa(t.Seg) + "|" + t.Desc.Noun
			if !seen[key] {
				seen[key] = true
				n[t.Desc.Noun]++
			}
		}
	}
	nouns := make([]string, 0, len(n))
	for noun, k := range n {
		if k >= minDescTags {
			nouns = append(nouns, noun)
		}
	}
	sort.Strings(nouns)
	known := map[string]bool{}
	for _, c := range chars {
		for _, x := range c.Names() {
			known[normKey(x)] = true
		}
	}
	for _, noun := range nouns {
		if known[noun] || personNoun(noun) {
			continue
		}
		name := "The " + strings.ToUpper(noun[:1]) + noun[1:]
		if i := d.titleHolder(chars, noun); i >= 0 {
			chars[i].Aliases = append(chars[i].Aliases, name)
			sort.Strings(chars[i].Aliases)
			continue
		}
		if _, ok := honorifics[noun]; ok {
			continue // "the colonel" of several colonels: none of them alone
		}
		chars = append(chars, Character{Name: name, Gender: d.descGender(noun)})
		known[noun] = true
	}
	return chars
}

// genericNouns describe anyone: "the other", "the voice", "the young".
var genericNouns = setOf("other", "others", "voice", "young", "old", "person", "first", "second", "last", "latter", "former", "aloud")

// personNoun reports whether a description's head says only what kind of
// person speaks ("the girl", "the old man", "the other", "the lad"): such
// words describe the named characters too, so casting them as a speaker
// of their own takes lines from those characters. A role ("the waiter",
// "the mariner") names someone the book does not name otherwise. Words in
// -ed and -ing are not nouns ("the addressed").
func personNoun(noun string) bool {
	_, gendered := genderedNouns[noun]
	_, kin := kinNouns[noun]
	_, desc := descNouns[noun]
	return gendered || kin || desc || genericNouns[noun] || strings.HasSuffix(noun, "ed") || strings.HasSuffix(noun, "ing")
}

// descGender is the gender the pronouns after "the <noun>" say: two
// thirds of at least two votes ("the mariner … he").
func (d *doc) descGender(noun string) string {
	want := "the " + noun
	m, f := 0, 0
	lower := strings.ToLower(d.text)
	for at := 0; ; {
		k := strings.Index(lower[at:], want)
		if k < 0 {
			break
		}
		end := at + k + len(want)
		at = end
		if end < len(lower) && isLetter(lower[end]) || at-len(want) > 0 && isLetter(lower[at-len(want)-1]) {
			continue // "the mariners", "bathe mariner"
		}
		switch subjectPronounAfter(d.text, end) {
		case "male":
			m++
		case "female":
			f++
		}
	}
	switch {
	case m >= 2 && 3*m >= 2*(m+f):
		return "male"
	case f >= 2 && 3*f >= 2*(m+f):
		return "female"
	}
	return ""
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// titleHolder is the one character with a name carrying the title noun
// ("Count Mippipopolous" for "count"), else the one character whose
// surname the text writes after that title ("Mr. Losberne" for "the
// doctor" of a text writing "Doctor Losberne"), or -1.
func (d *doc) titleHolder(chars []Character, noun string) int {
	title := noun
	if t, ok := titleOfNoun[noun]; ok {
		title = t
	}
	if _, ok := honorifics[title]; !ok {
		return -1
	}
	isTitle := func(t string) bool { return t == title || t == noun }
	found := -1
	for i, c := range chars {
		for _, x := range c.Names() {
			if p, ok := parseName(x); ok && isTitle(p.Title) {
				if found >= 0 && found != i {
					return -1
				}
				found = i
			}
		}
	}
	if found >= 0 {
		return found
	}
	surname := ""
	for _, o := range d.names {
		if isTitle(o.P.Title) && !o.P.Article && len(o.P.Words) == 1 {
			if w := strings.ToLower(o.P.Words[0]); surname == "" || surname == w {
				surname = w
			} else {
				return -1 // two doctors
			}
		}
	}
	if surname == "" {
		return -1
	}
	for i, c := range chars {
		for _, x := range c.Names() {
			if p, ok := parseName(x); ok && !p.Article && strings.ToLower(p.Words[len(p.Words)-1]) == surname {
				if found >= 0 && found != i {
					return -1
				}
				found = i
			}
		}
	}
	return found
}

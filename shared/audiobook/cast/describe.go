package cast

import (
	"strings"
)

// desc is a speaker described instead of named in a tag: "his wife", "the
// old man", "her mother". Det is the determiner ("his", "the"), Noun the
// head noun, both lower case.
type desc struct {
	Det, Noun string
}

// descDets open a description in a tag.
var descDets = setOf("the", "a", "an", "his", "her", "their", "my", "our")

// descAt reads a description starting at toks[k]: a determiner, at most
// two lower-case modifiers and a lower-case head noun ("the old man"),
// and returns the index after it. The head must not be a speech verb or
// a pronoun.
func descAt(toks []tok, k int) (desc, int, bool) {
	if k >= len(toks) || !toks[k].Word || !descDets[strings.ToLower(toks[k].Text)] {
		return desc{}, k, false
	}
	det := strings.ToLower(toks[k].Text)
	last := -1
	for j := k + 1; j < len(toks) && j <= k+3; j++ {
		t := toks[j]
		if !t.Word || capitalised(t.Text) || t.Text != strings.ToLower(t.Text) {
			break
		}
		if _, ok := verbAt(toks, j); ok || stopWords[t.Text] || isAdverb(t) {
			break
		}
		last = j
	}
	if last < 0 {
		return desc{}, k, false
	}
	return desc{Det: det, Noun: toks[last].Text}, last + 1, true
}

// descEndingAt is the description whose head noun is toks[k] ("…, and her
// mother said").
func descEndingAt(toks []tok, k int) (desc, bool) {
	for f := k - 1; f >= 0 && f >= k-3; f-- {
		if ds, next, ok := descAt(toks, f); ok && next == k+1 {
			return ds, true
		}
	}
	return desc{}, false
}

// kinship maps a kinship noun to the title its holder takes on the
// family's surname, from the possessor's title: his wife is Mrs. X of
// Mr. X; her husband is Mr. X of Mrs. X.
var kinship = map[string]string{
	"wife": "mrs", "husband": "mr", "mother": "mrs", "father": "mr", "lady": "mrs",
}

// resolveDesc is the character a description names, or -1: "his wife"
// and "her husband" (and mother, father) through the possessor's
// surname, a described character the cast names that way ("the cook"),
// else -1.
func (d *doc) resolveDesc(ci *castIndex, att []Attribution, i int, ds desc) int {
	if c, ok := ci.byKey[normKey(ds.Det+" "+ds.Noun)]; ok && ds.Det == "the" {
		return c
	}
	if ds.Det == "the" {
		return d.resolveTitle(ci, att, i, ds.Noun)
	}
	title, kin := kinship[ds.Noun]
	if !kin || (ds.Det != "his" && ds.Det != "her") {
		return -1
	}
	g := pronounGender[map[string]string{"his": "he", "her": "she"}[ds.Det]]
	owner := d.beatSubject(ci, i)
	if owner < 0 || ci.chars[owner].Gender != g {
		owner = -1
		if c, ok := ci.byKey[normKey(d.antecedent(ci, att, i, g, nil))]; ok {
			owner = c
		}
	}
	if owner < 0 {
		return -1
	}
	for _, f := range ci.forms[owner] {
		// A surname: the last word of a full name, or the word after Mr.
		if len(f.Words) == 0 || (f.Title != "" && !surnameTitles[f.Title]) || (f.Title == "" && len(f.Words) < 2) {
			continue
		}
		want := phrase{Title: title, Words: f.Words[len(f.Words)-1:]}
		want.Text = want.render()
		if c, ok := ci.byKey[normKey(want.Text)]; ok && c != owner {
			return c
		}
	}
	return -1
}

// titleNouns are the titles that, lower case after "the", name the one
// character of the scene who bears them ("said the count" for Count
// Mippipopolous, "the professor" for Professor Godbole); Mr., Mrs. and
// the kinship titles name no one in particular.
var titleNouns = map[string]string{
	"colonel": "colonel", "captain": "captain", "general": "general", "major": "major",
	"lieutenant": "lieutenant", "count": "count", "countess": "countess", "baron": "baron",
	"baroness": "baroness", "duke": "duke", "duchess": "duchess", "prince": "prince",
	"princess": "princess", "king": "king", "queen": "queen", "professor": "professor",
	"doctor": "dr", "marquis": "marquis", "inspector": "inspector", "judge": "judge",
}

// resolveTitle is the character a title written as a noun names ("said
// the colonel"): of the characters bearing it, the one named or speaking
// last before line i, else the only one; -1 if none.
func (d *doc) resolveTitle(ci *castIndex, att []Attribution, i int, noun string) int {
	title, ok := titleNouns[noun]
	if !ok {
		return -1
	}
	bearers := map[string]bool{}
	only := -1
	for c, forms := range ci.forms {
		for _, f := range forms {
			if f.Title == title || f.Title == noun {
				bearers[ci.chars[c].Name] = true
				only = c
				break
			}
		}
	}
	if who := d.nearest(ci, att, i, false, func(c Character) bool { return bearers[c.Name] }); who != "" {
		return ci.byKey[normKey(who)]
	}
	if len(bearers) == 1 {
		return only
	}
	return -1
}

// descNouns say the gender of a described speaker beyond the gendered
// nouns of names and the kinship nouns: "the young lady", "her companion"
// says nothing, "the lad" does.
var descNouns = map[string]string{
	"lady": "female", "lass": "female", "maid": "female", "widow": "female", "dame": "female",
	"fellow": "male", "lad": "male", "youth": "male", "chap": "male", "gentleman": "male",
}

// gender is the gender a description's head noun says ("the young girl",
// "his wife", "the old man"), or "".
func (ds desc) gender() string {
	if g := genderedNouns[ds.Noun]; g != "" {
		return g
	}
	if g := kinNouns[ds.Noun]; g != "" {
		return g
	}
	return descNouns[ds.Noun]
}

package cast

import (
	"sort"
	"strings"
)

// The first-person narrator: a book told by "I" casts its narrator, named
// from how others address them, else "Narrator".

// narratorShare is the least share of first-person pronouns among the
// personal pronouns of the narration (outside quotations) for a book to be
// told in the first person. Third-person novels stay far below it: their
// narration's "I" are the odd aside and quoted thoughts.
const narratorShare = 0.15

// minFirstPerson is the fewest first-person pronouns the narration must
// hold: a letter's few "I" in a short text do not make a narrator.
const minFirstPerson = 8

// NarratorName is the narrator's name when the book never says it.
const NarratorName = "Narrator"

// firstPersonShare is the share of first-person pronouns (I, me, my,
// myself) among the personal pronouns of the narration, 0 when it holds
// fewer than minFirstPerson of them.
func (d *doc) firstPersonShare() float64 {
	first, all := 0, 0
	count := func(s, e int) {
		for _, t := range tokenize(d.text, s, e) {
			if !t.Word {
				continue
			}
			switch strings.ToLower(t.Text) {
			case "i", "me", "my", "myself":
				first++
				all++
			case "he", "him", "his", "himself", "she", "her", "hers", "herself":
				all++
			}
		}
	}
	at := 0
	for _, l := range d.lines {
		if l.Span.Start > at {
			count(at, l.Span.Start)
		}
		at = max(at, l.Span.End)
	}
	count(at, len(d.text))
	if first < minFirstPerson {
		return 0
	}
	return float64(first) / float64(all)
}

// narrator adds the first-person narrator to chars when the book has one,
// or marks the character they are; said is how many lines carry an "I"
// tag. The narrator's name is the name others address most in quotations
// ("…, Jake.") that the narration itself hardly writes: the narration
// says "I" for them. A titled surname addressed the same way ("Mr.
// Barnes") is the narrator's too and names them, as a book's cast list
// would; "my name is X" counts as three addresses.
func (d *doc) narrator(chars []Character) ([]Character, int) {
	if d.firstPersonShare() < narratorShare {
		return chars, 0
	}
	said := 0
	for i := range d.lines {
		if d.saidI(i) {
			said++
		}
	}
	votes := map[string]int{}
	phr := map[string]phrase{}
	add := func(p phrase, n int) {
		k := normKey(p.Text)
		votes[k] += n
		if _, ok := phr[k]; !ok {
			phr[k] = p
		}
	}
	for i := range d.lines {
		for _, p := range d.addressed(i) {
			add(p, 1)
		}
	}
	for _, p := range d.myNameIs() {
		add(p, 3)
	}
	told := map[string]int{} // mentions in the narration
	for _, o := range d.names {
		if !o.InQuote {
			told[normKey(o.P.Text)]++
		}
	}
	var like []string // addressed, hardly told: most addressed first
	for k, n := range votes {
		if n >= minNarratorVotes && told[k]*4 <= n {
			like = append(like, k)
		}
	}
	sort.Slice(like, func(i, j int) bool {
		if votes[like[i]] != votes[like[j]] {
			return votes[like[i]] > votes[like[j]]
		}
		return like[i] < like[j]
	})
	if len(like) == 0 {
		return append(chars, Character{Name: NarratorName, Narrator: true}), said
	}
	forms := []phrase{phr[like[0]]}
	name := forms[0]
	for _, k := range like[1:] {
		p := phr[k]
		if p.Title != "" && len(p.Words) == 1 && honorifics[p.Title] != "female" && (surnameTitles[p.Title] || p.Title == "monsieur") {
			if name.Title == "" {
				name = p
			}
			forms = append(forms, p)
		}
	}
	ci := newCastIndex(chars)
	for _, p := range forms {
		if c := ci.resolve(p); c >= 0 {
			chars[c].Narrator = true
			chars[c].Aliases = mergeAliases(chars[c], forms)
			return chars, said
		}
	}
	n := Character{Name: displayName(name.Text), Narrator: true, Gender: name.gender()}
	if n.Gender == "" {
		n.Gender = givenNameGender(forms[0])
	}
	if name.Title == "" {
		if full, ok := d.fullerName(name); ok {
			n.Name = full
		}
	}
	n.Aliases = mergeAliases(n, forms)
	return append(chars, n), said
}

// minNarratorVotes is how often a name must be addressed to name the
// narrator.
const minNarratorVotes = 3

// mergeAliases are c's aliases with the forms added, without its name or
// repeats, sorted.
func mergeAliases(c Character, forms []phrase) []string {
	seen := map[string]bool{normKey(c.Name): true}
	var out []string
	for _, a := range c.Aliases {
		if !seen[normKey(a)] {
			seen[normKey(a)] = true
			out = append(out, a)
		}
	}
	for _, p := range forms {
		a := displayName(p.Text)
		if !seen[normKey(a)] {
			seen[normKey(a)] = true
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// saidI reports whether line i has a first-person tag: `said I`, `I said`
// after it, or `I said,` leading into it.
func (d *doc) saidI(i int) bool {
	s, e := d.narrationAfter(i)
	toks := tokenize(d.text, s, min(e, s+80))
	k := 0
	for k < len(toks) && !toks[k].Word && (toks[k].Text == "," || toks[k].Text == "-" || toks[k].Text == "—" || toks[k].Text == "–") {
		k++
	}
	if k < len(toks) && toks[k].Word {
		if toks[k].Text == "I" && verbAfter(toks, k+1) {
			return true
		}
		if v, ok := verbAt(toks, k); ok && v < len(toks) && toks[v].Text == "I" {
			return true
		}
	}
	s, e = d.narrationBefore(i)
	toks = tokenize(d.text, max(s, e-60), e)
	for len(toks) > 0 && !toks[len(toks)-1].Word {
		toks = toks[:len(toks)-1]
	}
	for k := len(toks) - 1; k >= 0 && len(toks)-k <= 4; k-- {
		if toks[k].Text == "I" && verbAfter(toks, k+1) {
			return true
		}
	}
	return false
}

// addressed are the name phrases in vocative position in line i, cast or
// not (see vocatives).
func (d *doc) addressed(i int) []phrase {
	s, e := d.lines[i].Inner[0], d.lines[i].Inner[1]
	var out []phrase
	k := sort.Search(len(d.names), func(k int) bool { return d.names[k].Start >= s })
	for ; k < len(d.names) && d.names[k].End <= e; k++ {
		if o := d.names[k]; vocativeAt(d.text, s, e, o.Start, o.End) {
			out = append(out, o.P)
		}
	}
	return out
}

// myNameIs are the names after "my name is" anywhere in the text.
func (d *doc) myNameIs() []phrase {
	var out []phrase
	low := strings.ToLower(d.text)
	for at := 0; ; {
		j := strings.Index(low[at:], "my name is ")
		if j < 0 {
			return out
		}
		at += j + len("my name is ")
		toks := tokenize(d.text, at, min(len(d.text), at+60))
		if p, ok := d.lx.nameAt(toks, 0); ok && p.first == 0 {
			out = append(out, p)
		}
	}
}

// fullerName is the one two-word name the text writes at least
// minFullUses times that opens with the one-word name p ("Jake Barnes" of
// "Jake").
func (d *doc) fullerName(p phrase) (string, bool) {
	if p.Title != "" || p.Article || len(p.Words) != 1 {
		return "", false
	}
	uses := map[string]int{}
	for _, o := range d.names {
		q := o.P
		if !q.Article && q.Title == "" && len(q.Words) == 2 && q.Words[0] == p.Words[0] && fullForm(q) {
			uses[q.Text]++
		}
	}
	var found []string
	for t, n := range uses {
		if n >= minFullUses {
			found = append(found, t)
		}
	}
	sort.Strings(found)
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

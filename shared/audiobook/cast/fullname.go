package cast

import (
	"regexp"
	"sort"
	"strings"
)

// minFullUses is how often the text must write a fuller name for it to
// name a character tagged by one bare word.
const minFullUses = 2

// minJoinUses is how often the text must write a full name for it to
// join a given name's group and a surname's (joinByFullName).
const minJoinUses = 1

// fullNames gives each group whose best form is one bare word ("Anne",
// "Denham") the fuller name the text uses most for it: a form of the group
// or any name phrase of the text ("Anne Elliot", "Mr. Astley") that fits
// this group alone and not a group of the other gender. Annotators, and
// listeners, know a character by the full name the book gives; a lone
// given name or surname is often shared. A titled surname the group is
// tagged with names it however rarely ("Mr. Das" of "Das"): annotators
// list the titled form more often than the bare one (pdnc-dev +19 lines).
func fullNames(groups []*group, names []occurrence) {
	uses := map[string]int{}
	phr := map[string]phrase{}
	for _, o := range names {
		k := normKey(o.P.Text)
		uses[k]++
		if _, ok := phr[k]; !ok {
			phr[k] = o.P
		}
	}
	owner := map[string]*group{}
	for _, g := range groups {
		for _, f := range g.forms {
			owner[normKey(f.P.Text)] = g
		}
	}
	best := map[*group]*form{}
	bestUses := map[*group]int{}
	consider := func(g *group, p phrase, n int) {
		b := best[g]
		if n > bestUses[g] || n == bestUses[g] && b != nil && (nameLen(p) > nameLen(b.P) || nameLen(p) == nameLen(b.P) && p.Text < b.P.Text) {
			if f := findForm(g, p); f != nil {
				best[g] = f
			} else {
				best[g] = &form{P: p}
			}
			bestUses[g] = n
		}
	}
	for k, p := range phr {
		n := uses[k]
		if n < minFullUses || p.Article || !fullForm(p) {
			continue
		}
		if g := owner[k]; g != nil {
			if tg := honorifics[p.Title]; p.Title != "" && tg != "" && tg != g.gender() {
				continue
			}
			if bare(g) {
				consider(g, p, n)
			}
			continue
		}
		var fit *group
		fits := 0
		for _, g := range groups {
			gg := g.gender()
			if pg := givenNameGender(p); pg != "" && gg != "" && pg != gg {
				continue // Katharine Hilbery is not Mr. Hilbery
			}
			if tg := honorifics[p.Title]; p.Title != "" && tg != "" && tg != gg {
				// A gendered title names only a group of that gender.
				continue
			}
			for _, x := range g.forms {
				if x.P.Text != p.Text && sameAs(x.P, p, gg) {
					fits++
					fit = g
					break
				}
			}
		}
		if fits == 1 && bare(fit) && (p.Title == "" || n >= uses[normKey(bareForm(fit).P.Text)]) {
			consider(fit, p, n)
		}
	}
	for g, f := range best {
		if g.full == nil {
			g.full = f
		}
	}
}

// bare reports whether a group's best form is one word without a title or
// an article.
func bare(g *group) bool {
	best := bareForm(g)
	return best.P.Title == "" && !best.P.Article && len(best.P.Words) == 1
}

// bareForm is the group's best form by its tags.
func bareForm(g *group) *form {
	best := g.forms[0]
	for _, f := range g.forms[1:] {
		if better(f, best) {
			best = f
		}
	}
	return best
}

// fullForm reports whether p can be a character's full name: a given name
// and a surname ("Anne Elliot"), or a surname title and a surname used as
// much as the bare word ("Mr. Astley"); no connectors ("Mary of Ralph"),
// no contraction ("I'm Piglet"), no given-name title ("Miss Lucy").
func fullForm(p phrase) bool {
	for _, w := range p.Words {
		if connectors[w] || strings.ContainsAny(w, "'’") {
			return false
		}
	}
	if p.Title != "" {
		return len(p.Words) == 1 && surnameTitles[p.Title] && p.Title != "miss"
	}
	return len(p.Words) >= 2
}

func findForm(g *group, p phrase) *form {
	for _, f := range g.forms {
		if f.P.Text == p.Text {
			return f
		}
	}
	return nil
}

// joinByFullName merges a group known by a given name ("Adela", "Ralph")
// with one known by the surname ("Miss Quested", "Denham") when the text
// writes the full name ("Adela Quested") at least minFullUses times, that
// full name fits exactly those two groups, their genders agree, and no
// other full name with that surname fits the surname's group (Mr. Ashby
// of Robert and Tom Ashby stays apart). fullNames then names it.
func joinByFullName(groups []*group, names []occurrence, fam family, apart answerers) []*group {
	uses := map[string]int{}
	phr := map[string]phrase{}
	for _, o := range names {
		p := o.P
		if p.Article || p.Title != "" || len(p.Words) != 2 || !fullForm(p) {
			continue
		}
		k := normKey(p.Text)
		uses[k]++
		phr[k] = p
	}
	var keys []string // deterministic order: most used first
	bySurname := map[string][]phrase{}
	for k, p := range phr {
		if uses[k] >= minJoinUses {
			keys = append(keys, k)
			s := strings.ToLower(p.Words[1])
			bySurname[s] = append(bySurname[s], p)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if uses[keys[i]] != uses[keys[j]] {
			return uses[keys[i]] > uses[keys[j]]
		}
		return keys[i] < keys[j]
	})
	// fitsBy is the one group with a form whose words are exactly w, or
	// nil. A surname group (given false) must be known by the bare surname
	// or "Miss" and the surname only: "Mr. Emerson" may be George
	// Emerson's father, "Mrs. Miller" Daisy Miller's mother.
	fitsBy := func(p phrase, w string, given bool) *group {
		var fit *group
		pg := givenGender(p, groups)
		for _, g := range groups {
			for _, x := range g.forms {
				if tg := honorifics[x.P.Title]; !given && tg != "" && pg != "" && tg != pg {
					continue // Mr. Crawford is not Mary Crawford
				}
				if len(x.P.Words) == 1 && !x.P.Article && strings.EqualFold(x.P.Words[0], w) && sameAs(x.P, p, g.gender()) {
					if fit != nil && fit != g {
						return nil
					}
					fit = g
				}
			}
		}
		if fit != nil && !given {
			for _, x := range fit.forms {
				if x.P.Article || len(x.P.Words) != 1 || x.P.Title != "" && x.P.Title != "miss" {
					return nil
				}
			}
		}
		return fit
	}
	gone := map[*group]bool{}
	for _, k := range keys {
		p := phr[k]
		a, b := fitsBy(p, p.Words[0], true), fitsBy(p, p.Words[1], false)
		if a == nil || b == nil || a == b || gone[a] || gone[b] || apart.groups(a, b) {
			continue
		}
		if uses[k] < minFullUses && !(onlyTitled(b) && onlyBare(a)) {
			// A full name written once joins only a bare given name
			// ("Adela") and a titled surname ("Miss Quested"): a bare
			// surname, or a given name with its own title (Sir John),
			// may be someone else's.
			continue
		}
		ga, gb := a.gender(), b.gender()
		if ga != "" && gb != "" && ga != gb {
			continue
		}
		others := 0
		for _, q := range bySurname[strings.ToLower(p.Words[1])] {
			qg := givenGender(q, groups)
			if qg != "" && gb != "" && qg != gb {
				continue // Henry Crawford does not make Miss Crawford ambiguous
			}
			if qg == "" && givenNameGender(phrase{Words: q.Words}) == "" && !known(groups, q.Words[0]) {
				continue // "Admiral Crawford": no given name of a person
			}
			if !strings.EqualFold(q.Words[0], p.Words[0]) && sameAs(bareForm(b).P, q, gb) {
				others++
			}
		}
		if others > 0 || fam.sisters[strings.ToLower(p.Words[1])] && titled(b, "miss") {
			continue
		}
		a.forms = append(a.forms, b.forms...)
		f := findForm(a, p)
		if f == nil {
			f = &form{P: p}
			a.forms = append(a.forms, f)
		}
		// The full name that joined them names them: annotators name
		// Adela and Miss Quested "Adela Quested".
		a.full = f
		gone[b] = true
	}
	out := groups[:0]
	for _, g := range groups {
		if !gone[g] {
			out = append(out, g)
		}
	}
	return out
}

// givenGender is the gender of a full name's given name ("Mary" of "Mary
// Crawford"): the lexicon's, else that of the one group known by the given
// name alone.
func givenGender(p phrase, groups []*group) string {
	if g := givenNameGender(p); g != "" || p.Title != "" || p.Article || len(p.Words) < 2 {
		return g
	}
	if fit, n := knownBy(groups, p.Words[0]); n == 1 {
		return fit.gender()
	}
	return ""
}

// knownBy is a group known by the bare word w, and how many groups are.
func knownBy(groups []*group, w string) (*group, int) {
	var fit *group
	n := 0
	for _, g := range groups {
		for _, x := range g.forms {
			if x.P.Title == "" && !x.P.Article && len(x.P.Words) == 1 && strings.EqualFold(x.P.Words[0], w) {
				fit = g
				n++
				break
			}
		}
	}
	return fit, n
}

// known reports whether a group is known by the bare word w.
func known(groups []*group, w string) bool {
	_, n := knownBy(groups, w)
	return n > 0
}

// onlyTitled reports whether every form of g carries a surname title.
func onlyTitled(g *group) bool {
	for _, f := range g.forms {
		if f.P.Title == "" || !surnameTitles[f.P.Title] || f.P.Article {
			return false
		}
	}
	return true
}

// onlyBare reports whether every form of g is one untitled word.
func onlyBare(g *group) bool {
	for _, f := range g.forms {
		if f.P.Title != "" || f.P.Article || len(f.P.Words) != 1 {
			return false
		}
	}
	return true
}

// particleSurname reports whether words are a surname with its particles
// in lower case ("de Worms", "van der Luyden").
func particleSurname(words []string) bool {
	for i, w := range words {
		if i == len(words)-1 {
			return capitalised(w)
		}
		if !surnameParticles[w] {
			return false
		}
	}
	return false
}

// titled reports whether a form of g carries the title t.
func titled(g *group, t string) bool {
	for _, f := range g.forms {
		if f.P.Title == t {
			return true
		}
	}
	return false
}

// family holds, per surname (lower case), the given names the text writes
// with it at least minFullUses times, with their usual gender ("" when the
// lexicon does not know it), and the surnames of several sisters.
type family struct {
	given map[string]map[string]string
	// sisters are surnames the text writes as "the Miss Steeles" or "the
	// Misses Dashwood": "Miss Steele" is then the eldest of them, not
	// whichever sister the text names in full (Lucy Steele).
	sisters map[string]bool
}

func families(text string, names []occurrence) family {
	uses := map[string]int{}
	titleGender := map[string]string{}
	for _, o := range names {
		p := o.P
		if p.Article || len(p.Words) != 2 || !fullForm(phrase{Words: p.Words}) || p.Title != "" && p.Title != "mrs" {
			continue
		}
		// "Mrs. Manson Mingott" and "Mrs. Lovell Mingott" are two wives
		// of the family, told apart by their husbands' given names (a
		// man's titled full name is the same man: Mr. William Sikes).
		k := strings.ToLower(p.Words[1]) + " " + strings.ToLower(p.Words[0])
		uses[k]++
		if g := honorifics[p.Title]; g != "" {
			titleGender[k] = g
		}
	}
	fam := family{given: map[string]map[string]string{}, sisters: sistersIn(text)}
	for k, n := range uses {
		if n < minFullUses {
			continue
		}
		sur, given, _ := strings.Cut(k, " ")
		if fam.given[sur] == nil {
			fam.given[sur] = map[string]string{}
		}
		g := givenNames[given]
		if g == "" {
			g = titleGender[k]
		}
		fam.given[sur][given] = g
	}
	return fam
}

// pluralMisses finds "Miss Steeles" and "Misses Dashwood".
var pluralMisses = regexp.MustCompile(`\bMiss(es)? ([A-Z][a-z]+)\b`)

// sistersIn finds the surnames of several sisters: "Misses Dashwood", or
// "Miss Steeles" where the text also writes "Miss Steele" (so "Miss
// Harris" is one woman).
func sistersIn(text string) map[string]bool {
	single := map[string]bool{}
	var plural []string
	for _, m := range pluralMisses.FindAllStringSubmatch(text, -1) {
		sur := strings.ToLower(m[2])
		switch {
		case m[1] != "":
			plural = append(plural, sur+"s")
		default:
			single[sur] = true
			if strings.HasSuffix(sur, "s") {
				plural = append(plural, sur)
			}
		}
	}
	out := map[string]bool{}
	for _, p := range plural {
		if sur := strings.TrimSuffix(p, "s"); single[sur] || strings.HasSuffix(p, "ss") {
			out[sur] = true
		}
	}
	return out
}

// shared reports whether the titled surname s ("Mr. Ashby") may be
// another member of the family of the full name l ("Robert Ashby", or a
// wife's "Mrs. Lovell Mingott" for "Mrs. Mingott"): the
// text writes another given name of that surname whose gender does not
// exclude the title's (Tom Ashby), or s is "Miss" and the surname is of
// several sisters. A bare "Mr. Ashby" is then not joined to Robert: the
// eldest, the father or a brother may be meant.
func (fam family) shared(s, l phrase) bool {
	if s.Title == "" || l.Title != "" && (l.Title != s.Title || l.Title != "mrs") || len(s.Words) != 1 || len(l.Words) != 2 || !strings.EqualFold(s.Words[0], l.Words[1]) {
		return false
	}
	if s.Title == "miss" && fam.sisters[strings.ToLower(s.Words[0])] {
		return true
	}
	if !surnameTitles[s.Title] {
		return false
	}
	g := honorifics[s.Title]
	for given, gg := range fam.given[strings.ToLower(s.Words[0])] {
		if given != strings.ToLower(l.Words[0]) && (g == "" || gg == "" || gg == g) {
			return true
		}
	}
	return false
}

// joinRank names a character known as "the Major" (an article and a title)
// by the one titled name the text writes with that title at least
// minFullUses times ("Major Callendar"), joining the group of that name
// if it is cast; with two Majors in the text it stays as it is.
func joinRank(groups []*group, names []occurrence) []*group {
	uses := map[string]int{}
	phr := map[string]phrase{}
	for _, o := range names {
		if p := o.P; p.Title != "" && !p.Article && (len(p.Words) == 1 || fullForm(phrase{Words: p.Words}) || particleSurname(p.Words)) {
			k := normKey(p.Text)
			uses[k]++
			phr[k] = p
		}
	}
	byTitle := map[string][]string{}
	for k, p := range phr {
		if uses[k] >= minFullUses {
			byTitle[p.Title] = append(byTitle[p.Title], k)
		}
	}
	owner := map[string]*group{}
	for _, g := range groups {
		for _, f := range g.forms {
			owner[normKey(f.P.Text)] = g
		}
	}
	gone := map[*group]bool{}
	for _, g := range groups {
		b := bareForm(g)
		if gone[g] || !b.P.Article || b.P.Title != "" || len(b.P.Words) != 1 {
			continue
		}
		title := strings.ToLower(b.P.Words[0])
		holders := byTitle[title]
		if t, ok := titleOfNoun[title]; ok {
			holders = append(holders[:len(holders):len(holders)], byTitle[t]...) // "the Doctor" of Dr. Bull
		}
		if _, ok := honorifics[title]; !ok || len(holders) != 1 {
			continue
		}
		k := holders[0]
		if o := owner[k]; o != nil && o != g {
			if gone[o] {
				continue
			}
			g.forms = append(g.forms, o.forms...)
			gone[o] = true
		}
		f := findForm(g, phr[k])
		if f == nil {
			f = &form{P: phr[k]}
			g.forms = append(g.forms, f)
		}
		g.full = f
	}
	out := groups[:0]
	for _, g := range groups {
		if !gone[g] {
			out = append(out, g)
		}
	}
	return out
}

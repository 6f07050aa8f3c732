package cast

import (
	"sort"
	"strconv"
	"strings"

	"github.com/lectern/lectern/shared/audiobook/spans"
)

// Character is one speaker of the book, the cast list the Characters
// feature reuses.
type Character struct {
	// ID is the slug of Name ("the-mock-turtle"), unique within a cast.
	ID string
	// Name is the name the book uses most in speech tags ("The Queen",
	// "Mr. Darcy").
	Name string
	// Aliases are the other names of the same character, sorted.
	Aliases []string
	// Gender is "female", "male" or "" (unknown).
	Gender string
	// Narrator marks the first-person narrator ("I"), named from how others
	// address them, else "Narrator".
	Narrator bool
	// Mentions counts the times any of the names occurs in the text.
	Mentions int
}

// Names are the character's name and aliases.
func (c Character) Names() []string { return append([]string{c.Name}, c.Aliases...) }

// Extract finds the cast by rules: names beside speech verbs (in tags of
// the dialogue spans sp, and "X said" anywhere in the narration), sentence
// openings filtered out, aliases merged, gender guessed from honorifics and
// nearby pronouns. The order is deterministic: most mentioned first.
func Extract(text string, sp []spans.Span) []Character {
	return newDoc(text, sp).extract()
}

// form is one way the book writes a name, with its evidence.
type form struct {
	P      phrase
	Tags   int // speech tags beside quotations naming it
	Speaks int // "X said" in the narration
	Male   int // pronoun votes after its occurrences
	Female int
	Neuter int
	// KinMale, KinFemale count kinship nouns just before it ("her
	// brother Tom").
	KinMale, KinFemale int
	Gender             string
}

// minSpeaks is how often a name must stand before a speech verb away from
// any quotation to count as a character without a tag of its own.
const minSpeaks = 2

func (d *doc) extract() []Character {
	forms := map[string]*form{}
	get := func(p phrase) *form {
		f := forms[p.Text]
		if f == nil {
			f = &form{P: p}
			forms[p.Text] = f
		}
		return f
	}
	seen := map[string]bool{} // one count per tag, though two lines share it
	for _, l := range d.lines {
		for _, t := range []tag{l.After, l.Before} {
			if !t.OK || t.Pronoun != "" {
				continue
			}
			key := strconv.Itoa(t.Seg) + "|" + t.Name.Text
			if !seen[key] {
				seen[key] = true
				get(t.Name).Tags++
			}
		}
	}
	for _, o := range d.names {
		if o.Speaks {
			get(o.P).Speaks++
		}
	}
	var kept []*form
	for _, f := range forms {
		if f.Tags > 0 || f.Speaks >= minSpeaks {
			kept = append(kept, f)
		}
	}
	byKey := map[string]*form{}
	for _, f := range kept {
		byKey[normKey(f.P.Text)] = f
	}
	for _, o := range d.names {
		if f := byKey[normKey(o.P.Text)]; f != nil && !o.InQuote {
			switch kinBefore(d.text, o.Start) {
			case "male":
				f.KinMale++
			case "female":
				f.KinFemale++
			}
			switch subjectPronounAfter(d.text, o.End) {
			case "male":
				f.Male++
			case "female":
				f.Female++
			case "it":
				f.Neuter++
			}
		}
	}
	males, females := 0, 0
	for _, f := range kept {
		males += f.Male
		females += f.Female
	}
	titles := surnameTitleGenders(d.names)
	for _, f := range kept {
		f.Gender = f.P.gender()
		switch {
		case f.Gender != "":
		case f.KinMale > 0 && f.KinFemale == 0:
			f.Gender = "male"
		case f.KinFemale > 0 && f.KinMale == 0:
			f.Gender = "female"
		case titles.of(f.P) != "":
			f.Gender = titles.of(f.P)
		case givenNameGender(f.P) != "":
			f.Gender = givenNameGender(f.P)
		case f.Neuter < f.Male+f.Female:
			f.Gender = vote(f.Male, f.Female, males, females)
		}
		if f.Gender == "" && f.Neuter <= f.Male+f.Female {
			f.Gender = givenNameGender(f.P)
		}
	}
	apart := d.answering()
	fam := families(d.text, d.names)
	clusters := cluster(kept, fam, apart)
	clusters = joinByFullName(clusters, d.names, fam, apart)
	clusters = joinRank(clusters, d.names)
	fullNames(clusters, d.names)
	chars := make([]Character, 0, len(clusters))
	for _, c := range clusters {
		chars = append(chars, c.character())
	}
	chars, said := d.narrator(chars)
	countMentions(chars, d.names)
	for i := range chars {
		if chars[i].Narrator {
			chars[i].Mentions += said
		}
	}
	return finish(chars)
}

// vote turns the pronoun counts after a name into a gender when they lean
// clearly past the book's own balance (males, females over all names): in
// a book told around a heroine most pronouns near any name are "she", so
// only a share above that balance says female. The bar is never above
// maxShare, so a book of men still finds its men.
func vote(male, female, males, females int) string {
	n := male + female
	if n < 2 || males+females == 0 {
		return ""
	}
	bar := func(all int) float64 {
		return min(maxShare, (1+float64(all)/float64(males+females))/2)
	}
	switch {
	case female >= 2 && float64(female)/float64(n) >= bar(females):
		return "female"
	case male >= 2 && float64(male)/float64(n) >= bar(males):
		return "male"
	}
	return ""
}

// maxShare is the highest share of one gender's pronouns vote asks for:
// a clear majority. The pronouns after a man's name are often a woman's
// he talks to (and the reverse), so asking more (0.85) left Ronny,
// Willoughby and Gino without a gender; on pdnc-dev 0.6 resolves their
// pronoun tags (attribution 74.6 → 74.8%).
const maxShare = 0.6

// group is a set of forms of one character.
type group struct {
	forms []*form
	// full is the fuller name the text uses for a character tagged by one
	// bare word ("Anne Elliot" of "Anne"), if any: its name in the cast.
	full *form
}

func (g *group) gender() string {
	m, f := 0, 0
	for _, x := range g.forms {
		w := 1 + x.Tags + x.Speaks
		switch x.Gender {
		case "male":
			m += w
		case "female":
			f += w
		}
	}
	switch {
	case m > f:
		return "male"
	case f > m:
		return "female"
	}
	return ""
}

func (g *group) character() Character {
	best := g.forms[0]
	for _, f := range g.forms[1:] {
		if better(f, best) {
			best = f
		}
	}
	if g.full != nil {
		best = g.full
	}
	c := Character{Name: displayName(best.P.Text), Gender: g.gender()}
	for _, f := range g.forms {
		if f != best {
			c.Aliases = append(c.Aliases, displayName(f.P.Text))
		}
	}
	sort.Strings(c.Aliases)
	return c
}

// better orders a group's forms for its name: most used in tags, then the
// fuller name, then alphabetically.
func better(a, b *form) bool {
	sa, sb := a.Tags*2+a.Speaks, b.Tags*2+b.Speaks
	if sa != sb {
		return sa > sb
	}
	if la, lb := nameLen(a.P), nameLen(b.P); la != lb {
		return la > lb
	}
	if (a.P.Title != "") != (b.P.Title != "") {
		return a.P.Title != ""
	}
	return a.P.Text < b.P.Text
}

// cluster merges forms of one character, fullest names first, so a short
// form joins the one group it can belong to (a titled surname not the
// full name of one of several of that family: see family.shared; never a
// group with a name that answers it in talk: see answering); a form that fits several
// groups ("Bennet": Mr. or Mrs.) is dropped, except that a lone surname
// goes to the one man among them ("Bingley" is Mr. Bingley, not Miss).
func cluster(forms []*form, fam family, apart answerers) []*group {
	sort.Slice(forms, func(i, j int) bool {
		a, b := forms[i], forms[j]
		if la, lb := nameLen(a.P), nameLen(b.P); la != lb {
			return la > lb
		}
		if (a.P.Title != "") != (b.P.Title != "") {
			return a.P.Title != ""
		}
		if sa, sb := a.Tags+a.Speaks, b.Tags+b.Speaks; sa != sb {
			return sa > sb
		}
		return a.P.Text < b.P.Text
	})
	var groups []*group
	for _, f := range forms {
		var fits []*group
		for _, g := range groups {
			for _, x := range g.forms {
				if sameAs(f.P, x.P, g.gender()) && !fam.shared(f.P, x.P) && !apart.any(f, g) {
					fits = append(fits, g)
					break
				}
			}
		}
		switch {
		case len(fits) == 0:
			groups = append(groups, &group{forms: []*form{f}})
		case len(fits) == 1:
			fits[0].forms = append(fits[0].forms, f)
		default:
			if g := onlyMan(fits, f.P); g != nil {
				g.forms = append(g.forms, f)
			}
		}
	}
	return groups
}

// onlyMan is the one group of men among fits, for a lone bare surname.
func onlyMan(fits []*group, p phrase) *group {
	if p.Title != "" || p.Article || len(p.Words) != 1 {
		return nil
	}
	var man *group
	for _, g := range fits {
		if g.gender() == "male" {
			if man != nil {
				return nil
			}
			man = g
		}
	}
	return man
}

// nameLen is how full a name is: its words, the parts of a hyphenated one
// each (a title only breaks ties, so Fitzwilliam Darcy is fuller than Mr.
// Darcy).
func nameLen(p phrase) int {
	n := len(p.Words)
	for _, w := range p.Words {
		n += strings.Count(w, "-")
	}
	return n
}

// sameAs reports whether the form s can name the same character as the
// fuller form l, whose group has gender lg.
func sameAs(s, l phrase, lg string) bool {
	if s.Title != "" && l.Title != "" && s.Title != l.Title {
		return false // Mr. Bennet is not Mrs. Bennet
	}
	if s.Title == "" && !s.Article && len(s.Words) == 1 && len(l.Words) == 1 && honorifics[l.Title] == "female" && surnameTitles[l.Title] {
		// A bare surname in a novel is a man's: "Denham" is not Mrs. Denham.
		return false
	}
	if s.Title == "mrs" && l.Title == "" && len(l.Words) > len(s.Words) {
		// Mrs. Miller is Daisy Miller's mother more often than Daisy
		// married: a given name with the surname says a daughter.
		return false
	}
	titleFits := func(forSurname bool) bool {
		switch {
		case s.Title == l.Title || s.Title == "":
			return true
		case l.Title != "":
			return false
		}
		// A title on the short form, none on the full name: Mr. Darcy of
		// Fitzwilliam Darcy needs the full name's gender to agree.
		g := honorifics[s.Title]
		if forSurname != surnameTitles[s.Title] && s.Title != "miss" {
			return false
		}
		return lg != "" && (g == "" || g == lg)
	}
	sw, lw := lowerAll(s.Words), lowerAll(l.Words)
	switch {
	case equalWords(sw, lw):
		return titleFits(true) || titleFits(false)
	case len(sw) == 1 && len(lw) == 1 && strings.HasSuffix(lw[0], "-"+sw[0]):
		return titleFits(true) // "the Footman" of "the Frog-Footman"
	case len(sw) >= len(lw):
		return false
	case equalWords(sw, lw[len(lw)-len(sw):]) && (!connectors[lw[len(lw)-len(sw)-1]] || len(lw)-len(sw) == 1):
		// (a particle opening the full name is the surname's: Griers of
		// De Griers; "Hearts" of "the King of Hearts" is not the King)
		return titleFits(true) // the surname, or "the Rabbit" of "the White Rabbit"
	case equalWords(sw, lw[:len(sw)]) && (connectors[lw[len(sw)]] || !s.Article && !l.Article):
		return titleFits(false) // the given name, or "the King" of "the King of Hearts"
	}
	return false
}

func lowerAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = strings.ToLower(w)
	}
	return out
}

func equalWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// countMentions counts, per character, the name phrases of the text that
// are one of its names.
func countMentions(chars []Character, names []occurrence) {
	idx := map[string]int{}
	for i, c := range chars {
		for _, n := range c.Names() {
			idx[normKey(n)] = i
		}
	}
	for _, o := range names {
		if i, ok := idx[normKey(o.P.Text)]; ok {
			chars[i].Mentions++
		}
	}
}

// finish orders a cast (most mentioned first, then by name) and gives each
// character its id, the slug of its name made unique.
func finish(chars []Character) []Character {
	sort.SliceStable(chars, func(i, j int) bool {
		if chars[i].Mentions != chars[j].Mentions {
			return chars[i].Mentions > chars[j].Mentions
		}
		return chars[i].Name < chars[j].Name
	})
	used := map[string]int{}
	for i := range chars {
		id := slug(chars[i].Name)
		used[id]++
		if n := used[id]; n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		chars[i].ID = id
	}
	return chars
}

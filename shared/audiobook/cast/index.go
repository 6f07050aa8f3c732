package cast

import (
	"strings"
)

// castIndex finds the character a name refers to: exactly by any of its
// names, else by the alias rules of extraction ("the Rabbit" is "The White
// Rabbit" when no other Rabbit is cast).
type castIndex struct {
	chars []Character
	byKey map[string]int
	forms [][]phrase // per character: its names as phrases
}

func newCastIndex(cast []Character) *castIndex {
	ci := &castIndex{chars: cast, byKey: map[string]int{}, forms: make([][]phrase, len(cast))}
	for i, c := range cast {
		for _, n := range c.Names() {
			k := normKey(n)
			if k == "" {
				continue
			}
			if _, taken := ci.byKey[k]; !taken {
				ci.byKey[k] = i
			}
			if p, ok := parseName(n); ok {
				ci.forms[i] = append(ci.forms[i], p)
			}
		}
	}
	return ci
}

// parseName reads a cast name (trusted, so no lexicon check) as a phrase.
func parseName(name string) (phrase, bool) {
	f := strings.Fields(strings.ReplaceAll(name, ".", ". "))
	var p phrase
	if len(f) > 1 && strings.EqualFold(f[0], "the") {
		p.Article = true
		f = f[1:]
	}
	if len(f) > 1 {
		if _, ok := honorifics[strings.ToLower(f[0])]; ok && !p.Article {
			p.Title = strings.ToLower(f[0])
			f = f[1:]
			if len(f) > 0 && f[0] == "." {
				f = f[1:]
			}
		}
	}
	for _, w := range f {
		w = strings.TrimSuffix(w, ".")
		if w != "" {
			p.Words = append(p.Words, w)
		}
	}
	if len(p.Words) == 0 {
		return phrase{}, false
	}
	p.Text = p.render()
	return p, true
}

// resolve is the index of the character p names, or -1.
func (ci *castIndex) resolve(p phrase) int {
	if i, ok := ci.byKey[normKey(p.Text)]; ok {
		return i
	}
	var fits []int
	for i, forms := range ci.forms {
		g := ci.chars[i].Gender
		for _, f := range forms {
			if sameAs(p, f, g) || sameAs(f, p, g) {
				fits = append(fits, i)
				break
			}
		}
	}
	switch {
	case len(fits) == 1:
		return fits[0]
	case len(fits) > 1 && p.Title == "" && !p.Article && len(p.Words) == 1:
		man := -1
		for _, i := range fits {
			if ci.chars[i].Gender == "male" {
				if man >= 0 {
					return -1
				}
				man = i
			}
		}
		return man
	}
	return -1
}

// resolveName is resolve for a name given as a string (an LLM's answer).
func (ci *castIndex) resolveName(name string) int {
	if i, ok := ci.byKey[normKey(name)]; ok {
		return i
	}
	p, ok := parseName(name)
	if !ok {
		return -1
	}
	return ci.resolve(p)
}

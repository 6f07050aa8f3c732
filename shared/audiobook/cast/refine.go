package cast

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

var refineSchema = map[string]any{
	"type":                 "object",
	"additionalProperties": false,
	"required":             []any{"characters", "not_characters"},
	"properties": map[string]any{
		"characters": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type":                 "object",
				"additionalProperties": false,
				"required":             []any{"name", "aliases", "gender"},
				"properties": map[string]any{
					"name":    map[string]any{"type": "string"},
					"aliases": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
					"gender":  map[string]any{"type": "string", "enum": []any{"female", "male", "unknown"}},
				},
			},
		},
		"not_characters": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	},
}

const refineSystem = `You clean the cast list of a novel found by rules. Merge entries naming the same character (the others become aliases), fix names, give each a gender (female, male or unknown), and list under not_characters entries that are not characters. Use only names written in the text; never invent one.`

type refineAnswer struct {
	Characters []struct {
		Name    string   `json:"name"`
		Aliases []string `json:"aliases"`
		Gender  string   `json:"gender"`
	} `json:"characters"`
	NotCharacters []string `json:"not_characters"`
}

// Refine asks the LLM to merge aliases, fix names and add genders to a cast
// found by rules, with sample (a stretch of the book the caller picks) as
// evidence. Only names already in the cast or written in sample are
// accepted; characters the LLM leaves out are kept; one it lists under
// not_characters is dropped. The result is ordered and given ids like
// Extract's.
func Refine(ctx context.Context, llm LLM, cast []Character, sample string) ([]Character, error) {
	if llm == nil {
		return nil, ErrNoLLM
	}
	var user strings.Builder
	user.WriteString("Cast found by rules (name; aliases; gender; mentions):\n")
	for _, c := range cast {
		g := c.Gender
		if g == "" {
			g = "unknown"
		}
		fmt.Fprintf(&user, "- %s; %s; %s; %d\n", c.Name, strings.Join(c.Aliases, ", "), g, c.Mentions)
	}
	user.WriteString("\nText:\n" + sample)
	raw, err := llm.ChatSchema(ctx, refineSystem, user.String(), "cast", refineSchema)
	if err != nil {
		return nil, fmt.Errorf("refine cast of %d: %w: %w", len(cast), ErrUpstream, err)
	}
	v, ok := looseJSON(raw)
	if !ok {
		return nil, fmt.Errorf("refine cast: unreadable answer: %w", ErrUpstream)
	}
	b, _ := json.Marshal(v)
	var ans refineAnswer
	if err := json.Unmarshal(b, &ans); err != nil {
		return nil, fmt.Errorf("refine cast: %w: %w", ErrUpstream, err)
	}
	return applyRefine(cast, sample, ans), nil
}

// applyRefine merges the LLM's answer into the cast, accepting only names
// the cast or the sample holds.
func applyRefine(cast []Character, sample string, ans refineAnswer) []Character {
	owner := map[string]int{} // normKey of a name → index in cast
	for i, c := range cast {
		for _, n := range c.Names() {
			if _, ok := owner[normKey(n)]; !ok {
				owner[normKey(n)] = i
			}
		}
	}
	known := func(n string) bool {
		_, ok := owner[normKey(n)]
		return ok || occursIn(sample, n)
	}
	used := make([]bool, len(cast))
	var out []Character
	for _, e := range ans.Characters {
		var names []string
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if n = strings.TrimSpace(n); n != "" && known(n) {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			continue // nothing the text holds
		}
		var merged []int
		for _, n := range names {
			if i, ok := owner[normKey(n)]; ok && !used[i] && !containsInt(merged, i) {
				merged = append(merged, i)
			}
		}
		c := Character{Name: names[0]}
		if len(merged) == 0 {
			if !occursIn(sample, names[0]) {
				continue
			}
			c.Mentions = countIn(sample, names[0])
		}
		var all []string
		for _, i := range merged {
			used[i] = true
			c.Mentions += cast[i].Mentions
			c.Narrator = c.Narrator || cast[i].Narrator
			all = append(all, cast[i].Names()...)
			if c.Gender == "" {
				c.Gender = cast[i].Gender
			}
		}
		if e.Gender == "female" || e.Gender == "male" {
			c.Gender = e.Gender
		}
		c.Aliases = uniqueNames(append(all, names[1:]...), c.Name)
		out = append(out, c)
	}
	drop := map[string]bool{}
	for _, n := range ans.NotCharacters {
		drop[normKey(n)] = true
	}
	for i, c := range cast {
		if !used[i] && !drop[normKey(c.Name)] {
			out = append(out, c)
		}
	}
	return finish(out)
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// uniqueNames drops duplicates (by normKey) and the name itself, sorted.
func uniqueNames(names []string, name string) []string {
	seen := map[string]bool{normKey(name): true}
	var out []string
	for _, n := range names {
		if k := normKey(n); !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// occursIn reports whether name is written in text as whole words (a
// leading article optional, case of the article ignored).
func occursIn(text, name string) bool { return countIn(text, name) > 0 }

// countIn counts whole-word occurrences of name in text (line breaks
// read as spaces), its leading article dropped.
func countIn(text, name string) int {
	n := 0
	wordHits(strings.Join(strings.Fields(text), " "), name, func(int) bool { n++; return true })
	return n
}

// wordHits calls each with the offset of every whole-word occurrence of
// name (its leading article dropped) in text, until each returns false.
func wordHits(text, name string, each func(at int) bool) {
	f := strings.Fields(name)
	if len(f) > 1 && strings.EqualFold(f[0], "the") {
		f = f[1:]
	}
	needle := strings.Join(f, " ")
	for i := 0; needle != ""; {
		j := strings.Index(text[i:], needle)
		if j < 0 {
			return
		}
		a := i + j
		if wordEdge(text, a, true) && wordEdge(text, a+len(needle), false) && !each(a) {
			return
		}
		i = a + 1
	}
}

// wordEdge reports whether position p of s is the start (or end) of a word.
func wordEdge(s string, p int, start bool) bool {
	var r rune
	if start {
		if p == 0 {
			return true
		}
		r, _ = utf8.DecodeLastRuneInString(s[:p])
	} else {
		if p >= len(s) {
			return true
		}
		r, _ = utf8.DecodeRuneInString(s[p:])
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// RefineSample picks the evidence Refine sends: the paragraphs where the
// cast's names first occur, most mentioned character first, in text order,
// within limit bytes.
func RefineSample(text string, cast []Character, limit int) string {
	paras := paragraphs(text)
	picked := map[int]bool{}
	size := 0
	for _, c := range cast {
		first := -1
		for _, n := range c.Names() {
			if i := firstWordAt(text, n); i >= 0 && (first < 0 || i < first) {
				first = i
			}
		}
		if first < 0 {
			continue
		}
		p := sort.Search(len(paras), func(k int) bool { return paras[k].End > first })
		if p == len(paras) || picked[p] {
			continue
		}
		n := paras[p].End - paras[p].Start + 2
		if size+n > limit {
			continue
		}
		picked[p] = true
		size += n
	}
	var b strings.Builder
	for p := range paras {
		if picked[p] {
			if b.Len() > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(text[paras[p].Start:paras[p].End])
		}
	}
	return b.String()
}

// firstWordAt is the offset of the first whole-word occurrence of name
// (its article dropped), or -1.
func firstWordAt(text, name string) int {
	at := -1
	wordHits(text, name, func(a int) bool { at = a; return false })
	return at
}

package cast

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// vocatives are the cast names of the characters line i speaks to by name:
// a name standing between a comma (or the quotation's start, or "dear",
// "oh") and a comma or a sentence end ("…, Eleanor." / "My dear Hartley,
// …"). Such a name is the addressee, never the speaker.
func (d *doc) vocatives(ci *castIndex, i int) []string {
	l := d.lines[i]
	s, e := l.Inner[0], l.Inner[1]
	var out []string
	k := sort.Search(len(d.names), func(k int) bool { return d.names[k].Start >= s })
	for ; k < len(d.names) && d.names[k].End <= e; k++ {
		o := d.names[k]
		if !vocativeAt(d.text, s, e, o.Start, o.End) {
			continue
		}
		if c := ci.resolve(o.P); c >= 0 {
			out = append(out, ci.chars[c].Name)
		}
	}
	return out
}

// vocativeOpeners may stand right before a name spoken to.
var vocativeOpeners = setOf("dear", "dearest", "oh", "o", "ah", "my", "poor", "good")

// vocativeAt reports whether the name at [ns, ne) inside the quotation
// [s, e) stands in vocative position.
func vocativeAt(text string, s, e, ns, ne int) bool {
	before := strings.TrimRightFunc(text[s:ns], unicode.IsSpace)
	opened := before == "" || strings.HasSuffix(before, ",") || strings.HasSuffix(before, "!")
	if !opened {
		w := before[strings.LastIndexFunc(before, func(r rune) bool { return !unicode.IsLetter(r) })+1:]
		opened = vocativeOpeners[strings.ToLower(w)]
	}
	if !opened {
		return false
	}
	after := strings.TrimLeftFunc(text[ne:e], unicode.IsSpace)
	if after == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(after)
	return strings.ContainsRune(",.!?;—-", r)
}

// namedIn are the cast names of the characters line i names, in vocative
// position or not.
func (d *doc) namedIn(ci *castIndex, i int) []string {
	l := d.lines[i]
	var out []string
	k := sort.Search(len(d.names), func(k int) bool { return d.names[k].Start >= l.Inner[0] })
	for ; k < len(d.names) && d.names[k].End <= l.Inner[1]; k++ {
		if c := ci.resolve(d.names[k].P); c >= 0 {
			out = append(out, ci.chars[c].Name)
		}
	}
	return out
}

// addressWords say the gender of the one a line speaks to: "Yes, sir.",
// "Indeed, madam,".
var addressWords = map[string]string{"sir": "male", "madam": "female", "ma'am": "female", "ma’am": "female", "mum": "female"}

// addressedGender is the gender the words of address in line i say its
// listener has ("", when none or both).
func (d *doc) addressedGender(i int) string {
	l := d.lines[i]
	toks := tokenize(d.text, l.Inner[0], l.Inner[1])
	g := ""
	for k, t := range toks {
		w, ok := addressWords[strings.ToLower(t.Text)]
		if !ok || !t.Word || k == 0 || toks[k-1].Text != "," && !strings.EqualFold(toks[k-1].Text, "dear") {
			continue
		}
		if g != "" && g != w {
			return ""
		}
		g = w
	}
	return g
}

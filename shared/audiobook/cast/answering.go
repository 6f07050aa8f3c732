package cast

// answerers holds pairs of names (normKey, in either order) that tag two
// lines in a row of one conversation, in separate paragraphs: one answers
// the other, so they name two people ("said Mr. Ashby" … "said Robert
// Ashby" are brothers, whatever their shared surname suggests). Nobody
// answers himself under another name.
type answerers map[[2]string]bool

// minAnswers is how often two names must answer each other to be kept
// apart: once may be a tag misread.
const minAnswers = 2

// answering collects the answerers of the book: each line's named tag
// against the next line's, when the next line opens a new paragraph and
// does not carry on the same quotation.
func (d *doc) answering() answerers {
	n := map[[2]string]int{}
	for i := 1; i < len(d.lines); i++ {
		prev, cur := d.lines[i-1], d.lines[i]
		if prev.Para == cur.Para || cur.ContinuesQuote {
			continue
		}
		p, c := namedTag(prev), namedTag(cur)
		if p == "" || c == "" || p == c {
			continue
		}
		n[[2]string{p, c}]++
		n[[2]string{c, p}]++
	}
	a := answerers{}
	for k, v := range n {
		if v >= minAnswers {
			a[k] = true
		}
	}
	return a
}

// namedTag is the normKey of the name in a line's tag, "" when the line
// has none or a pronoun or description.
func namedTag(l line) string {
	for _, t := range []tag{l.After} {
		if t.OK && t.Pronoun == "" && len(t.Name.Words) > 0 {
			return normKey(t.Name.Text)
		}
	}
	return ""
}

// any reports whether f answers a form of g.
func (a answerers) any(f *form, g *group) bool {
	k := normKey(f.P.Text)
	for _, x := range g.forms {
		if a[[2]string{k, normKey(x.P.Text)}] {
			return true
		}
	}
	return false
}

// groups reports whether any form of g answers a form of h.
func (a answerers) groups(g, h *group) bool {
	for _, f := range g.forms {
		if a.any(f, h) {
			return true
		}
	}
	return false
}

package spans

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/audiobook/book"
)

// family is the kind of quotation mark a book speaks with.
type family int

const (
	doubles family = iota // " “ ”
	singles               // ' ‘ ’
)

// role is what one mark does where it stands.
type role int

const (
	none      role = iota // not a quotation mark here: an apostrophe, an elision
	opens                 // opens a quotation
	closes                // closes one
	either                // opens when none is open, else closes (a straight mark between two non-spaces)
	weakClose             // single mode: after a letter (dogs' tails, o' the); closes only when nothing better does
	elided                // single mode: before an elision ('tis, 'em); opens only speech that a mark then closes
)

// maxEmbedded bounds how many embedded paragraphs (verse, an address, a
// song: each indented, opening with a nested mark or set as verse) a
// quotation may carry before the paragraph that closes it.
const maxEmbedded = 8

// isMark reports whether s begins with a quotation mark of either family.
func isMark(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isMarkRune(r)
}

// leadingElisions are words written with an apostrophe in front: a single
// mark before one of them is not an opening quotation mark. Words that
// often begin speech ("Round", "Till", "As") are left out on purpose.
var leadingElisions = map[string]bool{
	"tis": true, "twas": true, "twere": true, "twill": true, "twould": true, "tain": true,
	"em": true, "n": true, "cause": true, "cos": true, "bout": true, "til": true,
	"un": true, "uns": true, "ee": true, "im": true, "er": true, "ere": true,
	"ave": true, "e": true, "ow": true, "ome": true, "appen": true, "nough": true, "neath": true,
	"gainst": true, "mongst": true, "midst": true, "twixt": true, "prentice": true, "spect": true,
	"fraid": true, "ad": true, "ouse": true, "alf": true, "ello": true, "ollo": true,
	"s": true, "d": true, "ll": true, "re": true, "ve": true, "m": true, "t": true,
}

// leadingElision reports whether the text after a single mark at the start
// of a word makes an elision ('tis, 'em, 'n', '45).
func leadingElision(after string) bool {
	r, _ := utf8.DecodeRuneInString(after)
	if unicode.IsDigit(r) {
		return true
	}
	end := strings.IndexFunc(after, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(after)
	}
	return end > 0 && leadingElisions[strings.ToLower(after[:end])]
}

// classify says what the mark m at s[i:] does, given the family the book
// speaks with, from the characters on either side. para is the
// paragraph's first byte: nothing is before it.
func classify(s string, i, para int, m rune, fam family) role {
	// Italics and bold marked with _ and * are looked through:
	// '_You are old_' is a quotation, ''_Tis an elision in one.
	var prev rune = ' '
	if before := strings.TrimRight(s[para:i], "_*"); before != "" {
		prev, _ = utf8.DecodeLastRuneInString(before)
	}
	var next rune = ' '
	after := strings.TrimLeft(s[i+utf8.RuneLen(m):], "_*")
	if after != "" {
		next, _ = utf8.DecodeRuneInString(after)
	}
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	sp, sn := unicode.IsSpace(prev), unicode.IsSpace(next)
	if !marksOf(m, fam) {
		return none
	}
	switch m {
	case '“':
		return opens
	case '”':
		return closes
	case '"':
		switch {
		case sp && sn:
			return either
		case sn:
			return closes // word" said, ," he, --" and
		case sp || strings.ContainsRune("([{", prev):
			return opens
		case !word(next) && !strings.ContainsRune("([{'‘…", next):
			return closes // "Yes", "No!"--
		}
		return either
	case '‘':
		switch {
		case word(prev):
			return none
		case leadingElision(after):
			return elided
		}
		return opens
	}
	// ' and ’: quotation mark, apostrophe or elision.
	wp, wn := word(prev), word(next)
	switch {
	case wp && wn:
		return none // don't, o'clock
	case !wp && leadingElision(after):
		if sp && m == '\'' {
			return elided // 'Tis at a word's start: an elision, or speech beginning with one
		}
		return none // ''Tis (the second), ’em, '45
	case wp:
		return weakClose // dogs' tails, o' the, goin'
	case sp:
		if sn || m == '’' {
			return none // a stray mark; ’ after a space is an elision's
		}
		return opens
	case wn && m == '\'':
		return either // --'Twinkle, or a close before a word with no space
	}
	return closes
}

func isMarkRune(r rune) bool {
	switch r {
	case '"', '\'', '“', '”', '‘', '’':
		return true
	}
	return false
}

// marksOf reports whether r is a mark of family fam.
func marksOf(r rune, fam family) bool {
	if fam == doubles {
		return r == '"' || r == '“' || r == '”'
	}
	return r == '\'' || r == '‘' || r == '’'
}

// para is one paragraph: [start, end) from its first to its last
// non-space byte, and whether its first line is indented.
type para struct {
	start, end int
	indented   bool
}

// textLine is one line of a chapter: [first, last) its text without the
// spaces around it (first == last on a blank line), indented when spaces
// come before it.
type textLine struct {
	first, last int
	indented    bool
}

func (l textLine) blank() bool { return l.first == l.last }

// How paragraphs are told apart in a chapter.
const (
	byBlankLine = iota // hard-wrapped text, our EPUB text
	byLine             // one paragraph a line
	byIndent           // hard-wrapped, no blank lines, paragraphs indented
)

// paragraphMode decides how a chapter marks its paragraphs: by blank lines
// unless its lines are whole paragraphs (a fifth of them or more longer
// than hard-wrapped text or verse has) that mostly follow each other with
// no blank line between; with no blank line at all, by indentation when
// hard-wrapped lines are indented, else one a line.
func paragraphMode(ls []textLine) int {
	nonBlank, long, soft, blanks := 0, 0, 0, 0
	for k, l := range ls {
		if l.blank() {
			if k > 0 && !ls[k-1].blank() {
				blanks++
			}
			continue
		}
		nonBlank++
		if l.last-l.first > 100 {
			long++
		}
		if k > 0 && !ls[k-1].blank() {
			soft++
		}
	}
	wholeLines := long*5 >= nonBlank
	indented := 0
	for _, l := range ls {
		if l.indented && !l.blank() {
			indented++
		}
	}
	switch {
	case blanks > 0 && (soft <= blanks || !wholeLines):
		return byBlankLine
	case blanks == 0 && !wholeLines && indented >= 2:
		return byIndent
	}
	return byLine
}

// paragraphs finds the paragraphs of chapter text s (see paragraphMode).
func paragraphs(s string) []para {
	var ls []textLine
	for at := 0; at <= len(s); {
		end := len(s)
		if nl := strings.IndexByte(s[at:], '\n'); nl >= 0 {
			end = at + nl
		}
		line := s[at:end]
		trimmed := strings.TrimSpace(line)
		first := at + strings.Index(line, trimmed)
		ls = append(ls, textLine{first: first, last: first + len(trimmed), indented: first > at})
		at = end + 1
	}
	mode := paragraphMode(ls)
	var out []para
	cur := para{start: -1}
	for _, l := range ls {
		if cur.start >= 0 && (l.blank() || mode == byLine || (mode == byIndent && l.indented)) {
			out = append(out, cur)
			cur = para{start: -1}
		}
		if l.blank() {
			continue
		}
		if cur.start < 0 {
			cur = para{start: l.first, indented: l.indented}
		}
		cur.end = l.last
	}
	if cur.start >= 0 {
		out = append(out, cur)
	}
	return out
}

// dialogue is one quotation's stretch within a paragraph.
type dialogue struct {
	start, end          int
	unclosed, continues bool
}

// mark is one quotation mark of the book's family and its role.
type mark struct {
	at, size int
	role     role
	// lower: a single mark before a small letter, which inside speech is
	// an elision the list does not know ('osses, 'alf), not a quotation.
	lower bool
}

// marksIn lists the marks of family fam in paragraph p of s.
func marksIn(s string, p para, fam family) []mark {
	var out []mark
	for i := p.start; i < p.end; i++ {
		// Every mark begins with one of these bytes (“ ” ‘ ’ with 0xE2).
		if c := s[i]; c != '"' && c != '\'' && c != 0xE2 {
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !marksOf(r, fam) {
			continue
		}
		if ro := classify(s, i, p.start, r, fam); ro != none {
			next, _ := utf8.DecodeRuneInString(strings.TrimLeft(s[i+n:], "_*"))
			out = append(out, mark{at: i, size: n, role: ro, lower: fam == singles && unicode.IsLower(next)})
		}
		i += n - 1
	}
	return out
}

// reopens reports whether paragraph p opens with a mark that continues a
// quotation left open by the paragraph before.
func reopens(s string, p para, fam family) bool {
	ms := marksIn(s, p, fam)
	return len(ms) > 0 && ms[0].at == p.start && (ms[0].role == opens || ms[0].role == either)
}

// embedded reports, for a quotation left open at the end of paragraph i
// whose next paragraph does not reopen it, the index of the paragraph that
// closes it when the paragraphs between are an embedded block (each
// indented, opening with a nested mark or set as verse, with no mark of
// the book's family) and that paragraph's first mark closes; with no
// paragraph between, both must be stanzas of verse. Otherwise -1: the
// quotation is unclosed.
func embedded(s string, ps []para, i int, fam family) int {
	for j := i + 1; j < len(ps) && j <= i+maxEmbedded+1; j++ {
		ms := marksIn(s, ps[j], fam)
		first := role(none)
		for _, m := range ms {
			if m.role != weakClose && m.role != elided {
				first = m.role
				break
			}
		}
		stanzas := verse(s[ps[i].start:ps[i].end]) && verse(s[ps[j].start:ps[j].end])
		if (j > i+1 || stanzas) && (first == closes || first == either) {
			return j
		}
		r, _ := utf8.DecodeRuneInString(s[ps[j].start:])
		block := ps[j].indented || (isMarkRune(r) && !marksOf(r, fam)) || verse(s[ps[j].start:ps[j].end])
		if first != none || !block {
			return -1
		}
	}
	return -1
}

// state is a quotation being read through one paragraph.
type state struct {
	open   bool
	cur    dialogue
	depth  int // 1 inside the quotation, more inside same-family nested ones
	weak   int // end of the last weak closing candidate, or -1
	nested int // index in the paragraph's marks of the first nested opening, or -1
}

// read reads marks ms of one paragraph from state st, returning the
// quotations closed in it and the state at the paragraph's end.
func read(ms []mark, st state) ([]dialogue, state) {
	var out []dialogue
	for k, m := range ms {
		switch {
		case !st.open && (m.role == opens || m.role == either || (m.role == elided && closedLater(ms[k+1:]))):
			st = state{open: true, cur: dialogue{start: m.at}, depth: 1, weak: -1, nested: -1}
		case m.role == elided:
			// an elision in narration, or inside speech
		case !st.open:
			// an orphan closing mark: narration
		case m.role == closes || m.role == either:
			if st.depth--; st.depth == 0 {
				st.cur.end = m.at + m.size
				out = append(out, st.cur)
				st.open = false
			}
		case m.role == weakClose:
			if st.depth == 1 {
				st.weak = m.at + m.size
			}
		case m.role == opens && st.weak >= 0 && st.depth == 1:
			// 'Bring the dogs' she said, 'now': the weak candidate closed it.
			st.cur.end = st.weak
			out = append(out, st.cur)
			st = state{open: true, cur: dialogue{start: m.at}, depth: 1, weak: -1, nested: -1}
		case m.role == opens && m.lower:
			// an elision inside speech
		case m.role == opens:
			// A quotation inside the quotation with the same marks, or a
			// quotation that was never closed: told apart at the end of
			// the paragraph.
			if st.nested < 0 {
				st.nested = k
			}
			st.depth++
		}
	}
	return out, st
}

// verse reports whether a paragraph is set as verse: two lines or more,
// each short or indented.
func verse(p string) bool {
	lines := strings.Split(p, "\n")
	if len(lines) < 2 {
		return false
	}
	for k, l := range lines {
		if len(strings.TrimSpace(l)) > 60 && (k == 0 || !unicode.IsSpace(rune(l[0]))) {
			return false
		}
	}
	return true
}

// withoutLineOpenings drops the opening marks that begin a line inside
// paragraph p (not its first line).
func withoutLineOpenings(s string, p para, ms []mark) []mark {
	var out []mark
	for _, m := range ms {
		lineStart := strings.TrimRight(s[:m.at], " \t")
		if m.at != p.start && m.role == opens && strings.HasSuffix(lineStart, "\n") {
			continue
		}
		out = append(out, m)
	}
	return out
}

// speechVerbs are the verbs of speech tags ("he said", "cried the Rat").
var speechVerbs = map[string]bool{
	"said": true, "says": true, "say": true, "asked": true, "asks": true, "cried": true, "replied": true,
	"answered": true, "shouted": true, "whispered": true, "muttered": true, "exclaimed": true, "called": true,
	"added": true, "began": true, "continued": true, "remarked": true, "observed": true, "repeated": true,
	"thought": true, "returned": true, "rejoined": true, "inquired": true, "enquired": true, "murmured": true,
	"screamed": true, "yelled": true, "sighed": true, "laughed": true, "snapped": true, "retorted": true,
	"declared": true, "demanded": true, "interrupted": true, "suggested": true, "explained": true,
	"agreed": true, "roared": true, "growled": true, "pleaded": true, "begged": true, "went": true,
}

// tagFollows reports whether text after a closing candidate starts with a
// speech tag: a speech verb among its first three words.
func tagFollows(rest string) bool {
	ws := strings.Fields(rest[:min(len(rest), 60)])
	for k := 0; k < len(ws) && k < 3; k++ {
		if speechVerbs[strings.ToLower(strings.TrimFunc(ws[k], func(r rune) bool { return !unicode.IsLetter(r) }))] {
			return true
		}
	}
	return false
}

// closedLater reports whether the next mark that opens or closes, in the
// rest of a paragraph's marks, closes: then a mark before an elision
// opened speech ('Tis true,' said he).
func closedLater(rest []mark) bool {
	for _, m := range rest {
		switch m.role {
		case closes, either:
			return true
		case opens:
			return false
		}
	}
	return false
}

// scan finds the dialogue stretches of chapter text s.
func scan(s string, fam family) []dialogue {
	ps := paragraphs(s)
	var out []dialogue
	carry := false // a quotation is open from the paragraph before
	embedEnd := -1 // paragraphs up to this index carry an embedded block
	for pi, p := range ps {
		ms := marksIn(s, p, fam)
		st := state{weak: -1, nested: -1}
		if carry {
			st = state{open: true, cur: dialogue{start: p.start}, depth: 1, weak: -1, nested: -1}
			if pi > embedEnd && len(ms) > 0 && ms[0].at == p.start {
				ms = ms[1:] // the reopening mark belongs to the span
			}
		}
		carry = false
		for {
			got, end := read(ms, st)
			if end.open && end.nested >= 0 {
				// A letter's closing lines each reopen with a mark
				// ("Very truly yours,\n  "IRENE ADLER."): read without the
				// marks that open a line, kept when the quotation then
				// closes right at the paragraph's end.
				if g, e := read(withoutLineOpenings(s, p, ms), st); !e.open && len(g) > 0 && g[len(g)-1].end == p.end {
					got, end = g, e
				}
			}
			out = append(out, got...)
			if !end.open {
				break
			}
			cur := end.cur
			switch {
			case pi < embedEnd:
				cur.end, cur.continues, carry = p.end, true, true
			case end.weak >= 0 && end.depth == 1 && tagFollows(s[end.weak:p.end]):
				// 'I saw the dogs' he said.: closed before the tag even
				// when the next paragraph opens with a mark.
				cur.end = end.weak
			case pi+1 < len(ps) && reopens(s, ps[pi+1], fam):
				cur.end, cur.continues, carry = p.end, true, true
			case end.weak >= 0 && end.depth == 1:
				cur.end = end.weak
			case end.nested >= 0:
				// An opening inside an open quotation that leaves it open
				// at the paragraph's end: the first quotation was never
				// closed. It ends before that opening, and the paragraph
				// is read again from there.
				cur.end = len(strings.TrimRightFunc(s[:ms[end.nested].at], unicode.IsSpace))
				cur.unclosed = true
				out = append(out, cur)
				ms, st = ms[end.nested:], state{weak: -1, nested: -1}
				continue
			default:
				if j := embedded(s, ps, pi, fam); j >= 0 {
					embedEnd = j
					cur.end, cur.continues, carry = p.end, true, true
				} else {
					cur.end, cur.unclosed = p.end, true
				}
			}
			out = append(out, cur)
			break
		}
	}
	return out
}

// familyOf decides which marks the book speaks with: the family with more
// quotations that open and then close in the same paragraph (doubles win a
// tie), so nested quotes of the other family stay inside.
func familyOf(text string) family {
	ps := paragraphs(text)
	count := func(fam family) int {
		n := 0
		for _, p := range ps {
			got, _ := read(marksIn(text, p, fam), state{weak: -1, nested: -1})
			n += len(got)
		}
		return n
	}
	if count(singles) > count(doubles) {
		return singles
	}
	return doubles
}

// Split splits chapter ch of the book whose text is text into spans. The
// dialogue mark (double or single) is decided from the whole text, so Split
// and SplitBook give the same spans.
func Split(text string, ch book.Chapter) []Span {
	return split(text, ch, familyOf(text))
}

// SplitBook splits every chapter of b, in order.
func SplitBook(b book.Book) []Span {
	fam := familyOf(b.Text)
	var out []Span
	for _, ch := range b.Chapters {
		out = append(out, split(b.Text, ch, fam)...)
	}
	return out
}

func split(text string, ch book.Chapter, fam family) []Span {
	s := text[ch.Start:ch.End]
	var out []Span
	add := func(start, end int, k Kind, d dialogue) {
		if start >= end {
			return
		}
		out = append(out, Span{
			ID: SpanID(ch.Index, len(out)), Chapter: ch.Index,
			Start: ch.Start + start, End: ch.Start + end, Kind: k,
			Unclosed: d.unclosed, Continues: d.continues,
		})
	}
	at := 0
	for _, d := range scan(s, fam) {
		add(at, d.start, Narration, dialogue{})
		add(d.start, d.end, Dialogue, d)
		at = d.end
	}
	add(at, len(s), Narration, dialogue{})
	return out
}

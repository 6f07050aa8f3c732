package cast

import (
	"sort"
	"strings"
	"unicode"

	"github.com/lectern/lectern/shared/audiobook/spans"
)

// doc is the book as attribution sees it: paragraphs, the dialogue lines
// with the tags beside them, and every name phrase in the text. It is built
// once per call and only read afterwards.
type doc struct {
	text  string
	lx    *lexicon
	paras []paraRange
	lines []line
	names []occurrence // every name phrase, in text order
}

type paraRange struct{ Start, End int }

// line is one dialogue span.
type line struct {
	Span           spans.Span
	Inner          [2]int
	Para           int
	After, Before  tag // tags in the narration right after and right before
	Loose          tag // with neither, a tag with an unlisted verb after (see looseTag)
	Prev, Next     int // neighbouring lines in the same paragraph, or -1
	PrevGapInPara  bool
	ContinuesQuote bool // the previous line's quotation goes on in this one
}

// tag is a speech tag found beside a line.
type tag struct {
	OK      bool
	Name    phrase // the speaker as named; empty for a pronoun
	Pronoun string // "he", "she", "it", or "i" for the narrator
	Desc    desc   // a description instead of a name: "his wife", "the old man"
	Seg     int    // start of the narration it was read from (identity)
}

// occurrence is a name phrase found in the text.
type occurrence struct {
	P          phrase
	Start, End int
	InQuote    bool
	Speaks     bool   // a strong speech verb follows: "Alice said"
	Answers    bool   // a turn in the talk: Speaks, or "said nothing", "made no answer"
	Pron       string // gender of the first pronoun after it in its sentence
	// Subject: the name opens a clause (after a sentence start, a
	// comma or a conjunction) and is not a possessive, so a pronoun
	// after it more likely means it than a name in object position
	// ("Hallward looked at Dorian. "…," he cried").
	Subject bool
}

// newDoc reads text and its spans. Spans outside the text are left out.
func newDoc(text string, sp []spans.Span) *doc {
	d := &doc{text: text, lx: newLexicon(text), paras: paragraphs(text)}
	for _, s := range sp {
		if s.Kind != spans.Dialogue || s.Start < 0 || s.End > len(text) || s.Start >= s.End {
			continue
		}
		st, en := s.Inner(text)
		d.lines = append(d.lines, line{Span: s, Inner: [2]int{st, en}, Para: d.paraOf(s.Start), Prev: -1, Next: -1})
	}
	sort.SliceStable(d.lines, func(i, j int) bool { return d.lines[i].Span.Start < d.lines[j].Span.Start })
	for i := range d.lines {
		l := &d.lines[i]
		if i > 0 {
			p := d.lines[i-1]
			l.ContinuesQuote = p.Span.Continues && p.Span.Chapter == l.Span.Chapter
			if p.Para == l.Para {
				l.Prev = i - 1
				d.lines[i-1].Next = i
			}
		}
	}
	for i := range d.lines {
		d.lines[i].After = d.afterTag(i)
		d.lines[i].Before = d.beforeTag(i)
		if !d.lines[i].After.OK && !d.lines[i].Before.OK {
			d.lines[i].Loose = d.looseTag(i)
		}
	}
	d.names = d.scanNames()
	return d
}

// paragraphs splits text at blank lines.
func paragraphs(text string) []paraRange {
	var out []paraRange
	start := 0
	i := 0
	for i < len(text) {
		if text[i] != '\n' {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r') {
			j++
		}
		if j < len(text) && text[j] == '\n' {
			for j < len(text) && (text[j] == '\n' || text[j] == ' ' || text[j] == '\t' || text[j] == '\r') {
				j++
			}
			out = append(out, paraRange{start, i})
			start = j
			i = j
			continue
		}
		i = j
	}
	return append(out, paraRange{start, len(text)})
}

// paraOf is the index of the paragraph holding offset x.
func (d *doc) paraOf(x int) int {
	i := sort.Search(len(d.paras), func(i int) bool { return d.paras[i].End > x })
	if i == len(d.paras) {
		return len(d.paras) - 1
	}
	return i
}

// narrationAfter is the narration between line i and the next line of its
// paragraph (or the paragraph's end).
func (d *doc) narrationAfter(i int) (int, int) {
	l := d.lines[i]
	end := d.paras[l.Para].End
	if i+1 < len(d.lines) && d.lines[i+1].Para == l.Para {
		end = d.lines[i+1].Span.Start
	}
	return l.Span.End, max(end, l.Span.End)
}

// narrationBefore is the narration between the previous line of the
// paragraph (or the paragraph's start) and line i.
func (d *doc) narrationBefore(i int) (int, int) {
	l := d.lines[i]
	start := d.paras[l.Para].Start
	if i > 0 && d.lines[i-1].Para == l.Para {
		start = d.lines[i-1].Span.End
	}
	return min(start, l.Span.Start), l.Span.Start
}

// afterTag reads a tag that opens the narration after a line: `said Alice`,
// `the Queen shouted`, `she said`, `replied she`.
func (d *doc) afterTag(i int) tag {
	s, e := d.narrationAfter(i)
	toks := tokenize(d.text, s, e)
	k := 0
	for k < len(toks) && !toks[k].Word && (toks[k].Text == "," || toks[k].Text == "-" || toks[k].Text == "—" || toks[k].Text == "–") {
		k++
	}
	t := d.tagAt(toks, k, true)
	if !t.OK && k < len(toks) && strings.EqualFold(toks[k].Text, "was") {
		t = d.remarkOf(toks, k+1) // "…," was his first remark
	}
	t.Seg = s
	return t
}

// looseTag reads a tag with a verb outside the speech verbs after line i
// when its sentence runs on into the narration: "…," Ronny chattered.
// It names the line's speaker but, being looser, no one to the cast.
func (d *doc) looseTag(i int) tag {
	s, e := d.narrationAfter(i)
	toks := tokenize(d.text, s, e)
	k := 0
	for k < len(toks) && !toks[k].Word && (toks[k].Text == "," || toks[k].Text == "-" || toks[k].Text == "—" || toks[k].Text == "–") {
		k++
	}
	if !d.runsOn(i, toks, k) {
		return tag{}
	}
	t := d.looseTagAt(toks, k)
	t.Seg = s
	return t
}

// runsOn reports whether the sentence of line i runs on into the narration
// after it, as a tag's does: the quotation closes on a comma ("…," Ronny
// chattered), or the narration opens in lower case ("…?" exploded Mr.
// Emerson).
func (d *doc) runsOn(i int, toks []tok, k int) bool {
	in := strings.TrimRight(d.text[d.lines[i].Inner[0]:d.lines[i].Inner[1]], " \t\r\n")
	if strings.HasSuffix(in, ",") {
		return true
	}
	return k < len(toks) && toks[k].Word && !capitalised(toks[k].Text)
}

// looseTagAt reads a tag whose verb is no speech verb of the list but
// stands where a tag's does (after a quotation whose sentence runs on):
// "exploded Mr. Emerson", "Ronny summed up", "she yawned".
func (d *doc) looseTagAt(toks []tok, k int) tag {
	pastTense := func(j int) bool {
		return j < len(toks) && toks[j].Word && !capitalised(toks[j].Text) && strings.HasSuffix(toks[j].Text, "ed")
	}
	if pastTense(k) {
		if p, ok := d.lx.nameAt(toks, k+1); ok && p.first == k+1 && !possessive(toks, p.next) {
			return tag{OK: true, Name: p}
		}
		return tag{}
	}
	if k < len(toks) && toks[k].Word && tagPronouns[strings.ToLower(toks[k].Text)] && pastTense(k+1) {
		return tag{OK: true, Pronoun: strings.ToLower(toks[k].Text)}
	}
	if p, ok := d.lx.nameAt(toks, k); ok && p.first == k && pastTense(p.next) {
		return tag{OK: true, Name: p}
	}
	return tag{}
}

// remarkNouns name a spoken line: "was his first remark", "Julia's answer
// was".
var remarkNouns = setOf("remark", "reply", "answer", "response", "comment", "question",
	"exclamation", "observation", "greeting", "rejoinder", "retort", "words", "salutation")

// remarkOf reads the owner of a remark noun starting at toks[k]: "his
// (first) remark", "Julia's reply"; it returns the tag and whether the
// noun was found.
func (d *doc) remarkOf(toks []tok, k int) tag {
	var t tag
	next := k
	if k < len(toks) && (strings.EqualFold(toks[k].Text, "his") || strings.EqualFold(toks[k].Text, "her")) {
		t = tag{OK: true, Pronoun: map[string]string{"his": "he", "her": "she"}[strings.ToLower(toks[k].Text)]}
		next = k + 1
	} else if p, ok := d.lx.nameAt(toks, k); ok && p.first == k && possessive(toks, p.next) {
		t = tag{OK: true, Name: p}
		next = p.next + 2
	} else {
		return tag{}
	}
	for j := next; j < len(toks) && j <= next+2; j++ {
		if remarkNouns[strings.ToLower(toks[j].Text)] {
			return t
		}
		if !toks[j].Word {
			break
		}
	}
	return tag{}
}

// tagAt reads a tag starting at toks[k]: VERB NAME, VERB PRONOUN, NAME VERB
// or PRONOUN VERB (with up to two adverbs before the verb). inverted allows
// VERB-first tags, which only stand beside a quotation.
func (d *doc) tagAt(toks []tok, k int, inverted bool) tag {
	if k >= len(toks) {
		return tag{}
	}
	if inverted {
		if v, ok := verbAt(toks, k); ok {
			for v < len(toks) && (isAdverb(toks[v]) || epithets[toks[v].Text]) {
				v++
			}
			if v < len(toks) && toks[v].Word {
				if tagPronouns[strings.ToLower(toks[v].Text)] {
					return tag{OK: true, Pronoun: strings.ToLower(toks[v].Text)}
				}
			}
			if p, ok := d.lx.nameAt(toks, v); ok && p.first == v && !possessive(toks, p.next) {
				return tag{OK: true, Name: p}
			}
			// An epithet of the moment before the name: "said dour
			// Major Callendar", "remarked skeptical Anne".
			if v+1 < len(toks) && toks[v].Word && !capitalised(toks[v].Text) && !stopWords[toks[v].Text] &&
				!prepositions[toks[v].Text] && !descDets[toks[v].Text] && !blockers[toks[v].Text] {
				if p, ok := d.lx.nameAt(toks, v+1); ok && p.first == v+1 && !p.Article && !possessive(toks, p.next) {
					return tag{OK: true, Name: p}
				}
			}
			if ds, _, ok := descAt(toks, v); ok {
				return tag{OK: true, Desc: ds}
			}
			return tag{}
		}
	}
	if ds, next, ok := descAt(toks, k); ok && verbAfter(toks, next) {
		return tag{OK: true, Desc: ds}
	}
	if toks[k].Word {
		if tagPronouns[strings.ToLower(toks[k].Text)] {
			if verbAfter(toks, k+1) {
				return tag{OK: true, Pronoun: strings.ToLower(toks[k].Text)}
			}
			return tag{}
		}
	}
	if p, ok := d.lx.nameAt(toks, k); ok && verbAfter(toks, p.next) {
		return tag{OK: true, Name: p}
	}
	return tag{}
}

// beforeTag reads a tag in the sentence that leads into line i:
// `Alice said, "…"`, `…, said the King, "…"` (the second part of an
// interrupted quotation shares the first part's tag), `the Rabbit say to
// itself, "…"`. A tag closed in parentheses before the line is an aside
// about another quotation, not this line's.
func (d *doc) beforeTag(i int) tag {
	s, e := d.narrationBefore(i)
	if strings.TrimSpace(d.text[s:e]) == "" && d.lines[i].Prev < 0 && !d.lines[i].ContinuesQuote {
		s, e = d.introduction(i)
	}
	if p := strings.LastIndexByte(d.text[s:e], ')'); p >= 0 {
		if !hasLetter(d.text[s+p+1 : e]) {
			return tag{} // the tag sits in a parenthesis closed just before
		}
		s += p + 1
	}
	toks := tokenize(d.text, s, e)
	for len(toks) > 0 && !toks[len(toks)-1].Word {
		toks = toks[:len(toks)-1]
	}
	if p := d.lines[i].Prev; p >= 0 && d.lines[p].After.OK && !hasTerminal(toks) {
		return d.lines[p].After // one clause between the parts: their shared tag
	}
	from := 0
	for k := len(toks) - 1; k >= 0; k-- {
		if isTerminal(toks[k]) && !(toks[k].Text == "." && k > 0 && isTitleWord(toks[k-1])) {
			from = k + 1
			break
		}
	}
	sent := toks[from:]
	for len(sent) > 0 && !sent[0].Word {
		sent = sent[1:]
	}
	// "Julia's answer was:" / "his reply was,".
	if n := len(sent); n >= 3 && strings.EqualFold(sent[n-1].Text, "was") && remarkNouns[strings.ToLower(sent[n-2].Text)] {
		for f := max(0, n-6); f < n-2; f++ {
			if t := d.remarkOf(sent, f); t.OK {
				t.Seg = s
				return t
			}
		}
	}
	// The last speech verb of the sentence, close enough to the quotation.
	v := -1
	for k := len(sent) - 1; k >= 0 && len(sent)-k <= 14; k-- {
		if _, ok := verbAt(sent, k); ok {
			v = k
			break
		}
	}
	if v < 0 {
		// No speech verb, but a sentence that introduces the quotation
		// with a colon ("Julia turned to the window:"): its subject.
		if strings.HasSuffix(strings.TrimSpace(d.text[s:e]), ":") && len(sent) > 0 {
			if w := strings.ToLower(sent[0].Text); tagPronouns[w] {
				return tag{OK: true, Pronoun: w, Seg: s}
			}
			if p, ok := d.lx.nameAt(sent, 0); ok && p.first == 0 && !possessive(sent, p.next) {
				return tag{OK: true, Name: p, Seg: s}
			}
		}
		return tag{}
	}
	if t := d.tagAt(sent, v, true); t.OK && onlyAdverbsBefore(sent, v) {
		t.Seg = s
		return t
	}
	// The subject: the name or pronoun nearest before the verb that is not
	// the object of a preposition.
	// A clause set off by commas just before the verb ("and, turning to
	// her sister, said") stands between the subject and its verb.
	top := skipClause(sent, v)
	for k := top - 1; k >= 0 && top-k <= subjectReach; k-- {
		if !sent[k].Word {
			continue
		}
		if strings.EqualFold(sent[k].Text, "who") {
			// "the White Rabbit, who said": the name before "who".
			j := k - 1
			for j >= 0 && !sent[j].Word {
				j--
			}
			if p, ok := d.nameEndingAt(sent, j); ok {
				return tag{OK: true, Name: p, Seg: s}
			}
			return tag{}
		}
		if k > 0 && prepositions[strings.ToLower(sent[k-1].Text)] {
			continue
		}
		if ds, ok := descEndingAt(sent, k); ok && k == v-1 {
			return tag{OK: true, Desc: ds, Seg: s}
		}
		w := strings.ToLower(sent[k].Text)
		if tagPronouns[w] {
			return tag{OK: true, Pronoun: w, Seg: s}
		}
		if p, ok := d.nameEndingAt(sent, k); ok {
			if p.first > 0 && prepositions[strings.ToLower(sent[p.first-1].Text)] {
				k = p.first // the object of a preposition: keep looking before it
				continue
			}
			return tag{OK: true, Name: p, Seg: s}
		}
	}
	// A subject set off from its verb by a long clause ("Isabella, who had
	// been talking to James, turned to his sister and whispered"): the
	// name or pronoun the sentence opens with, before a comma.
	if top-subjectReach > 0 {
		if p, ok := d.lx.nameAt(sent, 0); ok && p.first == 0 && p.next < len(sent) && sent[p.next].Text == "," {
			return tag{OK: true, Name: p, Seg: s}
		}
		// The verb the last of the sentence's predicates ("Miss Bartlett
		// rose with a sigh and said"): the sentence's subject.
		if v > 0 && strings.EqualFold(sent[v-1].Text, "and") {
			if w := strings.ToLower(sent[0].Text); tagPronouns[w] && w != "it" {
				return tag{OK: true, Pronoun: w, Seg: s}
			}
			if p, ok := d.lx.nameAt(sent, 0); ok && p.first == 0 && !possessive(sent, p.next) {
				return tag{OK: true, Name: p, Seg: s}
			}
		}
	}
	return tag{}
}

// nameEndingAt is the longest name whose last word is toks[k].
func (d *doc) nameEndingAt(toks []tok, k int) (phrase, bool) {
	for f := max(0, k-5); f <= k && k >= 0; f++ {
		if p, ok := d.lx.nameAt(toks, f); ok && p.next == k+1 {
			return p, true
		}
	}
	return phrase{}, false
}

// introduction is the narration paragraph that leads into line i from
// the paragraph before, when it ends in a colon, a comma or a dash ("and
// he went on in these words:"), or an empty range.
func (d *doc) introduction(i int) (int, int) {
	l := d.lines[i]
	if l.Para == 0 || (i > 0 && d.lines[i-1].Para == l.Para-1) {
		return l.Span.Start, l.Span.Start
	}
	p := d.paras[l.Para-1]
	body := strings.TrimRight(d.text[p.Start:p.End], " \t\r\n")
	if strings.HasSuffix(body, ":") || strings.HasSuffix(body, ",") || strings.HasSuffix(body, "-") || strings.HasSuffix(body, "—") {
		return p.Start, p.Start + len(body)
	}
	return l.Span.Start, l.Span.Start
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// hasTerminal reports whether toks hold a sentence end (not Mr.'s dot).
func hasTerminal(toks []tok) bool {
	for k, t := range toks {
		if isTerminal(t) && !(t.Text == "." && k > 0 && isTitleWord(toks[k-1])) {
			return true
		}
	}
	return false
}

// subjectReach is how many tokens before its verb a before-tag's subject
// may stand.
const subjectReach = 8

// onlyAdverbsBefore reports whether the sentence opens with its verb (after
// adverbs such as "then"): the VERB NAME order of `said the King, "…"`.
func onlyAdverbsBefore(sent []tok, v int) bool {
	for _, t := range sent[:v] {
		if t.Word && !isAdverb(t) && !strings.EqualFold(t.Text, "then") && !strings.EqualFold(t.Text, "and") {
			return false
		}
	}
	return true
}

// possessive reports whether toks[k] opens a possessive 's: "said the
// King's messenger" names the messenger, not the King ("said the Rabbit's
// voice" still names the Rabbit).
func possessive(toks []tok, k int) bool {
	if k+1 >= len(toks) || (toks[k].Text != "'" && toks[k].Text != "’") || !strings.EqualFold(toks[k+1].Text, "s") {
		return false
	}
	return k+2 >= len(toks) || !strings.HasPrefix(strings.ToLower(toks[k+2].Text), "voice")
}

// verbAt reports whether a speech verb starts at toks[k] and where it ends
// (after its particle).
func verbAt(toks []tok, k int) (int, bool) {
	if k >= len(toks) || !toks[k].Word {
		return k, false
	}
	w := strings.ToLower(toks[k].Text)
	if !speechVerbs[w] {
		return k, false
	}
	next := ""
	if k+1 < len(toks) && toks[k+1].Word {
		next = strings.ToLower(toks[k+1].Text)
	}
	if need, ok := particleVerbs[w]; ok {
		if next != need {
			return k, false
		}
		return k + 2, true
	}
	if particles[next] {
		return k + 2, true
	}
	return k + 1, true
}

// verbAfter reports whether a speech verb follows at toks[k] after up to two
// adverbs, and is not negated ("said nothing").
func verbAfter(toks []tok, k int) bool {
	for n := 0; n < 2 && k < len(toks) && isAdverb(toks[k]); n++ {
		k++
	}
	end, ok := verbAt(toks, k)
	if !ok {
		return false
	}
	return end >= len(toks) || !blockers[strings.ToLower(toks[end].Text)]
}

func isAdverb(t tok) bool {
	return t.Word && len(t.Text) > 3 && strings.HasSuffix(strings.ToLower(t.Text), "ly") && !capitalised(t.Text)
}

// isTitleWord reports whether t is an abbreviation that takes a dot (Mr.,
// Dr.), so the dot does not end the sentence.
func isTitleWord(t tok) bool {
	switch strings.ToLower(t.Text) {
	case "mr", "mrs", "ms", "dr", "col", "capt", "rev", "mme", "mlle", "st":
		return t.Word
	case "m":
		return t.Text == "M" // M. Riviere: Monsieur
	}
	return false
}

// scanNames finds every name phrase in the text, left to right.
func (d *doc) scanNames() []occurrence {
	toks := tokenize(d.text, 0, len(d.text))
	var out []occurrence
	q := 0 // next line that may hold the position
	for i := 0; i < len(toks); {
		p, ok := d.lx.nameAt(toks, i)
		if !ok {
			i++
			continue
		}
		start, end := toks[p.first].Start, toks[p.next-1].End
		for q < len(d.lines) && d.lines[q].Span.End <= start {
			q++
		}
		in := q < len(d.lines) && d.lines[q].Span.Start <= start
		o := occurrence{P: p, Start: start, End: end, InQuote: in, Pron: pronounAfter(toks, p.next)}
		o.Subject = p.first == 0 || !prepositions[strings.ToLower(toks[p.first-1].Text)]
		if !in {
			k := p.next
			for n := 0; n < 2 && k < len(toks) && isAdverb(toks[k]); n++ {
				k++
			}
			o.Speaks = k < len(toks) && strongVerbs[strings.ToLower(toks[k].Text)] &&
				(k+1 >= len(toks) || !blockers[strings.ToLower(toks[k+1].Text)])
			o.Answers = o.Speaks || k < len(toks) && strongVerbs[strings.ToLower(toks[k].Text)] || noAnswer(toks, k)
		}
		out = append(out, o)
		i = p.next
	}
	return out
}

// clauseOpeners may stand right before a clause's subject.
var clauseOpeners = setOf("and", "but", "then", "when", "while", "as", "till", "until", "where",
	"whereupon", "so", "that", "because", "though", "although", "if", "nor", "or", "yet", "now")

// clauseOpens reports whether toks[k] opens a clause: the text's start, a
// punctuation mark or a conjunction before it.
func clauseOpens(toks []tok, k int) bool {
	if k == 0 || !toks[k-1].Word {
		return true
	}
	return clauseOpeners[strings.ToLower(toks[k-1].Text)]
}

// noAnswer reports whether toks[k:] read "made no answer/reply" or "did
// not answer/reply": a silent turn in a conversation.
func noAnswer(toks []tok, k int) bool {
	if k+2 >= len(toks) {
		return false
	}
	a, b, c := strings.ToLower(toks[k].Text), strings.ToLower(toks[k+1].Text), strings.ToLower(toks[k+2].Text)
	return (a == "made" && b == "no" || a == "did" && b == "not" || a == "gave" && b == "no") && (c == "answer" || c == "reply")
}

// pronounAfter is the gender of the first personal pronoun within a few
// words after toks[k] in the same clause, before any other capitalised
// word or quotation mark: "the King put on his spectacles" → male, "the
// Caterpillar took the hookah out of its mouth" → "it". "her" (object or
// possessive) says too little and is passed over.
func pronounAfter(toks []tok, k int) string {
	for n := 0; n < 10 && k < len(toks); n, k = n+1, k+1 {
		t := toks[k]
		if !t.Word {
			if isTerminal(t) || isQuoteMark(t.Text) || t.Text == "," {
				return ""
			}
			continue
		}
		switch strings.ToLower(t.Text) {
		case "he", "him", "his", "himself":
			return "male"
		case "she", "hers", "herself":
			return "female"
		case "it", "its", "itself":
			return "it"
		}
		if capitalised(t.Text) {
			return ""
		}
	}
	return ""
}

func isQuoteMark(s string) bool {
	switch s {
	case `"`, "'", "“", "”", "‘", "’":
		return true
	}
	return false
}

// skipClause is where the subject search before verb v starts: before a
// participial or prepositional clause set off by commas right before the
// verb (", turning to her sister," / ", with a smile,"), else v.
func skipClause(sent []tok, v int) int {
	if v < 1 || sent[v-1].Text != "," {
		return v
	}
	for j := v - 2; j >= 0 && v-j <= 12; j-- {
		if sent[j].Text != "," {
			continue
		}
		w := strings.ToLower(sent[min(j+1, v-1)].Text)
		if strings.HasSuffix(w, "ing") || prepositions[w] || w == "in" || w == "after" {
			return j
		}
		return v
	}
	return v
}

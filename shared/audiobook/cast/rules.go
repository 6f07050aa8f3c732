package cast

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lectern/lectern/shared/audiobook/spans"
)

// Source says how a line's speaker was found.
type Source string

// The sources of an attribution, from the surest.
const (
	// SourceExplicit: a tag beside the quotation names the speaker ("said
	// Alice", "the Queen shouted"), or the tag between the parts of an
	// interrupted quotation. Nothing replaces it.
	SourceExplicit Source = "explicit"
	// SourcePronoun: a pronoun tag ("she said") resolved to the nearest
	// preceding character of that gender.
	SourcePronoun Source = "pronoun"
	// SourceParagraph: an untagged line sharing a paragraph (or a quotation
	// running over paragraphs) with a line whose speaker is known.
	SourceParagraph Source = "paragraph"
	// SourceTurn: turn-taking in a run of paragraphs between two speakers.
	SourceTurn Source = "turn"
	// SourceMention: the last resort, a line no other rule answers given
	// to the character named (or speaking) last before it, at low
	// confidence (right about a third of the time on pdnc-dev).
	SourceMention Source = "mention"
	// SourceLLM: the LLM named the speaker.
	SourceLLM Source = "llm"
	// SourceNone: no speaker found.
	SourceNone Source = "none"
)

// Mark is the verify pass's verdict on a line.
type Mark string

// The marks: unverified, agreed, disputed.
const (
	MarkNone     Mark = ""
	MarkAgreed   Mark = "agreed"
	MarkDisputed Mark = "disputed"
)

// Attribution is the speaker of one dialogue span.
type Attribution struct {
	SpanID string
	// Speaker is a cast name (Character.Name); "" when unknown.
	Speaker string
	Source  Source
	// Mark, Other and Confidence are set by Verify: Other is the second
	// pass's answer on a disputed line; Confidence derives from the mark.
	Mark       Mark
	Other      string
	Confidence float64
}

// turnBreak is the longest narration paragraph (bytes) a run of
// turn-taking crosses; a longer one starts a new scene of the dialogue.
// On pdnc-dev, cutting at 100 rather than 300 bytes keeps one wrong
// anchor from being carried across a scene (+0.4 points attribution).
const turnBreak = 100

// pronounReach is how far back (bytes) a pronoun tag looks for its
// character.
const pronounReach = 3000

// AttributeRules names the speakers the text itself shows, one Attribution
// per dialogue span in text order: explicit tags first, then pronoun tags,
// lines that share a paragraph with a known speaker, turn-taking in runs
// of conversation, and last the character named just before a line (at
// low confidence). Lines left unknown have SourceNone.
func AttributeRules(text string, sp []spans.Span, cast []Character) []Attribution {
	d := newDoc(text, sp)
	return d.rules(newCastIndex(cast))
}

func (d *doc) rules(ci *castIndex) []Attribution {
	att := make([]Attribution, len(d.lines))
	// With no narrator in the cast, "I said" lines still count as the
	// narrator's turns while the rules run, and are left blank after.
	narrator := unknownNarrator
	for _, c := range ci.chars {
		if c.Narrator {
			narrator = c.Name
			break
		}
	}
	for i, l := range d.lines {
		att[i] = Attribution{SpanID: l.Span.ID, Source: SourceNone}
		switch t := l.tag(); {
		case t.OK && t.Pronoun == "i":
			att[i].Speaker, att[i].Source, att[i].Confidence = narrator, SourceExplicit, confFirstPerson
		case t.OK && t.Pronoun == "" && t.Desc.Noun == "":
			if c := ci.resolve(t.Name); c >= 0 {
				att[i].Speaker, att[i].Source, att[i].Confidence = ci.chars[c].Name, SourceExplicit, ConfidenceExplicit
			}
		}
	}
	d.pronouns(ci, att)
	d.beats(ci, att)
	for i, l := range d.lines {
		if t := l.tag(); att[i].Speaker == "" && t.OK && t.Desc.Noun != "" {
			if c := d.resolveDesc(ci, att, i, t.Desc); c >= 0 {
				att[i].Speaker, att[i].Source, att[i].Confidence = ci.chars[c].Name, SourceExplicit, confDescribed
			}
		}
	}
	d.paragraphFill(att)
	d.sequence(ci, att)
	d.paragraphFill(att)
	d.mentionFill(ci, att)
	for i := range att {
		if strings.HasPrefix(att[i].Speaker, unknownPrefix) {
			att[i].Speaker, att[i].Source, att[i].Confidence = "", SourceNone, 0
		}
	}
	return att
}

// unknownPrefix starts the stand-ins for speakers outside the cast while
// the rules run: they take turns in a conversation like anyone, and are
// left blank after. No character's name starts with it.
const unknownPrefix = "\x00"

// unknownSpeaker stands for the speaker of a tag naming no one of the cast
// ("said the cook" with no cook cast).
func unknownSpeaker(i int) string { return unknownPrefix + strconv.Itoa(i) }

// unknownNarrator stands for the first-person narrator while the rules run
// on a cast without one; it can be no character's name.
const unknownNarrator = unknownPrefix + "narrator"

// Confidence of the rules' answers other than an explicit named tag
// (ConfidenceExplicit) and turn-taking (turnConfidence): a first-person tag, a
// pronoun tag whose antecedent acts in the sentence before, one found
// further back, and a line taking the speaker of its paragraph.
const (
	confFirstPerson = 0.9
	confPronounBeat = 0.8
	confPronounNear = 0.65
	// confPronounAddressed: a pronoun tag answering the one the turn
	// before spoke to.
	confPronounAddressed = 0.75
	confParagraph        = 0.7
	confDescribed        = 0.85
	confBeat             = 0.6
)

// tag is the line's own tag: the one after it, else the one before it,
// else a loose one after it.
func (l line) tag() tag {
	if l.After.OK {
		return l.After
	}
	if l.Before.OK {
		return l.Before
	}
	return l.Loose
}

// pronouns resolves pronoun tags in text order, so a resolved line can
// stand as the antecedent of the next.
func (d *doc) pronouns(ci *castIndex, att []Attribution) {
	for i, l := range d.lines {
		t := l.tag()
		if att[i].Source != SourceNone || !t.OK || t.Pronoun == "" || t.Pronoun == "i" {
			continue
		}
		// The two parts of an interrupted quotation share one tag.
		if l.Prev >= 0 && d.lines[l.Prev].After.Seg == t.Seg && d.lines[l.Prev].After.OK && att[l.Prev].Speaker != "" {
			att[i].Speaker, att[i].Source, att[i].Confidence = att[l.Prev].Speaker, att[l.Prev].Source, att[l.Prev].Confidence
			continue
		}
		g := pronounGender[t.Pronoun]
		if c := d.beatSubject(ci, i); c >= 0 && !ci.chars[c].Narrator && (ci.chars[c].Gender == g || ci.chars[c].Gender == "") {
			att[i].Speaker, att[i].Source, att[i].Confidence = ci.chars[c].Name, SourcePronoun, confPronounBeat
			continue
		}
		if c := d.answersAddressee(ci, i, g); c != "" {
			att[i].Speaker, att[i].Source, att[i].Confidence = c, SourcePronoun, confPronounAddressed
			continue
		}
		if c := d.speakerOf(ci, att, i, g); c != "" {
			att[i].Speaker, att[i].Source, att[i].Confidence = c, SourcePronoun, confPronounNear
		}
	}
}

// answersAddressee is the one the turn before line i speaks to by name,
// when of gender g and not named in line i itself: ""Well, Miss Morland,"
// said he. / "Very agreeable," she replied." Else "".
func (d *doc) answersAddressee(ci *castIndex, i int, g string) string {
	p := d.prevTurn(i)
	if p < 0 {
		return ""
	}
	own := d.vocatives(ci, i)
	for j := p; j >= 0 && d.lines[j].Para == d.lines[p].Para; j-- {
		for _, v := range d.vocatives(ci, j) {
			if c, ok := ci.byKey[normKey(v)]; ok && ci.chars[c].Gender == g && !ci.chars[c].Narrator && !slices.Contains(own, v) {
				return v
			}
		}
	}
	return ""
}

// prevTurn is the last line of the turn before line i when line i opens a
// turn of a running conversation: the previous line stands in an earlier
// paragraph with no long narration between. Else -1.
func (d *doc) prevTurn(i int) int {
	l := d.lines[i]
	if i == 0 || l.Prev >= 0 || l.ContinuesQuote {
		return -1
	}
	p := d.lines[i-1]
	if p.Span.Chapter != l.Span.Chapter || d.longNarration(p.Para, l.Para) || l.Span.Start-d.paras[l.Para].Start > turnBreak {
		return -1
	}
	return i - 1
}

// beatSubject is the character named first in the last sentence of the
// narration leading into line i in its paragraph ("The Knave shook his
// head sadly. "Do I look like it?" he said."), or -1: the one acting just
// before a line is the one a pronoun tag means.
func (d *doc) beatSubject(ci *castIndex, i int) int {
	s, e := d.narrationBefore(i)
	return d.subjectAt(ci, s, e)
}

// subjectAt is the character whose name opens the last sentence of
// text[s:e] (not as a possessive), or -1.
func (d *doc) subjectAt(ci *castIndex, s, e int) int {
	toks := lastSentence(tokenize(d.text, s, e))
	if p, ok := d.lx.nameAt(toks, 0); ok && p.first == 0 && !possessive(toks, p.next) {
		return ci.resolve(p)
	}
	// "I went over to the window.": the first-person narrator acts.
	if len(toks) > 1 && toks[0].Text == "I" && toks[1].Word {
		return ci.narrator()
	}
	return -1
}

// narrator is the index of the cast's first-person narrator, or -1.
func (ci *castIndex) narrator() int {
	for c, ch := range ci.chars {
		if ch.Narrator {
			return c
		}
	}
	return -1
}

// lastSentence is the last sentence of toks, without the punctuation
// that closes it.
func lastSentence(toks []tok) []tok {
	for len(toks) > 0 && !toks[len(toks)-1].Word {
		toks = toks[:len(toks)-1]
	}
	for k := len(toks) - 1; k >= 0; k-- {
		if isTerminal(toks[k]) && !(toks[k].Text == "." && k > 0 && isTitleWord(toks[k-1])) {
			return toks[k+1:]
		}
	}
	return toks
}

// speakerOf is the character a pronoun of gender g before line i names:
// the antecedent, never one the line names (to speak to or of: one seldom
// names oneself).
func (d *doc) speakerOf(ci *castIndex, att []Attribution, i int, g string) string {
	not := map[string]bool{}
	for _, v := range d.namedIn(ci, i) {
		not[v] = true
	}
	return d.antecedent(ci, att, i, g, not)
}

// antecedent is the nearest character of gender g before line i: named in
// the narration, or speaking an earlier line.
func (d *doc) antecedent(ci *castIndex, att []Attribution, i int, g string, not map[string]bool) string {
	for _, subj := range []bool{true, false} {
		if c := d.nearest(ci, att, i, subj, func(c Character) bool { return c.Gender == g && !c.Narrator && !not[c.Name] }); c != "" || g == "" {
			return c
		}
	}
	// No character of that gender: one whose gender the book does not show.
	return d.nearest(ci, att, i, false, func(c Character) bool { return c.Gender == "" && !c.Narrator && !not[c.Name] })
}

// nearest is the nearest character that fits before line i: speaking an
// earlier line or named in the narration (as a clause's subject only, when
// subj), within pronounReach and the chapter.
func (d *doc) nearest(ci *castIndex, att []Attribution, i int, subj bool, fits func(Character) bool) string {
	l := d.lines[i]
	floor := l.Span.Start - pronounReach
	bestPos, best := -1, ""
	for j := i - 1; j >= 0 && d.lines[j].Span.Start >= floor && d.lines[j].Span.Chapter == l.Span.Chapter; j-- {
		if c, ok := ci.byKey[normKey(att[j].Speaker)]; ok && att[j].Speaker != "" && fits(ci.chars[c]) {
			bestPos, best = d.lines[j].Span.Start, att[j].Speaker
			break
		}
	}
	k := sort.Search(len(d.names), func(k int) bool { return d.names[k].Start >= l.Span.Start })
	for k--; k >= 0 && d.names[k].Start >= floor && d.names[k].Start > bestPos; k-- {
		o := d.names[k]
		if o.InQuote || subj && !o.Subject {
			continue
		}
		if c := ci.resolve(o.P); c >= 0 && fits(ci.chars[c]) {
			return ci.chars[c].Name
		}
	}
	return best
}

// fillGap is the most narration (bytes) between two lines of a paragraph
// for the untagged one to take the other's speaker: past it, the narration
// may bring in another speaker ("…!" Alice felt so desperate that… when the
// Rabbit came near her, "…"). On PDNC Alice the lines between 60 and 120
// bytes apart were right half the time, below what the LLM gets.
const fillGap = 60

// paragraphFill gives an untagged line the speaker of the line before it in
// its paragraph (or of the quotation it continues), then of the line after
// it: one paragraph, one speaker. A quotation in parentheses is an aside
// and passes on nothing.
func (d *doc) paragraphFill(att []Attribution) {
	untagged := func(i int) bool {
		t := d.lines[i].tag()
		return att[i].Source == SourceNone && (!t.OK || t.Desc.Noun != "")
	}
	// from is the nearest line of i's paragraph in direction dir that is
	// not an aside, if the narration between them is short; else -1.
	from := func(i, dir int) int {
		j := i
		for {
			if dir < 0 {
				j = d.lines[j].Prev
			} else {
				j = d.lines[j].Next
			}
			if j < 0 || !d.aside(j) {
				break
			}
		}
		if j < 0 || d.aside(i) || att[j].Speaker == "" {
			return -1
		}
		a, b := min(i, j), max(i, j)
		if d.lines[b].Span.Start-d.lines[a].Span.End-d.asideBytes(a, b) > fillGap {
			return -1
		}
		return j
	}
	for i, l := range d.lines {
		if !untagged(i) {
			continue
		}
		if l.ContinuesQuote && att[i-1].Speaker != "" {
			att[i].Speaker, att[i].Source, att[i].Confidence = att[i-1].Speaker, SourceParagraph, min(confParagraph, att[i-1].Confidence)
		} else if j := from(i, -1); j >= 0 {
			att[i].Speaker, att[i].Source, att[i].Confidence = att[j].Speaker, SourceParagraph, min(confParagraph, att[j].Confidence)
		}
	}
	for i := len(d.lines) - 1; i >= 0; i-- {
		l := d.lines[i]
		if !untagged(i) {
			continue
		}
		if l.Span.Continues && i+1 < len(d.lines) && att[i+1].Speaker != "" {
			att[i].Speaker, att[i].Source, att[i].Confidence = att[i+1].Speaker, SourceParagraph, min(confParagraph, att[i+1].Confidence)
		} else if j := from(i, +1); j >= 0 {
			att[i].Speaker, att[i].Source, att[i].Confidence = att[j].Speaker, SourceParagraph, min(confParagraph, att[j].Confidence)
		}
	}
}

// asideBytes is the length of the aside lines strictly between lines a
// and b, which do not count as narration between them.
func (d *doc) asideBytes(a, b int) int {
	n := 0
	for k := a + 1; k < b; k++ {
		if d.aside(k) {
			n += d.lines[k].Span.End - d.lines[k].Span.Start
		}
	}
	return n
}

// aside reports whether line i stands in parentheses.
func (d *doc) aside(i int) bool {
	start := d.lines[i].Span.Start
	s := strings.TrimRight(d.text[max(0, start-64):start], " \t\r\n")
	return strings.HasSuffix(s, "(")
}

// turn is one turn of a conversation: a paragraph's lines (with the
// paragraphs a quotation runs on into), or a short narration paragraph
// telling a reply ("Mr. Bennet replied that he had not", "Mr. Bennet
// made no answer"), whose speaker is said.
type turn struct {
	lines []int
	said  string
	at    int // where the turn starts in the text
	lead  int // bytes of narration before its first line in the paragraph
	// actor is the character named as the subject of the last sentence
	// of the narration paragraph right before the turn.
	actor string
}

// runs groups the lines into turns and the turns into runs of
// conversation: same chapter, no narration paragraph longer than turnBreak
// between them and no long narration before a turn's first line.
func (d *doc) runs(ci *castIndex) [][]turn {
	var runs [][]turn
	var cur []turn
	flush := func() {
		if len(cur) > 0 {
			runs = append(runs, cur)
		}
		cur = nil
	}
	for i, l := range d.lines {
		if l.Prev >= 0 || l.ContinuesQuote {
			cur[len(cur)-1].lines = append(cur[len(cur)-1].lines, i)
			continue
		}
		if len(cur) > 0 {
			last := cur[len(cur)-1].lines
			pl := d.lines[last[len(last)-1]]
			if pl.Span.Chapter != l.Span.Chapter || d.longNarration(pl.Para, l.Para) || l.Span.Start-d.paras[l.Para].Start > turnBreak {
				flush()
			} else {
				for p := pl.Para + 1; p < l.Para; p++ {
					if who := d.reply(ci, p); who != "" {
						cur = append(cur, turn{said: who, at: d.paras[p].Start})
					}
				}
			}
		}
		t := turn{lines: []int{i}, at: l.Span.Start, lead: l.Span.Start - d.paras[l.Para].Start}
		// (Not a paragraph telling a reply, which is a turn of its own.)
		if len(cur) > 0 && t.lead == 0 && l.Para > 0 && (i == 0 || d.lines[i-1].Para < l.Para-1) && d.reply(ci, l.Para-1) == "" {
			if c := d.subjectAt(ci, d.paras[l.Para-1].Start, d.paras[l.Para-1].End); c >= 0 {
				t.actor = ci.chars[c].Name
			}
		}
		cur = append(cur, t)
	}
	flush()
	return runs
}

// reply is the character a narration paragraph tells answering, or "".
func (d *doc) reply(ci *castIndex, p int) string {
	r := d.paras[p]
	k := sort.Search(len(d.names), func(k int) bool { return d.names[k].Start >= r.Start })
	if k < len(d.names) && d.names[k].End <= r.End && d.names[k].Answers {
		if c := ci.resolve(d.names[k].P); c >= 0 {
			return ci.chars[c].Name
		}
	}
	return ""
}

// longNarration reports whether a paragraph strictly between paragraphs a
// and b is longer than turnBreak.
func (d *doc) longNarration(a, b int) bool {
	for p := a + 1; p < b; p++ {
		if d.paras[p].End-d.paras[p].Start > turnBreak {
			return true
		}
	}
	return false
}

// beats gives an untagged line that opens or closes its paragraph's
// narration with a character acting ("Catherine smiled. "Yes."" /
// ""Yes." Catherine smiled.") to that character: the one acting beside a
// line is the one speaking it.
func (d *doc) beats(ci *castIndex, att []Attribution) {
	for i, l := range d.lines {
		if att[i].Source != SourceNone || l.tag().OK || d.aside(i) {
			continue
		}
		c := -1
		if l.Prev < 0 {
			c = d.beatSubject(ci, i)
		}
		if c < 0 && l.Next < 0 {
			c = d.afterSubject(ci, i)
		}
		if c >= 0 {
			att[i].Speaker, att[i].Source, att[i].Confidence = ci.chars[c].Name, SourceParagraph, confBeat
			continue
		}
		// "She grew pale. "…"": the pronoun acting names the speaker as a
		// pronoun tag would.
		if l.Prev >= 0 {
			continue
		}
		s, e := d.narrationBefore(i)
		sent := lastSentence(tokenize(d.text, s, e))
		if len(sent) == 0 {
			continue
		}
		g, ok := pronounGender[strings.ToLower(sent[0].Text)]
		if !ok || g == "" {
			continue
		}
		if who := d.speakerOf(ci, att, i, g); who != "" {
			att[i].Speaker, att[i].Source, att[i].Confidence = who, SourceParagraph, confBeat
		}
	}
}

// afterSubject is the character whose name opens the narration right after
// line i in its paragraph, or -1.
func (d *doc) afterSubject(ci *castIndex, i int) int {
	s, e := d.narrationAfter(i)
	toks := tokenize(d.text, s, e)
	k := 0
	for k < len(toks) && !toks[k].Word {
		k++
	}
	if p, ok := d.lx.nameAt(toks, k); ok && p.first == k && !possessive(toks, p.next) {
		return ci.resolve(p)
	}
	return -1
}

// Confidence of a line given to the character named last before it:
// named in the line's own paragraph (right about half the time on
// pdnc-dev), or further back (a quarter). Both stay below LowConfidence,
// so the LLM pass asks about them.
const (
	confMentionNear = 0.45
	confMention     = 0.25
)

// mentionFill gives a line no rule answered to the first character its
// paragraph's narration names as a subject ("Tom stood by the window. The
// rain fell on Mary. "…"" is Tom's: right 37% of such lines on pdnc-dev
// against 35% for the one named last), else to the character named (or
// speaking) last before it, other than one it names and, across
// paragraphs, other than the previous line's speaker (a new paragraph is
// most often a new speaker): a line standing alone after narration is
// most often said by the one the narration was about.
func (d *doc) mentionFill(ci *castIndex, att []Attribution) {
	for i, l := range d.lines {
		if att[i].Speaker != "" || d.aside(i) {
			continue
		}
		// A pronoun tag no one of its gender answered stays blank.
		if t := l.tag(); t.OK && t.Pronoun != "" {
			continue
		}
		not := map[string]bool{}
		for _, v := range d.namedIn(ci, i) {
			not[v] = true
		}
		if i > 0 && att[i-1].Speaker != "" && d.lines[i-1].Para != l.Para {
			not[att[i-1].Speaker] = true
		}
		who := d.paraSubject(ci, i, not)
		if who == "" {
			who = d.nearest(ci, att, i, false, func(c Character) bool { return !not[c.Name] })
		}
		if who == "" {
			continue
		}
		conf := confMention
		if d.namedInPara(ci, i, who) {
			conf = confMentionNear
		}
		att[i].Speaker, att[i].Source, att[i].Confidence = who, SourceMention, conf
	}
}

// paraSubject is the first character named as a clause's subject in the
// narration of line i's paragraph before it (other than not), or "".
func (d *doc) paraSubject(ci *castIndex, i int, not map[string]bool) string {
	l := d.lines[i]
	k := sort.Search(len(d.names), func(k int) bool { return d.names[k].Start >= d.paras[l.Para].Start })
	for ; k < len(d.names) && d.names[k].Start < l.Span.Start; k++ {
		o := d.names[k]
		if o.InQuote || !o.Subject {
			continue
		}
		if c := ci.resolve(o.P); c >= 0 && !not[ci.chars[c].Name] {
			return ci.chars[c].Name
		}
	}
	return ""
}

// namedInPara reports whether the narration of line i's paragraph before
// it names who.
func (d *doc) namedInPara(ci *castIndex, i int, who string) bool {
	l := d.lines[i]
	k := sort.Search(len(d.names), func(k int) bool { return d.names[k].Start >= l.Span.Start })
	for k--; k >= 0 && d.names[k].Start >= d.paras[l.Para].Start; k-- {
		if c := ci.resolve(d.names[k].P); !d.names[k].InQuote && c >= 0 && ci.chars[c].Name == who {
			return true
		}
	}
	return false
}

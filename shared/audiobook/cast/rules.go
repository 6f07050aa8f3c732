package cast

import (
	"sort"
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
const turnBreak = 300

// turnReach is how many turns on each side must show only two speakers
// for turn-taking to fill a turn.
const turnReach = 3

// pronounReach is how far back (bytes) a pronoun tag looks for its
// character.
const pronounReach = 3000

// AttributeRules names the speakers the text itself shows, one Attribution
// per dialogue span in text order: explicit tags first, then pronoun tags,
// lines that share a paragraph with a known speaker and turn-taking in
// two-person runs. Lines left unknown have SourceNone.
func AttributeRules(text string, sp []spans.Span, cast []Character) []Attribution {
	d := newDoc(text, sp)
	return d.rules(newCastIndex(cast))
}

func (d *doc) rules(ci *castIndex) []Attribution {
	att := make([]Attribution, len(d.lines))
	for i, l := range d.lines {
		att[i] = Attribution{SpanID: l.Span.ID, Source: SourceNone}
		if t := l.tag(); t.OK && t.Pronoun == "" {
			if c := ci.resolve(t.Name); c >= 0 {
				att[i].Speaker, att[i].Source = ci.chars[c].Name, SourceExplicit
			}
		}
	}
	d.pronouns(ci, att)
	d.paragraphFill(att)
	d.turns(ci, att)
	d.paragraphFill(att)
	return att
}

// tag is the line's own tag: the one after it, else the one before it.
func (l line) tag() tag {
	if l.After.OK {
		return l.After
	}
	return l.Before
}

// pronouns resolves pronoun tags in text order, so a resolved line can
// stand as the antecedent of the next.
func (d *doc) pronouns(ci *castIndex, att []Attribution) {
	for i, l := range d.lines {
		t := l.tag()
		if att[i].Source != SourceNone || !t.OK || t.Pronoun == "" {
			continue
		}
		// The two parts of an interrupted quotation share one tag.
		if l.Prev >= 0 && d.lines[l.Prev].After.Seg == t.Seg && d.lines[l.Prev].After.OK && att[l.Prev].Speaker != "" {
			att[i].Speaker, att[i].Source = att[l.Prev].Speaker, att[l.Prev].Source
			continue
		}
		g := pronounGender[t.Pronoun]
		if c := d.beatSubject(ci, i); c >= 0 && (ci.chars[c].Gender == g || ci.chars[c].Gender == "") {
			att[i].Speaker, att[i].Source = ci.chars[c].Name, SourcePronoun
			continue
		}
		if c := d.antecedent(ci, att, i, g); c != "" {
			att[i].Speaker, att[i].Source = c, SourcePronoun
		}
	}
}

// beatSubject is the character named first in the last sentence of the
// narration leading into line i in its paragraph ("The Knave shook his
// head sadly. "Do I look like it?" he said."), or -1: the one acting just
// before a line is the one a pronoun tag means.
func (d *doc) beatSubject(ci *castIndex, i int) int {
	s, e := d.narrationBefore(i)
	toks := tokenize(d.text, s, e)
	for len(toks) > 0 && !toks[len(toks)-1].Word {
		toks = toks[:len(toks)-1]
	}
	from := 0
	for k := len(toks) - 1; k >= 0; k-- {
		if isTerminal(toks[k]) && !(toks[k].Text == "." && k > 0 && isTitleWord(toks[k-1])) {
			from = k + 1
			break
		}
	}
	if from >= len(toks) {
		return -1
	}
	if p, ok := d.lx.nameAt(toks, from); ok && p.first == from {
		return ci.resolve(p)
	}
	return -1
}

// antecedent is the nearest character of gender g before line i: named in
// the narration, or speaking an earlier line.
func (d *doc) antecedent(ci *castIndex, att []Attribution, i int, g string) string {
	if c := d.nearest(ci, att, i, func(c Character) bool { return c.Gender == g }); c != "" || g == "" {
		return c
	}
	// No character of that gender: one whose gender the book does not show.
	return d.nearest(ci, att, i, func(c Character) bool { return c.Gender == "" })
}

// nearest is the nearest character that fits before line i: speaking an
// earlier line or named in the narration, within pronounReach and the
// chapter.
func (d *doc) nearest(ci *castIndex, att []Attribution, i int, fits func(Character) bool) string {
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
		if o.InQuote {
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
	untagged := func(i int) bool { return att[i].Source == SourceNone && !d.lines[i].tag().OK }
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
			att[i].Speaker, att[i].Source = att[i-1].Speaker, SourceParagraph
		} else if j := from(i, -1); j >= 0 {
			att[i].Speaker, att[i].Source = att[j].Speaker, SourceParagraph
		}
	}
	for i := len(d.lines) - 1; i >= 0; i-- {
		l := d.lines[i]
		if !untagged(i) {
			continue
		}
		if l.Span.Continues && i+1 < len(d.lines) && att[i+1].Speaker != "" {
			att[i].Speaker, att[i].Source = att[i+1].Speaker, SourceParagraph
		} else if j := from(i, +1); j >= 0 {
			att[i].Speaker, att[i].Source = att[j].Speaker, SourceParagraph
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

// turns fills untagged turns of a conversation between two speakers: in a
// run of dialogue paragraphs, a turn whose two previous turns are A then B
// (or whose two next turns are B then A) is A's.
func (d *doc) turns(ci *castIndex, att []Attribution) {
	for _, run := range d.runs(ci) {
		speaker := func(k int) string {
			if k < 0 || k >= len(run) {
				return ""
			}
			if run[k].said != "" {
				return run[k].said
			}
			return att[run[k].lines[0]].Speaker
		}
		set := func(k int, s string) {
			for _, i := range run[k].lines {
				if att[i].Source == SourceNone {
					att[i].Speaker, att[i].Source = s, SourceTurn
				}
			}
		}
		// two reports whether the known speakers of the turns around k
		// are two people.
		two := func(k int) bool {
			who := map[string]bool{}
			for j := k - turnReach; j <= k+turnReach; j++ {
				if s := speaker(j); s != "" {
					who[s] = true
				}
			}
			return len(who) == 2
		}
		for pass := 0; pass < 2; pass++ {
			for k := range run {
				if speaker(k) != "" || !two(k) {
					continue
				}
				back, fwd := "", ""
				if a, b := speaker(k-2), speaker(k-1); a != "" && b != "" && a != b {
					back = a
				}
				if a, b := speaker(k+2), speaker(k+1); a != "" && b != "" && a != b {
					fwd = a
				}
				switch {
				case back != "" && fwd != "" && back != fwd:
				case back != "":
					set(k, back)
				case fwd != "":
					set(k, fwd)
				}
			}
		}
	}
}

// turn is one turn of a conversation: a paragraph's lines (with the
// paragraphs a quotation runs on into), or a short narration paragraph
// telling a reply ("Mr. Bennet replied that he had not", "Mr. Bennet
// made no answer"), whose speaker is said.
type turn struct {
	lines []int
	said  string
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
						cur = append(cur, turn{said: who})
					}
				}
			}
		}
		cur = append(cur, turn{lines: []int{i}})
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

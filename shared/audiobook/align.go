package audiobook

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ClassicSegment is one segment as classic mode's LLM wrote it: a speaker
// and the text it says (or "narrator" and narration).
type ClassicSegment struct {
	Speaker string `json:"speaker"`
	Text    string `json:"text"`
}

// Piece is a stretch of the source text [Start, End) that Align gave to one
// of the LLM's segments, or to nobody (Dropped: the narrator reads it).
type Piece struct {
	Start, End int
	// Segment is the index of the LLM segment it came from; -1 when dropped.
	Segment int
	Speaker string
	// Narration: the narrator reads it (a narrator segment, or dropped).
	Narration bool
	Dropped   bool
}

// Range is a stretch of source text.
type Range struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

// Fused is an LLM segment whose text the source has in separate places: the
// LLM joined them. Each place became a piece of its own.
type Fused struct {
	Segment int    `json:"segment"`
	Speaker string `json:"speaker"`
	Places  int    `json:"places"`
}

// Repair is what Align did to the LLM's segments to fit the source.
type Repair struct {
	// Dropped: source text no segment had, read by the narrator.
	Dropped []Range `json:"dropped"`
	// Absorbed: source text skipped inside one segment, kept in it.
	Absorbed []Range `json:"absorbed"`
	// Invented: text of the LLM's that is not in the source, discarded.
	Invented []string `json:"invented"`
	Fused    []Fused  `json:"fused"`
}

// Empty reports a repair that changed nothing.
func (r Repair) Empty() bool {
	return len(r.Dropped) == 0 && len(r.Absorbed) == 0 && len(r.Invented) == 0 && len(r.Fused) == 0
}

// token is a word of the source (with its offsets) or of an LLM segment
// (with the segment's index in seg).
type token struct {
	key        string
	start, end int
	seg        int
}

// words cuts s into runs of non-space, each keyed by its letters and digits
// in lower case (punctuation and quotation marks, which LLMs change freely,
// do not count), or by itself when it has none.
func words(s string, seg int) []token {
	var out []token
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		raw := s[start:end]
		var b strings.Builder
		for _, r := range raw {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(unicode.ToLower(r))
			}
		}
		key := b.String()
		if key == "" {
			key = raw
		}
		out = append(out, token{key: key, start: start, end: end, seg: seg})
		start = -1
	}
	for i, r := range s {
		if unicode.IsSpace(r) {
			flush(i)
		} else if start < 0 {
			start = i
		}
	}
	flush(len(s))
	return out
}

// maxLLMWords bounds the LLM words aligned per source word: an answer far
// longer than its source is mostly invention, and the table is quadratic.
const maxLLMWords = 4

// IsNarrator reports a speaker name meaning the narrator.
func IsNarrator(speaker string) bool {
	switch normName(speaker) {
	case "", "narrator", "narration", "the narrator", "none":
		return true
	}
	return false
}

// Align places classic mode's segments on the source text src (auto-repair):
// the words of the segments, concatenated, are matched to the source's by a
// longest common subsequence, so every source word goes to the segment whose
// word matched it. The pieces cover src exactly, in order. Source words no
// segment matched are dropped: read by the narrator as pieces of their own,
// unless the same segment has words on both sides (then they are absorbed
// into it). Words of the segments the source lacks are invented and
// discarded; a segment whose words lie in separate places of the source was
// fused, and is cut into a piece per place. Everything is reported.
func Align(src string, segs []ClassicSegment) ([]Piece, Repair) {
	rep := Repair{Dropped: []Range{}, Absorbed: []Range{}, Invented: []string{}, Fused: []Fused{}}
	sw := words(src, -1)
	var lw []token
	for j, sg := range segs {
		lw = append(lw, words(sg.Text, j)...)
	}
	if limit := maxLLMWords * (len(sw) + 1); len(lw) > limit {
		rep.Invented = append(rep.Invented, joinWords(segs, lw[limit:]))
		lw = lw[:limit]
	}
	match := lcs(sw, lw)

	// label[i] is the segment source word i went to; -1 when dropped.
	label := make([]int, len(sw))
	matchedLLM := make([]bool, len(lw))
	for i := range sw {
		label[i] = -1
		if j := match[i]; j >= 0 {
			label[i], matchedLLM[j] = lw[j].seg, true
		}
	}
	// Invented: runs of the segments' words the source lacks.
	for j := 0; j < len(lw); {
		if matchedLLM[j] {
			j++
			continue
		}
		k := j
		for k < len(lw) && !matchedLLM[k] && lw[k].seg == lw[j].seg {
			k++
		}
		rep.Invented = append(rep.Invented, joinWords(segs, lw[j:k]))
		j = k
	}
	// Absorb dropped runs inside one segment.
	for i := 0; i < len(sw); {
		if label[i] >= 0 {
			i++
			continue
		}
		k := i
		for k < len(sw) && label[k] < 0 {
			k++
		}
		r := Range{Start: sw[i].start, End: sw[k-1].end, Text: src[sw[i].start:sw[k-1].end]}
		if i > 0 && k < len(sw) && label[i-1] == label[k] && !betweenQuotations(src, sw[i-1], sw[k]) {
			for x := i; x < k; x++ {
				label[x] = label[k]
			}
			rep.Absorbed = append(rep.Absorbed, r)
		} else {
			rep.Dropped = append(rep.Dropped, r)
		}
		i = k
	}

	var pieces []Piece
	for i := 0; i < len(sw); {
		k := i
		for k < len(sw) && label[k] == label[i] {
			k++
		}
		p := Piece{Start: sw[i].start, Segment: label[i], Narration: true, Dropped: label[i] < 0}
		if !p.Dropped {
			p.Speaker = segs[label[i]].Speaker
			p.Narration = IsNarrator(p.Speaker)
			if p.Narration {
				p.Speaker = ""
			}
		}
		if len(pieces) == 0 {
			p.Start = 0
		}
		if k < len(sw) {
			p.End = sw[k].start
		} else {
			p.End = len(src)
		}
		pieces = append(pieces, p)
		i = k
	}
	if len(pieces) == 0 && src != "" {
		pieces = []Piece{{Start: 0, End: len(src), Segment: -1, Narration: true, Dropped: true}}
	}
	places := map[int]int{}
	for _, p := range pieces {
		if p.Segment >= 0 {
			places[p.Segment]++
		}
	}
	for j, sg := range segs {
		if places[j] > 1 {
			rep.Fused = append(rep.Fused, Fused{Segment: j, Speaker: sg.Speaker, Places: places[j]})
		}
	}
	return pieces, rep
}

// TrimDialogue moves the space around each spoken piece (which Align gives
// to the piece before the next word) to the narration beside it, so a line
// covers its words and marks only, as a span does; where no narration is
// beside it, the space becomes a narration piece of its own. The pieces
// still cover src exactly, in order.
func TrimDialogue(src string, pieces []Piece) []Piece {
	var out []Piece
	for _, p := range pieces {
		if p.Narration {
			if n := len(out); n > 0 && out[n-1].Narration && out[n-1].Segment == -2 {
				// A space left by the line before joins this narration.
				p.Start = out[n-1].Start
				out = out[:n-1]
			}
			out = append(out, p)
			continue
		}
		body := src[p.Start:p.End]
		lead := len(body) - len(strings.TrimLeftFunc(body, unicode.IsSpace))
		if lead == len(body) {
			out = append(out, p)
			continue
		}
		trail := len(body) - len(strings.TrimRightFunc(body, unicode.IsSpace))
		if lead > 0 {
			if n := len(out); n > 0 && out[n-1].Narration {
				out[n-1].End += lead
			} else {
				out = append(out, Piece{Start: p.Start, End: p.Start + lead, Segment: -2, Narration: true})
			}
			p.Start += lead
		}
		end := p.End
		p.End -= trail
		out = append(out, p)
		if trail > 0 {
			// Segment -2 marks a space piece the next narration may absorb.
			out = append(out, Piece{Start: p.End, End: end, Segment: -2, Narration: true})
		}
	}
	for i := range out {
		if out[i].Segment == -2 {
			out[i].Segment = -1
		}
	}
	return out
}

// betweenQuotations reports a gap that a quotation closes before or opens
// after: narration between two quotations a segment fused, not a word the
// LLM skipped inside one.
func betweenQuotations(src string, before, after token) bool {
	last, _ := utf8.DecodeLastRuneInString(strings.TrimRightFunc(src[before.start:before.end], isTrailing))
	first, _ := utf8.DecodeRuneInString(src[after.start:after.end])
	return isQuote(last) || isQuote(first)
}

func isTrailing(r rune) bool { return strings.ContainsRune(".,;:!?)]—-", r) }

func isQuote(r rune) bool { return strings.ContainsRune("\"'“”‘’«»", r) }

// joinWords writes LLM words back as text.
func joinWords(segs []ClassicSegment, ts []token) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = segs[t.seg].Text[t.start:t.end]
	}
	return strings.Join(parts, " ")
}

// lcs matches a's words to b's by a longest common subsequence of their
// keys: match[i] is the index in b of a[i]'s partner, or -1.
func lcs(a, b []token) []int {
	n, m := len(a), len(b)
	match := make([]int, n)
	for i := range match {
		match[i] = -1
	}
	if n == 0 || m == 0 {
		return match
	}
	// t[i][j] is the LCS length of a[i:] and b[j:].
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i].key == b[j].key:
				t[i][j] = t[i+1][j+1] + 1
			case t[i+1][j] >= t[i][j+1]:
				t[i][j] = t[i+1][j]
			default:
				t[i][j] = t[i][j+1]
			}
		}
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case a[i].key == b[j].key:
			match[i] = j
			i++
			j++
		case t[i+1][j] >= t[i][j+1]:
			i++
		default:
			j++
		}
	}
	return match
}

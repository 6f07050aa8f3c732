package cast

import (
	"slices"
	"sort"
)

// Turn-taking: in a run of dialogue paragraphs, untagged turns alternate
// between the two people talking. The run is filled outwards from every
// turn whose speaker is known, one turn further per wave, so a single
// anchor reaches both ways and a gap between two anchors is filled from
// both ends; a turn further from its anchor is less certain.

// Confidence of a turn-taking answer: confTurn next to its anchor, less by
// confTurnStep per turn further, never below confTurnMin.
const (
	confTurn     = 0.6
	confTurnStep = 0.05
	confTurnMin  = 0.2
)

// turnLead is the most narration (bytes) before a turn's first line in
// its paragraph for turn-taking to answer it: a line deep in narration is
// a thought, a song or a remark in passing more often than a reply.
const turnLead = 100

// turnWindow is how many turns away turn-taking looks for the other
// speaker of an exchange, which also bounds its work on a long run.
const turnWindow = 20

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// guess is one wave's answer for a turn.
type guess struct {
	k    int
	who  string
	weak bool // from one anchor and the run's other speaker, not two alternating turns
}

// turns fills the untagged turns of each conversation run.
func (d *doc) turns(ci *castIndex, att []Attribution) {
	for _, run := range d.runs(ci) {
		n := len(run)
		spk := make([]string, n)
		voc := make([][]string, n) // who each turn addresses by name
		for k, t := range run {
			spk[k] = t.said
			for _, i := range t.lines {
				if spk[k] == "" && att[i].Speaker != "" {
					spk[k] = att[i].Speaker
				}
				voc[k] = append(voc[k], d.vocatives(ci, i)...)
			}
		}
		get := func(k int) string {
			if k < 0 || k >= n {
				return ""
			}
			return spk[k]
		}
		// other is the nearest known speaker other than a, from turn k on
		// in direction dir within the run: the other half of a's exchange.
		other := func(k, dir int, a string) string {
			for j := k; j >= 0 && j < n && abs(j-k) <= turnWindow; j += dir {
				if s := spk[j]; s != "" && s != a {
					return s
				}
			}
			return ""
		}
		// partner is a's partner when no other turn of the run is known:
		// someone a speaks to by name in the run, else the character
		// named last in the narration before the turn.
		partner := func(k int, a string) string {
			for dist := 0; dist < n && dist <= turnWindow; dist++ {
				for _, j := range []int{k - dist, k + dist} {
					if j >= 0 && j < n && spk[j] == a {
						for _, v := range voc[j] {
							if v != a {
								return v
							}
						}
					}
				}
			}
			return d.namedBefore(ci, run[min(max(k, 0), n-1)].at, a)
		}
		// addressed is the one turn j names by vocative, if not its own speaker.
		addressed := func(j int, not ...string) string {
			if j < 0 || j >= n {
				return ""
			}
		next:
			for _, v := range voc[j] {
				for _, x := range not {
					if v == x {
						continue next
					}
				}
				return v
			}
			return ""
		}
		// A turn right after a short paragraph of someone acting is theirs
		// ("Brett took another drink.").
		for k, t := range run {
			if spk[k] != "" || t.actor == "" || slices.Contains(voc[k], t.actor) {
				continue
			}
			spk[k] = t.actor
			for _, i := range t.lines {
				if att[i].Source == SourceNone {
					att[i].Speaker, att[i].Source, att[i].Confidence = t.actor, SourceParagraph, confActor
				}
			}
		}
		for wave := 0; ; wave++ {
			var fill []guess
			for k := range run {
				if spk[k] != "" || run[k].lead > turnLead {
					continue
				}
				// Never the one the turn itself speaks to.
				if g, ok := guessTurn(k, get, other, partner, addressed); ok && !slices.Contains(voc[k], g.who) {
					fill = append(fill, g)
				}
			}
			if len(fill) == 0 {
				break
			}
			conf := max(confTurnMin, confTurn-confTurnStep*float64(wave))
			for _, g := range fill {
				spk[g.k] = g.who
				c := conf
				if g.weak {
					c = max(confTurnMin, c-2*confTurnStep)
				}
				for _, i := range run[g.k].lines {
					if att[i].Source == SourceNone {
						att[i].Speaker, att[i].Source, att[i].Confidence = g.who, SourceTurn, c
					}
				}
			}
		}
	}
}

// guessTurn answers turn k from its neighbours: the turn two back when the
// one between differs (A, B, ? → A), the same forwards, else who the
// neighbouring turn addresses by name, else the other speaker of the run
// beside the one neighbour known. Disagreeing answers leave the turn.
func guessTurn(k int, get func(int) string, other func(int, int, string) string, partner func(int, string) string, addressed func(int, ...string) string) (guess, bool) {
	prev, next := get(k-1), get(k+1)
	if prev == "" && next == "" {
		return guess{}, false
	}
	back, fwd := "", ""
	if a := get(k - 2); prev != "" && a != "" && a != prev {
		back = a
	}
	if a := get(k + 2); next != "" && a != "" && a != next {
		fwd = a
	}
	// A name spoken to in the turn before or after: who answers, or who
	// was answered.
	cue := addressed(k-1, prev, next)
	prevCue := cue
	if cue == "" {
		cue = addressed(k+1, prev, next)
	}
	switch {
	case back != "" && fwd != "" && back != fwd:
		if cue == back || cue == fwd {
			return guess{k: k, who: cue}, true
		}
		return guess{}, false
	case prevCue != "":
		return guess{k: k, who: prevCue}, true
	case back != "":
		return guess{k: k, who: back}, true
	case fwd != "":
		return guess{k: k, who: fwd}, true
	case cue != "":
		return guess{k: k, who: cue}, true
	}
	// One anchor: the other speaker of the exchange, looked for beyond it.
	wb, wf := "", ""
	if prev != "" {
		wb = other(k-2, -1, prev)
		if wb == "" {
			wb = other(k+1, +1, prev)
		}
		if wb == "" {
			wb = partner(k-1, prev)
		}
	}
	if next != "" {
		wf = other(k+2, +1, next)
		if wf == "" {
			wf = other(k-1, -1, next)
		}
		if wf == "" {
			wf = partner(k+1, next)
		}
	}
	switch {
	case wb != "" && wf != "" && wb != wf:
		return guess{}, false
	case wb != "":
		return guess{k: k, who: wb, weak: true}, true
	case wf != "":
		return guess{k: k, who: wf, weak: true}, true
	}
	return guess{}, false
}

// partnerReach is how far (bytes) before a turn the narration may name the
// other speaker of a conversation.
const partnerReach = 1500

// namedBefore is the character named last in the narration before offset
// at (within partnerReach), other than not; "" if none.
func (d *doc) namedBefore(ci *castIndex, at int, not string) string {
	k := sort.Search(len(d.names), func(k int) bool { return d.names[k].Start >= at })
	for k--; k >= 0 && d.names[k].Start >= at-partnerReach; k-- {
		if d.names[k].InQuote {
			continue
		}
		if c := ci.resolve(d.names[k].P); c >= 0 && ci.chars[c].Name != not {
			return ci.chars[c].Name
		}
	}
	return ""
}

// confActor is the confidence of a turn given to the one acting in the
// narration paragraph just before it.
const confActor = 0.55

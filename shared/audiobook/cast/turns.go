package cast

import (
	"sort"
)

// Turn-taking helpers: who a conversation's narration names. The turns
// themselves are filled by the sequence model (seq.go).

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

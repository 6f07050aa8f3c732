package spans

import (
	"fmt"
	"strings"

	"github.com/lectern/lectern/shared/audiobook/book"
)

// tileError says how spans fail to tile b's chapters, or nil: each
// chapter's spans must be non-empty, contiguous, in order, carry their ids,
// cover the chapter exactly, and a dialogue span must begin with a mark (or
// its paragraph, for a block inside a quotation) with Inner inside it.
func tileError(b book.Book, spans []Span) error {
	k := 0
	for _, ch := range b.Chapters {
		at, n := ch.Start, 0
		var sb strings.Builder
		for ; k < len(spans) && spans[k].Chapter == ch.Index; k++ {
			sp := spans[k]
			if sp.Start != at || sp.End <= sp.Start || sp.ID != SpanID(ch.Index, n) {
				return fmt.Errorf("chapter %d: span %d = %+v, want start %d, non-empty, id %s", ch.Index, n, sp, at, SpanID(ch.Index, n))
			}
			if sp.Kind == Dialogue && !isMark(b.Text[sp.Start:]) && !afterSpace(b.Text, sp.Start) {
				return fmt.Errorf("chapter %d: dialogue span %d = %+v begins with no mark", ch.Index, n, sp)
			}
			if a, z := sp.Inner(b.Text); a < sp.Start || z > sp.End || a > z {
				return fmt.Errorf("chapter %d: span %d = %+v has Inner %d,%d", ch.Index, n, sp, a, z)
			}
			sb.WriteString(sp.Text(b.Text))
			at, n = sp.End, n+1
		}
		if at != ch.End || sb.String() != ch.Body(b.Text) {
			return fmt.Errorf("chapter %d: spans end at %d, chapter at %d, or differ from it", ch.Index, at, ch.End)
		}
	}
	if k != len(spans) {
		return fmt.Errorf("%d spans left after the chapters", len(spans)-k)
	}
	return nil
}

// afterSpace: a span of an embedded block inside a quotation begins its
// paragraph, after a line break or indentation, without a mark.
func afterSpace(text string, i int) bool {
	return i > 0 && strings.ContainsRune(" \t\n", rune(text[i-1]))
}

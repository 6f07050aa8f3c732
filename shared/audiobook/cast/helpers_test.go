package cast

import (
	"testing"

	"github.com/lectern/lectern/shared/audiobook/book"
	"github.com/lectern/lectern/shared/audiobook/spans"
)

// split cuts text (one chapter) into spans with the real splitter.
func split(text string) []spans.Span {
	return spans.SplitBook(book.Book{Text: text, Chapters: []book.Chapter{{Index: 0, Start: 0, End: len(text)}}})
}

// dialogue is the dialogue spans, in order.
func dialogue(sp []spans.Span) []spans.Span {
	var out []spans.Span
	for _, s := range sp {
		if s.Kind == spans.Dialogue {
			out = append(out, s)
		}
	}
	return out
}

// speakers runs the rules and gives the speaker of each dialogue line.
func speakers(t *testing.T, text string) ([]string, []Attribution) {
	t.Helper()
	sp := split(text)
	cast := Extract(text, sp)
	att := AttributeRules(text, sp, cast)
	if n := len(dialogue(sp)); len(att) != n {
		t.Fatalf("%d attributions for %d dialogue spans", len(att), n)
	}
	out := make([]string, len(att))
	for i, a := range att {
		out[i] = a.Speaker
	}
	return out, att
}

// withoutGuesses clears the rules' last-resort answers (a line given to
// the character named last before it), for tests of the LLM pass on the
// lines the rules could not answer.
func withoutGuesses(att []Attribution) []Attribution {
	for i, a := range att {
		if a.Source == SourceMention {
			att[i] = Attribution{SpanID: a.SpanID, Source: SourceNone}
		}
	}
	return att
}

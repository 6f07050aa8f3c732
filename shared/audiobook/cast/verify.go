package cast

import (
	"context"

	"github.com/lectern/lectern/shared/audiobook/spans"
)

// Confidence of a line, derived from its verification mark. The spec
// (service.md, Audiobook attribution 2) reports agreed lines right 83% of
// the time and disputed ones 48.5%; a line with an explicit tag is not
// asked and gets ConfidenceExplicit, our figure for a named tag beside the
// quotation (rules measured above 98% on PDNC Alice).
const (
	ConfidenceAgreed   = 0.83
	ConfidenceDisputed = 0.485
	ConfidenceExplicit = 0.95
)

// verifyContext is the verify pass's share of the context margin: another
// context size than the first pass's, so the two passes do not read each
// line the same way.
const verifyContext = 2

// Verify asks the LLM again about every dialogue line but those with an
// explicit tag, in windows shifted by half a window and with half the
// context margin, and marks each line: agreed when the answer is its
// current speaker, disputed (Other holds the answer) when not. Explicit
// lines are agreed without asking. Confidence follows the mark. No
// speaker changes: a disputed line is not overruled. Lines the LLM leaves
// unanswered stay unmarked with confidence 0. On an LLM failure the
// marks made so far are returned with the error.
func Verify(ctx context.Context, llm LLM, text string, sp []spans.Span, cast []Character, current []Attribution, opt Options) ([]Attribution, Stats, error) {
	d, ci, att, err := prepare(llm, text, sp, cast, current)
	if err != nil {
		return nil, Stats{}, err
	}
	var ask []int
	for i := range att {
		att[i].Mark, att[i].Other, att[i].Confidence = MarkNone, "", 0
		if att[i].Source == SourceExplicit {
			att[i].Mark, att[i].Confidence = MarkAgreed, ConfidenceExplicit
			continue
		}
		ask = append(ask, i)
	}
	// The verify pass shows only explicit speakers in the context, so it
	// does not lean on the answers it checks.
	known := func(i int) string {
		if att[i].Source == SourceExplicit {
			return att[i].Speaker
		}
		return ""
	}
	o := opt.norm()
	o.Context = max(1, o.Context/verifyContext)
	answers, st, err := d.askAll(ctx, llm, ci, ask, known, o, o.Window/2)
	for _, i := range ask {
		name, ok := answers[i]
		switch {
		case !ok:
		case normKey(name) == normKey(att[i].Speaker):
			att[i].Mark, att[i].Confidence = MarkAgreed, ConfidenceAgreed
		default:
			att[i].Mark, att[i].Other, att[i].Confidence = MarkDisputed, name, ConfidenceDisputed
		}
	}
	return att, st, err
}

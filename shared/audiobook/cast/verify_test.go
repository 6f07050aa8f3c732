package cast

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestVerifyMarksWithoutChangingSpeakers(t *testing.T) {
	text := longBook(100) // lines 0, 10, 20… explicit (Alice); 90 untagged
	sp := split(text)
	current := AttributeRules(text, sp, testCast)
	// The first pass named every untagged line: odd lines Mr. Bob, even
	// lines the White Rabbit, and line 5 nobody.
	d := dialogue(sp)
	index := map[string]int{}
	for i, s := range d {
		index[s.ID] = i
		a := &current[i]
		switch {
		case a.Source == SourceExplicit:
		case i == 5:
			a.Speaker, a.Source, a.Confidence = "", SourceNone, 0
		case i%2 == 1:
			a.Speaker, a.Source = "Mr. Bob", SourceLLM
		default:
			a.Speaker, a.Source = "The White Rabbit", SourceTurn
		}
	}
	before := append([]Attribution(nil), current...)
	// The second pass agrees on odd lines, answers "the rabbit" (an alias)
	// on lines divisible by 4, Alice on the other even lines and line 5,
	// and nothing on line 7.
	llm := &fakeLLM{reply: func(ids []string) string {
		var kept []string
		for _, id := range ids {
			if index[id] != 7 {
				kept = append(kept, id)
			}
		}
		return answerAll(func(id string) string {
			switch i := index[id]; {
			case i == 5:
				return "Alice"
			case i%2 == 1:
				return "Mr. Bob"
			case i%4 == 0:
				return "the rabbit"
			}
			return "Alice"
		})(kept)
	}}
	got, st, err := Verify(context.Background(), llm, text, sp, testCast, current, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.AskedSpans != 90 || st.Requests > 90/MaxWindow+2 {
		t.Fatalf("stats %+v", st)
	}
	if n := len(markedIDs(llm.calls[0].user)); n != MaxWindow/2 {
		t.Fatalf("first window asks %d lines, want %d (edges shifted by half a window)", n, MaxWindow/2)
	}
	for i, a := range got {
		if a.Speaker != before[i].Speaker || a.Source != before[i].Source || a.SpanID != before[i].SpanID {
			t.Fatalf("line %d changed: %+v → %+v", i, before[i], a)
		}
		var mark Mark
		var other string
		var conf float64
		switch {
		case before[i].Source == SourceExplicit:
			mark, conf = MarkAgreed, ConfidenceExplicit
		case i == 7:
		case i == 5:
			mark, other, conf = MarkDisputed, "Alice", ConfidenceDisputed
		case i%2 == 1 || i%4 == 0:
			mark, conf = MarkAgreed, ConfidenceAgreed
		default:
			mark, other, conf = MarkDisputed, "Alice", ConfidenceDisputed
		}
		if a.Mark != mark || a.Other != other || a.Confidence != conf {
			t.Errorf("line %d (%s): %+v, want mark %q other %q confidence %v", i, before[i].Speaker, a, mark, other, conf)
		}
	}
	for _, c := range llm.calls {
		for _, id := range markedIDs(c.user) {
			if before[index[id]].Source == SourceExplicit {
				t.Fatalf("explicit line %s asked", id)
			}
		}
		// Only explicit speakers stand in the verify pass's context.
		if strings.Contains(c.user, "{Mr. Bob}") || strings.Contains(c.user, "{The White Rabbit}") {
			t.Fatalf("the verify prompt shows the answers it checks:\n%s", c.user)
		}
	}
}

func TestVerifyUsesOtherWindowsThanTheFirstPass(t *testing.T) {
	text := longBook(100)
	sp := split(text)
	fixed := AttributeRules(text, sp, testCast)
	first := &fakeLLM{reply: answerAll(func(string) string { return "Mr. Bob" })}
	att, _, err := AttributeLLM(context.Background(), first, text, sp, testCast, fixed, Options{})
	if err != nil {
		t.Fatal(err)
	}
	second := &fakeLLM{reply: answerAll(func(string) string { return "Mr. Bob" })}
	if _, _, err := Verify(context.Background(), second, text, sp, testCast, att, Options{}); err != nil {
		t.Fatal(err)
	}
	edges := func(f *fakeLLM) map[string]bool {
		out := map[string]bool{}
		for _, c := range f.calls {
			ids := markedIDs(c.user)
			out[ids[0]] = true
		}
		return out
	}
	a, b := edges(first), edges(second)
	shared := 0
	for id := range b {
		if a[id] {
			shared++
		}
	}
	if shared > 1 { // both passes start at the first line
		t.Fatalf("window edges shared: first %v, verify %v", a, b)
	}
}

func TestVerifyKeepsMarksMadeBeforeAFailure(t *testing.T) {
	text := longBook(100)
	sp := split(text)
	llm := &fakeLLM{reply: answerAll(func(string) string { return "Mr. Bob" }), failAt: 2}
	seeds := AttributeRules(text, sp, testCast)
	got, st, err := Verify(context.Background(), llm, text, sp, testCast, seeds, Options{})
	if !errors.Is(err, ErrUpstream) || st.Requests != 2 {
		t.Fatalf("err %v, stats %+v", err, st)
	}
	disputed := 0
	for i, a := range got {
		if a.Mark == MarkDisputed {
			disputed++
			if a.Other != "Mr. Bob" || a.Speaker != seeds[i].Speaker {
				t.Fatalf("%+v", a)
			}
		}
	}
	if disputed != MaxWindow/2 {
		t.Fatalf("%d lines disputed, want the first window's %d", disputed, MaxWindow/2)
	}
}

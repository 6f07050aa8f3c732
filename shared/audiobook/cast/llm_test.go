package cast

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/lectern/lectern/shared/audiobook/spans"
	"github.com/lectern/lectern/shared/engines/oaichat"
)

// The engine client is the port's adapter.
var _ LLM = (*oaichat.Client)(nil)

type llmCall struct {
	system, user, schemaName string
	schema                   map[string]any
}

// fakeLLM answers from reply, given the span ids marked in the request, and
// records every request.
type fakeLLM struct {
	mu     sync.Mutex
	calls  []llmCall
	reply  func(ids []string) string
	failAt int // 1-based call that fails; 0: none
}

var markRe = regexp.MustCompile(`\[\[(c\d+-s\d+)\]\]`)

func markedIDs(user string) []string {
	var ids []string
	for _, m := range markRe.FindAllStringSubmatch(user, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func (f *fakeLLM) ChatSchema(_ context.Context, system, user, schemaName string, schema map[string]any) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, llmCall{system, user, schemaName, schema})
	if f.failAt == len(f.calls) {
		return "", errors.New("engine answered 503")
	}
	return f.reply(markedIDs(user)), nil
}

// answerAll names speak(id) for every id, in the schema's form.
func answerAll(speak func(id string) string) func([]string) string {
	return func(ids []string) string {
		var items []string
		for _, id := range ids {
			items = append(items, fmt.Sprintf(`{"span":%q,"speaker":%q}`, id, speak(id)))
		}
		return `{"speakers":[` + strings.Join(items, ",") + `]}`
	}
}

// longBook has n dialogue lines, every tenth tagged "said Alice" and the
// rest untagged, each after a narration paragraph too long for turn-taking:
// the rules leave the untagged ones to the LLM.
func longBook(n int) string {
	var b strings.Builder
	para := strings.Repeat("The wind rose over the moor and the lamps were lit one by one along the road. ", 5)
	for i := 0; i < n; i++ {
		b.WriteString(para + "\n\n")
		if i%10 == 0 {
			fmt.Fprintf(&b, "\"This is line %d,\" said Alice.\n\n", i)
		} else {
			fmt.Fprintf(&b, "\"This is line %d, and it goes on for a while before it stops.\"\n\n", i)
		}
	}
	return b.String()
}

var testCast = []Character{
	{ID: "alice", Name: "Alice", Gender: "female", Mentions: 50},
	{ID: "mr-bob", Name: "Mr. Bob", Aliases: []string{"Bob"}, Gender: "male", Mentions: 20},
	{ID: "the-white-rabbit", Name: "The White Rabbit", Aliases: []string{"The Rabbit"}, Mentions: 10},
}

func TestAttributeLLMBatchesWithinLimits(t *testing.T) {
	for _, n := range []int{1, 7, 40, 41, 120, 333} {
		t.Run(fmt.Sprint(n, " lines"), func(t *testing.T) {
			text := longBook(n)
			sp := split(text)
			fixed := withoutGuesses(AttributeRules(text, sp, testCast))
			explicit := map[string]bool{}
			untagged := 0
			for _, a := range fixed {
				switch a.Source {
				case SourceExplicit:
					explicit[a.SpanID] = true
				case SourceNone:
					untagged++
				default:
					t.Fatalf("rules gave %+v", a)
				}
			}
			// The fake also names a speaker for an explicit line it was not
			// asked about: that answer must be ignored.
			var someExplicit string
			for id := range explicit {
				someExplicit = id
			}
			llm := &fakeLLM{reply: func(ids []string) string {
				return answerAll(func(string) string { return "Mr. Bob" })(append(ids, someExplicit))
			}}
			att, st, err := AttributeLLM(context.Background(), llm, text, sp, testCast, fixed, Options{})
			if err != nil {
				t.Fatal(err)
			}
			maxReq := (untagged + MaxWindow - 1) / MaxWindow
			if st.AskedSpans != untagged || st.Requests != len(llm.calls) || st.Requests > maxReq {
				t.Fatalf("stats %+v for %d untagged lines; at most %d requests", st, untagged, maxReq)
			}
			if avg := float64(st.PromptTokens) / float64(st.AskedSpans); avg > MaxTokensPerSpan {
				t.Fatalf("%.1f prompt tokens per asked span, over %d", avg, MaxTokensPerSpan)
			}
			tokens, asked := 0, map[string]int{}
			for _, c := range llm.calls {
				tokens += estimateTokens(c.system) + estimateTokens(c.user)
				ids := markedIDs(c.user)
				if len(ids) > MaxWindow {
					t.Fatalf("a request asks about %d spans", len(ids))
				}
				for _, id := range ids {
					asked[id]++
					if explicit[id] {
						t.Fatalf("explicit line %s asked", id)
					}
				}
				if !strings.Contains(c.user, "Cast:\nAlice") {
					t.Fatalf("no cast list in %q", c.user)
				}
			}
			if tokens != st.PromptTokens || len(asked) != untagged {
				t.Fatalf("measured %d tokens (stats %d), %d distinct spans asked of %d", tokens, st.PromptTokens, len(asked), untagged)
			}
			for id, k := range asked {
				if k != 1 {
					t.Fatalf("%s asked %d times", id, k)
				}
			}
			for _, a := range att {
				want := "Mr. Bob"
				if explicit[a.SpanID] {
					want = "Alice"
				}
				if a.Speaker != want {
					t.Fatalf("%+v, want %s", a, want)
				}
			}
		})
	}
}

func TestAttributeLLMNeverAsksForText(t *testing.T) {
	text := longBook(3)
	sp := split(text)
	llm := &fakeLLM{reply: answerAll(func(id string) string {
		return "This is line 1, and it goes on for a while before it stops."
	})}
	att, _, err := AttributeLLM(context.Background(), llm, text, sp, testCast, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	items := llm.calls[0].schema["properties"].(map[string]any)["speakers"].(map[string]any)["items"].(map[string]any)
	props := items["properties"].(map[string]any)
	if len(props) != 2 || props["span"] == nil || props["speaker"] == nil || items["additionalProperties"] != false {
		t.Fatalf("the answer schema must hold span ids and speaker names only: %v", items)
	}
	for _, a := range att {
		if a.Speaker != "" || a.Source != SourceNone {
			t.Fatalf("text given as a speaker was taken: %+v", a)
		}
	}
}

func TestAttributeLLMParsesTolerantly(t *testing.T) {
	text := longBook(4) // lines 1–3 untagged
	sp := split(text)
	d := dialogue(sp)
	a, b, c := d[1].ID, d[2].ID, d[3].ID
	for _, tc := range []struct {
		name   string
		answer string
		want   [3]string // speakers of lines 1–3
	}{
		{"the schema's form", fmt.Sprintf(`{"speakers":[{"span":%q,"speaker":"Alice"},{"span":%q,"speaker":"Mr. Bob"},{"span":%q,"speaker":"The White Rabbit"}]}`, a, b, c),
			[3]string{"Alice", "Mr. Bob", "The White Rabbit"}},
		{"a code fence and prose around it", "Here are the speakers:\n```json\n" + fmt.Sprintf(`{"speakers":[{"span":%q,"speaker":"Alice"}]}`, a) + "\n```\nHope this helps.",
			[3]string{"Alice", "", ""}},
		{"prose without a fence", fmt.Sprintf(`Sure! {"speakers":[{"span":%q,"speaker":"Alice"}]} Done.`, a),
			[3]string{"Alice", "", ""}},
		{"trailing commas", fmt.Sprintf(`{"speakers":[{"span":%q,"speaker":"Alice",},{"span":%q,"speaker":"Alice",},],}`, a, b),
			[3]string{"Alice", "Alice", ""}},
		{"id and span_id keys, name key", fmt.Sprintf(`{"speakers":[{"id":%q,"speaker":"Alice"},{"span_id":%q,"name":"Mr. Bob"}]}`, a, b),
			[3]string{"Alice", "Mr. Bob", ""}},
		{"aliases and case become the cast name", fmt.Sprintf(`{"speakers":[{"span":%q,"speaker":"the rabbit"},{"span":%q,"speaker":"Bob"},{"span":%q,"speaker":"Rabbit"}]}`, a, b, c),
			[3]string{"The White Rabbit", "Mr. Bob", "The White Rabbit"}},
		{"unknown names and Unknown are dropped", fmt.Sprintf(`{"speakers":[{"span":%q,"speaker":"Zorro"},{"span":%q,"speaker":"Unknown"},{"span":%q,"speaker":"Alice"}]}`, a, b, c),
			[3]string{"", "", "Alice"}},
		{"unknown span ids are ignored, missing ones stay unknown", `{"speakers":[{"span":"c09-s9999","speaker":"Alice"},{"span":"` + b + `","speaker":"Alice"}]}`,
			[3]string{"", "Alice", ""}},
		{"ids with their marks", fmt.Sprintf(`{"speakers":[{"span":"[[%s]]","speaker":"Alice"}]}`, a),
			[3]string{"Alice", "", ""}},
		{"an object of ids to names", fmt.Sprintf(`{%q:"Alice",%q:"Mr. Bob"}`, a, c),
			[3]string{"Alice", "", "Mr. Bob"}},
		{"a bare array", fmt.Sprintf(`[{"span":%q,"speaker":"Mr. Bob"}]`, b),
			[3]string{"", "Mr. Bob", ""}},
		{"not JSON at all", `I cannot tell who speaks.`,
			[3]string{"", "", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			llm := &fakeLLM{reply: func([]string) string { return tc.answer }}
			att, _, err := AttributeLLM(context.Background(), llm, text, sp, testCast, withoutGuesses(AttributeRules(text, sp, testCast)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if att[0].Speaker != "Alice" || att[0].Source != SourceExplicit {
				t.Fatalf("explicit line: %+v", att[0])
			}
			for i, want := range tc.want {
				got := att[i+1]
				wantSrc := SourceLLM
				if want == "" {
					wantSrc = SourceNone
				}
				if got.Speaker != want || got.Source != wantSrc {
					t.Errorf("line %d: %+v, want %q", i+1, got, want)
				}
			}
		})
	}
}

func TestAttributeLLMKeepsAnExplicitTagGivenAsFixed(t *testing.T) {
	text := longBook(3)
	sp := split(text)
	d := dialogue(sp)
	// An explicit attribution handed in (say, by an earlier run) is kept
	// and not asked about, even with a speaker other than the tag's.
	fixed := []Attribution{{SpanID: d[1].ID, Speaker: "Mr. Bob", Source: SourceExplicit}}
	llm := &fakeLLM{reply: answerAll(func(string) string { return "The White Rabbit" })}
	att, st, err := AttributeLLM(context.Background(), llm, text, sp, testCast, fixed, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.AskedSpans != 2 || att[1].Speaker != "Mr. Bob" || att[1].Source != SourceExplicit {
		t.Fatalf("stats %+v, line 1 %+v", st, att[1])
	}
	if att[0].Speaker != "The White Rabbit" || att[2].Speaker != "The White Rabbit" {
		t.Fatalf("got %+v", att)
	}
}

func TestAttributeLLMReturnsWhatItHasOnFailure(t *testing.T) {
	text := longBook(100) // 90 untagged: three requests of 30
	sp := split(text)
	llm := &fakeLLM{reply: answerAll(func(string) string { return "Mr. Bob" }), failAt: 2}
	att, st, err := AttributeLLM(context.Background(), llm, text, sp, testCast, AttributeRules(text, sp, testCast), Options{})
	if !errors.Is(err, ErrUpstream) || st.Requests != 2 {
		t.Fatalf("err %v, stats %+v", err, st)
	}
	got := 0
	for _, a := range att {
		if a.Source == SourceLLM {
			got++
		}
	}
	if got != 30 {
		t.Fatalf("%d lines named by the first request, want 30", got)
	}
}

func TestAttributeLLMRefusesSpansOutsideTheText(t *testing.T) {
	text := longBook(2)
	sp := append(split(text), spans.Span{ID: "c00-s9999", Start: 10, End: len(text) + 1, Kind: spans.Dialogue})
	_, _, err := AttributeLLM(context.Background(), &fakeLLM{}, text, sp, testCast, nil, Options{})
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("got %v", err)
	}
}

func TestPromptMarksAskedLinesAndShowsKnownSpeakers(t *testing.T) {
	text := `"Hello," said Alice.` + "\n\n" + `"Who is there?"` + "\n"
	sp := split(text)
	llm := &fakeLLM{reply: answerAll(func(string) string { return "Mr. Bob" })}
	if _, _, err := AttributeLLM(context.Background(), llm, text, sp, testCast, AttributeRules(text, sp, testCast), Options{}); err != nil {
		t.Fatal(err)
	}
	d := dialogue(sp)
	user := llm.calls[0].user
	for _, want := range []string{`{Alice}"Hello," said Alice.`, `[[` + d[1].ID + `]]"Who is there?"[[/]]`} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %s:\n%s", want, user)
		}
	}
}

func TestWindowsAreBalancedAndShiftable(t *testing.T) {
	for _, tc := range []struct {
		n, size, first int
		want           string
	}{
		{0, 40, 0, ""},
		{40, 40, 0, "0-40"},
		{41, 40, 0, "0-20 20-41"},
		{100, 40, 0, "0-33 33-66 66-100"},
		{100, 40, 20, "0-20 20-60 60-100"},
		{10, 40, 20, "0-10"},
	} {
		var parts []string
		for _, w := range windows(tc.n, tc.size, tc.first) {
			parts = append(parts, fmt.Sprintf("%d-%d", w[0], w[1]))
		}
		if got := strings.Join(parts, " "); got != tc.want {
			t.Errorf("windows(%d, %d, %d) = %q, want %q", tc.n, tc.size, tc.first, got, tc.want)
		}
	}
}

func TestLLMPassesNeedAnLLMAndStopWhenCancelled(t *testing.T) {
	text := longBook(3)
	sp := split(text)
	ctx := context.Background()
	if _, _, err := AttributeLLM(ctx, nil, text, sp, testCast, nil, Options{}); !errors.Is(err, ErrNoLLM) {
		t.Errorf("attribute without an LLM: %v", err)
	}
	if _, _, err := Verify(ctx, nil, text, sp, testCast, nil, Options{}); !errors.Is(err, ErrNoLLM) {
		t.Errorf("verify without an LLM: %v", err)
	}
	if _, err := Refine(ctx, nil, testCast, text); !errors.Is(err, ErrNoLLM) {
		t.Errorf("refine without an LLM: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	llm := &fakeLLM{reply: answerAll(func(string) string { return "Alice" })}
	if _, st, err := AttributeLLM(cancelled, llm, text, sp, testCast, nil, Options{}); !errors.Is(err, context.Canceled) || st.Requests != 0 {
		t.Errorf("cancelled: %v, %+v", err, st)
	}
}

func TestPromptStaysWithinBudgetWithALongCastList(t *testing.T) {
	text := longBook(2) // one untagged line
	sp := split(text)
	long := []Character{{Name: "Alice", Aliases: []string{strings.Repeat("Alice the Very Long Alias ", 40)}, Mentions: 9}}
	llm := &fakeLLM{reply: answerAll(func(string) string { return "Alice" })}
	att, st, err := AttributeLLM(context.Background(), llm, text, sp, append(long, testCast...), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.AskedSpans != 2 || st.PromptTokens > 2*MaxTokensPerSpan || att[1].Speaker != "Alice" {
		t.Fatalf("stats %+v, %+v", st, att)
	}
}

// TestAttributeLLMAsksBlankAndLowConfidenceLinesOnly hands in one line of
// each kind and checks which the LLM is asked about and what it changes:
// a blank line and a rule answer below LowConfidence are asked; an
// explicit tag (however rated), a hand-set line, an earlier LLM answer, a
// confident rule answer and an unrated one are not. An explicit tag is
// never overruled.
func TestAttributeLLMAsksBlankAndLowConfidenceLinesOnly(t *testing.T) {
	text := longBook(8)
	sp := split(text)
	d := dialogue(sp)
	fixed := []Attribution{
		{SpanID: d[0].ID, Speaker: "Alice", Source: SourceExplicit, Confidence: 0.3},
		{SpanID: d[1].ID, Speaker: "Alice", Source: SourceTurn, Confidence: LowConfidence - 0.1},
		{SpanID: d[2].ID, Speaker: "Alice", Source: SourcePronoun, Confidence: LowConfidence},
		{SpanID: d[3].ID, Speaker: "Alice", Source: SourceParagraph},
		{SpanID: d[4].ID, Speaker: "Alice", Source: "hand", Confidence: 0.1},
		{SpanID: d[5].ID, Speaker: "Alice", Source: SourceLLM},
		{SpanID: d[6].ID, Source: SourceNone},
		{SpanID: d[7].ID, Speaker: "Mr. Bob", Source: SourceTurn, Confidence: 0.2},
	}
	llm := &fakeLLM{reply: answerAll(func(id string) string {
		if id == d[7].ID {
			return "Mr. Bob" // confirms the rule
		}
		return "The White Rabbit"
	})}
	att, st, err := AttributeLLM(context.Background(), llm, text, sp, testCast, fixed, Options{})
	if err != nil {
		t.Fatal(err)
	}
	asked := markedIDs(llm.calls[0].user)
	if st.Requests != 1 || strings.Join(asked, " ") != strings.Join([]string{d[1].ID, d[6].ID, d[7].ID}, " ") {
		t.Fatalf("asked %v (stats %+v), want the low-confidence turn, the blank line and Mr. Bob's low one", asked, st)
	}
	want := []Attribution{
		fixed[0],
		{SpanID: d[1].ID, Speaker: "The White Rabbit", Source: SourceLLM},
		fixed[2], fixed[3], fixed[4], fixed[5],
		{SpanID: d[6].ID, Speaker: "The White Rabbit", Source: SourceLLM},
		fixed[7],
	}
	for i := range want {
		if att[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, att[i], want[i])
		}
	}
}

func TestPromptGivesTheCastWithAliasesGenderAndNarrator(t *testing.T) {
	text := `"Who is there?"` + "\n\nThe door creaked.\n\n" + `"Only the wind."` + "\n\nNobody moved.\n\n" + `"Then shut it."` + "\n"
	sp := split(text)
	chars := append(testCast, Character{ID: "pip", Name: "Pip", Aliases: []string{"Philip Pirrip"}, Gender: "male", Narrator: true, Mentions: 5})
	llm := &fakeLLM{reply: answerAll(func(string) string { return "Unknown" })}
	if _, _, err := AttributeLLM(context.Background(), llm, text, sp, chars, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Cast:\nPip (Philip Pirrip) [male, narrator]\nAlice [female]\n", "Mr. Bob (Bob) [male]\n", "The White Rabbit (The Rabbit)\n"} {
		if !strings.Contains(llm.calls[0].user, want) {
			t.Errorf("prompt lacks %q:\n%s", want, llm.calls[0].user)
		}
	}
	if !strings.Contains(llm.calls[0].system, "narrator") {
		t.Errorf("the system message does not say what the narrator mark means: %s", llm.calls[0].system)
	}
}

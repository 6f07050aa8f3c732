package app

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/voices"
)

// partyBook has a character the rules find twice (Lizzy and Elizabeth)
// and one they name by a title (the Queen, whose name the text gives).
const partyBook = `THE PARTY

CHAPTER I. Arrivals

The Queen, whom everyone called Queen Mab, came in first and sat by the fire.

"Come in," said Lizzy.

"Thank you," said Elizabeth. "It is cold."

"Sit here," said the Queen.

CHAPTER II. Departures

"Goodbye," said Lizzy.

"Farewell," said Elizabeth.

"Go," said the Queen.
`

// refinePrompt is how cast.Refine's user message starts.
const refinePrompt = "Cast found by rules"

// refineAnswer answers Refine's schema: Lizzy is Elizabeth, and the Queen
// is Queen Mab.
const refineAnswer = `{"characters":[{"name":"Elizabeth","aliases":["Lizzy"],"gender":"female"},{"name":"Queen Mab","aliases":["The Queen"],"gender":"female"}],"not_characters":[]}`

// TestAudiobookRefineOverHTTP: without an LLM the cast stays the rules';
// with one, the cast job lets it merge Lizzy into Elizabeth and rename the
// Queen to Queen Mab before attribution: the stored characters, a voice
// set on Lizzy, a speaker set by hand to Lizzy (still hand-set) and every
// line follow.
func TestAudiobookRefineOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	book := c.importBook("party.txt", "text/plain", []byte(partyBook))
	id := book.ID
	names := func() []string {
		var out []string
		for _, ch := range c.book(id).Cast {
			out = append(out, ch.Name)
		}
		slices.Sort(out)
		return out
	}
	imported := names()
	if !slices.Equal(imported, []string{"Elizabeth", "Lizzy", "The Queen"}) {
		t.Fatalf("the rules found %q", imported)
	}
	status, _, b := c.do(http.MethodPost, "/api/attribute-spans", []byte(`{"book_id":"`+id+`"}`))
	assertProblem(t, "a cast without an LLM", status, b, http.StatusConflict)
	if got := names(); !slices.Equal(got, imported) {
		t.Fatalf("without an LLM the cast became %q", got)
	}

	view := c.book(id)
	idOf := func(name string) audiobook.Character {
		i := slices.IndexFunc(view.Cast, func(ch audiobook.Character) bool { return ch.Name == name })
		if i < 0 {
			t.Fatalf("no %s in %+v", name, view.Cast)
		}
		return view.Cast[i]
	}
	lizzy, queen := idOf("Lizzy"), idOf("The Queen")
	voice := voices.EngineVoiceID(voices.BuiltinEngine, "en-gb")
	if status, _, b := c.do(http.MethodPut, "/api/audiobook/books/"+id+"/cast/"+lizzy.ID+"/voice", []byte(`{"voice_id":"`+voice+`"}`)); status != http.StatusOK {
		t.Fatalf("voice: %d %s", status, b)
	}
	// "Sit here" is the Queen's; a person says it is Lizzy's.
	segs := c.segments(id, "")
	sit := segs[slices.IndexFunc(segs, func(sg audiobook.Segment) bool { return strings.Contains(sg.Text, "Sit here") })]
	if status, _, b := c.do(http.MethodPut, "/api/audiobook/books/"+id+"/segments/"+sit.ID+"/speaker", []byte(`{"speaker":"Lizzy"}`), "If-Match", `"1"`); status != http.StatusOK {
		t.Fatalf("set speaker: %d %s", status, b)
	}

	llm := newLLMStandIn(t)
	if status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"llm_url":"`+llm.url+`"}`)); status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, b)
	}
	llm.answers(func(n int) string {
		if prompt := llm.calls()[n-1]; !strings.HasPrefix(prompt, refinePrompt) {
			return speakersAnswer(prompt, "Elizabeth")
		}
		return refineAnswer
	})
	v := c.waitJob(c.startJob("/api/attribute-spans", `{"book_id":"`+id+`","verify":true}`))
	if v.Status != jobs.StatusSucceeded {
		t.Fatalf("cast: %+v", v)
	}
	res := decode[audiobook.CastResult](t, v.Result)
	t.Logf("refine: %+v", res.Refine)
	if r := res.Refine; r == nil || r.Requests != 1 || r.Error != "" || len(r.Merged) != 1 || r.Merged[0].Into != "Elizabeth" || !slices.Contains(r.Merged[0].From, "Lizzy") ||
		!slices.Equal(r.Renamed, []audiobook.Rename{{From: "The Queen", To: "Queen Mab"}}) || len(r.Added) != 0 || len(r.Dropped) != 0 {
		t.Fatalf("the refine report: %+v", res.Refine)
	}
	refines := 0
	for _, p := range llm.calls() {
		if strings.HasPrefix(p, refinePrompt) {
			refines++
			if !strings.Contains(p, "Queen Mab") {
				t.Fatalf("the sample sent to Refine lacks the name it gives: %q", p)
			}
		}
	}
	if refines != 1 || len(llm.calls()) != 1+res.Requests+res.VerifyRequests {
		t.Fatalf("the LLM got %d calls (%d refine), the job counts %d+%d", len(llm.calls()), refines, res.Requests, res.VerifyRequests)
	}

	after := c.book(id)
	if got := names(); !slices.Equal(got, []string{"Elizabeth", "Queen Mab"}) {
		t.Fatalf("the refined cast is %q", got)
	}
	for _, ch := range after.Cast {
		switch ch.Name {
		case "Elizabeth":
			if !slices.Contains(ch.Aliases, "Lizzy") || ch.VoiceID != voice || ch.Gender != "female" {
				t.Fatalf("Elizabeth after the merge: %+v (Lizzy's voice was %s)", ch, voice)
			}
		case "Queen Mab":
			if ch.ID != queen.ID || !slices.Contains(ch.Aliases, "The Queen") {
				t.Fatalf("the Queen renamed: %+v, was %+v", ch, queen)
			}
		}
	}
	lines := map[string]int{}
	for _, sg := range c.segments(id, "") {
		if sg.Kind != audiobook.KindDialogue {
			continue
		}
		lines[sg.Speaker]++
		if sg.Speaker == "Lizzy" || sg.Speaker == "The Queen" || sg.Other == "Lizzy" || sg.Other == "The Queen" {
			t.Fatalf("a line still names an old name: %+v", sg)
		}
		if sg.ID == sit.ID && (sg.Speaker != "Elizabeth" || sg.Source != audiobook.SourceHand) {
			t.Fatalf("the hand-set line after the merge: %+v", sg)
		}
	}
	// Elizabeth's three lines, Lizzy's two and the one set by hand.
	if lines["Elizabeth"] != 6 || lines["Queen Mab"] != 1 {
		t.Fatalf("lines by speaker after the refine: %v", lines)
	}
}

// refineLLM answers Refine and attribution by schema, counting Refine's;
// while down, every other call fails.
type refineLLM struct {
	mu      sync.Mutex
	refines int
	down    bool
}

func (l *refineLLM) ChatSchema(_ context.Context, _, user, schemaName string, _ map[string]any) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if schemaName == "cast" {
		l.refines++
		return refineAnswer, nil
	}
	if l.down {
		return "", errors.New("the LLM is down")
	}
	return speakersAnswer(user, "Elizabeth"), nil
}

// TestAudiobookRefineIsKeptForARerun: a cast job that fails after Refine
// was applied (the LLM is down for classic mode's segmentation) runs again without asking
// Refine again and ends with the refined cast.
func TestAudiobookRefineIsKeptForARerun(t *testing.T) {
	local := openTestLocal(t, "http://127.0.0.1", 1)
	ctx := context.Background()
	q := &queued{Queue: local.Jobs}
	d := local.Deps
	llm := &refineLLM{}
	svc := audiobook.NewService(d.Table, d.Blobs, q, d.Voices, d.Clock, func(context.Context) (cast.LLM, error) { return llm, nil }, nil)
	b, err := svc.Import(ctx, "party.txt", []byte(partyBook))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.StartCast(ctx, audiobook.CastRequest{BookID: b.ID, Mode: audiobook.ModeClassic}); err != nil {
		t.Fatal(err)
	}
	llm.down = true
	if _, err := svc.CastJob(ctx, q.payload, &crashAfter{share: 2, cancel: func() {}}); !errors.Is(err, jobs.ErrTransient) {
		t.Fatalf("the first run with the LLM down: %v", err)
	}
	first, err := svc.Cast(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	llm.down = false
	raw, err := svc.CastJob(ctx, q.payload, &crashAfter{share: 2, cancel: func() {}})
	if err != nil {
		t.Fatalf("the re-run: %v", err)
	}
	res := decode[audiobook.CastResult](t, raw)
	second, err := svc.Cast(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Lines differ (the re-run's classic answers are all narration); the
	// characters must not.
	for i := range first {
		first[i].Lines = 0
	}
	for i := range second {
		second[i].Lines = 0
	}
	a, _ := json.Marshal(first)
	z, _ := json.Marshal(second)
	if llm.refines != 1 || res.Refine == nil || res.Refine.Requests != 0 || string(a) != string(z) || len(second) != 2 || res.Requests == 0 {
		t.Fatalf("Refine asked %d times; the re-run %+v %+v; the cast after the re-run %s, after the first run %s", llm.refines, res, res.Refine, z, a)
	}
}

package characters

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// fakeLLM answers every request with answer, and records what it was asked.
type fakeLLM struct {
	answer string
	err    error
	users  []string
}

func (f *fakeLLM) ChatSchema(_ context.Context, system, user, _ string, _ map[string]any) (string, error) {
	f.users = append(f.users, user)
	return f.answer, f.err
}

func TestFactsByLLMKeepsFactsOnly(t *testing.T) {
	chars := []Character{
		{ID: "the-rabbit", Name: "The White Rabbit", Passages: []Passage{{ID: "p1", Text: "a White Rabbit with pink eyes ran close by her"}, {ID: "p2", Text: "with a pair of white kid gloves in one hand"}},
			Facts: Facts{Physical: []Fact{{Text: "pink eyes", Passages: []string{"p1"}}}}},
		{ID: "alice", Name: "Alice", Passages: []Passage{{ID: "p1", Text: "Alice was beginning to get very tired"}}},
	}
	llm := &fakeLLM{answer: "```json\n" + `{"characters":[
		{"id":"the-rabbit","image_prompt":"a majestic rabbit knight, epic lighting",
		 "physical":[{"text":"pink eyes","passages":["p1"]},{"text":"invented fangs","passages":["p9"]}],
		 "clothing":[{"text":"white kid gloves","passages":["p2","p2","p7"]}],"age":[]},
		{"id":"nobody","physical":[{"text":"tall","passages":["p1"]}],"clothing":[],"age":[]},
		{"id":"alice","physical":[],"clothing":[],"age":[]}]}` + "\n```"}
	got, err := FactsByLLM(context.Background(), llm, chars)
	if err != nil {
		t.Fatal(err)
	}
	if len(llm.users) != 1 || !strings.Contains(llm.users[0], "[p2] with a pair of white kid gloves") {
		t.Fatalf("asked %q", llm.users)
	}
	r := got[0]
	if len(r.Facts.Physical) != 1 || r.Facts.Physical[0].Text != "pink eyes" {
		t.Errorf("a fact citing no passage of the character was kept: %+v", r.Facts.Physical)
	}
	if len(r.Facts.Clothing) != 1 || strings.Join(r.Facts.Clothing[0].Passages, ",") != "p2" {
		t.Errorf("clothing %+v", r.Facts.Clothing)
	}
	// The LLM's image_prompt is never read: the prompt is built from facts.
	r = Finish(r)
	if strings.Contains(r.Forms[0].ImagePrompt, "knight") || !strings.HasPrefix(r.Forms[0].ImagePrompt, "head-and-shoulders portrait, The White Rabbit, pink eyes") {
		t.Errorf("image prompt %q", r.Forms[0].ImagePrompt)
	}
	// A character the LLM says nothing of keeps what the rules found.
	if len(got[1].Facts.Physical) != 0 || got[1].Name != "Alice" {
		t.Errorf("alice %+v", got[1])
	}
	if len(got) != 2 {
		t.Errorf("the LLM's unknown character was added: %d", len(got))
	}
}

func TestFactsByLLMFailures(t *testing.T) {
	chars := []Character{{ID: "a", Name: "A", Passages: []Passage{{ID: "p1", Text: "A had red hair"}}}}
	for name, llm := range map[string]*fakeLLM{
		"engine error": {err: errors.New("boom")},
		"not JSON":     {answer: "Sure! Here are the facts."},
	} {
		if _, err := FactsByLLM(context.Background(), llm, chars); !errors.Is(err, ErrEngine) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

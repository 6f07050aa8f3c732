package cast

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestRefineMergesRenamesAndNeverInvents(t *testing.T) {
	cast := []Character{
		{ID: "elizabeth", Name: "Elizabeth", Gender: "female", Mentions: 40},
		{ID: "lizzy", Name: "Lizzy", Mentions: 9},
		{ID: "mr-darcy", Name: "Mr. Darcy", Aliases: []string{"Darcy"}, Gender: "male", Mentions: 30},
		{ID: "then", Name: "Then", Mentions: 3},
		{ID: "jane", Name: "Jane", Mentions: 12},
	}
	sample := "Elizabeth Bennet walked on. \"Lizzy!\" cried her mother. Mr. Darcy bowed; Jane smiled at her sister.\nCharlotte Lucas\nlaughed."
	answer := "```json\n" + `{"characters":[
		{"name":"Elizabeth Bennet","aliases":["Lizzy","Elizabeth","Eliza"],"gender":"female"},
		{"name":"Fitzwilliam Darcy","aliases":["Mr. Darcy"],"gender":"male"},
		{"name":"Jane","aliases":[],"gender":"female"},
		{"name":"Charlotte Lucas","aliases":[],"gender":"female"},
		{"name":"Colonel Brandon","aliases":[],"gender":"male"},
	],"not_characters":["Then"]}` + "\n```"
	llm := &fakeLLM{reply: func([]string) string { return answer }}
	got, err := Refine(context.Background(), llm, cast, sample)
	if err != nil {
		t.Fatal(err)
	}
	want := []Character{
		{ID: "elizabeth-bennet", Name: "Elizabeth Bennet", Aliases: []string{"Elizabeth", "Lizzy"}, Gender: "female", Mentions: 49},
		// "Fitzwilliam Darcy" is in neither the cast nor the sample: the
		// character keeps the name the book gave it.
		{ID: "mr-darcy", Name: "Mr. Darcy", Aliases: []string{"Darcy"}, Gender: "male", Mentions: 30},
		{ID: "jane", Name: "Jane", Gender: "female", Mentions: 12},
		{ID: "charlotte-lucas", Name: "Charlotte Lucas", Gender: "female", Mentions: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	c := llm.calls[0]
	if c.schemaName != "cast" || !strings.Contains(c.user, "- Mr. Darcy; Darcy; male; 30") || !strings.Contains(c.user, sample) {
		t.Fatalf("request %+v", c)
	}
}

func TestRefineKeepsCharactersTheLLMLeavesOut(t *testing.T) {
	cast := []Character{{ID: "alice", Name: "Alice", Gender: "female", Mentions: 5}, {ID: "bob", Name: "Bob", Mentions: 2}}
	llm := &fakeLLM{reply: func([]string) string {
		return `{"characters":[{"name":"Bob","aliases":[],"gender":"male"}],"not_characters":[]}`
	}}
	got, err := Refine(context.Background(), llm, cast, "Alice met Bob.")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "Alice" || got[1].Name != "Bob" || got[1].Gender != "male" {
		t.Fatalf("got %+v", got)
	}
}

func TestRefineFailures(t *testing.T) {
	cast := []Character{{ID: "alice", Name: "Alice"}}
	for name, llm := range map[string]*fakeLLM{
		"engine error":      {reply: func([]string) string { return "" }, failAt: 1},
		"unreadable answer": {reply: func([]string) string { return "I would rather not." }},
	} {
		if _, err := Refine(context.Background(), llm, cast, "Alice"); !errors.Is(err, ErrUpstream) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestRefineSamplePicksFirstMentions(t *testing.T) {
	text := "Chapter one.\n\nAlice sat by the bank.\n\nNothing happened.\n\nThe White Rabbit ran by.\n\nAlice followed the Rabbit.\n"
	cast := []Character{
		{Name: "Alice", Mentions: 2},
		{Name: "The White Rabbit", Aliases: []string{"The Rabbit"}, Mentions: 2},
		{Name: "Zorro", Mentions: 1},
	}
	if got := RefineSample(text, cast, 1000); got != "Alice sat by the bank.\n\nThe White Rabbit ran by." {
		t.Fatalf("got %q", got)
	}
	if got := RefineSample(text, cast, 30); got != "Alice sat by the bank." {
		t.Fatalf("within 30 bytes: %q", got)
	}
}

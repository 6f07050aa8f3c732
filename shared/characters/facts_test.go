package characters

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/audiobook/book"
	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/audiobook/spans"
)

func TestFactsFromText(t *testing.T) {
	text := "Chapter 1\n\nThe Knave of Hearts stood before them, in chains, wearing a crimson tabard with gold hearts. " +
		"\"You are a thief,\" said the Queen. \"You have green eyes and a long nose,\" said the Knave of Hearts.\n\n" +
		"The Queen, a stout old woman with a round red face, said nothing.\n\n\"Off with his head!\" said the Queen.\n\n" +
		"The Knave of Hearts bowed, and the Queen pressed her sharp little chin into the Knave of Hearts's shoulder.\n"
	b, err := book.ParseText([]byte(text), "t.txt")
	if err != nil {
		t.Fatal(err)
	}
	sp := spans.SplitBook(b)
	found := cast.Extract(b.Text, sp)
	chars := FromText(b.Text, sp, found)
	byName := map[string]Character{}
	for _, c := range chars {
		byName[c.Name] = Finish(c)
	}
	// What comes before a possessive name is someone else's.
	if knave, ok := byName["The Knave of Hearts"]; !ok || slices.Contains(factTexts(knave.Facts.Physical), "sharp little chin") {
		t.Errorf("the Knave: %+v (found %v)", knave.Facts, ok)
	}
	queen, ok := byName["The Queen"]
	if !ok {
		t.Fatalf("no Queen in %v", found)
	}
	if got := factTexts(queen.Facts.Physical); !slices.Contains(got, "round red face") {
		t.Errorf("Queen's physical facts %v", got)
	}
	if queen.Age != "old woman" {
		t.Errorf("Queen's age %q", queen.Age)
	}
	// What a character says of another is not a fact of it.
	if got := factTexts(queen.Facts.Physical); slices.Contains(got, "green eyes") || slices.Contains(got, "long nose") {
		t.Errorf("dialogue taken as fact: %v", got)
	}
	for _, f := range queen.Facts.Physical {
		for _, id := range f.Passages {
			i := slices.IndexFunc(queen.Passages, func(p Passage) bool { return p.ID == id })
			if i < 0 || !strings.Contains(queen.Passages[i].Text, f.Text[:5]) && !strings.Contains(strings.ToLower(queen.Passages[i].Text), f.Text) {
				t.Errorf("fact %q cites passage %s, which does not hold it", f.Text, id)
			}
			if i >= 0 && !strings.HasPrefix(b.Text[queen.Passages[i].Start:], queen.Passages[i].Text[:10]) {
				t.Errorf("passage %s offset %d does not point at its text", id, queen.Passages[i].Start)
			}
		}
	}
	if queen.Forms[0].Physical == "" || !strings.HasPrefix(queen.Forms[0].ImagePrompt, "head-and-shoulders portrait, The Queen") {
		t.Errorf("base form %+v", queen.Forms[0])
	}
}

func factTexts(fs []Fact) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Text)
	}
	return out
}

// TestAliceByRules reads Alice's Adventures in Wonderland (PDNC data) and
// checks the rules find the White Rabbit's pink eyes and white kid gloves,
// each with the passage it came from.
func TestAliceByRules(t *testing.T) {
	data, err := os.ReadFile("../../../shared/data/books/AlicesAdventuresInWonderland/novel_text.txt")
	if err != nil {
		t.Fatal(err)
	}
	b, err := book.ParseText(data, "alice.txt")
	if err != nil {
		t.Fatal(err)
	}
	sp := spans.SplitBook(b)
	chars := FromText(b.Text, sp, cast.Extract(b.Text, sp))
	if len(chars) < 10 || chars[0].Name != "Alice" || chars[0].Role != "protagonist" {
		t.Fatalf("cast %d, first %+v", len(chars), chars[0])
	}
	i := slices.IndexFunc(chars, func(c Character) bool { return strings.Contains(c.Name, "Rabbit") })
	if i < 0 {
		t.Fatal("no Rabbit")
	}
	rabbit := Finish(chars[i])
	if !slices.Contains(factTexts(rabbit.Facts.Physical), "pink eyes") || !slices.Contains(factTexts(rabbit.Facts.Clothing), "white kid gloves") {
		t.Errorf("Rabbit facts %+v", rabbit.Facts)
	}
	for _, f := range append(rabbit.Facts.Physical, rabbit.Facts.Clothing...) {
		if len(f.Passages) == 0 {
			t.Errorf("fact %q has no passage", f.Text)
		}
	}
	if !strings.Contains(rabbit.Forms[0].ImagePrompt, "pink eyes") {
		t.Errorf("Rabbit portrait prompt %q", rabbit.Forms[0].ImagePrompt)
	}
}

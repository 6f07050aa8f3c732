package cast

import (
	"strings"
	"testing"
)

// narratorOf is the cast's narrator, if any, and how many it marks.
func narratorOf(text string) (Character, int) {
	var n Character
	count := 0
	for _, c := range Extract(text, split(text)) {
		if c.Narrator {
			n = c
			count++
		}
	}
	return n, count
}

func TestExtractNarrator(t *testing.T) {
	firstPerson := `I went down to the harbour early, as I always did, and I sat on my bench.` + "\n\n" +
		`Tom came by with his dog and sat beside me.` + "\n\n"
	addressed := strings.Repeat(`"Good morning, Nell," said Tom.`+"\n\n"+`"Morning," I said.`+"\n\n"+
		`"Nell, will you walk?" Tom asked.`+"\n\n"+`I nodded and I rose.`+"\n\n", 2)
	for _, tc := range []struct {
		name, text, want string
		aliases          []string
	}{
		{"others address the narrator by name", firstPerson + addressed, "Nell", nil},
		{"a narrator nobody names", firstPerson + strings.Repeat(`"Fine day," said Tom.`+"\n\n"+`"It is," I said.`+"\n\n", 3), NarratorName, nil},
		{"my name is", firstPerson + `"My name is Ishmael," I said. I waited. I looked at my hands.` + "\n\n" +
			`"Fine day," said Tom.` + "\n\n" + `"It is," I said.` + "\n", "Ishmael", nil},
		{"a titled surname addressed as well names the narrator",
			firstPerson + addressed + strings.Repeat(`"Will you dine, Mr. Vane?" Tom asked.`+"\n\n"+`"Gladly," I said.`+"\n\n", 3),
			"Mr. Vane", []string{"Nell"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, count := narratorOf(tc.text)
			if count != 1 || n.Name != tc.want || strings.Join(n.Aliases, ",") != strings.Join(tc.aliases, ",") {
				t.Fatalf("%d narrators, %+v; want one named %q with aliases %v", count, n, tc.want, tc.aliases)
			}
		})
	}
	third := `Tom went down to the harbour early, as he always did, and he sat on his bench.` + "\n\n" +
		strings.Repeat(`"Good morning, Nell," said Tom.`+"\n\n"+`"Morning," said Ann, and she smiled.`+"\n\n", 3)
	if n, count := narratorOf(third); count != 0 {
		t.Fatalf("a third-person story cast a narrator: %+v", n)
	}
}

func TestExtractLetterIsNoCharacter(t *testing.T) {
	// A letter read out in a third-person scene: its heading, salutation
	// and signature name nobody who speaks, and its "I" make no narrator.
	text := `"Read it," said Tom.` + "\n\n" + `Bath, Tuesday.` + "\n\n" + `MY DEAR SISTER,` + "\n\n" +
		`I write in haste, for I leave at noon, and my trunk is not packed.` + "\n\n" + `Yours affectionately,` + "\n\n" + `HARRIET.` + "\n\n" +
		`"My dearest Jane,--We arrived at Bath on Tuesday. Your loving mother, Sarah."` + "\n\n" + `"Well," said Tom, and he folded it.` + "\n"
	var names []string
	for _, c := range Extract(text, split(text)) {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "Tom" {
		t.Fatalf("cast %v, want only Tom", names)
	}
}

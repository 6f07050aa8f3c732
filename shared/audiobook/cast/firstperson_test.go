package cast

import (
	"strings"
	"testing"
)

func TestAttributeRulesFirstPerson(t *testing.T) {
	withNarrator := []Character{{Name: "Robert Cohn", Gender: "male"}, {Name: "Jake", Gender: "male", Narrator: true}}
	text := `"Where are you going?" said Robert Cohn.` + "\n\n" +
		`"Home," I said.` + "\n\n" +
		`"May I come?"` + "\n\n" +
		`"No," said I.` + "\n\n" +
		`"Then good night," he said.` + "\n"
	t.Run("first-person tags name the narrator, and a pronoun tag never does", func(t *testing.T) {
		checkCast(t, text, withNarrator,
			[]string{"Robert Cohn", "Jake", "Robert Cohn", "Jake", "Robert Cohn"},
			[]Source{SourceExplicit, SourceExplicit, SourceTurn, SourceExplicit, SourcePronoun})
	})
	t.Run("without a narrator in the cast the narrator's lines stay blank but keep the turns", func(t *testing.T) {
		checkCast(t, text, withNarrator[:1],
			[]string{"Robert Cohn", "", "Robert Cohn", "", "Robert Cohn"},
			[]Source{SourceExplicit, SourceNone, SourceTurn, SourceNone, SourcePronoun})
	})
}

func TestAttributeRulesConfidence(t *testing.T) {
	cast := []Character{{Name: "Mr. Collins", Gender: "male"}, {Name: "Elizabeth", Gender: "female"}, {Name: "Jake", Gender: "male", Narrator: true}}
	text := `"Where are you going?" said Mr. Collins.` + "\n\n" + // explicit
		`"To the village," I said.` + "\n\n" + // first person
		`Elizabeth looked up. "Is it far?" she asked. She yawned. "I am tired."` + "\n\n" + // pronoun, then paragraph
		`"Not very."` + "\n\n" + // turn, next to its anchor
		`"Then I shall come."` + "\n\n" + // turn, one further
		`"Good."` + "\n" // turn, two further
	sp := split(text)
	att := AttributeRules(text, sp, cast)
	var got []string
	for _, a := range att {
		got = append(got, a.Speaker)
	}
	if want := "Mr. Collins|Jake|Elizabeth|Elizabeth|Jake|Elizabeth|Jake"; strings.Join(got, "|") != want {
		t.Fatalf("speakers %q, want %s", got, want)
	}
	for i := 1; i < len(att); i++ {
		if !(att[i].Confidence < att[i-1].Confidence) || att[i].Confidence <= 0 {
			t.Errorf("line %d (%s) confidence %.2f, want below line %d's %.2f and above 0", i, att[i].Source, att[i].Confidence, i-1, att[i-1].Confidence)
		}
	}
}

// The narrator acting ("I went to the window.") names the line beside it
// as a character's name would; a line no rule answers may fall to the
// narrator like to anyone named before it.
func TestAttributeRulesNarratorActs(t *testing.T) {
	cast := []Character{{Name: "Robert Cohn", Gender: "male"}, {Name: "Jake", Gender: "male", Narrator: true}}
	text := `"Where are you going?" said Robert Cohn.` + "\n\n" +
		`I went over to the window and looked down at the street for a long while. "Nowhere at all."` + "\n"
	checkCast(t, text, cast, []string{"Robert Cohn", "Jake"}, []Source{SourceExplicit, SourceParagraph})
	checkCast(t, strings.Replace(text, "I went", "He went", 1), cast, []string{"Robert Cohn", "Robert Cohn"}, []Source{SourceExplicit, SourceParagraph})
}

// The narrator takes turns in a talk even where no tag or name shows them.
func TestAttributeRulesNarratorTakesTurns(t *testing.T) {
	cast := []Character{{Name: "Bill", Gender: "male"}, {Name: "Jake", Gender: "male", Narrator: true}}
	text := `The train was in.` + "\n\n" + `"So long, fella," Bill said.` + "\n\n" + `"So long!"` + "\n\n" + `"It was a swell trip."` + "\n\n" + `"Will you be in Paris?"` + "\n"
	checkCast(t, text, cast, []string{"Bill", "Jake", "Bill", "Jake"}, []Source{SourceExplicit, SourceTurn, SourceTurn, SourceTurn})
}

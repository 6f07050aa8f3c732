package cast

import (
	"strings"
	"testing"
)

func TestSequenceVocativesAlone(t *testing.T) {
	// No tag at all: the names spoken to say who answers whom.
	cast := []Character{{Name: "Tom", Gender: "male"}, {Name: "Mary", Gender: "female"}}
	checkCast(t, "The rain had stopped.\n\n"+
		`"Mary, is it late?"`+"\n\n"+
		`"Not at all, Tom. Sit down."`+"\n\n"+
		`"Thank you, Mary. I will."`+"\n",
		cast, []string{"Tom", "Mary", "Tom"}, []Source{SourceTurn, SourceTurn, SourceTurn})
}

func TestSequenceBothEnds(t *testing.T) {
	// Untagged turns before a tagged one are read back from it: the
	// alternation ends on Mary, and the other one there is Tom.
	cast := []Character{{Name: "Tom", Gender: "male"}, {Name: "Mary", Gender: "female"}}
	checkCast(t, "Tom came in and sat down.\n\n"+
		`"Is it late?"`+"\n\n"+
		`"Not at all."`+"\n\n"+
		`"Then I will stay."`+"\n\n"+
		`"Good," said Mary.`+"\n",
		cast, []string{"Tom", "Mary", "Tom", "Mary"}, []Source{SourceTurn, SourceTurn, SourceTurn, SourceExplicit})
}

func TestTurnConfidenceBelowExplicit(t *testing.T) {
	// A guess from the sequence never rates as high as a tag, and an even
	// chance rates under LowConfidence, so the LLM pass is asked.
	if c := turnConfidence(1); c >= ConfidenceExplicit {
		t.Errorf("certain turn rated %.2f, not under a tag's %.2f", c, ConfidenceExplicit)
	}
	if c := turnConfidence(0.5); c >= LowConfidence {
		t.Errorf("an even turn rated %.2f, not under LowConfidence %.2f", c, LowConfidence)
	}
}

func TestSequenceOverrulesAPronounTag(t *testing.T) {
	// "he said" looks back to the nearest man, John, named in passing; the
	// turns on both sides make it Tom's in his talk with Mary.
	cast := []Character{{Name: "Tom", Gender: "male"}, {Name: "Mary", Gender: "female"}, {Name: "John", Gender: "male"}}
	checkCast(t, "Tom and Mary sat by the fire.\n\n"+
		`"Is it late?" said Tom.`+"\n\n"+
		`"Not at all," said Mary, looking at the door that John had shut.`+"\n\n"+
		`"Then I will stay," he said.`+"\n\n"+
		`"Good," said Mary.`+"\n\n"+
		`"And the tea?"`+"\n",
		cast, []string{"Tom", "Mary", "Tom", "Mary", "Tom"},
		[]Source{SourceExplicit, SourceExplicit, SourcePronoun, SourceExplicit, SourceTurn})
}

// A turn that speaks of a character by name is seldom theirs: the line
// alternation would give back to Tom goes to the third person of the talk.
func TestSequenceNamedIsNotTheSpeaker(t *testing.T) {
	text := `"Good morning," said Jack.` + "\n\n" + `"Hello," said Tom.` + "\n\n" + `"Hello," said Mary.` + "\n\n" +
		`"I have not seen Tom since Monday."` + "\n"
	got, att := speakers(t, text)
	if got[3] != "Jack" || att[3].Source != SourceTurn {
		t.Fatalf("speakers %q, last line %+v; want Jack by turn", got, att[3])
	}
	got, _ = speakers(t, strings.Replace(text, "seen Tom", "seen him", 1))
	if got[3] != "Tom" {
		t.Fatalf("speakers %q: without the name the turn should alternate back to Tom", got)
	}
}

// "Sir" and "madam" say the listener's gender: the turn after a line that
// says "sir" is likelier a man's, where alternation alone gives a woman.
func TestSequenceWordsOfAddress(t *testing.T) {
	cast := []Character{{Name: "Tom", Gender: "male"}, {Name: "Mary", Gender: "female"}, {Name: "Jane", Gender: "female"}}
	text := func(address string) string {
		return `"Good morning," said Tom.` + "\n\n" + `"Good morning," said Mary.` + "\n\n" + `"Good morning," said Jane.` + "\n\n" +
			`"Will you walk with us` + address + `?"` + "\n\n" + `"Gladly."` + "\n"
	}
	reply := func(s string) string {
		return AttributeRules(s, split(s), cast)[4].Speaker
	}
	if got := reply(text("")); got != "Jane" {
		t.Fatalf("without words of address the reply went to %q, want Jane by alternation", got)
	}
	if got := reply(text(", sir")); got != "Tom" {
		t.Fatalf("after \"sir\" the reply went to %q, want Tom", got)
	}
}

// A tag that says a gender none of the talk's speakers has ("said the
// girl" between two men) brings in the nearest character of that gender.
func TestSequenceGenderBringsInACandidate(t *testing.T) {
	cast := []Character{{Name: "Bill", Gender: "male"}, {Name: "Fagin", Gender: "male"}, {Name: "Nance", Gender: "female"}}
	text := `Nance sat by the fire, sewing, and said nothing for a long while; the room was dark and cold and quiet, and the candle had burned low.` + "\n\n" +
		`"Where is the boy?" said Bill.` + "\n\n" + `"Gone," said Fagin.` + "\n\n" + `"Why do you look at me so?" said the girl.` + "\n"
	checkCast(t, text, cast, []string{"Bill", "Fagin", "Nance"}, []Source{SourceExplicit, SourceExplicit, SourceTurn})
}

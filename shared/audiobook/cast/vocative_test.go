package cast

import (
	"strings"
	"testing"
)

func TestAttributeRulesVocatives(t *testing.T) {
	cast := []Character{{Name: "Mr. Hartley", Gender: "male"}, {Name: "Nell", Gender: "female"}, {Name: "Julia", Gender: "female"}}
	for _, tc := range []struct {
		name    string
		text    string
		want    []string
		sources []Source
	}{
		{"the name a turn speaks to is never its speaker",
			`"Is it raining?" said Nell.` + "\n\n" + `"A little," said Julia.` + "\n\n" + `"Then stay in, Nell."` + "\n",
			[]string{"Nell", "Julia", "Julia"}, []Source{SourceExplicit, SourceExplicit, SourceTurn}},
		{"the one spoken to answers next, before the alternation",
			`"Is it raining?" said Nell.` + "\n\n" + `"A little," said Julia.` + "\n\n" +
				`"My dear Mr. Hartley, what do you think?" said Nell.` + "\n\n" + `"I think it will clear."` + "\n",
			[]string{"Nell", "Julia", "Nell", "Mr. Hartley"}, []Source{SourceExplicit, SourceExplicit, SourceExplicit, SourceTurn}},
		{"a pronoun tag skips the one spoken to",
			`Nell and Julia sat by the fire.` + "\n\n" + `"Julia, you are cold," she said.` + "\n",
			[]string{"Nell"}, []Source{SourcePronoun}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkCast(t, tc.text, cast, tc.want, tc.sources) })
	}
}

func TestVocativePosition(t *testing.T) {
	for _, tc := range []struct {
		quote, name string
		want        bool
	}{
		{"Come here, Eleanor.", "Eleanor", true},
		{"My dear Hartley, you are late.", "Hartley", true},
		{"Eleanor, come here.", "Eleanor", true},
		{"Oh Eleanor!", "Eleanor", true},
		{"I saw Eleanor yesterday.", "Eleanor", false},
		{"Eleanor is late.", "Eleanor", false},
	} {
		s := strings.Index(tc.quote, tc.name)
		if got := vocativeAt(tc.quote, 0, len(tc.quote), s, s+len(tc.name)); got != tc.want {
			t.Errorf("%q: vocative %v, want %v", tc.quote, got, tc.want)
		}
	}
}

func TestPronounAnswersAddressee(t *testing.T) {
	// "she replied" answers the one the turn before spoke to, not the
	// woman named last in the narration.
	cast := []Character{{Name: "Tom", Gender: "male"}, {Name: "Mary", Gender: "female"}, {Name: "Ann", Gender: "female"}}
	checkCast(t, "Mary came into the room with Ann.\n\n"+
		`"Well, Mary," said Tom, "I hope you slept."`+"\n\n"+
		`"Very well," she replied.`+"\n",
		cast, []string{"Tom", "Tom", "Mary"}, []Source{SourceExplicit, SourceExplicit, SourcePronoun})
}

package cast

import (
	"strings"
	"testing"
)

func TestAttributeRulesDescriptions(t *testing.T) {
	hartleys := []Character{{Name: "Mr. Hartley", Gender: "male"}, {Name: "Mrs. Hartley", Gender: "female"}, {Name: "Nell", Gender: "female"}}
	for _, tc := range []struct {
		name    string
		text    string
		want    []string
		sources []Source
	}{
		{"his wife is Mrs. of his surname",
			`"Sit down," said Mr. Hartley.` + "\n\n" + `Nell sat down.` + "\n\n" + `"I will not," cried his wife.` + "\n",
			[]string{"Mr. Hartley", "Mrs. Hartley"}, []Source{SourceExplicit, SourceExplicit}},
		{"her husband is Mr. of her surname, with the tag before the quotation",
			`Mrs. Hartley came in. "Where is Nell?" she asked.` + "\n\n" + `After a pause her husband said, "In the garden."` + "\n",
			[]string{"Mrs. Hartley", "Mr. Hartley"}, []Source{SourcePronoun, SourceExplicit}},
		{"a description no one of the cast fits is left blank",
			`The lane was empty and dark when the cart came by.` + "\n\n" + `"Who goes there?" said the old carter.` + "\n",
			[]string{""}, []Source{SourceNone}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkCast(t, tc.text, hartleys, tc.want, tc.sources) })
	}
}

// A title written as a noun ("said the colonel") names the character who
// bears it, the one named last when two do, the only one when one does.
func TestAttributeRulesTitleNouns(t *testing.T) {
	cast := []Character{{Name: "Colonel Ware", Gender: "male"}, {Name: "Colonel Lyle", Gender: "male"}, {Name: "Mary", Gender: "female"}}
	checkCast(t, `Colonel Ware rode up to the gate.`+"\n\n"+`"Good evening," said the colonel.`+"\n",
		cast, []string{"Colonel Ware"}, []Source{SourceExplicit})
	checkCast(t, `Colonel Ware rode off, and Colonel Lyle came in.`+"\n\n"+`"Good evening," said the colonel.`+"\n",
		cast, []string{"Colonel Lyle"}, []Source{SourceExplicit})
	checkCast(t, `Mary waited at the gate.`+"\n\n"+`"Good evening," said the colonel.`+"\n",
		[]Character{cast[0], cast[2]}, []string{"Colonel Ware"}, []Source{SourceExplicit})
}

func TestAttributeRulesActionBeats(t *testing.T) {
	cast := []Character{{Name: "Mr. Hartley", Gender: "male"}, {Name: "Nell", Gender: "female"}, {Name: "Julia", Gender: "female"}}
	long := strings.Repeat("The wind rose over the moor and rattled the shutters of the old house. ", 6)
	checkCast(t, long+"\n\n"+
		`Nell looked up from her book. "Is it late?"`+"\n\n"+
		`"Not yet." Julia drew the curtain.`+"\n",
		cast, []string{"Nell", "Julia"}, []Source{SourceParagraph, SourceParagraph})
}

func TestAttributeRulesActorParagraph(t *testing.T) {
	cast := []Character{{Name: "Nell", Gender: "female"}, {Name: "Julia", Gender: "female"}}
	checkCast(t, `"Is it late?" said Nell.`+"\n\n"+`"Not yet," said Julia.`+"\n\n"+
		`Julia poured another cup and pushed it across the table.`+"\n\n"+`"You should stay."`+"\n",
		cast, []string{"Nell", "Julia", "Julia"}, []Source{SourceExplicit, SourceExplicit, SourceTurn})
}

func TestAttributeRulesPronounBeat(t *testing.T) {
	cast := []Character{{Name: "Mr. Hartley", Gender: "male"}, {Name: "Nell", Gender: "female"}}
	long := strings.Repeat("The wind rose over the moor and rattled the shutters of the old house. ", 6)
	checkCast(t, long+"\n\n"+`Mr. Hartley looked at Nell across the table for a long while.`+"\n\n"+
		`She grew pale. "I will not go."`+"\n",
		cast, []string{"Nell"}, []Source{SourceParagraph})
}

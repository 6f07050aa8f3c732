package cast

import "testing"

func TestAttributeRulesLeadIns(t *testing.T) {
	cast := []Character{{Name: "Mr. Hartley", Gender: "male"}, {Name: "Nell", Gender: "female"}, {Name: "Julia", Gender: "female"}}
	long := "The wind rose over the moor and rattled the shutters of the old house all the night long.\n\n"
	for _, tc := range []struct {
		name    string
		text    string
		want    []string
		sources []Source
	}{
		{"an unusual speech verb",
			long + `"That will do," interposed Julia.` + "\n",
			[]string{"Julia"}, []Source{SourceExplicit}},
		{"a verb no list holds, where a tag stands: the quotation's sentence runs on",
			long + `"Where is the tea?" exploded Mr. Hartley.` + "\n\n" + `"In the pot," Nell yawned.` + "\n\n" + `"Oh, do be quiet," she snapped.` + "\n",
			[]string{"Mr. Hartley", "Nell", "Nell"}, []Source{SourceExplicit, SourceExplicit, SourcePronoun}},
		{"a long sentence whose last predicate is the speech verb",
			long + `Julia put down the heavy basket of apples that she had carried all the way up from the orchard and said, "There."` + "\n",
			[]string{"Julia"}, []Source{SourceExplicit}},
		{"an epithet of the moment between the verb and the name",
			long + `"Nonsense," said sleepy Julia.` + "\n",
			[]string{"Julia"}, []Source{SourceExplicit}},
		{"a name after a quotation that ends its sentence is no tag",
			long + `"It is late." Nell yawned.` + "\n",
			[]string{"Nell"}, []Source{SourceParagraph}},
		{"was his first remark",
			long + `Mr. Hartley came in late.` + "\n\n" + `"Where is the tea?" was his first remark.` + "\n",
			[]string{"Mr. Hartley"}, []Source{SourcePronoun}},
		{"X's answer was",
			long + `Julia's answer was: "Never."` + "\n",
			[]string{"Julia"}, []Source{SourceExplicit}},
		{"a clause set off by commas between the subject and the verb",
			long + `Nell rose from the table and, turning to her sister Julia, said, "Come."` + "\n",
			[]string{"Nell"}, []Source{SourceExplicit}},
		{"the subject of a sentence introducing the quotation with a colon",
			long + `The others were silent. Julia turned to the window:` + "\n\n" + `"It is snowing."` + "\n",
			[]string{"Julia"}, []Source{SourceExplicit}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkCast(t, tc.text, cast, tc.want, tc.sources) })
	}
}

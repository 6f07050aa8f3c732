package cast

import "testing"

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

package cast

import (
	"reflect"
	"testing"
)

func TestDescribedSpeakersAreCast(t *testing.T) {
	text := `"Two bottles," said Tom.` + "\n\n" + `"Right away, sir," said the porter.` + "\n\n" +
		`"And quickly," said Tom.` + "\n\n" + `"As quick as I can," the porter answered.` + "\n"
	got, _ := speakers(t, text)
	// The porter, described twice, is a speaker; "the girl" describes
	// anyone (a named character too), so it is not.
	want := []string{"Tom", "The Porter", "Tom", "The Porter"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("speakers %q, want %q", got, want)
	}
	if g := castOf(text + "The porter nodded and then he went. The porter put his cap on.\n")["The Porter"].Gender; g != "male" {
		t.Errorf("The Porter's gender %q, want male (from the pronouns after him)", g)
	}
	girl := `"Is it late?" said the girl.` + "\n\n" + `"Very," said Tom.` + "\n\n" + `"Then go," said the girl.` + "\n"
	if c := castOf(girl); len(c) != 1 {
		t.Errorf("cast %v, want Tom alone", c)
	}
}

func TestDescribedTitleJoinsItsHolder(t *testing.T) {
	text := `"Welcome," said Count Orsolo.` + "\n\n" + `"Thank you," said Tom.` + "\n\n" +
		`"More wine," said the count.` + "\n\n" + `"Gladly," said Tom.` + "\n\n" + `"And bread," the count added.` + "\n"
	got, _ := speakers(t, text)
	want := []string{"Count Orsolo", "Tom", "Count Orsolo", "Tom", "Count Orsolo"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("speakers %q, want %q", got, want)
	}
	if a := castOf(text)["Count Orsolo"].Aliases; !reflect.DeepEqual(a, []string{"The Count"}) {
		t.Errorf("Count Orsolo's aliases %q, want The Count", a)
	}
}

func TestGivenNameJoinsMissSurnameDespiteBrother(t *testing.T) {
	// Harry Vane is a man: he does not make "Miss Vane" ambiguous, and "Mr.
	// Vane" is not Clara.
	text := `"Yes," said Clara.` + "\n\n" + `"No," said Miss Vane.` + "\n\n" + `"Well," said Mr. Vane.` + "\n\n" +
		`"Come," said Harry. Harry Vane went out; Harry Vane came back. Clara Vane smiled. Clara Vane sat down.` + "\n"
	c := castOf(text)
	if a := c["Clara Vane"].Aliases; !reflect.DeepEqual(a, []string{"Clara", "Miss Vane"}) {
		t.Errorf("Clara Vane's aliases %q, want Clara and Miss Vane (cast %v)", a, c)
	}
	if a, ok := c["Mr. Vane"]; !ok || len(a.Aliases) != 0 {
		t.Errorf("Mr. Vane %v, want a character of his own", a)
	}
}

func TestDescribedTitleJoinsTheSurnameWrittenAfterIt(t *testing.T) {
	// "the doctor" is Mr. Pell: the text writes Doctor Pell, and no other
	// doctor.
	text := `Doctor Pell came in.` + "\n\n" + `"Sit," said Mr. Pell.` + "\n\n" + `"Thank you," said Tom.` + "\n\n" +
		`"Now rest," said the doctor.` + "\n\n" + `"I will," said Tom.` + "\n\n" + `"Good," the doctor said.` + "\n"
	got, _ := speakers(t, text)
	if want := []string{"Mr. Pell", "Tom", "Mr. Pell", "Tom", "Mr. Pell"}; !reflect.DeepEqual(got, want) {
		t.Errorf("speakers %q, want %q", got, want)
	}
	two := text + `Doctor Bayle came too.` + "\n"
	if a := castOf(two)["Mr. Pell"].Aliases; len(a) != 0 {
		t.Errorf("with two doctors Mr. Pell's aliases are %q, want none", a)
	}
}

package cast

import (
	"reflect"
	"strings"
	"testing"
)

// castOf extracts the cast of text and indexes it by name.
func castOf(text string) map[string]Character {
	out := map[string]Character{}
	for _, c := range Extract(text, split(text)) {
		out[c.Name] = c
	}
	return out
}

func TestExtractMergesAliases(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want map[string][]string // name → aliases
	}{
		{"surname, titled surname and full name are one man",
			`"Indeed," said Mr. Darcy.` + "\n\n" + `"No," said Mr. Darcy.` + "\n\n" + `"Perhaps," said Darcy.` + "\n\n" +
				`"I am here," Fitzwilliam Darcy said. Fitzwilliam Darcy took his hat. Fitzwilliam Darcy bowed his head.` + "\n",
			map[string][]string{"Mr. Darcy": {"Darcy", "Fitzwilliam Darcy"}}},
		{"the short form of an article name joins the full one",
			`"Oh dear!" said the White Rabbit.` + "\n\n" + `"Late!" said the Rabbit.` + "\n\n" + `"Very late!" cried the Rabbit.` + "\n",
			map[string][]string{"The Rabbit": {"The White Rabbit"}}},
		{"a name before of joins its short form",
			`"Order!" said the King of Hearts.` + "\n\n" + `"Silence!" said the King.` + "\n",
			map[string][]string{"The King of Hearts": {"The King"}}},
		{"a hyphenated name joins its last part",
			`"Tomorrow," said the Frog-Footman.` + "\n\n" + `"Or the next day," the Footman went on.` + "\n\n" + `"Maybe," said the Footman.` + "\n",
			map[string][]string{"The Footman": {"The Frog-Footman"}}},
		{"Mr. and Mrs. of one surname are two people; the bare surname is the man's",
			`"My dear," said Mrs. Bennet.` + "\n\n" + `"Yes?" said Mr. Bennet.` + "\n\n" + `"Hush," said Bennet.` + "\n",
			map[string][]string{"Mrs. Bennet": nil, "Mr. Bennet": {"Bennet"}}},
		{"a bare surname is a man's, not a woman's titled surname",
			`"My dear," said Mrs. Bennet.` + "\n\n" + `"Yes?" said Miss Bennet.` + "\n\n" + `"Hush," said Bennet.` + "\n",
			map[string][]string{"Mrs. Bennet": nil, "Miss Bennet": nil, "Bennet": nil}},
		{"a bare surname joins the man's full name, not his mother",
			`"Yes," said Ralph.` + "\n\n" + `"No," said Denham.` + "\n\n" + `"Why?" said Mrs. Denham.` + "\n\n" +
				`He met Ralph Denham there, and then Ralph Denham sat down.` + "\n",
			map[string][]string{"Ralph Denham": {"Denham", "Ralph"}, "Mrs. Denham": nil}},
		{"a surname's particles in lower case stay in it; Mr. and Mrs. of it are two people",
			`"Yes," said Mr. van der Luyden.` + "\n\n" + `"No," said Mrs. van der Luyden.` + "\n\n" + `"Come," said Mr. van der Luyden.` + "\n",
			map[string][]string{"Mr. van der Luyden": nil, "Mrs. van der Luyden": nil}},
		{"a given-name title joins the full name",
			`"Come here," said Lady Catherine. "At once," said Lady Catherine de Bourgh.` + "\n\n" + `"Now," said Lady Catherine.` + "\n",
			map[string][]string{"Lady Catherine": {"Lady Catherine de Bourgh"}}},
		{"a colonel's surname is not another man's given name",
			`"Good day," said Colonel Fitzwilliam.` + "\n\n" + `"Good day," said Fitzwilliam Darcy, and he smiled. Fitzwilliam Darcy took his leave.` + "\n",
			map[string][]string{"Colonel Fitzwilliam": nil, "Fitzwilliam Darcy": nil}},
		{"sentence openings and pronouns are not characters",
			`Then Alice said, "Yes." Oh, she said nothing more.` + "\n\n" + `"Well," said Alice. Well, it was late.` + "\n",
			map[string][]string{"Alice": nil}},
	} {
		t.Run(tc.name, func(t *testing.T) { wantCast(t, tc.text, tc.want) })
	}
}

// wantCast checks the cast of text: each name with its aliases.
func wantCast(t *testing.T, text string, want map[string][]string) {
	t.Helper()
	names := map[string][]string{}
	for n, c := range castOf(text) {
		names[n] = c.Aliases
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("cast %v, want %v", names, want)
	}
}

func TestExtractGender(t *testing.T) {
	text := `"My dear," said Mrs. Bennet.` + "\n\n" + `"Yes?" said Mr. Bennet.` + "\n\n" +
		`"Hush," said the Queen.` + "\n\n" +
		`"Tea?" said Jane. Jane nodded as she sat. Jane smiled as she spoke.` + "\n\n" +
		`"No," said Tom. Tom shook his head. Tom rubbed his eyes.` + "\n\n" +
		`"Where?" said Pat.` + "\n"
	got := castOf(text)
	for name, want := range map[string]string{
		"Mrs. Bennet": "female", "Mr. Bennet": "male", "The Queen": "female",
		"Jane": "female", "Tom": "male", "Pat": "",
	} {
		if c, ok := got[name]; !ok || c.Gender != want {
			t.Errorf("%s: %+v, want gender %q", name, c, want)
		}
	}
}

func TestExtractIsDeterministicWithStableIDs(t *testing.T) {
	text := `"Yes," said Mr. Darcy.` + "\n\n" + `"No," said the Mock Turtle.` + "\n\n" + `"Both," said the Mock Turtle.` + "\n\n" +
		`"Neither," said Alice. Alice laughed.` + "\n"
	first := Extract(text, split(text))
	for i := 0; i < 5; i++ {
		if again := Extract(text, split(text)); !reflect.DeepEqual(again, first) {
			t.Fatalf("run %d: %+v, first %+v", i, again, first)
		}
	}
	var ids []string
	for _, c := range first {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "alice,the-mock-turtle,mr-darcy" {
		t.Fatalf("ids in order %v", ids)
	}
	if first[0].Mentions != 2 {
		t.Fatalf("Alice mentioned %d times, want 2", first[0].Mentions)
	}
}

func TestExtractNamesByFullName(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want map[string][]string // name → aliases
	}{
		{"a given name takes the full name the text writes",
			`"Yes," said Nora.` + "\n\n" + `"No," said Nora.` + "\n\n" +
				`He met Nora Blake there, and then Nora Blake sat down.` + "\n",
			map[string][]string{"Nora Blake": {"Nora"}}},
		{"a bare surname takes its title when the text mostly writes it",
			`"Yes," said Astor.` + "\n\n" + `"No," said Astor.` + "\n\n" +
				`Mr. Astor came in. Mr. Astor sat down. Then Mr. Astor left.` + "\n",
			map[string][]string{"Mr. Astor": {"Astor"}}},
		{"a given name and a surname of one person join through the full name",
			`"Yes," said Ralph.` + "\n\n" + `"No," said Denham.` + "\n\n" + `"Why?" said Denham.` + "\n\n" +
				`He met Ralph Denham there, and then Ralph Denham sat down.` + "\n",
			map[string][]string{"Ralph Denham": {"Denham", "Ralph"}}},
		{"a son does not join Mr. and the surname, who may be his father",
			`"Yes," said George.` + "\n\n" + `"No," said Mr. Emery.` + "\n\n" +
				`He met George Emery there, and then George Emery sat down.` + "\n",
			map[string][]string{"George": nil, "Mr. Emery": nil}},
		{"Mr. and a surname shared by two brothers joins neither",
			`"Yes," said Robert Ashby.` + "\n\n" + `"No," said Mr. Ashby.` + "\n\n" +
				`He met Tom Ashby there, and then Tom Ashby sat down.` + "\n",
			map[string][]string{"Robert Ashby": nil, "Mr. Ashby": nil}},
		{"Mr. and the surname of the one man of that family is him",
			`"Yes," said Robert Ashby.` + "\n\n" + `"No," said Mr. Ashby.` + "\n\n" +
				`He met Ann Ashby there, and then Ann Ashby sat down.` + "\n",
			map[string][]string{"Robert Ashby": {"Mr. Ashby"}}},
		{"Mr. and the surname answering the one man of that family in talk are two men",
			`"Yes," said Robert Ashby.` + "\n\n" + `"No," said Mr. Ashby.` + "\n\n" +
				`"Why?" said Robert Ashby.` + "\n\n" + `"Because," said Mr. Ashby.` + "\n\n" +
				`He met Robert Ashby there, and then Robert Ashby sat down.` + "\n",
			map[string][]string{"Robert Ashby": nil, "Mr. Ashby": nil}},
		{"Miss and the surname of several sisters is the eldest, not the sister named in full",
			`"Yes," said Lucy Steele.` + "\n\n" + `The two Miss Steeles sat down.` + "\n\n" +
				`"No," said Miss Steele, and Lucy Steele smiled.` + "\n",
			map[string][]string{"Lucy Steele": nil, "Miss Steele": nil}},
		{"Miss and the surname of one daughter is her",
			`"Yes," said Lucy Steele.` + "\n\n" + `The Steeles sat down.` + "\n\n" +
				`"No," said Miss Steele, and Lucy Steele smiled.` + "\n",
			map[string][]string{"Lucy Steele": {"Miss Steele"}}},
		{"a woman's full name is hers, not her father's, whose title fits the surname",
			`"Yes," said Katharine.` + "\n\n" + `"No," said Mr. Hilbery. Mr. Hilbery shook his head.` + "\n\n" +
				`He met Katharine Hilbery there, and then Katharine Hilbery sat down.` + "\n",
			map[string][]string{"Katharine Hilbery": {"Katharine"}, "Mr. Hilbery": nil}},
		{"the Major is the one Major the text names",
			`"Halt," said the Major.` + "\n\n" + `"March," said the Major.` + "\n\n" +
				`He met Major Callow there, and then Major Callow sat down.` + "\n",
			map[string][]string{"Major Callow": {"The Major"}}},
		{"of two Majors the text names, the Major is neither",
			`"Halt," said the Major.` + "\n\n" + `"March," said the Major.` + "\n\n" +
				`He met Major Callow there, and then Major Callow sat down by Major Rook and Major Rook.` + "\n",
			map[string][]string{"The Major": nil}},
		{"a surname's particle stays on it, and the bare surname joins it",
			`"Non," said De Griers, over a glass de vin.` + "\n\n" + `"Oui," said De Griers.` + "\n\n" + `"Bien," said Griers.` + "\n",
			map[string][]string{"De Griers": {"Griers"}}},
		{"Mrs. and the surname is not the daughter known by her full name",
			`"Yes," said Daisy Mills. Daisy Mills smiled as she spoke.` + "\n\n" + `"No," said Mrs. Mills.` + "\n\n" +
				`"Hush," said Daisy Mills. Daisy Mills frowned as she went. Tom nodded as he went.` + "\n",
			map[string][]string{"Daisy Mills": nil, "Mrs. Mills": nil}},
	} {
		t.Run(tc.name, func(t *testing.T) { wantCast(t, tc.text, tc.want) })
	}
}

func TestExtractGenderFromKinAndGivenNames(t *testing.T) {
	text := `"Come," said Zeb. She went out with her brother Zeb.` + "\n\n" +
		`"Stay," said Wren. He looked at his sister Wren.` + "\n\n" +
		`"Tea?" said Fanny.` + "\n\n" + `"No," said Walter.` + "\n\n" + `"Why?" said Quill.` + "\n"
	got := castOf(text)
	for name, want := range map[string]string{
		"Zeb": "male", "Wren": "female", "Fanny": "female", "Walter": "male", "Quill": "",
	} {
		if c, ok := got[name]; !ok || c.Gender != want {
			t.Errorf("%s: %+v, want gender %q", name, c, want)
		}
	}
}

func TestExtractGenderIgnoresObjectPronouns(t *testing.T) {
	// "him" after a name is most often someone else: Brax is a woman.
	text := `"Come," said Brax. Brax smiled at him. Brax waved at him. Brax looked at him.` + "\n\n" +
		`"Now," said Brax. Brax turned as she went. Brax sighed as she sat.` + "\n\n" +
		`"Yes," said Orm. Orm shook his head. Orm rubbed his eyes.` + "\n"
	got := castOf(text)
	for name, want := range map[string]string{"Brax": "female", "Orm": "male"} {
		if c, ok := got[name]; !ok || c.Gender != want {
			t.Errorf("%s: %+v, want gender %q", name, c, want)
		}
	}
}

func TestExtractGenderFromTitledSurname(t *testing.T) {
	// The text titles Quorn "Mr." only, so bare "Quorn" is a man; Bennet
	// is titled both ways and stays unknown; Wynn is titled "Lady".
	text := `"Yes," said Quorn.` + "\n\n" + `"No," said Bennet.` + "\n\n" + `"So," said Quorn.` + "\n\n" + `"Oh," said Quorn.` + "\n\n" +
		`They spoke of Mr. Quorn, and of Mr. Quorn again, and of Mr. Bennet and Mrs. Bennet and Mrs. Bennet.` + "\n"
	text += `"Hm," said Wynn.` + "\n\n" + `They spoke of Lady Wynn Ashby, and of Lady Wynn.` + "\n"
	got := castOf(text)
	for name, want := range map[string]string{"Quorn": "male", "Bennet": "", "Wynn": "female"} {
		if c, ok := got[name]; !ok || c.Gender != want {
			t.Errorf("%s: %+v, want gender %q", name, c, want)
		}
	}
}

// A dialect or foreign title ("Signora", "Mistah") is a title: it says
// the gender and is not taken for a given name.
func TestExtractDialectTitles(t *testing.T) {
	text := `"Is he in?" said Signora Herriton.` + "\n\n" + `"Yes, Signora," said Joe.` + "\n\n" +
		`"Good," said Signora Herriton.` + "\n"
	chars := Extract(text, split(text))
	for _, c := range chars {
		if c.Name == "Signora Herriton" {
			if c.Gender != "female" {
				t.Fatalf("Signora Herriton's gender %q, want female", c.Gender)
			}
			return
		}
	}
	t.Fatalf("no Signora Herriton in %+v", chars)
}

func TestMonsieurAbbreviatedIsATitle(t *testing.T) {
	// "M." before a surname is Monsieur, as Mme. and Mlle.: the dot does
	// not end the tag, and the man keeps his title.
	text := `"Yes," said M. Duval.` + "\n\n" + `"No," said Tom.` + "\n\n" + `"Well," said M. Duval.` + "\n"
	got, _ := speakers(t, text)
	if want := []string{"M. Duval", "Tom", "M. Duval"}; !reflect.DeepEqual(got, want) {
		t.Errorf("speakers %q, want %q", got, want)
	}
	if g := castOf(text)["M. Duval"].Gender; g != "male" {
		t.Errorf("M. Duval's gender %q, want male", g)
	}
}

func TestBareSurnameIsNamedByItsTitledForm(t *testing.T) {
	// Tagged mostly by the bare surname, the man is named as annotators
	// name him, by the title and surname the book also tags him with.
	text := `"Yes," said Rao.` + "\n\n" + `"No," said Tom.` + "\n\n" + `"Well," said Rao.` + "\n\n" +
		`"Go," said Rao. "Come," said Mr. Rao.` + "\n\n" + `Mr. Rao came back.` + "\n"
	wantCast(t, text, map[string][]string{"Mr. Rao": {"Rao"}, "Tom": nil})
}

func TestVoteClearShareWinsAgainstTheBookBalance(t *testing.T) {
	// In a book of men (108 "he" to 18 "she" after names), a man beside
	// the heroine gets 8 of 12 votes: below the balance bar, a clear share.
	for _, tc := range []struct {
		male, female, males, females int
		want                         string
	}{
		{8, 4, 108, 18, "male"},
		{4, 8, 18, 108, "female"},
		{4, 3, 108, 18, ""}, // too few votes, too even
		{6, 6, 108, 18, ""},
	} {
		if got := vote(tc.male, tc.female, tc.males, tc.females); got != tc.want {
			t.Errorf("vote(%d, %d, %d, %d) = %q, want %q", tc.male, tc.female, tc.males, tc.females, got, tc.want)
		}
	}
}

func TestBareSurnameOfMrIsAMan(t *testing.T) {
	text := `"Yes," said Hamble.` + "\n\n" + `"No," said Mrs. Hamble.` + "\n\n" + `"Come," said Hamble.` + "\n\n" +
		`Mr. Hamble had a farm. Mr. Hamble sold it. Mrs. Hamble stayed.` + "\n"
	c := castOf(text)
	for _, x := range c {
		if x.Name == "Hamble" || reflect.DeepEqual(x.Aliases, []string{"Hamble"}) {
			if x.Gender != "male" {
				t.Errorf("%s's gender %q, want male (cast %v)", x.Name, x.Gender, c)
			}
		}
	}
	if g := c["Mrs. Hamble"].Gender; g != "female" {
		t.Errorf("Mrs. Hamble's gender %q, want female", g)
	}
}

func TestFullNameWrittenOnceJoinsGivenNameAndTitledSurname(t *testing.T) {
	text := `"Yes," said Nora.` + "\n\n" + `"No," said Tom.` + "\n\n" + `"Well," said Nora.` + "\n\n" +
		`Nora Pym had come from the north.` + "\n\n" + `"Come," said Miss Pym.` + "\n\n" + `"Why?" said Tom.` + "\n\n" +
		`"Now," said Miss Pym.` + "\n"
	wantCast(t, text, map[string][]string{"Nora Pym": {"Miss Pym", "Nora"}, "Tom": nil})
	// A bare surname, or a given name with its own title, stays apart on
	// one full name: Sir Tom is not Ward.
	text = `"Yes," said Sir Tom.` + "\n\n" + `"No," said Ward.` + "\n\n" + `"Well," said Tom.` + "\n\n" +
		`"Come," said Ward. Tom Ward had come from the north.` + "\n"
	c := castOf(text)
	if _, ok := c["Ward"]; !ok {
		t.Errorf("cast %v, want Ward apart", c)
	}
}

func TestMrsSurnameOfTwoWivesStaysApart(t *testing.T) {
	// Two wives of the family are told apart by their husbands' given
	// names: "Mrs. Hart" may be either, so she joins neither.
	one := `"Yes," said Mrs. Lovell Hart.` + "\n\n" + `"No," said Tom.` + "\n\n" + `Later she came back.` + "\n\n" +
		`"Well," said Mrs. Hart.` + "\n\n" + `"Good," said Tom.` + "\n\n" + `"Come," said Mrs. Lovell Hart.` + "\n"
	text := one + "\n" + `Mrs. Manson Hart came in. Mrs. Manson Hart sat down.` + "\n"
	c := castOf(text)
	if _, ok := c["Mrs. Hart"]; !ok {
		t.Errorf("cast %v, want Mrs. Hart apart", c)
	}
	// With one wife of that name, Mrs. Hart is she.
	if c := castOf(one); len(c) != 2 {
		t.Errorf("cast %v, want Tom and one Mrs. Hart", c)
	}
}

func TestHusbandsNameAndBaronetStayApart(t *testing.T) {
	// "Mrs. John Hale" is John Hale's wife, not John Hale; and Sir John is
	// not John Hale, as the text never writes Sir John Hale.
	text := `"Yes," said Mrs. John Hale.` + "\n\n" + `"No," said Tom.` + "\n\n" + `Later it rained.` + "\n\n" +
		`"Well," said John Hale.` + "\n\n" + `"Good," said Tom.` + "\n\n" + `Later it stopped.` + "\n\n" +
		`"Come," said Sir John.` + "\n\n" + `"Why?" said Tom.` + "\n"
	c := castOf(text)
	for _, name := range []string{"Mrs. John Hale", "John Hale", "Sir John"} {
		if x, ok := c[name]; !ok || len(x.Aliases) != 0 {
			t.Errorf("%s: %v, want a character of its own (cast %v)", name, x, c)
		}
	}
}

func TestTheTitleJoinsItsOneHolder(t *testing.T) {
	// The particle of a surname and the short form of a title do not hide
	// the one Professor or Doctor of the text.
	text := `"Yes," said the Professor.` + "\n\n" + `"No," said Tom.` + "\n\n" + `"Come," said the Doctor.` + "\n\n" +
		`"Why?" said Tom. Professor de Moll came. Professor de Moll sat. Dr. Kell rose. Dr. Kell left.` + "\n"
	wantCast(t, text, map[string][]string{"Professor de Moll": {"The Professor"}, "Dr. Kell": {"The Doctor"}, "Tom": nil})
}

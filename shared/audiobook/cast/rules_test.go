package cast

import (
	"strings"
	"testing"
)

func TestAttributeRulesTags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		text    string
		want    []string
		sources []Source
	}{
		{"verb then name after the quote",
			`"Good morning," said Alice.` + "\n",
			[]string{"Alice"}, []Source{SourceExplicit}},
		{"name then verb after the quote",
			`"Good morning," Alice said.` + "\n",
			[]string{"Alice"}, []Source{SourceExplicit}},
		{"an adverb between name and verb",
			`"Good morning," Alice hastily replied.` + "\n",
			[]string{"Alice"}, []Source{SourceExplicit}},
		{"article name and a verb with its particle",
			`"Off with it!" the Queen shouted.` + "\n\n" + `"Go on," the Queen went on.` + "\n",
			[]string{"The Queen", "The Queen"}, []Source{SourceExplicit, SourceExplicit}},
		{"multi-word article name",
			`"Come on," said the Mock Turtle.` + "\n",
			[]string{"The Mock Turtle"}, []Source{SourceExplicit}},
		{"honorific with a dot, British single quotes",
			`'You are too generous,' said Mr. Darcy.` + "\n\n" + `'Not at all,' cried Mrs. Bennet.` + "\n",
			[]string{"Mr. Darcy", "Mrs. Bennet"}, []Source{SourceExplicit, SourceExplicit}},
		{"given-name honorific with a connector",
			`"Insolent!" said Lady Catherine de Bourgh.` + "\n",
			[]string{"Lady Catherine de Bourgh"}, []Source{SourceExplicit}},
		{"tag before the quote",
			`Alice said to herself, "How queer it is!"` + "\n",
			[]string{"Alice"}, []Source{SourceExplicit}},
		{"a name after a preposition is not the subject of a before-tag",
			`Turning to Alice, the Hatter said, "Your hair wants cutting."` + "\n\n" + `"You should learn not to make personal remarks," Alice said.` + "\n",
			[]string{"The Hatter", "Alice"}, []Source{SourceExplicit, SourceExplicit}},
		{"the tag between the parts of an interrupted quotation names both",
			`"I think," said Elizabeth, "that you are quite wrong."` + "\n",
			[]string{"Elizabeth", "Elizabeth"}, []Source{SourceExplicit, SourceExplicit}},
		{"a name-first tag between the parts",
			`"I think," Elizabeth replied, "that you are quite wrong."` + "\n",
			[]string{"Elizabeth", "Elizabeth"}, []Source{SourceExplicit, SourceExplicit}},
		{"sentence openings are not names",
			`Then Alice said, "Yes."` + "\n\n" + `"Oh," said Alice. Then she sat down.` + "\n",
			[]string{"Alice", "Alice"}, []Source{SourceExplicit, SourceExplicit}},
		{"an epithet between verb and name",
			`"Oh dear," thought poor Alice.` + "\n",
			[]string{"Alice"}, []Source{SourceExplicit}},
		{"a relative clause names the one before who",
			`"Call the witness," said the King. The King looked at the White Rabbit, who said in a low voice, "Your Majesty must ask him."` + "\n",
			[]string{"The King", "The White Rabbit"}, []Source{SourceExplicit, SourceExplicit}},
		{"a paragraph ending in a colon introduces the next",
			`"Go on," said the Gryphon.` + "\n\n" + `And the Mock Turtle went on in these words:` + "\n\n" + `"We went to school in the sea."` + "\n",
			[]string{"The Gryphon", "The Mock Turtle"}, []Source{SourceExplicit, SourceExplicit}},
		{"a parenthesis earlier in the sentence does not hide the tag",
			`At last (after a long pause) the Dodo said, "Everybody has won."` + "\n",
			[]string{"The Dodo"}, []Source{SourceExplicit}},
		{"a possessive names someone else",
			`"Come in," said the King's messenger.` + "\n",
			[]string{""}, []Source{SourceNone}},
		{"a negated verb is no tag",
			`"Well?" Alice said nothing.` + "\n",
			[]string{""}, []Source{SourceNone}},
		{"an untagged line takes the speaker of its paragraph",
			`"Hello." Alice smiled at them. "How are you?" said Alice.` + "\n",
			[]string{"Alice", "Alice"}, []Source{SourceParagraph, SourceExplicit}},
		{"a tag closed in parentheses is an aside, not the next line's",
			`"You may not have lived under the sea--" ("I haven't," said Alice)--"and perhaps you never met a lobster," said the Gryphon.` + "\n",
			[]string{"The Gryphon", "Alice", "The Gryphon"}, []Source{SourceParagraph, SourceExplicit, SourceExplicit}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkSpeakers(t, tc.text, tc.want, tc.sources) })
	}
}

func TestAttributeRulesPronouns(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want []string
	}{
		{"she and he find the nearest character of their gender",
			`"My dear," said Mrs. Bennet, "have you heard?"` + "\n\n" +
				`"I have not," said Mr. Bennet.` + "\n\n" +
				`"But it is," she returned.` + "\n\n" +
				`"Is that his design?" he asked.` + "\n",
			[]string{"Mrs. Bennet", "Mrs. Bennet", "Mr. Bennet", "Mrs. Bennet", "Mr. Bennet"}},
		{"an inverted pronoun tag",
			`"You are mistaken," said Mr. Darcy.` + "\n\n" +
				`Miss Bingley laughed. "Not I," replied she.` + "\n",
			[]string{"Mr. Darcy", "Miss Bingley"}},
		{"a pronoun between the parts of an interrupted quotation names both",
			`"Lizzy!" cried Mrs. Bennet.` + "\n\n" + `Mrs. Bennet came in. "Oh!" said she, "what a man he is!"` + "\n",
			[]string{"Mrs. Bennet", "Mrs. Bennet", "Mrs. Bennet"}},
		{"the subject of the sentence before the line is the one a pronoun tag means",
			`"Not I," said the Knave.` + "\n\n" + `"Call the next witness," said the King.` + "\n\n" + `"Yes," said the Hatter.` + "\n\n" +
				`The Knave shook his head sadly. "Do I look like it?" he said.` + "\n",
			[]string{"The Knave", "The King", "The Hatter", "The Knave"}},
		{"a character whose gender the book does not show fits when no other does",
			`"Tea?" said Pat.` + "\n\n" + `"Yes," she said.` + "\n",
			[]string{"Pat", "Pat"}},
		{"a name after a preposition is not the antecedent of a pronoun tag",
			`"We are late," said Robert.` + "\n\n" + `"Not at all," said Edward.` + "\n\n" +
				`Robert had waited long. The clock struck twice, and the servant brought a lamp to Edward. "Shall we go?" he asked.` + "\n",
			[]string{"Robert", "Edward", "Robert"}},
		{"no character of the pronoun's gender leaves the line unknown",
			`"Hush," said Mr. Bennet.` + "\n\n" + `"Why?" she asked.` + "\n",
			[]string{"Mr. Bennet", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := speakers(t, tc.text)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("speakers %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAttributeRulesTurnTaking(t *testing.T) {
	long := strings.Repeat("The rain went on and the fire burned low in the grate. ", 8)
	for _, tc := range []struct {
		name    string
		text    string
		want    []string
		sources []Source
		cast    []Character // nil: the cast Extract finds
	}{
		{"untagged turns alternate between two speakers",
			`"Where are you going?" said Mr. Collins.` + "\n\n" +
				`"To the village," replied Elizabeth.` + "\n\n" +
				`"May I come?"` + "\n\n" +
				`"If you wish."` + "\n\n" +
				`"Thank you."` + "\n",
			[]string{"Mr. Collins", "Elizabeth", "Mr. Collins", "Elizabeth", "Mr. Collins"},
			[]Source{SourceExplicit, SourceExplicit, SourceTurn, SourceTurn, SourceTurn}, nil},
		{"a long narration paragraph ends the run: the line after is a guess (the last named one but the previous speaker), not a turn",
			`"Where are you going?" said Mr. Collins.` + "\n\n" +
				`"To the village," replied Elizabeth.` + "\n\n" +
				long + "\n\n" +
				`"May I come?"` + "\n",
			[]string{"Mr. Collins", "Elizabeth", "Mr. Collins"},
			[]Source{SourceExplicit, SourceExplicit, SourceMention}, nil},
		{"a silent turn told in narration keeps the alternation",
			`"Where are you going?" said Mr. Collins.` + "\n\n" +
				`"To the village," replied Elizabeth.` + "\n\n" +
				`Mr. Collins made no answer.` + "\n\n" +
				`"You may come if you like."` + "\n",
			[]string{"Mr. Collins", "Elizabeth", "Elizabeth"},
			[]Source{SourceExplicit, SourceExplicit, SourceTurn}, nil},
		{"in a scene of three an untagged turn answers the last speaker with the one before",
			`"Where are you going?" said Mr. Collins.` + "\n\n" +
				`"To the village," replied Elizabeth.` + "\n\n" +
				`"And I with her," said Jane.` + "\n\n" +
				`"May I come?"` + "\n",
			[]string{"Mr. Collins", "Elizabeth", "Jane", "Elizabeth"},
			[]Source{SourceExplicit, SourceExplicit, SourceExplicit, SourceTurn}, nil},
		{"one known turn alternates forwards with the other character in the scene",
			`Mr. Collins met Elizabeth in the lane by the church.` + "\n\n" +
				`"Where are you going?" said Mr. Collins.` + "\n\n" +
				`"To the village."` + "\n\n" +
				`"May I come?"` + "\n\n" +
				`"If you wish."` + "\n",
			[]string{"Mr. Collins", "Elizabeth", "Mr. Collins", "Elizabeth"},
			[]Source{SourceExplicit, SourceTurn, SourceTurn, SourceTurn}, collinsCast},
		{"one known turn alternates backwards too",
			`Mr. Collins met Elizabeth in the lane by the church.` + "\n\n" +
				`"Where are you going?"` + "\n\n" +
				`"To the village."` + "\n\n" +
				`"May I come?"` + "\n\n" +
				`"If you wish," said Elizabeth.` + "\n",
			[]string{"Mr. Collins", "Elizabeth", "Mr. Collins", "Elizabeth"},
			[]Source{SourceTurn, SourceTurn, SourceTurn, SourceExplicit}, collinsCast},
		{"the name spoken to answers next",
			`Jane and Mr. Collins sat with Elizabeth in the garden.` + "\n\n" +
				`"Will you walk with me, Elizabeth?" said Mr. Collins.` + "\n\n" +
				`"Not to-day."` + "\n",
			[]string{"Mr. Collins", "Elizabeth"},
			[]Source{SourceExplicit, SourceTurn}, append([]Character{{Name: "Jane", Gender: "female"}}, collinsCast...)},
		{"a quotation running over paragraphs keeps its speaker and is one turn",
			`"Where are you going?" said Mr. Collins.` + "\n\n" +
				`"To the village," replied Elizabeth. "It is not far.` + "\n\n" +
				`"And the road is dry."` + "\n\n" +
				`"May I come?"` + "\n",
			[]string{"Mr. Collins", "Elizabeth", "Elizabeth", "Elizabeth", "Mr. Collins"},
			[]Source{SourceExplicit, SourceExplicit, SourceExplicit, SourceParagraph, SourceTurn}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) { checkCast(t, tc.text, tc.cast, tc.want, tc.sources) })
	}
}

// collinsCast is a cast given by hand, as an edited cast list is.
var collinsCast = []Character{{Name: "Mr. Collins", Gender: "male"}, {Name: "Elizabeth", Gender: "female"}}

func TestAttributeRulesAustenStyle(t *testing.T) {
	// British single quotes, a tag naming no one ("said his lady" with no
	// man named before it), a pronoun with no woman named yet, a reply told
	// in narration that counts as a turn, and "replied his wife" read
	// through Mr. Bennet's surname: the turns alternate Mrs., Mr., Mrs.,
	// Mr., Mrs., Mr., Mrs. Bennet.
	text := `'My dear Mr. Bennet,' said his lady to him one day, 'have you heard that the hall is let at last?'` + "\n\n" +
		`Mr. Bennet replied that he had not.` + "\n\n" +
		`'But it is,' returned she; 'for Mrs. Long has just been here.'` + "\n\n" +
		`'Is he married or single?' said Mr. Bennet.` + "\n\n" +
		`'Oh! single, my dear, to be sure!' cried Mrs. Bennet.` + "\n\n" +
		`'How so? how can it affect them?'` + "\n\n" +
		`'My dear Mr. Bennet,' replied his wife, 'how can you be so tiresome!'` + "\n"
	checkSpeakers(t, text,
		[]string{"Mrs. Bennet", "Mrs. Bennet", "Mrs. Bennet", "Mrs. Bennet", "Mr. Bennet", "Mrs. Bennet", "Mr. Bennet", "Mrs. Bennet", "Mrs. Bennet"},
		[]Source{SourceTurn, SourceTurn, SourceTurn, SourceTurn, SourceExplicit, SourceExplicit, SourceTurn, SourceExplicit, SourceExplicit})
}

func TestAttributeRulesIgnoresSpansOutsideTheText(t *testing.T) {
	text := `"Hello," said Alice.` + "\n"
	sp := split(text)
	bad := sp[0]
	bad.ID, bad.Start, bad.End = "c00-s9999", len(text)-2, len(text)+10
	att := AttributeRules(text, append(sp, bad), Extract(text, sp))
	if len(att) != 1 || att[0].Speaker != "Alice" {
		t.Fatalf("got %+v", att)
	}
}

// checkSpeakers runs the rules on text and compares each line's speaker
// and source.
func checkSpeakers(t *testing.T, text string, want []string, sources []Source) {
	t.Helper()
	checkCast(t, text, nil, want, sources)
}

// checkCast is checkSpeakers with the cast given (nil: Extract's).
func checkCast(t *testing.T, text string, cast []Character, want []string, sources []Source) {
	t.Helper()
	if cast == nil {
		cast = Extract(text, split(text))
	}
	att := AttributeRules(text, split(text), cast)
	got := make([]string, len(att))
	for i, a := range att {
		got[i] = a.Speaker
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("speakers %q, want %q", got, want)
	}
	for i, a := range att {
		if a.Source != sources[i] {
			t.Errorf("line %d source %s, want %s", i, a.Source, sources[i])
		}
	}
}

func TestBeforeTagSubjectFarFromVerb(t *testing.T) {
	// A long clause between the subject and the speech verb: the name the
	// sentence opens with, not the one inside the clause.
	cast := []Character{{Name: "Isabella", Gender: "female"}, {Name: "James", Gender: "male"}}
	checkCast(t, `Isabella, who had been talking to James on the other side of the long room, turned again to his sister and whispered, "My dear, I must go."`+"\n",
		cast, []string{"Isabella"}, []Source{SourceExplicit})
}

// An unresolved description in a tag ("the young girl") still weighs on
// turn-taking by its gender: the line goes to the one woman of the talk,
// not to the man whose turn alternation would give.
func TestAttributeRulesDescriptionGenderInTurns(t *testing.T) {
	text := `"Good day," said Mary.` + "\n\n" + `"Hello," said Tom.` + "\n\n" + `"Hello," said Jack.` + "\n\n" +
		`"Where were you?" asked Tom.` + "\n\n" + `"Out walking," the young girl answered.` + "\n"
	got, att := speakers(t, text)
	if got[4] != "Mary" || att[4].Source != SourceTurn {
		t.Fatalf("speakers %q, last line %+v; want Mary by turn", got, att[4])
	}
}

func TestDescriptionGender(t *testing.T) {
	for noun, want := range map[string]string{"girl": "female", "wife": "female", "lady": "female",
		"man": "male", "fellow": "male", "uncle": "male", "companion": "", "stranger": ""} {
		if g := (desc{Det: "the", Noun: noun}).gender(); g != want {
			t.Errorf("gender of the %s = %q, want %q", noun, g, want)
		}
	}
}

// A line no tag, paragraph or turn answers goes, at low confidence, to
// the character named last before it, never to the one it speaks to.
func TestAttributeRulesMentionFallback(t *testing.T) {
	story := `"Good night," said Tom.` + "\n\n" + `"I shall go," said Mary.` + "\n\n" +
		`She went out, and the house was quiet for a long while. The clock struck, the fire burned low, and the rain came on again over the fields and the long road to the village, where the lamps were lit one by one until the whole street shone. Nobody passed; the dogs slept in their yards, and the wind went round the chimneys and died away. At last Tom came into the room and looked about him.` + "\n\n"
	got, att := speakers(t, story+`"Where is everybody?"`+"\n")
	if got[2] != "Tom" || att[2].Source != SourceMention || att[2].Confidence >= LowConfidence {
		t.Fatalf("speakers %q, last line %+v; want Tom at low confidence", got, att[2])
	}
	if got, _ := speakers(t, story+`"Where is everybody, Tom?"`+"\n"); got[2] == "Tom" {
		t.Fatalf("speakers %q: the line spoken to Tom went to Tom", got)
	}
}

// A line standing alone after narration goes, at low confidence, to the
// one the narration of its paragraph is about (named as a subject), not to
// a name in passing.
func TestAttributeRulesMentionPrefersTheSubject(t *testing.T) {
	cast := []Character{{Name: "Tom", Gender: "male"}, {Name: "Mary", Gender: "female"}}
	long := strings.Repeat("The wind rose over the moor and rattled the shutters of the old house. ", 6)
	checkCast(t, long+"\n\n"+`Tom stood by the window. The rain came down on the garden and on Mary, who was still out. "Where is everybody?"`+"\n",
		cast, []string{"Tom"}, []Source{SourceMention})
}

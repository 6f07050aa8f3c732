package spans

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/audiobook/book"
)

// render writes spans as the test tables spell them: "D:" dialogue, "U:"
// unclosed dialogue, "C:" dialogue that continues, "N:" narration.
func render(text string, ss []Span) []string {
	var out []string
	for _, s := range ss {
		tag := "N:"
		switch {
		case s.Kind == Dialogue && s.Unclosed:
			tag = "U:"
		case s.Kind == Dialogue && s.Continues:
			tag = "C:"
		case s.Kind == Dialogue:
			tag = "D:"
		}
		out = append(out, tag+s.Text(text))
	}
	return out
}

func whole(text string) book.Chapter { return book.Chapter{Index: 0, Start: 0, End: len(text)} }

func TestSplitRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want []string
	}{
		{"straight doubles around a tag",
			`"Hello," he said. "Goodbye."`,
			[]string{`D:"Hello,"`, `N: he said. `, `D:"Goodbye."`}},
		{"curly doubles",
			`“Hello,” he said, “goodbye.”`,
			[]string{`D:“Hello,”`, `N: he said, `, `D:“goodbye.”`}},
		{"a quotation that opens the chapter and one that ends it",
			`"Yes." No. "Maybe"`,
			[]string{`D:"Yes."`, `N: No. `, `D:"Maybe"`}},
		{"British curly singles with apostrophes inside",
			`‘Well,’ said Alice, ‘I don’t know what’s o’clock.’`,
			[]string{`D:‘Well,’`, `N: said Alice, `, `D:‘I don’t know what’s o’clock.’`}},
		{"British straight singles: possessive plural and o' are not closes",
			`'I don't like the dogs' tails,' said he. 'Nor o' the cats.'`,
			[]string{`D:'I don't like the dogs' tails,'`, `N: said he. `, `D:'Nor o' the cats.'`}},
		{"'tis in narration, ''Tis opening speech",
			`'Tis a fine day, she thought. ''Tis a pity,' said he, 'a great pity.'`,
			[]string{`N:'Tis a fine day, she thought. `, `D:''Tis a pity,'`, `N: said he, `, `D:'a great pity.'`}},
		{"speech that begins with an elision and one mark opens when a mark closes it",
			`'Tis true,' said he. 'Ere, you!' cried Bill. 'Tis a fine day, she thought; 'em all.`,
			[]string{`D:'Tis true,'`, `N: said he. `, `D:'Ere, you!'`, `N: cried Bill. 'Tis a fine day, she thought; 'em all.`}},
		{"elisions inside speech stay inside",
			`'Give 'em here, 'tis late,' said Bill.`,
			[]string{`D:'Give 'em here, 'tis late,'`, `N: said Bill.`}},
		{"curly elisions: ’em and ’Tis",
			`‘Give ’em here,’ said Bill. ’Tis done. ‘Good.’`,
			[]string{`D:‘Give ’em here,’`, `N: said Bill. ’Tis done. `, `D:‘Good.’`}},
		{"italics marked with underscores are looked through",
			`'_You_ are old,' said the youth. ''_Tis the voice_,' he said. 'Well_'_ he said.`,
			[]string{`D:'_You_ are old,'`, `N: said the youth. `, `D:''_Tis the voice_,'`, `N: he said. `, `D:'Well_'`, `N:_ he said.`}},
		{"rock 'n' roll inside single-quote speech",
			`'I like rock 'n' roll,' he said. 'Me too.'`,
			[]string{`D:'I like rock 'n' roll,'`, `N: he said. `, `D:'Me too.'`}},
		{"goin' before a tag closes when nothing else does",
			`'I'm goin' home,' he said. 'Bring the dogs' she cried. 'Now!'`,
			[]string{`D:'I'm goin' home,'`, `N: he said. `, `D:'Bring the dogs'`, `N: she cried. `, `D:'Now!'`}},
		{"a weak close before a tag closes though the next paragraph reopens",
			"'I saw the dogs' he said.\n\n'Where?'",
			[]string{`D:'I saw the dogs'`, "N: he said.\n\n", `D:'Where?'`}},
		{"a plural possessive before a paragraph that reopens continues",
			"'I saw the dogs' tails wag all day.\n\n'And then they left.'",
			[]string{`C:'I saw the dogs' tails wag all day.`, "N:\n\n", `D:'And then they left.'`}},
		{"an unknown elision inside single-mark speech is no quotation",
			"'Toad's hard on the 'osses,' said the Rat, 'an' 'alf the time.'\n\n'Yes.'",
			[]string{`D:'Toad's hard on the 'osses,'`, `N: said the Rat, `, `D:'an' 'alf the time.'`, "N:\n\n", `D:'Yes.'`}},
		{"a weak close at the paragraph's end closes",
			"'Fetch the horses' he said and left.\n\nThen 'Stop!' she cried.",
			[]string{`D:'Fetch the horses'`, "N: he said and left.\n\nThen ", `D:'Stop!'`, `N: she cried.`}},
		{"nested singles stay inside doubles",
			`"He said 'hi' to me, the dogs' master," she said.`,
			[]string{`D:"He said 'hi' to me, the dogs' master,"`, `N: she said.`}},
		{"nested curly singles stay inside curly doubles",
			`“He said ‘hi’ to me,” she said.`,
			[]string{`D:“He said ‘hi’ to me,”`, `N: she said.`}},
		{"nested doubles stay inside single-quote speech",
			`‘He said “hi” to me,’ she said. ‘Odd.’`,
			[]string{`D:‘He said “hi” to me,’`, `N: she said. `, `D:‘Odd.’`}},
		{"nested straight doubles inside doubles",
			`"I tried to say "How doth the bee," but it came different!" Alice said.`,
			[]string{`D:"I tried to say "How doth the bee," but it came different!"`, `N: Alice said.`}},
		{"a quotation over paragraphs, each reopening: one span each",
			"\"First part,\n\n\"second part,\n\n\"and the end.\" He stopped.",
			[]string{`C:"First part,`, "N:\n\n", `C:"second part,`, "N:\n\n", `D:"and the end."`, `N: He stopped.`}},
		{"an indented letter reopening each paragraph",
			"She read:\n\n     \"My dear Lizzy,\n\n     \"I write in haste.\n\n     \"Yours, J.\"\n\nShe sighed.",
			[]string{"N:She read:\n\n     ", `C:"My dear Lizzy,`, "N:\n\n     ", `C:"I write in haste.`, "N:\n\n     ", `D:"Yours, J."`, "N:\n\nShe sighed."}},
		{"a letter's closing lines each reopening inside one paragraph",
			"\"I remain, dear Sir,\n\n      \"Very truly yours,\n    \"IRENE ADLER.\"\n\n\"What a woman!\" cried the King.",
			[]string{`C:"I remain, dear Sir,`, "N:\n\n      ", "D:\"Very truly yours,\n    \"IRENE ADLER.\"", "N:\n\n", `D:"What a woman!"`, `N: cried the King.`}},
		{"a nested quotation opening a line stays nested",
			"\"I see meaning in them, after all.\n\"--said I could not swim--\" you can't swim, can you?\" he added.\n\nNo.",
			[]string{"D:\"I see meaning in them, after all.\n\"--said I could not swim--\" you can't swim, can you?\"", "N: he added.\n\nNo."}},
		{"CRLF paragraphs",
			"\"One,\r\n\r\n\"two.\"\r\nDone.",
			[]string{`C:"One,`, "N:\r\n\r\n", `D:"two."`, "N:\r\nDone."}},
		{"unclosed before a paragraph that does not reopen",
			"\"I never close\n\nThe narrator goes on. \"Next,\" she said.",
			[]string{`U:"I never close`, "N:\n\nThe narrator goes on. ", `D:"Next,"`, `N: she said.`}},
		{"unclosed at the chapter's end",
			`He said, "never closed`,
			[]string{`N:He said, `, `U:"never closed`}},
		{"unclosed when another quotation opens in the paragraph",
			`"Hello, he said. "Bye," she said.`,
			[]string{`U:"Hello, he said.`, `N: `, `D:"Bye,"`, `N: she said.`}},
		{"an orphan closing mark is narration",
			`He said no." Then he left.`,
			[]string{`N:He said no." Then he left.`}},
		{"an embedded address inside a quotation",
			"\"Send it,\" she thought, \"and how odd the directions look!\n\n     _Alice's Right Foot, Esq._\n\nOh dear, what nonsense!\"\n\nThen.",
			[]string{`D:"Send it,"`, `N: she thought, `, `C:"and how odd the directions look!`, "N:\n\n     ", `C:_Alice's Right Foot, Esq._`, "N:\n\n", `D:Oh dear, what nonsense!"`, "N:\n\nThen."}},
		{"a song in nested marks inside a quotation",
			"\"I had to sing\n\n'Twinkle, twinkle!\nHow I wonder!'\n\nYou know it?\"\n\n\"Yes,\" said Alice.",
			[]string{`C:"I had to sing`, "N:\n\n", "C:'Twinkle, twinkle!\nHow I wonder!'", "N:\n\n", `D:You know it?"`, "N:\n\n", `D:"Yes,"`, `N: said Alice.`}},
		{"verse stanzas inside one quotation",
			"\"They told me,\n    And said:\n\nShe gave me one,\n    And more.\"\n\nSilence.",
			[]string{"C:\"They told me,\n    And said:", "N:\n\n", "D:She gave me one,\n    And more.\"", "N:\n\nSilence."}},
		{"prose after an unclosed quotation is not embedded",
			"\"Open\n\nProse goes on here for a while.\n\nclosed?\" he said.",
			[]string{`U:"Open`, "N:\n\nProse goes on here for a while.\n\nclosed?\" he said."}},
		{"one paragraph a line when the chapter has no blank line",
			"\"Open,\n\"and reopened.\"\nNarration.",
			[]string{`C:"Open,`, "N:\n", `D:"and reopened."`, "N:\nNarration."}},
		{"one paragraph a line even with a blank line after the title",
			"Chapter 1\n\n\"I never close this quotation, though it goes on for long enough to fill a whole line of a text file here.\nThe narrator speaks next, in a line of his own that is also long enough to be a paragraph of the chapter.\n\"Hi,\" he said.",
			[]string{"N:Chapter 1\n\n", `U:"I never close this quotation, though it goes on for long enough to fill a whole line of a text file here.`,
				"N:\nThe narrator speaks next, in a line of his own that is also long enough to be a paragraph of the chapter.\n", `D:"Hi,"`, `N: he said.`}},
		{"verse lines with a blank line between stanzas keep a quotation whole",
			"“Twinkle, twinkle, little bat!\nHow I wonder what you’re at!\nUp above the world you fly.\nLike a tea-tray in the sky.”\n\nHe sang it twice.\nThen he stopped.",
			[]string{"D:“Twinkle, twinkle, little bat!\nHow I wonder what you’re at!\nUp above the world you fly.\nLike a tea-tray in the sky.”", "N:\n\nHe sang it twice.\nThen he stopped."}},
		{"hard-wrapped paragraphs told by indentation, no blank line",
			"    \"A quotation that wraps\nonto the next line,\" he said, \"and on\n    \"reopens here.\" Then\nhe left.",
			[]string{"N:    ", "D:\"A quotation that wraps\nonto the next line,\"", `N: he said, `, `C:"and on`, "N:\n    ", `D:"reopens here."`, "N: Then\nhe left."}},
		{"quotation marks hugging a dash",
			`"I was going--" he began. "--to say," she said.`,
			[]string{`D:"I was going--"`, `N: he began. `, `D:"--to say,"`, `N: she said.`}},
		{"no quotation at all",
			"It was a dark and stormy night; the dogs' tails wagged.",
			[]string{"N:It was a dark and stormy night; the dogs' tails wagged."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := render(tc.text, Split(tc.text, whole(tc.text)))
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("spans\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestDialogueMarkIsDecidedPerBook(t *testing.T) {
	// Mostly singles: the doubles are nested and the book speaks in singles.
	single := `'One,' he said. 'Two "quoted" words,' she said. 'Three.'`
	if got := render(single, Split(single, whole(single))); len(got) != 5 || got[2] != `D:'Two "quoted" words,'` {
		t.Errorf("single-mark book: %q", got)
	}
	// Mostly doubles: the singles are nested, and one chapter with only
	// singles still speaks in doubles because the book does.
	text := "\"One,\" he said. \"Two 'quoted' words.\"\n\n'Not speech,' she thought."
	chs := []book.Chapter{{Index: 0, Start: 0, End: 38}, {Index: 1, Start: 38, End: len(text)}}
	b := book.Book{Text: text, Chapters: chs}
	all := SplitBook(b)
	var second []Span
	for _, s := range all {
		if s.Chapter == 1 {
			second = append(second, s)
		}
	}
	if got := render(text, second); len(got) != 1 || got[0][:2] != "N:" {
		t.Errorf("second chapter of a double-mark book: %q", got)
	}
	if got := Split(text, chs[1]); len(got) != len(second) || got[0] != second[0] {
		t.Errorf("Split and SplitBook differ: %+v vs %+v", got, second)
	}
}

func TestSpanIDsAndOffsets(t *testing.T) {
	text := "CHAPTER I.\n\nIntro.\n\nCHAPTER II.\n\n\"Hi,\" she said."
	ch := book.Chapter{Index: 3, Start: strings.Index(text, "CHAPTER II."), End: len(text)}
	got := Split(text, ch)
	want := []Span{
		{ID: "c03-s0000", Chapter: 3, Start: ch.Start, End: ch.Start + 13, Kind: Narration},
		{ID: "c03-s0001", Chapter: 3, Start: ch.Start + 13, End: ch.Start + 18, Kind: Dialogue},
		{ID: "c03-s0002", Chapter: 3, Start: ch.Start + 18, End: len(text), Kind: Narration},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("span %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if s, e := got[1].Inner(text); text[s:e] != "Hi," {
		t.Errorf("Inner = %q, want %q", text[s:e], "Hi,")
	}
	if s, e := got[0].Inner(text); s != got[0].Start || e != got[0].End {
		t.Errorf("narration Inner = %d,%d, want the span", s, e)
	}
	if again := Split(text, ch); again[1].ID != got[1].ID || again[1] != got[1] {
		t.Errorf("a second split differs: %+v", again[1])
	}
	if id := SpanID(12, 12345); id != "c12-s12345" {
		t.Errorf("SpanID = %q", id)
	}
}

func TestInner(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"closed curly", "“Hi there,” he said.", "Hi there,"},
		{"continues: no closing mark to drop", "\"Hi there,\n\n\"more.\"", "Hi there,"},
		{"unclosed", "x \"never", "never"},
		{"single", "‘Hi,’ said Bill. ‘Go.’", "Hi,"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, s := range Split(tc.text, whole(tc.text)) {
				if s.Kind == Dialogue {
					a, z := s.Inner(tc.text)
					if tc.text[a:z] != tc.want {
						t.Errorf("Inner = %q, want %q", tc.text[a:z], tc.want)
					}
					return
				}
			}
			t.Errorf("no dialogue span in %q", tc.text)
		})
	}
}

// TestSplitTilesTheChapter: for random text made of words, quotation
// marks of every kind, apostrophes and paragraph breaks, cut into random
// chapters, each chapter's spans are non-empty, contiguous, in order, of
// one chapter, and concatenated equal the chapter byte for byte; dialogue
// spans begin with a mark and the ids run c<ch>-s0000, s0001...
func TestSplitTilesTheChapter(t *testing.T) {
	pieces := []string{"word", "Alice", " ", " ", " ", ", ", ". ", "!", "?", "--", "\n", "\n\n", "\r\n\r\n", "\n\n     ",
		`"`, `"`, " \"", "\" ", "“", "”", "‘", "’", "'", " '", "' ", "don't", "dogs' ", " 'tis", " o' ", "'n'", "_", "é", "—"}
	rng := rand.New(rand.NewPCG(16, 2))
	for round := range 3000 {
		var sb strings.Builder
		for range rng.IntN(60) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := sb.String()
		cuts := []int{0}
		for range rng.IntN(3) {
			if c := rng.IntN(len(text) + 1); c > cuts[len(cuts)-1] && c < len(text) && isBoundary(text, c) {
				cuts = append(cuts, c)
			}
		}
		cuts = append(cuts, len(text))
		b := book.Book{Text: text}
		for i := 0; i+1 < len(cuts); i++ {
			b.Chapters = append(b.Chapters, book.Chapter{Index: i, Start: cuts[i], End: cuts[i+1]})
		}
		if err := tileError(b, SplitBook(b)); err != nil {
			t.Fatalf("round %d: %v in %q", round, err, text)
		}
	}
}

func isBoundary(s string, i int) bool { return i == len(s) || (s[i]&0xC0) != 0x80 }

package render

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func texts(chunks []Chunk) []string {
	var out []string
	for _, c := range chunks {
		out = append(out, c.Text)
	}
	return out
}

func TestSplit(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		limit int
		want  []string
	}{
		{"one sentence per chunk", "Hello there. How are you? Fine!", 100,
			[]string{"Hello there.", "How are you?", "Fine!"}},
		{"abbreviations and initials do not end a sentence", "Mr. Smith met Dr. Jones. J. R. R. Tolkien wrote it.", 100,
			[]string{"Mr. Smith met Dr. Jones.", "J. R. R. Tolkien wrote it."}},
		{"closing quotes stay with their sentence", `"Stop!" she said. (See above.) Then.`, 100,
			[]string{`"Stop!" she said.`, "(See above.)", "Then."}},
		{"a lower-case next word goes on", "Use a tool, e.g. this one. Done.", 100,
			[]string{"Use a tool, e.g. this one.", "Done."}},
		{"a blank line ends a heading", "Chapter One\n\nIt was dark.\nAnd cold.", 100,
			[]string{"Chapter One", "It was dark.", "And cold."}},
		{"a long sentence is cut at clauses", "The first part is here, the second part is here; and the third part.", 30,
			[]string{"The first part is here,", "the second part is here;", "and the third part."}},
		{"clauses are packed while they fit", "One, two, three, four.", 15,
			[]string{"One, two,", "three, four."}},
		{"a clause too long is cut at spaces", "alpha beta gamma delta epsilon", 12,
			[]string{"alpha beta", "gamma delta", "epsilon"}},
		{"a word longer than the limit is the only cut inside a word", "abcdefghij", 4,
			[]string{"abcd", "efgh", "ij"}},
		{"empty text has no chunks", " \n\t ", 10, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := texts(Split(c.text, c.limit))
			if !slices.Equal(got, c.want) {
				t.Fatalf("Split(%q, %d)\n got %q\nwant %q", c.text, c.limit, got, c.want)
			}
		})
	}
}

func TestSplitSentenceIndexes(t *testing.T) {
	got := Split("A short one. Then a much longer sentence, which must be cut. End.", 30)
	var idx []int
	for _, c := range got {
		idx = append(idx, c.Sentence)
	}
	if want := []int{0, 1, 1, 2}; !slices.Equal(idx, want) {
		t.Fatalf("sentence indexes %v, want %v (chunks %q)", idx, want, texts(got))
	}
}

// checkSplit is the property every split must have: the chunks, joined,
// are the text modulo whitespace; each is within the limit; and when no
// word is longer than the limit, no word is cut.
func checkSplit(t *testing.T, text string, limit int) {
	t.Helper()
	chunks := Split(text, limit)
	joined := strings.Join(texts(chunks), " ")
	if !slices.Equal(strings.Fields(joined), strings.Fields(text)) && !hasLongWord(text, limit) {
		t.Fatalf("Split(%q, %d) joined is %q", text, limit, joined)
	}
	if strings.Join(strings.Fields(joined), "") != strings.Join(strings.Fields(text), "") {
		t.Fatalf("Split(%q, %d) lost or added characters: %q", text, limit, joined)
	}
	last := -1
	for _, c := range chunks {
		if n := utf8.RuneCountInString(c.Text); n > limit || n == 0 {
			t.Fatalf("chunk %q has %d characters, limit %d", c.Text, n, limit)
		}
		if c.Sentence < last || c.Sentence > last+1 {
			t.Fatalf("sentence index %d after %d", c.Sentence, last)
		}
		last = c.Sentence
	}
}

func hasLongWord(text string, limit int) bool {
	for _, w := range strings.Fields(text) {
		if utf8.RuneCountInString(w) > limit {
			return true
		}
	}
	return false
}

func TestSplitProperty(t *testing.T) {
	words := []string{"the", "a", "Mr.", "e.g.", "end.", "Why?", "yes!", "clause,", "semi;", "—", "“Quoted.”", "naïve", "J.", "x", "longerwordhere", "\n\n", "\t", "Übung."}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for n := rng.IntN(80); n > 0; n-- {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString([]string{" ", "  ", "\n", " "}[rng.IntN(4)])
		}
		checkSplit(t, b.String(), 1+rng.IntN(60))
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("Hello there. How are you? Fine, thanks; and you.", 12)
	f.Add("abcdefghij klm", 3)
	f.Fuzz(func(t *testing.T, text string, limit int) {
		if !utf8.ValidString(text) || limit < 1 || limit > 5000 {
			t.Skip()
		}
		checkSplit(t, text, limit)
	})
}

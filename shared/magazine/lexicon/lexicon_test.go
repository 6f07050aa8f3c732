package lexicon

import "testing"

func TestLexicon(t *testing.T) {
	lex, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if lex.Len() < 800_000 {
		t.Errorf("%d words, want the five languages' lists (over 800,000)", lex.Len())
	}
	for _, w := range []string{"a", "harbour", "harbor", "battleship", "furniture", "été", "straße", "niño", "perché", "zygote"} {
		if !lex.Has(w) {
			t.Errorf("%q is missing", w)
		}
	}
	for _, w := range []string{"", "tne", "oeiore", "aiternoon", "hbvertiser", "Harbour", "xqzvw"} {
		if lex.Has(w) {
			t.Errorf("%q is a word", w)
		}
	}
	var lazy Lazy
	a, errA := lazy.Get()
	b, errB := lazy.Get()
	if errA != nil || errB != nil || a != b {
		t.Errorf("Lazy loads once: %p %v, %p %v", a, errA, b, errB)
	}
}

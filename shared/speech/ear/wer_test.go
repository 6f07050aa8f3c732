package ear

import (
	"math"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Hello, World!", "hello world"},
		{"“Don't,” she said—quietly.", "dont she said quietly"},
		{"In 1865 there were 42 cats.", "in eighteen sixty five there were forty two cats"},
		{"the 3rd and 21st and 12th time", "the third and twenty first and twelfth time"},
		{"It cost 1,000 pounds, or 3.5 each", "it cost one thousand pounds or three point five each"},
		{"in 1900 and 1905 and 2024", "in nineteen hundred and nineteen oh five and twenty twenty four"},
		{"the 1920s", "the nineteen twenties"},
		{"Salt & pepper: 50%", "salt and pepper fifty percent"},
		{"a well-known man", "a well known man"},
		{"room 007", "room zero zero seven"},
		{"2,500,000 people", "two million five hundred thousand people"},
		{"", ""},
	} {
		if got := strings.Join(Words(tc.in), " "); got != tc.want {
			t.Errorf("Words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestWER(t *testing.T) {
	for _, tc := range []struct {
		ref, hyp string
		want     float64
	}{
		{"the cat sat", "the cat sat", 0},
		{"The cat sat.", "the cat, sat", 0},
		{"the cat sat", "the cat", 1.0 / 3},           // a deletion
		{"the cat sat", "the black cat sat", 1.0 / 3}, // an insertion
		{"the cat sat", "the dog sat", 1.0 / 3},       // a substitution
		{"the cat sat", "", 1},
		{"", "", 0},
		{"", "hello", 1},
		{"He was born in 1865.", "he was born in eighteen sixty five", 0},
		{"It was the best of times. It was the worst of times.", "it was the best of times", 0.5},
	} {
		got := WER(Words(tc.ref), Words(tc.hyp))
		if math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("WER(%q, %q) = %v, want %v", tc.ref, tc.hyp, got, tc.want)
		}
	}
}

func TestWrong(t *testing.T) {
	for _, tc := range []struct {
		want, heard string
		wrong       bool
	}{
		{"It was the best of times, it was the worst of times.", "It was the best on times, it was the worst on times.", false},
		{"It was the best of times. It was the worst of times.", "It was the best of times.", false}, // exactly half: not over
		{"She opened the door and looked out into the garden.", "She opened the door.", true},        // most of it dropped
		{"She opened the door and looked out into the garden.", "", true},                            // silence
		{"She opened the door and looked out into the garden.", "Thank you.", true},                  // hallucinated over silence
		{"Yes.", "Yeah.", false},                                                       // a word misheard
		{"(Dinah was the cat.)", "I know what's the cat.", false},                      // misheard one for one, measured
		{"But do cats eat bats, I wonder?", "but who can't see that I wonder.", false}, // measured
		{"Madame Bovary walked to the market.", "Madame Bovary walked to the market. Madame Bovary walked to the market.", true}, // a repeat
		{"She opened the door and looked out into the garden.", "Elle a ouvert la porte et regardé le jardin.", true},            // another language
		{"Yes.", "", true}, // but silence is wrong
		{"Oh, no!", "", true},
		{"The wind was up and the sea ran high.", "the wind was up and the sea ran high and then some more words came", true}, // a long hallucinated ending
	} {
		rate, wrong := Wrong(tc.want, tc.heard)
		if wrong != tc.wrong {
			t.Errorf("Wrong(%q, %q) = %v (rate %.2f), want %v", tc.want, tc.heard, wrong, rate, tc.wrong)
		}
	}
}

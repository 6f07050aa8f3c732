package magazine

import (
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

func TestHasRepetitionLoop(t *testing.T) {
	rep := func(s string, n int) string { return strings.Repeat(s, n) }
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"empty text is not a loop", "", false},
		{"ordinary prose is not a loop", "The council voted on Tuesday to widen the bridge. Work starts in May.", false},
		{"one word eight times with spaces is a loop", rep("the ", 8), true},
		{"one word seven times is not a loop", rep("the ", 7), false},
		{"phrase eight times without trailing separator is a loop", strings.TrimSpace(rep("thank you ", 8)), true},
		{"phrase eight times without separators is a loop", rep("abc", 8), true},
		{"single letter eight times is a loop", "aaaaaaaa", true},
		{"single letter seven times is not a loop", "aaaaaaa", false},
		{"loop inside longer text is found", "Intro text here. " + rep("I am a loop. ", 9) + "Then the end.", true},
		{"case and punctuation between repeats are ignored", "Thanks! thanks, THANKS. thanks; thanks thanks... Thanks thanks!", true},
		{"newlines between repeats are allowed", rep("row\n\n", 8), true},
		{"dot leaders are not a loop", "Contents . . . . . . . . . . . . . . . . . . . . 12", false},
		{"dashes are not a loop", strings.Repeat("-", 200), false},
		{"number runs are not a loop", "1 1 1 1 1 1 1 1 1 1 1 1", false},
		{"zeros are not a loop", "0000000000000000000000", false},
		{"repeated number groups are not a loop", rep("12.50 ", 20), false},
		{"phrase with a letter and digits is a loop", rep("Q1 ", 8), true},
		{"phrase of 50 runes is checked", rep("the council voted on tuesday to widen the bridge", 8), true},
		{"phrase longer than 50 runes is not checked", rep("the council voted on tuesday to widen the old bridge now", 8), false},
		{"non-latin script loops are found", rep("日本語", 8), true},
		{"alternating words that do not repeat are not a loop", "a b c d e f g h i j k l m n o p", false},
		{"table row of eight identical cells is a loop", "| Yes | Yes | Yes | Yes | Yes | Yes | Yes | Yes |", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := HasRepetitionLoop(tc.text); got != tc.want {
				t.Errorf("HasRepetitionLoop(%.60q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

func TestHasRepetitionLoopIsFastOnLargeInput(t *testing.T) {
	var b strings.Builder
	words := []string{"magazine", "council", "bridge", "river", "the", "of", "a", "voted", "1986", "—"}
	for i := 0; b.Len() < 100_000; i++ {
		b.WriteString(words[(i*7+i/3)%len(words)])
		b.WriteByte(' ')
	}
	text := b.String()
	start := time.Now()
	HasRepetitionLoop(text)
	HasRepetitionLoop(strings.Repeat(". ", 50_000))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("100 KB check took %v", d)
	}
}

func FuzzHasRepetitionLoop(f *testing.F) {
	for _, s := range []string{"", "the the the", "abc", ". . . .", "1 1 1", "Ünïcödé", "\xff\xfe", "By Jane Doe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := HasRepetitionLoop(s)
		if got != HasRepetitionLoop(s) {
			t.Fatal("not deterministic")
		}
		hasLetter := strings.IndexFunc(s, unicode.IsLetter) >= 0
		if got && !hasLetter {
			t.Fatalf("letterless text %q flagged", s)
		}
		if got && !HasRepetitionLoop("prefix text "+s+" suffix text") {
			t.Fatalf("loop in %q lost when surrounded by text", s)
		}
		// A short phrase with a letter, repeated LoopRepeats times, is always a loop.
		phrase := s
		if utf8.RuneCountInString(phrase) > 10 {
			phrase = string([]rune(phrase)[:10])
		}
		phrase = "q" + phrase
		if !HasRepetitionLoop(strings.Repeat(phrase+" ", LoopRepeats)) {
			t.Fatalf("phrase %q repeated %d times not flagged", phrase, LoopRepeats)
		}
	})
}

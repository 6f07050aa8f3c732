package magazine

import "unicode"

// Repetition-loop check (spec: Vision OCR 2, Limits).
const (
	// LoopRepeats is how many back-to-back repeats make a loop.
	LoopRepeats = 8
	// LoopMaxPhrase is the longest phrase, in runes after normalisation
	// (separator included), that is checked for repeats.
	LoopMaxPhrase = 50
)

// HasRepetitionLoop reports whether a short phrase containing at least one
// letter repeats LoopRepeats or more times back to back — the signature of a
// vision model stuck in a loop.
//
// The text is normalised first: letters are lower-cased and every run of
// characters that are neither letters, digits nor combining marks
// (whitespace, punctuation, symbols) becomes one space, with a space added at
// both ends. So "Thanks! thanks, THANKS." repeats the phrase "thanks ", and a
// phrase may be separated by any whitespace or punctuation. Letterless runs
// (dot leaders, "-----", "1 1 1 1", "0000") contain no letter and never count.
//
// For each period p in 1..LoopMaxPhrase one linear scan counts how long
// s[i] == s[i-p] has held; a run of L matches is a p-periodic stretch of
// L+p runes, i.e. (L+p)/p repeats. Cost is O(LoopMaxPhrase·n).
func HasRepetitionLoop(text string) bool {
	s, letters := normaliseForLoop(text)
	n := len(s)
	for p := 1; p <= LoopMaxPhrase && p*LoopRepeats <= n; p++ {
		need := (LoopRepeats - 1) * p // matches needed for LoopRepeats full periods
		run := 0
		for i := p; i < n; i++ {
			if s[i] != s[i-p] {
				run = 0
				continue
			}
			run++
			if run >= need {
				// The periodic window is s[i-run-p+1 .. i]; any p consecutive
				// runes of it hold the whole phrase, so a letter anywhere in
				// the window means the phrase has one.
				start := i - run - p + 1
				if letters[i+1]-letters[start] > 0 {
					return true
				}
			}
		}
	}
	return false
}

// normaliseForLoop returns the normalised runes and a prefix count of letters
// (letters[i] = number of letters in s[:i]).
func normaliseForLoop(text string) ([]rune, []int32) {
	s := make([]rune, 0, len(text)+2)
	s = append(s, ' ')
	for _, r := range text {
		switch {
		case unicode.IsLetter(r):
			s = append(s, unicode.ToLower(r))
		case unicode.IsDigit(r), unicode.IsMark(r):
			s = append(s, r)
		default:
			if s[len(s)-1] != ' ' {
				s = append(s, ' ')
			}
		}
	}
	if s[len(s)-1] != ' ' {
		s = append(s, ' ')
	}
	letters := make([]int32, len(s)+1)
	for i, r := range s {
		letters[i+1] = letters[i]
		if unicode.IsLetter(r) {
			letters[i+1]++
		}
	}
	return s, letters
}

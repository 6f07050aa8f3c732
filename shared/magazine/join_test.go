package magazine

import "testing"

func TestJoinRunNeverDoublesPunctuation(t *testing.T) {
	for _, tc := range []struct{ prev, next, want string }{
		{"aluminum alloy only.", ".", "aluminum alloy only."},
		{"alloy only.", ". Stainless steel", "alloy only. Stainless steel"},
		{"the word", ", then more", "the word, then more"},
		{"Really?", "!", "Really?"},
		{"a plain line", "and the next", "a plain line and the next"},
		{"costs", ".5 dollars", "costs .5 dollars"},
		{"", "text", "text"},
		{"text ", "  ", "text"},
	} {
		if got := JoinRun(tc.prev, tc.next); got != tc.want {
			t.Errorf("JoinRun(%q, %q) = %q, want %q", tc.prev, tc.next, got, tc.want)
		}
	}
}

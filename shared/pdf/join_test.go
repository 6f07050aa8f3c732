package pdf

import "testing"

// A stray full stop on a line of its own (as on page 1 of the FAA handbook
// sample, after "aluminum alloy only.") joins its paragraph without a
// doubled period; a hyphenated word is still mended.
func TestJoinTextNeverDoublesAFullStop(t *testing.T) {
	for _, tc := range []struct{ prev, next, want string }{
		{"the bellows type is made of aluminum alloy only.", ".", "the bellows type is made of aluminum alloy only."},
		{"a maga-", "zine", "a magazine"},
		{"one line", "and the next", "one line and the next"},
	} {
		if got := joinText(tc.prev, tc.next); got != tc.want {
			t.Errorf("joinText(%q, %q) = %q, want %q", tc.prev, tc.next, got, tc.want)
		}
	}
}

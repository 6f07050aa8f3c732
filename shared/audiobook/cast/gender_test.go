package cast

import "testing"

// A name whose following pronouns lean clearly one way takes that gender,
// even in a book where that gender's pronouns are most of all.
func TestVoteClearMajority(t *testing.T) {
	for _, tc := range []struct {
		male, female, males, females int
		want                         string
	}{
		{7, 3, 600, 400, "male"},   // 70% he, in a book of 60% he
		{3, 7, 400, 600, "female"}, // and the reverse
		{5, 5, 500, 500, ""},       // no lean
		{1, 0, 500, 500, ""},       // too few
	} {
		if got := vote(tc.male, tc.female, tc.males, tc.females); got != tc.want {
			t.Errorf("vote(%d he, %d she; book %d/%d) = %q, want %q", tc.male, tc.female, tc.males, tc.females, got, tc.want)
		}
	}
}

package magazine

import "testing"

func TestSplitByline(t *testing.T) {
	tests := []struct {
		name, text, byline, rest string
		ok                       bool
	}{
		{"plain byline", "By Jane Doe", "By Jane Doe", "", true},
		{"run-on sentence after the name", "By Jane Doe The council voted on Tuesday.", "By Jane Doe", "The council voted on Tuesday.", true},
		{"sentence starter ends the name", "By Jane Doe In March, the council met.", "By Jane Doe", "In March, the council met.", true},
		{"capitalised word before lower-case ends a two-word name", "By Jane Doe Council members voted.", "By Jane Doe", "Council members voted.", true},
		{"three-word name is kept whole", "By Mary Ann Smith The vote", "By Mary Ann Smith", "The vote", true},
		{"co-authors joined by and", "By Jane Doe and John Roe The vote was close.", "By Jane Doe and John Roe", "The vote was close.", true},
		{"line break ends the byline", "Words by Jane Doe\nThe council voted.", "Words by Jane Doe", "The council voted.", true},
		{"initials stay in the name", "By J. R. Hartley The book", "By J. R. Hartley", "The book", true},
		{"comma ends the name", "By Jane Doe, Staff Writer", "By Jane Doe", "Staff Writer", true},
		{"attribution dash", "— Jane Doe", "— Jane Doe", "", true},
		{"lower-case after by is not a byline", "By the end of the year, prices rose.", "", "", false},
		{"prose is not a byline", "The council voted.", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, r, ok := splitByline(tc.text)
			if ok != tc.ok || b != tc.byline || r != tc.rest {
				t.Errorf("splitByline(%q) = %q, %q, %v; want %q, %q, %v", tc.text, b, r, ok, tc.byline, tc.rest, tc.ok)
			}
		})
	}
}

package evalbench

import (
	"errors"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"collapses whitespace and lower-cases", "  Hello\n\tWORLD  ", "hello world"},
		{"unifies quotes and dashes", "\u201cIt\u2019s\u201d \u2014 ok \u2013 yes", `"it's" - ok - yes`},
		{"composes to NFC", "cafe\u0301", "caf\u00e9"},
		{"joins a word hyphenated at a line end", "read-\naloud", "readaloud"},
		{"expands ligatures", "\ufb01nal", "final"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Normalize(tc.in); got != tc.want {
				t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestPass(t *testing.T) {
	page := "The Daily Paper   Page 3\nFirst column ends here.\n\nSecond column starts \u201chere\u201d.\n"
	for _, tc := range []struct {
		name string
		c    Check
		want bool
	}{
		{"present exact", Check{Type: TypePresent, Text: "first column ends"}, true},
		{"present across line break and quotes", Check{Type: TypePresent, Text: `ends here. Second column starts "here"`}, true},
		{"present with typos within max_diffs", Check{Type: TypePresent, Text: "Frst colmn", MaxDiffs: 2}, true},
		{"present with typos beyond max_diffs", Check{Type: TypePresent, Text: "Frst colmn", MaxDiffs: 1}, false},
		{"present missing", Check{Type: TypePresent, Text: "third column"}, false},
		{"absent passes when missing", Check{Type: TypeAbsent, Text: "Page 4"}, true},
		{"absent fails when present", Check{Type: TypeAbsent, Text: "page 3"}, false},
		{"absent fails on a near match", Check{Type: TypeAbsent, Text: "Dialy Paper", MaxDiffs: 2}, false},
		{"order in order", Check{Type: TypeOrder, Before: "first column", After: "second column"}, true},
		{"order reversed", Check{Type: TypeOrder, Before: "second column", After: "first column"}, false},
		{"order with before missing", Check{Type: TypeOrder, Before: "zeroth", After: "second column"}, false},
		{"order with after missing", Check{Type: TypeOrder, Before: "first", After: "zeroth"}, false},
		{"order with overlapping texts fails", Check{Type: TypeOrder, Before: "column ends", After: "ends here"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.c.Pass(page); got != tc.want {
				t.Errorf("Pass = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRead(t *testing.T) {
	good := `{"pdf":"a.pdf","page":1,"id":"a1","type":"present","text":"x","max_diffs":0,"category":"present"}

{"pdf":"a.pdf","page":2,"id":"a2","type":"order","before":"x","after":"y","max_diffs":1,"category":"order-columns"}
`
	checks, err := Read(strings.NewReader(good))
	if err != nil || len(checks) != 2 || checks[1].Before != "x" || checks[1].MaxDiffs != 1 {
		t.Fatalf("Read = %+v, %v", checks, err)
	}
	for _, tc := range []struct{ name, in string }{
		{"unknown type", `{"pdf":"a.pdf","page":1,"id":"a","type":"math","text":"x"}`},
		{"present without text", `{"pdf":"a.pdf","page":1,"id":"a","type":"present"}`},
		{"order without after", `{"pdf":"a.pdf","page":1,"id":"a","type":"order","before":"x"}`},
		{"no page", `{"pdf":"a.pdf","id":"a","type":"present","text":"x"}`},
		{"unknown field", `{"pdf":"a.pdf","page":1,"id":"a","type":"present","txt":"x"}`},
		{"duplicate id", `{"pdf":"a.pdf","page":1,"id":"a","type":"present","text":"x"}` + "\n" + `{"pdf":"a.pdf","page":1,"id":"a","type":"present","text":"y"}`},
		{"not json", `{`},
	} {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			if _, err := Read(strings.NewReader(tc.in)); !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestScore(t *testing.T) {
	checks := []Check{
		{PDF: "a.pdf", Page: 1, Type: TypePresent, Text: "alpha", Category: "present"},
		{PDF: "a.pdf", Page: 2, Type: TypePresent, Text: "alpha", Category: "present"},
		{PDF: "a.pdf", Page: 2, Type: TypeAbsent, Text: "header", Category: "absent-furniture"},
	}
	pages := map[int]string{1: "alpha beta", 2: "header gamma"}
	got := Score(checks, func(_ string, page int) string { return pages[page] })
	want := map[string]Tally{"present": {1, 2}, "absent-furniture": {0, 1}, "all": {1, 3}}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %+v, want %+v", k, got[k], v)
		}
	}
}

func TestTableChecks(t *testing.T) {
	page := "Intro text.\n\nTable 1\n\n| State | Permit | Handgun |\n|---|---|---|\n| Alabama | 18,870 | 23,022 |\n| Texas \\| TX | 21,550 | 56,941 |\n\nAfter."
	for _, tc := range []struct {
		name string
		c    Check
		want bool
	}{
		{"right neighbour", Check{Cell: "Alabama", Right: "18,870"}, true},
		{"left and up", Check{Cell: "56,941", Left: "21,550", Up: "23,022"}, true},
		{"down", Check{Cell: "18,870", Down: "21,550"}, true},
		{"heading of the column", Check{Cell: "21,550", TopHeading: "Permit"}, true},
		{"row heading", Check{Cell: "23,022", LeftHeading: "Alabama"}, true},
		{"escaped pipe in a cell", Check{Cell: "Texas | TX", Right: "21,550"}, true},
		{"wrong neighbour", Check{Cell: "Alabama", Right: "23,022"}, false},
		{"a heading is not its own heading", Check{Cell: "Permit", TopHeading: "Permit"}, false},
		{"within max_diffs", Check{Cell: "Alabamma", Right: "18870", MaxDiffs: 1}, true},
		{"no neighbour past the edge", Check{Cell: "Alabama", Left: "x"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.Type, tc.c.PDF, tc.c.Page, tc.c.ID = TypeTable, "x.pdf", 1, "t"
			if err := tc.c.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := tc.c.Pass(page); got != tc.want {
				t.Errorf("Pass = %v, want %v", got, tc.want)
			}
			// Plain rows (pdftotext) hold no table.
			if tc.c.Pass("State Permit Handgun\nAlabama 18,870 23,022") {
				t.Error("a table check passed on text without a table")
			}
		})
	}
	if err := (Check{PDF: "x", Page: 1, ID: "t", Type: TypeTable, Cell: "a"}).Validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("a table check with nothing beside the cell: %v", err)
	}
}

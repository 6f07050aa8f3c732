package voices

import (
	"fmt"
	"strings"
	"testing"
)

func TestNormalizeQuery(t *testing.T) {
	q, err := NormalizeQuery(Query{Text: "  warm   Scottish ", Language: " EN ", Gender: "Female"})
	if err != nil || q.Text != "warm Scottish" || q.Language != "en" || q.Gender != GenderFemale || q.Limit != DefaultLimit {
		t.Fatalf("got %+v, %v", q, err)
	}
	for _, tc := range []struct {
		name string
		q    Query
		want string
	}{
		{"limit over 100", Query{Limit: 101}, "limit"},
		{"negative limit", Query{Limit: -1}, "limit"},
		{"negative offset", Query{Offset: -1}, "offset"},
		{"text over 200 characters", Query{Text: strings.Repeat("a", 201)}, "200"},
		{"eleven words", Query{Text: strings.Repeat("a ", 11)}, "words"},
		{"bad language", Query{Language: "english!"}, "language"},
		{"bad gender", Query{Gender: "x"}, "gender"},
		{"bad age", Query{Age: "x"}, "age"},
		{"bad source", Query{Source: "x"}, "source"},
		{"bad engine", Query{Engine: "../x"}, "engine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NormalizeQuery(tc.q); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error about %s", err, tc.want)
			}
		})
	}
}

func TestSearchInMemory(t *testing.T) {
	var lib []Voice
	for i := range 25 {
		v := valid()
		v.ID, v.Name = fmt.Sprintf("v%02d", i), fmt.Sprintf("Voice %02d", i)
		if i%5 == 0 {
			v.Description = "A gruff sailor"
		}
		lib = append(lib, v)
	}
	q, _ := NormalizeQuery(Query{Text: "SAILOR gruff", Limit: 2, Offset: 2})
	r := Search(lib, q)
	if r.Total != 5 || r.Count != 2 || r.Items[0].ID != "v10" || r.Items[1].ID != "v15" || !r.HasMore || *r.NextOffset != 4 {
		t.Fatalf("got %+v", r)
	}
	q.Offset = 4
	if r := Search(lib, q); r.HasMore || r.NextOffset != nil || r.Count != 1 {
		t.Fatalf("last page %+v", r)
	}
}

func TestLanguageMatchesAtSubtagBoundaries(t *testing.T) {
	for _, tc := range []struct {
		filter, lang string
		want         bool
	}{{"en", "en", true}, {"en", "en-gb", true}, {"en", "eng", false}, {"en-gb", "en", false}, {"en-gb", "en-gb-scotland", true}} {
		if got := LanguageMatches(tc.filter, tc.lang); got != tc.want {
			t.Errorf("%s on %s: %v", tc.filter, tc.lang, got)
		}
	}
}

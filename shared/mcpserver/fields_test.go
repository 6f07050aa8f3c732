package mcpserver

import (
	"encoding/json"
	"testing"
)

func TestPaginate(t *testing.T) {
	all := []int{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		name            string
		p               Paging
		items           []int
		hasMore         bool
		next, offset, n int
	}{
		{"first page", Paging{Limit: 2}, []int{1, 2}, true, 2, 0, 2},
		{"middle page", Paging{Limit: 2, Offset: 2}, []int{3, 4}, true, 4, 2, 2},
		{"last page has no next", Paging{Limit: 2, Offset: 4}, []int{5}, false, -1, 4, 1},
		{"offset past the end is an empty page", Paging{Limit: 2, Offset: 9}, []int{}, false, -1, 5, 0},
		{"zero limit is the default", Paging{}, []int{1, 2, 3, 4, 5}, false, -1, 0, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pg := paginate(all, tc.p)
			got, _ := json.Marshal(pg.Items)
			want, _ := json.Marshal(tc.items)
			if string(got) != string(want) || pg.HasMore != tc.hasMore || pg.Total != 5 || pg.Count != tc.n || pg.Offset != tc.offset {
				t.Errorf("page = %+v", pg)
			}
			if (pg.NextOffset == nil) != (tc.next < 0) || (pg.NextOffset != nil && *pg.NextOffset != tc.next) {
				t.Errorf("next_offset = %v, want %d", pg.NextOffset, tc.next)
			}
		})
	}
	b, _ := json.Marshal(paginate(all, Paging{Limit: 5}))
	if want := `{"total":5,"count":5,"offset":0,"items":[1,2,3,4,5],"has_more":false,"next_offset":null}`; string(b) != want {
		t.Errorf("JSON page = %s, want %s", b, want)
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":                      "plain text",
		"keeps\nnewlines\tand tabs":       "keeps\nnewlines\tand tabs",
		"zero\u200bwidth":                 "zerowidth",
		"bidi \u202eoverride\u202c":       "bidi override",
		"bell\u0007 and escape\u001b[31m": "bell and escape[31m",
		"accents stay: café, 中文":          "accents stay: café, 中文",
	} {
		if got := clean(in); got != want {
			t.Errorf("clean(%q) = %q, want %q", in, got, want)
		}
	}
}

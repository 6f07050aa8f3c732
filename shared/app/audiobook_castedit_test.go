package app

import (
	"net/http"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/httpapi/audiobookapi"
)

// speakersByName counts a book's dialogue lines per speaker.
func (c *apiClient) speakersByName(id string) map[string][]string {
	c.t.Helper()
	out := map[string][]string{}
	for _, sg := range c.segments(id, "") {
		if sg.Kind == audiobook.KindDialogue {
			out[sg.Speaker] = append(out[sg.Speaker], sg.ID)
		}
	}
	return out
}

// editCast sends a cast edit on revision rev.
func (c *apiClient) editCast(method, path string, rev int64, body string) (int, []byte) {
	c.t.Helper()
	status, _, b := c.do(method, path, []byte(body), "If-Match", strconv.Quote(strconv.FormatInt(rev, 10)))
	return status, b
}

// TestAudiobookCastEditsOverHTTP imports the constructed novel of the
// browser test, merges Hetty into Lady Ross (her lines become Lady
// Ross's), splits the alias off again (they come back to a new Hetty),
// renames a character (his lines follow), keeps a hand-set line through
// all of it, and refuses stale, unknown and bad edits without a change.
func TestAudiobookCastEditsOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	novel, err := os.ReadFile("../../frontend/e2e/books/the-ross-household.txt")
	if err != nil {
		t.Fatal(err)
	}
	bk := c.importBook("the-ross-household.txt", "text/plain", novel)
	id, base := bk.ID, "/api/audiobook/books/"+bk.ID
	before := c.speakersByName(id)
	if len(before["Hetty"]) != 4 || len(before["Lady Ross"]) != 5 || len(before["Tom Carver"]) != 4 {
		t.Fatalf("the rules at import: %v; want Hetty 4, Lady Ross 5, Tom Carver 4 lines", before)
	}
	// A hand-set line: Tom's first line given to Hetty.
	hand := before["Tom Carver"][0]
	status, _, b := c.do(http.MethodPut, base+"/segments/"+hand+"/speaker", []byte(`{"speaker":"Hetty"}`), "If-Match", `"1"`)
	if status != http.StatusOK {
		t.Fatalf("set speaker = %d %s", status, b)
	}
	rev := int64(2)

	t.Run("bad edits are problems and change nothing", func(t *testing.T) {
		castBefore := len(c.book(id).Cast)
		for _, tc := range []struct {
			what, method, path string
			rev                int64
			body               string
			want               int
		}{
			{"a stale revision", http.MethodPost, "/cast/lady-ross/merge", 1, `{"from":"hetty"}`, http.StatusConflict},
			{"an unknown character", http.MethodPost, "/cast/lady-ross/merge", rev, `{"from":"nobody"}`, http.StatusNotFound},
			{"a merge into itself", http.MethodPost, "/cast/hetty/merge", rev, `{"from":"hetty"}`, http.StatusUnprocessableEntity},
			{"an alias the character lacks", http.MethodPost, "/cast/hetty/split", rev, `{"alias":"Nell"}`, http.StatusUnprocessableEntity},
			{"a name another character has", http.MethodPut, "/cast/hetty/name", rev, `{"name":"lady ross"}`, http.StatusUnprocessableEntity},
			{"a gender out of the list", http.MethodPut, "/cast/hetty/gender", rev, `{"gender":"other"}`, http.StatusUnprocessableEntity},
		} {
			status, b := c.editCast(tc.method, base+tc.path, tc.rev, tc.body)
			assertProblem(t, tc.what, status, b, tc.want)
		}
		status, _, b := c.do(http.MethodPost, base+"/cast/lady-ross/merge", []byte(`{"from":"hetty"}`))
		if status != http.StatusUnprocessableEntity && status != http.StatusBadRequest {
			t.Fatalf("a merge without If-Match = %d %s", status, b)
		}
		if got := c.book(id); got.Revision != rev || len(got.Cast) != castBefore {
			t.Fatalf("refused edits changed the book: revision %d, cast %+v", got.Revision, got.Cast)
		}
	})

	t.Run("a merge gives the merged character's lines to the kept one", func(t *testing.T) {
		status, b := c.editCast(http.MethodPost, base+"/cast/lady-ross/merge", rev, `{"from":"hetty"}`)
		if status != http.StatusOK {
			t.Fatalf("merge = %d %s", status, b)
		}
		v := decode[audiobookapi.CastEditView](t, b)
		rev = v.Revision
		i := slices.IndexFunc(v.Cast, func(ch audiobook.Character) bool { return ch.ID == "lady-ross" })
		if i < 0 || !slices.Contains(v.Cast[i].Aliases, "Hetty") || slices.ContainsFunc(v.Cast, func(ch audiobook.Character) bool { return ch.ID == "hetty" }) {
			t.Fatalf("cast after the merge: %+v", v.Cast)
		}
		got := c.speakersByName(id)
		if len(got["Lady Ross"]) != 10 || len(got["Hetty"]) != 0 || v.ChangedLines != 5 || v.Cast[i].Lines != 10 {
			t.Fatalf("after the merge: %v, changed %d, Lady Ross %+v; want her 5 lines, Hetty's 4 and the hand-set one", got, v.ChangedLines, v.Cast[i])
		}
		if sg := c.segment(id, hand); sg.Speaker != "Lady Ross" || sg.Source != audiobook.SourceHand {
			t.Fatalf("the hand-set line after the merge: %+v", sg)
		}
	})

	t.Run("a split gives the lines tagged with the alias to a new character", func(t *testing.T) {
		status, b := c.editCast(http.MethodPost, base+"/cast/lady-ross/split", rev, `{"alias":"hetty"}`)
		if status != http.StatusOK {
			t.Fatalf("split = %d %s", status, b)
		}
		v := decode[audiobookapi.CastEditView](t, b)
		rev = v.Revision
		i := slices.IndexFunc(v.Cast, func(ch audiobook.Character) bool { return ch.Name == "Hetty" })
		if i < 0 || v.Cast[i].Lines != 4 || v.Cast[i].Mentions == 0 || v.ChangedLines != 4 {
			t.Fatalf("cast after the split: %+v, changed %d", v.Cast, v.ChangedLines)
		}
		got := c.speakersByName(id)
		if !slices.Equal(got["Hetty"], before["Hetty"]) || len(got["Lady Ross"]) != 6 {
			t.Fatalf("after the split: %v; want Hetty's 4 lines back, Lady Ross 5 and the hand-set one", got)
		}
		if sg := c.segment(id, hand); sg.Speaker != "Lady Ross" || sg.Source != audiobook.SourceHand {
			t.Fatalf("the hand-set line after the split: %+v", sg)
		}
	})

	t.Run("a rename moves the lines and keeps the old name as an alias", func(t *testing.T) {
		status, b := c.editCast(http.MethodPut, base+"/cast/tom-carver/name", rev, `{"name":"Thomas Carver"}`)
		if status != http.StatusOK {
			t.Fatalf("rename = %d %s", status, b)
		}
		v := decode[audiobookapi.CastEditView](t, b)
		rev = v.Revision
		i := slices.IndexFunc(v.Cast, func(ch audiobook.Character) bool { return ch.ID == "tom-carver" })
		if i < 0 || v.Cast[i].Name != "Thomas Carver" || !slices.Contains(v.Cast[i].Aliases, "Tom Carver") {
			t.Fatalf("cast after the rename: %+v", v.Cast)
		}
		if got := c.speakersByName(id); len(got["Thomas Carver"]) != 3 || len(got["Tom Carver"]) != 0 {
			t.Fatalf("after the rename: %v", got)
		}
	})

	t.Run("the review order lists the least certain lines first", func(t *testing.T) {
		lines := c.segments(id, "&sort=confidence")
		all := c.speakersByName(id)
		n := 0
		for _, ids := range all {
			n += len(ids)
		}
		if len(lines) != n || lines[len(lines)-1].ID != hand {
			t.Fatalf("%d lines by confidence, want the book's %d dialogue lines with the hand-set one (confidence 1) last", len(lines), n)
		}
		for i := 1; i < len(lines); i++ {
			a, b := lines[i-1], lines[i]
			if a.Kind != audiobook.KindDialogue || (a.Speaker != "" && b.Speaker == "") || (a.Speaker != "") == (b.Speaker != "") && a.Confidence > b.Confidence {
				t.Fatalf("lines %d and %d out of the review order: %+v, %+v", i-1, i, a, b)
			}
		}
	})

	t.Run("a gender is set", func(t *testing.T) {
		status, b := c.editCast(http.MethodPut, base+"/cast/hetty/gender", rev, `{"gender":"female"}`)
		v := decode[audiobookapi.CastEditView](t, b)
		i := slices.IndexFunc(v.Cast, func(ch audiobook.Character) bool { return ch.ID == "hetty" })
		if status != http.StatusOK || i < 0 || v.Cast[i].Gender != "female" || v.Revision != rev+1 {
			t.Fatalf("gender = %d %s", status, b)
		}
	})
}

// segment reads one segment of a book.
func (c *apiClient) segment(id, segID string) audiobook.Segment {
	c.t.Helper()
	for _, sg := range c.segments(id, "") {
		if sg.ID == segID {
			return sg
		}
	}
	c.t.Fatalf("book %s has no segment %s", id, segID)
	return audiobook.Segment{}
}

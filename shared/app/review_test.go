package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/magazine"
)

// ingestSample uploads the generated three-page sample and waits for it.
func ingestSample(t *testing.T, c *apiClient) string {
	t.Helper()
	id := c.ingestReady("harbour.pdf", samplePDF())
	dissolveProposals(t, c, id, "Harbour Reborn", "Storm Season Ahead", "The Lighthouse Keepers")
	return id
}

// dissolveProposals checks the issue's proposed articles are titled as
// want, in print order, then dissolves them: the tests that build articles
// by hand start from an issue with none.
func dissolveProposals(t *testing.T, c *apiClient, id string, want ...string) {
	t.Helper()
	arts := decode[struct{ Articles []magazine.Article }](t, c.get("/api/magazine/"+id+"/articles")).Articles
	var titles []string
	for _, a := range arts {
		if a.Proposed {
			titles = append(titles, a.Title)
		}
	}
	if strings.Join(titles, "|") != strings.Join(want, "|") {
		t.Fatalf("proposed articles %q, want %q", titles, want)
	}
	for _, a := range arts {
		status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/articles/"+a.ID+"/proposal", []byte(`{"action":"dissolve"}`))
		if status != http.StatusOK {
			t.Fatalf("dissolve %s: %d %s", a.Title, status, b)
		}
	}
}

// get reads path, failing the test unless it answers 200.
func (c *apiClient) get(path string) []byte {
	c.t.Helper()
	status, _, b := c.do(http.MethodGet, path, nil)
	if status != http.StatusOK {
		c.t.Fatalf("GET %s: %d %s", path, status, b)
	}
	return b
}

func (c *apiClient) page(id string, n int) magazineapi.PageView {
	c.t.Helper()
	return decode[magazineapi.PageView](c.t, c.get(fmt.Sprintf("/api/magazine/%s/pages/%d", id, n)))
}

func regionByText(t *testing.T, p magazineapi.PageView, prefix string) magazine.Region {
	t.Helper()
	for _, r := range p.Regions {
		if strings.HasPrefix(r.Text, prefix) {
			return r
		}
	}
	t.Fatalf("no region starting %q on page %d", prefix, p.Number)
	return magazine.Region{}
}

// issueState is everything a client can read of an issue's records: the
// issue with its revision, every page with its version, and the articles.
// Two of them are equal only if nothing was written in between.
func (c *apiClient) issueState(id string) string {
	c.t.Helper()
	view := decode[magazineapi.IssueView](c.t, c.get("/api/magazine/"+id))
	state := []any{view}
	for n := 1; n <= view.PageCount; n++ {
		p := c.page(id, n)
		p.ImageURL = "" // a fresh signed URL on every read
		state = append(state, p)
	}
	state = append(state, json.RawMessage(c.get("/api/magazine/"+id+"/articles")))
	js, err := json.Marshal(state)
	if err != nil {
		c.t.Fatal(err)
	}
	return string(js)
}

// refused asserts that a call answered want with a problem document and
// left the issue as it was (issue, revision, pages, versions, articles).
func (c *apiClient) refused(id, before string, status, want int, body []byte, call string) {
	c.t.Helper()
	if status != want || !strings.Contains(string(body), `"detail"`) {
		c.t.Errorf("%s = %d %s, want %d with a problem detail", call, status, body, want)
	}
	if after := c.issueState(id); after != before {
		c.t.Errorf("%s was refused but changed the issue:\nbefore %s\nafter  %s", call, before, after)
	}
}

type outcome struct {
	UndoToken   string `json:"undo_token"`
	UndoCleared bool   `json:"undo_cleared"`
}

func TestReviewOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	base := "/api/magazine/" + id + "/pages/1"
	p := c.page(id, 1)
	head := regionByText(t, p, "Harbour Reborn")
	byline := regionByText(t, p, "By Ada")
	left := regionByText(t, p, "Left column 1")

	// An article of the headline, byline and left column.
	body := fmt.Sprintf(`{"title":"Harbour","regions":[{"page":1,"region":%q},{"page":1,"region":%q},{"page":1,"region":%q}]}`, head.ID, byline.ID, left.ID)
	status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/articles", []byte(body))
	if status != http.StatusCreated {
		t.Fatalf("create article: %d %s", status, b)
	}
	art := decode[struct{ Article magazine.Article }](t, b).Article.ID
	if art == "" {
		t.Fatalf("create article answered no id: %s", b)
	}

	t.Run("delete twice answers 404; undo restores the region byte for byte", func(t *testing.T) {
		before := c.page(id, 1)
		status, _, b := c.do(http.MethodDelete, base+"/regions/"+byline.ID, nil)
		if status != http.StatusOK {
			t.Fatalf("delete: %d %s", status, b)
		}
		tok := decode[outcome](t, b).UndoToken
		deleted := c.issueState(id)
		status, _, b = c.do(http.MethodDelete, base+"/regions/"+byline.ID, nil)
		c.refused(id, deleted, status, http.StatusNotFound, b, "second delete")
		status, _, b = c.do(http.MethodPost, "/api/magazine/"+id+"/undo", []byte(`{"token":"`+tok+`"}`))
		if status != http.StatusOK {
			t.Fatalf("undo: %d %s", status, b)
		}
		after := c.page(id, 1)
		x, errX := json.Marshal(before.Regions)
		y, errY := json.Marshal(after.Regions)
		if errX != nil || errY != nil || len(before.Regions) == 0 || string(x) != string(y) {
			t.Fatalf("undo did not restore the regions:\n%s\n%s", x, y)
		}
	})

	t.Run("undo after another change answers 409 with a reason", func(t *testing.T) {
		status, _, b := c.do(http.MethodPost, base+"/regions/bulk", []byte(`{"ids":["`+left.ID+`"],"action":"set-kind","kind":"sidebar"}`))
		if status != http.StatusOK {
			t.Fatalf("bulk retype: %d %s", status, b)
		}
		tok := decode[outcome](t, b).UndoToken
		status, _, b = c.do(http.MethodPatch, base+"/regions/"+head.ID, []byte(`{"text":"Harbour Reborn!"}`))
		if status != http.StatusOK || !decode[outcome](t, b).UndoCleared {
			t.Fatalf("text edit: %d %s", status, b)
		}
		before := c.issueState(id)
		status, _, b = c.do(http.MethodPost, "/api/magazine/"+id+"/undo", []byte(`{"token":"`+tok+`"}`))
		c.refused(id, before, status, http.StatusConflict, b, "stale undo")
		status, _, b = c.do(http.MethodPost, "/api/magazine/"+id+"/undo", []byte(`{"token":"bm90LWEtdG9rZW4"}`))
		c.refused(id, before, status, http.StatusUnprocessableEntity, b, "undo with a forged token")
	})

	t.Run("split and merge keep the article's membership", func(t *testing.T) {
		status, _, b := c.do(http.MethodPost, base+"/regions/"+left.ID+"/split", []byte(`{"offset":12}`))
		if status != http.StatusOK {
			t.Fatalf("split: %d %s", status, b)
		}
		split := decode[struct{ Regions []magazine.Region }](t, b)
		if len(split.Regions) != 2 {
			t.Fatalf("split answered %d parts: %s", len(split.Regions), b)
		}
		if b := c.get("/api/magazine/" + id + "/articles"); !strings.Contains(string(b), split.Regions[1].ID) {
			t.Fatalf("the new part is not in the article: %s", b)
		}
		status, _, b = c.do(http.MethodPost, base+"/regions/"+left.ID+"/merge-next", nil)
		if status != http.StatusOK {
			t.Fatalf("merge: %d %s", status, b)
		}
		if b := c.get("/api/magazine/" + id + "/articles"); strings.Contains(string(b), `"`+split.Regions[1].ID+`"`) {
			t.Fatalf("the merged-away part is still in the article: %s", b)
		}
	})

	t.Run("moving a picture re-crops it from the render", func(t *testing.T) {
		var pic magazine.Region
		for _, r := range c.page(id, 1).Regions {
			if magazine.IsVisual(r.Kind) {
				pic = r
			}
		}
		if pic.ID == "" || pic.CropKey == "" {
			t.Fatal("page 1 has no cropped picture region")
		}
		box := pic.BBox
		box[2] -= 20
		status, _, b := c.do(http.MethodPatch, base+"/regions/"+pic.ID, []byte(fmt.Sprintf(`{"bbox":[%g,%g,%g,%g]}`, box[0], box[1], box[2], box[3])))
		if status != http.StatusOK {
			t.Fatalf("move picture: %d %s", status, b)
		}
		moved := decode[struct{ Region magazine.Region }](t, b)
		if moved.Region.CropKey == pic.CropKey || moved.Region.CropKey == "" {
			t.Fatalf("crop not re-cut: %q → %q", pic.CropKey, moved.Region.CropKey)
		}
		crop := fetchPNG(t, c, "/api/magazine/"+id+"/pages/1/crops/"+pic.ID)
		render := fetchPNG(t, c, "/api/magazine/"+id+"/pages/1/image")
		want := magazine.PixelRect(box, 150.0/72, render.Bounds())
		if crop.Bounds().Dx() != want.Dx() || crop.Bounds().Dy() != want.Dy() {
			t.Fatalf("crop %v, want %v", crop.Bounds(), want)
		}
	})

	t.Run("approve with a vanished id fails naming it", func(t *testing.T) {
		before := c.issueState(id)
		status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/articles/"+art+"/approve",
			[]byte(fmt.Sprintf(`{"regions":[{"page":1,"region":%q},{"page":1,"region":"gone9"}],"images":[]}`, head.ID)))
		c.refused(id, before, status, http.StatusUnprocessableEntity, b, "approve with a vanished id")
		if !strings.Contains(string(b), "gone9") {
			t.Errorf("approve with a vanished id does not name it: %s", b)
		}
		status, _, b = c.do(http.MethodPost, "/api/magazine/"+id+"/articles/"+art+"/approve",
			[]byte(fmt.Sprintf(`{"regions":[{"page":1,"region":%q}],"images":[]}`, head.ID)))
		if status != http.StatusOK || !strings.Contains(string(b), `"approved":true`) {
			t.Fatalf("approve = %d %s", status, b)
		}
		if b := c.get("/api/magazine/" + id + "/articles/" + art + "/text"); !strings.Contains(string(b), "Harbour Reborn!") {
			t.Fatalf("article text = %s", b)
		}
	})

	t.Run("a hand-ordered page is left alone by fix reading order", func(t *testing.T) {
		ids := c.page(id, 2).Order
		if len(ids) < 2 {
			t.Fatalf("page 2 order %v: nothing to reverse", ids)
		}
		reversed := make([]string, len(ids))
		for i, x := range ids {
			reversed[len(ids)-1-i] = x
		}
		js, err := json.Marshal(map[string]any{"ids": reversed})
		if err != nil {
			t.Fatal(err)
		}
		if status, _, b := c.do(http.MethodPut, "/api/magazine/"+id+"/pages/2/order", js); status != http.StatusOK {
			t.Fatalf("set order: %d %s", status, b)
		}
		status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/fix-order", []byte(`{"pages":[1,2,3]}`))
		if status != http.StatusOK || !strings.Contains(string(b), `"skipped":[2]`) {
			t.Fatalf("fix order: %d %s", status, b)
		}
		if got := c.page(id, 2); !got.HandOrdered || fmt.Sprint(got.Order) != fmt.Sprint(reversed) {
			t.Fatalf("page 2 order changed: %v", got.Order)
		}
	})

	t.Run("a stale If-Match answers 409 and changes nothing", func(t *testing.T) {
		p := c.page(id, 3)
		r := regionByText(t, p, "Right column 3")
		before := c.issueState(id)
		status, _, b := c.do(http.MethodPatch, fmt.Sprintf("/api/magazine/%s/pages/3/regions/%s", id, r.ID), []byte(`{"text":"x"}`), "If-Match", fmt.Sprint(p.Version-1))
		c.refused(id, before, status, http.StatusConflict, b, "an edit with a stale If-Match")
	})

	t.Run("100 concurrent edits to one page lose nothing", func(t *testing.T) {
		before := len(c.page(id, 3).Regions)
		var wg sync.WaitGroup
		codes := make(chan int, 100)
		for i := range 100 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				body := fmt.Sprintf(`{"bbox":[%d,%d,8,8],"kind":"image"}`, 20+(i%50)*10, 600+(i/50)*20)
				req, err := http.NewRequest(http.MethodPost, c.base+"/api/magazine/"+id+"/pages/3/regions", strings.NewReader(body))
				if err != nil {
					codes <- 0
					return
				}
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					codes <- 0
					return
				}
				resp.Body.Close()
				codes <- resp.StatusCode
			}()
		}
		wg.Wait()
		close(codes)
		created := 0
		for code := range codes {
			if code == http.StatusCreated {
				created++
			}
		}
		after := len(c.page(id, 3).Regions)
		t.Logf("100 concurrent edits: %d created, regions %d → %d", created, before, after)
		if created != 100 || after != before+100 {
			t.Fatalf("%d of 100 edits answered 201; regions %d → %d", created, before, after)
		}
	})

	t.Run("an unknown kind answers 422 at body.kind; a cleanup kind can be set by hand", func(t *testing.T) {
		page3 := "/api/magazine/" + id + "/pages/3"
		r := regionByText(t, c.page(id, 3), "Right column 3")
		for _, req := range []struct{ method, path, body string }{
			{http.MethodPost, page3 + "/regions/bulk", `{"ids":["` + r.ID + `"],"action":"set-kind","kind":"poster"}`},
			{http.MethodPatch, page3 + "/regions/" + r.ID, `{"kind":"poster"}`},
			{http.MethodPost, page3 + "/regions", `{"bbox":[20,20,40,40],"kind":"poster"}`},
		} {
			status, _, b := c.do(req.method, req.path, []byte(req.body))
			if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), `"location":"body.kind"`) || !strings.Contains(string(b), "text-in-image") {
				t.Errorf("%s %s with kind poster = %d %s, want 422 at body.kind listing the kinds", req.method, req.path, status, b)
			}
		}
		if got := regionByText(t, c.page(id, 3), "Right column 3"); got.Kind != r.Kind {
			t.Fatalf("a refused kind changed the region to %q", got.Kind)
		}
		for _, kind := range []magazine.Kind{magazine.KindNoise, r.Kind} {
			status, _, b := c.do(http.MethodPost, page3+"/regions/bulk", []byte(`{"ids":["`+r.ID+`"],"action":"set-kind","kind":"`+string(kind)+`"}`))
			if status != http.StatusOK {
				t.Fatalf("set-kind %s = %d %s", kind, status, b)
			}
		}
	})
}

// TestCleanupOverHTTP: cleanup on demand re-types what the rules catch and
// keeps a backup; restoring it brings the regions back byte for byte.
func TestCleanupOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	base := "/api/magazine/" + id + "/pages/1/cleanup"

	// No backup before the first cleanup: refused, nothing written.
	before := c.issueState(id)
	status, _, b := c.do(http.MethodPost, base+"/restore", nil)
	c.refused(id, before, status, http.StatusNotFound, b, "restore before any cleanup")

	// The ingest already cleaned the page; a note reduced to stray marks
	// gives cleanup something to do.
	note := regionByText(t, c.page(id, 1), "A note 1")
	status, _, b = c.do(http.MethodPatch, "/api/magazine/"+id+"/pages/1/regions/"+note.ID, []byte(`{"text":"* * *"}`))
	if status != http.StatusOK {
		t.Fatalf("edit note: %d %s", status, b)
	}
	// layout is the page's regions as JSON and its reading order.
	layout := func(p magazine.Page) string {
		js, err := json.Marshal(p.Regions)
		if err != nil {
			t.Fatal(err)
		}
		return string(js) + " order " + strings.Join(p.Order, ",")
	}
	edited := layout(c.page(id, 1).Page)

	status, _, b = c.do(http.MethodPost, base, nil)
	if status != http.StatusOK {
		t.Fatalf("cleanup: %d %s", status, b)
	}
	cleanup := decode[struct {
		Changes   []magazine.Change `json:"changes"`
		UndoToken string            `json:"undo_token"`
	}](t, b)
	if len(cleanup.Changes) != 1 || cleanup.Changes[0].RegionID != note.ID || cleanup.Changes[0].Rule != magazine.RuleNoise || cleanup.UndoToken == "" {
		t.Fatalf("cleanup answered %s, want the note re-typed as noise with an undo token", b)
	}
	cleaned := c.page(id, 1)
	var retyped magazine.Region
	for _, r := range cleaned.Regions {
		if r.ID == note.ID {
			retyped = r
		}
	}
	if retyped.Kind != magazine.KindNoise || retyped.CleanedFrom == nil || retyped.CleanedFrom.Kind != note.Kind {
		t.Fatalf("the note after cleanup is %+v, want noise cleaned from %s", retyped, note.Kind)
	}
	if layout(cleaned.Page) == edited {
		t.Fatal("cleanup left the stored page as it was")
	}

	status, _, b = c.do(http.MethodPost, base+"/restore", nil)
	if status != http.StatusOK {
		t.Fatalf("restore: %d %s", status, b)
	}
	restored := decode[struct {
		Page magazine.Page `json:"page"`
	}](t, b)
	after := c.page(id, 1)
	if got := layout(after.Page); got != edited {
		t.Fatalf("restore did not bring back the regions:\nbefore %s\nafter  %s", edited, got)
	}
	if got := layout(restored.Page); got != edited {
		t.Errorf("restore answered %s, want %s", got, edited)
	}
	if after.Version <= cleaned.Version {
		t.Errorf("restore left the page at version %d (cleanup made %d)", after.Version, cleaned.Version)
	}
}

package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/httpapi/reviewapi"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/jobs/localjobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/pipeline/visionocr"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/review"
	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/store/bolt"
)

// raceTable is the app's table with one race built in: once armed, the
// first write of a page record waits while race runs (another user's edit
// landing between a reader's read and its write), then goes on.
type raceTable struct {
	store.Table
	mu   sync.Mutex
	race func(page int)
}

func (r *raceTable) arm(race func(page int)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.race = race
}

func (r *raceTable) before(sk string) {
	var n int
	if _, err := fmt.Sscanf(sk, "PAGE#%d", &n); err != nil {
		return
	}
	r.mu.Lock()
	race := r.race
	r.race = nil
	r.mu.Unlock()
	if race != nil {
		race(n)
	}
}

func (r *raceTable) Put(ctx context.Context, it store.Item, cond store.Condition) error {
	r.before(it.SK)
	return r.Table.Put(ctx, it, cond)
}

func (r *raceTable) Transact(ctx context.Context, writes []store.Write) error {
	for _, w := range writes {
		r.before(w.Item.SK)
	}
	return r.Table.Transact(ctx, writes)
}

// newRaceApp serves the magazine and review operations over a raceTable.
func newRaceApp(t *testing.T) (*apiClient, *Local, *raceTable) {
	t.Helper()
	var rt *raceTable
	c, local := newLocalAppWith(t, func(l *Local) []httpapi.Operation {
		rt = &raceTable{Table: l.Deps.Table}
		d := *l.Deps
		d.Table = rt
		// The modules' jobs (figure refinement) run over the raceTable too,
		// on a pool of their own: its job records live apart, so the app's
		// pool never takes them.
		jobTable, err := bolt.Open(filepath.Join(t.TempDir(), "jobs.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { jobTable.Close() })
		registry := jobs.NewRegistry()
		pool := localjobs.New(jobTable, jobs.NewRunner(jobTable, registry, jobs.RunnerOptions{Log: d.Log}), localjobs.Options{Workers: 1, Log: d.Log})
		d.Jobs = pool
		var mods []platform.Module
		// The steps propose articles as the local runner's do.
		steps := func(d *platform.Deps) *pipeline.Steps { return pipeline.Proposing(visionocr.NewSteps(d), d) }
		for _, mod := range []platform.New{magazineapi.Module(steps), reviewapi.Module} {
			m, err := mod(&d)
			if err != nil {
				t.Fatal(err)
			}
			mods = append(mods, m)
		}
		if err := platform.RegisterJobs(registry, mods); err != nil {
			t.Fatal(err)
		}
		if err := pool.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pool.Stop(context.Background()) })
		return append(platform.Operations(mods), jobsapi.Operations(pool)...)
	})
	return c, local, rt
}

// picture is the page's one picture region.
func picture(t *testing.T, p magazineapi.PageView) magazine.Region {
	t.Helper()
	for _, r := range p.Regions {
		if magazine.IsVisual(r.Kind) {
			return r
		}
	}
	t.Fatalf("no picture on page %d", p.Number)
	return magazine.Region{}
}

// rewritePage changes a stored page behind the API's back (an issue whose
// boxes were never refined, as from an older ingest).
func rewritePage(t *testing.T, table store.Table, id string, n int, change func(p *magazine.Page)) {
	t.Helper()
	ctx := context.Background()
	it, err := table.Get(ctx, issues.PK(id), issues.PageSK(n))
	if err != nil {
		t.Fatal(err)
	}
	var p magazine.Page
	if err := json.Unmarshal(it.Data, &p); err != nil {
		t.Fatal(err)
	}
	change(&p)
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := table.Put(ctx, store.Item{PK: it.PK, SK: it.SK, Version: it.Version + 1, Data: data}, store.IfVersion(it.Version)); err != nil {
		t.Fatal(err)
	}
}

func (c *apiClient) revision(id string) int64 {
	c.t.Helper()
	return decode[magazineapi.IssueView](c.t, c.get("/api/magazine/"+id)).Revision
}

// TestRefineFiguresKeepsEditsAndHandPlacedBoxes: an edit that lands while
// refinement runs survives it, a box placed by hand is not moved, a loose
// OCR box is tightened, and refinement is a change like any other: the
// revision moves on and the stored undo point is gone.
func TestRefineFiguresKeepsEditsAndHandPlacedBoxes(t *testing.T) {
	c, local, rt := newRaceApp(t)
	id := ingestSample(t, c)

	// Page 2's picture as a loose OCR box; page 1's placed loosely by hand.
	photo := picture(t, c.page(id, 2)).BBox
	loose := magazine.BBox{photo[0] - 20, photo[1] - 20, photo[2] + 40, photo[3] + 40}
	rewritePage(t, local.Deps.Table, id, 2, func(p *magazine.Page) {
		for i := range p.Regions {
			if magazine.IsVisual(p.Regions[i].Kind) {
				p.Regions[i].BBox = loose
			}
		}
	})
	hand := picture(t, c.page(id, 1))
	placed := magazine.BBox{hand.BBox[0] - 20, hand.BBox[1] - 20, hand.BBox[2] + 40, hand.BBox[3] + 40}
	status, _, b := c.do(http.MethodPatch, fmt.Sprintf("/api/magazine/%s/pages/1/regions/%s", id, hand.ID), fmt.Appendf(nil, `{"bbox":[%g,%g,%g,%g]}`, placed[0], placed[1], placed[2], placed[3]))
	if status != http.StatusOK {
		t.Fatalf("place page 1's picture by hand: %d %s", status, b)
	}
	undo := decode[outcome](t, b).UndoToken

	// While refinement writes a page, the user edits that page's text.
	// The hook runs on the job's goroutine, beside the test polling the job.
	var racedPage, editedRevision atomic.Int64
	rt.arm(func(n int) {
		racedPage.Store(int64(n))
		left := regionByText(t, c.page(id, n), "Left column")
		status, _, b := c.do(http.MethodPatch, fmt.Sprintf("/api/magazine/%s/pages/%d/regions/%s", id, n, left.ID), []byte(`{"text":"Typed while refining."}`))
		if status != http.StatusOK {
			t.Errorf("edit during refinement: %d %s", status, b)
		}
		editedRevision.Store(c.revision(id))
	})
	job := c.waitJob(c.startJob("/api/magazine/"+id+"/figures/refine", ""))
	if job.Status != jobs.StatusSucceeded {
		t.Fatalf("refine job: %s (%s)", job.Status, job.Error)
	}
	b = job.Result
	res := decode[issues.Refined](t, b)
	raced, edited := int(racedPage.Load()), editedRevision.Load()
	if raced == 0 {
		t.Fatal("refinement wrote no page; the race never ran")
	}
	if got := regionByText(t, c.page(id, raced), "Typed while refining."); got.Text == "" {
		t.Error("the edit made during refinement was lost")
	}
	if got := picture(t, c.page(id, 1)); got.BBox != placed || !got.HandPlaced {
		t.Errorf("the picture placed by hand moved to %v, want %v", got.BBox, placed)
	}
	tight := picture(t, c.page(id, 2)).BBox
	if tight == loose || tight[2] >= loose[2] || tight[3] >= loose[3] {
		t.Errorf("page 2's loose picture box %v became %v, want it tightened", loose, tight)
	}
	if rev := c.revision(id); res.Revision != rev || rev <= edited || !res.UndoCleared || strings.Trim(fmt.Sprint(res.Pages), "[]") != "2" || res.PagesChanged != 1 {
		t.Errorf("refine answered %s (issue at revision %d, the racing edit made %d); want page 2 changed after the edit, undo cleared", b, rev, edited)
	}
	status, _, b = c.do(http.MethodPost, "/api/magazine/"+id+"/undo", fmt.Appendf(nil, `{"token":%q}`, undo))
	if status != http.StatusConflict || !strings.Contains(string(b), `"detail"`) {
		t.Errorf("undo of the change before refinement = %d %s, want 409", status, b)
	}
}

// createArticle groups regions of page 1 into an article and returns its id.
func (c *apiClient) createArticle(id string, regions ...string) string {
	c.t.Helper()
	refs := make([]magazine.RegionRef, len(regions))
	for i, r := range regions {
		refs[i] = magazine.RegionRef{Page: 1, Region: r}
	}
	return c.newArticle(id, "Harbour", refs...)
}

// article reads one article of the issue.
func (c *apiClient) article(id, art string) magazine.Article {
	c.t.Helper()
	for _, a := range decode[struct{ Articles []magazine.Article }](c.t, c.get("/api/magazine/"+id+"/articles")).Articles {
		if a.ID == art {
			return a
		}
	}
	c.t.Fatalf("no article %s", art)
	return magazine.Article{}
}

func regionIDs(refs []magazine.RegionRef) string {
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = fmt.Sprintf("%d/%s", r.Page, r.Region)
	}
	return strings.Join(ids, " ")
}

// TestCleanupSplitBylineJoinsItsArticle: cleanup on demand splits a run-on
// byline, and the sentence split off joins the byline's article right
// after the byline; restoring the layout takes it out again.
func TestCleanupSplitBylineJoinsItsArticle(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	p := c.page(id, 1)
	head, byline, left := regionByText(t, p, "Harbour Reborn"), regionByText(t, p, "By Ada"), regionByText(t, p, "Left column 1")
	if byline.Kind != magazine.KindByline {
		t.Fatalf("the byline was read as %s", byline.Kind)
	}
	art := c.createArticle(id, head.ID, byline.ID, left.ID)
	status, _, b := c.do(http.MethodPatch, fmt.Sprintf("/api/magazine/%s/pages/1/regions/%s", id, byline.ID), []byte(`{"text":"By Ada Lovelace The council voted to rebuild the harbour."}`))
	if status != http.StatusOK {
		t.Fatalf("run the byline on: %d %s", status, b)
	}
	status, _, b = c.do(http.MethodPost, "/api/magazine/"+id+"/pages/1/cleanup", nil)
	if status != http.StatusOK {
		t.Fatalf("cleanup: %d %s", status, b)
	}
	split := ""
	for _, ch := range decode[struct{ Changes []magazine.Change }](t, b).Changes {
		if ch.Rule == magazine.RuleBylineSplit && ch.RegionID == byline.ID {
			split = ch.NewRegionID
		}
	}
	if split == "" {
		t.Fatalf("cleanup did not split the byline: %s", b)
	}
	if got := regionByText(t, c.page(id, 1), "The council voted"); got.ID != split || got.Kind != magazine.KindParagraph {
		t.Errorf("the split-off sentence is %+v, want paragraph %s", got, split)
	}
	want := fmt.Sprintf("1/%s 1/%s 1/%s 1/%s", head.ID, byline.ID, split, left.ID)
	if got := regionIDs(c.article(id, art).Regions); got != want {
		t.Errorf("article after cleanup = %s, want %s (the sentence right after the byline)", got, want)
	}
	status, _, b = c.do(http.MethodPost, "/api/magazine/"+id+"/pages/1/cleanup/restore", nil)
	if status != http.StatusOK {
		t.Fatalf("restore: %d %s", status, b)
	}
	want = fmt.Sprintf("1/%s 1/%s 1/%s", head.ID, byline.ID, left.ID)
	if got := regionIDs(c.article(id, art).Regions); got != want {
		t.Errorf("article after restoring the layout = %s, want %s", got, want)
	}
}

// countingPictures counts every slow picture operation (reading an area,
// recognising a page, cutting a crop, deriving figures) the review makes.
type countingPictures struct {
	review.Pictures
	calls atomic.Int32
}

func (c *countingPictures) Crop(ctx context.Context, p magazine.Page, r magazine.Region, rev int64) (string, error) {
	c.calls.Add(1)
	return c.Pictures.Crop(ctx, p, r, rev)
}

func (c *countingPictures) ReadArea(ctx context.Context, p magazine.Page, b magazine.BBox) (string, error) {
	c.calls.Add(1)
	return c.Pictures.ReadArea(ctx, p, b)
}

func (c *countingPictures) ReadAreaWith(ctx context.Context, p magazine.Page, b magazine.BBox, engine string) (string, error) {
	c.calls.Add(1)
	return c.Pictures.ReadAreaWith(ctx, p, b, engine)
}

func (c *countingPictures) View(ctx context.Context, p magazine.Page, dpi int, b magazine.BBox) ([]byte, error) {
	c.calls.Add(1)
	return c.Pictures.View(ctx, p, dpi, b)
}

func (c *countingPictures) RecognizePage(ctx context.Context, p magazine.Page, engine string) (magazine.Page, error) {
	c.calls.Add(1)
	return c.Pictures.RecognizePage(ctx, p, engine)
}

func (c *countingPictures) RefineBoxes(ctx context.Context, p magazine.Page) ([]magazine.Region, error) {
	c.calls.Add(1)
	return c.Pictures.RefineBoxes(ctx, p)
}

// TestBadEditsAreRefusedBeforeAnyEngineRuns: a box off the page, an empty
// or negative box, an unknown kind, a description on a text region, a stale
// page version: each answers at once with a problem document, and no OCR,
// crop or figure pass runs for it.
func TestBadEditsAreRefusedBeforeAnyEngineRuns(t *testing.T) {
	pics := &countingPictures{}
	c, _ := newLocalAppWith(t, func(l *Local) []httpapi.Operation {
		pics.Pictures = pipeline.NewSteps(l.Deps).Pages
		ops := magazineapi.Operations(magazineOf(t, l).Issues)
		return append(ops, reviewapi.Operations(review.NewEditor(review.New(l.Deps.Table, l.Deps.Clock), pics))...)
	})
	id := ingestSample(t, c)
	p := c.page(id, 1)
	text, pic := regionByText(t, p, "Left column 1"), picture(t, p)
	base := "/api/magazine/" + id + "/pages/1"
	stale := fmt.Sprint(p.Version - 1)
	cases := []struct {
		name, method, path, body, ifMatch string
		status                            int
	}{
		{"a text box off the page", http.MethodPost, "/regions", `{"bbox":[500,700,300,300],"kind":"paragraph"}`, "", 422},
		{"a box of no width", http.MethodPost, "/regions", `{"bbox":[72,72,0,10],"kind":"paragraph"}`, "", 422},
		{"a box at a negative place", http.MethodPost, "/regions", `{"bbox":[-5,10,50,50],"kind":"paragraph"}`, "", 422},
		{"a box of negative size", http.MethodPost, "/regions", `{"bbox":[72,72,-40,10],"kind":"paragraph"}`, "", 422},
		{"a number too big for a box", http.MethodPost, "/regions", `{"bbox":[1e400,10,50,50],"kind":"paragraph"}`, "", 400},
		{"a picture box off the page", http.MethodPost, "/regions", `{"bbox":[600,10,50,50],"kind":"figure"}`, "", 422},
		{"an unknown kind", http.MethodPost, "/regions", `{"bbox":[72,72,40,10],"kind":"banana"}`, "", 422},
		{"a new box on a stale page", http.MethodPost, "/regions", `{"bbox":[72,72,40,10],"kind":"paragraph"}`, stale, 409},
		{"a re-read of a box off the page", http.MethodPatch, "/regions/" + text.ID, `{"bbox":[72,780,100,50],"reread":true}`, "", 422},
		{"a re-read with an unknown kind", http.MethodPatch, "/regions/" + text.ID, `{"kind":"banana","reread":true}`, "", 422},
		{"a re-read with a description on text", http.MethodPatch, "/regions/" + text.ID, `{"description":"A pier.","reread":true}`, "", 422},
		{"a description on a text region", http.MethodPatch, "/regions/" + text.ID, `{"description":"A pier."}`, "", 422},
		{"a description on a text region made a caption", http.MethodPatch, "/regions/" + text.ID, `{"kind":"caption","description":"A pier."}`, "", 422},
		{"a picture moved off the page", http.MethodPatch, "/regions/" + pic.ID, `{"bbox":[600,10,50,50]}`, "", 422},
		{"a re-read on a stale page", http.MethodPatch, "/regions/" + text.ID, `{"reread":true}`, stale, 409},
		{"a re-read of a picture", http.MethodPost, "/recognize", `{"engine":"tesseract","region_id":"` + pic.ID + `"}`, "", 422},
		{"a re-read of no region", http.MethodPost, "/recognize", `{"engine":"tesseract","region_id":"nope"}`, "", 404},
		{"a page read again on a stale page", http.MethodPost, "/recognize", `{"engine":"tesseract"}`, stale, 409},
		{"a picture re-typed on a stale page", http.MethodPost, "/regions/bulk", `{"ids":["` + text.ID + `"],"action":"set-kind","kind":"figure"}`, stale, 409},
		{"a re-type to an unknown kind", http.MethodPost, "/regions/bulk", `{"ids":["` + text.ID + `"],"action":"set-kind","kind":"banana"}`, "", 422},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before, calls := c.issueState(id), pics.calls.Load()
			var header []string
			if tc.ifMatch != "" {
				header = []string{"If-Match", tc.ifMatch}
			}
			status, _, b := c.do(tc.method, base+tc.path, []byte(tc.body), header...)
			c.refused(id, before, status, tc.status, b, tc.name)
			if n := pics.calls.Load() - calls; n != 0 {
				t.Errorf("%d slow picture operations ran before the refusal", n)
			}
		})
	}

	// The same calls, well formed, do reach the engines (so the count means
	// something) and a description on a picture is kept.
	calls := pics.calls.Load()
	status, _, b := c.do(http.MethodPost, base+"/regions", []byte(`{"bbox":[72,125,200,40],"kind":"paragraph"}`))
	if status != http.StatusCreated || pics.calls.Load() == calls {
		t.Errorf("a good box = %d %s after %d picture operations", status, b, pics.calls.Load()-calls)
	}
	status, _, b = c.do(http.MethodPatch, base+"/regions/"+pic.ID, []byte(`{"description":"The rebuilt pier at dawn."}`))
	if status != http.StatusOK || decode[struct{ Region magazine.Region }](t, b).Region.Description != "The rebuilt pier at dawn." {
		t.Errorf("a description on a picture = %d %s", status, b)
	}
}

// TestFixOrderWithoutPagesFixesTheWholeIssue: no body, {} or no pages all
// mean every page; hand-ordered pages are still left alone.
func TestFixOrderWithoutPagesFixesTheWholeIssue(t *testing.T) {
	c, local := newLocalAppWith(t, (*Local).Operations)
	id := ingestSample(t, c)
	order := c.page(id, 1).Order
	status, _, b := c.do(http.MethodPut, "/api/magazine/"+id+"/pages/1/order", fmt.Appendf(nil, `{"ids":[%q]}`, order[len(order)-1]))
	if status != http.StatusOK {
		t.Fatalf("hand-order page 1: %d %s", status, b)
	}
	for _, body := range []string{"", "{}", `{"pages":null}`} {
		// Pages 2 and 3 read backwards, as an old ingest might have left them.
		for n := 2; n <= 3; n++ {
			rewritePage(t, local.Deps.Table, id, n, func(p *magazine.Page) {
				p.Order = magazine.ReadingOrder(*p)
				slices.Reverse(p.Order)
			})
		}
		var raw []byte
		if body != "" {
			raw = []byte(body)
		}
		status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/fix-order", raw)
		res := decode[struct{ Changed, Skipped []int }](t, b)
		if status != http.StatusOK || fmt.Sprint(res.Changed) != "[2 3]" || fmt.Sprint(res.Skipped) != "[1]" {
			t.Errorf("fix-order with body %q = %d %s, want pages 2 and 3 fixed and 1 skipped", body, status, b)
		}
	}
	before := c.issueState(id)
	status, _, b = c.do(http.MethodPost, "/api/magazine/"+id+"/fix-order", []byte(`{"pages":[]}`))
	c.refused(id, before, status, http.StatusUnprocessableEntity, b, "fix-order with an empty page list")
}

// TestUseAsLLMNeverKeepsThePreviousCardsModel: the model comes from the
// card, else the engine's first listed model, else it is cleared; the
// answer says which and why.
func TestUseAsLLMNeverKeepsThePreviousCardsModel(t *testing.T) {
	lists := map[string]string{
		"/named/v1/models": `{"object":"list","data":[{"id":"qwen3-32b"}]}`,
		"/plain/v1/models": `{"object":"list","data":[{"id":"zeta-8b"},{"id":"alpha-7b"}]}`,
		"/empty/v1/models": `{"object":"list","data":[]}`,
	}
	engine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		list, ok := lists[r.URL.Path]
		if !ok {
			http.Error(w, `{"error":{"message":"down for maintenance"}}`, http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(list))
	}))
	defer engine.Close()
	c := newLocalApp(t)
	for _, card := range []struct{ name, body string }{
		{"named", `{"kind":"llm","base_url":"` + engine.URL + `/named/v1","model":"qwen3-32b"}`},
		{"plain", `{"kind":"llm","base_url":"` + engine.URL + `/plain/v1"}`},
		{"empty", `{"kind":"llm","base_url":"` + engine.URL + `/empty/v1"}`},
		{"down", `{"kind":"llm","base_url":"` + engine.URL + `/down/v1"}`},
	} {
		if status, _, b := c.do(http.MethodPut, "/api/engines/"+card.name, []byte(card.body)); status != http.StatusOK {
			t.Fatalf("put card %s: %d %s", card.name, status, b)
		}
	}
	type answer struct {
		LLMURL      string `json:"llm_url"`
		LLMModel    string `json:"llm_model"`
		ModelChoice struct {
			Model, Source, Reason string
		} `json:"model_choice"`
	}
	for _, step := range []struct{ card, model, source, reason string }{
		{"named", "qwen3-32b", "card", "names the model"},
		{"plain", "alpha-7b", "engine", "first of the 2"},
		{"named", "qwen3-32b", "card", "names the model"},
		{"empty", "", "none", "lists none"},
		{"named", "qwen3-32b", "card", "names the model"},
		{"down", "", "none", "did not list any"},
	} {
		status, _, b := c.do(http.MethodPost, "/api/engines/"+step.card+"/use-as-llm", nil)
		got := decode[answer](t, b)
		if status != http.StatusOK || got.LLMURL != engine.URL+"/"+step.card+"/v1" || got.LLMModel != step.model ||
			got.ModelChoice.Model != step.model || got.ModelChoice.Source != step.source || !strings.Contains(got.ModelChoice.Reason, step.reason) {
			t.Errorf("use %s as LLM = %d %s, want model %q from %s", step.card, status, b, step.model, step.source)
		}
		if stored := decode[answer](t, c.get("/api/settings")); stored.LLMModel != step.model {
			t.Errorf("after using %s the stored llm_model is %q, want %q", step.card, stored.LLMModel, step.model)
		}
	}
}

// approve approves an article with the regions and images it now has.
func (c *apiClient) approve(id, art string) magazine.Article {
	c.t.Helper()
	a := c.article(id, art)
	body, err := json.Marshal(map[string]any{"regions": a.Regions, "images": a.Images})
	if err != nil {
		c.t.Fatal(err)
	}
	status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/articles/"+art+"/approve", body)
	if status != http.StatusOK {
		c.t.Fatalf("approve: %d %s", status, b)
	}
	got := decode[struct{ Article magazine.Article }](c.t, b).Article
	if !got.Approved || got.ChangedSinceApproval {
		c.t.Fatalf("approve answered %s, want approved and not changed", b)
	}
	return got
}

// TestApprovalIsWithdrawnByAnyChangeToTheArticle: each edit of a region an
// approved article holds, and each edit of the article itself, marks it
// changed since approval; approving again clears that; an edit elsewhere
// on the page leaves the approval alone.
func TestApprovalIsWithdrawnByAnyChangeToTheArticle(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	p := c.page(id, 1)
	var members []string
	for _, prefix := range []string{"Harbour Reborn", "By Ada", "Left column 1", "Figure 1", "A note 1"} {
		members = append(members, regionByText(t, p, prefix).ID)
	}
	pic := picture(t, p)
	art := c.createArticle(id, members...)
	status, _, b := c.do(http.MethodPatch, "/api/magazine/"+id+"/articles/"+art, fmt.Appendf(nil, `{"images":[{"page":1,"region":%q}]}`, pic.ID))
	if status != http.StatusOK {
		t.Fatalf("give the article its picture: %d %s", status, b)
	}
	region := func(prefix string) string { return regionByText(t, c.page(id, 1), prefix).ID }
	path := func(format string, args ...any) string {
		return "/api/magazine/" + id + fmt.Sprintf(format, args...)
	}
	for _, tc := range []struct {
		name, method string
		path         func() string
		body         string
		withdraws    bool
	}{
		{"an edit of a region outside the article", http.MethodPatch, func() string { return path("/pages/1/regions/%s", region("Right column 1")) }, `{"text":"Right column, edited."}`, false},
		{"a text edit", http.MethodPatch, func() string { return path("/pages/1/regions/%s", members[0]) }, `{"text":"Harbour Reborn, edited"}`, true},
		{"a box move", http.MethodPatch, func() string { return path("/pages/1/regions/%s", members[1]) }, `{"bbox":[70,98,200,14]}`, true},
		{"a type change", http.MethodPatch, func() string { return path("/pages/1/regions/%s", members[0]) }, `{"kind":"caption"}`, true},
		{"a description of its picture", http.MethodPatch, func() string { return path("/pages/1/regions/%s", pic.ID) }, `{"description":"The pier at dawn."}`, true},
		{"a split", http.MethodPost, func() string { return path("/pages/1/regions/%s/split", members[2]) }, `{"offset":10}`, true},
		{"a delete", http.MethodDelete, func() string { return path("/pages/1/regions/%s", members[4]) }, ``, true},
		{"a merge", http.MethodPost, func() string { return path("/pages/1/regions/%s/merge-next", members[3]) }, ``, true},
		{"a region taken out of the article", http.MethodPatch, func() string { return path("/articles/%s", art) }, fmt.Sprintf(`{"regions":[{"page":1,"region":%q}]}`, members[0]), true},
		{"a rename", http.MethodPatch, func() string { return path("/articles/%s", art) }, `{"title":"Harbour Reborn (2)"}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.approve(id, art)
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			status, _, b := c.do(tc.method, tc.path(), body)
			if status != http.StatusOK {
				t.Fatalf("%s: %d %s", tc.name, status, b)
			}
			a := c.article(id, art)
			if tc.withdraws && (a.Approved || !a.ChangedSinceApproval) {
				t.Errorf("after %s the article is approved=%v changed_since_approval=%v, want the approval withdrawn", tc.name, a.Approved, a.ChangedSinceApproval)
			}
			if !tc.withdraws && (!a.Approved || a.ChangedSinceApproval) {
				t.Errorf("after %s the article is approved=%v changed_since_approval=%v, want it still approved", tc.name, a.Approved, a.ChangedSinceApproval)
			}
		})
	}
}

// TestRenameIssueAndArticle: an issue takes a new title, trimmed, of 1 to
// 200 characters; anything else is refused and changes nothing. An article
// is renamed and loses a region through PATCH.
func TestRenameIssueAndArticle(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	status, _, b := c.do(http.MethodPatch, "/api/magazine/"+id, []byte(`{"title":"  Harbour Gazette, spring  "}`))
	if status != http.StatusOK || decode[magazine.Issue](t, b).Title != "Harbour Gazette, spring" {
		t.Fatalf("rename = %d %s", status, b)
	}
	list := string(c.get("/api/magazine"))
	if got := decode[magazineapi.IssueView](t, c.get("/api/magazine/"+id)).Title; got != "Harbour Gazette, spring" || !strings.Contains(list, `"title":"Harbour Gazette, spring"`) {
		t.Errorf("after the rename the issue is titled %q and the list says %s", got, list)
	}
	if status, _, b := c.do(http.MethodPatch, "/api/magazine/"+id, fmt.Appendf(nil, `{"title":%q}`, strings.Repeat("é", 200))); status != http.StatusOK {
		t.Errorf("a 200-character title = %d %s", status, b)
	}
	for _, tc := range []struct {
		name, path, body string
		status           int
	}{
		{"an empty title", id, `{"title":""}`, 422},
		{"a title of spaces", id, `{"title":"   "}`, 422},
		{"a title of 201 characters", id, fmt.Sprintf(`{"title":%q}`, strings.Repeat("é", 201)), 422},
		{"no title", id, `{}`, 422},
		{"an unknown field", id, `{"title":"x","status":"ready"}`, 422},
		{"an unknown issue", "0000000000000000", `{"title":"x"}`, 404},
	} {
		before := c.issueState(id)
		status, _, b := c.do(http.MethodPatch, "/api/magazine/"+tc.path, []byte(tc.body))
		c.refused(id, before, status, tc.status, b, "rename with "+tc.name)
	}

	p := c.page(id, 1)
	head, left := regionByText(t, p, "Harbour Reborn").ID, regionByText(t, p, "Left column 1").ID
	art := c.createArticle(id, head, left)
	status, _, b = c.do(http.MethodPatch, "/api/magazine/"+id+"/articles/"+art, fmt.Appendf(nil, `{"title":"Harbour Reborn","regions":[{"page":1,"region":%q}]}`, left))
	a := c.article(id, art)
	if status != http.StatusOK || a.Title != "Harbour Reborn" || regionIDs(a.Regions) != "1/"+left {
		t.Errorf("rename and remove a region = %d %s; stored %+v", status, b, a)
	}
}

// TestEveryPageEditHonoursIfMatch: each page edit sent with a page version
// that is no longer the page's answers 409, says the page changed, and
// writes nothing.
func TestEveryPageEditHonoursIfMatch(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	base := "/api/magazine/" + id + "/pages/1"
	p := c.page(id, 1)
	r := regionByText(t, p, "Left column 1").ID
	// A backup to restore, and a newer page version than the one shown.
	if status, _, b := c.do(http.MethodPost, base+"/cleanup", nil); status != http.StatusOK {
		t.Fatalf("cleanup: %d %s", status, b)
	}
	stale := fmt.Sprint(p.Version)
	if now := c.page(id, 1).Version; now == p.Version {
		t.Fatal("the page version did not move; the test proves nothing")
	}
	for _, tc := range []struct{ name, method, path, body string }{
		{"patch", http.MethodPatch, "/regions/" + r, `{"text":"x"}`},
		{"delete", http.MethodDelete, "/regions/" + r, ``},
		{"split", http.MethodPost, "/regions/" + r + "/split", `{"offset":4}`},
		{"merge", http.MethodPost, "/regions/" + r + "/merge-next", ``},
		{"add", http.MethodPost, "/regions", `{"bbox":[72,125,200,40],"kind":"paragraph"}`},
		{"bulk delete", http.MethodPost, "/regions/bulk", `{"ids":["` + r + `"],"action":"delete"}`},
		{"bulk re-type", http.MethodPost, "/regions/bulk", `{"ids":["` + r + `"],"action":"set-kind","kind":"caption"}`},
		{"order by hand", http.MethodPut, "/order", `{"ids":["` + r + `"]}`},
		{"automatic order", http.MethodDelete, "/order", ``},
		{"cleanup", http.MethodPost, "/cleanup", ``},
		{"restore", http.MethodPost, "/cleanup/restore", ``},
		{"recognize the page", http.MethodPost, "/recognize", `{"engine":"text-layer"}`},
		{"recognize a region", http.MethodPost, "/recognize", `{"engine":"text-layer","region_id":"` + r + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			before := c.issueState(id)
			status, _, b := c.do(tc.method, base+tc.path, body, "If-Match", stale)
			c.refused(id, before, status, http.StatusConflict, b, tc.name+" on a stale page")
			if !strings.Contains(string(b), "page 1 changed since it was shown") {
				t.Errorf("%s on a stale page answered %s, want it to say the page changed", tc.name, b)
			}
		})
	}
}

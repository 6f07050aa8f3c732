package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/store/bolt"
)

// pictures stands in for the render-backed crops and OCR at the boundary:
// crops are named by revision, and reading an area answers what is set.
type pictures struct {
	read  string
	crops atomic.Int32
	// Reading again with a chosen engine (recognize_test.go).
	recognized magazine.Page // the page an engine reads
	readWith   string        // the text an engine reads in a box
	engineErr  error         // the engine's failure, when set
	engineRuns atomic.Int32
	// Refining figures (refine_test.go): the boxes the pass finds, and what
	// happens while it runs.
	refined     map[string]magazine.BBox
	whileRefine func()
	reads       atomic.Int32 // ReadArea calls: the slow OCR of an area
	// Views drawn (view_test.go): the area and DPI of the last one.
	viewed    magazine.BBox
	viewedDPI int
	views     atomic.Int32
}

func (p *pictures) View(_ context.Context, _ magazine.Page, dpi int, box magazine.BBox) ([]byte, error) {
	p.views.Add(1)
	p.viewed, p.viewedDPI = box, dpi
	return []byte("\x89PNG"), nil
}

func (p *pictures) Crop(_ context.Context, page magazine.Page, r magazine.Region, rev int64) (string, error) {
	p.crops.Add(1)
	return fmt.Sprintf("issues/%s/crops/%04d/%s-%d.png", page.IssueID, page.Number, r.ID, rev), nil
}

func (p *pictures) ReadArea(context.Context, magazine.Page, magazine.BBox) (string, error) {
	p.reads.Add(1)
	return p.read, nil
}

const issueID = "1a2b3c4d5e6f7a8b"

func fixture(t *testing.T) (*Editor, *issues.Repo, *pictures) {
	t.Helper()
	table, err := bolt.Open(filepath.Join(t.TempDir(), "review.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })
	repo := issues.NewRepo(table, time.Now)
	ctx := context.Background()
	if err := repo.Create(ctx, magazine.Issue{ID: issueID, Title: "T", Status: magazine.IssueReady, PageCount: 1}); err != nil {
		t.Fatal(err)
	}
	page := magazine.Page{IssueID: issueID, Number: 1, Width: 612, Height: 792, DPI: 150, Regions: []magazine.Region{
		{ID: "h1", Kind: magazine.KindHeadline, BBox: magazine.BBox{72, 40, 400, 30}, Text: "Harbour Reborn", OriginalText: "Harbour Reborn"},
		{ID: "p1", Kind: magazine.KindParagraph, BBox: magazine.BBox{72, 100, 220, 200}, Text: "First paragraph. Second sentence here.", OriginalText: "First paragraph. Second sentence here."},
		{ID: "p2", Kind: magazine.KindParagraph, BBox: magazine.BBox{72, 310, 220, 100}, Text: "Third paragraph.", OriginalText: "Third paragraph."},
		{ID: "p3", Kind: magazine.KindParagraph, BBox: magazine.BBox{320, 100, 220, 300}, Text: "Right column.", OriginalText: "Right column."},
		{ID: "i1", Kind: magazine.KindImage, BBox: magazine.BBox{72, 450, 220, 150}},
		{ID: "t1", Kind: magazine.KindCaption, BBox: magazine.BBox{330, 150, 100, 12}, Text: "Label", OriginalText: "Label"},
	}}
	page = magazine.ApplyOrder(page)
	if err := repo.PutPage(ctx, page); err != nil {
		t.Fatal(err)
	}
	pics := &pictures{}
	return NewEditor(New(table, time.Now), pics), repo, pics
}

func ref(id string) magazine.RegionRef { return magazine.RegionRef{Page: 1, Region: id} }

func pageJSON(t *testing.T, repo *issues.Repo) string {
	t.Helper()
	p, _, err := repo.Page(context.Background(), issueID, 1)
	if err != nil {
		t.Fatal(err)
	}
	p.Updated = time.Time{}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// records returns every record of the test issue as stored (issue, pages,
// articles, undo point, layout backups): version and bytes by sort key, so
// two of them show whether a call wrote anything at all.
func records(t *testing.T, e *Editor) map[string]string {
	t.Helper()
	out := map[string]string{}
	q := store.Query{PK: issues.PK(issueID)}
	for {
		page, err := e.table.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			out[it.SK] = fmt.Sprintf("v%d %s", it.Version, it.Data)
		}
		if page.Next == "" {
			return out
		}
		q.Cursor = page.Next
	}
}

// refused asserts that a call failed with want and wrote nothing: every
// record of the issue (page, articles, revision, undo point) is as before.
func refused(t *testing.T, e *Editor, before map[string]string, err, want error, call string) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Errorf("%s = %v, want %v", call, err, want)
	}
	after := records(t, e)
	for sk, b := range before {
		if after[sk] != b {
			t.Errorf("%s was refused but changed %s:\nbefore %s\nafter  %s", call, sk, b, after[sk])
		}
	}
	for sk, a := range after {
		if _, ok := before[sk]; !ok {
			t.Errorf("%s was refused but wrote %s: %s", call, sk, a)
		}
	}
}

// articles lists the issue's articles, failing the test on an error.
func articles(t *testing.T, e *Editor) []magazine.Article {
	t.Helper()
	arts, err := e.Articles(context.Background(), issueID)
	if err != nil {
		t.Fatal(err)
	}
	return arts
}

// storedPage reads page 1 as stored, failing the test on an error.
func storedPage(t *testing.T, repo *issues.Repo) (magazine.Page, int64) {
	t.Helper()
	p, v, err := repo.Page(context.Background(), issueID, 1)
	if err != nil {
		t.Fatal(err)
	}
	return p, v
}

func TestDeleteTwiceAnswers404(t *testing.T) {
	e, _, _ := fixture(t)
	ctx := context.Background()
	out, err := e.DeleteRegions(ctx, issueID, 1, []string{"p2"}, 0)
	if err != nil || out.UndoToken == "" {
		t.Fatalf("first delete = %+v, %v", out, err)
	}
	before := records(t, e)
	_, err = e.DeleteRegions(ctx, issueID, 1, []string{"p2"}, 0)
	refused(t, e, before, err, magazine.ErrNoRegion, "second delete")
}

func TestUndoRestoresByteIdenticalState(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	art, _, err := e.CreateArticle(ctx, issueID, "Story", []magazine.RegionRef{ref("p1"), ref("p2")})
	if err != nil {
		t.Fatal(err)
	}
	before := pageJSON(t, repo)
	out, err := e.DeleteRegions(ctx, issueID, 1, []string{"p1", "h1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if arts := articles(t, e); len(arts) != 1 || len(arts[0].Regions) != 1 {
		t.Fatalf("deleted region still in the article: %+v", arts)
	}
	if _, err := e.Undo(ctx, issueID, out.UndoToken); err != nil {
		t.Fatal(err)
	}
	if after := pageJSON(t, repo); after != before {
		t.Fatalf("undo did not restore the page:\nbefore %s\nafter  %s", before, after)
	}
	if arts := articles(t, e); len(arts) != 1 || arts[0].ID != art.ID || len(arts[0].Regions) != 2 {
		t.Fatalf("undo did not restore the article: %+v", arts)
	}
	undone := records(t, e)
	_, err = e.Undo(ctx, issueID, out.UndoToken)
	refused(t, e, undone, err, ErrNothingToUndo, "undo twice")
}

// deleteP2 makes an undoable change (delete p2) and returns its token.
func deleteP2(t *testing.T, e *Editor) string {
	t.Helper()
	out, err := e.DeleteRegions(context.Background(), issueID, 1, []string{"p2"}, 0)
	if err != nil || out.UndoToken == "" {
		t.Fatalf("delete p2 = %+v, %v", out, err)
	}
	return out.UndoToken
}

func TestUndoAfterAnotherChangeIsRefused(t *testing.T) {
	t.Run("a later change with its own undo point", func(t *testing.T) {
		e, _, _ := fixture(t)
		ctx := context.Background()
		first := deleteP2(t, e)
		if _, err := e.DeleteRegions(ctx, issueID, 1, []string{"p3"}, 0); err != nil {
			t.Fatal(err)
		}
		before := records(t, e)
		_, err := e.Undo(ctx, issueID, first)
		refused(t, e, before, err, ErrConflict, "undo of an earlier change")
	})
	t.Run("a later change without one clears the Undo button", func(t *testing.T) {
		e, _, _ := fixture(t)
		ctx := context.Background()
		first := deleteP2(t, e)
		text := "Edited."
		_, out, err := e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{Text: &text}, 0)
		if err != nil || !out.UndoCleared || out.UndoToken != "" {
			t.Fatalf("text edit = %+v, %v; want the undo point cleared", out, err)
		}
		before := records(t, e)
		_, err = e.Undo(ctx, issueID, first)
		refused(t, e, before, err, ErrNothingToUndo, "undo after a text edit")
	})
	t.Run("a token for another issue or forged", func(t *testing.T) {
		e, _, _ := fixture(t)
		ctx := context.Background()
		deleteP2(t, e)
		before := records(t, e)
		_, err := e.Undo(ctx, issueID, "bm90LWEtdG9rZW4")
		refused(t, e, before, err, ErrBadToken, "undo with a forged token")
	})
}

// otherWriter changes records of the test issue straight in the table, as
// another process (or a writer outside the review service) would: each
// record's JSON is decoded, changed by its function and written back one
// version on, all in one transaction. The undo point is left as it is.
func otherWriter(t *testing.T, e *Editor, changes map[string]func(doc map[string]any)) {
	t.Helper()
	ctx := context.Background()
	var writes []store.Write
	for sk, change := range changes {
		it, err := e.table.Get(ctx, issues.PK(issueID), sk)
		if err != nil {
			t.Fatalf("%s: %v", sk, err)
		}
		var doc map[string]any
		if err := json.Unmarshal(it.Data, &doc); err != nil {
			t.Fatal(err)
		}
		change(doc)
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		writes = append(writes, store.Write{Op: store.OpPut, Item: store.Item{PK: it.PK, SK: it.SK, Version: it.Version + 1, Data: data}, Cond: store.IfVersion(it.Version)})
	}
	if err := e.table.Transact(ctx, writes); err != nil {
		t.Fatal(err)
	}
}

func bumpRevision(doc map[string]any) { doc["revision"] = doc["revision"].(float64) + 1 }

// TestUndoAfterAnotherWriterIsRefused: the undo point still matches the
// token, but something outside it changed since. Undo must answer a
// conflict and leave every record as it found it.
func TestUndoAfterAnotherWriterIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changes func(art string) map[string]func(map[string]any)
	}{
		{"an article outside the undo point renamed, with a new revision", func(art string) map[string]func(map[string]any) {
			return map[string]func(map[string]any){
				issues.ArticleSK(art): func(doc map[string]any) { doc["title"] = "Renamed elsewhere" },
				issues.MetaSK:         bumpRevision,
			}
		}},
		{"the issue changed and its revision bumped", func(string) map[string]func(map[string]any) {
			return map[string]func(map[string]any){
				issues.MetaSK: func(doc map[string]any) { doc["title"] = "Retitled elsewhere"; bumpRevision(doc) },
			}
		}},
		{"the page rewritten without a new revision", func(string) map[string]func(map[string]any) {
			return map[string]func(map[string]any){
				issues.PageSK(1): func(doc map[string]any) { doc["hand_ordered"] = true },
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _, _ := fixture(t)
			ctx := context.Background()
			art, _, err := e.CreateArticle(ctx, issueID, "Elsewhere", []magazine.RegionRef{ref("p3")})
			if err != nil {
				t.Fatal(err)
			}
			tok := deleteP2(t, e)
			otherWriter(t, e, tc.changes(art.ID))
			before := records(t, e)
			_, err = e.Undo(ctx, issueID, tok)
			refused(t, e, before, err, ErrConflict, "undo after another writer")
		})
	}
}

func TestBulkRetypeWithOneUndo(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	before := pageJSON(t, repo)
	out, err := e.SetKinds(ctx, issueID, 1, []string{"p1", "p2", "p3"}, magazine.KindSidebar, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := storedPage(t, repo)
	retyped := 0
	for _, r := range p.Regions {
		if r.ID == "p1" || r.ID == "p2" || r.ID == "p3" {
			retyped++
			if r.Kind != magazine.KindSidebar {
				t.Errorf("%s is %s", r.ID, r.Kind)
			}
		}
	}
	if retyped != 3 {
		t.Fatalf("found %d of the 3 re-typed regions", retyped)
	}
	if _, err := e.Undo(ctx, issueID, out.UndoToken); err != nil {
		t.Fatal(err)
	}
	if pageJSON(t, repo) != before {
		t.Fatal("one undo did not restore the whole set")
	}
}

func TestSplitAndMergeKeepArticleMembership(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	art, _, err := e.CreateArticle(ctx, issueID, "Story", []magazine.RegionRef{ref("h1"), ref("p1"), ref("p2")})
	if err != nil {
		t.Fatal(err)
	}
	parts, _, err := e.Split(ctx, issueID, 1, "p1", len("First paragraph."), 0)
	if err != nil {
		t.Fatal(err)
	}
	if parts[0].Text != "First paragraph." || parts[1].Text != "Second sentence here." || parts[1].OriginalText != "First paragraph. Second sentence here." {
		t.Fatalf("split parts = %+v", parts)
	}
	arts := articles(t, e)
	want := []magazine.RegionRef{ref("h1"), ref("p1"), ref(parts[1].ID), ref("p2")}
	if len(arts) != 1 || fmt.Sprint(arts[0].Regions) != fmt.Sprint(want) {
		t.Fatalf("after split the article is %v, want %v", arts[0].Regions, want)
	}
	merged, removed, _, err := e.MergeNext(ctx, issueID, 1, "p1", 0)
	if err != nil || removed != parts[1].ID || merged.Text != "First paragraph. Second sentence here." {
		t.Fatalf("merge = %+v, %q, %v", merged, removed, err)
	}
	arts = articles(t, e)
	if len(arts) != 1 || fmt.Sprint(arts[0].Regions) != fmt.Sprint([]magazine.RegionRef{ref("h1"), ref("p1"), ref("p2")}) || arts[0].ID != art.ID {
		t.Fatalf("after merge the articles are %+v", arts)
	}
	p, _ := storedPage(t, repo)
	if r, ok := region(p, "p1"); !ok || r.OriginalText == "" {
		t.Error("merge lost original_text")
	}
}

func TestTextToImageFoldsTextInside(t *testing.T) {
	e, repo, pics := fixture(t)
	ctx := context.Background()
	if _, _, err := e.CreateArticle(ctx, issueID, "Story", []magazine.RegionRef{ref("p3")}); err != nil {
		t.Fatal(err)
	}
	kind := magazine.KindFigure
	r, out, err := e.UpdateRegion(ctx, issueID, 1, "p3", RegionPatch{Kind: &kind}, 0)
	if err != nil || out.UndoToken == "" || r.CropKey == "" || pics.crops.Load() != 1 {
		t.Fatalf("text→image = %+v %+v %v (crops %d)", r, out, err, pics.crops.Load())
	}
	p, _ := storedPage(t, repo)
	if label, ok := region(p, "t1"); !ok || label.Kind != magazine.KindTextInFigure {
		t.Errorf("the label inside the picture is %+v, want text-in-image", label)
	}
	if arts := articles(t, e); len(arts) != 1 || len(arts[0].Regions) != 1 || arts[0].Regions[0].Region != "p3" {
		t.Errorf("membership changed: %+v", arts)
	}
	back := magazine.KindParagraph
	if r, _, err = e.UpdateRegion(ctx, issueID, 1, "p3", RegionPatch{Kind: &back}, 0); err != nil || r.CropKey != "" {
		t.Errorf("image→text = %+v, %v", r, err)
	}
}

func TestMoveRereadKeepsOldTextWhenNothingReadable(t *testing.T) {
	e, _, pics := fixture(t)
	ctx := context.Background()
	box := magazine.BBox{72, 100, 230, 210}
	r, out, err := e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{BBox: &box, Reread: true}, 0)
	if err != nil || r.Text != "First paragraph. Second sentence here." || r.BBox != box || out.UndoToken == "" {
		t.Fatalf("reread of an empty area = %+v, %v", r, err)
	}
	pics.read = "First paragraph, read again."
	r, _, err = e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{BBox: &box, Reread: true}, 0)
	if err != nil || r.Text != "First paragraph, read again." || r.OriginalText != "First paragraph. Second sentence here." {
		t.Fatalf("reread = %+v, %v", r, err)
	}
	bad := magazine.BBox{600, 700, 100, 200}
	before := records(t, e)
	_, _, err = e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{BBox: &bad}, 0)
	refused(t, e, before, err, magazine.ErrBadEdit, "a box off the page")
}

func TestApprove(t *testing.T) {
	e, _, _ := fixture(t)
	ctx := context.Background()
	art, _, err := e.CreateArticle(ctx, issueID, "Story", []magazine.RegionRef{ref("h1"), ref("p1")})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.UpdateArticle(ctx, issueID, art.ID, ArticlePatch{Images: []magazine.RegionRef{ref("i1")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteRegions(ctx, issueID, 1, []string{"p2"}, 0); err != nil {
		t.Fatal(err)
	}
	before := records(t, e)
	_, _, err = e.Approve(ctx, issueID, art.ID, []magazine.RegionRef{ref("h1"), ref("p2")}, []magazine.RegionRef{ref("i1")})
	refused(t, e, before, err, ErrInvalid, "approve with a vanished id")
	if !errorsContain(err, "p2") {
		t.Errorf("approve with a vanished id = %v, want it named (p2)", err)
	}
	_, _, err = e.Approve(ctx, issueID, art.ID, []magazine.RegionRef{ref("h1"), ref("p1")}, []magazine.RegionRef{})
	refused(t, e, before, err, ErrConflict, "approve with a stale image list")
	_, _, err = e.Approve(ctx, issueID, "nosucharticle", []magazine.RegionRef{ref("h1")}, nil)
	refused(t, e, before, err, ErrNotFound, "approve of an unknown article")
	a, _, err := e.Approve(ctx, issueID, art.ID, []magazine.RegionRef{ref("h1"), ref("p1")}, []magazine.RegionRef{ref("i1")})
	if err != nil || !a.Approved || len(a.Images) != 1 {
		t.Fatalf("approve = %+v, %v", a, err)
	}
	text, err := e.ArticleText(ctx, issueID, art.ID, false)
	if err != nil || text != "Harbour Reborn\n\nFirst paragraph. Second sentence here." {
		t.Fatalf("article text = %q, %v", text, err)
	}
}

func errorsContain(err error, s string) bool { return err != nil && strings.Contains(err.Error(), s) }

func TestHandOrderedPageUntouchedByFixOrder(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	p, _, err := e.SetOrder(ctx, issueID, 1, []string{"p3", "h1"}, 0)
	if err != nil || !p.HandOrdered || p.Order[0] != "p3" || p.Order[1] != "h1" || len(p.Order) != 6 {
		t.Fatalf("set order = %v hand=%v, %v", p.Order, p.HandOrdered, err)
	}
	kind := magazine.KindSubhead
	if _, _, err := e.UpdateRegion(ctx, issueID, 1, "p2", RegionPatch{Kind: &kind}, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.AddRegion(ctx, issueID, 1, magazine.BBox{72, 700, 100, 20}, magazine.KindParagraph, 0); err != nil {
		t.Fatal(err)
	}
	_, skipped, _, err := e.FixOrder(ctx, issueID, []int{1})
	if err != nil || fmt.Sprint(skipped) != "[1]" {
		t.Fatalf("fix order skipped %v, %v", skipped, err)
	}
	got, _ := storedPage(t, repo)
	if len(got.Order) != 7 || got.Order[0] != "p3" || got.Order[1] != "h1" || !got.HandOrdered {
		t.Fatalf("hand order changed: %v", got.Order)
	}
	auto, _, err := e.AutoOrder(ctx, issueID, 1, 0)
	if err != nil || auto.HandOrdered || auto.Order[0] != "h1" {
		t.Fatalf("automatic order = %v hand=%v, %v", auto.Order, auto.HandOrdered, err)
	}
}

// regionsJSON is the page's regions and reading order as JSON.
func regionsJSON(t *testing.T, p magazine.Page) string {
	t.Helper()
	b, err := json.Marshal(struct {
		Regions []magazine.Region
		Order   []string
	}{p.Regions, p.Order})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCleanupWithBackup(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	// Give cleanup something to do: a stray mark, a repeated paragraph and a
	// byline that runs on into the story.
	p, _ := storedPage(t, repo)
	p.Regions = append(p.Regions,
		magazine.Region{ID: "n1", Kind: magazine.KindParagraph, BBox: magazine.BBox{500, 700, 6, 6}, Text: "•", OriginalText: "•"},
		magazine.Region{ID: "d1", Kind: magazine.KindParagraph, BBox: magazine.BBox{320, 420, 100, 20}, Text: "Third paragraph.", OriginalText: "Third paragraph."},
		magazine.Region{ID: "b1", Kind: magazine.KindByline, BBox: magazine.BBox{72, 620, 220, 40}, Text: "By Jane Doe The council voted to rebuild the harbour", OriginalText: "By Jane Doe The council voted to rebuild the harbour"},
	)
	if err := repo.PutPage(ctx, magazine.ApplyOrder(p)); err != nil {
		t.Fatal(err)
	}
	stored, _ := storedPage(t, repo)
	before, beforeRegions := pageJSON(t, repo), regionsJSON(t, stored)

	// No backup yet: restore is refused and writes nothing.
	untouched := records(t, e)
	_, _, err := e.RestoreBackup(ctx, issueID, 1, 0)
	refused(t, e, untouched, err, ErrNotFound, "restore before any cleanup")

	changes, out, err := e.Cleanup(ctx, issueID, 1, 0)
	if err != nil || out.UndoToken == "" {
		t.Fatalf("cleanup = %+v, %v", out, err)
	}
	got := map[string]string{}
	for _, c := range changes {
		got[c.RegionID] = c.Rule
	}
	want := map[string]string{"n1": magazine.RuleNoise, "d1": magazine.RuleDuplicate, "b1": magazine.RuleBylineSplit}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("cleanup changes %v, want %v", got, want)
	}
	cleaned, _ := storedPage(t, repo)
	kinds := map[string]magazine.Kind{}
	for _, r := range cleaned.Regions {
		kinds[r.ID] = r.Kind
	}
	if kinds["n1"] != magazine.KindNoise || kinds["d1"] != magazine.KindDuplicate || kinds["p2"] != magazine.KindParagraph || kinds["b1-s"] != magazine.KindParagraph {
		t.Fatalf("stored page after cleanup has kinds %v", kinds)
	}
	if b, _ := region(cleaned, "b1"); b.Text != "By Jane Doe" {
		t.Fatalf("byline after cleanup = %q", b.Text)
	}
	if regionsJSON(t, cleaned) == beforeRegions {
		t.Fatal("cleanup stored the page unchanged")
	}

	restored, out, err := e.RestoreBackup(ctx, issueID, 1, 0)
	if err != nil || out.UndoToken == "" {
		t.Fatalf("restore = %+v, %v", out, err)
	}
	after, _ := storedPage(t, repo)
	if got := regionsJSON(t, after); got != beforeRegions {
		t.Fatalf("restore did not bring back the regions before cleanup:\nbefore %s\nafter  %s", beforeRegions, got)
	}
	if got := regionsJSON(t, restored); got != beforeRegions {
		t.Errorf("restore answered regions %s, want %s", got, beforeRegions)
	}
	if pageJSON(t, repo) != before {
		t.Fatal("restore did not bring back the page before cleanup")
	}
}

// TestConcurrentEditsLoseNothing: 100 edits to one page at once, then count.
func TestConcurrentEditsLoseNothing(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	var failed atomic.Int32
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			box := magazine.BBox{10 + float64(i%50)*10, 620 + float64(i/50)*20, 8, 8}
			if _, _, err := e.AddRegion(ctx, issueID, 1, box, magazine.KindImage, 0); err != nil {
				failed.Add(1)
				t.Log(err)
			}
		}()
	}
	wg.Wait()
	p, v := storedPage(t, repo)
	is, _, err := repo.Get(ctx, issueID)
	if err != nil {
		t.Fatal(err)
	}
	if failed.Load() != 0 || len(p.Regions) != 6+100 || is.Revision != 100 {
		t.Fatalf("after 100 concurrent edits: %d failed, %d regions (want 106), revision %d (want 100)", failed.Load(), len(p.Regions), is.Revision)
	}
	t.Logf("100 concurrent edits: %d regions, revision %d, 0 lost", len(p.Regions), is.Revision)

	// With If-Match, a stale version answers 409 and changes nothing.
	text := "x"
	before := records(t, e)
	_, _, err = e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{Text: &text}, v-1)
	refused(t, e, before, err, ErrConflict, "an edit with a stale If-Match")
	if _, _, err := e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{Text: &text}, v); err != nil {
		t.Fatalf("current If-Match = %v", err)
	}
}

// TestSplitThenMergeKeepsOriginalTextOnce (issue 30): both parts of a split
// remember the whole text as first read; merging them again, in one step
// or two, keeps that text once, where it was doubled.
func TestSplitThenMergeKeepsOriginalTextOnce(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	const whole = "First paragraph. Second sentence here."
	parts, _, err := e.Split(ctx, issueID, 1, "p1", len("First paragraph."), 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Split(ctx, issueID, 1, parts[1].ID, len("Second"), 0); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, _, err := e.MergeNext(ctx, issueID, 1, "p1", 0); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := storedPage(t, repo)
	r, _ := region(p, "p1")
	if r.Text != whole || r.OriginalText != whole {
		t.Fatalf("split twice and merged back: text %q, original_text %q; want both %q", r.Text, r.OriginalText, whole)
	}
	// Two regions that were never one keep both texts.
	if _, _, _, err := e.MergeNext(ctx, issueID, 1, "p1", 0); err != nil {
		t.Fatal(err)
	}
	p, _ = storedPage(t, repo)
	if r, _ := region(p, "p1"); r.OriginalText != whole+" Third paragraph." {
		t.Errorf("merged with the next paragraph: original_text %q", r.OriginalText)
	}
}

// TestMergeNeverTakesTextOutOfAnotherArticle (issue 30): merging a region
// with the next one in the reading order is refused (409, nothing written)
// when the next one is in an article the first is not in; into a region of
// its own article, or from no article, it merges.
func TestMergeNeverTakesTextOutOfAnotherArticle(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	p, _ := storedPage(t, repo)
	if next, _ := magazine.NextInOrder(p, "p1"); next != "p2" {
		t.Fatalf("the fixture reads %s after p1, not p2", next)
	}
	if _, _, err := e.CreateArticle(ctx, issueID, "Harbour", []magazine.RegionRef{ref("h1"), ref("p1")}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.CreateArticle(ctx, issueID, "Letters", []magazine.RegionRef{ref("p2")}); err != nil {
		t.Fatal(err)
	}
	before := records(t, e)
	_, _, _, err := e.MergeNext(ctx, issueID, 1, "p1", 0)
	refused(t, e, before, err, magazine.ErrOtherArticle, "merge across articles")
	if err == nil || !strings.Contains(err.Error(), `"Letters"`) {
		t.Errorf("the refusal does not name the article: %v", err)
	}
	// Not in an article, p1 still may not take p2's text out of Letters.
	for _, a := range articles(t, e) {
		if a.Title == "Harbour" {
			if _, err := e.DeleteArticle(ctx, issueID, a.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	before = records(t, e)
	_, _, _, err = e.MergeNext(ctx, issueID, 1, "p1", 0)
	refused(t, e, before, err, magazine.ErrOtherArticle, "merge out of an article")
}

// TestBulkNamingOneIDTwiceIsInvalid (issue 30): a selected set that names a
// region twice is a 422 saying so, not a 404 for a region that exists, and
// nothing is written.
func TestBulkNamingOneIDTwiceIsInvalid(t *testing.T) {
	e, _, _ := fixture(t)
	ctx := context.Background()
	before := records(t, e)
	_, err := e.DeleteRegions(ctx, issueID, 1, []string{"p1", "p2", "p1"}, 0)
	refused(t, e, before, err, magazine.ErrBadEdit, "bulk delete")
	if err == nil || !strings.Contains(err.Error(), "p1 named twice") {
		t.Errorf("bulk delete: %v", err)
	}
	_, err = e.SetKinds(ctx, issueID, 1, []string{"p2", "p2"}, magazine.KindPullQuote, 0)
	refused(t, e, before, err, magazine.ErrBadEdit, "bulk type change")
	if err == nil || !strings.Contains(err.Error(), "p2 named twice") {
		t.Errorf("bulk type change: %v", err)
	}
}

package review

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/store/bolt"
)

// pictures stands in for the render-backed crops and OCR at the boundary:
// crops are named by revision, and reading an area answers what is set.
type pictures struct {
	read  string
	crops atomic.Int32
}

func (p *pictures) Crop(_ context.Context, page magazine.Page, r magazine.Region, rev int64) (string, error) {
	p.crops.Add(1)
	return fmt.Sprintf("issues/%s/crops/%04d/%s-%d.png", page.IssueID, page.Number, r.ID, rev), nil
}

func (p *pictures) ReadArea(context.Context, magazine.Page, magazine.BBox) (string, error) {
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

// kind is what sort of failure err is; the API answers each kind with one
// status (httpapi's table), so these tests pin the kind.
func kind(err error) fault.Kind { return fault.KindOf(err) }

func pageJSON(t *testing.T, repo *issues.Repo) string {
	t.Helper()
	p, _, err := repo.Page(context.Background(), issueID, 1)
	if err != nil {
		t.Fatal(err)
	}
	p.Updated = time.Time{}
	b, _ := json.Marshal(p)
	return string(b)
}

func TestDeleteTwiceAnswers404(t *testing.T) {
	e, _, _ := fixture(t)
	ctx := context.Background()
	out, err := e.DeleteRegions(ctx, issueID, 1, []string{"p2"}, 0)
	if err != nil || out.UndoToken == "" {
		t.Fatalf("first delete = %+v, %v", out, err)
	}
	if _, err := e.DeleteRegions(ctx, issueID, 1, []string{"p2"}, 0); kind(err) != fault.NotFound {
		t.Fatalf("second delete = %v (kind %v), want not found", err, kind(err))
	}
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
	arts, _ := e.Articles(ctx, issueID)
	if len(arts[0].Regions) != 1 {
		t.Fatalf("deleted region still in the article: %+v", arts[0].Regions)
	}
	if _, err := e.Undo(ctx, issueID, out.UndoToken); err != nil {
		t.Fatal(err)
	}
	if after := pageJSON(t, repo); after != before {
		t.Fatalf("undo did not restore the page:\nbefore %s\nafter  %s", before, after)
	}
	arts, _ = e.Articles(ctx, issueID)
	if len(arts) != 1 || arts[0].ID != art.ID || len(arts[0].Regions) != 2 {
		t.Fatalf("undo did not restore the article: %+v", arts)
	}
	if _, err := e.Undo(ctx, issueID, out.UndoToken); kind(err) != fault.Conflict {
		t.Fatalf("undo twice = %v, want 409", err)
	}
}

func TestUndoAfterAnotherChangeIsRefused(t *testing.T) {
	t.Run("a later change with its own undo point", func(t *testing.T) {
		e, _, _ := fixture(t)
		ctx := context.Background()
		first, _ := e.DeleteRegions(ctx, issueID, 1, []string{"p2"}, 0)
		if _, err := e.DeleteRegions(ctx, issueID, 1, []string{"p3"}, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Undo(ctx, issueID, first.UndoToken); kind(err) != fault.Conflict {
			t.Fatalf("undo of an earlier change = %v, want 409", err)
		}
	})
	t.Run("a later change without one clears the Undo button", func(t *testing.T) {
		e, _, _ := fixture(t)
		ctx := context.Background()
		first, _ := e.DeleteRegions(ctx, issueID, 1, []string{"p2"}, 0)
		text := "Edited."
		_, out, err := e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{Text: &text}, 0)
		if err != nil || !out.UndoCleared || out.UndoToken != "" {
			t.Fatalf("text edit = %+v, %v; want the undo point cleared", out, err)
		}
		_, err = e.Undo(ctx, issueID, first.UndoToken)
		if kind(err) != fault.Conflict {
			t.Fatalf("undo after a text edit = %v, want 409", err)
		}
	})
	t.Run("a token for another issue or forged", func(t *testing.T) {
		e, _, _ := fixture(t)
		ctx := context.Background()
		if _, err := e.Undo(ctx, issueID, "bm90LWEtdG9rZW4"); kind(err) != fault.Invalid {
			t.Fatalf("forged token = %v, want 422", err)
		}
	})
}

func TestBulkRetypeWithOneUndo(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	before := pageJSON(t, repo)
	out, err := e.SetKinds(ctx, issueID, 1, []string{"p1", "p2", "p3"}, magazine.KindSidebar, 0)
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := repo.Page(ctx, issueID, 1)
	for _, r := range p.Regions {
		if (r.ID == "p1" || r.ID == "p2" || r.ID == "p3") && r.Kind != magazine.KindSidebar {
			t.Errorf("%s is %s", r.ID, r.Kind)
		}
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
	art, _, _ := e.CreateArticle(ctx, issueID, "Story", []magazine.RegionRef{ref("h1"), ref("p1"), ref("p2")})
	parts, _, err := e.Split(ctx, issueID, 1, "p1", len("First paragraph."), 0)
	if err != nil {
		t.Fatal(err)
	}
	if parts[0].Text != "First paragraph." || parts[1].Text != "Second sentence here." || parts[1].OriginalText != "First paragraph. Second sentence here." {
		t.Fatalf("split parts = %+v", parts)
	}
	arts, _ := e.Articles(ctx, issueID)
	want := []magazine.RegionRef{ref("h1"), ref("p1"), ref(parts[1].ID), ref("p2")}
	if fmt.Sprint(arts[0].Regions) != fmt.Sprint(want) {
		t.Fatalf("after split the article is %v, want %v", arts[0].Regions, want)
	}
	merged, removed, _, err := e.MergeNext(ctx, issueID, 1, "p1", 0)
	if err != nil || removed != parts[1].ID || merged.Text != "First paragraph. Second sentence here." {
		t.Fatalf("merge = %+v, %q, %v", merged, removed, err)
	}
	arts, _ = e.Articles(ctx, issueID)
	if fmt.Sprint(arts[0].Regions) != fmt.Sprint([]magazine.RegionRef{ref("h1"), ref("p1"), ref("p2")}) || arts[0].ID != art.ID {
		t.Fatalf("after merge the article is %v", arts[0].Regions)
	}
	p, _, _ := repo.Page(ctx, issueID, 1)
	if r, _ := region(p, "p1"); r.OriginalText == "" {
		t.Error("merge lost original_text")
	}
}

func TestTextToImageFoldsTextInside(t *testing.T) {
	e, repo, pics := fixture(t)
	ctx := context.Background()
	_, _, _ = e.CreateArticle(ctx, issueID, "Story", []magazine.RegionRef{ref("p3")})
	kind := magazine.KindFigure
	r, out, err := e.UpdateRegion(ctx, issueID, 1, "p3", RegionPatch{Kind: &kind}, 0)
	if err != nil || out.UndoToken == "" || r.CropKey == "" || pics.crops.Load() != 1 {
		t.Fatalf("text→image = %+v %+v %v (crops %d)", r, out, err, pics.crops.Load())
	}
	p, _, _ := repo.Page(ctx, issueID, 1)
	label, _ := region(p, "t1")
	if label.Kind != magazine.KindTextInFigure {
		t.Errorf("the label inside the picture is %s, want text-in-image", label.Kind)
	}
	arts, _ := e.Articles(ctx, issueID)
	if len(arts[0].Regions) != 1 || arts[0].Regions[0].Region != "p3" {
		t.Errorf("membership changed: %v", arts[0].Regions)
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
	r, _, _ = e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{BBox: &box, Reread: true}, 0)
	if r.Text != "First paragraph, read again." || r.OriginalText != "First paragraph. Second sentence here." {
		t.Fatalf("reread = %+v", r)
	}
	bad := magazine.BBox{600, 700, 100, 200}
	if _, _, err := e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{BBox: &bad}, 0); kind(err) != fault.Invalid {
		t.Errorf("a box off the page = %v, want 422", err)
	}
}

func TestApprove(t *testing.T) {
	e, _, _ := fixture(t)
	ctx := context.Background()
	art, _, _ := e.CreateArticle(ctx, issueID, "Story", []magazine.RegionRef{ref("h1"), ref("p1")})
	if _, _, err := e.UpdateArticle(ctx, issueID, art.ID, ArticlePatch{Images: []magazine.RegionRef{ref("i1")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteRegions(ctx, issueID, 1, []string{"p2"}, 0); err != nil {
		t.Fatal(err)
	}
	_, _, err := e.Approve(ctx, issueID, art.ID, []magazine.RegionRef{ref("h1"), ref("p2")}, []magazine.RegionRef{ref("i1")})
	if kind(err) != fault.Invalid || !errorsContain(err, "p2") {
		t.Fatalf("approve with a vanished id = %v, want 422 naming p2", err)
	}
	_, _, err = e.Approve(ctx, issueID, art.ID, []magazine.RegionRef{ref("h1"), ref("p1")}, []magazine.RegionRef{})
	if kind(err) != fault.Conflict {
		t.Fatalf("approve with a stale image list = %v, want 409", err)
	}
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
	e.UpdateRegion(ctx, issueID, 1, "p2", RegionPatch{Kind: &kind}, 0)
	e.AddRegion(ctx, issueID, 1, magazine.BBox{72, 700, 100, 20}, magazine.KindParagraph, 0)
	_, skipped, _, err := e.FixOrder(ctx, issueID, []int{1})
	if err != nil || fmt.Sprint(skipped) != "[1]" {
		t.Fatalf("fix order skipped %v, %v", skipped, err)
	}
	got, _, _ := repo.Page(ctx, issueID, 1)
	if got.Order[0] != "p3" || got.Order[1] != "h1" || !got.HandOrdered {
		t.Fatalf("hand order changed: %v", got.Order)
	}
	auto, _, _ := e.AutoOrder(ctx, issueID, 1, 0)
	if auto.HandOrdered || auto.Order[0] != "h1" {
		t.Fatalf("automatic order = %v hand=%v", auto.Order, auto.HandOrdered)
	}
}

func TestCleanupWithBackup(t *testing.T) {
	e, repo, _ := fixture(t)
	ctx := context.Background()
	before := pageJSON(t, repo)
	if _, _, err := e.Cleanup(ctx, issueID, 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.RestoreBackup(ctx, issueID, 1); err != nil {
		t.Fatal(err)
	}
	if pageJSON(t, repo) != before {
		t.Fatal("restore did not bring back the layout before cleanup")
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
	p, _, _ := repo.Page(ctx, issueID, 1)
	is, _, _ := repo.Get(ctx, issueID)
	if failed.Load() != 0 || len(p.Regions) != 6+100 || is.Revision != 100 {
		t.Fatalf("after 100 concurrent edits: %d failed, %d regions (want 106), revision %d (want 100)", failed.Load(), len(p.Regions), is.Revision)
	}
	t.Logf("100 concurrent edits: %d regions, revision %d, 0 lost", len(p.Regions), is.Revision)

	// With If-Match, a stale version answers 409 and changes nothing.
	_, v, _ := repo.Page(ctx, issueID, 1)
	text := "x"
	if _, _, err := e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{Text: &text}, v-1); kind(err) != fault.Conflict {
		t.Fatalf("stale If-Match = %v, want 409", err)
	}
	if _, _, err := e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{Text: &text}, v); err != nil {
		t.Fatalf("current If-Match = %v", err)
	}
}

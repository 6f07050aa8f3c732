package review

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
)

// RefineBoxes answers the boxes set in refined, running whileRefine once
// (an edit that lands between the refinement's read and its write).
func (p *pictures) RefineBoxes(_ context.Context, page magazine.Page) ([]magazine.Region, error) {
	out := slices.Clone(page.Regions)
	for i := range out {
		if b, ok := p.refined[out[i].ID]; ok && magazine.IsVisual(out[i].Kind) {
			out[i].BBox = b
		}
	}
	if f := p.whileRefine; f != nil {
		p.whileRefine = nil
		f()
	}
	return out, nil
}

// rendered gives the fixture's page a render, so there is something to
// refine figures from, and a second picture i2 as the OCR boxed it.
func rendered(t *testing.T, e *Editor) {
	t.Helper()
	if _, _, err := e.pageChange(context.Background(), issueID, 1, 0, false, func(p magazine.Page) (magazine.Page, error) {
		p.RenderKey = "issues/" + issueID + "/renders/0001.png"
		p.Regions = append(p.Regions, magazine.Region{ID: "i2", Kind: magazine.KindImage, BBox: magazine.BBox{320, 620, 220, 150}})
		return magazine.ApplyOrder(p), nil
	}); err != nil {
		t.Fatal(err)
	}
}

func TestRefineKeepsAnEditMadeWhileItRuns(t *testing.T) {
	e, repo, pics := fixture(t)
	ctx := context.Background()
	rendered(t, e)
	// A picture the user drew: the pass would move it too, but may not.
	drawn, _, err := e.AddRegion(ctx, issueID, 1, magazine.BBox{320, 450, 200, 150}, magazine.KindFigure, 0)
	if err != nil {
		t.Fatal(err)
	}
	tok := deleteP2(t, e)
	tight := magazine.BBox{330, 630, 200, 130}
	pics.refined = map[string]magazine.BBox{"i1": {80, 460, 200, 130}, "i2": tight, drawn.ID: {330, 460, 180, 130}}
	// While the pass runs, the user types into p1 and places i1 by hand.
	placed := magazine.BBox{70, 440, 230, 170}
	var edited Outcome
	pics.whileRefine = func() {
		if _, _, err := e.UpdateRegion(ctx, issueID, 1, "p1", RegionPatch{Text: ptr("Typed while refining.")}, 0); err != nil {
			t.Error(err)
		}
		if _, edited, err = e.UpdateRegion(ctx, issueID, 1, "i1", RegionPatch{BBox: &placed}, 0); err != nil {
			t.Error(err)
		}
	}
	var reported []int
	res, err := e.RefineIssue(ctx, issueID, func(n, pages int) error {
		reported = append(reported, n, pages)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(reported, []int{1, 1}) {
		t.Errorf("progress heard (page, pages) %v, want page 1 of 1", reported)
	}
	if pics.whileRefine != nil || edited.Revision == 0 {
		t.Fatal("the edit during refinement never ran; the test proves nothing")
	}
	p, _ := storedPage(t, repo)
	if r, _ := region(p, "p1"); r.Text != "Typed while refining." {
		t.Errorf("the edit made while refining was lost: p1 is %q", r.Text)
	}
	if r, _ := region(p, "i1"); r.BBox != placed {
		t.Errorf("i1, placed by hand while refining, is at %v, want %v", r.BBox, placed)
	}
	if r, _ := region(p, "i2"); r.BBox != tight || !strings.HasSuffix(r.CropKey, "-"+strconv.FormatInt(res.Revision, 10)+".png") {
		t.Errorf("i2 after refine = %v crop %q, want %v cut at revision %d", r.BBox, r.CropKey, tight, res.Revision)
	}
	if r, _ := region(p, drawn.ID); r.BBox != drawn.BBox || !r.HandPlaced {
		t.Errorf("the hand-drawn figure moved to %v, want it left at %v", r.BBox, drawn.BBox)
	}
	if res.PagesChanged != 1 || !slices.Equal(res.Pages, []int{1}) || res.Revision != edited.Revision+1 || !res.UndoCleared {
		t.Errorf("refine = %+v, want page 1 changed at revision %d with the undo point cleared", res, edited.Revision+1)
	}
	before := records(t, e)
	_, err = e.Undo(ctx, issueID, tok)
	refused(t, e, before, err, ErrNothingToUndo, "undo of a change made before the refinement")

	// Nothing left to move: nothing is written, the revision stays.
	again, err := e.RefineIssue(ctx, issueID, nil)
	if err != nil || again.PagesChanged != 0 || again.Revision != res.Revision || again.UndoCleared {
		t.Errorf("refine again = %+v, %v; want nothing changed at revision %d", again, err, res.Revision)
	}
	refused(t, e, before, nil, nil, "refine with nothing to move")
}

func ptr[T any](v T) *T { return &v }

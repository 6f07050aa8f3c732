package review

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/magazine"
)

func (p *pictures) RecognizePage(_ context.Context, page magazine.Page, engine string) (magazine.Page, error) {
	p.engineRuns.Add(1)
	if p.engineErr != nil {
		return page, p.engineErr
	}
	out := p.recognized
	out.Regions = slices.Clone(out.Regions)
	out.Engine = engine
	return magazine.ApplyOrder(out), nil
}

func (p *pictures) ReadAreaWith(context.Context, magazine.Page, magazine.BBox, string) (string, error) {
	p.engineRuns.Add(1)
	return p.readWith, p.engineErr
}

// errEngine stands in for an engine that failed upstream.
var errEngine = fault.New(fault.Upstream, "vision-primary answered 500")

// readAgain is what the stand-in engine reads on page 1: the headline and
// the picture as they were, and one new paragraph where p1..p3 stood.
func readAgain(pics *pictures) {
	pics.recognized = magazine.Page{Regions: []magazine.Region{
		{ID: "h1", Kind: magazine.KindHeadline, BBox: magazine.BBox{72, 40, 400, 30}, Text: "Harbour Reborn Again", OriginalText: "Harbour Reborn Again"},
		{ID: "r1", Kind: magazine.KindParagraph, BBox: magazine.BBox{72, 100, 470, 300}, Text: "One column, read again.", OriginalText: "One column, read again."},
		{ID: "i1", Kind: magazine.KindImage, BBox: magazine.BBox{72, 450, 220, 150}},
	}, OCRDPI: 300}
}

func TestRecognizeReplacesThePageUndoably(t *testing.T) {
	e, repo, pics := fixture(t)
	ctx := context.Background()
	readAgain(pics)
	// An article of the headline, a paragraph and the picture; a described
	// picture; a hand order.
	if _, _, err := e.CreateArticle(ctx, issueID, "Story", []magazine.RegionRef{ref("h1"), ref("p1"), ref("p2")}); err != nil {
		t.Fatal(err)
	}
	arts := articles(t, e)
	desc := "The rebuilt pier."
	if _, _, err := e.UpdateRegion(ctx, issueID, 1, "i1", RegionPatch{Description: &desc}, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.UpdateArticle(ctx, issueID, arts[0].ID, ArticlePatch{Images: []magazine.RegionRef{ref("i1")}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.SetOrder(ctx, issueID, 1, []string{"p3", "h1"}, 0); err != nil {
		t.Fatal(err)
	}
	before := pageJSON(t, repo)
	articlesBefore := fmt.Sprint(articles(t, e))
	_, version := storedPage(t, repo)

	p, out, err := e.Recognize(ctx, issueID, 1, "tesseract", version)
	if err != nil || out.UndoToken == "" {
		t.Fatalf("recognize = %+v, %v; want an undo token", out, err)
	}
	stored, _ := storedPage(t, repo)
	if p.Engine != "tesseract" || stored.Engine != "tesseract" || stored.OCRDPI != 300 || stored.HandOrdered {
		t.Errorf("stored page: engine %q, OCR DPI %d, hand ordered %v", stored.Engine, stored.OCRDPI, stored.HandOrdered)
	}
	ids := []string{}
	for _, r := range stored.Regions {
		ids = append(ids, r.ID)
	}
	if fmt.Sprint(ids) != "[h1 r1 i1]" || len(stored.Order) != 3 {
		t.Fatalf("regions %v order %v, want the three read again", ids, stored.Order)
	}
	pic, _ := region(stored, "i1")
	if pic.Description != desc || !strings.HasSuffix(pic.CropKey, fmt.Sprintf("-%d.png", out.Revision)) {
		t.Errorf("the picture that came back: %+v; want its description kept and a crop of this revision", pic)
	}
	arts = articles(t, e)
	if len(arts) != 1 || fmt.Sprint(arts[0].Regions) != fmt.Sprint([]magazine.RegionRef{ref("h1")}) || fmt.Sprint(arts[0].Images) != fmt.Sprint([]magazine.RegionRef{ref("i1")}) {
		t.Errorf("article after recognize: %+v; want only the headline and the picture that came back", arts)
	}

	if _, err := e.Undo(ctx, issueID, out.UndoToken); err != nil {
		t.Fatal(err)
	}
	if after := pageJSON(t, repo); after != before {
		t.Errorf("undo did not restore the page:\nbefore %s\nafter  %s", before, after)
	}
	if after := fmt.Sprint(articles(t, e)); after != articlesBefore {
		t.Errorf("undo did not restore the articles:\nbefore %s\nafter  %s", articlesBefore, after)
	}
}

// TestRecognizeRefusalsWriteNothing: an engine that fails, a stale
// If-Match, an unknown page, a picture region: every record stays as it was.
func TestRecognizeRefusalsWriteNothing(t *testing.T) {
	cases := []struct {
		name    string
		call    func(e *Editor, version int64) error
		fail    bool
		want    error
		engines int32 // engine runs the call may make
	}{
		{"a failing engine on the page", func(e *Editor, v int64) error {
			_, _, err := e.Recognize(context.Background(), issueID, 1, "vision-primary", v)
			return err
		}, true, errEngine, 1},
		{"a failing engine on a region", func(e *Editor, v int64) error {
			_, _, err := e.RereadRegion(context.Background(), issueID, 1, "p1", "vision-primary", v)
			return err
		}, true, errEngine, 1},
		{"a stale If-Match on the page", func(e *Editor, v int64) error {
			_, _, err := e.Recognize(context.Background(), issueID, 1, "tesseract", v-1)
			return err
		}, false, ErrConflict, 0},
		{"a stale If-Match on a region", func(e *Editor, v int64) error {
			_, _, err := e.RereadRegion(context.Background(), issueID, 1, "p1", "tesseract", v+1)
			return err
		}, false, ErrConflict, 0},
		{"an unknown page", func(e *Editor, _ int64) error {
			_, _, err := e.Recognize(context.Background(), issueID, 9, "tesseract", 0)
			return err
		}, false, ErrNotFound, 0},
		{"an unknown region", func(e *Editor, _ int64) error {
			_, _, err := e.RereadRegion(context.Background(), issueID, 1, "zz9", "tesseract", 0)
			return err
		}, false, ErrNotFound, 0},
		{"a picture region", func(e *Editor, _ int64) error {
			_, _, err := e.RereadRegion(context.Background(), issueID, 1, "i1", "tesseract", 0)
			return err
		}, false, ErrInvalid, 0},
		{"a region read as nothing", func(e *Editor, _ int64) error {
			_, _, err := e.RereadRegion(context.Background(), issueID, 1, "p1", "tesseract", 0)
			return err
		}, false, ErrInvalid, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, repo, pics := fixture(t)
			readAgain(pics)
			if tc.fail {
				pics.engineErr = errEngine
			} else if tc.name != "a region read as nothing" {
				pics.readWith = "Read again."
			}
			deleteP2(t, e) // an undo point that a refusal must not clear
			_, version := storedPage(t, repo)
			before := records(t, e)
			err := tc.call(e, version)
			refused(t, e, before, err, tc.want, tc.name)
			if runs := pics.engineRuns.Load(); runs != tc.engines {
				t.Errorf("the engine ran %d times, want %d", runs, tc.engines)
			}
		})
	}
}

func TestRereadRegionReplacesItsText(t *testing.T) {
	e, repo, pics := fixture(t)
	ctx := context.Background()
	pics.readWith = "  First paragraph, read properly.  "
	before := pageJSON(t, repo)
	_, version := storedPage(t, repo)
	r, out, err := e.RereadRegion(ctx, issueID, 1, "p1", "vision-fallback", version)
	if err != nil || out.UndoToken == "" {
		t.Fatalf("reread = %+v, %v; want an undo token", out, err)
	}
	if r.Text != "First paragraph, read properly." || r.OriginalText != "First paragraph. Second sentence here." {
		t.Errorf("region after reread: text %q, original %q", r.Text, r.OriginalText)
	}
	if stored, _ := storedPage(t, repo); !strings.Contains(fmt.Sprint(stored.Regions), "read properly") {
		t.Errorf("the new text was not stored: %+v", stored.Regions)
	}
	if _, err := e.Undo(ctx, issueID, out.UndoToken); err != nil {
		t.Fatal(err)
	}
	if after := pageJSON(t, repo); after != before {
		t.Errorf("undo did not restore the region:\nbefore %s\nafter  %s", before, after)
	}
}

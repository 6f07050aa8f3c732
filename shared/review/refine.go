package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/store"
)

// refineAttempts bounds how often one page's figures are derived again
// because the page kept changing while they were.
const refineAttempts = 5

// errStale: the page changed after its figures were derived; derive again.
var errStale = errors.New("page changed while its figures were refined")

// RefineIssue re-derives the picture boxes of every rendered page from its
// render, without OCR. Each page that changed is stored by its own change
// (an issue can outgrow one transaction), conditional on the page being
// the one the boxes were derived from; a page edited meanwhile is derived
// again from the edit, so no edit is ever written over. Boxes placed by
// hand stay where they are. The refinement therefore has no undo point of
// its own: like every such change, it clears the stored one.
func (e *Editor) RefineIssue(ctx context.Context, issue string, progress issues.PageProgress) (issues.Refined, error) {
	is, err := e.issueNow(ctx, issue)
	if err != nil {
		return issues.Refined{}, err
	}
	res := issues.Refined{Pages: []int{}, Revision: is.Revision}
	for n := 1; n <= is.PageCount; n++ {
		if progress != nil {
			if err := progress(n, is.PageCount); err != nil {
				return res, err
			}
		}
		out, changed, err := e.refinePage(ctx, issue, n)
		if err != nil {
			return res, fmt.Errorf("page %d: %w", n, err)
		}
		if changed {
			res.Pages = append(res.Pages, n)
			res.Revision, res.UndoCleared = out.Revision, true
		}
	}
	res.PagesChanged = len(res.Pages)
	return res, nil
}

// refinePage refines one page; false when nothing moved (nothing written).
func (e *Editor) refinePage(ctx context.Context, issue string, n int) (Outcome, bool, error) {
	for range refineAttempts {
		p, version, err := newState(e.Service, ctx, issue).Page(n)
		if errors.Is(err, ErrNotFound) {
			return Outcome{}, false, nil // a page the ingest never stored
		}
		if err != nil {
			return Outcome{}, false, err
		}
		if p.RenderKey == "" {
			return Outcome{}, false, nil // nothing to derive boxes from
		}
		// Derived outside the change: it is slow, and the change holds the
		// issue's lock.
		refined, err := e.pics.RefineBoxes(ctx, p)
		if err != nil {
			return Outcome{}, false, err
		}
		moved := movedBoxes(p.Regions, refined)
		if len(moved) == 0 {
			return Outcome{}, false, nil
		}
		out, err := e.Change(ctx, issue, Options{}, func(st *state) error {
			now, v, err := st.Page(n)
			if err != nil {
				return err
			}
			if v != version {
				return errStale
			}
			var ids []string
			for i, r := range now.Regions {
				if b, ok := moved[r.ID]; ok {
					now.Regions[i].BBox = b
					ids = append(ids, r.ID)
				}
			}
			if !now.HandOrdered {
				now = magazine.ApplyOrder(now)
			}
			if err := e.recrop(st, &now, ids); err != nil {
				return err
			}
			st.PutPage(now)
			return nil
		})
		if errors.Is(err, errStale) {
			continue
		}
		return out, err == nil, err
	}
	return Outcome{}, false, fmt.Errorf("the page kept changing while its figures were refined; try again: %w", ErrConflict)
}

// movedBoxes is each picture region's new box where the figure pass moved
// it (the pass keeps regions in place, one for one).
func movedBoxes(before, after []magazine.Region) map[string]magazine.BBox {
	moved := map[string]magazine.BBox{}
	for i, r := range before {
		if i < len(after) && after[i].ID == r.ID && magazine.IsVisual(r.Kind) && !r.HandPlaced && after[i].BBox != r.BBox {
			moved[r.ID] = after[i].BBox
		}
	}
	return moved
}

// issueNow reads the issue outside any change.
func (s *Service) issueNow(ctx context.Context, issue string) (magazine.Issue, error) {
	it, err := newState(s, ctx, issue).get(store.Key{PK: issues.PK(issue), SK: issues.MetaSK})
	if err != nil {
		return magazine.Issue{}, err
	}
	if it.version == 0 {
		return magazine.Issue{}, fmt.Errorf("issue %s: %w", issue, ErrNotFound)
	}
	var is magazine.Issue
	return is, json.Unmarshal(it.before, &is)
}

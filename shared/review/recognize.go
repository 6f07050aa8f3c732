package review

import (
	"context"
	"fmt"
	"strings"

	"github.com/lectern/lectern/shared/magazine"
)

// Recognize reads a page again with one chosen engine and puts the result
// in place of the page's regions, as one undoable change. The engine runs
// before the change (it is slow, and the change may be tried again after a
// concurrent write); when it fails or finds nothing, nothing is written.
// Regions that come back unchanged (same id, kind and box) keep their
// article membership and description; every other old region leaves the
// articles that held it.
func (e *Editor) Recognize(ctx context.Context, issue string, page int, engine string, ifMatch int64) (magazine.Page, Outcome, error) {
	current, err := e.pageAt(ctx, issue, page, ifMatch)
	if err != nil {
		return magazine.Page{}, Outcome{}, err
	}
	read, err := e.pics.RecognizePage(ctx, current, engine)
	if err != nil {
		return magazine.Page{}, Outcome{}, err
	}
	var result magazine.Page
	out, err := e.Change(ctx, issue, e.opts(page, ifMatch, true), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		regions, removed := replaceRegions(p.Regions, read.Regions)
		p.Regions = regions
		p.Order = read.Order
		p.HandOrdered = false
		p.Engine = read.Engine
		p.EngineNote = read.EngineNote
		p.OCRDPI = read.OCRDPI
		var pictures []string
		for _, r := range p.Regions {
			if magazine.IsVisual(r.Kind) {
				pictures = append(pictures, r.ID)
			}
		}
		if err := e.recrop(st, &p, pictures); err != nil {
			return err
		}
		st.PutPage(p)
		result = p
		return st.FollowMembership(page, magazine.Membership{Removed: removed})
	})
	return result, out, err
}

// replaceRegions is next with the descriptions of regions that came back
// as they were, and the ids of old regions that did not: those are gone,
// even where a new region happens to take the same id.
func replaceRegions(old, next []magazine.Region) ([]magazine.Region, []string) {
	out := append(make([]magazine.Region, 0, len(next)), next...)
	var removed []string
	for _, o := range old {
		kept := false
		for i, n := range out {
			if n.ID == o.ID && n.Kind == o.Kind && n.BBox == o.BBox {
				kept = true
				if out[i].Description == "" {
					out[i].Description = o.Description
				}
			}
		}
		if !kept {
			removed = append(removed, o.ID)
		}
	}
	return out, removed
}

// RereadRegion reads one text region's box again with one chosen engine
// and replaces its text (its original text stays as first read), as one
// undoable change. Pictures are refused: their words are a description.
func (e *Editor) RereadRegion(ctx context.Context, issue string, page int, id, engine string, ifMatch int64) (magazine.Region, Outcome, error) {
	current, err := e.pageAt(ctx, issue, page, ifMatch)
	if err != nil {
		return magazine.Region{}, Outcome{}, err
	}
	r, ok := region(current, id)
	if !ok {
		return magazine.Region{}, Outcome{}, fmt.Errorf("region %s on page %d: %w", id, page, ErrNotFound)
	}
	if err := textRegion(r); err != nil {
		return magazine.Region{}, Outcome{}, err
	}
	text, err := e.pics.ReadAreaWith(ctx, current, r.BBox, engine)
	if err != nil {
		return magazine.Region{}, Outcome{}, err
	}
	if text = strings.TrimSpace(text); text == "" {
		return magazine.Region{}, Outcome{}, fmt.Errorf("%s found no text in region %s: %w", engine, id, ErrInvalid)
	}
	var result magazine.Region
	out, err := e.Change(ctx, issue, e.opts(page, ifMatch, true), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		now, ok := region(p, id)
		if !ok {
			return fmt.Errorf("region %s on page %d: %w", id, page, ErrNotFound)
		}
		if err := textRegion(now); err != nil {
			return err
		}
		if now.BBox != r.BBox {
			return fmt.Errorf("region %s was moved while it was read; read it again: %w", id, ErrConflict)
		}
		if p, err = magazine.SetText(p, id, text); err != nil {
			return err
		}
		st.PutPage(p)
		result, _ = region(p, id)
		return nil
	})
	return result, out, err
}

// textRegion refuses a picture region: there is no text to read again.
func textRegion(r magazine.Region) error {
	if magazine.IsVisual(r.Kind) {
		return fmt.Errorf("region %s is a picture (%s): only text regions can be read again; describe a picture instead: %w", r.ID, r.Kind, ErrInvalid)
	}
	return nil
}

// pageAt reads a page outside any change, refusing a stale If-Match before
// any slow work is done for it.
func (e *Editor) pageAt(ctx context.Context, issue string, page int, ifMatch int64) (magazine.Page, error) {
	p, v, err := newState(e.Service, ctx, issue).Page(page)
	if err != nil {
		return magazine.Page{}, err
	}
	if ifMatch > 0 && v != ifMatch {
		return magazine.Page{}, staleError(page, v, ifMatch)
	}
	return p, nil
}

package review

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/magazine"
)

// Pictures cuts crops and reads areas of a page render; the pipeline's
// steps provide it.
type Pictures interface {
	// Crop stores the render's pixels at the region's box under a key that
	// includes rev, so an undo can point back at the earlier crop.
	Crop(ctx context.Context, page magazine.Page, region magazine.Region, rev int64) (string, error)
	// ReadArea reads the text in a box of the page with the OCR chain; ""
	// when nothing readable is there.
	ReadArea(ctx context.Context, page magazine.Page, box magazine.BBox) (string, error)
	// ReadAreaWith reads the text in a box with one chosen engine only.
	ReadAreaWith(ctx context.Context, page magazine.Page, box magazine.BBox, engine string) (string, error)
	// RecognizePage reads the page again with one chosen engine only and
	// returns it with its new regions, refined, cleaned and ordered; crops
	// are left to the change that stores it.
	RecognizePage(ctx context.Context, page magazine.Page, engine string) (magazine.Page, error)
	// View draws a part of the page (on the page) at dpi as PNG.
	View(ctx context.Context, page magazine.Page, dpi int, box magazine.BBox) ([]byte, error)
	// RefineBoxes re-derives the page's picture boxes from its render
	// (magazine.RefineFigures) and cuts no crops.
	RefineBoxes(ctx context.Context, page magazine.Page) ([]magazine.Region, error)
}

// Editor is the Service with the picture operations the edits need.
type Editor struct {
	*Service
	pics Pictures
}

// NewEditor returns an Editor.
func NewEditor(s *Service, pics Pictures) *Editor { return &Editor{Service: s, pics: pics} }

// RegionPatch is a change to one region; nil fields are left alone.
type RegionPatch struct {
	BBox        *magazine.BBox `json:"bbox,omitempty" doc:"new box [x,y,w,h] in points (move or resize)"`
	Reread      bool           `json:"reread,omitempty" doc:"read the text again from the corrected area (text regions); nothing readable keeps the old text"`
	Text        *string        `json:"text,omitempty" maxLength:"100000"`
	Kind        *magazine.Kind `json:"kind,omitempty"`
	Description *string        `json:"description,omitempty" maxLength:"2000"`
}

func region(p magazine.Page, id string) (magazine.Region, bool) {
	i := slices.IndexFunc(p.Regions, func(r magazine.Region) bool { return r.ID == id })
	if i < 0 {
		return magazine.Region{}, false
	}
	return p.Regions[i], true
}

// recrop cuts new crops for the given regions of p.
func (e *Editor) recrop(st *state, p *magazine.Page, ids []string) error {
	for _, id := range ids {
		i := slices.IndexFunc(p.Regions, func(r magazine.Region) bool { return r.ID == id })
		if i < 0 || !magazine.IsVisual(p.Regions[i].Kind) {
			continue
		}
		key, err := e.pics.Crop(st.ctx, *p, p.Regions[i], st.issue.Revision+1)
		if err != nil {
			return err
		}
		p.Regions[i].CropKey = key
	}
	return nil
}

// UpdateRegion moves, resizes, re-reads, re-types or edits one region. A
// change of box or kind is undoable; a text or description edit alone has
// no undo point and clears the stored one.
func (e *Editor) UpdateRegion(ctx context.Context, issue string, page int, id string, patch RegionPatch, ifMatch int64) (magazine.Region, Outcome, error) {
	var result magazine.Region
	opts := Options{Undoable: patch.BBox != nil || patch.Kind != nil || patch.Reread}
	if ifMatch > 0 {
		opts.IfMatch = map[int]int64{page: ifMatch}
	}
	// The area is read once, before the change: reading is slow, and the
	// change itself may be tried again after a concurrent write. The patch
	// is checked first, so a bad one costs no reading.
	reread := ""
	if patch.Reread {
		p, err := e.pageAt(ctx, issue, page, ifMatch)
		if err != nil {
			return magazine.Region{}, Outcome{}, err
		}
		r, ok := region(p, id)
		if !ok {
			return magazine.Region{}, Outcome{}, fmt.Errorf("region %s on page %d: %w", id, page, ErrNotFound)
		}
		if err := checkPatch(p, r, patch); err != nil {
			return magazine.Region{}, Outcome{}, err
		}
		box := r.BBox
		if patch.BBox != nil {
			box = *patch.BBox
		}
		if !magazine.IsVisual(r.Kind) {
			text, err := e.pics.ReadArea(ctx, p, box)
			if err != nil {
				return magazine.Region{}, Outcome{}, err
			}
			reread = strings.TrimSpace(text) // nothing readable keeps the old text
		}
	}
	out, err := e.Change(ctx, issue, opts, func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		old, ok := region(p, id)
		if !ok {
			return fmt.Errorf("region %s on page %d: %w", id, page, ErrNotFound)
		}
		if err := checkPatch(p, old, patch); err != nil {
			return err
		}
		var recrop []string
		if patch.BBox != nil {
			if p, err = magazine.MoveRegion(p, id, *patch.BBox); err != nil {
				return err
			}
			recrop = append(recrop, id)
		}
		if reread != "" && !magazine.IsVisual(old.Kind) {
			if p, err = magazine.SetText(p, id, reread); err != nil {
				return err
			}
		}
		if patch.Text != nil {
			if p, err = magazine.SetText(p, id, *patch.Text); err != nil {
				return err
			}
		}
		if patch.Kind != nil {
			var more []string
			if p, more, err = magazine.SetKind(p, []string{id}, *patch.Kind); err != nil {
				return err
			}
			recrop = append(recrop, more...)
		}
		if patch.Description != nil {
			i := slices.IndexFunc(p.Regions, func(r magazine.Region) bool { return r.ID == id })
			p.Regions[i].Description = strings.TrimSpace(*patch.Description)
		}
		if !p.HandOrdered && (patch.BBox != nil || patch.Kind != nil) {
			p = magazine.ApplyOrder(p)
		}
		if err := e.recrop(st, &p, recrop); err != nil {
			return err
		}
		st.PutPage(p)
		result, _ = region(p, id)
		return nil
	})
	return result, out, err
}

// checkPatch refuses a patch that cannot apply to region r of page p: a box
// that is not a real area of the page, a kind that does not exist, or a
// description for a region that is not a picture (clearing one is allowed)
// or longer than two sentences.
func checkPatch(p magazine.Page, r magazine.Region, patch RegionPatch) error {
	if patch.BBox != nil {
		if err := magazine.CheckBox(p, *patch.BBox); err != nil {
			return err
		}
	}
	kind := r.Kind
	if patch.Kind != nil {
		if _, ok := magazine.Info(*patch.Kind); !ok {
			return fmt.Errorf("kind %q: %w", *patch.Kind, magazine.ErrBadEdit)
		}
		kind = *patch.Kind
	}
	if patch.Description != nil && strings.TrimSpace(*patch.Description) != "" && !magazine.IsVisual(kind) {
		return fmt.Errorf("region %s is a %s: only picture regions (image, figure, chart, table, code) carry a description: %w", r.ID, kind, ErrInvalid)
	}
	if patch.Description != nil {
		return magazine.CheckDescription(*patch.Description)
	}
	return nil
}

// DeleteRegions removes regions (one, or a selected set under one undo
// token) and their membership in every article.
func (e *Editor) DeleteRegions(ctx context.Context, issue string, page int, ids []string, ifMatch int64) (Outcome, error) {
	return e.Change(ctx, issue, e.opts(page, ifMatch, true), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		p, m, err := magazine.DeleteRegions(p, ids)
		if err != nil {
			return err
		}
		st.PutPage(p)
		return st.FollowMembership(page, m)
	})
}

// SetKinds re-types a selected set of regions under one undo token.
func (e *Editor) SetKinds(ctx context.Context, issue string, page int, ids []string, kind magazine.Kind, ifMatch int64) (Outcome, error) {
	return e.Change(ctx, issue, e.opts(page, ifMatch, true), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		p, recrop, err := magazine.SetKind(p, ids, kind)
		if err != nil {
			return err
		}
		if !p.HandOrdered {
			p = magazine.ApplyOrder(p)
		}
		if err := e.recrop(st, &p, recrop); err != nil {
			return err
		}
		st.PutPage(p)
		return nil
	})
}

// Split cuts a text region at a rune offset; the new part follows the
// original in the reading order and in every article.
func (e *Editor) Split(ctx context.Context, issue string, page int, id string, offset int, ifMatch int64) ([]magazine.Region, Outcome, error) {
	var parts []magazine.Region
	out, err := e.Change(ctx, issue, e.opts(page, ifMatch, true), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		p, newID, m, err := magazine.Split(p, id, offset)
		if err != nil {
			return err
		}
		st.PutPage(p)
		a, _ := region(p, id)
		b, _ := region(p, newID)
		parts = []magazine.Region{a, b}
		return st.FollowMembership(page, m)
	})
	return parts, out, err
}

// MergeNext joins the region read after id into it.
func (e *Editor) MergeNext(ctx context.Context, issue string, page int, id string, ifMatch int64) (magazine.Region, string, Outcome, error) {
	var merged magazine.Region
	var removed string
	out, err := e.Change(ctx, issue, e.opts(page, ifMatch, true), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		if next, ok := magazine.NextInOrder(p, id); ok {
			arts, err := st.Articles()
			if err != nil {
				return err
			}
			if err := magazine.CheckMerge(page, id, next, arts); err != nil {
				return err
			}
		}
		p, gone, m, err := magazine.MergeNext(p, id)
		if err != nil {
			return err
		}
		if err := e.recrop(st, &p, []string{id}); err != nil {
			return err
		}
		st.PutPage(p)
		merged, _ = region(p, id)
		removed = gone
		return st.FollowMembership(page, m)
	})
	return merged, removed, out, err
}

// AddRegion draws a new box; a text box is read from the render.
func (e *Editor) AddRegion(ctx context.Context, issue string, page int, box magazine.BBox, kind magazine.Kind, ifMatch int64) (magazine.Region, Outcome, error) {
	var added magazine.Region
	text := ""
	// The box and kind are checked before the slow read of the area.
	p, err := e.pageAt(ctx, issue, page, ifMatch)
	if err != nil {
		return magazine.Region{}, Outcome{}, err
	}
	info, ok := magazine.Info(kind)
	if !ok {
		return magazine.Region{}, Outcome{}, fmt.Errorf("kind %q: %w", kind, magazine.ErrBadEdit)
	}
	if err := magazine.CheckBox(p, box); err != nil {
		return magazine.Region{}, Outcome{}, err
	}
	if !info.Visual {
		if text, err = e.pics.ReadArea(ctx, p, box); err != nil {
			return magazine.Region{}, Outcome{}, err
		}
	}
	out, err := e.Change(ctx, issue, e.opts(page, ifMatch, false), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		p, id, err := magazine.AddRegion(p, box, kind, strings.TrimSpace(text))
		if err != nil {
			return err
		}
		if err := e.recrop(st, &p, []string{id}); err != nil {
			return err
		}
		st.PutPage(p)
		added, _ = region(p, id)
		return nil
	})
	return added, out, err
}

// SetOrder hand-orders a page (positions or a click sequence).
func (e *Editor) SetOrder(ctx context.Context, issue string, page int, ids []string, ifMatch int64) (magazine.Page, Outcome, error) {
	return e.pageChange(ctx, issue, page, ifMatch, false, func(p magazine.Page) (magazine.Page, error) {
		return magazine.SetOrder(p, ids)
	})
}

// AutoOrder recomputes a page's order and unlocks it.
func (e *Editor) AutoOrder(ctx context.Context, issue string, page int, ifMatch int64) (magazine.Page, Outcome, error) {
	return e.pageChange(ctx, issue, page, ifMatch, false, func(p magazine.Page) (magazine.Page, error) {
		return magazine.AutoOrder(p), nil
	})
}

func (e *Editor) pageChange(ctx context.Context, issue string, page int, ifMatch int64, undoable bool, fn func(magazine.Page) (magazine.Page, error)) (magazine.Page, Outcome, error) {
	var result magazine.Page
	out, err := e.Change(ctx, issue, e.opts(page, ifMatch, undoable), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		if p, err = fn(p); err != nil {
			return err
		}
		st.PutPage(p)
		result = p
		return nil
	})
	return result, out, err
}

func (e *Editor) opts(page int, ifMatch int64, undoable bool) Options {
	o := Options{Undoable: undoable}
	if ifMatch > 0 {
		o.IfMatch = map[int]int64{page: ifMatch}
	}
	return o
}

// EditTable changes one table region's cells (magazine.EditTable); the
// region's text follows its cells. Undoable: a deleted row or column
// comes back.
func (e *Editor) EditTable(ctx context.Context, issue string, page int, id string, edit magazine.TableEdit, ifMatch int64) (magazine.Region, Outcome, error) {
	var result magazine.Region
	out, err := e.Change(ctx, issue, e.opts(page, ifMatch, true), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		if p, err = magazine.EditTable(p, id, edit); err != nil {
			return err
		}
		st.PutPage(p)
		result, _ = region(p, id)
		return nil
	})
	return result, out, err
}

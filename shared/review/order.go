package review

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lectern/lectern/shared/magazine"
)

// fixOrderChunk is how many pages one Fix reading order change takes, so
// a change stays well inside one transaction's limit.
const fixOrderChunk = 50

// FixOrder re-reads the pages' order from their regions, without OCR;
// hand-ordered pages are skipped. No pages means the whole issue (pages the
// ingest never stored are left out). The issue's articles are then proposed
// afresh. It returns the pages changed and skipped.
func (e *Editor) FixOrder(ctx context.Context, issue string, pages []int) (changed, skipped []int, out Outcome, err error) {
	whole := len(pages) == 0
	if whole {
		is, err := e.issueNow(ctx, issue)
		if err != nil {
			return nil, nil, Outcome{}, err
		}
		for n := 1; n <= is.PageCount; n++ {
			pages = append(pages, n)
		}
		out.Revision = is.Revision
	}
	for chunk := range slices.Chunk(pages, fixOrderChunk) {
		var ch, sk []int
		o, err := e.Change(ctx, issue, Options{}, func(st *state) error {
			ch, sk = nil, nil
			for _, n := range chunk {
				p, _, err := st.Page(n)
				if whole && errors.Is(err, ErrNotFound) {
					continue
				}
				if err != nil {
					return err
				}
				if p.HandOrdered {
					sk = append(sk, n)
					continue
				}
				next := magazine.ApplyOrder(p)
				if fmt.Sprint(next.Order) != fmt.Sprint(p.Order) {
					st.PutPage(next)
					ch = append(ch, n)
				}
			}
			return nil
		})
		if err != nil {
			return changed, skipped, out, err
		}
		changed, skipped, out = append(changed, ch...), append(skipped, sk...), o
	}
	// The proposals follow the new order (accepted articles stay as they are).
	if _, err := e.ProposeArticles(ctx, issue); err != nil {
		return changed, skipped, out, err
	}
	if is, err := e.issueNow(ctx, issue); err == nil {
		out.Revision = is.Revision
	}
	return changed, skipped, out, nil
}

// Cleanup runs the cleanup rules on demand, keeping a layout backup first.
// A paragraph split off a run-on byline joins the byline's article.
func (e *Editor) Cleanup(ctx context.Context, issue string, page int, ifMatch int64) ([]magazine.Change, Outcome, error) {
	var changes []magazine.Change
	out, err := e.Change(ctx, issue, e.opts(page, ifMatch, true), func(st *state) error {
		p, _, err := st.Page(page)
		if err != nil {
			return err
		}
		if err := st.PutBackup(p); err != nil {
			return err
		}
		next, ch := magazine.Cleanup(p)
		changes = ch
		if !next.HandOrdered {
			next = magazine.ApplyOrder(next)
		}
		st.PutPage(next)
		return st.FollowMembership(page, magazine.CleanupMembership(ch))
	})
	return changes, out, err
}

// RestoreBackup puts back the regions saved before the last on-demand
// cleanup of the page.
func (e *Editor) RestoreBackup(ctx context.Context, issue string, page int, ifMatch int64) (magazine.Page, Outcome, error) {
	var restored magazine.Page
	out, err := e.Change(ctx, issue, e.opts(page, ifMatch, true), func(st *state) error {
		current, _, err := st.Page(page)
		if err != nil {
			return err
		}
		backup, err := st.Backup(page)
		if err != nil {
			return err
		}
		if backup.Number == 0 {
			return fmt.Errorf("page %d has no layout backup (run cleanup first): %w", page, ErrNotFound)
		}
		// Regions made since (a paragraph split off a byline) leave the
		// articles that took them in.
		var gone []string
		for _, r := range current.Regions {
			if _, ok := region(backup, r.ID); !ok {
				gone = append(gone, r.ID)
			}
		}
		restored = backup
		st.PutPage(restored)
		return st.FollowMembership(page, magazine.Membership{Removed: gone})
	})
	return restored, out, err
}

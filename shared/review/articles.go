package review

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/magazine"
)

// ArticlePatch changes an article; nil fields are left alone.
type ArticlePatch struct {
	Title   *string              `json:"title,omitempty" maxLength:"300"`
	Regions []magazine.RegionRef `json:"regions,omitempty" maxItems:"5000" doc:"the article's regions in reading order (replaces the list)"`
	Images  []magazine.RegionRef `json:"images,omitempty" maxItems:"500" doc:"the article's pictures (replaces the list)"`
}

func newArticleID() string { return strings.ToLower(rand.Text()[:12]) }

// checkRefs makes sure every referenced region exists, naming the first
// that does not.
func checkRefs(st *state, refs []magazine.RegionRef) error {
	for _, r := range refs {
		p, _, err := st.Page(r.Page)
		if err != nil {
			return fmt.Errorf("region %s on page %d: %w", r.Region, r.Page, ErrNotFound)
		}
		if _, ok := region(p, r.Region); !ok {
			return fmt.Errorf("region %s on page %d no longer exists: %w", r.Region, r.Page, ErrInvalid)
		}
	}
	return nil
}

// claim removes refs from every other article: a region belongs to at most
// one article.
func claim(st *state, owner string, refs []magazine.RegionRef) error {
	arts, err := st.Articles()
	if err != nil {
		return err
	}
	for _, a := range arts {
		if a.ID == owner {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(a.Regions), func(r magazine.RegionRef) bool { return slices.Contains(refs, r) })
		if len(kept) != len(a.Regions) {
			a.Regions = kept
			st.PutArticle(a)
		}
	}
	return nil
}

// CreateArticle groups regions into a new article.
func (e *Editor) CreateArticle(ctx context.Context, issue, title string, regions []magazine.RegionRef) (magazine.Article, Outcome, error) {
	var art magazine.Article
	out, err := e.Change(ctx, issue, Options{}, func(st *state) error {
		if err := checkRefs(st, regions); err != nil {
			return err
		}
		art = magazine.Article{ID: newArticleID(), IssueID: issue, Title: strings.TrimSpace(title), Regions: slices.Clone(regions), Images: []magazine.RegionRef{}}
		if art.Title == "" {
			art.Title = "Untitled article"
		}
		if art.Regions == nil {
			art.Regions = []magazine.RegionRef{}
		}
		if err := claim(st, art.ID, regions); err != nil {
			return err
		}
		st.PutArticle(art)
		return nil
	})
	return art, out, err
}

// UpdateArticle renames an article or replaces its region or image list.
func (e *Editor) UpdateArticle(ctx context.Context, issue, id string, patch ArticlePatch) (magazine.Article, Outcome, error) {
	var art magazine.Article
	out, err := e.Change(ctx, issue, Options{}, func(st *state) error {
		a, err := article(st, id)
		if err != nil {
			return err
		}
		if patch.Title != nil {
			a.Title = strings.TrimSpace(*patch.Title)
		}
		if patch.Regions != nil {
			if err := checkRefs(st, patch.Regions); err != nil {
				return err
			}
			if err := claim(st, id, patch.Regions); err != nil {
				return err
			}
			a.Regions = slices.Clone(patch.Regions)
		}
		if patch.Images != nil {
			if err := checkRefs(st, patch.Images); err != nil {
				return err
			}
			a.Images = slices.Clone(patch.Images)
		}
		// An approved article that changes loses its approval when the
		// change is stored (followApproval).
		st.PutArticle(a)
		art = a
		return nil
	})
	return art, out, err
}

// DeleteArticle removes an article (its regions stay on their pages).
func (e *Editor) DeleteArticle(ctx context.Context, issue, id string) (Outcome, error) {
	return e.Change(ctx, issue, Options{}, func(st *state) error {
		if _, err := article(st, id); err != nil {
			return err
		}
		st.DeleteArticle(id)
		return nil
	})
}

// Approve approves an article with the region and image ids the reviewer
// saw. An id that no longer exists fails the approval, naming it; an image
// list that differs from the stored one (stale) is refused rather than
// written over it.
func (e *Editor) Approve(ctx context.Context, issue, id string, regions, images []magazine.RegionRef) (magazine.Article, Outcome, error) {
	var art magazine.Article
	out, err := e.Change(ctx, issue, Options{}, func(st *state) error {
		a, err := article(st, id)
		if err != nil {
			return err
		}
		if err := checkRefs(st, regions); err != nil {
			return err
		}
		if err := checkRefs(st, images); err != nil {
			return err
		}
		if images != nil && !slices.Equal(images, a.Images) {
			return fmt.Errorf("the image list changed since it was shown (%d stored, %d sent); reload the article: %w", len(a.Images), len(images), ErrConflict)
		}
		if err := claim(st, id, regions); err != nil {
			return err
		}
		a.Regions = slices.Clone(regions)
		a.Approved, a.ChangedSinceApproval = true, false
		st.approving = id
		st.PutArticle(a)
		art = a
		return nil
	})
	return art, out, err
}

func article(st *state, id string) (magazine.Article, error) {
	arts, err := st.Articles()
	if err != nil {
		return magazine.Article{}, err
	}
	for _, a := range arts {
		if a.ID == id {
			return a, nil
		}
	}
	return magazine.Article{}, fmt.Errorf("article %s: %w", id, ErrNotFound)
}

// Articles lists an issue's articles.
func (s *Service) Articles(ctx context.Context, issue string) ([]magazine.Article, error) {
	st := newState(s, ctx, issue)
	return st.Articles()
}

// ArticlesInOrder lists an issue's articles as the issue prints them, so a
// proposal's neighbours (which it may merge with) are next to it.
func (s *Service) ArticlesInOrder(ctx context.Context, issue string) ([]magazine.Article, error) {
	st := newState(s, ctx, issue)
	arts, err := st.Articles()
	if err != nil {
		return nil, err
	}
	pages := map[int]magazine.Page{}
	for _, a := range arts {
		if err := loadPages(st, a, pages); err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	magazine.InIssueOrder(arts, pages)
	return arts, nil
}

// ArticleText is an article's text in order: read-aloud regions only, and
// with descriptions the pictures' descriptions where they occur (a picture
// of the image list that is not among the regions where the page reads it).
func (s *Service) ArticleText(ctx context.Context, issue, id string, descriptions bool) (string, error) {
	return s.ArticleExport(ctx, issue, id, descriptions, magazine.FormatText)
}

// ArticleExport is an article's text in a format (magazine.ExportArticle):
// plain text, Markdown or HTML, tables as tables.
func (s *Service) ArticleExport(ctx context.Context, issue, id string, descriptions bool, format string) (string, error) {
	st := newState(s, ctx, issue)
	a, err := article(st, id)
	if err != nil {
		return "", err
	}
	pages := map[int]magazine.Page{}
	for _, ref := range append(slices.Clone(a.Regions), a.Images...) {
		if _, ok := pages[ref.Page]; ok {
			continue
		}
		p, _, err := st.Page(ref.Page)
		if err != nil {
			return "", err
		}
		pages[ref.Page] = p
	}
	return magazine.ExportArticle(a, pages, descriptions, format)
}

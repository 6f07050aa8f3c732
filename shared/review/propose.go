package review

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/store"
)

// proposalChunk is how many article writes one proposing change makes, so
// it stays inside one transaction's limit with the issue and undo records.
const proposalChunk = store.MaxTransactWrites - 10

// ProposeArticles replaces the issue's proposals (articles not yet
// accepted) with those magazine.ProposeArticles finds over regions no other
// article holds. A long issue is written in several changes: the old
// proposals go first, then the new ones in order.
func (s *Service) ProposeArticles(ctx context.Context, issue string) ([]magazine.Article, error) {
	return s.propose(ctx, issue, Options{})
}

// ProposeWhileIngesting is ProposeArticles for the ingest's last step, which
// stores the proposals before it marks the issue ready, so a reader who sees
// the issue ready sees its articles too.
func (s *Service) ProposeWhileIngesting(ctx context.Context, issue string) error {
	_, err := s.propose(ctx, issue, Options{Ingesting: true})
	return err
}

func (s *Service) propose(ctx context.Context, issue string, opts Options) ([]magazine.Article, error) {
	is, err := s.issueNow(ctx, issue)
	if err != nil {
		return nil, err
	}
	st := newState(s, ctx, issue)
	var pages []magazine.Page
	for n := 1; n <= is.PageCount; n++ {
		p, _, err := st.Page(n)
		if errors.Is(err, ErrNotFound) {
			continue // a page the ingest never stored
		}
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
	}
	arts, err := st.Articles()
	if err != nil {
		return nil, err
	}
	taken := map[magazine.RegionRef]bool{}
	var old []string
	for _, a := range arts {
		if a.Proposed {
			old = append(old, a.ID)
			continue
		}
		for _, r := range append(slices.Clone(a.Regions), a.Images...) {
			taken[r] = true
		}
	}
	var made []magazine.Article
	for _, p := range magazine.ProposeArticles(pages, func(r magazine.RegionRef) bool { return taken[r] }) {
		made = append(made, magazine.Article{ID: newArticleID(), IssueID: issue, Title: p.Title, Author: p.Author,
			Regions: p.Regions, Images: p.Images, Proposed: true})
	}
	for chunk := range slices.Chunk(old, proposalChunk) {
		if _, err := s.Change(ctx, issue, opts, func(st *state) error {
			if _, err := st.Articles(); err != nil {
				return err
			}
			for _, id := range chunk {
				st.DeleteArticle(id)
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	for chunk := range slices.Chunk(made, proposalChunk) {
		if _, err := s.Change(ctx, issue, opts, func(st *state) error {
			if _, err := st.Articles(); err != nil {
				return err
			}
			for _, a := range chunk {
				st.PutArticle(a)
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	if made == nil {
		made = []magazine.Article{}
	}
	return made, nil
}

// proposal is the proposed article id, or why it cannot be acted on.
func proposal(st *state, id string) (magazine.Article, error) {
	a, err := article(st, id)
	if err != nil {
		return a, err
	}
	if !a.Proposed {
		return a, fmt.Errorf("article %s (%q) is not a proposal (it was accepted or made by hand); edit it in the review instead: %w", id, a.Title, ErrConflict)
	}
	return a, nil
}

// AcceptProposal approves a proposal as it stands: it becomes an ordinary
// approved article.
func (e *Editor) AcceptProposal(ctx context.Context, issue, id string) (magazine.Article, Outcome, error) {
	var art magazine.Article
	out, err := e.Change(ctx, issue, Options{}, func(st *state) error {
		a, err := proposal(st, id)
		if err != nil {
			return err
		}
		if err := checkRefs(st, a.Regions); err != nil {
			return err
		}
		a.Proposed, a.Approved, a.ChangedSinceApproval = false, true, false
		st.approving = id
		st.PutArticle(a)
		art = a
		return nil
	})
	return art, out, err
}

// SplitProposal cuts a proposal in two before the region at: the first part
// keeps the id, the second is a new proposal titled by its own headline.
func (e *Editor) SplitProposal(ctx context.Context, issue, id string, at magazine.RegionRef) ([]magazine.Article, Outcome, error) {
	var both []magazine.Article
	out, err := e.Change(ctx, issue, Options{}, func(st *state) error {
		a, err := proposal(st, id)
		if err != nil {
			return err
		}
		pages, err := pagesOf(st, a)
		if err != nil {
			return err
		}
		first, second, err := magazine.SplitArticle(a, at, pages)
		if err != nil {
			return fmt.Errorf("%w: %w", err, ErrInvalid)
		}
		second.ID = newArticleID()
		st.PutArticle(first)
		st.PutArticle(second)
		both = []magazine.Article{first, second}
		return nil
	})
	return both, out, err
}

// MergeProposals joins a proposal with the proposal that follows it in the
// issue (no article between them): the first keeps its id and title.
func (e *Editor) MergeProposals(ctx context.Context, issue, id, next string) (magazine.Article, Outcome, error) {
	var art magazine.Article
	out, err := e.Change(ctx, issue, Options{}, func(st *state) error {
		a, err := proposal(st, id)
		if err != nil {
			return err
		}
		b, err := proposal(st, next)
		if err != nil {
			return err
		}
		arts, err := st.Articles()
		if err != nil {
			return err
		}
		pages := map[int]magazine.Page{}
		for _, x := range arts {
			if err := loadPages(st, x, pages); err != nil {
				return err
			}
		}
		merged, err := magazine.MergeArticles(a, b, arts, pages)
		if err != nil {
			return fmt.Errorf("%w: %w", err, ErrInvalid)
		}
		st.PutArticle(merged)
		st.DeleteArticle(b.ID)
		art = merged
		return nil
	})
	return art, out, err
}

// DissolveProposal removes a proposal; its regions stay on their pages,
// in no article.
func (e *Editor) DissolveProposal(ctx context.Context, issue, id string) (Outcome, error) {
	return e.Change(ctx, issue, Options{}, func(st *state) error {
		if _, err := proposal(st, id); err != nil {
			return err
		}
		st.DeleteArticle(id)
		return nil
	})
}

func pagesOf(st *state, a magazine.Article) (map[int]magazine.Page, error) {
	pages := map[int]magazine.Page{}
	return pages, loadPages(st, a, pages)
}

// loadPages adds the pages a's regions are on to pages.
func loadPages(st *state, a magazine.Article, pages map[int]magazine.Page) error {
	for _, r := range append(slices.Clone(a.Regions), a.Images...) {
		if _, ok := pages[r.Page]; ok {
			continue
		}
		p, _, err := st.Page(r.Page)
		if err != nil {
			return err
		}
		pages[r.Page] = p
	}
	return nil
}

// ProposalAction is one decision on a proposal (the API's and MCP's).
type ProposalAction struct {
	Action string              `json:"action"`
	At     *magazine.RegionRef `json:"at,omitempty"`
	With   string              `json:"with,omitempty"`
}

// ReviewProposal applies an action to a proposal and returns the articles
// it left (none after dissolve).
func (e *Editor) ReviewProposal(ctx context.Context, issue, id string, act ProposalAction) ([]magazine.Article, Outcome, error) {
	switch act.Action {
	case "accept":
		a, o, err := e.AcceptProposal(ctx, issue, id)
		return []magazine.Article{a}, o, err
	case "split":
		if act.At == nil {
			return nil, Outcome{}, fmt.Errorf("split needs at, the region the second part starts with: %w", ErrInvalid)
		}
		return e.SplitProposal(ctx, issue, id, *act.At)
	case "merge":
		if act.With == "" {
			return nil, Outcome{}, fmt.Errorf("merge needs with, the proposal right after this one: %w", ErrInvalid)
		}
		a, o, err := e.MergeProposals(ctx, issue, id, act.With)
		return []magazine.Article{a}, o, err
	case "dissolve":
		o, err := e.DissolveProposal(ctx, issue, id)
		return []magazine.Article{}, o, err
	}
	return nil, Outcome{}, fmt.Errorf("unknown action %q (accept, split, merge or dissolve): %w", act.Action, ErrInvalid)
}

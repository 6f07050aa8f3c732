package readaloud

import (
	"context"
	"fmt"
	"strings"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/speech/render"
)

// Issues reads an issue and its pages (issues.Repo satisfies it).
type Issues interface {
	Get(ctx context.Context, id string) (magazine.Issue, int64, error)
	Page(ctx context.Context, id string, n int) (magazine.Page, int64, error)
}

// Articles lists an issue's articles (review.Service satisfies it).
type Articles interface {
	Articles(ctx context.Context, issue string) ([]magazine.Article, error)
}

// Renders starts speech renders (render.Service satisfies it).
type Renders interface {
	Start(ctx context.Context, spec render.Spec) (render.Status, error)
}

// Service narrates approved articles: it turns an article, or every
// approved article of an issue, into a speech render.
type Service struct {
	issues   Issues
	articles Articles
	renders  Renders
}

// NewService returns a Service.
func NewService(issues Issues, articles Articles, renders Renders) *Service {
	return &Service{issues: issues, articles: articles, renders: renders}
}

// Listen is how a narration is asked for.
type Listen struct {
	VoiceID string
	// Descriptions reads each picture's description where it occurs.
	Descriptions bool
	// SkipTables leaves tables out.
	SkipTables bool
	Format     string // render.FormatMP3 or render.FormatM4B
	Speed      float64
	Check      *bool // the ear; nil follows Settings (ear_check)
}

func (l Listen) reading() magazine.Reading {
	return magazine.Reading{Descriptions: l.Descriptions, SkipTables: l.SkipTables}
}

// Read is an article with what it says aloud.
type Read struct {
	Article magazine.Article
	Parts   []Part
}

// loadIssue reads the issue (so an unknown one is ErrNotFound) and its articles.
func (s *Service) loadIssue(ctx context.Context, issue string) (magazine.Issue, []magazine.Article, error) {
	is, _, err := s.issues.Get(ctx, issue)
	if err != nil {
		return magazine.Issue{}, nil, err
	}
	arts, err := s.articles.Articles(ctx, issue)
	if err != nil {
		return magazine.Issue{}, nil, err
	}
	return is, arts, nil
}

// pages reads every page the articles are on.
func (s *Service) pages(ctx context.Context, issue string, arts ...magazine.Article) (map[int]magazine.Page, error) {
	pages := map[int]magazine.Page{}
	for _, a := range arts {
		for _, n := range PagesOf(a) {
			if _, ok := pages[n]; ok {
				continue
			}
			p, _, err := s.issues.Page(ctx, issue, n)
			if err != nil {
				return nil, err
			}
			pages[n] = p
		}
	}
	return pages, nil
}

// Article reads one article and what it says, approved or not.
func (s *Service) Article(ctx context.Context, issue, id string, descriptions bool) (Read, error) {
	return s.articleAs(ctx, issue, id, magazine.Reading{Descriptions: descriptions})
}

func (s *Service) articleAs(ctx context.Context, issue, id string, o magazine.Reading) (Read, error) {
	_, arts, err := s.loadIssue(ctx, issue)
	if err != nil {
		return Read{}, err
	}
	for _, a := range arts {
		if a.ID == id {
			pages, err := s.pages(ctx, issue, a)
			if err != nil {
				return Read{}, err
			}
			return Read{Article: a, Parts: Parts(a, pages, o)}, nil
		}
	}
	return Read{}, fmt.Errorf("%w: issue %s has no article %s", ErrNotFound, issue, id)
}

// Approved reads an approved (or proposed) article; one that is neither, or changed
// since it was, is ErrNotApproved saying which.
func (s *Service) Approved(ctx context.Context, issue, id string, descriptions bool) (Read, error) {
	return s.approvedAs(ctx, issue, id, magazine.Reading{Descriptions: descriptions})
}

func (s *Service) approvedAs(ctx context.Context, issue, id string, o magazine.Reading) (Read, error) {
	r, err := s.articleAs(ctx, issue, id, o)
	if err != nil {
		return Read{}, err
	}
	return r, CheckApproved(r.Article)
}

// CheckApproved says why an article may not be listened to, or nil.
func CheckApproved(a magazine.Article) error {
	switch {
	case a.Approved, a.Proposed: // a proposal is heard at once, before review
		return nil
	case a.ChangedSinceApproval:
		return fmt.Errorf("%w: article %s (%q) changed since it was approved; review and approve it again to listen to it", ErrNotApproved, a.ID, a.Title)
	}
	return fmt.Errorf("%w: article %s (%q) is not approved; approve it to listen to it", ErrNotApproved, a.ID, a.Title)
}

// ListenArticle starts a render of one approved or proposed article: its title as the
// first sentence, then its text, with the byline as the file's artist.
func (s *Service) ListenArticle(ctx context.Context, issue, id string, l Listen) (render.Status, error) {
	r, err := s.approvedAs(ctx, issue, id, l.reading())
	if err != nil {
		return render.Status{}, err
	}
	text := Narration(r.Article.Title, r.Parts)
	return s.renders.Start(ctx, render.Spec{Text: text, VoiceID: l.VoiceID, Format: l.Format, Speed: l.Speed, Check: l.Check,
		Title: r.Article.Title, Artist: Byline(r.Parts)})
}

// ListenIssue starts one render of every approved or proposed article of the issue, a
// chapter each (titled with the article's title) in the order the issue
// prints them. An issue without an approved article is ErrNotApproved.
func (s *Service) ListenIssue(ctx context.Context, issue string, l Listen) (render.Status, error) {
	is, arts, err := s.loadIssue(ctx, issue)
	if err != nil {
		return render.Status{}, err
	}
	var approved []magazine.Article
	for _, a := range arts {
		if CheckApproved(a) == nil {
			approved = append(approved, a)
		}
	}
	if len(approved) == 0 {
		return render.Status{}, fmt.Errorf("%w: issue %s has no approved or proposed article (of %d); approve one to listen to the issue", ErrNotApproved, issue, len(arts))
	}
	pages, err := s.pages(ctx, issue, approved...)
	if err != nil {
		return render.Status{}, err
	}
	spec := render.Spec{VoiceID: l.VoiceID, Format: l.Format, Speed: l.Speed, Check: l.Check, Title: is.Title}
	var authors []string
	for _, a := range IssueOrder(approved, pages) {
		parts := Parts(a, pages, l.reading())
		spec.Chapters = append(spec.Chapters, render.Chapter{Title: a.Title, Text: Narration(a.Title, parts)})
		if by := Byline(parts); by != "" && !containsFold(authors, by) {
			authors = append(authors, by)
		}
	}
	spec.Artist = clip(strings.Join(authors, ", "), maxArtist)
	return s.renders.Start(ctx, spec)
}

// maxArtist bounds the artist tag of an issue with many authors.
const maxArtist = 300

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// At the last whole name that fits; a single name too long is cut at
	// a character boundary.
	if cut := strings.LastIndex(s[:n], ", "); cut > 0 {
		return s[:cut]
	}
	return strings.ToValidUTF8(s[:n], "")
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

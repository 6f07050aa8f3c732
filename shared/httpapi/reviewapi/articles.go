package reviewapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/review"
)

// ArticleOut is one article after a change.
type ArticleOut struct {
	Body struct {
		Article magazine.Article `json:"article"`
		review.Outcome
	}
}

// ArticleListOut is an issue's articles.
type ArticleListOut struct {
	Body struct {
		Articles []magazine.Article `json:"articles"`
	}
}

// ArticleTextOut is an article's text.
type ArticleTextOut struct {
	Body struct {
		Text string `json:"text"`
	}
}

func articleOut(a magazine.Article, o review.Outcome) *ArticleOut {
	out := &ArticleOut{}
	out.Body.Article, out.Body.Outcome = a, o
	return out
}

const articlesPath = "/api/magazine/{doc}/articles"

func listArticles(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(huma.Operation{OperationID: "list-articles", Method: http.MethodGet, Path: articlesPath, Summary: "An issue's articles, in the order the issue prints them", Tags: tags},
		func(ctx context.Context, in *DocPath) (*ArticleListOut, error) {
			arts, err := ed.ArticlesInOrder(ctx, in.Doc)
			if err != nil {
				return nil, err
			}
			out := &ArticleListOut{}
			out.Body.Articles = append([]magazine.Article{}, arts...)
			return out, nil
		})
}

func createArticle(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(huma.Operation{OperationID: "create-article", Method: http.MethodPost, Path: articlesPath, Summary: "Group regions into a new article",
		Tags: tags, DefaultStatus: http.StatusCreated, MaxBodyBytes: 256 << 10},
		func(ctx context.Context, in *struct {
			DocPath
			Body struct {
				Title   string               `json:"title,omitempty" maxLength:"300"`
				Regions []magazine.RegionRef `json:"regions,omitempty" maxItems:"5000"`
			}
		}) (*ArticleOut, error) {
			a, o, err := ed.CreateArticle(ctx, in.Doc, in.Body.Title, in.Body.Regions)
			if err != nil {
				return nil, err
			}
			return articleOut(a, o), nil
		})
}

func updateArticle(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(huma.Operation{OperationID: "update-article", Method: http.MethodPatch, Path: articlesPath + "/{article}",
		Summary: "Rename an article, or replace its ordered regions or its image list", Tags: tags, MaxBodyBytes: 256 << 10},
		func(ctx context.Context, in *struct {
			ArticlePath
			Body review.ArticlePatch
		}) (*ArticleOut, error) {
			a, o, err := ed.UpdateArticle(ctx, in.Doc, in.Article, in.Body)
			if err != nil {
				return nil, err
			}
			return articleOut(a, o), nil
		})
}

func deleteArticle(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(huma.Operation{OperationID: "delete-article", Method: http.MethodDelete, Path: articlesPath + "/{article}",
		Summary: "Delete an article (its regions stay)", Tags: tags},
		func(ctx context.Context, in *ArticlePath) (*OutcomeOut, error) {
			o, err := ed.DeleteArticle(ctx, in.Doc, in.Article)
			if err != nil {
				return nil, err
			}
			return &OutcomeOut{Body: o}, nil
		})
}

func approveArticle(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(huma.Operation{OperationID: "approve-article", Method: http.MethodPost, Path: articlesPath + "/{article}/approve",
		Summary: "Approve with the region and image ids shown; a vanished id fails naming it, a stale image list is refused", Tags: tags, MaxBodyBytes: 256 << 10},
		func(ctx context.Context, in *struct {
			ArticlePath
			Body struct {
				Regions []magazine.RegionRef `json:"regions" maxItems:"5000"`
				Images  []magazine.RegionRef `json:"images" maxItems:"500"`
			}
		}) (*ArticleOut, error) {
			a, o, err := ed.Approve(ctx, in.Doc, in.Article, in.Body.Regions, in.Body.Images)
			if err != nil {
				return nil, err
			}
			return articleOut(a, o), nil
		})
}

func articleText(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(huma.Operation{OperationID: "article-text", Method: http.MethodGet, Path: articlesPath + "/{article}/text",
		Summary: "The article's text in order; descriptions=1 adds figure descriptions where the figures occur; format=markdown or html writes tables as tables", Tags: tags},
		func(ctx context.Context, in *struct {
			ArticlePath
			// An int with a range, not an enum: huma checks an enum on an
			// integer query parameter against strings, refusing every value.
			Descriptions int    `query:"descriptions" minimum:"0" maximum:"1" required:"false" doc:"1: each picture's description is read where the picture occurs; 0 (default): pictures are silent"`
			Format       string `query:"format" enum:"text,markdown,html" default:"text" required:"false" doc:"text (default; a table a row a line, cells a tab apart), markdown (headings and pipe tables) or html (escaped; tables with thead, rowspan and colspan)"`
		}) (*ArticleTextOut, error) {
			text, err := ed.ArticleExport(ctx, in.Doc, in.Article, in.Descriptions == 1, in.Format)
			if err != nil {
				return nil, err
			}
			out := &ArticleTextOut{}
			out.Body.Text = text
			return out, nil
		})
}

// ArticlesOut is the articles a change made or left, with its outcome.
type ArticlesOut struct {
	Body struct {
		Articles []magazine.Article `json:"articles"`
		review.Outcome
	}
}

func proposeArticles(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(huma.Operation{OperationID: "propose-articles", Method: http.MethodPost, Path: "/api/magazine/{doc}/propose-articles",
		Summary: "Propose the issue's articles afresh from its headlines (replaces the proposals; accepted and hand-made articles stay)", Tags: tags},
		func(ctx context.Context, in *DocPath) (*ArticlesOut, error) {
			arts, err := ed.ProposeArticles(ctx, in.Doc)
			if err != nil {
				return nil, err
			}
			out := &ArticlesOut{}
			out.Body.Articles = arts
			return out, nil
		})
}

// ProposalAction is what the user does with a proposed article.
type ProposalAction struct {
	Action string              `json:"action" enum:"accept,split,merge,dissolve" doc:"accept: approve the proposal as it stands; split: cut it in two before the region at; merge: join it with the proposal that follows it (with); dissolve: remove it, its regions stay in no article"`
	At     *magazine.RegionRef `json:"at,omitempty" doc:"split: the region the second part starts with"`
	With   string              `json:"with,omitempty" pattern:"^[a-z0-9]{4,40}$" doc:"merge: the id of the proposal right after this one"`
}

func reviewProposal(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(huma.Operation{OperationID: "review-proposal", Method: http.MethodPost, Path: articlesPath + "/{article}/proposal",
		Summary: "Accept, split, merge or dissolve a proposed article", Tags: tags},
		func(ctx context.Context, in *struct {
			ArticlePath
			Body ProposalAction
		}) (*ArticlesOut, error) {
			arts, o, err := ed.ReviewProposal(ctx, in.Doc, in.Article, review.ProposalAction(in.Body))
			if err != nil {
				return nil, err
			}
			out := &ArticlesOut{}
			out.Body.Articles, out.Body.Outcome = arts, o
			return out, nil
		})
}

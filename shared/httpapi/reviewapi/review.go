// Package reviewapi is the region review operations over HTTP: every region
// edit with its undo token, reading order by hand or automatic, cleanup on
// demand with a backup, articles with approval, and figure descriptions (by
// hand, or by the vision engine as a background job).
package reviewapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pipeline/visionocr"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/review"
)

// PagePath names a page; If-Match (the page's version) makes a stale edit
// answer 409 instead of applying to a newer page.
type PagePath struct {
	Doc     string `path:"doc" pattern:"^[a-z0-9]{8,40}$" doc:"issue id"`
	Page    int    `path:"page" minimum:"1" maximum:"100000"`
	IfMatch string `header:"If-Match" required:"false" doc:"the page version the edit was made on"`
}

func (p PagePath) version() (int64, error) {
	v := strings.Trim(strings.TrimPrefix(p.IfMatch, "W/"), `"`)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, huma.Error400BadRequest("If-Match must be the page version number")
	}
	return n, nil
}

// RegionPath names a region.
type RegionPath struct {
	PagePath
	BlockID string `path:"block_id" pattern:"^[A-Za-z0-9_.-]{1,64}$"`
}

// DocPath names an issue.
type DocPath struct {
	Doc string `path:"doc" pattern:"^[a-z0-9]{8,40}$"`
}

// ArticlePath names an article.
type ArticlePath struct {
	DocPath
	Article string `path:"article" pattern:"^[a-z0-9]{4,40}$"`
}

// RegionOut is one region after an edit.
type RegionOut struct {
	Body struct {
		Region magazine.Region `json:"region"`
		review.Outcome
	}
}

// SplitOut is a split's two parts.
type SplitOut struct {
	Body struct {
		Regions []magazine.Region `json:"regions"`
		review.Outcome
	}
}

// MergeOut is a merge's survivor and the id merged away.
type MergeOut struct {
	Body struct {
		Region  magazine.Region `json:"region"`
		Removed string          `json:"removed"`
		review.Outcome
	}
}

// PageOut is a page after an order or restore.
type PageOut struct {
	Body struct {
		Page magazine.Page `json:"page"`
		review.Outcome
	}
}

// FixOrderOut says which pages were re-ordered and which left alone.
type FixOrderOut struct {
	Body struct {
		Changed []int `json:"changed"`
		Skipped []int `json:"skipped" doc:"hand-ordered pages, left alone"`
		review.Outcome
	}
}

// CleanupOut lists what cleanup re-typed.
type CleanupOut struct {
	Body struct {
		Changes []magazine.Change `json:"changes"`
		review.Outcome
	}
}

// OutcomeOut is an edit's undo state.
type OutcomeOut struct{ Body review.Outcome }

// Module is region review and articles: it shares the magazine feature's
// issue records and page media (crops, re-reading an area).
// Figure descriptions are its job kind: they run on the job pool or the
// worker Lambda with the OCR chain's vision engines.
func Module(d *platform.Deps) (platform.Module, error) {
	steps := visionocr.NewSteps(d)
	ed := review.NewEditor(review.New(d.Table, d.Clock), steps.Pages)
	describer := review.NewDescriber(ed, d.Jobs, steps.Pages, describeEngines(steps.Pages))
	return platform.Module{
		Name:       "review",
		Operations: append(Operations(ed), DescribeOperations(describer)...),
		Jobs:       map[string]jobs.Handler{review.DescribeJobKind: describer.Job},
	}, nil
}

// DescribeOperations lists the operations that start description jobs.
func DescribeOperations(d *review.Describer) []httpapi.Operation {
	return []httpapi.Operation{describeImage(d), describeArticle(d), describeIssue(d)}
}

// Operations lists the review operations.
func Operations(ed *review.Editor) []httpapi.Operation {
	return []httpapi.Operation{
		patchRegion(ed),
		editTable(ed),
		patchImage(ed),
		deleteRegion(ed),
		splitRegion(ed),
		mergeRegionNext(ed),
		addRegion(ed),
		bulkRegions(ed),
		setPageOrder(ed),
		autoPageOrder(ed),
		fixReadingOrder(ed),
		cleanupPage(ed),
		restorePageBackup(ed),
		recognizePage(ed),
		pageView(ed),
		undoChange(ed),
		listArticles(ed),
		createArticle(ed),
		updateArticle(ed),
		deleteArticle(ed),
		approveArticle(ed),
		proposeArticles(ed),
		reviewProposal(ed),
		articleText(ed),
	}
}

const regionsPath = "/api/magazine/{doc}/pages/{page}/regions"

// reviewOp gives an edit its tag and a body limit.
func reviewOp(op huma.Operation) huma.Operation {
	op.Tags = tags
	if op.MaxBodyBytes == 0 {
		op.MaxBodyBytes = 256 << 10
	}
	return op
}

var tags = []string{"review"}

func patchRegion(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "patch-region", Method: http.MethodPatch, Path: regionsPath + "/{block_id}",
		Summary: "Move or resize a region (optionally re-reading the corrected area), edit its text, kind or description; box and kind changes return an undo token"}),
		func(ctx context.Context, in *struct {
			RegionPath
			Body review.RegionPatch
		}) (*RegionOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			r, o, err := ed.UpdateRegion(ctx, in.Doc, in.Page, in.BlockID, in.Body, v)
			if err != nil {
				return nil, err
			}
			out := &RegionOut{}
			out.Body.Region, out.Body.Outcome = r, o
			return out, nil
		})
}

func editTable(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "edit-table", Method: http.MethodPatch, Path: regionsPath + "/{block_id}/table",
		Summary: "Change a table region's cells: set a cell's text, insert or delete a row or column, set how many rows are headings, or set the caption; " +
			"the region's text follows its cells; returns the region and an undo token. A region that is not a table, or a position outside the grid, answers 422"}),
		func(ctx context.Context, in *struct {
			RegionPath
			Body magazine.TableEdit
		}) (*RegionOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			r, o, err := ed.EditTable(ctx, in.Doc, in.Page, in.BlockID, in.Body, v)
			if err != nil {
				return nil, err
			}
			out := &RegionOut{}
			out.Body.Region, out.Body.Outcome = r, o
			return out, nil
		})
}

func deleteRegion(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "delete-region", Method: http.MethodDelete, Path: regionsPath + "/{block_id}",
		Summary: "Delete a region and its membership in every article; a second delete answers 404"}),
		func(ctx context.Context, in *RegionPath) (*OutcomeOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			o, err := ed.DeleteRegions(ctx, in.Doc, in.Page, []string{in.BlockID}, v)
			if err != nil {
				return nil, err
			}
			return &OutcomeOut{Body: o}, nil
		})
}

func splitRegion(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "split-region", Method: http.MethodPost, Path: regionsPath + "/{block_id}/split",
		Summary: "Split a text region at a character offset (the cursor); article membership follows"}),
		func(ctx context.Context, in *struct {
			RegionPath
			Body struct {
				Offset int `json:"offset" minimum:"1" doc:"character offset of the cursor"`
			}
		}) (*SplitOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			parts, o, err := ed.Split(ctx, in.Doc, in.Page, in.BlockID, in.Body.Offset, v)
			if err != nil {
				return nil, err
			}
			out := &SplitOut{}
			out.Body.Regions, out.Body.Outcome = parts, o
			return out, nil
		})
}

func mergeRegionNext(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "merge-region-next", Method: http.MethodPost, Path: regionsPath + "/{block_id}/merge-next",
		Summary: "Merge the region read next into this one"}),
		func(ctx context.Context, in *RegionPath) (*MergeOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			r, removed, o, err := ed.MergeNext(ctx, in.Doc, in.Page, in.BlockID, v)
			if err != nil {
				return nil, err
			}
			out := &MergeOut{}
			out.Body.Region, out.Body.Removed, out.Body.Outcome = r, removed, o
			return out, nil
		})
}

func addRegion(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "add-region", Method: http.MethodPost, Path: regionsPath,
		Summary: "Draw a new box; a text box is read from the render", DefaultStatus: http.StatusCreated}),
		func(ctx context.Context, in *struct {
			PagePath
			Body struct {
				BBox magazine.BBox `json:"bbox"`
				Kind magazine.Kind `json:"kind"`
			}
		}) (*RegionOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			r, o, err := ed.AddRegion(ctx, in.Doc, in.Page, in.Body.BBox, in.Body.Kind, v)
			if err != nil {
				return nil, err
			}
			out := &RegionOut{}
			out.Body.Region, out.Body.Outcome = r, o
			return out, nil
		})
}

func bulkRegions(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "bulk-regions", Method: http.MethodPost, Path: regionsPath + "/bulk",
		Summary: "Delete or re-type a selected set of regions under one undo token"}),
		func(ctx context.Context, in *struct {
			PagePath
			Body struct {
				IDs    []string      `json:"ids" minItems:"1" maxItems:"1000"`
				Action string        `json:"action" enum:"delete,set-kind"`
				Kind   magazine.Kind `json:"kind,omitempty"`
			}
		}) (*OutcomeOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			var o review.Outcome
			if in.Body.Action == "delete" {
				o, err = ed.DeleteRegions(ctx, in.Doc, in.Page, in.Body.IDs, v)
			} else {
				o, err = ed.SetKinds(ctx, in.Doc, in.Page, in.Body.IDs, in.Body.Kind, v)
			}
			if err != nil {
				return nil, err
			}
			return &OutcomeOut{Body: o}, nil
		})
}

func setPageOrder(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "set-page-order", Method: http.MethodPut, Path: "/api/magazine/{doc}/pages/{page}/order",
		Summary: "Set the reading order by hand (ids in order: typed positions or a click sequence); the page becomes hand-ordered"}),
		func(ctx context.Context, in *struct {
			PagePath
			Body struct {
				IDs []string `json:"ids" minItems:"1" maxItems:"5000"`
			}
		}) (*PageOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			p, o, err := ed.SetOrder(ctx, in.Doc, in.Page, in.Body.IDs, v)
			if err != nil {
				return nil, err
			}
			out := &PageOut{}
			out.Body.Page, out.Body.Outcome = p, o
			return out, nil
		})
}

func autoPageOrder(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "auto-page-order", Method: http.MethodDelete, Path: "/api/magazine/{doc}/pages/{page}/order",
		Summary: "Automatic order: recompute the page's reading order and unlock it"}),
		func(ctx context.Context, in *PagePath) (*PageOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			p, o, err := ed.AutoOrder(ctx, in.Doc, in.Page, v)
			if err != nil {
				return nil, err
			}
			out := &PageOut{}
			out.Body.Page, out.Body.Outcome = p, o
			return out, nil
		})
}

func fixReadingOrder(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "fix-reading-order", Method: http.MethodPost, Path: "/api/magazine/{doc}/fix-order",
		Summary: "Fix reading order: re-read the pages' order without OCR, skipping hand-ordered pages; no page list (no body, {} or no pages) fixes the whole issue"}),
		func(ctx context.Context, in *struct {
			DocPath
			Body *struct {
				Pages []int `json:"pages,omitempty" minItems:"1" maxItems:"500" doc:"page numbers; without them, every page of the issue"`
			} `required:"false"`
		}) (*FixOrderOut, error) {
			var pages []int
			if in.Body != nil {
				pages = in.Body.Pages
			}
			changed, skipped, o, err := ed.FixOrder(ctx, in.Doc, pages)
			if err != nil {
				return nil, err
			}
			out := &FixOrderOut{}
			out.Body.Changed, out.Body.Skipped, out.Body.Outcome = append([]int{}, changed...), append([]int{}, skipped...), o
			return out, nil
		})
}

func cleanupPage(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "cleanup-page", Method: http.MethodPost, Path: "/api/magazine/{doc}/pages/{page}/cleanup",
		Summary: "Clean up boxes on demand (a layout backup is taken first)"}),
		func(ctx context.Context, in *PagePath) (*CleanupOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			ch, o, err := ed.Cleanup(ctx, in.Doc, in.Page, v)
			if err != nil {
				return nil, err
			}
			out := &CleanupOut{}
			out.Body.Changes, out.Body.Outcome = append([]magazine.Change{}, ch...), o
			return out, nil
		})
}

func restorePageBackup(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "restore-page-backup", Method: http.MethodPost, Path: "/api/magazine/{doc}/pages/{page}/cleanup/restore",
		Summary: "Restore the layout saved before the last cleanup on demand"}),
		func(ctx context.Context, in *PagePath) (*PageOut, error) {
			v, err := in.version()
			if err != nil {
				return nil, err
			}
			p, o, err := ed.RestoreBackup(ctx, in.Doc, in.Page, v)
			if err != nil {
				return nil, err
			}
			out := &PageOut{}
			out.Body.Page, out.Body.Outcome = p, o
			return out, nil
		})
}

func undoChange(ed *review.Editor) httpapi.Operation {
	return httpapi.Op(reviewOp(huma.Operation{OperationID: "undo", Method: http.MethodPost, Path: "/api/magazine/{doc}/undo",
		Summary: "Undo the last change with its token; 409 when anything else changed since"}),
		func(ctx context.Context, in *struct {
			DocPath
			Body struct {
				Token string `json:"token" minLength:"1" maxLength:"512"`
			}
		}) (*OutcomeOut, error) {
			o, err := ed.Undo(ctx, in.Doc, in.Body.Token)
			if err != nil {
				return nil, err
			}
			return &OutcomeOut{Body: o}, nil
		})
}

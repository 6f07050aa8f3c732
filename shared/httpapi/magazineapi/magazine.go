// Package magazineapi is the magazine feature's HTTP operations: upload,
// progress and live preview, and reading issues, pages, renders and crops.
package magazineapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"reflect"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
)

// IssueView is an issue with each page's progress.
type IssueView struct {
	magazine.Issue
	Pages []issues.Step `json:"pages"`
}

// IssueOutput answers GET /api/magazine/{doc}; polled with If-None-Match.
type IssueOutput struct {
	ETag string `header:"ETag"`
	Body IssueView
}

// IssueIDPath names an issue.
type IssueIDPath struct {
	ID          string `path:"doc" pattern:"^[a-z0-9]{8,40}$" doc:"issue id"`
	IfNoneMatch string `header:"If-None-Match" required:"false"`
}

// PagePath names a page.
type PagePath struct {
	ID          string `path:"doc" pattern:"^[a-z0-9]{8,40}$"`
	Page        int    `path:"page" minimum:"1" maximum:"100000"`
	IfNoneMatch string `header:"If-None-Match" required:"false"`
}

// UploadForm is POST /api/magazine's multipart body.
type UploadForm struct {
	File  huma.FormFile `form:"file" contentType:"application/pdf" required:"true" doc:"the magazine PDF"`
	Title string        `form:"title" required:"false" maxLength:"200"`
}

// UploadInput is POST /api/magazine.
type UploadInput struct {
	RawBody huma.MultipartFormFiles[UploadForm]
}

// CreatedIssueOutput answers an upload.
type CreatedIssueOutput struct {
	Status int
	Body   magazine.Issue
}

// PresignRequest is POST /api/magazine/uploads.
type PresignRequest struct {
	Body struct {
		Title    string `json:"title,omitempty" maxLength:"200"`
		Filename string `json:"filename" minLength:"1" maxLength:"255"`
		Size     int64  `json:"size" minimum:"1" doc:"bytes the browser will upload"`
	}
}

// PresignOutput tells the browser where and how to send the PDF: a
// multipart form POSTed to upload_url with every field of fields, then the
// file last as "file". The storage server refuses a file over the size
// limit, so nothing larger is stored.
type PresignOutput struct {
	Status int
	Body   struct {
		Issue       magazine.Issue    `json:"issue"`
		UploadURL   string            `json:"upload_url"`
		Method      string            `json:"method" enum:"POST" doc:"POST: a multipart form of fields, then the file"`
		Fields      map[string]string `json:"fields" doc:"form fields to send, in any order, before the file"`
		ContentType string            `json:"content_type"`
		MaxBytes    int64             `json:"max_bytes" doc:"the largest file the storage server accepts"`
		ExpiresAt   time.Time         `json:"expires_at"`
	}
}

// IssueListOutput lists issues.
type IssueListOutput struct {
	Body struct {
		Issues []magazine.Issue `json:"issues"`
		// Upload says how this server takes PDFs: "form" (POST /api/magazine,
		// local mode) or "presigned" (POST /api/magazine/uploads, then POST
		// the form it answers to the storage server; AWS mode).
		Upload string `json:"upload" enum:"form,presigned"`
	}
}

// PageSummary is one row of a page list.
type PageSummary struct {
	Number   int     `json:"number"`
	Width    float64 `json:"width"`
	Height   float64 `json:"height"`
	Step     string  `json:"step"`
	Engine   string  `json:"engine,omitempty"`
	Error    string  `json:"error,omitempty"`
	Regions  int     `json:"regions"`
	ThumbURL string  `json:"thumb_url,omitempty"`
}

// PageListOutput lists an issue's pages.
type PageListOutput struct {
	Body struct {
		Pages []PageSummary `json:"pages"`
	}
}

// PageView is a page with a link to its render.
type PageView struct {
	magazine.Page
	Version  int64  `json:"version" doc:"send as If-Match with an edit to refuse it (409) if the page changed since"`
	ImageURL string `json:"image_url,omitempty"`
}

// PreviewOutput is a page's live preview: server-built, escaped HTML.
type PreviewOutput struct {
	ETag string `header:"ETag"`
	Body struct {
		Page     int    `json:"page"`
		Step     string `json:"step"`
		Engine   string `json:"engine,omitempty"`
		HTML     string `json:"html"`
		ImageURL string `json:"image_url,omitempty"`
	}
}

// RedirectOutput sends the browser to a short-lived blob URL.
type RedirectOutput struct {
	Status   int
	Location string `header:"Location"`
}

// CropPath names a picture region.
type CropPath struct {
	ID     string `path:"doc" pattern:"^[a-z0-9]{8,40}$"`
	Page   int    `path:"page" minimum:"1" maximum:"100000"`
	Region string `path:"region" pattern:"^[A-Za-z0-9_.-]{1,64}$"`
}

// Operations lists the magazine operations over the issues service.
func Operations(svc *issues.Service) []httpapi.Operation {
	return []httpapi.Operation{
		uploadIssue(svc), presignUpload(svc), listIssues(svc), getIssue(svc), listPages(svc),
		getPage(svc), getPreview(svc),
		redirect(svc, "get-page-image", "/api/magazine/{doc}/pages/{page}/image", "The page render (redirect to a short-lived URL)", issues.Render),
		redirect(svc, "get-page-thumbnail", "/api/magazine/{doc}/pages/{page}/thumbnail", "The page thumbnail (redirect to a short-lived URL)", issues.Thumbnail),
		cropRedirect(svc), refineFigures(svc), cancelIngest(svc), deleteIssue(svc), renameIssue(svc),
	}
}

var tags = []string{"magazine"}

func uploadIssue(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "upload-issue", Method: http.MethodPost, Path: "/api/magazine",
		Summary:       "Upload a magazine PDF and start ingest (local mode; in AWS use /api/magazine/uploads)",
		Tags:          tags,
		MaxBodyBytes:  svc.Limits.MaxBytes + 1<<20,
		DefaultStatus: http.StatusAccepted,
	}, func(ctx context.Context, in *UploadInput) (*CreatedIssueOutput, error) {
		form := in.RawBody.Data()
		is, err := svc.Upload(ctx, issues.Title(form.Title, form.File.Filename), form.File)
		return &CreatedIssueOutput{Status: http.StatusAccepted, Body: is}, err
	})
}

func presignUpload(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "presign-issue-upload", Method: http.MethodPost, Path: "/api/magazine/uploads",
		Summary:      "Create an issue and a presigned upload form for its PDF, bounded by the size limit; the upload starts ingest (AWS mode)",
		Tags:         tags,
		MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *PresignRequest) (*PresignOutput, error) {
		grant, err := svc.PresignUpload(ctx, issues.Title(in.Body.Title, in.Body.Filename), in.Body.Size)
		if err != nil {
			return nil, err
		}
		out := &PresignOutput{Status: http.StatusCreated}
		out.Body.Issue, out.Body.UploadURL, out.Body.Method = grant.Issue, grant.URL, http.MethodPost
		out.Body.Fields, out.Body.ContentType, out.Body.ExpiresAt = grant.Fields, grant.ContentType, grant.ExpiresAt
		out.Body.MaxBytes = svc.Limits.MaxBytes
		return out, nil
	})
}

func listIssues(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "list-issues", Method: http.MethodGet, Path: "/api/magazine",
		Summary: "List issues, newest first", Tags: tags,
	}, func(ctx context.Context, _ *struct{}) (*IssueListOutput, error) {
		list, err := svc.Repo.List(ctx)
		out := &IssueListOutput{}
		out.Body.Issues = append([]magazine.Issue{}, list...)
		out.Body.Upload = svc.UploadMode()
		return out, err
	})
}

func getIssue(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-issue", Method: http.MethodGet, Path: "/api/magazine/{doc}",
		Summary: "An issue with status, progress (pages done of total, current step) and errors per page; poll with If-None-Match",
		Tags:    tags,
	}, func(ctx context.Context, in *IssueIDPath) (*IssueOutput, error) {
		is, steps, err := svc.Progress(ctx, in.ID)
		if err != nil {
			return nil, err
		}
		view := IssueView{Issue: is, Pages: steps}
		etag, err := etagOf(view)
		if err != nil {
			return nil, err
		}
		if in.IfNoneMatch == etag {
			return nil, huma.Status304NotModified()
		}
		return &IssueOutput{ETag: etag, Body: view}, nil
	})
}

func listPages(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "list-pages", Method: http.MethodGet, Path: "/api/magazine/{doc}/pages",
		Summary: "An issue's pages with their step, engine and thumbnail link", Tags: tags,
	}, func(ctx context.Context, in *IssueIDPath) (*PageListOutput, error) {
		pages, err := svc.Pages(ctx, in.ID)
		if err != nil {
			return nil, err
		}
		out := &PageListOutput{}
		out.Body.Pages = []PageSummary{}
		for _, p := range pages {
			s := PageSummary{Number: p.Number, Width: p.Width, Height: p.Height, Step: p.Step, Engine: p.Engine, Error: p.Error, Regions: len(p.Regions)}
			if s.ThumbURL, err = svc.MediaURL(ctx, p.ThumbKey); err != nil {
				return nil, err
			}
			out.Body.Pages = append(out.Body.Pages, s)
		}
		return out, nil
	})
}

// getPage is the review screen's hot read: the page's stored JSON is passed
// on without decoding, with the version and the render link added.
func getPage(svc *issues.Service) httpapi.Operation {
	pageSchema := func(api huma.API) *huma.Schema {
		return api.OpenAPI().Components.Schemas.Schema(reflect.TypeOf(PageView{}), true, "PageView")
	}
	return func(api huma.API, log *slog.Logger) {
		httpapi.Op(huma.Operation{
			OperationID: "get-page", Method: http.MethodGet, Path: "/api/magazine/{doc}/pages/{page}",
			Summary: "A page: regions (kind, bbox, text, original_text), reading order, engine, version, render link", Tags: tags,
			Responses: map[string]*huma.Response{"200": {
				Description: "The page",
				Content:     map[string]*huma.MediaType{"application/json": {Schema: pageSchema(api)}},
			}},
		}, func(ctx context.Context, in *PagePath) (*RawPageOutput, error) {
			raw, version, err := svc.Repo.PageJSON(ctx, in.ID, in.Page)
			if err != nil {
				return nil, err
			}
			etag := fmt.Sprintf(`W/"v%d"`, version)
			if in.IfNoneMatch == etag {
				return nil, huma.Status304NotModified()
			}
			imageURL := ""
			if bytes.Contains(raw, []byte(`"render_key":"`)) {
				if imageURL, err = svc.MediaURL(ctx, issues.RenderKey(in.ID, in.Page)); err != nil {
					return nil, err
				}
			}
			body, err := withFields(raw, version, imageURL)
			return &RawPageOutput{ETag: etag, ContentType: "application/json", Body: body}, err
		})(api, log)
	}
}

func getPreview(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-page-preview", Method: http.MethodGet, Path: "/api/magazine/{doc}/pages/{page}/preview",
		Summary: fmt.Sprintf("The live preview of a page: escaped HTML, pictures as placeholders, at most %d lines; poll with If-None-Match", magazine.PreviewLineBudget),
		Tags:    tags,
	}, func(ctx context.Context, in *PagePath) (*PreviewOutput, error) {
		p, _, err := svc.Repo.Page(ctx, in.ID, in.Page)
		if err != nil {
			return nil, err
		}
		out := &PreviewOutput{}
		out.Body.Page, out.Body.Step, out.Body.Engine = p.Number, p.Step, p.Engine
		out.Body.HTML = magazine.PreviewHTML(p, magazine.PreviewLineBudget)
		etag, err := etagOf(out.Body)
		if err != nil {
			return nil, err
		}
		if in.IfNoneMatch == etag {
			return nil, huma.Status304NotModified()
		}
		out.ETag = etag
		out.Body.ImageURL, err = svc.MediaURL(ctx, p.RenderKey)
		return out, err
	})
}

// redirect sends the browser to a page's render or thumbnail.
func redirect(svc *issues.Service, id, path, summary string, pick issues.Media) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: id, Method: http.MethodGet, Path: path, Summary: summary, Tags: tags, DefaultStatus: http.StatusFound,
	}, func(ctx context.Context, in *PagePath) (*RedirectOutput, error) {
		url, err := svc.PageMediaURL(ctx, in.ID, in.Page, pick)
		return &RedirectOutput{Status: http.StatusFound, Location: url}, err
	})
}

func cropRedirect(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-region-crop", Method: http.MethodGet, Path: "/api/magazine/{doc}/pages/{page}/crops/{region}",
		Summary: "A picture region's exact crop of the render (redirect to a short-lived URL)", Tags: tags, DefaultStatus: http.StatusFound,
	}, func(ctx context.Context, in *CropPath) (*RedirectOutput, error) {
		url, err := svc.PageMediaURL(ctx, in.ID, in.Page, issues.Crop(in.Region))
		return &RedirectOutput{Status: http.StatusFound, Location: url}, err
	})
}

func refineFigures(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "refine-figures", Method: http.MethodPost, Path: "/api/magazine/{doc}/figures/refine",
		Summary: "Re-derive figure boundaries and crops for an existing issue without OCR, as a background job reporting " +
			"\"refining page n of m\". Each changed page is stored by a conditional change (an edit made meanwhile is kept and the page " +
			"derived again), boxes placed by hand are left alone, and the stored undo point is cleared. The job's result " +
			"(GET /api/jobs/{id}) says which pages changed: pages_changed, pages, revision, undo_cleared",
		Tags: tags, DefaultStatus: http.StatusAccepted,
		Errors: []int{http.StatusNotFound, http.StatusConflict},
	}, func(ctx context.Context, in *IssueIDPath) (*jobsapi.JobStartedOut, error) {
		return jobsapi.Started(svc.StartRefine(ctx, in.ID))
	})
}

// IssueNowOutput answers with an issue as it now is.
type IssueNowOutput struct {
	Body magazine.Issue
}

func cancelIngest(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "cancel-ingest", Method: http.MethodPost, Path: "/api/magazine/{doc}/cancel",
		Summary: "Stop an issue's ingest for good (the in-process job locally, the Step Functions execution in AWS) and mark it " +
			"failed, step cancelled; the pages read before are kept and the issue can then be deleted. " +
			"409 when its ingest has ended, or while its upload URL is still valid",
		Tags:   tags,
		Errors: []int{http.StatusNotFound, http.StatusConflict},
	}, func(ctx context.Context, in *DeleteIssueInput) (*IssueNowOutput, error) {
		is, err := svc.Cancel(ctx, in.ID)
		return &IssueNowOutput{Body: is}, err
	})
}

// DeleteIssueInput names the issue to delete (or cancel).
type DeleteIssueInput struct {
	ID string `path:"doc" pattern:"^[a-z0-9]{8,40}$" doc:"issue id"`
}

func deleteIssue(svc *issues.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "delete-issue", Method: http.MethodDelete, Path: "/api/magazine/{doc}",
		Summary: "Delete an issue with all its records and files (page renders, thumbnails, crops, the PDF); " +
			"409 while it is being ingested (cancel it first) or its upload URL is still valid",
		Tags: tags, DefaultStatus: http.StatusNoContent,
		Errors: []int{http.StatusNotFound, http.StatusConflict},
	}, func(ctx context.Context, in *DeleteIssueInput) (*struct{}, error) {
		return nil, svc.Delete(ctx, in.ID)
	})
}

// RawPageOutput is a page passed on as stored (documented as PageView).
type RawPageOutput struct {
	ETag        string `header:"ETag"`
	ContentType string `header:"Content-Type"`
	Body        []byte
}

// withFields adds the version and the render link to a page's stored JSON
// object.
func withFields(raw []byte, version int64, imageURL string) ([]byte, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[len(raw)-1] != '}' {
		return nil, errors.New("stored page is not a JSON object")
	}
	out := make([]byte, 0, len(raw)+len(imageURL)+48)
	out = append(out, raw[:len(raw)-1]...)
	out = fmt.Appendf(out, `,"version":%d`, version)
	if imageURL != "" {
		link, err := json.Marshal(imageURL)
		if err != nil {
			return nil, err
		}
		out = append(out, `,"image_url":`...)
		out = append(out, link...)
	}
	return append(out, '}'), nil
}

// etagOf is a strong validator over the JSON the client would get.
func etagOf(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:12]) + `"`, nil
}

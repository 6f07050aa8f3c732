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
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/pipeline"
)

// blobURLTTL is how long a render, thumbnail or crop link stays valid.
const blobURLTTL = 15 * time.Minute

// MagazineDeps is what the magazine feature needs.
type MagazineDeps struct {
	Repo    *issues.Repo
	Uploads blob.Store // where uploaded PDFs land (the uploads bucket in AWS)
	Media   blob.Store // renders, thumbnails, crops
	Steps   *pipeline.Steps
	Limits  pdf.Limits
	Clock   func() time.Time
	// Start begins ingest of an uploaded PDF in-process (local mode). Nil in
	// AWS, where the S3 event starts the state machine.
	Start func(ctx context.Context, in pipeline.PrepareInput) error
}

// IssueView is an issue with each page's progress.
type IssueView struct {
	magazine.Issue
	Pages []issues.Step `json:"pages"`
}

// IssueOutput answers GET /api/magazine/{id}; polled with If-None-Match.
type IssueOutput struct {
	ETag string `header:"ETag"`
	Body IssueView
}

// IssueIDPath names an issue.
type IssueIDPath struct {
	ID          string `path:"id" pattern:"^[a-z0-9]{8,40}$" doc:"issue id"`
	IfNoneMatch string `header:"If-None-Match" required:"false"`
}

// PagePath names a page.
type PagePath struct {
	ID          string `path:"id" pattern:"^[a-z0-9]{8,40}$"`
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

// PresignOutput tells the browser where to PUT the PDF.
type PresignOutput struct {
	Status int
	Body   struct {
		Issue       magazine.Issue `json:"issue"`
		UploadURL   string         `json:"upload_url"`
		Method      string         `json:"method"`
		ContentType string         `json:"content_type"`
		ExpiresAt   time.Time      `json:"expires_at"`
	}
}

// IssueListOutput lists issues.
type IssueListOutput struct {
	Body struct {
		Issues []magazine.Issue `json:"issues"`
		// Upload says how this server takes PDFs: "form" (POST /api/magazine,
		// local mode) or "presigned" (POST /api/magazine/uploads, then PUT to
		// the URL it answers; AWS mode).
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
	ID     string `path:"id" pattern:"^[a-z0-9]{8,40}$"`
	Page   int    `path:"page" minimum:"1" maximum:"100000"`
	Region string `path:"region" pattern:"^[A-Za-z0-9_.-]{1,64}$"`
}

// RefineOutput answers POST …/figures/refine.
type RefineOutput struct {
	Body struct {
		PagesChanged int `json:"pages_changed"`
	}
}

// Feature registers the upload, progress and read operations.
func Feature(d MagazineDeps) httpapi.Feature {
	return func(api huma.API, log *slog.Logger) {
		tags := []string{"magazine"}
		huma.Register(api, huma.Operation{
			OperationID: "upload-issue", Method: http.MethodPost, Path: "/api/magazine",
			Summary:       "Upload a magazine PDF and start ingest (local mode; in AWS use /api/magazine/uploads)",
			Tags:          tags,
			MaxBodyBytes:  d.Limits.MaxBytes + 1<<20,
			DefaultStatus: http.StatusAccepted,
		}, func(ctx context.Context, in *UploadInput) (*CreatedIssueOutput, error) {
			if d.Start == nil {
				return nil, huma.NewError(http.StatusConflict, "this server runs in AWS mode: ask POST /api/magazine/uploads for an upload URL")
			}
			form := in.RawBody.Data()
			data, err := io.ReadAll(io.LimitReader(form.File, d.Limits.MaxBytes+1))
			if err != nil {
				return nil, huma.Error400BadRequest("reading the upload: " + err.Error())
			}
			// Refuse a bad PDF before anything is stored or shown.
			if _, err := pdf.Inspect(data, d.Limits); err != nil {
				return nil, httpapi.Problem(log, err)
			}
			title := form.Title
			if title == "" {
				title = trimExt(form.File.Filename)
			}
			is, err := createIssue(ctx, d, title, magazine.IssueProcessing)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			if err := d.Uploads.Put(ctx, is.SourceKey, bytes.NewReader(data), "application/pdf"); err != nil {
				return nil, httpapi.Problem(log, err)
			}
			if err := d.Start(ctx, pipeline.PrepareInput{SourceKey: is.SourceKey, Title: title}); err != nil {
				return nil, httpapi.Problem(log, err)
			}
			return &CreatedIssueOutput{Status: http.StatusAccepted, Body: is}, nil
		})

		huma.Register(api, huma.Operation{
			OperationID: "presign-issue-upload", Method: http.MethodPost, Path: "/api/magazine/uploads",
			Summary:      "Create an issue and a presigned PUT URL for its PDF; the upload starts ingest (AWS mode)",
			Tags:         tags,
			MaxBodyBytes: httpapi.DefaultMaxBody,
		}, func(ctx context.Context, in *PresignRequest) (*PresignOutput, error) {
			if in.Body.Size > d.Limits.MaxBytes {
				return nil, huma.Error413RequestEntityTooLarge(fmt.Sprintf("the PDF is %d bytes; the limit is %d", in.Body.Size, d.Limits.MaxBytes))
			}
			if d.Start != nil {
				return nil, huma.NewError(http.StatusConflict, "this server runs in local mode: upload with POST /api/magazine")
			}
			title := in.Body.Title
			if title == "" {
				title = trimExt(in.Body.Filename)
			}
			is, err := createIssue(ctx, d, title, magazine.IssueUploading)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			ttl := 15 * time.Minute
			url, err := d.Uploads.PresignPut(ctx, is.SourceKey, "application/pdf", ttl)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			out := &PresignOutput{Status: http.StatusCreated}
			out.Body.Issue, out.Body.UploadURL, out.Body.Method = is, url, http.MethodPut
			out.Body.ContentType, out.Body.ExpiresAt = "application/pdf", d.Clock().Add(ttl).UTC()
			return out, nil
		})

		huma.Register(api, huma.Operation{
			OperationID: "list-issues", Method: http.MethodGet, Path: "/api/magazine",
			Summary: "List issues, newest first", Tags: tags,
		}, func(ctx context.Context, _ *struct{}) (*IssueListOutput, error) {
			list, err := d.Repo.List(ctx)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			out := &IssueListOutput{}
			out.Body.Issues = append([]magazine.Issue{}, list...)
			out.Body.Upload = "presigned"
			if d.Start != nil {
				out.Body.Upload = "form"
			}
			return out, nil
		})

		huma.Register(api, huma.Operation{
			OperationID: "get-issue", Method: http.MethodGet, Path: "/api/magazine/{id}",
			Summary: "An issue with status, progress (pages done of total, current step) and errors per page; poll with If-None-Match",
			Tags:    tags,
		}, func(ctx context.Context, in *IssueIDPath) (*IssueOutput, error) {
			is, _, err := d.Repo.Get(ctx, in.ID)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			steps, err := d.Repo.Steps(ctx, in.ID)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			view := IssueView{Issue: is, Pages: append([]issues.Step{}, steps...)}
			if is.Status != magazine.IssueReady {
				view.PagesDone = 0
				for _, s := range steps {
					if s.Done {
						view.PagesDone++
					}
				}
			}
			etag, err := etagOf(view)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			if in.IfNoneMatch == etag {
				return nil, huma.Status304NotModified()
			}
			return &IssueOutput{ETag: etag, Body: view}, nil
		})

		huma.Register(api, huma.Operation{
			OperationID: "list-pages", Method: http.MethodGet, Path: "/api/magazine/{id}/pages",
			Summary: "An issue's pages with their step, engine and thumbnail link", Tags: tags,
		}, func(ctx context.Context, in *IssueIDPath) (*PageListOutput, error) {
			if _, _, err := d.Repo.Get(ctx, in.ID); err != nil {
				return nil, httpapi.Problem(log, err)
			}
			pages, err := d.Repo.Pages(ctx, in.ID)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			out := &PageListOutput{}
			out.Body.Pages = []PageSummary{}
			for _, p := range pages {
				s := PageSummary{Number: p.Number, Width: p.Width, Height: p.Height, Step: p.Step, Engine: p.Engine, Error: p.Error, Regions: len(p.Regions)}
				if p.ThumbKey != "" {
					if s.ThumbURL, err = d.Media.PresignGet(ctx, p.ThumbKey, blobURLTTL); err != nil {
						return nil, httpapi.Problem(log, err)
					}
				}
				out.Body.Pages = append(out.Body.Pages, s)
			}
			return out, nil
		})

		// The page is the review screen's hot read: its stored JSON is passed
		// on without decoding, with the version and the render link added.
		pageSchema := api.OpenAPI().Components.Schemas.Schema(reflect.TypeOf(PageView{}), true, "PageView")
		huma.Register(api, huma.Operation{
			OperationID: "get-page", Method: http.MethodGet, Path: "/api/magazine/{id}/pages/{page}",
			Summary: "A page: regions (kind, bbox, text, original_text), reading order, engine, version, render link", Tags: tags,
			Responses: map[string]*huma.Response{"200": {
				Description: "The page",
				Content:     map[string]*huma.MediaType{"application/json": {Schema: pageSchema}},
			}},
		}, func(ctx context.Context, in *PagePath) (*RawPageOutput, error) {
			raw, version, err := d.Repo.PageJSON(ctx, in.ID, in.Page)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			etag := fmt.Sprintf(`W/"v%d"`, version)
			if in.IfNoneMatch == etag {
				return nil, huma.Status304NotModified()
			}
			imageURL := ""
			if bytes.Contains(raw, []byte(`"render_key":"`)) {
				if imageURL, err = d.Media.PresignGet(ctx, issues.RenderKey(in.ID, in.Page), blobURLTTL); err != nil {
					return nil, httpapi.Problem(log, err)
				}
			}
			body, err := withFields(raw, version, imageURL)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			return &RawPageOutput{ETag: etag, ContentType: "application/json", Body: body}, nil
		})

		huma.Register(api, huma.Operation{
			OperationID: "get-page-preview", Method: http.MethodGet, Path: "/api/magazine/{id}/pages/{page}/preview",
			Summary: fmt.Sprintf("The live preview of a page: escaped HTML, pictures as placeholders, at most %d lines; poll with If-None-Match", magazine.PreviewLineBudget),
			Tags:    tags,
		}, func(ctx context.Context, in *PagePath) (*PreviewOutput, error) {
			p, _, err := d.Repo.Page(ctx, in.ID, in.Page)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			out := &PreviewOutput{}
			out.Body.Page, out.Body.Step, out.Body.Engine = p.Number, p.Step, p.Engine
			out.Body.HTML = magazine.PreviewHTML(p, magazine.PreviewLineBudget)
			etag, err := etagOf(out.Body)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			if in.IfNoneMatch == etag {
				return nil, huma.Status304NotModified()
			}
			out.ETag = etag
			if p.RenderKey != "" {
				if out.Body.ImageURL, err = d.Media.PresignGet(ctx, p.RenderKey, blobURLTTL); err != nil {
					return nil, httpapi.Problem(log, err)
				}
			}
			return out, nil
		})

		redirectTo := func(ctx context.Context, id string, n int, key func(magazine.Page) string) (*RedirectOutput, error) {
			p, _, err := d.Repo.Page(ctx, id, n)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			k := key(p)
			if k == "" {
				return nil, huma.Error404NotFound("nothing is stored for this yet")
			}
			url, err := d.Media.PresignGet(ctx, k, blobURLTTL)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			return &RedirectOutput{Status: http.StatusFound, Location: url}, nil
		}
		huma.Register(api, huma.Operation{
			OperationID: "get-page-image", Method: http.MethodGet, Path: "/api/magazine/{id}/pages/{page}/image",
			Summary: "The page render (redirect to a short-lived URL)", Tags: tags, DefaultStatus: http.StatusFound,
		}, func(ctx context.Context, in *PagePath) (*RedirectOutput, error) {
			return redirectTo(ctx, in.ID, in.Page, func(p magazine.Page) string { return p.RenderKey })
		})
		huma.Register(api, huma.Operation{
			OperationID: "get-page-thumbnail", Method: http.MethodGet, Path: "/api/magazine/{id}/pages/{page}/thumbnail",
			Summary: "The page thumbnail (redirect to a short-lived URL)", Tags: tags, DefaultStatus: http.StatusFound,
		}, func(ctx context.Context, in *PagePath) (*RedirectOutput, error) {
			return redirectTo(ctx, in.ID, in.Page, func(p magazine.Page) string { return p.ThumbKey })
		})
		huma.Register(api, huma.Operation{
			OperationID: "get-region-crop", Method: http.MethodGet, Path: "/api/magazine/{id}/pages/{page}/crops/{region}",
			Summary: "A picture region's exact crop of the render (redirect to a short-lived URL)", Tags: tags, DefaultStatus: http.StatusFound,
		}, func(ctx context.Context, in *CropPath) (*RedirectOutput, error) {
			return redirectTo(ctx, in.ID, in.Page, func(p magazine.Page) string {
				for _, r := range p.Regions {
					if r.ID == in.Region {
						return r.CropKey
					}
				}
				return ""
			})
		})

		huma.Register(api, huma.Operation{
			OperationID: "refine-figures", Method: http.MethodPost, Path: "/api/magazine/{id}/figures/refine",
			Summary: "Re-derive figure boundaries and crops for an existing issue without OCR", Tags: tags,
		}, func(ctx context.Context, in *IssueIDPath) (*RefineOutput, error) {
			is, _, err := d.Repo.Get(ctx, in.ID)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			if is.Status == magazine.IssueProcessing || is.Status == magazine.IssueUploading {
				return nil, huma.Error409Conflict("the issue is still being ingested")
			}
			n, err := d.Steps.RefineIssue(ctx, in.ID)
			if err != nil {
				return nil, httpapi.Problem(log, err)
			}
			out := &RefineOutput{}
			out.Body.PagesChanged = n
			return out, nil
		})
	}
}

func createIssue(ctx context.Context, d MagazineDeps, title string, status magazine.IssueStatus) (magazine.Issue, error) {
	id := issues.NewID(d.Clock())
	is := magazine.Issue{ID: id, Title: title, Status: status, SourceKey: issues.SourceKey(id), Step: "upload"}
	if err := d.Repo.Create(ctx, is); err != nil {
		return magazine.Issue{}, err
	}
	got, _, err := d.Repo.Get(ctx, id)
	return got, err
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

func trimExt(name string) string {
	if len(name) > 4 && (name[len(name)-4:] == ".pdf" || name[len(name)-4:] == ".PDF") {
		return name[:len(name)-4]
	}
	return name
}

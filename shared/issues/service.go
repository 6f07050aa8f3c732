package issues

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/store"
)

// Errors of the upload workflow.
var (
	// ErrAWSMode, ErrLocalMode: the upload path asked for is not the one
	// this server takes (form uploads locally, presigned uploads in AWS).
	ErrAWSMode   = fault.New(fault.Conflict, "this server runs in AWS mode: ask POST /api/magazine/uploads for an upload URL")
	ErrLocalMode = fault.New(fault.Conflict, "this server runs in local mode: upload with POST /api/magazine")
	// ErrBusy: the issue is still being ingested.
	ErrBusy = fault.New(fault.Conflict, "the issue is still being ingested; cancel it first (POST /api/magazine/{doc}/cancel)")
	// ErrNotIngesting: cancel of an issue whose ingest has ended.
	ErrNotIngesting = fault.New(fault.Conflict, "the issue is not being ingested")
	// ErrNoMedia: nothing is stored yet for the render, thumbnail or crop asked for.
	ErrNoMedia = fault.New(fault.NotFound, "nothing is stored for this yet")
	// ErrUnreadable: the uploaded file could not be read.
	ErrUnreadable = fault.New(fault.Invalid, "reading the upload")
)

// MediaTTL is how long a render, thumbnail or crop link stays valid.
const MediaTTL = 15 * time.Minute

// Starter begins ingest of an uploaded PDF: the in-process job locally; nil
// in AWS, where the S3 upload event starts the state machine.
type Starter func(ctx context.Context, sourceKey, title string) error

// Stopper stops the ingest of an issue for good and returns once it no
// longer writes: the in-process job locally, the Step Functions execution
// that owns the issue in AWS. An ingest that has already ended is no error.
type Stopper func(ctx context.Context, id, sourceKey string) error

// Refiner re-derives figures and crops of a whole issue (the review
// editor, so each page is stored by a conditional change), calling progress
// before each page (nil: no reports).
type Refiner interface {
	RefineIssue(ctx context.Context, id string, progress PageProgress) (Refined, error)
}

// PageProgress hears that page n of pages is being worked on; its error
// stops the work.
type PageProgress func(n, pages int) error

// Refined is what refining an issue's figures did.
type Refined struct {
	PagesChanged int   `json:"pages_changed" doc:"how many pages had a picture box moved"`
	Pages        []int `json:"pages" doc:"the pages that changed"`
	Revision     int64 `json:"revision" doc:"the issue's revision after the last page was stored"`
	// Each page is its own transaction (an issue can outgrow one), so the
	// refinement cannot be undone as one change: it has no undo point of
	// its own and, like every such change, clears the stored one.
	UndoCleared bool `json:"undo_cleared" doc:"true when a page changed: refinement is stored page by page, has no undo point of its own and clears the stored one"`
}

// Service is the magazine issues workflow: uploads (a form locally, a
// presigned POST form in AWS), progress, pages and their media, and figure
// refinement on demand.
type Service struct {
	Repo    *Repo
	Uploads blob.Store // where uploaded PDFs land (the uploads bucket in AWS)
	Media   blob.Store // renders, thumbnails, crops
	Limits  pdf.Limits
	Clock   func() time.Time
	Start   Starter
	Stop    Stopper // nil: nothing to stop (no ingest runs where this service does)
	Refine  Refiner
	Jobs    jobs.Queue // runs figure refinement in the background
}

// UploadMode says how this server takes PDFs: "form" (POST /api/magazine,
// local mode) or "presigned" (a form POSTed to the storage server, which
// POST /api/magazine/uploads hands out; AWS mode).
func (s *Service) UploadMode() string {
	if s.Start != nil {
		return "form"
	}
	return "presigned"
}

// Upload takes a PDF sent to this server and starts its ingest. A refused
// PDF leaves nothing behind. The issue is recorded last, once its PDF is
// stored and its ingest queued, so a process killed on the way never leaves
// an issue nothing will finish (Recover removes a PDF left without one).
func (s *Service) Upload(ctx context.Context, title string, file io.Reader) (magazine.Issue, error) {
	if s.Start == nil {
		return magazine.Issue{}, ErrAWSMode
	}
	id, err := s.store(ctx, file)
	if err != nil {
		return magazine.Issue{}, err
	}
	if err := s.Start(ctx, SourceKey(id), title); err != nil {
		_ = s.Uploads.Delete(context.WithoutCancel(ctx), SourceKey(id))
		return magazine.Issue{}, err
	}
	return s.create(ctx, id, title, magazine.IssueProcessing)
}

// Accept checks and stores a PDF, then records its issue; ingest is the
// caller's to start. It is Upload without the start, for `lectern ingest`.
func (s *Service) Accept(ctx context.Context, title string, file io.Reader) (magazine.Issue, error) {
	id, err := s.store(ctx, file)
	if err != nil {
		return magazine.Issue{}, err
	}
	return s.create(ctx, id, title, magazine.IssueProcessing)
}

// store refuses a bad PDF before anything is stored or shown, then keeps it
// under a new issue id. The PDF is read from the file, never held in memory
// whole.
func (s *Service) store(ctx context.Context, file io.Reader) (string, error) {
	rs, size, done, err := blob.Seekable(file, s.Limits.MaxBytes)
	if errors.Is(err, blob.ErrTooLarge) {
		return "", pdf.TooLarge(-1, s.Limits)
	}
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	defer done()
	// InspectFile refuses a file over the limit by its real size.
	if _, err := pdf.InspectFile(rs, size, s.Limits); err != nil {
		return "", err
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	id := NewID(s.Clock())
	// Exactly the bytes inspected, even if the file grew since.
	if err := s.Uploads.Put(ctx, SourceKey(id), io.LimitReader(rs, size), "application/pdf"); err != nil {
		return "", err
	}
	return id, nil
}

// Grant is the form the browser POSTs a PDF with; the upload starts ingest.
// The storage server refuses a file over the PDF size limit, another key or
// another content type, so a client that lied about the size stores nothing.
type Grant struct {
	Issue       magazine.Issue
	URL         string
	Fields      map[string]string
	ContentType string
	ExpiresAt   time.Time
}

// PresignUpload creates an issue and a presigned upload form for its PDF.
func (s *Service) PresignUpload(ctx context.Context, title string, size int64) (Grant, error) {
	if err := pdf.CheckSize(size, s.Limits); err != nil {
		return Grant{}, err
	}
	if s.Start != nil {
		return Grant{}, ErrLocalMode
	}
	is, err := s.create(ctx, NewID(s.Clock()), title, magazine.IssueUploading)
	if err != nil {
		return Grant{}, err
	}
	form, err := s.Uploads.PresignPost(ctx, is.SourceKey, "application/pdf", s.Limits.MaxBytes, MediaTTL)
	if err != nil {
		return Grant{}, err
	}
	return Grant{Issue: is, URL: form.URL, Fields: form.Fields, ContentType: "application/pdf", ExpiresAt: s.Clock().Add(MediaTTL).UTC()}, nil
}

// create records an issue. Its ingest may have recorded it first (Prepare
// creates the issue of a PDF that has none): then that record stands.
func (s *Service) create(ctx context.Context, id, title string, status magazine.IssueStatus) (magazine.Issue, error) {
	is := magazine.Issue{ID: id, Title: title, Status: status, SourceKey: SourceKey(id), Step: "upload"}
	if err := s.Repo.Create(ctx, is); err != nil && !errors.Is(err, store.ErrConditionFailed) {
		return magazine.Issue{}, err
	}
	got, _, err := s.Repo.Get(ctx, id)
	return got, err
}

// Progress is an issue with each page's step. While the issue is being
// ingested, PagesDone counts the pages that finished so far.
func (s *Service) Progress(ctx context.Context, id string) (magazine.Issue, []Step, error) {
	is, _, err := s.Repo.Get(ctx, id)
	if err != nil {
		return magazine.Issue{}, nil, err
	}
	steps, err := s.Repo.Steps(ctx, id)
	if err != nil {
		return magazine.Issue{}, nil, err
	}
	if is.Status != magazine.IssueReady {
		is.PagesDone = 0
		for _, st := range steps {
			if st.Done {
				is.PagesDone++
			}
		}
	}
	return is, append([]Step{}, steps...), nil
}

// Pages lists an issue's pages; an unknown issue is ErrNotFound.
func (s *Service) Pages(ctx context.Context, id string) ([]magazine.Page, error) {
	if _, _, err := s.Repo.Get(ctx, id); err != nil {
		return nil, err
	}
	return s.Repo.Pages(ctx, id)
}

// MediaURL is a short-lived link to a stored render, thumbnail or crop; ""
// when key is "" (nothing stored yet).
func (s *Service) MediaURL(ctx context.Context, key string) (string, error) {
	if key == "" {
		return "", nil
	}
	return s.Media.PresignGet(ctx, key, MediaTTL)
}

// Media picks which of a page's stored files a link is wanted for.
type Media func(magazine.Page) string

// Render, Thumbnail and Crop pick a page's render, its thumbnail, or a
// picture region's crop.
func Render(p magazine.Page) string    { return p.RenderKey }
func Thumbnail(p magazine.Page) string { return p.ThumbKey }
func Crop(region string) Media {
	return func(p magazine.Page) string {
		for _, r := range p.Regions {
			if r.ID == region {
				return r.CropKey
			}
		}
		return ""
	}
}

// PageMediaURL is a short-lived link to one of a page's stored files, or
// ErrNoMedia when there is none yet.
func (s *Service) PageMediaURL(ctx context.Context, id string, n int, pick Media) (string, error) {
	p, _, err := s.Repo.Page(ctx, id, n)
	if err != nil {
		return "", err
	}
	key := pick(p)
	if key == "" {
		return "", ErrNoMedia
	}
	return s.MediaURL(ctx, key)
}

// MaxTitle is the longest title, in characters, an issue takes.
const MaxTitle = 200

// Title is the title an upload gets: the one given, else the file's name
// without ".pdf", cut to MaxTitle characters (a given title is checked
// where it is given).
func Title(title, filename string) string {
	if title != "" {
		return title
	}
	if len(filename) > 4 && strings.EqualFold(filename[len(filename)-4:], ".pdf") {
		filename = filename[:len(filename)-4]
	}
	return ClipTitle(filename)
}

// ClipTitle cuts a title from a file name or a PDF's metadata to MaxTitle
// characters (runes, so no character is split).
func ClipTitle(title string) string {
	if utf8.RuneCountInString(title) <= MaxTitle {
		return title
	}
	return string([]rune(title)[:MaxTitle-1]) + "…"
}

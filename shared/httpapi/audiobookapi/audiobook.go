// Package audiobookapi is the audiobook feature over HTTP (issue 16): upload
// a book (TXT or EPUB), read its chapters, segments and cast, set a line's
// speaker by hand, assign voices (with suggestions from the library), cast
// it with the LLM (POST /api/attribute-spans, a background job) and voice
// it as an M4B with a chapter per book chapter plus an MP3 per chapter.
package audiobookapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/httpapi/speechapi"
	"github.com/lectern/lectern/shared/httpapi/voicesapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/platform"
)

// DialLLM makes the client of a checked LLM endpoint. features passes
// oaichat's; this package does not import it, so the API Lambda links no
// LLM client.
type DialLLM func(base, key, model string, timeout time.Duration, client *http.Client) cast.LLM

// Module is the audiobook feature with its cast and render jobs, as the
// local server and the job worker run it; dial makes the LLM's client.
func Module(dial DialLLM) platform.New {
	return func(d *platform.Deps) (platform.Module, error) {
		svc := audiobook.NewService(d.Table, d.Blobs, d.Jobs, d.Voices, d.Clock, settingsLLM(d, dial), speechapi.NewRenderService(d)).
			WithFFmpeg(d.Config.FFmpegCommand).WithCastVoices(voicesapi.NewService(d))
		return platform.Module{
			Name:       "audiobook",
			Operations: Operations(svc),
			Jobs:       map[string]jobs.Handler{audiobook.CastJobKind: svc.CastJob, audiobook.RenderJobKind: svc.RenderJob, audiobook.ImportJobKind: svc.ImportJob},
		}, nil
	}
}

// API is the audiobook feature as its API Lambda serves it: the operations
// only; the worker runs the jobs.
func API(d *platform.Deps) (platform.Module, error) {
	svc := audiobook.NewService(d.Table, d.Blobs, d.Jobs, d.Voices, d.Clock, settingsLLM(d, nil), nil).WithCastVoices(voicesapi.NewService(d))
	return platform.Module{Name: "audiobook", Operations: Operations(svc)}, nil
}

// LLMTimeout bounds one LLM call (a classic-mode chunk is a long answer).
const LLMTimeout = 3 * time.Minute

// settingsLLM is the LLM of the current Settings, its URL checked at every
// dial. Without dial (the API Lambda) it only tells whether one is set.
func settingsLLM(d *platform.Deps, dial DialLLM) audiobook.LLMSource {
	return func(ctx context.Context) (cast.LLM, error) {
		ep, err := d.LLM(ctx)
		switch {
		case errors.Is(err, platform.ErrNoLLM):
			return nil, audiobook.ErrNoLLM
		case err != nil:
			return nil, err
		case dial == nil:
			return apiOnly{}, nil
		}
		return dial(ep.BaseURL, ep.Key, ep.Model, LLMTimeout, ep.Client), nil
	}
}

// apiOnly is the LLM where casts do not run (the API Lambda).
type apiOnly struct{}

func (apiOnly) ChatSchema(context.Context, string, string, string, map[string]any) (string, error) {
	return "", fmt.Errorf("%w: casts run on the job worker, not this function", audiobook.ErrLLM)
}

// Operations lists the audiobook operations.
func Operations(svc *audiobook.Service) []httpapi.Operation {
	return []httpapi.Operation{
		uploadBook(svc), listBooks(svc), getBook(svc), deleteBook(svc),
		listSegments(svc), setSpeaker(svc),
		getCast(svc), setCharacterVoice(svc), setNarrator(svc), suggestVoices(svc),
		mergeCharacters(svc), splitAlias(svc), renameCharacter(svc), setGender(svc),
		attributeSpans(svc),
		startRender(svc), getRender(svc), renderAudio(svc), chapterAudio(svc), chapterTimings(svc),
	}
}

var tags = []string{"audiobook"}

const bookPath = "/api/audiobook/books/{book}"

// BookPath names a book.
type BookPath struct {
	Book string `path:"book" pattern:"^[a-z0-9]{8,40}$" doc:"book id"`
}

// UploadForm is POST /api/audiobook/books's multipart body.
type UploadForm struct {
	File huma.FormFile `form:"file" contentType:"text/plain,application/epub+zip,application/octet-stream" required:"true" doc:"the book: TXT (UTF-8 or Latin-1) or EPUB"`
}

// BookOutput answers a book.
type BookOutput struct {
	Status int
	ETag   string `header:"ETag" doc:"the book's revision"`
	Body   BookView
}

// BookView is a book with its cast and the state of its last jobs.
type BookView struct {
	audiobook.Book
	Cast            []audiobook.Character `json:"cast"`
	CastJobStatus   *jobsapi.View         `json:"cast_job_status,omitempty" doc:"the last cast job (POST /api/attribute-spans)"`
	RenderJobStatus *jobsapi.View         `json:"render_job_status,omitempty" doc:"the last render job"`
	ImportJobStatus *jobsapi.View         `json:"import_job_status,omitempty" doc:"the import job (parse, split, cast by rules)"`
}

func etag(revision int64) string { return strconv.Quote(strconv.FormatInt(revision, 10)) }

// view reads a book's cast and jobs beside it.
func view(ctx context.Context, svc *audiobook.Service, b audiobook.Book, status int) (*BookOutput, error) {
	chars, err := svc.Cast(ctx, b.ID)
	if err != nil {
		return nil, err
	}
	v := BookView{Book: b, Cast: chars}
	for _, j := range []struct {
		id  string
		out **jobsapi.View
	}{{b.CastJob, &v.CastJobStatus}, {b.RenderJob, &v.RenderJobStatus}, {b.ImportJob, &v.ImportJobStatus}} {
		if j.id == "" {
			continue
		}
		if job, err := svc.Job(ctx, j.id); err == nil {
			jv := jobsapi.ViewOf(job)
			*j.out = &jv
		}
	}
	return &BookOutput{Status: status, ETag: etag(b.Revision), Body: v}, nil
}

// ImportOutput answers an upload: the book, importing.
type ImportOutput struct {
	Status   int
	Location string `header:"Location" doc:"the book: poll it until its status is ready or failed"`
	Body     BookView
}

func uploadBook(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "upload-book", Method: http.MethodPost, Path: "/api/audiobook/books",
		Summary: fmt.Sprintf("Upload a book (TXT in UTF-8 or Latin-1, or EPUB; at most %d bytes). What is cheap and certain is checked at once: "+
			"an empty, binary or oversized file, a broken EPUB or one whose zip directory or spine is over the limits answers 413 or 422 and stores nothing. "+
			"Otherwise the answer is 202 with the book in status importing and Location naming it: the import job splits it into narration and dialogue spans "+
			"from its quotation marks, finds its cast and names the speakers its text shows by rules, with no LLM; the book then turns ready, "+
			"or failed with its error (a text over the limit, found only once unpacked)", audiobook.MaxUploadBytes),
		Tags: tags, DefaultStatus: http.StatusAccepted, MaxBodyBytes: audiobook.MaxUploadBytes + 1<<20,
	}, func(ctx context.Context, in *struct {
		RawBody huma.MultipartFormFiles[UploadForm]
	}) (*ImportOutput, error) {
		f := in.RawBody.Data().File
		data, err := io.ReadAll(io.LimitReader(f, audiobook.MaxUploadBytes+1))
		if err != nil {
			return nil, err
		}
		b, _, err := svc.StartImport(ctx, f.Filename, data)
		if err != nil {
			return nil, err
		}
		v, err := view(ctx, svc, b, http.StatusAccepted)
		if err != nil {
			return nil, err
		}
		return &ImportOutput{Status: http.StatusAccepted, Location: "/api/audiobook/books/" + b.ID, Body: v.Body}, nil
	})
}

// BookListOutput lists the books.
type BookListOutput struct {
	Body struct {
		Books []audiobook.Summary `json:"books"`
	}
}

func listBooks(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "list-books", Method: http.MethodGet, Path: "/api/audiobook/books",
		Summary: "The books, newest first", Tags: tags,
	}, func(ctx context.Context, _ *struct{}) (*BookListOutput, error) {
		books, err := svc.List(ctx)
		out := &BookListOutput{}
		out.Body.Books = books
		return out, err
	})
}

func getBook(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-book", Method: http.MethodGet, Path: bookPath,
		Summary: "A book: title, author, chapters with their segment counts, the cast with voices, the narrator's voice, the revision, and the state of its last cast and render jobs",
		Tags:    tags,
	}, func(ctx context.Context, in *BookPath) (*BookOutput, error) {
		b, err := svc.Get(ctx, in.Book)
		if err != nil {
			return nil, err
		}
		return view(ctx, svc, b, http.StatusOK)
	})
}

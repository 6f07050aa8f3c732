package voicesapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/remotevoices"
)

// LibraryModule serves this instance's voice library to other local
// instances as the store protocol (remotevoices; LECTERN_VOICES=URL). It is
// local only: in AWS every function reads the shared voice table itself,
// and the protocol writes records as sent, built-in voices included, past
// the rules the voice operations keep for users.
func LibraryModule(d *platform.Deps) (platform.Module, error) {
	m := platform.Module{Name: "voice-library"}
	if !d.Hosted() && d.Voices != nil {
		m.Operations = LibraryOperations(d.Voices)
	}
	return m, nil
}

// LibraryOperations are the Store port's calls over HTTP, on library.
func LibraryOperations(library voices.Store) []httpapi.Operation {
	return []httpapi.Operation{
		searchLibrary(library), getLibraryVoice(library), createLibraryVoice(library),
		updateLibraryVoice(library), deleteLibraryVoice(library), importLibraryVoices(library),
	}
}

var libraryTags = []string{"voice-library"}

// LibraryVoiceInput is a voice record sent to POST /api/voice-library.
type LibraryVoiceInput struct{ Body voices.Voice }

// LibraryUpdateInput is PUT /api/voice-library/{id}.
type LibraryUpdateInput struct {
	IDPath
	Body voices.Voice
}

// LibraryImportInput is POST /api/voice-library/import.
type LibraryImportInput struct{ Body remotevoices.ImportRequest }

// LibraryImportOutput says how many voices an import added.
type LibraryImportOutput struct{ Body remotevoices.ImportAnswer }

// libraryImportMaxBody fits MaxImport voices at their field limits.
const libraryImportMaxBody = 8 << 20

func searchLibrary(library voices.Store) httpapi.Operation {
	return libraryOp(huma.Operation{
		OperationID: "search-voice-library", Method: http.MethodGet, Path: remotevoices.Path,
		Summary: "Store protocol: one page of the voices a search selects, as GET /api/voices answers it", Tags: libraryTags,
	}, func(ctx context.Context, in *SearchInput) (*SearchOutput, error) {
		q, err := voices.NormalizeQuery(voices.Query{
			Text: in.Text, Language: in.Language, Gender: voices.Gender(in.Gender), Age: voices.Age(in.Age),
			Source: voices.Source(in.Source), Engine: in.Engine, Limit: in.Limit, Offset: in.Offset,
		})
		if err != nil {
			return nil, err
		}
		r, err := library.Search(ctx, q)
		return &SearchOutput{Body: r}, err
	})
}

func getLibraryVoice(library voices.Store) httpapi.Operation {
	return libraryOp(huma.Operation{
		OperationID: "get-library-voice", Method: http.MethodGet, Path: remotevoices.Path + "/{id}",
		Summary: "Store protocol: read one voice record", Tags: libraryTags,
	}, func(ctx context.Context, in *IDPath) (*VoiceOutput, error) {
		v, err := library.Get(ctx, in.ID)
		return &VoiceOutput{Body: v}, err
	})
}

func createLibraryVoice(library voices.Store) httpapi.Operation {
	return libraryOp(huma.Operation{
		OperationID: "create-library-voice", Method: http.MethodPost, Path: remotevoices.Path,
		Summary: "Store protocol: add a voice record at version 1 (409 when the id is taken)", Tags: libraryTags,
		DefaultStatus: http.StatusCreated, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *LibraryVoiceInput) (*VoiceOutput, error) {
		v, err := checkedRecord(in.Body)
		if err != nil {
			return nil, err
		}
		v, err = library.Create(ctx, v)
		return &VoiceOutput{Body: v}, err
	})
}

func updateLibraryVoice(library voices.Store) httpapi.Operation {
	return libraryOp(huma.Operation{
		OperationID: "update-library-voice", Method: http.MethodPut, Path: remotevoices.Path + "/{id}",
		Summary: "Store protocol: replace the voice record whose stored version is the one sent, answering it at the next version (409 stale, 404 gone)",
		Tags:    libraryTags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *LibraryUpdateInput) (*VoiceOutput, error) {
		v, err := checkedRecord(in.Body)
		if err != nil {
			return nil, err
		}
		if v.ID != in.ID {
			return nil, fmt.Errorf("%w: the record's id %q is not the path's %q", voices.ErrInvalid, v.ID, in.ID)
		}
		v, err = library.Update(ctx, v)
		return &VoiceOutput{Body: v}, err
	})
}

func deleteLibraryVoice(library voices.Store) httpapi.Operation {
	return libraryOp(huma.Operation{
		OperationID: "delete-library-voice", Method: http.MethodDelete, Path: remotevoices.Path + "/{id}",
		Summary: "Store protocol: remove a voice record, built-in ones too (409 stale, 404 gone)", Tags: libraryTags,
		DefaultStatus: http.StatusNoContent,
	}, func(ctx context.Context, in *DeleteInput) (*struct{}, error) {
		return nil, library.Delete(ctx, in.ID, in.Version)
	})
}

func importLibraryVoices(library voices.Store) httpapi.Operation {
	return libraryOp(huma.Operation{
		OperationID: "import-library-voices", Method: http.MethodPost, Path: remotevoices.Path + "/import",
		Summary: "Store protocol: add the voice records whose id is absent and answer how many; one bad record adds none",
		Tags:    libraryTags, MaxBodyBytes: libraryImportMaxBody,
	}, func(ctx context.Context, in *LibraryImportInput) (*LibraryImportOutput, error) {
		vs := make([]voices.Voice, len(in.Body.Voices))
		for i, sent := range in.Body.Voices {
			v, err := checkedRecord(sent)
			if err != nil {
				return nil, fmt.Errorf("voice %d: %w", i, err)
			}
			vs[i] = v
		}
		n, err := library.Import(ctx, vs)
		return &LibraryImportOutput{Body: remotevoices.ImportAnswer{Created: n}}, err
	})
}

// checkedRecord is a record as another instance sent it, normalized and
// checked as the library's own writers do before anything is written.
func checkedRecord(sent voices.Voice) (voices.Voice, error) {
	v := voices.Normalize(sent)
	return v, voices.Validate(v)
}

// libraryOp is httpapi.Op whose answers to the store's sentinel errors carry
// their problem type: the client maps a problem back to the sentinel, and
// ErrExists and ErrStale are both 409.
func libraryOp[I, O any](op huma.Operation, handle func(context.Context, *I) (*O, error)) httpapi.Operation {
	return func(api huma.API, log *slog.Logger) {
		httpapi.Op(op, func(ctx context.Context, in *I) (*O, error) {
			out, err := handle(ctx, in)
			if err != nil {
				return nil, typedProblem(log, err)
			}
			return out, nil
		})(api, log)
	}
}

// typedProblem is the problem httpapi.Problem makes of err, with the type of
// err's sentinel when it has one.
func typedProblem(log *slog.Logger, err error) error {
	typ, ok := remotevoices.ProblemType(err)
	if !ok {
		return err
	}
	var model *huma.ErrorModel
	if p := httpapi.Problem(log, err); !errors.As(p, &model) {
		return p
	}
	model.Type = typ
	return model
}

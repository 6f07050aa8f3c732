// Package voicesapi is the voice library's HTTP operations: search, read,
// add, edit and delete voices (built-in ones are read-only), import an
// engine's voices, and a cached preview sample of any voice.
package voicesapi

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/voices"
)

// importTimeout bounds the import of espeak-ng's voices at start.
const importTimeout = 30 * time.Second

// Module is the voice library of this instance, over the shared store. In
// local mode espeak-ng's voices are imported at start (once: later starts
// find them there).
func Module(d *platform.Deps) (platform.Module, error) {
	svc, engines := newService(d)
	if !d.Hosted() && d.Voices != nil {
		ctx, cancel := context.WithTimeout(context.Background(), importTimeout)
		defer cancel()
		// A machine without espeak-ng still serves the rest of the library.
		if n, err := svc.ImportBuiltin(ctx); err != nil {
			d.Log.Warn("built-in voices not all imported", "err", err)
		} else if n > 0 {
			d.Log.Info("built-in voices imported", "count", n)
		}
		if err := engines.Available(ctx, voices.PiperEngine); err != nil {
			d.Log.Warn("the neural voice is unavailable; espeak-ng is the default", "reason", err)
		}
	}
	return platform.Module{Name: "voices", Operations: Operations(svc)}, nil
}

// NewService is the voice library over the platform: its store, this
// instance's engine cards and built-in engines. Features that pick voices
// (an audiobook's cast) use it as the library's module does.
func NewService(d *platform.Deps) *voices.Service {
	svc, _ := newService(d)
	return svc
}

func newService(d *platform.Deps) (*voices.Service, engineSet) {
	library := d.Voices
	if library == nil {
		library = voices.Unconfigured{}
	}
	engines := engineSet{
		cards:  cards.FromDeps(d),
		espeak: speech.Espeak{Command: d.Config.EspeakCommand},
		piper:  d.Piper,
		hosted: d.Hosted(),
	}
	return voices.NewService(library, d.Blobs, engines, d.Clock, d.Log), engines
}

// Operations lists the voice library's operations.
func Operations(svc *voices.Service) []httpapi.Operation {
	return []httpapi.Operation{
		searchVoices(svc), defaultVoice(svc), createVoice(svc), getVoice(svc), putVoice(svc), deleteVoice(svc),
		previewVoice(svc), importVoices(svc), cloneVoice(svc), designVoice(svc), saveDesign(svc),
	}
}

var tags = []string{"voices"}

// SearchInput is GET /api/voices.
type SearchInput struct {
	Text     string `query:"q" maxLength:"200" doc:"words to find in name, description and tags (all of them, ignoring case)"`
	Language string `query:"language" maxLength:"35" doc:"language tag; en also finds en-us and en-gb"`
	Gender   string `query:"gender" enum:"female,male,neutral"`
	Age      string `query:"age" enum:"young,middle_aged,old"`
	Source   string `query:"source" enum:"builtin,engine,clone,design"`
	Engine   string `query:"engine" maxLength:"64" doc:"engine card name, or espeak-ng"`
	Limit    int    `query:"limit" minimum:"1" maximum:"100" default:"20"`
	Offset   int    `query:"offset" minimum:"0" default:"0"`
}

// SearchOutput is one page of voices.
type SearchOutput struct{ Body voices.Result }

// IDPath names a voice.
type IDPath struct {
	ID string `path:"id" pattern:"^[a-z0-9][a-z0-9._-]{0,99}$" doc:"voice id"`
}

// VoiceOutput is one voice.
type VoiceOutput struct{ Body voices.Voice }

// CreateInput is POST /api/voices.
type CreateInput struct{ Body voices.Spec }

// CreatedOutput is a voice just added.
type CreatedOutput struct {
	Status int
	Body   voices.Voice
}

// PutInput is PUT /api/voices/{id}.
type PutInput struct {
	IDPath
	Body voices.Spec
}

// DeleteInput is DELETE /api/voices/{id}.
type DeleteInput struct {
	IDPath
	Version int64 `query:"version" minimum:"0" doc:"delete only this version; 0 or absent deletes any"`
}

// PreviewOutput is a voice's sample.
type PreviewOutput struct{ Body voices.Preview }

// ImportInput is POST /api/voices/import.
type ImportInput struct{ Body voices.ImportRequest }

// ImportOutput says what an import did.
type ImportOutput struct{ Body voices.Refresh }

func searchVoices(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "search-voices", Method: http.MethodGet, Path: "/api/voices",
		Summary: "Search the shared voice library: text over name, description and tags, filters, pages", Tags: tags,
	}, func(ctx context.Context, in *SearchInput) (*SearchOutput, error) {
		r, err := svc.Search(ctx, voices.Query{
			Text: in.Text, Language: in.Language, Gender: voices.Gender(in.Gender), Age: voices.Age(in.Age),
			Source: voices.Source(in.Source), Engine: in.Engine, Limit: in.Limit, Offset: in.Offset,
		})
		return &SearchOutput{Body: r}, err
	})
}

// DefaultOutput is this instance's default voice.
type DefaultOutput struct{ Body voices.DefaultVoice }

func defaultVoice(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "default-voice", Method: http.MethodGet, Path: "/api/voices/default",
		Summary: "The voice read-aloud, podcasts and audiobook narration speak in until the user picks another: the neural voice (Piper) where this instance has it, else espeak-ng's, with the reason",
		Tags:    tags,
	}, func(ctx context.Context, _ *struct{}) (*DefaultOutput, error) {
		d, err := svc.Default(ctx)
		return &DefaultOutput{Body: d}, err
	})
}

func createVoice(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "create-voice", Method: http.MethodPost, Path: "/api/voices",
		Summary: "Add a voice an engine has (source engine or design) under a new id", Tags: tags,
		DefaultStatus: http.StatusCreated, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *CreateInput) (*CreatedOutput, error) {
		v, err := svc.Create(ctx, in.Body)
		return &CreatedOutput{Status: http.StatusCreated, Body: v}, err
	})
}

func getVoice(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-voice", Method: http.MethodGet, Path: "/api/voices/{id}",
		Summary: "Read one voice", Tags: tags,
	}, func(ctx context.Context, in *IDPath) (*VoiceOutput, error) {
		v, err := svc.Get(ctx, in.ID)
		return &VoiceOutput{Body: v}, err
	})
}

func putVoice(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "put-voice", Method: http.MethodPut, Path: "/api/voices/{id}",
		Summary: "Add the voice under this id (201) or edit it (200; send the version read to refuse a lost update). Built-in voices are read-only (409)",
		Tags:    tags, MaxBodyBytes: httpapi.DefaultMaxBody,
		// Naming one answer here keeps huma from adding the others it would:
		// the 200 answer registers the voice schema, and errors are listed
		// as every operation lists them.
		Responses: map[string]*huma.Response{
			"201": {Description: "Created", Content: map[string]*huma.MediaType{
				"application/json": {Schema: &huma.Schema{Ref: "#/components/schemas/VoicesVoice"}},
			}},
			"default": {Description: "Error", Content: map[string]*huma.MediaType{
				"application/problem+json": {Schema: &huma.Schema{Ref: "#/components/schemas/ErrorModel"}},
			}},
		},
	}, func(ctx context.Context, in *PutInput) (*CreatedOutput, error) {
		v, created, err := svc.Put(ctx, in.ID, in.Body)
		out := &CreatedOutput{Status: http.StatusOK, Body: v}
		if created {
			out.Status = http.StatusCreated
		}
		return out, err
	})
}

func deleteVoice(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "delete-voice", Method: http.MethodDelete, Path: "/api/voices/{id}",
		Summary: "Delete a voice (built-in voices are read-only: 409); a second delete answers 404", Tags: tags,
		DefaultStatus: http.StatusNoContent,
	}, func(ctx context.Context, in *DeleteInput) (*struct{}, error) {
		return nil, svc.Delete(ctx, in.ID, in.Version)
	})
}

func previewVoice(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "preview-voice", Method: http.MethodPost, Path: "/api/voices/{id}/preview",
		Summary: "Make the voice speak its sample sentence (once: later previews serve the stored sample) and answer where to fetch it",
		Tags:    tags,
	}, func(ctx context.Context, in *IDPath) (*PreviewOutput, error) {
		p, err := svc.Preview(ctx, in.ID)
		return &PreviewOutput{Body: p}, err
	})
}

func importVoices(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "import-voices", Method: http.MethodPost, Path: "/api/voices/import",
		Summary: "Import an engine's voices: a TTS card's GET /v1/audio/voices where it offers one, else OpenAI's voice names; espeak-ng's list for espeak-ng. Voices it no longer lists are removed",
		Tags:    tags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *ImportInput) (*ImportOutput, error) {
		r, err := svc.RefreshEngine(ctx, in.Body.Engine)
		return &ImportOutput{Body: r}, err
	})
}

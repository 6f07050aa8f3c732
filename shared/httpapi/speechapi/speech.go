// Package speechapi is the speech renderer's HTTP operations: start a
// render of a text (or its chapters) in a voice of the library as MP3 or
// M4B, follow its progress, and fetch its audio and sentence timings. The
// render itself is the speech.render background job.
package speechapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/speech/render"
)

// Module is the speech renderer: its operations and its job kind.
func Module(d *platform.Deps) (platform.Module, error) {
	svc := NewRenderService(d)
	return platform.Module{
		Name:       "speech",
		Operations: Operations(svc),
		Jobs:       map[string]jobs.Handler{render.JobKind: svc.Job},
	}, nil
}

// Operations lists the renderer's operations.
func Operations(svc *render.Service) []httpapi.Operation {
	return []httpapi.Operation{startRender(svc), getRender(svc), renderAudio(svc), renderChunks(svc)}
}

var tags = []string{"speech"}

// StartInput is POST /api/speech/renders.
type StartInput struct {
	Body struct {
		Text     string         `json:"text,omitempty" maxLength:"5000000" doc:"the text, as one chapter; give text or chapters (at most 5,000,000 bytes of UTF-8 in all, titles included)"`
		Chapters []ChapterInput `json:"chapters,omitempty" maxItems:"500" doc:"the text by chapter; give text or chapters"`
		VoiceID  string         `json:"voice_id,omitempty" pattern:"^[a-z0-9][a-z0-9._-]{0,99}$" doc:"a voice of the library: the text's, and a segment's that names none; required unless every segment names its voice"`
		Format   string         `json:"format,omitempty" enum:"mp3,m4b" default:"m4b" doc:"m4b: AAC in MP4 with chapters (audiobook players); mp3: MP3 with ID3 chapters"`
		Title    string         `json:"title,omitempty" maxLength:"300" doc:"title written into the file"`
		Artist   string         `json:"artist,omitempty" maxLength:"300" doc:"artist (author or narrator) written into the file"`
		Speed    float64        `json:"speed,omitempty" minimum:"0" maximum:"4" doc:"multiple of the normal rate, 0.25..4; 0 or absent is 1"`
		Check    *bool          `json:"check,omitempty" doc:"hear every chunk with the ear (speech recognition): a chunk heard wrong is spoken again once, then marked; absent follows Settings (ear_check, on unless switched off)"`
	}
}

// maxStartBody bounds a start request: the longest text, twice over for
// JSON's escapes (a newline or a quote is two bytes), and room for the rest.
const maxStartBody = 2*render.MaxTextBytes + 64<<10

// ChapterInput is one chapter of a render.
type ChapterInput struct {
	Title    string         `json:"title,omitempty" maxLength:"300"`
	Text     string         `json:"text,omitempty" maxLength:"5000000" doc:"the chapter in the render's voice; give text or segments"`
	Segments []SegmentInput `json:"segments,omitempty" maxItems:"100000" doc:"the chapter by voice (podcast hosts, characters): each segment in its own voice, or the render's; give text or segments"`
}

// SegmentInput is a stretch of a chapter in one voice.
type SegmentInput struct {
	VoiceID string `json:"voice_id,omitempty" pattern:"^[a-z0-9][a-z0-9._-]{0,99}$" doc:"a voice of the library; absent is the render's voice_id"`
	Text    string `json:"text" maxLength:"5000000"`
}

// StatusOutput is a render's state.
type StatusOutput struct {
	Status int
	Body   render.Status
}

// IDPath names a render.
type IDPath struct {
	ID string `path:"id" maxLength:"64" doc:"the render's id (its job id)"`
}

// RedirectOutput sends the player to a short-lived URL of the audio.
type RedirectOutput struct {
	Status   int
	Location string `header:"Location"`
}

func startRender(svc *render.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "start-speech-render", Method: http.MethodPost, Path: "/api/speech/renders",
		Summary: "Render a text (or its chapters) in a library voice to MP3 or M4B with chapters, loudness-normalised, as a background job; " +
			"chunks already spoken with the same engine, voice, text and speed come from the cache",
		Tags: tags, DefaultStatus: http.StatusAccepted, MaxBodyBytes: maxStartBody,
	}, func(ctx context.Context, in *StartInput) (*StatusOutput, error) {
		b := in.Body
		spec := render.Spec{Text: b.Text, VoiceID: b.VoiceID, Format: b.Format, Title: b.Title, Artist: b.Artist, Speed: b.Speed, Check: b.Check}
		for _, c := range b.Chapters {
			ch := render.Chapter{Title: c.Title, Text: c.Text}
			for _, sg := range c.Segments {
				ch.Segments = append(ch.Segments, render.Segment{VoiceID: sg.VoiceID, Text: sg.Text})
			}
			spec.Chapters = append(spec.Chapters, ch)
		}
		st, err := svc.Start(ctx, spec)
		return &StatusOutput{Status: http.StatusAccepted, Body: st}, err
	})
}

func getRender(svc *render.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-speech-render", Method: http.MethodGet, Path: "/api/speech/renders/{id}",
		Summary: "A render's status and progress; once it succeeded, its audio URL and every sentence's timing by chapter", Tags: tags,
	}, func(ctx context.Context, in *IDPath) (*StatusOutput, error) {
		st, err := svc.Get(ctx, in.ID)
		return &StatusOutput{Status: http.StatusOK, Body: st}, err
	})
}

func renderAudio(svc *render.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-speech-render-audio", Method: http.MethodGet, Path: "/api/speech/renders/{id}/audio",
		Summary: "A finished render's audio (redirect to a short-lived URL that serves audio/mp4 or audio/mpeg with Range support); 409 while it runs",
		Tags:    tags, DefaultStatus: http.StatusFound,
	}, func(ctx context.Context, in *IDPath) (*RedirectOutput, error) {
		url, err := svc.AudioURL(ctx, in.ID)
		return &RedirectOutput{Status: http.StatusFound, Location: url}, err
	})
}

// ChunksInput is GET /api/speech/renders/{id}/chunks.
type ChunksInput struct {
	ID    string `path:"id" maxLength:"64" doc:"the render's id (its job id)"`
	From  int    `query:"from" minimum:"0" default:"0" doc:"the first chunk's index"`
	Limit int    `query:"limit" minimum:"1" maximum:"100" default:"20" doc:"at most this many chunks"`
}

// ChunksOutput lists a render's spoken chunks.
type ChunksOutput struct {
	Body render.ChunkList
}

func renderChunks(svc *render.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "list-speech-render-chunks", Method: http.MethodGet, Path: "/api/speech/renders/{id}/chunks",
		Summary: "A render's chunks (sentences, or pieces of long ones) that are spoken so far, in order from an index, each with a short-lived URL of its WAV: " +
			"a player can start on chunk 0 while the rest is being spoken, and ask again from 'next'",
		Tags: tags,
	}, func(ctx context.Context, in *ChunksInput) (*ChunksOutput, error) {
		list, err := svc.ListChunks(ctx, in.ID, in.From, in.Limit)
		return &ChunksOutput{Body: list}, err
	})
}

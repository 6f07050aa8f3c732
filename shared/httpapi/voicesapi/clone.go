package voicesapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/voices"
)

// CloneForm is POST /api/voices/clone's multipart body.
type CloneForm struct {
	Audio            huma.FormFile `form:"audio" contentType:"audio/wav,audio/x-wav,audio/wave,audio/mpeg,audio/mp3,audio/mp4,audio/x-m4a,audio/m4a,audio/aac,audio/ogg,application/ogg,application/octet-stream" required:"true" doc:"5-60 s of the speaker: WAV, MP3, M4A or OGG, at most 10 MiB"`
	Engine           string        `form:"engine" required:"true" minLength:"1" maxLength:"64" doc:"a TTS engine card whose voice API can clone (chatterbox, elevenlabs)"`
	Name             string        `form:"name" required:"true" minLength:"1" maxLength:"100"`
	Consent          bool          `form:"consent" required:"true" doc:"true: the uploader confirms the speaker agreed to have their voice cloned"`
	ConsentStatement string        `form:"consent_statement" required:"false" maxLength:"500" doc:"the statement confirmed; the default one when absent"`
	ConsentBy        string        `form:"consent_by" required:"false" maxLength:"100" doc:"who confirms"`
	Transcript       string        `form:"transcript" required:"false" maxLength:"2000" doc:"what the recording says (optional; engines that take one clone better)"`
	Description      string        `form:"description" required:"false" maxLength:"1000"`
	Language         string        `form:"language" required:"false" maxLength:"35"`
	Accent           string        `form:"accent" required:"false" maxLength:"50"`
	Gender           string        `form:"gender" required:"false" enum:"female,male,neutral,"`
	Age              string        `form:"age" required:"false" enum:"young,middle_aged,old,"`
	Tags             string        `form:"tags" required:"false" maxLength:"700" doc:"comma-separated tags"`
}

// CloneInput is POST /api/voices/clone.
type CloneInput struct {
	RawBody huma.MultipartFormFiles[CloneForm]
}

// DesignInput is POST /api/voices/design.
type DesignInput struct {
	Body struct {
		Engine      string `json:"engine" minLength:"1" maxLength:"64" doc:"espeak-ng (offline: the description picks voice, variant, pitch and rate), or an elevenlabs engine card"`
		Description string `json:"description" minLength:"1" maxLength:"1000" doc:"what the voice sounds like: warm older woman, Scottish, slow"`
		Text        string `json:"text,omitempty" maxLength:"1000" doc:"what the samples read; a standard passage when absent"`
	}
}

// DesignOutput is the candidates of a design.
type DesignOutput struct{ Body voices.Design }

// SaveDesignInput is POST /api/voices/design/save.
type SaveDesignInput struct {
	Body struct {
		Engine      string        `json:"engine" minLength:"1" maxLength:"64"`
		GeneratedID string        `json:"generated_id" minLength:"1" maxLength:"200" doc:"the chosen preview's generated_id"`
		Name        string        `json:"name" minLength:"1" maxLength:"100"`
		Description string        `json:"description,omitempty" maxLength:"1000"`
		Language    string        `json:"language,omitempty" maxLength:"35"`
		Accent      string        `json:"accent,omitempty" maxLength:"50"`
		Gender      voices.Gender `json:"gender,omitempty" enum:"female,male,neutral,"`
		Age         voices.Age    `json:"age,omitempty" enum:"young,middle_aged,old,"`
		Tags        []string      `json:"tags,omitempty" maxItems:"20"`
	}
}

func cloneVoice(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "clone-voice", Method: http.MethodPost, Path: "/api/voices/clone",
		Summary:       "Clone a voice from 5-60 s of the speaker (with their consent confirmed) on a TTS engine that can clone; the recording is kept with the voice",
		Tags:          tags,
		MaxBodyBytes:  voices.MaxReferenceBytes + 1<<20,
		DefaultStatus: http.StatusCreated,
	}, func(ctx context.Context, in *CloneInput) (*CreatedOutput, error) {
		form := in.RawBody.Data()
		audio, err := io.ReadAll(io.LimitReader(form.Audio, voices.MaxReferenceBytes+1))
		if err != nil {
			return nil, fmt.Errorf("read the recording: %w", err)
		}
		v, err := svc.Clone(ctx, voices.CloneRequest{
			Engine: strings.TrimSpace(form.Engine), Name: form.Name, Description: form.Description,
			Language: form.Language, Accent: form.Accent, Gender: voices.Gender(form.Gender), Age: voices.Age(form.Age),
			Tags: platform.List(form.Tags), Transcript: form.Transcript,
			ConsentConfirmed: form.Consent, ConsentStatement: form.ConsentStatement, ConsentBy: form.ConsentBy,
			Audio: audio, Filename: form.Audio.Filename,
		})
		return &CreatedOutput{Status: http.StatusCreated, Body: v}, err
	})
}

func designVoice(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "design-voice", Method: http.MethodPost, Path: "/api/voices/design",
		Summary: "Design voices from a description: candidate voices, each with a sample to listen to (valid for an hour); save one with /api/voices/design/save",
		Tags:    tags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *DesignInput) (*DesignOutput, error) {
		d, err := svc.Design(ctx, voices.DesignRequest{Engine: strings.TrimSpace(in.Body.Engine), Description: in.Body.Description, Text: in.Body.Text})
		return &DesignOutput{Body: d}, err
	})
}

func saveDesign(svc *voices.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "save-designed-voice", Method: http.MethodPost, Path: "/api/voices/design/save",
		Summary:       "Keep one designed voice in the library",
		Tags:          tags,
		MaxBodyBytes:  httpapi.DefaultMaxBody,
		DefaultStatus: http.StatusCreated,
	}, func(ctx context.Context, in *SaveDesignInput) (*CreatedOutput, error) {
		b := in.Body
		v, err := svc.SaveDesign(ctx, voices.SaveDesignRequest{
			Engine: strings.TrimSpace(b.Engine), GeneratedID: b.GeneratedID,
			Spec: voices.Spec{Name: b.Name, Description: b.Description, Language: b.Language, Accent: b.Accent, Gender: b.Gender, Age: b.Age, Tags: b.Tags},
		})
		return &CreatedOutput{Status: http.StatusCreated, Body: v}, err
	})
}

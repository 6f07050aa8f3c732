package voices

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/fault"
)

// Cloner makes a voice of an engine from a recording of the speaker.
type Cloner interface {
	// Clone answers the engine's own id of the new voice; name is a
	// suggestion the engine may use for it.
	Clone(ctx context.Context, name string, ref speech.Reference) (engineVoice string, err error)
	// DeleteVoice removes a clone and the recording it was made from from
	// the engine; one the engine no longer has is not an error.
	DeleteVoice(ctx context.Context, engineVoice string) error
}

// Designer makes voices from a description.
type Designer interface {
	// Design answers candidate voices, each with a sample reading text.
	Design(ctx context.Context, description, text string) ([]Candidate, error)
	// Save keeps a candidate and answers the engine's own id of the voice.
	Save(ctx context.Context, generatedID, name, description string) (engineVoice string, err error)
}

// Candidate is one designed voice before it is saved.
type Candidate struct {
	GeneratedID string
	Audio       speech.Audio
	// What the engine read the description to say, when it says (the
	// offline espeak-ng design does; engines do not).
	Summary  string
	Language string
	Accent   string
	Gender   Gender
	Age      Age
}

var (
	// ErrCannotClone: the engine has no clone call.
	ErrCannotClone = fault.New(fault.Invalid, "the engine cannot clone voices")
	// ErrCannotDesign: the engine has no design call.
	ErrCannotDesign = fault.New(fault.Invalid, "the engine cannot design voices")
	// ErrTooLarge: a reference recording over MaxReferenceBytes.
	ErrTooLarge = fault.New(fault.TooLarge, "the recording is too large")
)

// MaxReferenceBytes is the largest reference recording a clone takes.
const MaxReferenceBytes = speech.MaxReferenceBytes

// ConsentStatement is what an uploader confirms unless they give their own.
const ConsentStatement = "I confirm that the person speaking in this recording has agreed to have their voice cloned, and to its use for narration in Lectern."

// CloneRequest is a clone a user asks for.
type CloneRequest struct {
	Engine      string
	Name        string
	Description string
	Language    string
	Accent      string
	Gender      Gender
	Age         Age
	Tags        []string
	// Transcript is what the recording says; engines that take one clone
	// better with it.
	Transcript string
	// Consent: the uploader confirms the speaker agreed; the statement they
	// confirmed (ConsentStatement when empty) and who they are are kept.
	ConsentConfirmed bool
	ConsentStatement string
	ConsentBy        string
	Audio            []byte
	Filename         string
}

// MaxTranscriptChars bounds a clone's transcript: a minute of speech.
const MaxTranscriptChars = 2000

// Clone checks the recording and the consent, sends the recording to the
// engine's clone call, keeps the recording (the consent refers to it) and
// adds the voice. Nothing reaches the engine unless every check passed.
func (s *Service) Clone(ctx context.Context, req CloneRequest) (Voice, error) {
	if !req.ConsentConfirmed {
		return Voice{}, fmt.Errorf("%w: confirm that the speaker agreed to have their voice cloned", ErrInvalid)
	}
	if len(req.Audio) > MaxReferenceBytes {
		return Voice{}, fmt.Errorf("%w: %d bytes, more than %d (%d MiB); a minute of MP3 or mono WAV fits", ErrTooLarge, len(req.Audio), MaxReferenceBytes, MaxReferenceBytes>>20)
	}
	if err := text("transcript", req.Transcript, multiline, MaxTranscriptChars); err != nil {
		return Voice{}, err
	}
	format, duration, err := ProbeReference(req.Audio)
	if err != nil {
		return Voice{}, err
	}
	if err := CheckReferenceDuration(duration); err != nil {
		return Voice{}, err
	}
	now := s.clock().UTC()
	statement := strings.TrimSpace(req.ConsentStatement)
	if statement == "" {
		statement = ConsentStatement
	}
	v := Normalize(Voice{
		ID: NewID(), Name: req.Name, Description: req.Description, Language: req.Language,
		Accent: req.Accent, Gender: req.Gender, Age: req.Age, Tags: slices.Concat(req.Tags, []string{"clone"}),
		Source: SourceClone, Engine: req.Engine, EngineVoice: "pending",
		Consent: &Consent{Confirmed: true, Statement: statement, By: req.ConsentBy, At: now},
		Created: now, Updated: now,
	})
	if err := Validate(v); err != nil {
		return Voice{}, err
	}
	cloner, err := s.engines.Cloner(ctx, v.Engine)
	if err != nil {
		return Voice{}, err
	}
	ref := speech.Reference{Audio: req.Audio, Filename: v.ID + "." + string(format), ContentType: format.ContentType(), Transcript: strings.TrimSpace(req.Transcript)}
	if v.EngineVoice, err = cloner.Clone(ctx, v.ID, ref); err != nil {
		return Voice{}, engineError(v.Engine, err)
	}
	if err := Validate(v); err != nil {
		return Voice{}, fmt.Errorf("%w: engine %s named the clone %q", ErrEngine, v.Engine, clip(v.EngineVoice))
	}
	// The recording is what the consent covers: it is kept beside the voice.
	if err := s.blobs.Put(ctx, ReferenceKey(v.ID, format), bytes.NewReader(req.Audio), format.ContentType()); err != nil {
		return Voice{}, fmt.Errorf("store the recording of %s: %w", v.ID, err)
	}
	v, err = s.store.Create(ctx, v)
	if err != nil {
		s.log.Warn("clone made on the engine but not stored", "engine", v.Engine, "engine_voice", v.EngineVoice, "err", err)
		return Voice{}, err
	}
	return v, nil
}

// ReferenceKey is the blob key of a clone's recording.
func ReferenceKey(id string, f AudioFormat) string {
	return "voices/references/" + id + "." + string(f)
}

// DesignRequest asks an engine for voices matching a description.
type DesignRequest struct {
	Engine      string
	Description string
	// Text is what the samples read; empty reads DesignSampleText.
	Text string
}

// DesignSampleText is what design samples read: long enough for the
// engines that need 100 characters, and varied enough to hear a voice.
const DesignSampleText = "Good evening. Tonight I will read you a story about a lighthouse keeper, a storm at sea, and a letter that arrived forty years too late."

// Design limits.
const (
	MaxDesignDescriptionChars = 1000
	MaxDesignTextChars        = 1000
)

// DesignPreview is one candidate voice as a client sees it.
type DesignPreview struct {
	GeneratedID string `json:"generated_id" doc:"send it back to save this voice"`
	Summary     string `json:"summary,omitempty" doc:"what the description was read to say (offline espeak-ng design)"`
	Language    string `json:"language,omitempty" doc:"suggested language tag"`
	Accent      string `json:"accent,omitempty" doc:"suggested accent"`
	Gender      Gender `json:"gender,omitempty" enum:"female,male,neutral,"`
	Age         Age    `json:"age,omitempty" enum:"young,middle_aged,old,"`
	ContentType string `json:"content_type"`
	URL         string `json:"url" doc:"the sample; valid for an hour"`
}

// Design is what a design answered.
type Design struct {
	Engine      string          `json:"engine"`
	Description string          `json:"description"`
	Text        string          `json:"text" doc:"what the samples read"`
	Previews    []DesignPreview `json:"previews"`
}

// Design asks the engine for candidate voices and stores their samples,
// which stay playable for an hour.
func (s *Service) Design(ctx context.Context, req DesignRequest) (Design, error) {
	req.Description = strings.TrimSpace(req.Description)
	req.Text = strings.TrimSpace(req.Text)
	if req.Text == "" {
		req.Text = DesignSampleText
	}
	if err := text("description", req.Description, required|multiline, MaxDesignDescriptionChars); err != nil {
		return Design{}, err
	}
	if err := text("text", req.Text, multiline, MaxDesignTextChars); err != nil {
		return Design{}, err
	}
	if err := CheckEngine(req.Engine); err != nil {
		return Design{}, err
	}
	designer, err := s.engines.Designer(ctx, req.Engine)
	if err != nil {
		return Design{}, err
	}
	candidates, err := designer.Design(ctx, req.Description, req.Text)
	if err != nil {
		return Design{}, engineError(req.Engine, err)
	}
	out := Design{Engine: req.Engine, Description: req.Description, Text: req.Text}
	for _, c := range candidates {
		key := designKey(req.Engine, c.GeneratedID, req.Text, c.Audio.ContentType)
		if err := s.blobs.Put(ctx, key, bytes.NewReader(c.Audio.Data), c.Audio.ContentType); err != nil {
			return Design{}, fmt.Errorf("store a design sample: %w", err)
		}
		url, err := s.blobs.PresignGet(ctx, key, PreviewTTL)
		if err != nil {
			return Design{}, err
		}
		out.Previews = append(out.Previews, DesignPreview{
			GeneratedID: c.GeneratedID, Summary: c.Summary, Language: c.Language, Accent: c.Accent,
			Gender: c.Gender, Age: c.Age, ContentType: c.Audio.ContentType, URL: url,
		})
	}
	return out, nil
}

// designKey is where a design sample is kept: a digest of what decides it.
func designKey(engine, generatedID, text, contentType string) string {
	sum := sha256.Sum256([]byte(engine + "\x00" + generatedID + "\x00" + text))
	ext := "mp3"
	if strings.Contains(contentType, "wav") {
		ext = "wav"
	}
	return "voices/designs/" + hex.EncodeToString(sum[:16]) + "." + ext
}

// SaveDesignRequest keeps one designed voice in the library.
type SaveDesignRequest struct {
	Engine      string
	GeneratedID string
	Spec        Spec // name, description, language, accent, gender, age, tags
}

// SaveDesign asks the engine to keep the candidate and adds it to the
// library as a designed voice.
func (s *Service) SaveDesign(ctx context.Context, req SaveDesignRequest) (Voice, error) {
	spec := req.Spec
	spec.Source, spec.Engine, spec.EngineVoice = SourceDesign, req.Engine, "pending"
	v, err := s.handVoice(NewID(), spec) // the engine is asked below
	if err != nil {
		return Voice{}, err
	}
	if err := text("generated_id", req.GeneratedID, required, MaxEngineVoiceChars); err != nil {
		return Voice{}, err
	}
	designer, err := s.engines.Designer(ctx, req.Engine)
	if err != nil {
		return Voice{}, err
	}
	if v.EngineVoice, err = designer.Save(ctx, req.GeneratedID, v.Name, v.Description); err != nil {
		if errors.Is(err, ErrInvalid) {
			return Voice{}, err
		}
		return Voice{}, engineError(req.Engine, err)
	}
	if err := Validate(v); err != nil {
		return Voice{}, fmt.Errorf("%w: engine %s named the voice %q", ErrEngine, v.Engine, clip(v.EngineVoice))
	}
	return s.store.Create(ctx, v)
}

// EspeakDesigner is the offline design: the description's words pick an
// espeak-ng voice, variant, pitch and rate (speech.DesignEspeak), and the
// generated id is that voice's name, so saving needs no engine at all.
type EspeakDesigner struct {
	Speaker speech.Synthesizer
}

// Design speaks text in each voice the description maps to.
func (d EspeakDesigner) Design(ctx context.Context, description, text string) ([]Candidate, error) {
	var out []Candidate
	for _, c := range speech.DesignEspeak(description) {
		audio, err := d.Speaker.Speak(ctx, speech.Request{Text: text, Voice: c.Spec.String(), Format: speech.FormatWAV})
		if err != nil {
			return nil, err
		}
		out = append(out, Candidate{
			GeneratedID: c.Spec.String(), Audio: audio, Summary: c.Summary,
			Language: c.Language, Accent: c.Accent, Gender: Gender(c.Gender), Age: Age(c.Age),
		})
	}
	return out, nil
}

// Save checks the generated id is an espeak-ng voice name and answers it.
func (d EspeakDesigner) Save(_ context.Context, generatedID, _, _ string) (string, error) {
	spec, err := speech.ParseEspeakSpec(generatedID)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return spec.String(), nil
}

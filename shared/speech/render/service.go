package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/voices"
)

// JobKind is the background job that renders one text.
const JobKind = "speech.render"

// Limits of a render request.
const (
	// MaxTextBytes bounds a render's text (titles included), in UTF-8: an
	// audiobook is a whole novel, 1 to 2 MB for most, 3.2 MB for War and
	// Peace in English. The text is kept as a blob beside the render's
	// output, not in the job's payload (which jobs.MaxDocumentSize bounds
	// to 256 KiB), and 5 MB still reaches the API function in AWS, whose
	// requests Lambda caps at 6 MB.
	MaxTextBytes = 5_000_000
	MaxChapters  = 500
	// MaxVoices bounds the distinct voices of one render: a novel's cast.
	MaxVoices = 64
	// AudioTTL is how long an audio URL the API hands out stays valid.
	AudioTTL = time.Hour
)

// Spec is what a caller asks to have rendered.
type Spec struct {
	Text     string    `json:"text,omitempty" doc:"the text, as one chapter; give text or chapters"`
	Chapters []Chapter `json:"chapters,omitempty" doc:"the text by chapter; give text or chapters"`
	VoiceID  string    `json:"voice_id" doc:"a voice of the library: the text's, and a segment's that names none; required unless every segment names one"`
	Format   string    `json:"format" doc:"mp3 or m4b"`
	Title    string    `json:"title,omitempty" doc:"the title written into the file"`
	Artist   string    `json:"artist,omitempty" doc:"the artist (author or narrator) written into the file"`
	Speed    float64   `json:"speed,omitempty" doc:"multiple of the normal rate, 0.25..4; 0 or absent is 1"`
	Check    *bool     `json:"check,omitempty" doc:"hear every chunk with the ear (speech recognition) and speak again, then mark, the chunks heard wrong; absent follows Settings (ear_check, on unless switched off), read when the render runs"`
}

// EarDefault says whether a render that does not ask either way is heard
// by the ear: the instance's Settings (ear_check), read when the render
// runs, so switching it off spares renders already queued.
type EarDefault func(ctx context.Context) (bool, error)

// payload is a render job's payload: the spec without its text, where the
// text is (TextKey), the voice as it was when asked (engine and engine
// voice), and where the output goes. A payload of a job queued before the
// text moved out has the text in Spec and no TextKey.
type payload struct {
	Spec
	TextKey string `json:"text_key,omitempty"`
	// Engine and EngineVoice are the default voice's (Spec.VoiceID), empty
	// when every segment names its voice.
	Engine      string `json:"engine"`
	EngineVoice string `json:"engine_voice"`
	// Voices are the segments' voices other than the default, by library
	// id; a payload queued before segments has none.
	Voices map[string]voiceRef `json:"voices,omitempty"`
	Output string              `json:"output"`
	// Album, Track and Tracks tag an audiobook's chapter file (see
	// Request); an API render has none.
	Album  string `json:"album,omitempty"`
	Track  int    `json:"track,omitempty"`
	Tracks int    `json:"tracks,omitempty"`
}

// voiceRef is a library voice as it was when the render was asked for.
type voiceRef struct {
	Engine      string `json:"engine"`
	EngineVoice string `json:"engine_voice"`
}

// textBlob is the name, under a render's output prefix, of its chapters
// (JSON), stored by Start and read by the job.
const textBlob = "text.json"

// Status is a render as the API shows it.
type Status struct {
	ID       string      `json:"id" doc:"the render's job id"`
	Status   jobs.Status `json:"status" enum:"queued,running,succeeded,failed"`
	Progress float64     `json:"progress" doc:"0..1: chunks spoken (or found cached) of all"`
	Message  string      `json:"message,omitempty" doc:"e.g. 12 of 40 chunks spoken"`
	Error    string      `json:"error,omitempty" doc:"why the render failed, or why it is being retried"`
	Format   string      `json:"format"`
	VoiceID  string      `json:"voice_id"`
	Result   *Result     `json:"result,omitempty" doc:"once succeeded"`
	AudioURL string      `json:"audio_url,omitempty" doc:"once succeeded: a short-lived URL of the audio (supports Range)"`
	Timings  *Timings    `json:"timings,omitempty" doc:"once succeeded: every sentence's start and end, by chapter"`
}

// Engines turns a voice's engine into something that speaks.
type Engines interface {
	// Engine is the engine named (a card, or voices.BuiltinEngine) speaking
	// in its voice; an engine that cannot be used answers an error matching
	// voices.ErrNoEngine.
	Engine(ctx context.Context, engine, voice string) (Engine, error)
}

// Voices reads the voice library (voices.Store satisfies it).
type Voices interface {
	Get(ctx context.Context, id string) (voices.Voice, error)
}

// Service starts renders as jobs, runs them, and reports on them.
type Service struct {
	renderer *Renderer
	queue    jobs.Queue
	voices   Voices
	engines  Engines
	blobs    blob.Store
	plans    planCache // the plans ListChunks read last
	// earOn decides renders that do not ask; nil is on.
	earOn EarDefault
}

// NewService builds the render service.
func NewService(r *Renderer, queue jobs.Queue, library Voices, engines Engines, blobs blob.Store) *Service {
	return &Service{renderer: r, queue: queue, voices: library, engines: engines, blobs: blobs}
}

// WithEarDefault has renders that do not ask either way follow on.
func (s *Service) WithEarDefault(on EarDefault) *Service {
	s.earOn = on
	return s
}

// checked says whether the render of p is heard by the ear: as it asked,
// else as Settings say now.
func (s *Service) checked(ctx context.Context, p payload) (bool, error) {
	if p.Check != nil {
		return *p.Check, nil
	}
	if s.earOn == nil {
		return true, nil
	}
	return s.earOn(ctx)
}

// Chapters is the spec's text as chapters.
func (s Spec) chapters() []Chapter {
	if len(s.Chapters) > 0 {
		return s.Chapters
	}
	return []Chapter{{Text: s.Text}}
}

// Validate reports why spec cannot be rendered, wrapping ErrInvalid.
func (s Spec) Validate() error {
	switch {
	case s.Text != "" && len(s.Chapters) > 0:
		return fmt.Errorf("%w: give text or chapters, not both", ErrInvalid)
	case len(s.Chapters) > MaxChapters:
		return fmt.Errorf("%w: %d chapters, at most %d", ErrInvalid, len(s.Chapters), MaxChapters)
	case s.Format != FormatMP3 && s.Format != FormatM4B:
		return fmt.Errorf("%w: format %q is not mp3 or m4b", ErrInvalid, s.Format)
	case s.Speed != 0 && !(s.Speed >= speech.MinSpeed && s.Speed <= speech.MaxSpeed):
		return fmt.Errorf("%w: speed %g is outside %g..%g", ErrInvalid, s.Speed, speech.MinSpeed, speech.MaxSpeed)
	}
	n, words := 0, 0
	for i, c := range s.chapters() {
		if c.Text != "" && len(c.Segments) > 0 {
			return fmt.Errorf("%w: chapter %d: give text or segments, not both", ErrInvalid, i+1)
		}
		if !utf8.ValidString(c.Title) {
			return fmt.Errorf("%w: chapter %d is not valid UTF-8", ErrInvalid, i+1)
		}
		n += len(c.Title)
		for j, seg := range c.segments() {
			if !utf8.ValidString(seg.Text) {
				return fmt.Errorf("%w: chapter %d is not valid UTF-8", ErrInvalid, i+1)
			}
			if seg.VoiceID == "" && s.VoiceID == "" && strings.TrimSpace(seg.Text) != "" {
				if len(c.Segments) == 0 {
					return fmt.Errorf("%w: chapter %d has no voice: give voice_id", ErrInvalid, i+1)
				}
				return fmt.Errorf("%w: chapter %d segment %d names no voice and there is no voice_id", ErrInvalid, i+1, j+1)
			}
			n += len(seg.Text)
			words += len(strings.Fields(seg.Text))
		}
	}
	if v := s.voiceIDs(); len(v) > MaxVoices {
		return fmt.Errorf("%w: %d voices, at most %d", ErrInvalid, len(v), MaxVoices)
	}
	if n > MaxTextBytes {
		return fmt.Errorf("%w: the text has %d bytes, at most %d", ErrInvalid, n, MaxTextBytes)
	}
	if words == 0 {
		return fmt.Errorf("%w: the text is empty", ErrInvalid)
	}
	return nil
}

// voiceIDs are the distinct library voices spec speaks in, the default
// first when it speaks.
func (s Spec) voiceIDs() []string {
	var ids []string
	seen := map[string]bool{}
	add := func(id string) {
		if id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	add(s.VoiceID)
	for _, c := range s.chapters() {
		for _, seg := range c.Segments {
			add(seg.VoiceID)
		}
	}
	return ids
}

// resolve looks a voice up in the library and checks its engine.
func (s *Service) resolve(ctx context.Context, id string) (voiceRef, error) {
	v, err := s.voices.Get(ctx, id)
	if errors.Is(err, voices.ErrNotFound) {
		return voiceRef{}, fmt.Errorf("%w: there is no voice %q", ErrInvalid, id)
	}
	if err != nil {
		return voiceRef{}, err
	}
	// Refuse an engine card that cannot speak now, not in the job. The
	// built-in espeak-ng is the job's to find: in AWS the job runs on the
	// worker, which carries it, not in the function that queues it.
	if v.Engine != voices.BuiltinEngine {
		if _, err := s.engines.Engine(ctx, v.Engine, v.EngineVoice); err != nil {
			return voiceRef{}, err
		}
	}
	return voiceRef{Engine: v.Engine, EngineVoice: v.EngineVoice}, nil
}

// Start checks spec, resolves its voices and queues the render.
func (s *Service) Start(ctx context.Context, spec Spec) (Status, error) {
	if err := spec.Validate(); err != nil {
		return Status{}, err
	}
	var def voiceRef
	others := map[string]voiceRef{}
	for _, id := range spec.voiceIDs() {
		v, err := s.resolve(ctx, id)
		if err != nil {
			return Status{}, err
		}
		if id == spec.VoiceID {
			def = v
		} else {
			others[id] = v
		}
	}
	output := "speech/renders/" + jobs.NewID() + "/"
	text, err := json.Marshal(spec.chapters())
	if err != nil {
		return Status{}, err
	}
	textKey := output + textBlob
	if err := s.blobs.Put(ctx, textKey, bytes.NewReader(text), "application/json"); err != nil {
		return Status{}, fmt.Errorf("store the render's text: %w", err)
	}
	bare := spec
	bare.Text, bare.Chapters = "", nil
	p, err := json.Marshal(payload{Spec: bare, TextKey: textKey, Engine: def.Engine, EngineVoice: def.EngineVoice, Voices: others, Output: output})
	if err == nil {
		var job jobs.Job
		if job, err = s.queue.Enqueue(ctx, JobKind, p); err == nil {
			return s.status(ctx, job)
		}
	}
	// No job will read the text. (A failed delete leaves one orphan blob.)
	_ = s.blobs.Delete(context.WithoutCancel(ctx), textKey)
	return Status{}, err
}

// text reads a job's chapters: from the blob Start stored, or, in a
// payload queued before texts moved out of payloads, from the payload.
func (s *Service) text(ctx context.Context, p payload) ([]Chapter, error) {
	if p.TextKey == "" {
		return p.chapters(), nil
	}
	rc, _, err := s.blobs.Get(ctx, p.TextKey)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, fmt.Errorf("%w: the render's text %s is gone", ErrInvalid, p.TextKey)
	}
	if err != nil {
		return nil, fmt.Errorf("the render's text: %w", err)
	}
	defer rc.Close()
	var chapters []Chapter
	// JSON escapes at most sextuple a text's bytes (\u0001 for one byte).
	if err := json.NewDecoder(io.LimitReader(rc, 6*MaxTextBytes+1<<20)).Decode(&chapters); err != nil {
		return nil, fmt.Errorf("%w: the render's text %s: %v", ErrInvalid, p.TextKey, err)
	}
	return chapters, nil
}

// Get reports on a render. Any job of another kind is not found.
func (s *Service) Get(ctx context.Context, id string) (Status, error) {
	job, err := s.queue.Get(ctx, id)
	if err != nil {
		return Status{}, err
	}
	if job.Kind != JobKind {
		return Status{}, fmt.Errorf("render %s: %w", id, jobs.ErrNotFound)
	}
	return s.status(ctx, job)
}

// AudioURL is a short-lived URL of a finished render's audio.
func (s *Service) AudioURL(ctx context.Context, id string) (string, error) {
	st, err := s.Get(ctx, id)
	if err != nil {
		return "", err
	}
	if st.AudioURL == "" {
		return "", fmt.Errorf("%w: render %s is %s, it has no audio yet", ErrNotReady, id, st.Status)
	}
	return st.AudioURL, nil
}

func (s *Service) status(ctx context.Context, job jobs.Job) (Status, error) {
	var p payload
	if err := json.Unmarshal(job.Payload, &p); err != nil {
		return Status{}, fmt.Errorf("render %s: payload: %w", job.ID, err)
	}
	st := Status{ID: job.ID, Status: job.Status, Progress: job.Progress, Message: job.Message, Error: job.Error, Format: p.Format, VoiceID: p.VoiceID}
	if job.Status != jobs.StatusSucceeded {
		return st, nil
	}
	var res Result
	if err := json.Unmarshal(job.Result, &res); err != nil {
		return Status{}, fmt.Errorf("render %s: result: %w", job.ID, err)
	}
	st.Result = &res
	url, err := s.blobs.PresignGet(ctx, res.Key, AudioTTL)
	if err != nil {
		return Status{}, err
	}
	st.AudioURL = url
	rc, _, err := s.blobs.Get(ctx, res.TimingsKey)
	if err != nil {
		return Status{}, fmt.Errorf("render %s: timings: %w", job.ID, err)
	}
	defer rc.Close()
	var tm Timings
	if err := json.NewDecoder(io.LimitReader(rc, 64<<20)).Decode(&tm); err != nil {
		return Status{}, fmt.Errorf("render %s: timings: %w", job.ID, err)
	}
	st.Timings = &tm
	return st, nil
}

// Job is the render job's handler. It is safe to run again: chunks spoken
// by an earlier run are in the cache, so a run after a crash speaks only
// what is missing, and the outputs are replaced whole.
func (s *Service) Job(ctx context.Context, raw json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var p payload
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("%w: payload: %v", ErrInvalid, err)
	}
	var eng Engine
	if p.Engine != "" {
		var err error
		if eng, err = s.engines.Engine(ctx, p.Engine, p.EngineVoice); err != nil {
			return nil, err
		}
	}
	others := make(map[string]Engine, len(p.Voices))
	for id, v := range p.Voices {
		e, err := s.engines.Engine(ctx, v.Engine, v.EngineVoice)
		if err != nil {
			return nil, fmt.Errorf("voice %s: %w", id, err)
		}
		others[id] = e
	}
	chapters, err := s.text(ctx, p)
	if errors.Is(err, ErrInvalid) {
		return nil, err
	}
	if err != nil { // blob store trouble: worth another run
		return nil, jobs.Transient(err)
	}
	check, err := s.checked(ctx, p)
	if err != nil { // the settings table's trouble: worth another run
		return nil, jobs.Transient(fmt.Errorf("settings: %w", err))
	}
	res, err := s.renderer.Render(ctx, Request{
		Engine: eng, VoiceID: p.VoiceID, Voices: others, Speed: p.Speed, Chapters: chapters, Format: p.Format,
		Title: p.Title, Artist: p.Artist, Album: p.Album, Track: p.Track, Tracks: p.Tracks, Output: p.Output, Check: check,
	}, func(ctx context.Context, done, total int) error {
		return progress.Progress(ctx, float64(done)/float64(total), fmt.Sprintf("%d of %d chunks spoken", done, total))
	})
	switch {
	case errors.Is(err, ErrBusy):
		return nil, jobs.Transient(err)
	case err != nil && !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrEngine) && !errors.Is(err, ErrNoFFmpeg) && !errors.Is(err, jobs.ErrSuperseded):
		// Blob store or disk trouble: worth another run, which resumes.
		return nil, jobs.Transient(err)
	case err != nil:
		return nil, err
	}
	return json.Marshal(res)
}

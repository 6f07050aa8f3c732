// Package oaispeech is the OpenAI-compatible /v1/audio/speech engine
// (Kokoro, OpenedAI-speech, OpenAI), built on openai-go. It is apart from
// speech because openai-go's package initialisers weigh 17 MB in every
// binary that links it.
package oaispeech

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/engines/speech"
)

// Defaults for Config fields and Request fields left zero.
const (
	// DefaultTimeout bounds one attempt, reading the audio included; twice
	// oaichat's.
	DefaultTimeout    = speech.DefaultTimeout
	DefaultMaxRetries = 2
	// DefaultModel is accepted by OpenAI and, as an alias, by the common
	// self-hosted engines (Kokoro-FastAPI, OpenedAI-speech).
	DefaultModel = "tts-1"
	// DefaultVoice is OpenAI's first voice; the self-hosted engines map it
	// to one of theirs.
	DefaultVoice = "alloy"
)

// MaxAudioBytes caps an engine's answer: 4096 characters at a quarter of
// the normal speed as 24 kHz 16-bit WAV stay below it, so only a broken or
// hostile engine reaches it.
const MaxAudioBytes = 128 << 20

// Config names one OpenAI-compatible speech engine.
type Config struct {
	BaseURL    string        // ends in /v1
	APIKey     string        // resolved on the server; may be empty
	Model      string        // empty means DefaultModel
	Timeout    time.Duration // per attempt; 0 means DefaultTimeout
	MaxRetries int           // on 429, 5xx and connection errors; 0 means DefaultMaxRetries, <0 none
	HTTPClient *http.Client  // nil means http.DefaultClient
}

// OpenAI is an OpenAI-compatible /v1/audio/speech engine (Kokoro,
// OpenedAI-speech, OpenAI), called through openai-go's Audio.Speech.New.
type OpenAI struct {
	api      openai.AudioSpeechService
	cfg      Config
	endpoint string // shown in errors, key redacted
}

var _ speech.Synthesizer = (*OpenAI)(nil)

// NewOpenAI builds the engine client; it does not contact the engine.
func NewOpenAI(cfg Config) *OpenAI {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	opts := oaichat.RequestOptions(base, cfg.APIKey, oaichat.Retries(cfg.MaxRetries), cfg.Timeout, DefaultTimeout, cfg.HTTPClient)
	// The bare service, not openai.NewClient: the client would also read
	// OPENAI_ORG_ID, OPENAI_PROJECT_ID and OPENAI_CUSTOM_HEADERS from the
	// server's environment and send them to the user's engine.
	return &OpenAI{
		api:      openai.NewAudioSpeechService(opts...),
		cfg:      cfg,
		endpoint: engines.Redact(base+"/audio/speech", cfg.APIKey),
	}
}

// Speak asks the engine for req.Text spoken in req.Voice (DefaultVoice when
// empty). The audio's content type is the engine's, or the requested
// format's when the engine names none or a generic one.
func (o *OpenAI) Speak(ctx context.Context, req speech.Request) (speech.Audio, error) {
	if err := req.Validate(); err != nil {
		return speech.Audio{}, err
	}
	voice := strings.TrimSpace(req.Voice)
	if voice == "" {
		voice = DefaultVoice
	}
	format := req.OutputFormat()
	params := openai.AudioSpeechNewParams{
		Input: req.Text,
		Model: o.cfg.Model,
		Voice: openai.AudioSpeechNewParamsVoiceUnion{OfString: openai.String(voice)},
		// Always sent: OpenAI's own default is mp3, ours wav.
		ResponseFormat: openai.AudioSpeechNewParamsResponseFormat(format),
	}
	if req.Speed != 0 {
		params.Speed = openai.Float(req.Speed)
	}
	var raw *http.Response
	resp, err := o.api.New(ctx, params, option.WithResponseInto(&raw))
	if err != nil {
		return speech.Audio{}, engineError(o.endpoint, o.cfg.APIKey, raw, err)
	}
	// The body carries the attempt's timeout until closed.
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxAudioBytes+1))
	switch {
	case err != nil:
		return speech.Audio{}, engineError(o.endpoint, o.cfg.APIKey, nil, fmt.Errorf("reading the audio: %w", err))
	case len(data) > MaxAudioBytes:
		return speech.Audio{}, &speech.EngineError{URL: o.endpoint, Status: resp.StatusCode, Detail: fmt.Sprintf("audio larger than %d MiB", MaxAudioBytes>>20)}
	case len(data) == 0:
		return speech.Audio{}, &speech.EngineError{URL: o.endpoint, Status: resp.StatusCode, Detail: speech.ErrEmptyAnswer.Error(), Err: speech.ErrEmptyAnswer}
	}
	return speech.Audio{Data: data, ContentType: audioType(resp.Header.Get("Content-Type"), format)}, nil
}

// audioType is the engine's media type when it is a specific audio one;
// engines behind generic proxies answer application/octet-stream or
// nothing, and then the requested format decides.
func audioType(header, format string) string {
	if mt, _, err := mime.ParseMediaType(header); err == nil && strings.HasPrefix(mt, "audio/") {
		return mt
	}
	ct, _ := speech.ContentType(format)
	return ct
}

// engineError turns a failed openai-go call into a speech.EngineError with the key
// redacted. resp is the last answer, if any: it supplies the status when the
// error body was not OpenAI's JSON (a proxy's HTML page, say).
func engineError(endpoint, key string, resp *http.Response, err error) error {
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		// The status only: the answer's body may echo the key in any encoding.
		e := &speech.EngineError{URL: endpoint, Status: apiErr.StatusCode, Detail: http.StatusText(apiErr.StatusCode), Err: err}
		if apiErr.StatusCode == http.StatusUnauthorized || apiErr.StatusCode == http.StatusForbidden {
			e.Err = speech.ErrUnauthorized
		}
		return e
	case resp != nil && resp.StatusCode >= 400:
		e := &speech.EngineError{URL: endpoint, Status: resp.StatusCode, Detail: http.StatusText(resp.StatusCode), Err: err}
		if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
			e.Err = speech.ErrUnauthorized
		}
		return e
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return &speech.EngineError{URL: endpoint, Detail: "no answer in time: " + engines.Redact(err.Error(), key), Err: err}
	}
	return &speech.EngineError{URL: endpoint, Detail: engines.Redact(err.Error(), key), Err: err}
}

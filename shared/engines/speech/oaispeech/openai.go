// Package oaispeech is the OpenAI-compatible /v1/audio/speech engine
// (Kokoro, OpenedAI-speech, OpenAI). It speaks the one JSON-in, audio-out
// call over net/http rather than through openai-go: openai-go's package
// initialisers weigh 17 MB in every binary that links it, and the Speech
// and Voices Lambdas, which call nothing else of the OpenAI API, must stay
// under 15 MB (issue 15). Retries follow openai-go's policy (408, 409, 429,
// 5xx and connection errors; Retry-After honoured).
package oaispeech

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/engines/speech"
)

// Defaults for Config fields and Request fields left zero.
const (
	// DefaultTimeout bounds one attempt, reading the audio included.
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
	MaxRetries int           // on 408, 409, 429, 5xx and connection errors; 0 means DefaultMaxRetries, <0 none
	HTTPClient *http.Client  // nil means http.DefaultClient
}

// OpenAI is an OpenAI-compatible /v1/audio/speech engine.
type OpenAI struct {
	cfg      Config
	url      string // the endpoint called
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
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = http.DefaultClient
	}
	url := strings.TrimRight(cfg.BaseURL, "/") + "/audio/speech"
	return &OpenAI{cfg: cfg, url: url, endpoint: engines.Redact(url, cfg.APIKey)}
}

// speechRequest is the body of POST /audio/speech.
type speechRequest struct {
	Model  string  `json:"model"`
	Input  string  `json:"input"`
	Voice  string  `json:"voice"`
	Format string  `json:"response_format"` // always sent: OpenAI's own default is mp3, ours wav
	Speed  float64 `json:"speed,omitempty"`
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
	body, err := json.Marshal(speechRequest{Model: o.cfg.Model, Input: req.Text, Voice: voice, Format: format, Speed: req.Speed})
	if err != nil {
		return speech.Audio{}, err
	}
	for attempt := 0; ; attempt++ {
		audio, wait, err := o.attempt(ctx, body, format, attempt)
		if err == nil || wait < 0 || attempt >= o.cfg.MaxRetries {
			return audio, err
		}
		select {
		case <-ctx.Done():
			return speech.Audio{}, o.failed(ctx.Err())
		case <-time.After(wait):
		}
	}
}

// attempt makes one call. wait is how long to wait before retrying a failed
// call, or negative when the failure is not worth retrying.
func (o *OpenAI) attempt(ctx context.Context, body []byte, format string, n int) (speech.Audio, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel() // the timeout covers reading the audio too
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, o.url, bytes.NewReader(body))
	if err != nil {
		return speech.Audio{}, -1, o.failed(err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if o.cfg.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+o.cfg.APIKey)
	}
	resp, err := o.cfg.HTTPClient.Do(hr)
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, context.Canceled) {
			return speech.Audio{}, -1, o.failed(err)
		}
		return speech.Audio{}, backoff(n, nil), o.failed(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		// The status only: the answer's body may echo the key in any encoding.
		e := &speech.EngineError{URL: o.endpoint, Status: resp.StatusCode, Detail: http.StatusText(resp.StatusCode)}
		switch resp.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			e.Err = speech.ErrUnauthorized
		case http.StatusTooManyRequests, http.StatusServiceUnavailable:
			e.RetryAfter = resp.Header.Get("Retry-After")
		}
		if !retryable(resp.StatusCode) {
			return speech.Audio{}, -1, e
		}
		return speech.Audio{}, backoff(n, resp.Header), e
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxAudioBytes+1))
	switch {
	case err != nil:
		return speech.Audio{}, -1, o.failed(fmt.Errorf("reading the audio: %w", err))
	case len(data) > MaxAudioBytes:
		return speech.Audio{}, -1, &speech.EngineError{URL: o.endpoint, Status: resp.StatusCode, Detail: fmt.Sprintf("audio larger than %d MiB", MaxAudioBytes>>20)}
	case len(data) == 0:
		return speech.Audio{}, -1, &speech.EngineError{URL: o.endpoint, Status: resp.StatusCode, Detail: speech.ErrEmptyAnswer.Error(), Err: speech.ErrEmptyAnswer}
	}
	return speech.Audio{Data: data, ContentType: audioType(resp.Header.Get("Content-Type"), format)}, 0, nil
}

// failed files a call that got no answer, with the key redacted.
func (o *OpenAI) failed(err error) error {
	detail := engines.Redact(err.Error(), o.cfg.APIKey)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		detail = "no answer in time: " + detail
	}
	return &speech.EngineError{URL: o.endpoint, Detail: detail, Err: err}
}

// retryable are the statuses openai-go retries: a timeout, a conflict, too
// many requests and the engine's own failures.
func retryable(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusConflict ||
		status == http.StatusTooManyRequests || status >= 500
}

// backoff is the wait after failed attempt n (0-based): the engine's
// Retry-After-Ms or Retry-After (seconds or a date) when it gives one of at
// most a minute, else half a second doubled per attempt up to 8 s, less up
// to a quarter of jitter (openai-go's schedule).
func backoff(n int, h http.Header) time.Duration {
	if h != nil {
		if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms >= 0 && ms <= 60_000 {
			return time.Duration(ms * float64(time.Millisecond))
		}
		if v := h.Get("Retry-After"); v != "" {
			if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s <= 60 {
				return time.Duration(s * float64(time.Second))
			}
			if at, err := http.ParseTime(v); err == nil {
				if d := time.Until(at); d >= 0 && d <= time.Minute {
					return d
				}
			}
		}
	}
	d := min(500*time.Millisecond<<min(n, 4), 8*time.Second)
	return d - time.Duration(rand.Int64N(int64(d/4)+1))
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

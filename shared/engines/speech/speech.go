// Package speech owns text to speech: the Synthesizer contract, the checks
// every request passes before an engine sees it, and the engines that need
// no client library — the built-in espeak-ng run as a subprocess, and the
// ElevenLabs and Chatterbox voice APIs. The OpenAI-compatible
// /v1/audio/speech engine (Kokoro, OpenedAI-speech, OpenAI itself) is in
// oaispeech, over net/http with openai-go's retry schedule. Keys never
// appear in errors.
package speech

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/engines"
)

// DefaultTimeout bounds one engine call, reading the audio included: a
// local engine on a CPU needs tens of seconds for a full 4096-character
// text.
const DefaultTimeout = 60 * time.Second

// MaxTextChars is the longest text one request may carry, in characters
// (not bytes): the OpenAI speech endpoint's limit, applied to every engine
// so that a text accepted by one is accepted by all.
const MaxTextChars = 4096

// Speed bounds, the OpenAI endpoint's; 0 in a Request means 1.0.
const (
	MinSpeed = 0.25
	MaxSpeed = 4.0
)

// Formats a Request may ask for. FormatWAV is the default: every engine,
// espeak-ng included, can produce it.
const (
	FormatMP3  = "mp3"
	FormatWAV  = "wav"
	FormatOpus = "opus"
	FormatFLAC = "flac"
)

// ContentType is format's media type, reported when the engine does not
// name one itself; ok is false for an unknown format.
func ContentType(format string) (mediaType string, ok bool) {
	switch format {
	case FormatMP3:
		return "audio/mpeg", true
	case FormatWAV:
		return "audio/wav", true
	case FormatOpus:
		return "audio/ogg", true // OpenAI wraps Opus in an Ogg container
	case FormatFLAC:
		return "audio/flac", true
	}
	return "", false
}

var (
	// ErrInvalid is wrapped by every refusal of a request before an engine
	// is called: empty or overlong text, unknown format, speed out of range,
	// unusable voice.
	ErrInvalid = errors.New("invalid speech request")
	// ErrEmptyAnswer: the engine answered without audio.
	ErrEmptyAnswer = errors.New("engine answered without audio")
	// ErrUnauthorized: the engine refused the key (HTTP 401/403). It is
	// engines' value, so one errors.Is check covers every engine.
	ErrUnauthorized = engines.ErrUnauthorized
)

// EngineError is a failed engine call naming the endpoint URL and the HTTP
// status (0 when no answer arrived). It is engines' type, so callers handle
// chat, speech and image engines alike.
type EngineError = engines.EngineError

// KeyPlaceholder stands in for a key wherever one would be shown.
const KeyPlaceholder = engines.KeyPlaceholder

// Synthesizer turns text into audio.
type Synthesizer interface {
	Speak(ctx context.Context, req Request) (Audio, error)
}

// Request is one text to speak.
type Request struct {
	Text string
	// Voice is engine-specific ("alloy", "af_heart", "en-us"); empty means
	// the engine's default.
	Voice string
	// Format is one of FormatMP3, FormatWAV, FormatOpus, FormatFLAC; empty
	// means FormatWAV.
	Format string
	// Speed is a multiple of the normal rate, MinSpeed..MaxSpeed; 0 means
	// 1.0.
	Speed float64
}

// Audio is what an engine answered.
type Audio struct {
	Data        []byte
	ContentType string // e.g. "audio/wav"
}

// Validate reports why req cannot be spoken, as an error wrapping
// ErrInvalid, or nil. Engines call it before any work, so a bad request
// never costs an engine call.
func (r Request) Validate() error {
	switch n := utf8.RuneCountInString(r.Text); {
	case strings.TrimSpace(r.Text) == "":
		return fmt.Errorf("%w: text is empty", ErrInvalid)
	case !utf8.ValidString(r.Text):
		return fmt.Errorf("%w: text is not valid UTF-8", ErrInvalid)
	case n > MaxTextChars:
		return fmt.Errorf("%w: text has %d characters, more than the %d an engine accepts", ErrInvalid, n, MaxTextChars)
	}
	if _, ok := ContentType(r.OutputFormat()); !ok {
		return fmt.Errorf("%w: format %q is not one of mp3, wav, opus, flac", ErrInvalid, r.Format)
	}
	// Written as a negated range so that NaN is refused too.
	if r.Speed != 0 && !(r.Speed >= MinSpeed && r.Speed <= MaxSpeed) {
		return fmt.Errorf("%w: speed %g is outside %g..%g", ErrInvalid, r.Speed, MinSpeed, MaxSpeed)
	}
	return nil
}

// OutputFormat is the requested format with the default applied.
func (r Request) OutputFormat() string {
	if r.Format == "" {
		return FormatWAV
	}
	return r.Format
}

// speed is the requested speed with the default applied.
func (r Request) speed() float64 {
	if r.Speed == 0 {
		return 1
	}
	return r.Speed
}

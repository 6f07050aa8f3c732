// Package imagegen owns image generation: the Generator contract, the checks
// every request passes before an engine sees it, and the client for
// OpenAI-compatible /v1/images/generations and /v1/images/edits engines,
// built on openai-go. It hands back PNG whatever the engine answered
// (base64 or a URL to fetch; PNG, JPEG or GIF), falls back from edits to
// generations on engines that have no edits endpoint, and keeps keys out of
// errors.
package imagegen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/engines/oaichat"
)

// Request limits.
const (
	// MaxPromptChars is the longest prompt, in characters: OpenAI's limit
	// for its GPT image models, the most generous of the engines.
	MaxPromptChars = 32000
	// MaxN is the most images one Generate call may ask for (OpenAI's).
	MaxN = 10
	// MaxSide bounds each side of a requested size, in pixels.
	MaxSide = 8192
)

// SizeAuto lets the engine choose the size; "" leaves it to the engine's
// default.
const SizeAuto = "auto"

var (
	// ErrInvalid is wrapped by every refusal of a request before the engine
	// is called: empty or overlong prompt, malformed size, bad N, an image
	// or mask that is not a PNG.
	ErrInvalid = errors.New("invalid image request")
	// ErrEmptyAnswer: the engine answered without an image.
	ErrEmptyAnswer = errors.New("engine answered without an image")
	// ErrUnauthorized: the engine refused the key (HTTP 401/403). It is
	// oaichat's value, so one errors.Is check covers every engine.
	ErrUnauthorized = oaichat.ErrUnauthorized
)

// EngineError is a failed engine call naming the endpoint URL and the HTTP
// status (0 when no answer arrived). It is oaichat's type, so callers handle
// chat, speech and image engines alike.
type EngineError = oaichat.EngineError

// KeyPlaceholder stands in for a key wherever one would be shown.
const KeyPlaceholder = oaichat.KeyPlaceholder

// Generator makes images from a prompt, or from a prompt and an image.
type Generator interface {
	Generate(ctx context.Context, req GenerateRequest) (Image, error)
	Edit(ctx context.Context, req EditRequest) (Image, error)
}

// GenerateRequest asks for new images.
type GenerateRequest struct {
	Prompt string
	// Size is "WIDTHxHEIGHT" ("1024x1024"), SizeAuto, or empty for the
	// engine's default.
	Size string
	// N is how many images, 1..MaxN; 0 means 1.
	N int
}

// EditRequest asks for a changed version of Image.
type EditRequest struct {
	Prompt string
	Size   string // as in GenerateRequest
	Image  []byte // PNG
	// Mask is an optional PNG whose transparent pixels mark where Image may
	// change.
	Mask []byte
}

// Image is what the engine made.
type Image struct {
	PNG           []byte
	RevisedPrompt string // the prompt as the engine rewrote it, if it did
	// More holds the further images, as PNG, when N asked for several.
	More [][]byte
	// FellBack is true when Edit was answered 405 (the engine has no edits
	// endpoint) and the image was generated from the prompt alone.
	FellBack bool
}

// Validate reports why r cannot be sent, as an error wrapping ErrInvalid,
// or nil.
func (r GenerateRequest) Validate() error {
	if err := validatePrompt(r.Prompt); err != nil {
		return err
	}
	if err := validateSize(r.Size); err != nil {
		return err
	}
	if r.N < 0 || r.N > MaxN {
		return fmt.Errorf("%w: n %d is outside 1..%d", ErrInvalid, r.N, MaxN)
	}
	return nil
}

// Validate reports why r cannot be sent, as an error wrapping ErrInvalid,
// or nil.
func (r EditRequest) Validate() error {
	if err := validatePrompt(r.Prompt); err != nil {
		return err
	}
	if err := validateSize(r.Size); err != nil {
		return err
	}
	if !isPNG(r.Image) {
		return fmt.Errorf("%w: the image is not a PNG", ErrInvalid)
	}
	if r.Mask != nil && !isPNG(r.Mask) {
		return fmt.Errorf("%w: the mask is not a PNG", ErrInvalid)
	}
	return nil
}

func validatePrompt(p string) error {
	switch n := utf8.RuneCountInString(p); {
	case strings.TrimSpace(p) == "":
		return fmt.Errorf("%w: prompt is empty", ErrInvalid)
	case !utf8.ValidString(p):
		return fmt.Errorf("%w: prompt is not valid UTF-8", ErrInvalid)
	case n > MaxPromptChars:
		return fmt.Errorf("%w: prompt has %d characters, more than %d", ErrInvalid, n, MaxPromptChars)
	}
	return nil
}

// validateSize accepts "", SizeAuto and WIDTHxHEIGHT in canonical decimal
// (no sign, no leading zero) with both sides 1..MaxSide.
func validateSize(s string) error {
	if s == "" || s == SizeAuto {
		return nil
	}
	w, h, ok := strings.Cut(s, "x")
	wn, werr := strconv.Atoi(w)
	hn, herr := strconv.Atoi(h)
	if !ok || werr != nil || herr != nil || strconv.Itoa(wn)+"x"+strconv.Itoa(hn) != s ||
		wn < 1 || hn < 1 || wn > MaxSide || hn > MaxSide {
		return fmt.Errorf("%w: size %q is not WIDTHxHEIGHT (e.g. 1024x1024) with sides up to %d", ErrInvalid, s, MaxSide)
	}
	return nil
}

// pngSignature opens every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

func isPNG(b []byte) bool { return bytes.HasPrefix(b, []byte(pngSignature)) }

// Package visionocr gives the ingest's OCR chain the vision OCR engines the
// settings name (OpenAI-compatible chat with image input, through oaichat).
// Only what reads pages imports it — the Recognize step, review's
// re-recognition and the local ingest — so the other steps' Lambdas link no
// openai-go, whose package initialisers alone weigh 17 MB.
package visionocr

import (
	"context"
	"fmt"

	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/engines/urlsafe"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/platform"
)

// KeyCard is the engine_api_keys entry used for the vision OCR engines
// before falling back to llm_api_key.
const KeyCard = "vision-ocr"

// NewSteps is pipeline.NewSteps whose OCR chain tries the vision OCR
// engines before Tesseract.
func NewSteps(d *platform.Deps) *pipeline.Steps {
	s := pipeline.NewSteps(d)
	s.Pages.OCR = func(ctx context.Context) (pipeline.OCRChain, error) { return Chain(ctx, d) }
	return s
}

// Chain builds the OCR chain from the current settings, so a changed engine
// URL applies to the next page.
func Chain(ctx context.Context, d *platform.Deps) (pipeline.OCRChain, error) {
	s, err := d.Settings.Load(ctx)
	if err != nil {
		// The table or the secret store being unreachable passes: worth a retry.
		return pipeline.OCRChain{}, pipeline.Transient(fmt.Errorf("load settings: %w", err))
	}
	key := s.KeyFor(KeyCard)
	chain := pipeline.OCRChain{Tesseract: tesseract.Engine{Command: d.Config.TesseractCommand}}
	// Engine URLs are checked before the server calls them, and again at
	// every dial (engine URL safety).
	policy := urlsafe.Policy{Hosted: d.Hosted(), Allow: s.EngineURLAllowlist}
	for _, e := range []struct {
		url string
		set *pipeline.VisionEngine
	}{{s.VisionOCRURL, &chain.Primary}, {s.VisionOCRFallbackURL, &chain.Fallback}} {
		if e.url == "" {
			continue
		}
		base, err := engines.NormalizeLLMURL(e.url)
		if err == nil {
			_, err = policy.Check(ctx, base)
		}
		if err != nil {
			// A refused engine is skipped; the chain moves on to the next.
			d.Log.Warn("vision OCR engine refused", "url", e.url, "err", err)
			continue
		}
		*e.set = oaichat.New(oaichat.Config{BaseURL: base, APIKey: key, Model: s.VisionOCRModel, HTTPClient: policy.HTTPClient(0)})
	}
	return chain, nil
}

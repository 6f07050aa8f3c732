package pipeline

import (
	"context"
	"fmt"

	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/engines/urlsafe"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/platform"
)

// VisionOCRKeyCard is the engine_api_keys entry used for the vision OCR
// engines before falling back to llm_api_key.
const VisionOCRKeyCard = "vision-ocr"

// NewSteps builds the ingest steps over the platform: the same in the local
// runner, in each step's Lambda and under review, which shares Pages.
func NewSteps(d *platform.Deps) *Steps {
	return &Steps{
		Repo: issues.NewRepo(d.Table, d.Clock),
		Pages: &Pages{
			Blobs: d.Blobs, Sources: d.Uploads, Limits: pdf.DefaultLimits(), DPI: DefaultDPI,
			OCR: func(ctx context.Context) (OCRChain, error) { return settingsOCR(ctx, d) },
		},
	}
}

// settingsOCR builds the OCR chain from the current settings, so a changed
// engine URL applies to the next page.
func settingsOCR(ctx context.Context, d *platform.Deps) (OCRChain, error) {
	s, err := d.Settings.Load(ctx)
	if err != nil {
		// The table or the secret store being unreachable passes: worth a retry.
		return OCRChain{}, transient(fmt.Errorf("load settings: %w", err))
	}
	key := s.KeyFor(VisionOCRKeyCard)
	chain := OCRChain{Tesseract: tesseract.Engine{Command: d.Config.TesseractCommand}}
	// Engine URLs are checked before the server calls them, and again at
	// every dial (engine URL safety).
	policy := urlsafe.Policy{Hosted: d.Hosted(), Allow: s.EngineURLAllowlist}
	for _, e := range []struct {
		url string
		set *VisionEngine
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

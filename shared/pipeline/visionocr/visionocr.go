// Package visionocr gives the ingest's OCR chain the vision OCR engines the
// settings name (OpenAI-compatible chat with image input, through oaichat,
// or docling-serve), each read by the preset of its engine card.
// Only what reads pages imports it — the Recognize step, review's
// re-recognition and the local ingest — so the other steps' Lambdas link no
// openai-go, whose package initialisers alone weigh 17 MB.
package visionocr

import (
	"context"
	"fmt"

	"github.com/lectern/lectern/shared/cards/cardrec"
	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/engines/docling"
	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/engines/urlsafe"
	"github.com/lectern/lectern/shared/magazine"
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
	cards, err := cardrec.List(ctx, d.Table, d.Config.Instance)
	if err != nil {
		return pipeline.OCRChain{}, pipeline.Transient(fmt.Errorf("load engine cards: %w", err))
	}
	tess := tesseract.Engine{Command: d.Config.TesseractCommand}
	chain := pipeline.OCRChain{Tesseract: tess, Anchors: tess}
	// Engine URLs are checked before the server calls them, and again at
	// every dial (engine URL safety).
	policy := urlsafe.Policy{Hosted: d.Hosted(), Allow: s.EngineURLAllowlist}
	for _, e := range []struct {
		url    string
		set    *pipeline.VisionEngine
		preset *magazine.VisionPreset
	}{{s.VisionOCRURL, &chain.Primary, &chain.PrimaryPreset}, {s.VisionOCRFallbackURL, &chain.Fallback, &chain.FallbackPreset}} {
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
		preset, model := Preset(cards, base)
		if model == "" {
			model = s.VisionOCRModel
		}
		*e.preset = preset
		if preset == magazine.PresetDocling {
			*e.set = docling.New(docling.Config{BaseURL: base, APIKey: key, HTTPClient: policy.HTTPClient(0)})
			continue
		}
		*e.set = oaichat.New(oaichat.Config{BaseURL: base, APIKey: key, Model: model, HTTPClient: policy.HTTPClient(0)})
	}
	return chain, nil
}

// Preset is the preset and model of the vision OCR card whose URL is base
// (normalised): Lectern's own JSON and no model when no card names it.
func Preset(cards []cardrec.Record, base string) (magazine.VisionPreset, string) {
	for _, c := range cards {
		if c.Kind != "vision-ocr" && c.Kind != "vision-ocr-fallback" || c.BaseURL == "" {
			continue
		}
		if u, err := engines.NormalizeLLMURL(c.BaseURL); err != nil || u != base {
			continue
		}
		p, ok := magazine.ParseVisionPreset(c.OCRPreset)
		if !ok {
			p = magazine.PresetLectern
		}
		return p, c.Model
	}
	return magazine.PresetLectern, ""
}

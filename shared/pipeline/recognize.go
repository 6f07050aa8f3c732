// Package pipeline holds the ingest pipeline's steps (Prepare, Render,
// Recognize, RefineFigures, Cleanup, Order, Finalize) as handlers the ASL
// runner (locally) or Step Functions (in AWS) calls.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/magazine"
)

// Engine names recorded on each page: which engine produced its regions.
const (
	EngineTextLayer      = "text-layer"
	EngineVisionPrimary  = "vision-primary"
	EngineVisionFallback = "vision-fallback"
	EngineTesseract      = "tesseract"
	// EngineNone: no engine read the page, as it is blank (nothing to read).
	EngineNone = "none"
)

// VisionEngine is an OpenAI-compatible chat engine with image input (oaichat.Client).
type VisionEngine interface {
	Vision(ctx context.Context, prompt string, image []byte, mimeType string) (string, error)
}

// TextEngine is a plain text recognizer (the built-in Tesseract).
type TextEngine interface {
	Recognize(ctx context.Context, png []byte, dpi int) ([]tesseract.Block, error)
}

// PageImage is a page render.
type PageImage struct {
	PNG           []byte
	Width, Height int // pixels
	DPI           int
}

// Attempt is one engine tried for a page that did not give regions.
type Attempt struct {
	Engine string `json:"engine"`
	Error  string `json:"error"`
}

// Recognition is what the OCR chain made of one page.
type Recognition struct {
	Regions  []magazine.Region
	Engine   string
	Attempts []Attempt // failed engines before Engine
}

// OCRError is a page no engine could read; Step Functions sees its type name.
type OCRError struct {
	Attempts []Attempt
}

func (e *OCRError) Error() string {
	parts := make([]string, len(e.Attempts))
	for i, a := range e.Attempts {
		parts[i] = a.Engine + ": " + a.Error
	}
	return "no engine could read the page (" + strings.Join(parts, "; ") + ")"
}

// errNoText: Tesseract read the page and found no text on it.
var errNoText = errors.New("tesseract found no text")

// NoText tells whether the chain ended with Tesseract reading the page and
// finding no text: a page that is only a picture, or blank.
func (e *OCRError) NoText() bool {
	n := len(e.Attempts)
	return n > 0 && e.Attempts[n-1].Engine == EngineTesseract && e.Attempts[n-1].Error == errNoText.Error()
}

// OCRChain tries, in order: the PDF's own text layer, the primary vision
// engine, the fallback vision engine, Tesseract. Nil engines are skipped.
type OCRChain struct {
	Primary   VisionEngine
	Fallback  VisionEngine
	Tesseract TextEngine
}

// PageInput is what Recognize needs of one page.
type PageInput struct {
	Width, Height float64                                  // points
	TextLayer     []magazine.Region                        // classified text-layer regions; nil when the page has no real text
	Render        PageImage                                // the page render sent to vision engines
	HighRes       func(context.Context) (PageImage, error) // a 300 DPI render for Tesseract, made only if needed
}

// Recognize runs the chain for one page. A vision answer that is empty,
// unparsable or holds a repetition loop is a failed call and the chain moves
// on, as is any engine error.
func (c OCRChain) Recognize(ctx context.Context, in PageInput) (Recognition, error) {
	if len(in.TextLayer) > 0 {
		return Recognition{Regions: in.TextLayer, Engine: EngineTextLayer}, nil
	}
	var attempts []Attempt
	engines := []struct {
		name   string
		engine VisionEngine
	}{{EngineVisionPrimary, c.Primary}, {EngineVisionFallback, c.Fallback}}
	for i, v := range engines {
		if v.engine == nil {
			continue
		}
		later := 0 // the engines that still get their turn after this one
		for _, w := range engines[i+1:] {
			if w.engine != nil {
				later++
			}
		}
		if c.Tesseract != nil && in.HighRes != nil {
			later++
		}
		callCtx, cancel := engineDeadline(ctx, later)
		regions, err := c.vision(callCtx, v.engine, in)
		cancel()
		if err != nil && callCtx.Err() != nil && ctx.Err() == nil {
			err = fmt.Errorf("no answer within its share of the step's time: %w", err)
		}
		if err == nil {
			return Recognition{Regions: regions, Engine: v.name, Attempts: attempts}, nil
		}
		if ctx.Err() != nil {
			return Recognition{}, ctx.Err()
		}
		attempts = append(attempts, Attempt{Engine: v.name, Error: err.Error()})
	}
	if c.Tesseract != nil && in.HighRes != nil {
		regions, err := c.tesseract(ctx, in)
		if err == nil {
			return Recognition{Regions: regions, Engine: EngineTesseract, Attempts: attempts}, nil
		}
		attempts = append(attempts, Attempt{Engine: EngineTesseract, Error: err.Error()})
	}
	if len(attempts) == 0 {
		attempts = append(attempts, Attempt{Engine: "none", Error: "no OCR engine is configured"})
	}
	return Recognition{}, &OCRError{Attempts: attempts}
}

// finishReserve is kept from the engines for storing the page once read.
const finishReserve = 15 * time.Second

// engineDeadline bounds one engine call so that a hung engine leaves time for
// the later engines and for storing the page: the step's remaining time (the
// Lambda's, or the state's TimeoutSeconds locally) less a reserve, shared
// equally between this call and the later ones. Without a deadline the call
// is not bounded.
func engineDeadline(ctx context.Context, later int) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	remaining := time.Until(deadline)
	remaining -= min(finishReserve, remaining/5)
	return context.WithTimeout(ctx, remaining/time.Duration(later+1))
}

func (c OCRChain) vision(ctx context.Context, engine VisionEngine, in PageInput) ([]magazine.Region, error) {
	answer, err := engine.Vision(ctx, magazine.VisionPrompt(), in.Render.PNG, "image/png")
	if err != nil {
		return nil, err
	}
	return magazine.ParseVisionRegions(answer, in.Width, in.Height, in.Render.Width, in.Render.Height)
}

func (c OCRChain) tesseract(ctx context.Context, in PageInput) ([]magazine.Region, error) {
	img, err := in.HighRes(ctx)
	if err != nil {
		return nil, fmt.Errorf("render for tesseract: %w", err)
	}
	blocks, err := c.Tesseract.Recognize(ctx, img.PNG, img.DPI)
	if err != nil {
		return nil, err
	}
	if len(blocks) == 0 {
		return nil, errNoText
	}
	text := make([]magazine.TextBlock, len(blocks))
	for i, b := range blocks {
		// Tesseract has no font sizes; a line's height stands in for one.
		text[i] = magazine.TextBlock{BBox: magazine.BBox(b.BBox), Text: b.Text, FontSize: b.LineHeight, LineCount: b.Lines}
	}
	return magazine.ClassifyPages([]magazine.TextPage{{Width: in.Width, Height: in.Height, Blocks: text}})[0], nil
}

// Package pipeline holds the ingest pipeline's steps (Prepare, Render,
// Recognize, RefineFigures, Cleanup, Order, Finalize) as handlers the ASL
// runner (locally) or Step Functions (in AWS) calls.
package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"strings"
	"time"

	"golang.org/x/image/draw"

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
	return "no engine could read the page (" + attemptList(e.Attempts) + ")"
}

// attemptList names each failed engine with its error.
func attemptList(attempts []Attempt) string {
	parts := make([]string, len(attempts))
	for i, a := range attempts {
		parts[i] = a.Engine + ": " + a.Error
	}
	return strings.Join(parts, "; ")
}

// Note says on the page which engines failed before the one that read it
// (a vision engine's bad answer is not lost in a fallback); "" when the
// first engine tried read it.
func (r Recognition) Note() string {
	if len(r.Attempts) == 0 {
		return ""
	}
	return "read by " + r.Engine + " after " + attemptList(r.Attempts)
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
	Primary  VisionEngine
	Fallback VisionEngine
	// PrimaryPreset and FallbackPreset are the engine families the vision
	// engines belong to: the prompt each is sent and how its answer is read
	// ("" is Lectern's own JSON regions).
	PrimaryPreset, FallbackPreset magazine.VisionPreset
	Tesseract                     TextEngine
	// Anchors reads the page's words for a preset whose answer has no boxes
	// (olmOCR), so its blocks can be placed; it is not an engine of the
	// chain (nil: such an answer cannot be placed and fails).
	Anchors TextEngine
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
	words := &pageWords{}
	engines := []struct {
		name   string
		engine VisionEngine
		preset magazine.VisionPreset
	}{{EngineVisionPrimary, c.Primary, c.PrimaryPreset}, {EngineVisionFallback, c.Fallback, c.FallbackPreset}}
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
		regions, err := c.vision(callCtx, v.engine, v.preset, in, words)
		// Read before cancel, which would make every failure look timed out.
		timedOut := errors.Is(callCtx.Err(), context.DeadlineExceeded)
		cancel()
		if err != nil && timedOut && ctx.Err() == nil {
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
		regions, err := c.tesseract(ctx, in, words)
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

func (c OCRChain) vision(ctx context.Context, engine VisionEngine, preset magazine.VisionPreset, in PageInput, words *pageWords) ([]magazine.Region, error) {
	if preset == "" {
		preset = magazine.PresetLectern
	}
	img, err := fitRender(in.Render, preset.LongestSide())
	if err != nil {
		return nil, err
	}
	answer, err := engine.Vision(ctx, preset.Prompt(), img.PNG, "image/png")
	if err != nil {
		return nil, err
	}
	var anchors []magazine.TextBlock
	if preset.NeedsAnchors() && strings.TrimSpace(answer) != "" {
		if c.Anchors == nil || in.HighRes == nil {
			return nil, fmt.Errorf("%w: a %s answer has no boxes and no Tesseract is available to place it", magazine.ErrUnplaced, preset)
		}
		blocks, err := words.read(ctx, c.Anchors, in)
		if err != nil {
			return nil, fmt.Errorf("%w: reading the page's words to place the %s answer: %v", magazine.ErrUnplaced, preset, err)
		}
		anchors = textBlocks(blocks)
	}
	geom := magazine.PageGeom{W: in.Width, H: in.Height, ImgW: img.Width, ImgH: img.Height}
	return magazine.ParsePresetAnswer(preset, answer, geom, anchors)
}

// fitRender scales the render down so its longest side is longest pixels,
// the size a preset's model was trained on (0, or a render no larger: as
// it is).
func fitRender(r PageImage, longest int) (PageImage, error) {
	if longest <= 0 || max(r.Width, r.Height) <= longest {
		return r, nil
	}
	src, err := png.Decode(bytes.NewReader(r.PNG))
	if err != nil {
		return PageImage{}, fmt.Errorf("scale the render for the engine: %w", err)
	}
	b := src.Bounds()
	scale := float64(longest) / float64(max(b.Dx(), b.Dy()))
	w, h := max(1, int(math.Round(float64(b.Dx())*scale))), max(1, int(math.Round(float64(b.Dy())*scale)))
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	var buf bytes.Buffer
	if err := png.Encode(&buf, dst); err != nil {
		return PageImage{}, err
	}
	return PageImage{PNG: buf.Bytes(), Width: w, Height: h, DPI: int(math.Round(float64(r.DPI) * scale))}, nil
}

// pageWords is Tesseract's reading of one page, made at most once for both
// placing a boxless vision answer and the chain's own last resort.
type pageWords struct {
	done   bool
	blocks []tesseract.Block
	err    error
}

func (w *pageWords) read(ctx context.Context, engine TextEngine, in PageInput) ([]tesseract.Block, error) {
	if w.done {
		return w.blocks, w.err
	}
	img, err := in.HighRes(ctx)
	if err != nil {
		return nil, fmt.Errorf("render for tesseract: %w", err)
	}
	w.blocks, w.err = engine.Recognize(ctx, img.PNG, img.DPI)
	// A cancelled read is not kept: the next engine's call may have time.
	w.done = ctx.Err() == nil
	return w.blocks, w.err
}

// textBlocks are Tesseract's paragraphs as text blocks in points; a line's
// height stands in for a font size, as Tesseract has none.
func textBlocks(blocks []tesseract.Block) []magazine.TextBlock {
	text := make([]magazine.TextBlock, len(blocks))
	for i, b := range blocks {
		text[i] = magazine.TextBlock{BBox: magazine.BBox(b.BBox), Text: b.Text, FontSize: b.LineHeight, LineCount: b.Lines}
	}
	return text
}

func (c OCRChain) tesseract(ctx context.Context, in PageInput, words *pageWords) ([]magazine.Region, error) {
	blocks, err := words.read(ctx, c.Tesseract, in)
	if err != nil {
		return nil, err
	}
	if len(blocks) == 0 {
		return nil, errNoText
	}
	return magazine.ClassifyPages([]magazine.TextPage{{Width: in.Width, Height: in.Height, Blocks: textBlocks(blocks)}})[0], nil
}

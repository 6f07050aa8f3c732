package pipeline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
)

// Engines are the engines a reviewer can choose to read a page or a region
// again with, in the chain's order.
var Engines = []string{EngineTextLayer, EngineVisionPrimary, EngineVisionFallback, EngineTesseract}

// Errors of reading again with a chosen engine. Each leaves the page as it
// was: the caller stores nothing.
var (
	// ErrUnknownEngine: the name is not one of Engines.
	ErrUnknownEngine = fault.New(fault.Invalid, "unknown engine")
	// ErrEngineNotConfigured: the settings give the chosen engine no URL (or
	// one the server refuses to call).
	ErrEngineNotConfigured = fault.New(fault.Invalid, "the engine is not configured; nothing was changed")
	// ErrNothingRead: the engine ran and found no text there.
	ErrNothingRead = fault.New(fault.Invalid, "the engine found no text; nothing was changed")
	// ErrEngineFailed: the engine failed, or answered with nothing usable.
	ErrEngineFailed = fault.New(fault.Upstream, "the engine failed; nothing was changed")
)

// Only is the chain cut down to one engine, so that nothing else is tried.
// The text layer needs no engine: its chain is empty.
func (c OCRChain) Only(engine string) (OCRChain, error) {
	switch engine {
	case EngineTextLayer:
		return OCRChain{}, nil
	case EngineVisionPrimary:
		if c.Primary == nil {
			return OCRChain{}, fmt.Errorf("%s has no engine: set vision_ocr_url in settings (a URL the server refuses to call counts as unset; see the server log): %w", engine, ErrEngineNotConfigured)
		}
		return OCRChain{Primary: c.Primary, PrimaryPreset: c.PrimaryPreset, Anchors: c.Anchors}, nil
	case EngineVisionFallback:
		if c.Fallback == nil {
			return OCRChain{}, fmt.Errorf("%s has no engine: set vision_ocr_fallback_url in settings (a URL the server refuses to call counts as unset; see the server log): %w", engine, ErrEngineNotConfigured)
		}
		return OCRChain{Fallback: c.Fallback, FallbackPreset: c.FallbackPreset, Anchors: c.Anchors}, nil
	case EngineTesseract:
		if c.Tesseract == nil {
			return OCRChain{}, fmt.Errorf("%s is not available on this server: %w", engine, ErrEngineNotConfigured)
		}
		return OCRChain{Tesseract: c.Tesseract}, nil
	}
	return OCRChain{}, fmt.Errorf("%q is not one of %s: %w", engine, strings.Join(Engines, ", "), ErrUnknownEngine)
}

// only is the settings' chain cut down to engine.
func (m *Pages) only(ctx context.Context, engine string) (OCRChain, error) {
	if engine == EngineTextLayer || !slices.Contains(Engines, engine) {
		return OCRChain{}.Only(engine) // needs no settings
	}
	chain, err := m.chain(ctx)
	if err != nil {
		return OCRChain{}, err
	}
	return chain.Only(engine)
}

// RecognizePage reads a page again with engine alone and gives the result
// the pipeline's follow-up: picture boxes refined from the render, the
// cleanup rules and the reading order (automatic: the hand order was of
// regions that are gone). It stores nothing and cuts no crops (their keys
// carry the revision of the change that stores the page): the page it
// returns is what the caller may store in place of the old one.
//
// Picture regions are kept: an OCR engine that returns none (Tesseract
// never does) gets the page's pictures as ingest gives them (the PDF's, or
// on a scan those found on the render around the text read). The text
// layer is read when chosen even if ingest set it aside as poor; the page
// then says so in its engine note.
func (m *Pages) RecognizePage(ctx context.Context, page magazine.Page, engine string) (magazine.Page, error) {
	chain, err := m.only(ctx, engine)
	if err != nil {
		return page, err
	}
	pdfs, err := m.openPDFs(ctx, page.IssueID)
	if err != nil {
		return page, err
	}
	// The pipeline's own reading of the text layer (classified with the
	// page's neighbours, and judged) and of the page's pictures.
	steps := &Steps{Pages: m}
	layer, err := steps.textLayer(ctx, pdfs, page.Number, page)
	if err != nil {
		return page, err
	}
	var rec Recognition
	ocrDPI, note := 0, ""
	switch engine {
	case EngineTextLayer:
		if layer.regions == nil {
			return page, fmt.Errorf("page %d has no text layer to read (it is a scan, or its text layer holds no letters or digits): %w", page.Number, ErrNothingRead)
		}
		if layer.poor != "" {
			note = "text layer chosen in review though " + layer.poor
		}
		rec = Recognition{Regions: layer.regions, Engine: EngineTextLayer}
	default:
		// HighRes is made only when read: for Tesseract, or to place a
		// boxless vision answer (olmOCR) on Tesseract's words.
		in := PageInput{Width: page.Width, Height: page.Height, HighRes: func(ctx context.Context) (PageImage, error) {
			img, err := m.pageImage(ctx, pdfs, page, m.ocrDPI(page))
			if engine == EngineTesseract {
				ocrDPI = img.DPI
			}
			return img, err
		}}
		if engine != EngineTesseract {
			if in.Render, err = m.Render(ctx, page); err != nil {
				return page, err
			}
		}
		if rec, err = chain.Recognize(ctx, in); err != nil {
			return page, readFailure(ctx, engine, fmt.Sprintf("page %d", page.Number), err)
		}
		if !hasVisual(rec.Regions) {
			pictures, err := steps.pictures(ctx, page, layer, rec.Regions)
			if err != nil {
				return page, err
			}
			rec.Regions = append(rec.Regions, pictures...)
		}
	}
	for i := range rec.Regions {
		rec.Regions[i].CropKey = ""
		if rec.Regions[i].OriginalText == "" {
			rec.Regions[i].OriginalText = rec.Regions[i].Text
		}
	}
	page.Regions = rec.Regions
	page.Engine = rec.Engine
	page.EngineNote = joinNotes(rec.Note(), note)
	page.OCRDPI = ocrDPI
	page.Order = nil
	page.HandOrdered = false
	img, done, err := m.renderImage(ctx, page)
	if err != nil {
		return page, err
	}
	page.Regions, _ = magazine.RefineFigures(img, float64(page.DPI)/72, page.Regions)
	done()
	page, _ = magazine.Cleanup(page)
	return magazine.ApplyOrder(page), nil
}

// ReadAreaWith reads the text inside a box of a page with engine alone: the
// text layer's blocks there, or the area rendered at the page's OCR DPI
// and sent to the engine. Nothing readable is ErrNothingRead.
func (m *Pages) ReadAreaWith(ctx context.Context, page magazine.Page, box magazine.BBox, engine string) (string, error) {
	chain, err := m.only(ctx, engine)
	if err != nil {
		return "", err
	}
	pdfs, err := m.openPDFs(ctx, page.IssueID)
	if err != nil {
		return "", err
	}
	where := fmt.Sprintf("the box [%.0f %.0f %.0f %.0f] on page %d", box[0], box[1], box[2], box[3], page.Number)
	text := ""
	if engine == EngineTextLayer {
		tp, err := pdfs.text(ctx, page.Number)
		if err != nil {
			return "", err
		}
		text, _ = textInside(tp.Blocks, box)
	} else {
		img, ok, err := m.areaImage(ctx, pdfs, page, box)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", fmt.Errorf("%s lies outside the page: %w", where, ErrNothingRead)
		}
		rec, err := chain.Recognize(ctx, areaInput(box, img))
		if err != nil {
			return "", readFailure(ctx, engine, where, err)
		}
		text = regionsText(rec.Regions)
	}
	if text = strings.TrimSpace(text); text == "" {
		return "", fmt.Errorf("%s found no text in %s: %w", engine, where, ErrNothingRead)
	}
	return text, nil
}

// readFailure files a chain-of-one failure: Tesseract finding no text is
// nothing read; any other failure is the engine's.
func readFailure(ctx context.Context, engine, where string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ocr *OCRError
	if !errors.As(err, &ocr) {
		return err
	}
	if ocr.NoText() {
		return fmt.Errorf("%s found no text in %s: %w", engine, where, ErrNothingRead)
	}
	reasons := make([]string, len(ocr.Attempts))
	for i, a := range ocr.Attempts {
		reasons[i] = a.Error
	}
	return fmt.Errorf("%s could not read %s (%s): %w", engine, where, strings.Join(reasons, "; "), ErrEngineFailed)
}

// pageImage renders the whole page at dpi for an engine.
func (m *Pages) pageImage(ctx context.Context, pdfs *pagePDFs, page magazine.Page, dpi int) (PageImage, error) {
	img, release, err := pdfs.render(ctx, page, dpi)
	if err != nil {
		return PageImage{}, err
	}
	defer release()
	b, err := pdf.EncodePNG(img)
	return PageImage{PNG: b, Width: img.Bounds().Dx(), Height: img.Bounds().Dy(), DPI: dpi}, err
}

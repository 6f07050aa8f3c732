package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"strings"
	"sync"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/pipeline/asl"
	"github.com/lectern/lectern/shared/store"
)

// Render resolutions.
const (
	DefaultDPI   = 150 // page renders shown in review and sent to vision engines
	TesseractDPI = 300 // Tesseract misreads at 150 DPI
	ThumbWidth   = 200 // pixels
	// textWindow: Recognize classifies a page's text layer together with this
	// many pages either side, so running heads repeat enough to be found.
	textWindow = 2
)

// TransientError is a failure worth retrying (storage or network hiccups);
// the state machine retries it with backoff by this type name.
type TransientError struct{ Err error }

func (e *TransientError) Error() string { return e.Err.Error() }
func (e *TransientError) Unwrap() error { return e.Err }

// Steps are the ingest pipeline's Task handlers over the ports.
type Steps struct {
	Repo    *issues.Repo
	Blobs   blob.Store // renders, thumbnails, crops
	Sources blob.Store // uploaded PDFs
	Limits  pdf.Limits
	DPI     int
	// OCR builds the chain for a page from the current settings; nil means
	// text layer and Tesseract only.
	OCR func(ctx context.Context) (OCRChain, error)

	renders renderCache
}

// renderCache keeps the last few decoded page renders: review edits crop
// the same page again and again, and a render never changes under its key.
type renderCache struct {
	mu      sync.Mutex
	entries []cachedRender // most recent last
}

type cachedRender struct {
	key string
	img image.Image
}

// renderCacheSize is how many decoded renders stay (about 8 MiB each at 150 DPI).
const renderCacheSize = 4

func (c *renderCache) get(key string) (image.Image, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			return e.img, true
		}
	}
	return nil, false
}

func (c *renderCache) put(key string, img image.Image) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = append(c.entries, cachedRender{key, img})
	if len(c.entries) > renderCacheSize {
		c.entries = c.entries[len(c.entries)-renderCacheSize:]
	}
}

// Handlers maps the definition's Task resources to the steps.
func (s *Steps) Handlers() map[string]asl.Handler {
	return map[string]asl.Handler{
		"PrepareFunctionArn":       handler(s.Prepare),
		"RenderFunctionArn":        handler(s.Render),
		"RecognizeFunctionArn":     handler(s.Recognize),
		"RefineFiguresFunctionArn": handler(s.RefineFigures),
		"CleanupFunctionArn":       handler(s.Cleanup),
		"OrderFunctionArn":         handler(s.Order),
		"FinalizeFunctionArn":      handler(s.Finalize),
		"FailIssueFunctionArn":     handler(s.FailIssue),
	}
}

// handler adapts a typed step to the runner's JSON handler. Errors pass
// through unwrapped so their type names reach Retry and Catch.
func handler[In, Out any](step func(context.Context, In) (Out, error)) asl.Handler {
	return func(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
		var in In
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, &pdf.InvalidInputError{Reason: "bad-step-input", Detail: err.Error()}
		}
		out, err := step(ctx, in)
		if err != nil {
			return nil, err
		}
		return json.Marshal(out)
	}
}

// PrepareInput starts an ingest: the uploaded PDF's key (the S3 event gives
// only that) and, for uploads made through the API, the issue's title.
type PrepareInput struct {
	SourceKey string `json:"source_key"`
	Title     string `json:"title,omitempty"`
}

// PrepareOutput is what the Map iterates over.
type PrepareOutput struct {
	IssueID   string `json:"issue_id"`
	PageCount int    `json:"page_count"`
	Pages     []int  `json:"pages"`
}

// Prepare validates the PDF and makes its pages ready to process. A refused
// PDF fails the issue with the reason, and no page is ever created for it.
func (s *Steps) Prepare(ctx context.Context, in PrepareInput) (PrepareOutput, error) {
	id, ok := issues.IDFromSourceKey(in.SourceKey)
	if !ok {
		return PrepareOutput{}, &pdf.InvalidInputError{Reason: "bad-source-key", Detail: fmt.Sprintf("%q is not uploads/<issue id>.pdf", in.SourceKey)}
	}
	if err := s.ensureIssue(ctx, id, in); err != nil {
		return PrepareOutput{}, err
	}
	data, err := s.source(ctx, id)
	if err != nil {
		return PrepareOutput{}, err
	}
	info, err := pdf.Inspect(data, s.Limits)
	if err != nil {
		return PrepareOutput{}, err
	}
	pages := make([]int, len(info.Pages))
	for i := range pages {
		pages[i] = i + 1
	}
	_, err = s.Repo.Update(ctx, id, func(is *magazine.Issue) error {
		is.PageCount = len(pages)
		is.Status = magazine.IssueProcessing
		is.Step = "pages"
		if is.Title == "" {
			is.Title = info.Title
		}
		return nil
	})
	if err != nil {
		return PrepareOutput{}, transient(err)
	}
	for i, box := range info.Pages {
		p := magazine.Page{IssueID: id, Number: i + 1, Width: box.Width, Height: box.Height, DPI: s.dpi(), Regions: []magazine.Region{}, Order: []string{}, Step: "queued"}
		if err := s.Repo.PutPage(ctx, p); err != nil {
			return PrepareOutput{}, transient(err)
		}
		if err := s.Repo.SetStep(ctx, id, issues.Step{Page: i + 1, Step: "queued"}); err != nil {
			return PrepareOutput{}, transient(err)
		}
	}
	return PrepareOutput{IssueID: id, PageCount: len(pages), Pages: pages}, nil
}

// ensureIssue creates the issue when the PDF arrived without one (dropped
// straight into the uploads bucket).
func (s *Steps) ensureIssue(ctx context.Context, id string, in PrepareInput) error {
	_, _, err := s.Repo.Get(ctx, id)
	if err == nil {
		return nil
	}
	if !errors.Is(err, issues.ErrNotFound) {
		return transient(err)
	}
	title := in.Title
	if title == "" {
		title = "Issue " + id
	}
	err = s.Repo.Create(ctx, magazine.Issue{ID: id, Title: title, Status: magazine.IssueProcessing, SourceKey: in.SourceKey, Step: "prepare"})
	if err != nil && !isConflict(err) {
		return transient(err)
	}
	return nil
}

// PageRef is what each page step receives from the Map.
type PageRef struct {
	IssueID string `json:"issue_id"`
	Page    int    `json:"page"`
}

// PageOutput is each page step's small summary (the page itself lives in
// the table, keeping state payloads tiny).
type PageOutput struct {
	Page    int    `json:"page"`
	Step    string `json:"step"`
	Engine  string `json:"engine,omitempty"`
	Regions int    `json:"regions"`
}

// Render draws the page at the configured DPI, stores the PNG and a
// thumbnail, and records the render on the page.
func (s *Steps) Render(ctx context.Context, in PageRef) (PageOutput, error) {
	data, err := s.source(ctx, in.IssueID)
	if err != nil {
		return PageOutput{}, err
	}
	img, err := pdf.Render(ctx, data, in.Page, s.dpi(), s.Limits)
	if err != nil {
		return PageOutput{}, err
	}
	full, err := pdf.EncodePNG(img)
	if err != nil {
		return PageOutput{}, err
	}
	thumb, err := pdf.EncodePNG(pdf.Thumbnail(img, ThumbWidth))
	if err != nil {
		return PageOutput{}, err
	}
	if err := s.put(ctx, issues.RenderKey(in.IssueID, in.Page), full); err != nil {
		return PageOutput{}, err
	}
	if err := s.put(ctx, issues.ThumbKey(in.IssueID, in.Page), thumb); err != nil {
		return PageOutput{}, err
	}
	return s.updatePage(ctx, in, "render", func(p *magazine.Page) error {
		p.DPI = s.dpi()
		p.RenderKey = issues.RenderKey(in.IssueID, in.Page)
		p.ThumbKey = issues.ThumbKey(in.IssueID, in.Page)
		return nil
	})
}

// Recognize reads the page: its own text layer when it has real text,
// otherwise the OCR chain's engines in order.
func (s *Steps) Recognize(ctx context.Context, in PageRef) (PageOutput, error) {
	data, err := s.source(ctx, in.IssueID)
	if err != nil {
		return PageOutput{}, err
	}
	page, _, err := s.Repo.Page(ctx, in.IssueID, in.Page)
	if err != nil {
		return PageOutput{}, transient(err)
	}
	textLayer, err := s.textLayer(ctx, data, in.Page, page)
	if err != nil {
		return PageOutput{}, err
	}
	var chain OCRChain
	if s.OCR == nil {
		chain.Tesseract = tesseract.Engine{}
	} else if chain, err = s.OCR(ctx); err != nil {
		return PageOutput{}, err
	}
	var render PageImage
	if textLayer == nil {
		if render, err = s.loadRender(ctx, page); err != nil {
			return PageOutput{}, err
		}
	}
	rec, err := chain.Recognize(ctx, PageInput{
		Width: page.Width, Height: page.Height, TextLayer: textLayer, Render: render,
		HighRes: func(ctx context.Context) (PageImage, error) {
			img, err := pdf.Render(ctx, data, in.Page, TesseractDPI, s.Limits)
			if err != nil {
				return PageImage{}, err
			}
			b, err := pdf.EncodePNG(img)
			return PageImage{PNG: b, Width: img.Bounds().Dx(), Height: img.Bounds().Dy(), DPI: TesseractDPI}, err
		},
	})
	if err != nil {
		return PageOutput{}, err
	}
	return s.updatePage(ctx, in, "recognize", func(p *magazine.Page) error {
		for i := range rec.Regions {
			if rec.Regions[i].OriginalText == "" {
				rec.Regions[i].OriginalText = rec.Regions[i].Text
			}
		}
		p.Regions = rec.Regions
		p.Engine = rec.Engine
		p.Order = nil
		return nil
	})
}

// textLayer classifies the page's own text with its neighbours (running
// heads are found by repetition); nil when the page has no real text.
func (s *Steps) textLayer(ctx context.Context, data []byte, n int, page magazine.Page) ([]magazine.Region, error) {
	own, err := pdf.TextLayer(ctx, data, n, s.Limits)
	if err != nil {
		return nil, err
	}
	if !pdf.HasRealText(own) {
		return nil, nil
	}
	// Caption adjacency is judged against pictures as they will be shown.
	pictures := pictureRegions(own.Pictures, paragraphBoxes(own.Blocks))
	own.Pictures = nil
	for _, r := range pictures {
		own.Pictures = append(own.Pictures, r.BBox)
	}
	window := []magazine.TextPage{}
	at := 0
	for m := max(1, n-textWindow); m <= n+textWindow; m++ {
		if m == n {
			at = len(window)
			window = append(window, own)
			continue
		}
		tp, err := pdf.TextLayer(ctx, data, m, s.Limits)
		if err != nil {
			continue // a neighbour that is missing or broken only loses context
		}
		window = append(window, tp)
	}
	regions := magazine.ClassifyPages(window)[at]
	return append(regions, pictures...), nil
}

// paragraphBoxes are the text blocks of more than one line: picture pieces
// are never joined across them (two figures in two columns stay two).
func paragraphBoxes(blocks []magazine.TextBlock) []magazine.BBox {
	var out []magazine.BBox
	for _, b := range blocks {
		if b.LineCount > 1 {
			out = append(out, b.BBox)
		}
	}
	return out
}

// Pictures in a text layer: pieces closer than pictureJoinGap points are one
// picture (a figure drawn as many small images), and pictures smaller than
// pictureMinSide points on a side (rules, bullets, logos) are left out.
const (
	pictureJoinGap = 8.0
	pictureMinSide = 24.0
)

// pictureRegions turns the text layer's picture boxes into image regions;
// RefineFigures then fits them to the render.
func pictureRegions(boxes, barriers []magazine.BBox) []magazine.Region {
	merged := append([]magazine.BBox(nil), boxes...)
	for joined := true; joined; {
		joined = false
		for i := 0; i < len(merged) && !joined; i++ {
			for j := i + 1; j < len(merged); j++ {
				if near(merged[i], merged[j], pictureJoinGap) && !coversAny(merged[i].Union(merged[j]), barriers) {
					merged[i] = merged[i].Union(merged[j])
					merged = append(merged[:j], merged[j+1:]...)
					joined = true
					break
				}
			}
		}
	}
	var out []magazine.Region
	for _, b := range merged {
		if b[2] < pictureMinSide || b[3] < pictureMinSide {
			continue
		}
		out = append(out, magazine.Region{ID: fmt.Sprintf("p%d", len(out)+1), Kind: magazine.KindImage, BBox: b})
	}
	return out
}

// coversAny: the box takes in a real share (a quarter) of some barrier.
func coversAny(box magazine.BBox, barriers []magazine.BBox) bool {
	for _, b := range barriers {
		if overlap := box.Overlap(b); overlap > 0 && overlap >= 0.25*b.Area() {
			return true
		}
	}
	return false
}

func near(a, b magazine.BBox, gap float64) bool {
	return a[0]-gap <= b[0]+b[2] && b[0]-gap <= a[0]+a[2] && a[1]-gap <= b[1]+b[3] && b[1]-gap <= a[1]+a[3]
}

// RefineFigures re-derives picture boxes from the render, then cuts each
// picture's crop from the render's own pixels.
func (s *Steps) RefineFigures(ctx context.Context, in PageRef) (PageOutput, error) {
	page, _, err := s.Repo.Page(ctx, in.IssueID, in.Page)
	if err != nil {
		return PageOutput{}, transient(err)
	}
	refined, err := s.refine(ctx, page)
	if err != nil {
		return PageOutput{}, err
	}
	return s.updatePage(ctx, in, "figures", func(p *magazine.Page) error {
		p.Regions = refined.Regions
		return nil
	})
}

// refine runs the figure pass and crops for one page; also used by
// POST /api/magazine/{id}/figures/refine on an existing issue.
func (s *Steps) refine(ctx context.Context, page magazine.Page) (magazine.Page, error) {
	img, err := s.loadRenderImage(ctx, page)
	if err != nil {
		return page, err
	}
	scale := float64(page.DPI) / 72
	page.Regions, _ = magazine.RefineFigures(img, scale, page.Regions)
	for i, r := range page.Regions {
		if !magazine.IsVisual(r.Kind) {
			continue
		}
		crop, err := magazine.CropPixels(img, magazine.PixelRect(r.BBox, scale, img.Bounds()))
		if err != nil {
			continue // a box outside the page has nothing to crop
		}
		b, err := pdf.EncodePNG(crop)
		if err != nil {
			return page, err
		}
		key := issues.CropKey(page.IssueID, page.Number, r.ID)
		if err := s.put(ctx, key, b); err != nil {
			return page, err
		}
		page.Regions[i].CropKey = key
	}
	return page, nil
}

// RefineIssue re-derives figures and crops for every rendered page of an
// issue without OCR; it returns how many pages changed.
func (s *Steps) RefineIssue(ctx context.Context, id string) (int, error) {
	pages, err := s.Repo.Pages(ctx, id)
	if err != nil {
		return 0, err
	}
	changed := 0
	for _, p := range pages {
		if p.RenderKey == "" {
			continue
		}
		refined, err := s.refine(ctx, p)
		if err != nil {
			return changed, fmt.Errorf("page %d: %w", p.Number, err)
		}
		if !sameRegions(p.Regions, refined.Regions) {
			changed++
		}
		if err := s.Repo.PutPage(ctx, refined); err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// Cleanup re-types noise, duplicates and text inside pictures (reversibly).
func (s *Steps) Cleanup(ctx context.Context, in PageRef) (PageOutput, error) {
	return s.updatePage(ctx, in, "cleanup", func(p *magazine.Page) error {
		*p, _ = magazine.Cleanup(*p)
		return nil
	})
}

// Order sets the reading order; hand-ordered pages keep theirs.
func (s *Steps) Order(ctx context.Context, in PageRef) (PageOutput, error) {
	return s.updatePage(ctx, in, "order", func(p *magazine.Page) error {
		*p = magazine.ApplyOrder(*p)
		p.Step = "done"
		return nil
	})
}

// FinalizeInput carries every page's result; a failed page carries failure.
type FinalizeInput struct {
	IssueID string            `json:"issue_id"`
	Pages   []json.RawMessage `json:"pages"`
}

type pageFailure struct {
	Failure *struct {
		Page  int    `json:"page"`
		Step  string `json:"step"`
		Error string `json:"error"`
		Cause string `json:"cause"`
	} `json:"failure"`
}

// FinalizeOutput is the issue as it ended.
type FinalizeOutput struct {
	IssueID     string `json:"issue_id"`
	Status      string `json:"status"`
	PagesDone   int    `json:"pages_done"`
	PagesFailed int    `json:"pages_failed"`
}

// Finalize records failed pages and marks the issue ready (failed when no
// page could be read at all).
func (s *Steps) Finalize(ctx context.Context, in FinalizeInput) (FinalizeOutput, error) {
	var failures []magazine.PageError
	for _, raw := range in.Pages {
		var f pageFailure
		if json.Unmarshal(raw, &f) == nil && f.Failure != nil {
			failures = append(failures, magazine.PageError{Page: f.Failure.Page, Step: f.Failure.Step, Error: causeMessage(f.Failure.Error, f.Failure.Cause)})
		}
	}
	for _, f := range failures {
		if err := s.markPageFailed(ctx, in.IssueID, f); err != nil {
			return FinalizeOutput{}, transient(err)
		}
	}
	is, err := s.Repo.Update(ctx, in.IssueID, func(is *magazine.Issue) error {
		is.PageErrors = failures
		is.PagesDone = len(in.Pages) - len(failures)
		is.Step = "done"
		is.Status = magazine.IssueReady
		if len(in.Pages) > 0 && len(failures) == len(in.Pages) {
			is.Status = magazine.IssueFailed
			is.Error = "no page could be processed; see the page errors"
		}
		return nil
	})
	if err != nil {
		return FinalizeOutput{}, transient(err)
	}
	return FinalizeOutput{IssueID: in.IssueID, Status: string(is.Status), PagesDone: is.PagesDone, PagesFailed: len(failures)}, nil
}

func (s *Steps) markPageFailed(ctx context.Context, id string, f magazine.PageError) error {
	page, _, err := s.Repo.Page(ctx, id, f.Page)
	if err != nil {
		return err
	}
	page.Error = f.Error
	page.Step = "failed"
	if err := s.Repo.PutPage(ctx, page); err != nil {
		return err
	}
	return s.Repo.SetStep(ctx, id, issues.Step{Page: f.Page, Step: "failed", Error: f.Error, Done: true})
}

// FailIssueInput is the state when something outside the pages failed.
type FailIssueInput struct {
	SourceKey string `json:"source_key"`
	Prepared  *struct {
		IssueID string `json:"issue_id"`
	} `json:"prepared"`
	Error struct {
		Error string `json:"Error"`
		Cause string `json:"Cause"`
	} `json:"error"`
}

// FailIssue stores why the issue failed. Pages already processed stay as
// they are; an issue refused at Prepare never had pages.
func (s *Steps) FailIssue(ctx context.Context, in FailIssueInput) (map[string]string, error) {
	id, ok := issues.IDFromSourceKey(in.SourceKey)
	if in.Prepared != nil && in.Prepared.IssueID != "" {
		id, ok = in.Prepared.IssueID, true
	}
	if !ok {
		return nil, &pdf.InvalidInputError{Reason: "bad-source-key", Detail: in.SourceKey}
	}
	msg := causeMessage(in.Error.Error, in.Error.Cause)
	_, err := s.Repo.Update(ctx, id, func(is *magazine.Issue) error {
		is.Status = magazine.IssueFailed
		is.Error = msg
		is.Step = "failed"
		return nil
	})
	if err != nil {
		return nil, transient(err)
	}
	return map[string]string{"issue_id": id, "error": msg}, nil
}

// causeMessage keeps the handler's own message; the error name alone is
// only a type.
func causeMessage(name, cause string) string {
	if cause = strings.TrimSpace(cause); cause != "" {
		// Step Functions wraps a Lambda error's cause as JSON.
		var lambdaErr struct {
			ErrorMessage string `json:"errorMessage"`
		}
		if json.Unmarshal([]byte(cause), &lambdaErr) == nil && lambdaErr.ErrorMessage != "" {
			return lambdaErr.ErrorMessage
		}
		return cause
	}
	return name
}

func (s *Steps) updatePage(ctx context.Context, in PageRef, step string, change func(*magazine.Page) error) (PageOutput, error) {
	page, _, err := s.Repo.Page(ctx, in.IssueID, in.Page)
	if err != nil {
		return PageOutput{}, transient(err)
	}
	if err := change(&page); err != nil {
		return PageOutput{}, err
	}
	if page.Step != "done" {
		page.Step = step
	}
	page.Error = ""
	if err := s.Repo.PutPage(ctx, page); err != nil {
		return PageOutput{}, transient(err)
	}
	done := page.Step == "done"
	if err := s.Repo.SetStep(ctx, in.IssueID, issues.Step{Page: in.Page, Step: step, Engine: page.Engine, Done: done}); err != nil {
		return PageOutput{}, transient(err)
	}
	return PageOutput{Page: in.Page, Step: step, Engine: page.Engine, Regions: len(page.Regions)}, nil
}

func (s *Steps) source(ctx context.Context, id string) ([]byte, error) {
	return s.read(ctx, s.Sources, issues.SourceKey(id), s.Limits.MaxBytes)
}

func (s *Steps) read(ctx context.Context, store blob.Store, key string, limit int64) ([]byte, error) {
	rc, info, err := store.Get(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, &pdf.InvalidInputError{Reason: "missing-upload", Detail: fmt.Sprintf("%s is not in the blob store", key)}
	}
	if err != nil {
		return nil, transient(err)
	}
	defer rc.Close()
	if limit > 0 && info.Size > limit {
		return nil, &pdf.InvalidInputError{Reason: pdf.ReasonTooLarge, Detail: fmt.Sprintf("%s is %d bytes; the limit is %d", key, info.Size, limit)}
	}
	data, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, transient(err)
	}
	return data, nil
}

func (s *Steps) put(ctx context.Context, key string, data []byte) error {
	if err := s.Blobs.Put(ctx, key, bytes.NewReader(data), "image/png"); err != nil {
		return transient(err)
	}
	return nil
}

func (s *Steps) loadRender(ctx context.Context, page magazine.Page) (PageImage, error) {
	if page.RenderKey == "" {
		return PageImage{}, &pdf.InvalidInputError{Reason: "not-rendered", Page: page.Number, Detail: "the page has no render"}
	}
	b, err := s.read(ctx, s.Blobs, page.RenderKey, 256<<20)
	if err != nil {
		return PageImage{}, err
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return PageImage{}, fmt.Errorf("page %d render: %w", page.Number, err)
	}
	return PageImage{PNG: b, Width: cfg.Width, Height: cfg.Height, DPI: page.DPI}, nil
}

func (s *Steps) loadRenderImage(ctx context.Context, page magazine.Page) (image.Image, error) {
	if img, ok := s.renders.get(page.RenderKey); ok {
		return img, nil
	}
	pi, err := s.loadRender(ctx, page)
	if err != nil {
		return nil, err
	}
	img, err := png.Decode(bytes.NewReader(pi.PNG))
	if err != nil {
		return nil, err
	}
	s.renders.put(page.RenderKey, img)
	return img, nil
}

func (s *Steps) dpi() int {
	if s.DPI > 0 {
		return s.DPI
	}
	return DefaultDPI
}

func transient(err error) error {
	var inv *pdf.InvalidInputError
	if err == nil || errors.As(err, &inv) || errors.Is(err, context.Canceled) {
		return err
	}
	return &TransientError{Err: err}
}

func isConflict(err error) bool { return errors.Is(err, store.ErrConditionFailed) }

func sameRegions(a, b []magazine.Region) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

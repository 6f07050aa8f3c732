package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/fault"
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

// Steps are the ingest pipeline's Task handlers: page records in Repo,
// page media in Pages.
type Steps struct {
	Repo  *issues.Repo
	Pages *Pages
	// Propose stores the articles proposed from a finished issue's regions
	// (review.Service.ProposeArticles); nil proposes none.
	Propose func(ctx context.Context, issue string) error
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
		"FailIssueFunctionArn":     handler(s.RecordFailure),
	}
}

// handler adapts a typed step to the runner's JSON handler. Errors pass
// through unwrapped so their type names reach Retry and Catch.
func handler[In, Out any](step func(context.Context, In) (Out, error)) asl.Handler {
	return func(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
		var in In
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, &StepError{Reason: "bad-step-input", Detail: err.Error()}
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
	// Execution is the run this ingest is ($$.Execution.Name): the issue is
	// claimed under its name.
	Execution *Execution `json:"execution,omitempty"`
}

// Execution names one run of the state machine.
type Execution struct {
	Name string `json:"name"`
}

func (in PrepareInput) executionName() string {
	if in.Execution == nil {
		return ""
	}
	return in.Execution.Name
}

// DuplicateStartError: another execution owns the issue (a second upload of
// the same PDF started this one). The definition ends such an execution in
// AlreadyStarted, leaving the issue to its owner.
type DuplicateStartError struct {
	IssueID string
	Reason  string
}

func (e *DuplicateStartError) Error() string {
	return "duplicate start of issue " + e.IssueID + ", nothing done: " + e.Reason
}

// Kind: the issue is in another state than this start expects.
func (e *DuplicateStartError) Kind() fault.Kind { return fault.Conflict }

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
		return PrepareOutput{}, &StepError{Reason: "bad-source-key", Detail: fmt.Sprintf("%q is not uploads/<issue id>.pdf", in.SourceKey)}
	}
	if err := s.ensureIssue(ctx, id, in); err != nil {
		return PrepareOutput{}, err
	}
	// Only one execution per upload does the work: the first to move the
	// issue on from uploading, by a conditional write.
	if err := s.Repo.ClaimIngest(ctx, id, in.executionName()); err != nil {
		if errors.Is(err, issues.ErrClaimed) {
			return PrepareOutput{}, &DuplicateStartError{IssueID: id, Reason: err.Error()}
		}
		return PrepareOutput{}, transient(err)
	}
	src, err := s.Pages.openSource(ctx, id)
	if err != nil {
		return PrepareOutput{}, err
	}
	defer src.Close()
	info, err := pdf.InspectFile(src, src.size, s.Pages.Limits)
	if err != nil {
		return PrepareOutput{}, err
	}
	// Each page step then reads only its own page.
	if err := s.splitPages(ctx, id, info); err != nil {
		return PrepareOutput{}, err
	}
	// A run resumed after the process died (the owner claiming again) keeps
	// the pages it finished: only the others are queued and processed.
	settled, err := s.settledPages(ctx, id)
	if err != nil {
		return PrepareOutput{}, transient(err)
	}
	_, err = s.Repo.Update(ctx, id, func(is *magazine.Issue) error {
		is.PageCount = len(info.Pages)
		is.Status = magazine.IssueProcessing
		is.Step = "pages"
		if is.Title == "" {
			is.Title = issues.ClipTitle(info.Title)
		}
		return nil
	})
	if err != nil {
		return PrepareOutput{}, transient(err)
	}
	pages := []int{}
	for i, box := range info.Pages {
		if settled[i+1] {
			continue
		}
		pages = append(pages, i+1)
		p := magazine.Page{IssueID: id, Number: i + 1, Width: box.Width, Height: box.Height, DPI: s.Pages.dpi(), Regions: []magazine.Region{}, Order: []string{}, Step: "queued"}
		if err := s.Repo.PutPage(ctx, p); err != nil {
			return PrepareOutput{}, transient(err)
		}
		if err := s.Repo.SetStep(ctx, id, issues.Step{Page: i + 1, Step: "queued"}); err != nil {
			return PrepareOutput{}, transient(err)
		}
	}
	return PrepareOutput{IssueID: id, PageCount: len(info.Pages), Pages: pages}, nil
}

// settledPages are the pages an earlier run of this ingest finished (done,
// or failed with the reason recorded): saved with their recognition, they
// are not processed again.
func (s *Steps) settledPages(ctx context.Context, id string) (map[int]bool, error) {
	steps, err := s.Repo.Steps(ctx, id)
	if err != nil {
		return nil, err
	}
	out := map[int]bool{}
	for _, st := range steps {
		if st.Done {
			out[st.Page] = true
		}
	}
	return out, nil
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
	err = s.Repo.Create(ctx, magazine.Issue{ID: id, Title: title, Status: magazine.IssueUploading, SourceKey: in.SourceKey, Step: "upload"})
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
	page, _, err := s.Repo.Page(ctx, in.IssueID, in.Page)
	if err != nil {
		return PageOutput{}, transient(err)
	}
	dpi, err := s.Pages.Draw(ctx, page)
	if err != nil {
		return PageOutput{}, err
	}
	return s.updatePage(ctx, in, "render", func(p *magazine.Page) error {
		p.DPI = dpi
		p.RenderKey = issues.RenderKey(in.IssueID, in.Page)
		p.ThumbKey = issues.ThumbKey(in.IssueID, in.Page)
		return nil
	})
}

// Recognize reads the page: its own text layer when it has real text that
// reads well, otherwise the OCR chain's engines in order. A text layer set
// aside as poor (a misread scan, broken font encodings, only a few words) is
// still kept when no engine reads the page better; the page records why
// (EngineNote).
func (s *Steps) Recognize(ctx context.Context, in PageRef) (PageOutput, error) {
	pdfs, err := s.Pages.openPDFs(ctx, in.IssueID)
	if err != nil {
		return PageOutput{}, err
	}
	page, _, err := s.Repo.Page(ctx, in.IssueID, in.Page)
	if err != nil {
		return PageOutput{}, transient(err)
	}
	layer, err := s.textLayer(ctx, pdfs, in.Page, page)
	if err != nil {
		return PageOutput{}, err
	}
	chain, err := s.Pages.chain(ctx)
	if err != nil {
		return PageOutput{}, err
	}
	textLayer := layer.regions
	if layer.poor != "" {
		textLayer = nil
	}
	if textLayer == nil {
		// A page with no ink has nothing for an engine to read: a file of
		// blank pages must not cost an OCR run each (issue 30).
		blank, err := s.Pages.Blank(ctx, page)
		if err != nil {
			return PageOutput{}, err
		}
		if blank {
			rec, note := blankRecognition(layer)
			return s.saveRecognition(ctx, in, rec, note, 0)
		}
	}
	var render PageImage
	if textLayer == nil {
		if render, err = s.Pages.Render(ctx, page); err != nil {
			return PageOutput{}, err
		}
	}
	ocrDPI := 0 // the DPI of the Tesseract render, when one was made
	rec, err := chain.Recognize(ctx, PageInput{
		Width: page.Width, Height: page.Height, TextLayer: textLayer, Render: render,
		HighRes: func(ctx context.Context) (PageImage, error) {
			img, err := s.Pages.pageImage(ctx, pdfs, page, s.Pages.ocrDPI(page))
			ocrDPI = img.DPI
			return img, err
		},
	})
	var ocrErr *OCRError
	note := ""
	switch {
	case layer.poor != "" && errors.As(err, &ocrErr) && ocrErr.NoText():
		note = "text layer kept though " + layer.poor + ": OCR found no text on the page"
		rec, err = Recognition{Regions: layer.regions, Engine: EngineTextLayer}, nil
	case layer.poor != "" && err != nil:
		// No engine could read it: the poor layer is better than nothing.
		note = "text layer kept though " + layer.poor + ": no OCR engine could read the page (" + err.Error() + ")"
		rec, err = Recognition{Regions: layer.regions, Engine: EngineTextLayer}, nil
	case layer.poor != "":
		if better, measured := layer.outreadBy(rec.Regions); !better {
			note = fmt.Sprintf("text layer kept though %s: %s read no better (%s)", layer.poor, rec.Engine, measured)
			rec = Recognition{Regions: layer.regions, Engine: EngineTextLayer}
		} else {
			note = "text layer set aside: " + layer.poor
		}
	case errors.As(err, &ocrErr) && ocrErr.NoText():
		// Tesseract read the page and found no text: a page that is only a
		// picture (or blank) ingests with its pictures and no text.
		rec, err = Recognition{Regions: layer.pictures, Engine: EngineTesseract, Attempts: ocrErr.Attempts[:len(ocrErr.Attempts)-1]}, nil
	}
	if err != nil {
		return PageOutput{}, err
	}
	if rec.Engine == EngineTesseract && len(rec.Regions) > 0 && !hasVisual(rec.Regions) {
		// Tesseract reads only text: the page's pictures come from the text
		// layer, or for a scan from the render around the text it read.
		pictures, err := s.pictures(ctx, page, layer, rec.Regions)
		if err != nil {
			return PageOutput{}, err
		}
		rec.Regions = append(rec.Regions, pictures...)
	}
	return s.saveRecognition(ctx, in, rec, note, ocrDPI)
}

// saveRecognition stores what Recognize made of the page.
func (s *Steps) saveRecognition(ctx context.Context, in PageRef, rec Recognition, note string, ocrDPI int) (PageOutput, error) {
	return s.updatePage(ctx, in, "recognize", func(p *magazine.Page) error {
		for i := range rec.Regions {
			if rec.Regions[i].OriginalText == "" {
				rec.Regions[i].OriginalText = rec.Regions[i].Text
			}
		}
		p.Regions = rec.Regions
		p.Engine = rec.Engine
		p.EngineNote = joinNotes(rec.Note(), note)
		p.OCRDPI = 0
		if rec.Engine == EngineTesseract {
			p.OCRDPI = ocrDPI
		}
		p.Order = nil
		return nil
	})
}

// joinNotes joins the non-empty notes into one sentence list.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// blankRecognition is a page whose render has no ink: no engine is run. A
// text layer set aside as poor is kept (its text is invisible on the page,
// so OCR could not read it either).
func blankRecognition(layer layerRead) (Recognition, string) {
	if layer.poor != "" {
		return Recognition{Regions: layer.regions, Engine: EngineTextLayer}, "text layer kept though " + layer.poor + ": " + blankNote
	}
	return Recognition{Regions: layer.pictures, Engine: EngineNone}, "blank page: " + blankNote
}

// blankNote says on a page why no OCR engine read it.
const blankNote = "the render has no ink, so OCR was skipped"

// outreadBy says whether an engine's regions read the page better than the
// layer, and how the two measured. A short layer loses only to a reading of
// at least twice its letters and digits (in any script, so a Chinese page
// read by chi_sim beats a layer of only its date); a poor one by its words.
func (l layerRead) outreadBy(regions []magazine.Region) (bool, string) {
	tp := textPageOf(regions)
	if l.short {
		n := pdf.Alphanumerics(tp)
		return n >= 2*l.chars && n >= pdf.MinRealTextChars, fmt.Sprintf("%d letters and digits against the layer's %d", n, l.chars)
	}
	got := magazine.MeasureText(tp, l.known)
	if got.Looked {
		return got.Better(l.quality), fmt.Sprintf("%.0f%% dictionary words, %.0f words a block", 100*got.DictionaryRate, got.WordsPerBlock)
	}
	return got.Better(l.quality), fmt.Sprintf("%d words against the layer's %d", got.Words, l.quality.Words)
}

// layerRead is what a page's own text layer gave.
type layerRead struct {
	regions  []magazine.Region // classified text and pictures; nil when the page has no text
	pictures []magazine.Region // its picture regions
	scanned  bool              // the page is one scanned picture (pictures come from the render)
	quality  magazine.TextQuality
	poor     string            // why the text is too poor to read aloud; "" when it is fine
	chars    int               // its letters and digits
	short    bool              // poor for having fewer than pdf.MinRealTextChars of them
	known    func(string) bool // the lexicon's word test; nil unless scanned
}

// textLayer classifies the page's own text with its neighbours (running
// heads are found by repetition) and judges it. On a scanned page the one
// page-sized picture is the scan, so the pictures are found on the render
// around the text instead.
func (s *Steps) textLayer(ctx context.Context, pdfs *pagePDFs, n int, page magazine.Page) (layerRead, error) {
	own, err := pdfs.text(ctx, n)
	if err != nil {
		return layerRead{}, err
	}
	out := layerRead{scanned: magazine.IsScan(own)}
	if out.scanned {
		// Only a scan's OCR layer can be misspelled: the lexicon is
		// loaded for scans alone.
		lex, err := s.Pages.words.Get()
		if err != nil {
			return layerRead{}, err
		}
		out.known = lex.Has
	}
	// Caption adjacency is judged against pictures as they will be shown.
	out.pictures = magazine.PictureRegions(own.Pictures, magazine.ParagraphBoxes(own.Blocks))
	chars := pdf.Alphanumerics(own)
	if out.scanned && chars > 0 {
		boxes := make([]magazine.BBox, len(own.Blocks))
		for i, b := range own.Blocks {
			boxes[i] = b.BBox
		}
		if out.pictures, err = s.Pages.FindPictures(ctx, page, boxes); err != nil {
			return layerRead{}, err
		}
	}
	if out.pictures == nil {
		out.pictures = []magazine.Region{}
	}
	if chars == 0 {
		return out, nil
	}
	out.quality = magazine.MeasureText(own, out.known)
	_, out.poor = out.quality.Poor()
	out.chars = chars
	if out.poor == "" && chars < pdf.MinRealTextChars {
		out.short = true
		// A title page's few words are exact in the layer, and OCR may read
		// less of them (text under annotations, a small line under a huge
		// one); a stray label on a scan is read past by OCR.
		out.poor = fmt.Sprintf("it holds only %d letters and digits (fewer than %d)", chars, pdf.MinRealTextChars)
	}
	own.Pictures = nil
	for _, r := range out.pictures {
		own.Pictures = append(own.Pictures, r.BBox)
	}
	window := []magazine.TextPage{}
	at := 0
	for m := max(1, n-textWindow); m <= pdfs.last(n+textWindow); m++ {
		if m == n {
			at = len(window)
			window = append(window, own)
			continue
		}
		tp, err := pdfs.text(ctx, m)
		if err != nil {
			continue // a neighbour that is missing or broken only loses context
		}
		window = append(window, tp)
	}
	out.regions = append(magazine.ClassifyPages(window)[at], out.pictures...)
	return out, nil
}

// pictures are the picture regions to add to an OCR engine's text regions:
// the text layer's own, or on a scan those found on the render around the
// text the engine read.
func (s *Steps) pictures(ctx context.Context, page magazine.Page, layer layerRead, text []magazine.Region) ([]magazine.Region, error) {
	if !layer.scanned {
		return layer.pictures, nil
	}
	boxes := make([]magazine.BBox, len(text))
	for i, r := range text {
		boxes[i] = r.BBox
	}
	return s.Pages.FindPictures(ctx, page, boxes)
}

// textPageOf is a page of an engine's regions as text blocks, to measure.
func textPageOf(regions []magazine.Region) magazine.TextPage {
	tp := magazine.TextPage{}
	for _, r := range regions {
		if r.Text != "" {
			tp.Blocks = append(tp.Blocks, magazine.TextBlock{BBox: r.BBox, Text: r.Text})
		}
	}
	return tp
}

func hasVisual(regions []magazine.Region) bool {
	for _, r := range regions {
		if magazine.IsVisual(r.Kind) {
			return true
		}
	}
	return false
}

// RefineFigures re-derives picture boxes from the render, then cuts each
// picture's crop from the render's own pixels.
func (s *Steps) RefineFigures(ctx context.Context, in PageRef) (PageOutput, error) {
	page, _, err := s.Repo.Page(ctx, in.IssueID, in.Page)
	if err != nil {
		return PageOutput{}, transient(err)
	}
	refined, err := s.Pages.Refine(ctx, page)
	if err != nil {
		return PageOutput{}, err
	}
	return s.updatePage(ctx, in, "figures", func(p *magazine.Page) error {
		p.Regions = refined.Regions
		return nil
	})
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

// FinalizeInput names the issue; its pages' outcomes are read from their
// records (the state carries none, to stay under the 256 KB limit).
type FinalizeInput struct {
	IssueID string `json:"issue_id"`
}

// FinalizeOutput is the issue as it ended.
type FinalizeOutput struct {
	IssueID     string `json:"issue_id"`
	Status      string `json:"status"`
	PagesDone   int    `json:"pages_done"`
	PagesFailed int    `json:"pages_failed"`
}

// Finalize records failed pages and marks the issue ready (failed when no
// page could be read at all). A page is failed when RecordPageFailure
// recorded why, or when its records show it never finished (its failure
// could not be recorded).
func (s *Steps) Finalize(ctx context.Context, in FinalizeInput) (FinalizeOutput, error) {
	recorded, err := s.Repo.PageFailures(ctx, in.IssueID)
	if err != nil {
		return FinalizeOutput{}, transient(err)
	}
	steps, err := s.Repo.Steps(ctx, in.IssueID)
	if err != nil {
		return FinalizeOutput{}, transient(err)
	}
	failed := map[int]magazine.PageError{}
	for _, f := range recorded {
		failed[f.Page] = f
	}
	var failures []magazine.PageError
	for _, st := range steps {
		f, ok := failed[st.Page]
		switch {
		case ok:
		case !st.Done:
			f = magazine.PageError{Page: st.Page, Step: st.Step, Error: fmt.Sprintf("the page stopped after its %s step, and why was not recorded", st.Step)}
			if err := s.markPageFailed(ctx, in.IssueID, f); err != nil {
				return FinalizeOutput{}, transient(err)
			}
		default:
			continue
		}
		failures = append(failures, f)
	}
	if err := s.repeatedFurniture(ctx, in.IssueID, steps); err != nil {
		return FinalizeOutput{}, err
	}
	if s.Propose != nil && len(failures) < len(steps) {
		// Articles are proposed before the issue is ready, so whoever sees
		// it ready can listen at once; a retry proposes afresh.
		if err := s.Propose(ctx, in.IssueID); err != nil {
			return FinalizeOutput{}, transient(fmt.Errorf("proposing articles: %w", err))
		}
	}
	is, err := s.Repo.Update(ctx, in.IssueID, func(is *magazine.Issue) error {
		if is.Step == issues.CancelledStep {
			return nil // the user stopped the run as it finished: it stays cancelled
		}
		is.PageErrors = failures
		is.PagesDone = len(steps) - len(failures)
		is.Step = "done"
		is.Status = magazine.IssueReady
		if len(steps) > 0 && len(failures) == len(steps) {
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

// repeatedFurniture finds the running heads and footers of pages an OCR
// engine read (each alone) by their repetition across the issue, now that
// every page is read (magazine.RepeatedFurniture). The pages are read one at
// a time and only their text is kept, so a long issue is never in memory
// whole; an OCR page that is marked is read again to be changed.
func (s *Steps) repeatedFurniture(ctx context.Context, id string, steps []issues.Step) error {
	text := make([]magazine.TextPage, len(steps))
	index := make([][]int, len(steps))
	var ocrPages []int // indexes into steps
	for i, st := range steps {
		p, _, err := s.Repo.Page(ctx, id, st.Page)
		if err != nil {
			return transient(err)
		}
		text[i], index[i] = magazine.FurnitureText(p)
		if p.Error == "" && p.Engine != "" && p.Engine != EngineTextLayer {
			ocrPages = append(ocrPages, i)
		}
	}
	if len(ocrPages) == 0 {
		return nil
	}
	marks := magazine.FurnitureMarks(text)
	for _, i := range ocrPages {
		p, _, err := s.Repo.Page(ctx, id, steps[i].Page)
		if err != nil {
			return transient(err)
		}
		if now, at := magazine.FurnitureText(p); !slices.Equal(at, index[i]) || len(now.Blocks) != len(text[i].Blocks) {
			continue // the page changed since it was read: its marks are not its own
		}
		out, changed := magazine.MarkFurniture(p, text[i], index[i], marks[i])
		if changed {
			if err := s.Repo.PutPage(ctx, out); err != nil {
				return transient(err)
			}
		}
	}
	return nil
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

// PageFailure is what the definition's RecordPageFailure hands over: the
// page, the step that failed and Step Functions' error and cause.
type PageFailure struct {
	Page  int    `json:"page"`
	Step  string `json:"step"`
	Error string `json:"error"`
	Cause string `json:"cause"`
}

// FailureInput is what the fail-issue function is handed, one of: the state
// at FailIssue (something outside the pages failed), RecordPageFailure's
// {issue_id, failure} (one page failed), or the watchdog rule's EventBridge
// event (an execution ended).
type FailureInput struct {
	FailIssueInput
	IssueID    string          `json:"issue_id"`
	Failure    *PageFailure    `json:"failure"`
	DetailType string          `json:"detail-type"`
	Detail     *ExecutionEnded `json:"detail"`
}

// RecordFailure records the failure in hand: one Lambda serves the three
// ways an ingest records that something went wrong.
func (s *Steps) RecordFailure(ctx context.Context, in FailureInput) (map[string]string, error) {
	switch {
	case in.DetailType != "" && in.Detail != nil:
		return s.Watchdog(ctx, *in.Detail)
	case in.Failure != nil:
		return s.FailPage(ctx, in.IssueID, *in.Failure)
	default:
		return s.FailIssue(ctx, in.FailIssueInput)
	}
}

// FailPage stores why a page stopped: on the page, its step record and its
// failure record (which Finalize reads). Texts are capped.
func (s *Steps) FailPage(ctx context.Context, issueID string, in PageFailure) (map[string]string, error) {
	if err := issues.ValidateID(issueID); err != nil || in.Page < 1 {
		return nil, &StepError{Reason: "bad-page-failure", Detail: fmt.Sprintf("issue %q page %d", issueID, in.Page)}
	}
	f := magazine.PageError{Page: in.Page, Step: in.Step, Error: capText(causeMessage(in.Error, in.Cause))}
	if err := s.markPageFailed(ctx, issueID, f); err != nil {
		return nil, transient(err)
	}
	if err := s.Repo.PutPageFailure(ctx, issueID, f); err != nil {
		return nil, transient(err)
	}
	return map[string]string{"issue_id": issueID, "error": f.Error}, nil
}

// ExecutionEnded is the detail of Step Functions' "Execution Status Change"
// event, as the watchdog rule delivers it.
type ExecutionEnded struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Input  string `json:"input"` // the execution's input, as JSON text
	Error  string `json:"error"`
	Cause  string `json:"cause"`
}

// Watchdog fails the issue of an execution that ended (failed, timed out,
// aborted) without Finalize or FailIssue settling it, which would otherwise
// stay processing for ever (an error no Catch can catch, such as
// States.DataLimitExceeded, or a stopped execution). An issue already
// settled, or owned by another execution, is left alone.
func (s *Steps) Watchdog(ctx context.Context, ended ExecutionEnded) (map[string]string, error) {
	var start PrepareInput
	if err := json.Unmarshal([]byte(ended.Input), &start); err != nil {
		return nil, &StepError{Reason: "bad-execution-input", Detail: err.Error()}
	}
	id, ok := issues.IDFromSourceKey(start.SourceKey)
	if !ok || ended.Status == "SUCCEEDED" || ended.Status == "RUNNING" {
		return map[string]string{"action": "none"}, nil
	}
	owner, err := s.Repo.IngestOwner(ctx, id)
	if err != nil && !errors.Is(err, issues.ErrNotFound) {
		return nil, transient(err)
	}
	if err == nil && owner != ended.Name {
		return map[string]string{"issue_id": id, "action": "none", "reason": "owned by execution " + owner}, nil
	}
	why := ended.Error
	if why == "" {
		why = "no error given"
	}
	msg := capText(fmt.Sprintf("the ingest execution ended %s without finishing the issue: %s", ended.Status, causeMessage(why, ended.Cause)))
	settled := false
	_, err = s.Repo.Update(ctx, id, func(is *magazine.Issue) error {
		settled = is.Status != magazine.IssueProcessing && is.Status != magazine.IssueUploading
		if settled {
			return nil
		}
		is.Status = magazine.IssueFailed
		is.Error = msg
		is.Step = "failed"
		return nil
	})
	if errors.Is(err, issues.ErrNotFound) {
		return map[string]string{"action": "none", "reason": "no issue"}, nil
	}
	if err != nil {
		return nil, transient(err)
	}
	if settled {
		return map[string]string{"issue_id": id, "action": "none", "reason": "already settled"}, nil
	}
	return map[string]string{"issue_id": id, "action": "failed", "error": msg}, nil
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
		return nil, &StepError{Reason: "bad-source-key", Detail: in.SourceKey}
	}
	msg := capText(fault.Tidy(causeMessage(in.Error.Error, in.Error.Cause)))
	// A refused PDF gets the sentence a user acts on; its cause is kept apart.
	cause := ""
	if human := pdf.ExplainText(msg); human != "" {
		msg, cause = human, msg
	}
	_, err := s.Repo.Update(ctx, id, func(is *magazine.Issue) error {
		is.Status = magazine.IssueFailed
		is.Error = msg
		is.ErrorCause = cause
		is.Step = "failed"
		return nil
	})
	if err != nil {
		return nil, transient(err)
	}
	return map[string]string{"issue_id": id, "error": msg}, nil
}

// maxErrorText caps a stored error text: a Lambda's cause can be 32 KB,
// and it is shown on the issue and each failed page.
const maxErrorText = 2000

func capText(s string) string {
	if len(s) <= maxErrorText {
		return s
	}
	cut := maxErrorText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (cut)"
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

func isConflict(err error) bool { return errors.Is(err, store.ErrConditionFailed) }

package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/engines/urlsafe"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/enginesapi"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/httpapi/reviewapi"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/review"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/statemachines"
)

// VisionOCRKeyCard is the engine_api_keys entry used for the vision OCR
// engines before falling back to llm_api_key.
const VisionOCRKeyCard = "vision-ocr"

// Deps is what every feature is built from, the same in both modes.
type Deps struct {
	Config   Config
	Log      *slog.Logger
	Clock    func() time.Time
	Table    store.Table
	Blobs    blob.Store // media: renders, crops, audio
	Uploads  blob.Store // uploaded PDFs (the uploads bucket in AWS; the same store locally)
	Jobs     jobs.Queue
	Registry *jobs.Registry
	Settings *settings.Service
	Cards    *cards.Service
	Issues   *issues.Repo
	Review   *review.Editor
	Steps    *pipeline.Steps
	// Ingest walks the state machine in-process; nil in AWS, where Step
	// Functions runs it.
	Ingest *pipeline.Ingest
}

// wireEngines builds the engine cards of this instance.
func (d *Deps) wireEngines() {
	d.Cards = cards.NewService(d.Table, d.Settings, cards.Options{
		Instance: d.Config.Instance, Hosted: d.Config.Mode == ModeAWS,
		EngineHost: d.Config.EngineHost, DockerDefault: d.Config.DockerHost,
	})
}

// wireFeatures builds every feature's services over the ports.
func (d *Deps) wireFeatures(local bool) error {
	d.wireEngines()
	return d.wireMagazine(local)
}

// wireMagazine builds the magazine records and pipeline steps; local mode
// also gets the in-process ingest and its job kind.
func (d *Deps) wireMagazine(local bool) error {
	d.Issues = issues.NewRepo(d.Table, d.Clock)
	d.Steps = &pipeline.Steps{
		Repo: d.Issues, Blobs: d.Blobs, Sources: d.Uploads, Limits: pdf.DefaultLimits(),
		DPI: pipeline.DefaultDPI, OCR: d.ocrChain,
	}
	d.Review = review.NewEditor(review.New(d.Table, d.Clock), d.Steps)
	if !local {
		return nil
	}
	ingest, err := pipeline.NewIngest(statemachines.Ingest(), d.Steps)
	if err != nil {
		return err
	}
	d.Ingest = ingest
	return d.Registry.Register(pipeline.JobKind, ingest.Job)
}

// ocrChain builds the OCR chain from the current settings, so a changed
// engine URL applies to the next page.
func (d *Deps) ocrChain(ctx context.Context) (pipeline.OCRChain, error) {
	s, err := d.Settings.Load(ctx)
	if err != nil {
		return pipeline.OCRChain{}, err
	}
	key := s.KeyFor(VisionOCRKeyCard)
	chain := pipeline.OCRChain{Tesseract: tesseract.Engine{Command: d.Config.TesseractCommand}}
	// Engine URLs are checked before the server calls them, and again at
	// every dial (engine URL safety).
	policy := urlsafe.Policy{Hosted: d.Config.Mode == ModeAWS, Allow: s.EngineURLAllowlist}
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

// Features lists every feature's HTTP operations; the local server and the
// platform Lambda mount them all, a feature Lambda mounts its own.
func (d *Deps) Features() []httpapi.Feature {
	return []httpapi.Feature{
		httpapi.Settings(d.Settings),
		enginesapi.Feature(d.Cards),
		magazineapi.Feature(d.MagazineDeps()),
		reviewapi.Feature(d.Review),
	}
}

// MagazineDeps wires the magazine HTTP feature; only local mode starts
// ingest itself (in AWS the S3 upload event does).
func (d *Deps) MagazineDeps() magazineapi.MagazineDeps {
	mag := magazineapi.MagazineDeps{
		Repo: d.Issues, Uploads: d.Uploads, Media: d.Blobs, Steps: d.Steps,
		Limits: d.Steps.Limits, Clock: d.Clock,
	}
	if d.Ingest != nil {
		mag.Start = d.startIngest
	}
	return mag
}

// startIngest queues the local ingest job for an uploaded PDF.
func (d *Deps) startIngest(ctx context.Context, in pipeline.PrepareInput) error {
	payload, err := json.Marshal(in)
	if err != nil {
		return err
	}
	_, err = d.Jobs.Enqueue(ctx, pipeline.JobKind, payload)
	return err
}

// IngestFile ingests one PDF in this process and waits for it (`lectern
// ingest`): the same checks as an upload, then the whole state machine.
func (d *Deps) IngestFile(ctx context.Context, title string, data []byte) (magazine.Issue, error) {
	if d.Ingest == nil {
		return magazine.Issue{}, errors.New("ingest runs in-process only in local mode")
	}
	if _, err := pdf.Inspect(data, d.Steps.Limits); err != nil {
		return magazine.Issue{}, err
	}
	id := issues.NewID(d.Clock())
	is := magazine.Issue{ID: id, Title: title, Status: magazine.IssueProcessing, SourceKey: issues.SourceKey(id), Step: "upload"}
	if err := d.Issues.Create(ctx, is); err != nil {
		return magazine.Issue{}, err
	}
	if err := d.Uploads.Put(ctx, is.SourceKey, bytes.NewReader(data), "application/pdf"); err != nil {
		return magazine.Issue{}, err
	}
	// A failed run has already stored its reason on the issue.
	_, runErr := d.Ingest.Run(ctx, pipeline.PrepareInput{SourceKey: is.SourceKey, Title: title}, nil)
	got, _, err := d.Issues.Get(ctx, id)
	if err != nil {
		return magazine.Issue{}, errors.Join(runErr, err)
	}
	return got, nil
}

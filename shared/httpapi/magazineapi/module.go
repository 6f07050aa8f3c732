package magazineapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"

	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/review"
	"github.com/lectern/lectern/statemachines"
)

// Parts are the magazine feature's services: the issues workflow, the
// ingest steps and the in-process walk of the ingest state machine.
type Parts struct {
	Issues *issues.Service
	Steps  *pipeline.Steps
	Ingest *pipeline.Ingest
	log    *slog.Logger
}

// New builds the magazine feature over the ingest steps (visionocr's, whose
// Recognize reads with the vision engines). Locally an upload queues the
// ingest job, which walks the state machine in-process; in AWS the S3
// upload event starts Step Functions on the same definition.
func New(d *platform.Deps, steps *pipeline.Steps) (*Parts, error) {
	ingest, err := pipeline.NewIngest(statemachines.Ingest(), steps)
	if err != nil {
		return nil, err
	}
	return &Parts{Issues: newIssues(d, steps), Steps: steps, Ingest: ingest, log: d.Log}, nil
}

// newIssues is the issues workflow over the steps' records.
func newIssues(d *platform.Deps, steps *pipeline.Steps) *issues.Service {
	// Refinement is a review change: conditional page writes with the
	// revision and undo rules of every other edit.
	refine := review.NewEditor(review.New(d.Table, d.Clock), steps.Pages)
	svc := &issues.Service{
		Repo: steps.Repo, Uploads: d.Uploads, Media: d.Blobs, Limits: steps.Pages.Limits,
		Clock: d.Clock, Refine: refine, Jobs: d.Jobs,
	}
	if !d.Hosted() {
		svc.Start = func(ctx context.Context, sourceKey, title string) error {
			payload, err := json.Marshal(pipeline.PrepareInput{SourceKey: sourceKey, Title: title})
			if err != nil {
				return err
			}
			_, err = d.Jobs.Enqueue(ctx, pipeline.JobKind, payload)
			return err
		}
		if q, ok := d.Jobs.(cancellable); ok {
			svc.Stop = stopIngestJob(q)
		}
	}
	if d.Executions != nil {
		svc.Stop = stopExecution(steps.Repo, d.Executions)
	}
	return svc
}

// stopExecution stops the Step Functions execution that claimed the issue;
// an issue no execution has claimed yet has nothing to stop.
func stopExecution(repo *issues.Repo, ex platform.Executions) issues.Stopper {
	return func(ctx context.Context, id, _ string) error {
		owner, err := repo.IngestOwner(ctx, id)
		if errors.Is(err, issues.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		return ex.Stop(ctx, owner, "the user cancelled the ingest")
	}
}

// cancellable is the local job pool as cancelling an ingest needs it.
type cancellable interface {
	Pending(ctx context.Context) ([]jobs.Job, error)
	Cancel(ctx context.Context, id, reason string) (jobs.Job, error)
}

// stopIngestJob cancels the issue's ingest job (running or queued) and
// waits until it has stopped.
func stopIngestJob(q cancellable) issues.Stopper {
	return func(ctx context.Context, _, sourceKey string) error {
		pending, err := q.Pending(ctx)
		if err != nil {
			return err
		}
		for _, j := range pending {
			var in pipeline.PrepareInput
			if j.Kind == pipeline.JobKind && json.Unmarshal(j.Payload, &in) == nil && in.SourceKey == sourceKey {
				if _, err := q.Cancel(ctx, j.ID, "the user cancelled the ingest"); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// Module is the magazine feature with its jobs, as the local server and
// the job worker run it; steps makes the ingest steps (visionocr.NewSteps).
// This package does not import visionocr, so the API Lambda links no vision
// client (openai-go's package initialisers alone would put it over the
// 15 MB budget of issue 15).
func Module(steps func(*platform.Deps) *pipeline.Steps) platform.New {
	return func(d *platform.Deps) (platform.Module, error) {
		p, err := New(d, steps(d))
		if err != nil {
			return platform.Module{}, err
		}
		return p.Module(), nil
	}
}

// API is the magazine feature as its API Lambda serves it: the operations
// only. Step Functions ingests and the worker refines figures, so the steps
// have no OCR chain.
func API(d *platform.Deps) (platform.Module, error) {
	return platform.Module{Name: "magazine", Operations: Operations(newIssues(d, pipeline.NewSteps(d)))}, nil
}

// Module offers the magazine operations and the ingest and figure
// refinement job kinds.
func (p *Parts) Module() platform.Module {
	return platform.Module{
		Name:       "magazine",
		Operations: Operations(p.Issues),
		Jobs:       map[string]jobs.Handler{pipeline.JobKind: p.Ingest.Job, issues.RefineJobKind: p.Issues.RefineJob},
		Recover:    p.recover,
	}
}

// recover settles the issues a stopped process left: those whose ingest
// job is still to run are left to it; those whose job was given up (the
// process died in it again and again) fail with the job's reason.
func (p *Parts) recover(ctx context.Context, left []jobs.Job) error {
	live, gaveUp := map[string]bool{}, map[string]string{}
	for _, j := range left {
		var in pipeline.PrepareInput
		if j.Kind != pipeline.JobKind || json.Unmarshal(j.Payload, &in) != nil {
			continue
		}
		if j.Status.Final() {
			gaveUp[in.SourceKey] = j.Error
		} else {
			live[in.SourceKey] = true
		}
	}
	r, err := p.Issues.Recover(ctx, func(key string) bool { return live[key] }, func(key string) string { return gaveUp[key] })
	if len(r.Resumed)+len(r.Failed)+r.Orphans > 0 && p.log != nil {
		p.log.Warn("settled issues a stopped process left", "resumed", r.Resumed, "failed", r.Failed, "orphaned_pdfs_removed", r.Orphans)
	}
	return err
}

// IngestFile ingests one PDF in this process and waits for it (`lectern
// ingest`): the same checks as an upload, then the whole state machine.
// The PDF is read from file as it is needed, never held in memory whole.
func (p *Parts) IngestFile(ctx context.Context, title string, file io.Reader) (magazine.Issue, error) {
	is, err := p.Issues.Accept(ctx, title, file)
	if err != nil {
		return magazine.Issue{}, err
	}
	// A failed run has already stored its reason on the issue.
	_, runErr := p.Ingest.Run(ctx, pipeline.PrepareInput{SourceKey: is.SourceKey, Title: title}, nil)
	got, _, err := p.Issues.Repo.Get(ctx, is.ID)
	if err != nil {
		return magazine.Issue{}, errors.Join(runErr, err)
	}
	return got, nil
}

package issues

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/magazine"
)

// RefineJobKind is the background job that re-derives an issue's figure
// boundaries: an issue of hundreds of pages outlasts an API call.
const RefineJobKind = "magazine.refine-figures"

// refineRequest is a refinement job's payload.
type refineRequest struct {
	Issue string `json:"issue"`
}

// StartRefine queues figure refinement for an issue that finished ingest;
// an unknown or still-ingesting issue is refused before anything is queued.
func (s *Service) StartRefine(ctx context.Context, id string) (jobs.Job, error) {
	if err := s.refinable(ctx, id); err != nil {
		return jobs.Job{}, err
	}
	payload, err := json.Marshal(refineRequest{Issue: id})
	if err != nil {
		return jobs.Job{}, err
	}
	return s.Jobs.Enqueue(ctx, RefineJobKind, payload)
}

// RefineJob runs a queued refinement, reporting each page ("refining page
// 3 of 12"); its result is the Refined document.
func (s *Service) RefineJob(ctx context.Context, payload json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var req refineRequest
	if err := json.Unmarshal(payload, &req); err != nil {
		return nil, fmt.Errorf("refine job payload: %v: %w", err, ErrInvalid)
	}
	r, err := s.RefineFigures(ctx, req.Issue, func(n, pages int) error {
		return progress.Progress(ctx, float64(n-1)/float64(max(pages, 1)), fmt.Sprintf("refining page %d of %d", n, pages))
	})
	if err != nil {
		return nil, err
	}
	if err := progress.Progress(ctx, 1, fmt.Sprintf("refined the figures: %d pages changed", r.PagesChanged)); err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// RefineFigures re-derives figure boundaries and crops for an issue that
// finished ingest; it answers which pages changed.
func (s *Service) RefineFigures(ctx context.Context, id string, progress PageProgress) (Refined, error) {
	if err := s.refinable(ctx, id); err != nil {
		return Refined{}, err
	}
	return s.Refine.RefineIssue(ctx, id, progress)
}

// refinable refuses an unknown issue and one still being ingested.
func (s *Service) refinable(ctx context.Context, id string) error {
	is, _, err := s.Repo.Get(ctx, id)
	if err != nil {
		return err
	}
	if is.Status == magazine.IssueProcessing || is.Status == magazine.IssueUploading {
		return ErrBusy
	}
	return nil
}

package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/pipeline/asl"
)

// JobKind is the local job that walks the ingest definition for one upload.
const JobKind = "magazine.ingest"

// Ingest runs the ingest state machine in-process (local mode); in AWS,
// Step Functions runs the same definition.
type Ingest struct {
	def   *asl.Definition
	steps *Steps
	// MaxConcurrency is how many pages run at once in-process: the cores
	// the process is given (GOMAXPROCS), as every page step is CPU work
	// (MuPDF, encoding, Tesseract on one thread). 0 keeps the definition's
	// default of 4, which Step Functions uses: there each page runs in
	// Lambdas of its own.
	MaxConcurrency int
}

// NewIngest parses the definition once.
func NewIngest(definition []byte, steps *Steps) (*Ingest, error) {
	def, err := asl.Parse(definition)
	if err != nil {
		return nil, fmt.Errorf("ingest definition: %w", err)
	}
	return &Ingest{def: def, steps: steps, MaxConcurrency: runtime.GOMAXPROCS(0)}, nil
}

// Steps returns the handlers' owner (for re-deriving figures on demand).
func (in *Ingest) Steps() *Steps { return in.steps }

// Run walks the definition for one upload and returns its output.
func (in *Ingest) Run(ctx context.Context, start PrepareInput, onState func(asl.StateEvent)) (json.RawMessage, error) {
	input := map[string]any{"source_key": start.SourceKey}
	if start.Title != "" {
		input["title"] = start.Title
	}
	if in.MaxConcurrency > 0 {
		input["max_concurrency"] = in.MaxConcurrency
	}
	raw, err := json.Marshal(input)
	if err != nil {
		return nil, err
	}
	// One name per upload: a local job run again after a restart is the
	// same execution, and may claim its issue again.
	opts := asl.Options{Handlers: in.localHandlers(), OnState: onState, ExecutionName: "local:" + start.SourceKey}
	return asl.Run(ctx, in.def, raw, opts)
}

// localHandlers are the steps as this process runs them. Prepare holds the
// whole upload parsed (pdfcpu keeps every object: about 2.7 times the file,
// 49 MiB for a 495-page issue) while it cuts the pages; here the pages run
// next in the same process, so that heap goes back to the system before they
// start instead of lingering under their peak. (In AWS, Prepare is a Lambda
// of its own.)
func (in *Ingest) localHandlers() map[string]asl.Handler {
	handlers := in.steps.Handlers()
	prepare := handlers["PrepareFunctionArn"]
	handlers["PrepareFunctionArn"] = func(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
		out, err := prepare(ctx, raw)
		debug.FreeOSMemory()
		return out, err
	}
	return handlers
}

// Job is the local job handler: the job's progress follows the pages.
func (in *Ingest) Job(ctx context.Context, payload json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var start PrepareInput
	if err := json.Unmarshal(payload, &start); err != nil {
		return nil, fmt.Errorf("ingest job payload: %w", err)
	}
	_ = progress.Progress(ctx, 0, "preparing")
	out, err := in.Run(ctx, start, nil)
	if err != nil {
		if ctx.Err() == nil {
			// The job fails for good (a stopped run is retried instead):
			// so does its issue, rather than stay processing.
			fail := FailIssueInput{SourceKey: start.SourceKey}
			fail.Error.Error, fail.Error.Cause = "IngestError", err.Error()
			_, _ = in.steps.FailIssue(context.WithoutCancel(ctx), fail)
		}
		return nil, err
	}
	_ = progress.Progress(ctx, 1, "done")
	return out, nil
}

// Package platform is the contract between Lectern's wiring and its
// features: the configuration, the ports every feature is built from (Deps)
// and what a feature offers in return (Module). app builds Deps once for the
// local binary or a Lambda and mounts the modules it serves.
package platform

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/speech/ear"
	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/voices"
)

// Deps is what every feature is built from, the same in both modes.
type Deps struct {
	Config   Config
	Log      *slog.Logger
	Clock    func() time.Time
	Table    store.Table
	Blobs    blob.Store // media: renders, crops, audio
	Uploads  blob.Store // uploaded PDFs (the uploads bucket in AWS; the same store locally)
	Jobs     jobs.Queue
	Settings *settings.Service
	// Voices is the voice library every instance shares (LECTERN_VOICES
	// locally, the voice table in AWS); nil where none is configured.
	Voices voices.Store
	// Piper is the built-in neural voice's worker: one per process, so the
	// model is loaded once for every feature that speaks.
	Piper *speech.Piper
	// Ear is the ear's Whisper worker, one per process like Piper: every
	// feature's renders share its loaded model and its cores.
	Ear *ear.Whisper
	// Executions stops running ingest executions (Step Functions in AWS);
	// nil where none run apart from this process.
	Executions Executions
}

// Executions is the workflow engine that runs ingests apart from the
// process (Step Functions).
type Executions interface {
	// Stop ends the named execution for good, with why; one that has
	// ended or never existed is no error.
	Stop(ctx context.Context, name, why string) error
}

// Hosted says the server runs in AWS, where engine URLs are checked more
// strictly and nothing is assumed to run on this host.
func (d *Deps) Hosted() bool { return d.Config.Mode == ModeAWS }

// Module is one feature as the transports and the job runner see it. A
// feature's package offers one constructor of this shape; a Lambda mounts
// only the modules it serves, the local server and the worker all of them.
type Module struct {
	Name string
	// Operations are the feature's HTTP operations.
	Operations []httpapi.Operation
	// Jobs are the feature's background job kinds, registered in both modes
	// (the local pool and the SQS worker Lambda).
	Jobs map[string]jobs.Handler
	// Recover, when set, settles what a stopped process left half-done. The
	// local binary calls it at start, before its job workers run, with the
	// jobs the stopped process left: queued (to run again), or failed for
	// having been running each time the process died (localjobs.Pool.Settle).
	Recover func(ctx context.Context, left []jobs.Job) error
}

// New builds a feature's module from the platform.
type New func(*Deps) (Module, error)

// Build builds each feature's module in order.
func Build(d *Deps, features ...New) ([]Module, error) {
	modules := make([]Module, 0, len(features))
	for _, f := range features {
		m, err := f(d)
		if err != nil {
			return nil, err
		}
		modules = append(modules, m)
	}
	return modules, nil
}

// Operations lists the HTTP operations of the modules, in order.
func Operations(modules []Module) []httpapi.Operation {
	var ops []httpapi.Operation
	for _, m := range modules {
		ops = append(ops, m.Operations...)
	}
	return ops
}

// RegisterJobs adds every module's job kinds to the registry; a kind claimed
// twice is a wiring error.
func RegisterJobs(r *jobs.Registry, modules []Module) error {
	for _, m := range modules {
		for kind, h := range m.Jobs {
			if err := r.Register(kind, h); err != nil {
				return fmt.Errorf("module %s: %w", m.Name, err)
			}
		}
	}
	return nil
}

// Package jobs owns background work: a job record in the table (PK JOB#<id>,
// SK META) with status, progress, result and error, a registry of handlers by
// kind, and the Runner that moves a job through its states. Adapters decide how
// a job reaches a worker: an in-process pool (localjobs) or SQS plus a worker
// Lambda (sqsjobs). Nothing here knows about either transport.
//
// Life of a job:
//
//	queued ──claim──▶ running ──handler ok──────────────▶ succeeded
//	   ▲                 │ ───handler error / panic / ───▶ failed
//	   │                 │    unknown kind / attempts used
//	   └──transient──────┘   (handler returned Transient(err), or the run was
//	                          interrupted: the adapter runs it again later)
//
// Delivery is at least once (SQS redelivers, the local pool re-runs jobs left
// by a process that died), so a handler may run more than once for one job and
// must be safe to repeat. Each claim increments Attempts, which doubles as a
// fencing token: an attempt that has been taken over can no longer write.
package jobs

import (
	"context"
	"encoding/json"
	"time"
)

// Status is where a job is in its life.
type Status string

const (
	StatusQueued    Status = "queued"
	StatusRunning   Status = "running"
	StatusSucceeded Status = "succeeded"
	StatusFailed    Status = "failed"
)

// Final reports whether the job will not change any more.
func (s Status) Final() bool { return s == StatusSucceeded || s == StatusFailed }

// Job is the record kept in the table and returned by the API.
type Job struct {
	ID       string          `json:"id"`
	Kind     string          `json:"kind"`
	Status   Status          `json:"status"`
	Progress float64         `json:"progress"`
	Message  string          `json:"message,omitempty"`
	Payload  json.RawMessage `json:"payload,omitempty"`
	Result   json.RawMessage `json:"result,omitempty"`
	// Error is the last failure: final when Status is failed, the reason for
	// the coming retry when Status is queued again.
	Error string `json:"error,omitempty"`
	// Attempts counts claims (runs started), including interrupted ones.
	Attempts int `json:"attempts"`
	// Crashes counts runs the process died in (found running at start:
	// killed, or out of memory). The local pool gives up on a job after
	// MaxCrashes of them rather than let it take the process down again.
	Crashes int       `json:"crashes,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// LeaseUntil is when a running job is presumed abandoned if it has not
	// written since: another worker may then take it over.
	LeaseUntil time.Time `json:"lease_until,omitzero"`
	// Version is the table item's version (kept outside the JSON document);
	// the API can use it as an ETag for progress polling.
	Version int64 `json:"-"`
}

// Reporter lets a running handler record progress (0..1) with a short message.
// Each call is one conditional write of the job record, so report at
// meaningful steps (a page, a chapter), not in tight loops. An error matching
// ErrSuperseded means the job is no longer this run's: the handler should stop.
type Reporter interface {
	Progress(ctx context.Context, fraction float64, message string) error
}

// Handler does the work of one job kind and returns its result document (JSON,
// at most MaxDocumentSize; large outputs belong in blobs, referenced here).
// Returning an error fails the job for good unless it is wrapped with
// Transient, which asks for another attempt.
type Handler func(ctx context.Context, payload json.RawMessage, progress Reporter) (json.RawMessage, error)

// Queue is the port features use to start background work.
type Queue interface {
	// Enqueue stores a queued job record and hands it to a worker. A bad kind
	// or payload: ErrInvalid.
	Enqueue(ctx context.Context, kind string, payload json.RawMessage) (Job, error)
	// Get reads a job record. Missing: ErrNotFound.
	Get(ctx context.Context, id string) (Job, error)
}

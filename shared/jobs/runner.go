package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/store"
)

// DefaultMaxAttempts is the runs a job gets by default: the job queue's
// maxReceiveCount in template.yaml, after which SQS delivers it no more.
const DefaultMaxAttempts = 5

// RunnerOptions tune a Runner; zero values take the defaults.
type RunnerOptions struct {
	// MaxAttempts is how many runs a job gets before a transient failure
	// becomes final. Default DefaultMaxAttempts.
	MaxAttempts int
	// Lease is how long a running job counts as alive after its last write;
	// Run refuses (transiently) to start a job another worker holds. It must
	// exceed the worker's timeout and stay under the queue's visibility
	// timeout (template.yaml: 300 s and 1800 s). Default 15 minutes.
	Lease time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Log receives panics (with stacks) and retries. Default slog.Default().
	Log *slog.Logger
}

// Runner runs one job at a time on behalf of an adapter: it claims the record,
// calls the kind's handler and stores the outcome. It holds no per-job state,
// so one Runner serves any number of concurrent runs.
type Runner struct {
	table    store.Table
	registry *Registry
	max      int
	lease    time.Duration
	now      func() time.Time
	log      *slog.Logger
}

// NewRunner builds a Runner over the job records in table.
func NewRunner(table store.Table, registry *Registry, opts RunnerOptions) *Runner {
	r := &Runner{table: table, registry: registry, max: opts.MaxAttempts, lease: opts.Lease, now: opts.Now, log: opts.Log}
	if r.max <= 0 {
		r.max = DefaultMaxAttempts
	}
	if r.lease <= 0 {
		r.lease = 15 * time.Minute
	}
	if r.now == nil {
		r.now = time.Now
	}
	if r.log == nil {
		r.log = slog.Default()
	}
	return r
}

// finalWriteTimeout bounds the bookkeeping done after the handler returns,
// which uses a context detached from the run's: an outcome reached just as
// the run is cancelled must still be recorded.
const finalWriteTimeout = 10 * time.Second

// maxWriteTries bounds retries of one conditional write that keeps conflicting.
const maxWriteTries = 8

// Run runs the job once, unless another worker holds its lease. The returned
// error says what the caller (an adapter) should do with its delivery:
//
//   - nil: the job is final (Job.Status succeeded or failed, possibly from an
//     earlier delivery); acknowledge.
//   - ErrNotFound: there is no such job; nothing can ever run it.
//   - ErrTransient: not final yet (handler asked for a retry, the run was
//     interrupted, the table failed, another worker holds the job); deliver
//     again later.
//   - ErrSuperseded: a newer attempt owns the job; drop this delivery.
func (r *Runner) Run(ctx context.Context, id string) (Job, error) {
	return r.run(ctx, id, false)
}

// TakeOver is Run for a caller that is the only worker of its table (the
// local pool: one process holds the bbolt file), where a running record can
// only be left over from a process that died: it runs the job at once
// instead of waiting for the lease to lapse.
func (r *Runner) TakeOver(ctx context.Context, id string) (Job, error) {
	return r.run(ctx, id, true)
}

func (r *Runner) run(ctx context.Context, id string, takeOver bool) (Job, error) {
	job, err := Get(ctx, r.table, id)
	if errors.Is(err, ErrNotFound) {
		return Job{}, err
	}
	if err != nil {
		return Job{}, fmt.Errorf("run: %w: %w", ErrTransient, err)
	}
	now := r.now()
	switch {
	case job.Status.Final():
		return job, nil // a repeated delivery of a finished job
	case job.Status == StatusRunning && !takeOver && now.Before(job.LeaseUntil):
		return job, fmt.Errorf("run job %s: attempt %d holds it until %s: %w",
			id, job.Attempts, job.LeaseUntil.Format(time.RFC3339), ErrTransient)
	}

	// Failures decided before any handler runs are written against the
	// version just read; a conflict means someone else moved the job, so
	// the whole decision is retried later.
	if job.Attempts >= r.max {
		msg := fmt.Sprintf("gave up after %d attempts", job.Attempts)
		if job.Error != "" {
			msg += "; last error: " + job.Error
		}
		return r.failUnclaimed(ctx, job, msg)
	}
	h, err := r.registry.Handler(job.Kind)
	if err != nil {
		return r.failUnclaimed(ctx, job, err.Error())
	}

	// Claim: the conditional write makes exactly one of two racing
	// deliveries the owner of this attempt.
	claimed := job
	claimed.Status, claimed.Attempts = StatusRunning, job.Attempts+1
	claimed.Progress, claimed.Message, claimed.Error = 0, "", ""
	claimed.Updated, claimed.LeaseUntil = now.UTC(), now.Add(r.lease).UTC()
	if err := r.put(ctx, job.Version, &claimed); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return job, fmt.Errorf("claim job %s: changed meanwhile: %w", id, ErrTransient)
		}
		return job, fmt.Errorf("claim job %s: %w: %w", id, ErrTransient, err)
	}

	a := &attempt{r: r, job: claimed}
	result, herr := r.call(ctx, h, claimed, a)

	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finalWriteTimeout)
	defer cancel()
	var change func(*Job)
	var outcome error
	switch {
	case herr == nil && len(result) > 0 && !json.Valid(result):
		change = failed("handler returned a result that is not JSON")
	case herr == nil && len(result) > MaxDocumentSize:
		change = failed(fmt.Sprintf("handler returned a %d-byte result, limit %d (store large outputs as blobs)", len(result), MaxDocumentSize))
	case herr == nil:
		change = func(j *Job) {
			j.Status, j.Progress, j.Result, j.Error = StatusSucceeded, 1, result, ""
		}
	case errors.Is(herr, ErrSuperseded):
		// The handler learnt from Progress that it lost the job; the fence in
		// update below decides whether that is still true.
		change = failed(herr.Error())
	case errors.Is(context.Cause(ctx), ErrCancelled):
		change = failed(context.Cause(ctx).Error())
	case ctx.Err() != nil:
		// Interrupted (pool stopping, Lambda deadline): not the job's fault.
		change = requeue("interrupted: "+context.Cause(ctx).Error(), "interrupted; will run again")
		outcome = fmt.Errorf("job %s interrupted: %w", id, ErrTransient)
	case errors.Is(herr, ErrTransient) && claimed.Attempts < r.max:
		change = requeue(herr.Error(), "will retry")
		outcome = fmt.Errorf("job %s attempt %d: %w", id, claimed.Attempts, herr)
		r.log.Warn("job failed transiently; will retry", "job", id, "kind", job.Kind, "attempt", claimed.Attempts, "err", herr)
	case errors.Is(herr, ErrTransient):
		change = failed(fmt.Sprintf("gave up after %d attempts: %v", claimed.Attempts, herr))
	default:
		change = failed(herr.Error())
	}
	if err := a.update(fctx, change); err != nil {
		if errors.Is(err, ErrSuperseded) || errors.Is(err, ErrNotFound) {
			return a.snapshot(), err
		}
		return a.snapshot(), fmt.Errorf("record outcome of job %s: %w: %w", id, ErrTransient, err)
	}
	return a.snapshot(), outcome
}

// call runs the handler, turning a panic into an error so one bad handler
// cannot take down a worker (a panic in a goroutine the handler starts still
// can: Go offers no way to catch that).
func (r *Runner) call(ctx context.Context, h Handler, job Job, rep Reporter) (result json.RawMessage, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("job handler panicked", "job", job.ID, "kind", job.Kind, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("handler panicked: %v", p)
		}
	}()
	return h(ctx, job.Payload, rep)
}

// Cancel fails a job that is not running (queued, or left by a process
// that died) with reason, so that it never runs; a final job is left as it
// is. Stopping a running one is the adapter's: it cancels the run's context
// with ErrCancelled as the cause.
func (r *Runner) Cancel(ctx context.Context, id, reason string) (Job, error) {
	for range maxWriteTries {
		job, err := Get(ctx, r.table, id)
		if err != nil || job.Status.Final() {
			return job, err
		}
		job, err = r.failUnclaimed(ctx, job, fmt.Sprintf("%s: %s", ErrCancelled.Error(), reason))
		if !errors.Is(err, ErrTransient) {
			return job, err
		}
	}
	return Job{}, fmt.Errorf("cancel job %s: it kept changing: %w", id, ErrTransient)
}

// GiveUpCrashed settles a job found running when no process runs it (the
// one that did died): it goes back to queued, or fails once the process
// has died in it maxCrashes times, so a job that kills the process (out of
// memory) cannot do so at every start. Jobs in any other state are left.
func (r *Runner) GiveUpCrashed(ctx context.Context, job Job, maxCrashes int) (Job, error) {
	if job.Status != StatusRunning {
		return job, nil
	}
	next := job
	next.Crashes++
	next.Updated, next.LeaseUntil = r.now().UTC(), time.Time{}
	if next.Crashes >= maxCrashes {
		failed(fmt.Sprintf("the server stopped %d times while this job ran (killed, or out of memory); it is not run again", next.Crashes))(&next)
	} else {
		requeue("the server stopped while this job ran", "the server stopped; running it again")(&next)
	}
	if err := r.put(ctx, job.Version, &next); err != nil {
		return job, fmt.Errorf("settle crashed job %s: %w", job.ID, err)
	}
	return next, nil
}

// failUnclaimed fails a job no handler ran for.
func (r *Runner) failUnclaimed(ctx context.Context, job Job, msg string) (Job, error) {
	next := job
	failed(msg)(&next)
	next.Updated, next.LeaseUntil = r.now().UTC(), time.Time{}
	if err := r.put(ctx, job.Version, &next); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return job, fmt.Errorf("fail job %s: changed meanwhile: %w", job.ID, ErrTransient)
		}
		return job, fmt.Errorf("fail job %s: %w: %w", job.ID, ErrTransient, err)
	}
	return next, nil
}

// put stores j as the version after base, if base is still current.
func (r *Runner) put(ctx context.Context, base int64, j *Job) error {
	j.Version = base + 1
	item, err := Item(*j)
	if err != nil {
		return err
	}
	return r.table.Put(ctx, item, store.IfVersion(base))
}

func failed(msg string) func(*Job) {
	return func(j *Job) { j.Status, j.Error, j.Message = StatusFailed, msg, "" }
}

func requeue(errMsg, message string) func(*Job) {
	return func(j *Job) { j.Status, j.Error, j.Message = StatusQueued, errMsg, message }
}

// attempt is one claimed run: the Reporter given to the handler and the
// writer of its outcome. Its Attempts number fences it: once the record shows
// another attempt, or no longer shows this one running, it writes nothing.
type attempt struct {
	r  *Runner
	mu sync.Mutex // a handler may report from several goroutines
	// job is the record as this attempt last wrote or read it.
	job Job
}

func (a *attempt) snapshot() Job {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.job
}

// Progress records how far the handler is. Fractions outside 0..1 are
// clamped (rounding in a handler's arithmetic should not fail the job); NaN
// and infinities are ErrInvalid. Messages are cut to MaxMessageLen bytes and
// stripped of control characters, as they are shown to users. Each write also
// renews the lease, so a long job that reports progress is never taken over.
func (a *attempt) Progress(ctx context.Context, fraction float64, message string) error {
	if math.IsNaN(fraction) || math.IsInf(fraction, 0) {
		return fmt.Errorf("progress %v: %w", fraction, ErrInvalid)
	}
	fraction = min(max(fraction, 0), 1)
	message = cleanMessage(message)
	return a.update(ctx, func(j *Job) { j.Progress, j.Message = fraction, message })
}

// update applies change to the record with a conditional put. On a conflict
// it re-reads the record and, if this attempt still owns the job, applies
// change again to the fresh copy.
func (a *attempt) update(ctx context.Context, change func(*Job)) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	id, n := a.job.ID, a.job.Attempts
	for try := 1; ; try++ {
		next := a.job
		change(&next)
		now := a.r.now()
		next.Updated, next.LeaseUntil = now.UTC(), time.Time{}
		if next.Status == StatusRunning {
			next.LeaseUntil = now.Add(a.r.lease).UTC()
		}
		err := a.r.put(ctx, a.job.Version, &next)
		if err == nil {
			a.job = next
			return nil
		}
		if !errors.Is(err, store.ErrConditionFailed) {
			return fmt.Errorf("update job %s: %w", id, err)
		}
		if try == maxWriteTries {
			return fmt.Errorf("update job %s: still conflicting after %d tries: %w", id, try, err)
		}
		fresh, err := Get(ctx, a.r.table, id)
		if err != nil {
			return fmt.Errorf("update job %s: %w", id, err)
		}
		if fresh.Attempts != n || fresh.Status != StatusRunning {
			return fmt.Errorf("job %s attempt %d: record shows attempt %d %s: %w", id, n, fresh.Attempts, fresh.Status, ErrSuperseded)
		}
		a.job = fresh
		select {
		case <-ctx.Done():
			return fmt.Errorf("update job %s: %w", id, ctx.Err())
		case <-time.After(time.Duration(try) * 5 * time.Millisecond):
		}
	}
}

// cleanMessage keeps a progress message printable and short.
func cleanMessage(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) > MaxMessageLen {
		cut := MaxMessageLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// Package localjobs is the jobs.Queue of the local binary: an in-process pool
// of N workers over the embedded table. The queue itself is durable: Enqueue
// writes the job record and a marker item (PK JOBQUEUE, SK <created>#<id>) in
// one transaction, and a marker is deleted only when its job is final. A pool
// that starts therefore finds and runs whatever a previous process left
// queued, or was running when it died: once, as Settle gives up on a job the
// process has died in twice (it may be what killed it).
package localjobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/store"
)

// MarkerPK holds one marker per unfinished job, ordered by SK.
const MarkerPK = "JOBQUEUE"

// markerTime is fixed-width, so SK order is enqueue order.
const markerTime = "20060102T150405.000000000Z"

// Options tune a Pool; zero values take the defaults.
type Options struct {
	// Workers bounds how many handlers run at once. Default 4.
	Workers int
	// RetryDelay is the wait before re-running a job that failed
	// transiently; it doubles with each attempt, up to a minute. Default 2 s.
	RetryDelay time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
	// Log receives errors of the queue itself. Default slog.Default().
	Log *slog.Logger
	// MaxCrashes is how many times the process may die while a job runs
	// before Settle fails it instead of running it again. Default 2: a job
	// killed once is resumed once.
	MaxCrashes int
}

// Pool runs queued jobs with bounded concurrency. It is a jobs.Queue.
type Pool struct {
	table  store.Table
	runner *jobs.Runner
	opts   Options
	// wake nudges the dispatcher after an Enqueue; one pending nudge is enough.
	wake chan struct{}

	mu sync.Mutex
	// running are the runs in progress, by job id; cancelled are jobs
	// Cancel was asked for, which no worker starts any more.
	running    map[string]*run
	cancelled  map[string]bool
	started    bool
	stopped    bool
	stopFeed   context.CancelFunc // ends the dispatcher: no new runs
	cancelRuns context.CancelFunc // cancels running handlers (Stop ran out of time)
	done       chan struct{}      // closed once the dispatcher and every worker have returned
}

var _ jobs.Queue = (*Pool)(nil)

// New builds a pool; nothing runs until Start. The runner should be the only
// one working on table: the pool takes over jobs it finds running (see
// jobs.Runner.TakeOver), which is right because the embedded table belongs to
// one process.
func New(table store.Table, runner *jobs.Runner, opts Options) *Pool {
	if opts.Workers <= 0 {
		opts.Workers = 4
	}
	if opts.RetryDelay <= 0 {
		opts.RetryDelay = 2 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.MaxCrashes <= 0 {
		opts.MaxCrashes = 2
	}
	return &Pool{table: table, runner: runner, opts: opts, wake: make(chan struct{}, 1),
		running: map[string]*run{}, cancelled: map[string]bool{}}
}

// run is one job running in this process.
type run struct {
	cancel context.CancelCauseFunc
	done   chan struct{} // closed when the handler has returned
}

// Settle counts a crash on every job a process that died left running
// (jobs.Runner.GiveUpCrashed: queued again, or failed after MaxCrashes)
// and answers the jobs it left: those still to run and those it gave up
// on. Call it at start, before Start, while this process alone holds the
// table.
func (p *Pool) Settle(ctx context.Context) ([]jobs.Job, error) {
	left, err := p.Pending(ctx)
	if err != nil {
		return nil, err
	}
	for i, job := range left {
		if left[i], err = p.runner.GiveUpCrashed(ctx, job, p.opts.MaxCrashes); err != nil {
			return nil, err
		}
		if left[i].Status == jobs.StatusFailed {
			p.opts.Log.Error("gave up on a job the server stopped in", "job", job.ID, "kind", job.Kind, "crashes", left[i].Crashes)
		}
	}
	return left, nil
}

// Cancel stops a job for good: a running one's context is cancelled with
// jobs.ErrCancelled and Cancel waits for its handler to return (or ctx to
// end); a queued one fails without running. reason is kept on the record.
func (p *Pool) Cancel(ctx context.Context, id, reason string) (jobs.Job, error) {
	p.mu.Lock()
	p.cancelled[id] = true
	r := p.running[id]
	p.mu.Unlock()
	if r != nil {
		r.cancel(fmt.Errorf("%w: %s", jobs.ErrCancelled, reason))
		select {
		case <-r.done:
		case <-ctx.Done():
			return jobs.Job{}, fmt.Errorf("cancel job %s: still running: %w", id, ctx.Err())
		}
	}
	return p.runner.Cancel(ctx, id, reason)
}

// Enqueue stores a queued job and its marker in one transaction, so a job is
// never recorded without being queued, then wakes the dispatcher. It works
// before Start and after Stop too: the job waits for the next running pool.
func (p *Pool) Enqueue(ctx context.Context, kind string, payload json.RawMessage) (jobs.Job, error) {
	job, err := jobs.New(kind, payload, p.opts.Now())
	if err != nil {
		return jobs.Job{}, fmt.Errorf("enqueue: %w", err)
	}
	item, err := jobs.Item(job)
	if err != nil {
		return jobs.Job{}, fmt.Errorf("enqueue: %w", err)
	}
	marker, err := json.Marshal(markerData{JobID: job.ID})
	if err != nil {
		return jobs.Job{}, fmt.Errorf("enqueue: %w", err)
	}
	err = p.table.Transact(ctx, []store.Write{
		{Op: store.OpPut, Item: item, Cond: store.IfAbsent()},
		{Op: store.OpPut, Item: store.Item{PK: MarkerPK, SK: markerSK(job), Version: 1, Data: marker}, Cond: store.IfAbsent()},
	})
	if err != nil {
		return jobs.Job{}, fmt.Errorf("enqueue %s job: %w", kind, err)
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return job, nil
}

// Pending lists the jobs still to run: queued, or running when a process
// stopped (the pool takes those over when it starts).
func (p *Pool) Pending(ctx context.Context) ([]jobs.Job, error) {
	var out []jobs.Job
	q := store.Query{PK: MarkerPK}
	for {
		page, err := p.table.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("list job markers: %w", err)
		}
		for _, it := range page.Items {
			_, id, ok := strings.Cut(it.SK, "#")
			if !ok {
				continue
			}
			job, err := jobs.Get(ctx, p.table, id)
			if errors.Is(err, jobs.ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if !job.Status.Final() {
				out = append(out, job)
			}
		}
		if page.Next == "" {
			return out, nil
		}
		q.Cursor = page.Next
	}
}

// Get reads a job record.
func (p *Pool) Get(ctx context.Context, id string) (jobs.Job, error) {
	return jobs.Get(ctx, p.table, id)
}

type markerData struct {
	JobID string `json:"job_id"`
}

func markerSK(job jobs.Job) string {
	return job.Created.UTC().Format(markerTime) + "#" + job.ID
}

// Start launches the dispatcher and the workers, which first pick up every
// marker left in the table. ctx bounds nothing after Start returns: the pool
// runs until Stop, so that a cancelled parent context cannot cut handlers
// short without Stop's grace period. A pool starts once.
func (p *Pool) Start(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started {
		return errors.New("localjobs: pool already started")
	}
	p.started = true
	base := context.WithoutCancel(ctx)
	feedCtx, stopFeed := context.WithCancel(base)
	runCtx, cancelRuns := context.WithCancel(base)
	p.stopFeed, p.cancelRuns, p.done = stopFeed, cancelRuns, make(chan struct{})

	work := make(chan task)
	// Each worker has at most one result outstanding once the dispatcher
	// has gone, so this buffer lets workers finish without a reader.
	results := make(chan outcome, p.opts.Workers)
	var wg sync.WaitGroup
	for range p.opts.Workers {
		wg.Go(func() {
			for t := range work {
				results <- p.runOne(runCtx, t)
			}
		})
	}
	wg.Go(func() { p.dispatch(feedCtx, work, results) })
	go func() {
		wg.Wait()
		close(p.done)
	}()
	return nil
}

// Stop stops handing out jobs and waits for running handlers to return. If
// ctx ends first it cancels their contexts (the runner puts interrupted jobs
// back to queued, and their markers stay for the next start) and returns
// ctx's error without waiting further: a handler that ignores its context may
// still be running then.
func (p *Pool) Stop(ctx context.Context) error {
	p.mu.Lock()
	if !p.started || p.stopped {
		p.mu.Unlock()
		return nil
	}
	p.stopped = true
	p.mu.Unlock()

	p.stopFeed()
	select {
	case <-p.done:
		p.cancelRuns()
		return nil
	case <-ctx.Done():
		p.cancelRuns()
		return fmt.Errorf("localjobs: stop: %w", ctx.Err())
	}
}

// task is one job handed to a worker.
type task struct {
	id       string
	markerSK string
}

// outcome is a worker's report: retryAt is zero unless the job is to run again.
type outcome struct {
	id      string
	retryAt time.Time
}

// dispatch is the only goroutine that decides what runs: it lists markers
// oldest first and hands each to a free worker, never one already running
// and never one waiting out its retry delay.
func (p *Pool) dispatch(ctx context.Context, work chan<- task, results <-chan outcome) {
	defer close(work)
	running := map[string]bool{}
	retryAt := map[string]time.Time{}
	var pending []task
	needScan := true
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		if needScan && len(pending) == 0 {
			var next time.Time
			var err error
			pending, next, err = p.scan(ctx, running, retryAt)
			needScan = false
			switch {
			case err != nil && ctx.Err() == nil:
				p.opts.Log.Error("job queue scan failed; retrying", "err", err)
				timer.Reset(time.Second)
			case !next.IsZero():
				timer.Reset(max(next.Sub(p.opts.Now()), time.Millisecond))
			}
		}
		var out chan<- task // nil (never ready) when there is nothing to hand out
		var head task
		if len(pending) > 0 {
			out, head = work, pending[0]
		}
		select {
		case out <- head:
			running[head.id] = true
			delete(retryAt, head.id)
			pending = pending[1:]
		case r := <-results:
			delete(running, r.id)
			if !r.retryAt.IsZero() {
				retryAt[r.id] = r.retryAt
			}
			needScan = true
		case <-p.wake:
			needScan = true
		case <-timer.C:
			needScan = true
		case <-ctx.Done():
			return
		}
	}
}

// scan lists markers that can run now, oldest first, and when the next
// delayed one becomes due.
func (p *Pool) scan(ctx context.Context, running map[string]bool, retryAt map[string]time.Time) ([]task, time.Time, error) {
	now := p.opts.Now()
	var ready []task
	var next time.Time
	q := store.Query{PK: MarkerPK}
	for {
		page, err := p.table.Query(ctx, q)
		if err != nil {
			return nil, time.Time{}, fmt.Errorf("list job markers: %w", err)
		}
		for _, it := range page.Items {
			_, id, ok := strings.Cut(it.SK, "#")
			if !ok || id == "" {
				p.opts.Log.Error("dropping malformed job marker", "sk", it.SK)
				_ = p.table.Delete(ctx, MarkerPK, it.SK, store.Condition{})
				continue
			}
			if running[id] {
				continue
			}
			if at, ok := retryAt[id]; ok && now.Before(at) {
				if next.IsZero() || at.Before(next) {
					next = at
				}
				continue
			}
			ready = append(ready, task{id: id, markerSK: it.SK})
		}
		if page.Next == "" {
			return ready, next, nil
		}
		q.Cursor = page.Next
	}
}

// runOne runs a job and removes its marker unless it is to run again.
func (p *Pool) runOne(ctx context.Context, t task) outcome {
	job, err := p.takeOver(ctx, t.id)
	if errors.Is(err, jobs.ErrTransient) {
		delay := p.opts.RetryDelay << min(max(job.Attempts-1, 0), 5)
		return outcome{id: t.id, retryAt: p.opts.Now().Add(min(delay, time.Minute))}
	}
	if err != nil && !errors.Is(err, jobs.ErrNotFound) && !errors.Is(err, jobs.ErrSuperseded) {
		// Not retryable (e.g. a malformed id): keeping the marker would loop.
		p.opts.Log.Error("dropping job that cannot run", "job", t.id, "err", err)
	}
	// The marker goes even if the run was cut short by Stop's deadline with a
	// final outcome recorded; a detached context keeps that delete possible.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if derr := p.table.Delete(dctx, MarkerPK, t.markerSK, store.Condition{}); derr != nil {
		// The marker stays; running the finished job again is a no-op that
		// retries this delete.
		p.opts.Log.Error("delete job marker", "job", t.id, "err", derr)
		return outcome{id: t.id, retryAt: p.opts.Now().Add(p.opts.RetryDelay)}
	}
	return outcome{id: t.id}
}

// takeOver runs the job where Cancel can stop it; a job Cancel was asked
// for is failed instead of started.
func (p *Pool) takeOver(ctx context.Context, id string) (jobs.Job, error) {
	p.mu.Lock()
	if p.cancelled[id] {
		p.mu.Unlock()
		return p.runner.Cancel(ctx, id, "cancelled before it ran")
	}
	runCtx, stop := context.WithCancelCause(ctx)
	r := &run{cancel: stop, done: make(chan struct{})}
	p.running[id] = r
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.running, id)
		p.mu.Unlock()
		stop(nil)
		close(r.done)
	}()
	return p.runner.TakeOver(runCtx, id)
}

package localjobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/jobs/jobstest"
	"github.com/lectern/lectern/shared/jobs/localjobs"
	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/store/bolt"
)

func openTable(t *testing.T, path string) *bolt.Table {
	t.Helper()
	tb, err := bolt.Open(path)
	if err != nil {
		t.Fatalf("open bolt table: %v", err)
	}
	return tb
}

// tempTable is a table closed at the end of the test.
func tempTable(t *testing.T) *bolt.Table {
	tb := openTable(t, filepath.Join(t.TempDir(), "lectern.db"))
	t.Cleanup(func() { tb.Close() })
	return tb
}

// startPool starts a pool and stops it (before the table closes) at the end.
func startPool(t *testing.T, table store.Table, reg *jobs.Registry, opts localjobs.Options) *localjobs.Pool {
	t.Helper()
	pool := localjobs.New(table, jobs.NewRunner(table, reg, jobs.RunnerOptions{}), opts)
	if err := pool.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := pool.Stop(ctx); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return pool
}

func mustEnqueue(t *testing.T, q jobs.Queue, kind, payload string) jobs.Job {
	t.Helper()
	var p json.RawMessage
	if payload != "" {
		p = json.RawMessage(payload)
	}
	job, err := q.Enqueue(context.Background(), kind, p)
	if err != nil {
		t.Fatalf("enqueue %s: %v", kind, err)
	}
	return job
}

// slowBound bounds a wait for the pool's background work: a failure bound
// for -race on a 2-core machine shared with other test runs, never the wait.
const slowBound = 2 * time.Minute

// waitFor polls the job until ok says yes, failing after slowBound.
func waitFor(t *testing.T, q jobs.Queue, id string, what string, ok func(jobs.Job) bool) jobs.Job {
	t.Helper()
	deadline := time.Now().Add(slowBound)
	for {
		job, err := q.Get(context.Background(), id)
		if err == nil && ok(job) {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s never became %s; last %+v (err %v)", id, what, job, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func final(j jobs.Job) bool { return j.Status.Final() }

func markers(t *testing.T, table store.Table) int {
	t.Helper()
	page, err := table.Query(context.Background(), store.Query{PK: localjobs.MarkerPK})
	if err != nil {
		t.Fatalf("query markers: %v", err)
	}
	return len(page.Items)
}

// waitNoMarkers waits for the queue to drain: a marker is deleted just after
// its job's final record is written.
func waitNoMarkers(t *testing.T, table store.Table) {
	t.Helper()
	deadline := time.Now().Add(slowBound)
	for n := markers(t, table); n != 0; n = markers(t, table) {
		if time.Now().After(deadline) {
			t.Fatalf("%d queue markers left after every job finished", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestContract(t *testing.T) {
	t.Run("local-pool", func(t *testing.T) {
		jobstest.Run(t, jobstest.Harness{New: newContractPool})
	})
}

// newContractPool is a pool over a fresh bbolt table. It starts on the first
// Work call, so that nothing runs before (as the contract asks); Work then
// waits for the pool to drain: a marker goes only once its job is final.
func newContractPool(t *testing.T, reg *jobs.Registry) jobstest.Fixture {
	table := tempTable(t)
	log := slog.New(slog.NewTextHandler(t.Output(), nil))
	pool := localjobs.New(table, jobs.NewRunner(table, reg, jobs.RunnerOptions{Log: log}), localjobs.Options{
		Workers:    2,
		RetryDelay: 10 * time.Millisecond, // the transient retry runs at once
		Log:        log,
	})
	// Registered after the table's, so the pool stops before the table closes.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := pool.Stop(ctx); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	var start sync.Once
	var startErr error
	work := func(ctx context.Context) error {
		start.Do(func() { startErr = pool.Start(context.Background()) })
		if startErr != nil {
			return fmt.Errorf("start pool: %w", startErr)
		}
		for {
			page, err := table.Query(ctx, store.Query{PK: localjobs.MarkerPK})
			if err != nil {
				return fmt.Errorf("list markers: %w", err)
			}
			if len(page.Items) == 0 {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%d jobs still queued: %w", len(page.Items), ctx.Err())
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	return jobstest.Fixture{Queue: pool, Work: work}
}

func TestConcurrencyNeverExceedsWorkers(t *testing.T) {
	const workers, total = 3, 15
	table := tempTable(t)
	reg := jobs.NewRegistry()
	var running, peak atomic.Int32
	// The first job waits until a second runs beside it (a pool that runs one
	// at a time fails after slowBound): on a loaded machine, 50 ms of work
	// alone need not overlap the next job's claim.
	two := make(chan struct{})
	var twoOnce sync.Once
	if err := reg.Register("work", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		if n >= 2 {
			twoOnce.Do(func() { close(two) })
		}
		select {
		case <-two:
		case <-time.After(slowBound):
			twoOnce.Do(func() { close(two) }) // the rest need not wait again
		}
		time.Sleep(50 * time.Millisecond) // work, during which a job over the limit would show
		return nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	// Queue everything first, so slow disk syncs between enqueues cannot
	// keep the workers from overlapping.
	pool := localjobs.New(table, jobs.NewRunner(table, reg, jobs.RunnerOptions{}), localjobs.Options{Workers: workers})
	var ids []string
	for range total {
		ids = append(ids, mustEnqueue(t, pool, "work", "").ID)
	}
	if err := pool.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pool.Stop(context.Background()) })
	for _, id := range ids {
		if j := waitFor(t, pool, id, "final", final); j.Status != jobs.StatusSucceeded {
			t.Errorf("job %s: %s %q", id, j.Status, j.Error)
		}
	}
	if p := peak.Load(); p > workers {
		t.Errorf("peak concurrency %d exceeds %d workers", p, workers)
	} else if p < 2 {
		t.Errorf("peak concurrency %d: the pool never ran jobs in parallel", p)
	}
	waitNoMarkers(t, table)
}

func TestNewPoolRunsJobsLeftByPreviousOne(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "lectern.db")
	reg := jobs.NewRegistry()
	var ran atomic.Int32
	_ = reg.Register("left", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		ran.Add(1)
		return nil, nil
	})

	// A previous process queues jobs and is closed before running them; one
	// more was running (claimed, lease still valid) when that process died.
	first := openTable(t, path)
	old := localjobs.New(first, jobs.NewRunner(first, reg, jobs.RunnerOptions{}), localjobs.Options{})
	var ids []string
	for range 3 {
		ids = append(ids, mustEnqueue(t, old, "left", "").ID)
	}
	crashed, err := old.Get(ctx, ids[2])
	if err != nil {
		t.Fatal(err)
	}
	crashed.Status, crashed.Attempts, crashed.LeaseUntil = jobs.StatusRunning, 1, time.Now().Add(time.Hour)
	crashed.Version++
	item, _ := jobs.Item(crashed)
	if err := first.Put(ctx, item, store.IfVersion(crashed.Version-1)); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	second := openTable(t, path)
	t.Cleanup(func() { second.Close() })
	pool := startPool(t, second, reg, localjobs.Options{Workers: 2})
	for _, id := range ids {
		if j := waitFor(t, pool, id, "final", final); j.Status != jobs.StatusSucceeded {
			t.Errorf("left-over job %s: %s %q", id, j.Status, j.Error)
		}
	}
	if j, _ := pool.Get(ctx, ids[2]); j.Attempts != 2 {
		t.Errorf("crashed job attempts = %d, want 2 (the dead run and the new one)", j.Attempts)
	}
	if n := ran.Load(); n != 3 {
		t.Errorf("handler ran %d times, want 3", n)
	}
	waitNoMarkers(t, second)
}

func TestStopWaitsForRunningHandlers(t *testing.T) {
	table := tempTable(t)
	reg := jobs.NewRegistry()
	started, release := make(chan struct{}), make(chan struct{})
	_ = reg.Register("slow", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		close(started)
		<-release
		return nil, nil
	})
	pool := localjobs.New(table, jobs.NewRunner(table, reg, jobs.RunnerOptions{}), localjobs.Options{})
	if err := pool.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	job := mustEnqueue(t, pool, "slow", "")
	<-started

	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		stopped <- pool.Stop(ctx)
	}()
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned (%v) while a handler was running", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatalf("stop: %v", err)
	}
	if j, _ := pool.Get(context.Background(), job.ID); j.Status != jobs.StatusSucceeded {
		t.Errorf("job after Stop: %s", j.Status)
	}
}

func TestStopDeadlineInterruptsAndNextStartResumes(t *testing.T) {
	table := tempTable(t)
	reg := jobs.NewRegistry()
	started := make(chan struct{}, 1)
	var finish atomic.Bool
	_ = reg.Register("long", func(ctx context.Context, _ json.RawMessage, _ jobs.Reporter) (json.RawMessage, error) {
		if finish.Load() {
			return nil, nil
		}
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	pool := localjobs.New(table, jobs.NewRunner(table, reg, jobs.RunnerOptions{}), localjobs.Options{})
	if err := pool.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	job := mustEnqueue(t, pool, "long", "")
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := pool.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("stop: %v, want deadline exceeded", err)
	}
	j := waitFor(t, pool, job.ID, "queued again", func(j jobs.Job) bool { return j.Status == jobs.StatusQueued })
	if !strings.Contains(j.Error, "interrupted") {
		t.Errorf("interrupted job error %q", j.Error)
	}
	if n := markers(t, table); n != 1 {
		t.Fatalf("%d markers after an interrupted stop, want 1", n)
	}

	finish.Store(true)
	next := startPool(t, table, reg, localjobs.Options{})
	if j := waitFor(t, next, job.ID, "final", final); j.Status != jobs.StatusSucceeded || j.Attempts != 2 {
		t.Errorf("resumed job: %s after %d attempts", j.Status, j.Attempts)
	}
}

// The contract checks that refused enqueues answer ErrInvalid; this checks
// the pool's own bookkeeping: no marker is left for a job that was never stored.
func TestRefusedEnqueueLeavesNoMarker(t *testing.T) {
	table := tempTable(t)
	pool := localjobs.New(table, jobs.NewRunner(table, jobs.NewRegistry(), jobs.RunnerOptions{}), localjobs.Options{})
	for _, tc := range []struct{ kind, payload string }{{"", ""}, {"k", "{oops"}, {"a/b", ""}} {
		if _, err := pool.Enqueue(context.Background(), tc.kind, json.RawMessage(tc.payload)); !errors.Is(err, jobs.ErrInvalid) {
			t.Fatalf("Enqueue(%q, %q) = %v, want ErrInvalid", tc.kind, tc.payload, err)
		}
	}
	if n := markers(t, table); n != 0 {
		t.Errorf("refused enqueues left %d markers", n)
	}
}

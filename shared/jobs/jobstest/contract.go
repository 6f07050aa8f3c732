// Package jobstest is the jobs.Queue contract: one suite of behaviours that
// every adapter (the local pool, SQS plus the worker handler) must pass, run
// by each adapter's tests against a real backend, so features can rely on the
// same job life in both modes.
package jobstest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/jobs"
)

// Harness adapts one adapter to the suite.
type Harness struct {
	// New returns a fresh adapter over a fresh table whose workers run the
	// handlers in reg, and registers its teardown with t.Cleanup. Cases run
	// in parallel, so New must be safe to call concurrently.
	New func(t *testing.T, reg *jobs.Registry) Fixture
}

// Fixture is one adapter under test.
type Fixture struct {
	Queue jobs.Queue
	// Work makes the adapter's workers run what has been enqueued, and
	// returns once the adapter has nothing left to do: every job is final
	// and nothing waits for a retry. Nothing enqueued may run before the
	// first call (as no Lambda runs before the poller delivers). Jobs that
	// fail transiently are run again within the call, as the adapter would
	// in production. Work is called from a goroutine of its own by some
	// cases, so it reports trouble as an error rather than through t. It
	// must give up when ctx ends.
	Work func(ctx context.Context) error
}

// workTimeout bounds one Work call; every case finishes far sooner. It only
// bounds a failure: the contract runs under -race on 2-core machines shared
// with other test runs, against DynamoDB Local and ElasticMQ (JVMs), where a
// second's work can take a minute.
const workTimeout = 2 * time.Minute

// Run runs every contract case as a parallel subtest, each on a fresh adapter.
func Run(t *testing.T, h Harness) {
	cases := []struct {
		name string
		run  func(t *testing.T, h Harness)
	}{
		{"enqueue stores a queued record that get returns", enqueueStoresQueuedRecord},
		{"a job runs and ends succeeded with its result", jobSucceedsWithResult},
		{"progress reported by a handler is visible while it runs", progressVisibleWhileRunning},
		{"a handler error fails the job with its message and is not retried", handlerErrorFailsJob},
		{"a panicking handler fails its job and the next jobs still run", panicFailsJobAndWorkGoesOn},
		{"an unknown kind fails the job without running anything", unknownKindFailsJob},
		{"a transient error is retried and the job then succeeds", transientIsRetried},
		{"several jobs enqueued at once all finish with their own results", severalJobsAllFinish},
		{"get of an unknown or malformed id answers ErrNotFound", getUnknownIsNotFound},
		{"enqueue refuses an invalid kind or payload and nothing runs", enqueueRefusesInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, h)
		})
	}
}

func enqueueStoresQueuedRecord(t *testing.T, h Harness) {
	reg := jobs.NewRegistry()
	register(t, reg, "magazine.describe", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		return nil, nil
	})
	f := h.New(t, reg)
	before := time.Now().Add(-time.Second)
	payload := `{"issue":"i1","page":3}`
	job := enqueue(t, f.Queue, "magazine.describe", payload)
	if err := jobs.ValidateID(job.ID); err != nil {
		t.Errorf("Enqueue returned id %q: %v", job.ID, err)
	}
	if job.Kind != "magazine.describe" || job.Status != jobs.StatusQueued || string(job.Payload) != payload ||
		job.Attempts != 0 || job.Progress != 0 || job.Created.Before(before) {
		t.Errorf("Enqueue returned %+v, want a fresh queued magazine.describe job with payload %s", job, payload)
	}

	got := get(t, f.Queue, job.ID)
	if got.ID != job.ID || got.Kind != job.Kind || got.Status != jobs.StatusQueued || string(got.Payload) != payload ||
		got.Attempts != 0 || got.Result != nil || got.Error != "" || !got.Created.Equal(job.Created) ||
		!got.LeaseUntil.IsZero() || got.Version != job.Version {
		t.Errorf("Get = %+v, want the queued record Enqueue returned (%+v)", got, job)
	}

	if other := enqueue(t, f.Queue, "magazine.describe", ""); other.ID == job.ID {
		t.Errorf("two enqueues got the same id %s", job.ID)
	}
}

func jobSucceedsWithResult(t *testing.T, h Harness) {
	reg := jobs.NewRegistry()
	register(t, reg, "echo", func(_ context.Context, payload json.RawMessage, _ jobs.Reporter) (json.RawMessage, error) {
		return json.RawMessage(`{"echo":` + string(payload) + `}`), nil
	})
	f := h.New(t, reg)
	job := enqueue(t, f.Queue, "echo", `{"x":1}`)
	work(t, f)

	got := get(t, f.Queue, job.ID)
	if got.Status != jobs.StatusSucceeded || got.Progress != 1 || got.Attempts != 1 || got.Error != "" {
		t.Errorf("finished job = %+v, want succeeded at progress 1 after 1 attempt", got)
	}
	if want := `{"echo":{"x":1}}`; string(got.Result) != want {
		t.Errorf("result = %s, want %s", got.Result, want)
	}
	if string(got.Payload) != `{"x":1}` || !got.LeaseUntil.IsZero() || got.Updated.Before(got.Created) {
		t.Errorf("finished record = %+v: payload kept, no lease, updated after created", got)
	}
}

func progressVisibleWhileRunning(t *testing.T, h Harness) {
	reg := jobs.NewRegistry()
	release := make(chan struct{})
	register(t, reg, "steps", func(ctx context.Context, _ json.RawMessage, rep jobs.Reporter) (json.RawMessage, error) {
		if err := rep.Progress(ctx, 0.4, "page 2 of 5"); err != nil {
			return nil, err
		}
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if err := rep.Progress(ctx, 0.8, "page 4 of 5"); err != nil {
			return nil, err
		}
		return json.RawMessage(`{"pages":5}`), nil
	})
	f := h.New(t, reg)
	job := enqueue(t, f.Queue, "steps", "")

	ctx, cancel := context.WithTimeout(context.Background(), workTimeout)
	defer cancel()
	var workErr error
	worked := make(chan struct{})
	go func() {
		defer close(worked)
		workErr = f.Work(ctx)
	}()
	var releaseOnce sync.Once
	unblock := func() { releaseOnce.Do(func() { close(release) }) }
	// On an early failure too: unblock the handler and let Work return
	// before the adapter is torn down.
	defer func() {
		unblock()
		<-worked
	}()

	mid := waitFor(t, f.Queue, job.ID, "at progress 0.4", func(j jobs.Job) bool { return j.Progress == 0.4 })
	if mid.Status != jobs.StatusRunning || mid.Message != "page 2 of 5" || mid.Attempts != 1 {
		t.Errorf("while running: %+v, want running, \"page 2 of 5\", attempt 1", mid)
	}
	unblock()
	<-worked
	if workErr != nil {
		t.Fatalf("work: %v", workErr)
	}

	done := get(t, f.Queue, job.ID)
	if done.Status != jobs.StatusSucceeded || done.Progress != 1 || string(done.Result) != `{"pages":5}` {
		t.Errorf("finished: %+v, want succeeded at progress 1 with {\"pages\":5}", done)
	}
}

func handlerErrorFailsJob(t *testing.T, h Harness) {
	reg := jobs.NewRegistry()
	var calls atomic.Int32
	register(t, reg, "characters.portrait", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		calls.Add(1)
		return nil, errors.New("character has no description to draw from")
	})
	f := h.New(t, reg)
	job := enqueue(t, f.Queue, "characters.portrait", "")
	work(t, f)

	got := get(t, f.Queue, job.ID)
	if got.Status != jobs.StatusFailed || got.Error != "character has no description to draw from" || got.Result != nil {
		t.Errorf("failed job = %s %q result %s, want failed with the handler's message", got.Status, got.Error, got.Result)
	}
	if got.Attempts != 1 || calls.Load() != 1 {
		t.Errorf("attempts %d, handler calls %d: an ordinary error must not be retried", got.Attempts, calls.Load())
	}
}

func panicFailsJobAndWorkGoesOn(t *testing.T, h Harness) {
	reg := jobs.NewRegistry()
	register(t, reg, "boom", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		panic("nil map write")
	})
	register(t, reg, "fine", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		return json.RawMessage(`"done"`), nil
	})
	f := h.New(t, reg)
	bad := enqueue(t, f.Queue, "boom", "")
	next := enqueue(t, f.Queue, "fine", "")
	work(t, f)

	if j := get(t, f.Queue, bad.ID); j.Status != jobs.StatusFailed || j.Error != "handler panicked: nil map write" || j.Attempts != 1 {
		t.Errorf("panicking job: %s %q after %d attempts, want failed \"handler panicked: nil map write\" after 1", j.Status, j.Error, j.Attempts)
	}
	if j := get(t, f.Queue, next.ID); j.Status != jobs.StatusSucceeded {
		t.Errorf("job queued behind the panic: %s %q", j.Status, j.Error)
	}
	// The workers are still in service for work that comes later.
	later := enqueue(t, f.Queue, "fine", "")
	work(t, f)
	if j := get(t, f.Queue, later.ID); j.Status != jobs.StatusSucceeded {
		t.Errorf("job enqueued after the panic: %s %q", j.Status, j.Error)
	}
}

func unknownKindFailsJob(t *testing.T, h Harness) {
	reg := jobs.NewRegistry()
	register(t, reg, "fine", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		return nil, nil
	})
	f := h.New(t, reg)
	stray := enqueue(t, f.Queue, "retired.kind", "")
	next := enqueue(t, f.Queue, "fine", "")
	work(t, f)

	if j := get(t, f.Queue, stray.ID); j.Status != jobs.StatusFailed || j.Error != `unknown job kind "retired.kind"` || j.Attempts != 0 {
		t.Errorf("unknown kind: %s %q after %d attempts, want failed `unknown job kind \"retired.kind\"` after 0", j.Status, j.Error, j.Attempts)
	}
	if j := get(t, f.Queue, next.ID); j.Status != jobs.StatusSucceeded {
		t.Errorf("next job: %s %q", j.Status, j.Error)
	}
}

func transientIsRetried(t *testing.T, h Harness) {
	reg := jobs.NewRegistry()
	var calls atomic.Int32
	register(t, reg, "flaky", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		if calls.Add(1) == 1 {
			return nil, jobs.Transient(errors.New("engine busy"))
		}
		return json.RawMessage(`"ok"`), nil
	})
	f := h.New(t, reg)
	job := enqueue(t, f.Queue, "flaky", "")
	work(t, f)

	got := get(t, f.Queue, job.ID)
	if got.Status != jobs.StatusSucceeded || got.Attempts != 2 || got.Error != "" || string(got.Result) != `"ok"` {
		t.Errorf("flaky job = %+v, want succeeded with \"ok\" after 2 attempts, error cleared", got)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("handler ran %d times, want 2", n)
	}
}

func severalJobsAllFinish(t *testing.T, h Harness) {
	const total = 12
	reg := jobs.NewRegistry()
	var mu sync.Mutex
	seen := map[int]int{}
	register(t, reg, "square", func(_ context.Context, payload json.RawMessage, _ jobs.Reporter) (json.RawMessage, error) {
		var in struct{ N int }
		if err := json.Unmarshal(payload, &in); err != nil {
			return nil, err
		}
		mu.Lock()
		seen[in.N]++
		mu.Unlock()
		return json.RawMessage(fmt.Sprintf(`{"square":%d}`, in.N*in.N)), nil
	})
	f := h.New(t, reg)
	ids := make([]string, total)
	for i := range total {
		ids[i] = enqueue(t, f.Queue, "square", fmt.Sprintf(`{"n":%d}`, i)).ID
	}
	work(t, f)

	for i, id := range ids {
		j := get(t, f.Queue, id)
		if want := fmt.Sprintf(`{"square":%d}`, i*i); j.Status != jobs.StatusSucceeded || string(j.Result) != want {
			t.Errorf("job %d: %s %q result %s, want succeeded with %s", i, j.Status, j.Error, j.Result, want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i := range total {
		if seen[i] != 1 {
			t.Errorf("job %d ran %d times, want once", i, seen[i])
		}
	}
}

func getUnknownIsNotFound(t *testing.T, h Harness) {
	f := h.New(t, jobs.NewRegistry())
	for _, id := range []string{jobs.NewID(), "../etc", ""} {
		if _, err := f.Queue.Get(context.Background(), id); !errors.Is(err, jobs.ErrNotFound) {
			t.Errorf("Get(%q) = %v, want ErrNotFound", id, err)
		}
	}
}

func enqueueRefusesInvalid(t *testing.T, h Harness) {
	reg := jobs.NewRegistry()
	var calls atomic.Int32
	register(t, reg, "k", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		calls.Add(1)
		return nil, nil
	})
	f := h.New(t, reg)
	for name, tc := range map[string]struct{ kind, payload string }{
		"empty kind":           {"", ""},
		"upper-case kind":      {"Magazine", ""},
		"kind with a slash":    {"a/b", ""},
		"kind far too long":    {strings.Repeat("k", 65), ""},
		"payload that is text": {"k", "{oops"},
	} {
		job, err := f.Queue.Enqueue(context.Background(), tc.kind, json.RawMessage(tc.payload))
		if !errors.Is(err, jobs.ErrInvalid) {
			t.Errorf("%s: Enqueue = %+v, %v; want ErrInvalid", name, job, err)
		}
	}
	work(t, f)
	if n := calls.Load(); n != 0 {
		t.Errorf("a refused enqueue still reached a worker: handler ran %d times", n)
	}
}

// register adds a handler, failing the test on a wiring error.
func register(t *testing.T, reg *jobs.Registry, kind string, h jobs.Handler) {
	t.Helper()
	if err := reg.Register(kind, h); err != nil {
		t.Fatalf("register %s: %v", kind, err)
	}
}

func enqueue(t *testing.T, q jobs.Queue, kind, payload string) jobs.Job {
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

func get(t *testing.T, q jobs.Queue, id string) jobs.Job {
	t.Helper()
	job, err := q.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("get job %s: %v", id, err)
	}
	return job
}

// work runs the fixture's workers until the adapter is idle.
func work(t *testing.T, f Fixture) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), workTimeout)
	defer cancel()
	if err := f.Work(ctx); err != nil {
		t.Fatalf("work: %v", err)
	}
}

// waitFor polls the job until ok says yes, failing after workTimeout.
func waitFor(t *testing.T, q jobs.Queue, id, what string, ok func(jobs.Job) bool) jobs.Job {
	t.Helper()
	deadline := time.Now().Add(workTimeout)
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

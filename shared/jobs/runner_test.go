package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/store/bolt"
)

func openTable(t *testing.T) store.Table {
	t.Helper()
	tb, err := bolt.Open(filepath.Join(t.TempDir(), "jobs.db"))
	if err != nil {
		t.Fatalf("open bolt table: %v", err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

// enqueue stores a queued job the way adapters do.
func enqueue(t *testing.T, table store.Table, kind, payload string) jobs.Job {
	t.Helper()
	var p json.RawMessage
	if payload != "" {
		p = json.RawMessage(payload)
	}
	job, err := jobs.New(kind, p, time.Now())
	if err != nil {
		t.Fatalf("new job: %v", err)
	}
	item, err := jobs.Item(job)
	if err != nil {
		t.Fatal(err)
	}
	if err := table.Put(context.Background(), item, store.IfAbsent()); err != nil {
		t.Fatalf("put job: %v", err)
	}
	return job
}

func get(t *testing.T, table store.Table, id string) jobs.Job {
	t.Helper()
	job, err := jobs.Get(context.Background(), table, id)
	if err != nil {
		t.Fatalf("get job %s: %v", id, err)
	}
	return job
}

func register(t *testing.T, reg *jobs.Registry, kind string, h jobs.Handler) {
	t.Helper()
	if err := reg.Register(kind, h); err != nil {
		t.Fatalf("register %s: %v", kind, err)
	}
}

func TestRunSucceedsAndRecordsProgress(t *testing.T) {
	ctx := context.Background()
	table := openTable(t)
	reg := jobs.NewRegistry()
	job := enqueue(t, table, "echo", `{"x":1}`)
	var midway jobs.Job
	register(t, reg, "echo", func(ctx context.Context, payload json.RawMessage, rep jobs.Reporter) (json.RawMessage, error) {
		if err := rep.Progress(ctx, 0.5, "half way"); err != nil {
			return nil, err
		}
		var err error
		if midway, err = jobs.Get(ctx, table, job.ID); err != nil {
			return nil, err
		}
		return json.RawMessage(`{"echo":` + string(payload) + `}`), nil
	})

	got, err := jobs.NewRunner(table, reg, jobs.RunnerOptions{}).Run(ctx, job.ID)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if midway.Status != jobs.StatusRunning || midway.Progress != 0.5 || midway.Message != "half way" || midway.Attempts != 1 {
		t.Errorf("record during run = %+v, want running at 0.5 \"half way\", attempt 1", midway)
	}
	stored := get(t, table, job.ID)
	if stored.Status != jobs.StatusSucceeded || stored.Progress != 1 || stored.Error != "" || !stored.LeaseUntil.IsZero() {
		t.Errorf("stored = %+v, want succeeded at 1 without lease", stored)
	}
	if want := `{"echo":{"x":1}}`; string(stored.Result) != want {
		t.Errorf("result = %s, want %s", stored.Result, want)
	}
	if got.Status != stored.Status || got.Version != stored.Version {
		t.Errorf("Run returned %+v, table has %+v", got, stored)
	}
}

func TestProgressIsClampedAndValidated(t *testing.T) {
	cases := []struct {
		name     string
		fraction float64
		message  string
		want     float64
		wantMsg  string
		wantErr  error
	}{
		{"within range is kept", 0.25, "a quarter", 0.25, "a quarter", nil},
		{"above one is clamped", 1.5, "over", 1, "over", nil},
		{"below zero is clamped", -0.2, "under", 0, "under", nil},
		{"NaN is refused", math.NaN(), "x", 0, "", jobs.ErrInvalid},
		{"infinity is refused", math.Inf(1), "x", 0, "", jobs.ErrInvalid},
		{"control characters become spaces", 0.1, "page\t3\nof 9\x00", 0.1, "page 3 of 9", nil},
		{"long message is cut at a rune boundary", 0.1, strings.Repeat("é", 400), 0.1, strings.Repeat("é", jobs.MaxMessageLen/2), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			table := openTable(t)
			reg := jobs.NewRegistry()
			var progressErr error
			var during jobs.Job
			job := enqueue(t, table, "p", "")
			register(t, reg, "p", func(ctx context.Context, _ json.RawMessage, rep jobs.Reporter) (json.RawMessage, error) {
				progressErr = rep.Progress(ctx, tc.fraction, tc.message)
				during, _ = jobs.Get(ctx, table, job.ID)
				return nil, nil
			})
			if _, err := jobs.NewRunner(table, reg, jobs.RunnerOptions{}).Run(ctx, job.ID); err != nil {
				t.Fatalf("run: %v", err)
			}
			if tc.wantErr != nil {
				if !errors.Is(progressErr, tc.wantErr) {
					t.Fatalf("Progress error = %v, want %v", progressErr, tc.wantErr)
				}
				if during.Progress != 0 || during.Message != "" {
					t.Errorf("refused progress was stored: %+v", during)
				}
				return
			}
			if progressErr != nil {
				t.Fatalf("Progress: %v", progressErr)
			}
			if during.Progress != tc.want || during.Message != tc.wantMsg {
				t.Errorf("stored progress %v %q, want %v %q", during.Progress, during.Message, tc.want, tc.wantMsg)
			}
		})
	}
}

func TestRunFailures(t *testing.T) {
	cases := []struct {
		name      string
		kind      string
		handler   jobs.Handler
		wantError string
	}{
		{"unknown kind fails the job", "nobody.handles", nil, `unknown job kind "nobody.handles"`},
		{"handler error fails the job", "bad", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
			return nil, errors.New("the page has no text")
		}, "the page has no text"},
		{"panic fails the job with its message", "boom", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
			panic("index out of range")
		}, "handler panicked: index out of range"},
		{"result that is not JSON fails the job", "garbled", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
			return json.RawMessage(`{"unterminated`), nil
		}, "not JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			table := openTable(t)
			reg := jobs.NewRegistry()
			if tc.handler != nil {
				register(t, reg, tc.kind, tc.handler)
			}
			job := enqueue(t, table, tc.kind, "")
			got, err := jobs.NewRunner(table, reg, jobs.RunnerOptions{}).Run(context.Background(), job.ID)
			if err != nil {
				t.Fatalf("run: %v (a failed job is a final outcome, not a run error)", err)
			}
			stored := get(t, table, job.ID)
			if stored.Status != jobs.StatusFailed || !strings.Contains(stored.Error, tc.wantError) {
				t.Errorf("stored %s %q, want failed containing %q", stored.Status, stored.Error, tc.wantError)
			}
			if got.Status != jobs.StatusFailed {
				t.Errorf("Run returned status %s", got.Status)
			}
		})
	}
}

func TestTransientFailureIsRetriedUpToMaxAttempts(t *testing.T) {
	ctx := context.Background()
	table := openTable(t)
	reg := jobs.NewRegistry()
	calls := 0
	register(t, reg, "flaky", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		calls++
		return nil, jobs.Transient(errors.New("engine unreachable"))
	})
	runner := jobs.NewRunner(table, reg, jobs.RunnerOptions{MaxAttempts: 2})
	job := enqueue(t, table, "flaky", "")

	_, err := runner.Run(ctx, job.ID)
	if !errors.Is(err, jobs.ErrTransient) {
		t.Fatalf("first run: %v, want ErrTransient", err)
	}
	if s := get(t, table, job.ID); s.Status != jobs.StatusQueued || s.Attempts != 1 || s.Error != "engine unreachable" {
		t.Fatalf("after first run: %+v, want queued, attempt 1, error kept", s)
	}
	if _, err := runner.Run(ctx, job.ID); err != nil {
		t.Fatalf("second run: %v, want nil (final)", err)
	}
	s := get(t, table, job.ID)
	if s.Status != jobs.StatusFailed || s.Attempts != 2 || !strings.Contains(s.Error, "gave up after 2 attempts: engine unreachable") {
		t.Fatalf("after second run: %+v", s)
	}
	if _, err := runner.Run(ctx, job.ID); err != nil || calls != 2 {
		t.Fatalf("run of a final job: err %v, handler calls %d, want nil and 2", err, calls)
	}
}

func TestTransientThenSuccess(t *testing.T) {
	ctx := context.Background()
	table := openTable(t)
	reg := jobs.NewRegistry()
	calls := 0
	register(t, reg, "flaky", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		calls++
		if calls == 1 {
			return nil, jobs.Transient(errors.New("503"))
		}
		return json.RawMessage(`"ok"`), nil
	})
	runner := jobs.NewRunner(table, reg, jobs.RunnerOptions{})
	job := enqueue(t, table, "flaky", "")
	if _, err := runner.Run(ctx, job.ID); !errors.Is(err, jobs.ErrTransient) {
		t.Fatalf("first run: %v", err)
	}
	if _, err := runner.Run(ctx, job.ID); err != nil {
		t.Fatalf("second run: %v", err)
	}
	if s := get(t, table, job.ID); s.Status != jobs.StatusSucceeded || s.Attempts != 2 || s.Error != "" || string(s.Result) != `"ok"` {
		t.Fatalf("stored %+v", s)
	}
}

func TestLeaseKeepsOtherWorkersOut(t *testing.T) {
	ctx := context.Background()
	table := openTable(t)
	reg := jobs.NewRegistry()
	register(t, reg, "k", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		return nil, nil
	})
	runner := jobs.NewRunner(table, reg, jobs.RunnerOptions{})
	// A record a worker claimed and then vanished with (lease still valid).
	job := enqueue(t, table, "k", "")
	j := get(t, table, job.ID)
	j.Status, j.Attempts, j.LeaseUntil = jobs.StatusRunning, 1, time.Now().Add(time.Hour)
	j.Version++
	item, _ := jobs.Item(j)
	if err := table.Put(ctx, item, store.IfVersion(j.Version-1)); err != nil {
		t.Fatal(err)
	}

	if _, err := runner.Run(ctx, job.ID); !errors.Is(err, jobs.ErrTransient) {
		t.Fatalf("Run of a leased job: %v, want ErrTransient", err)
	}
	if s := get(t, table, job.ID); s.Status != jobs.StatusRunning || s.Attempts != 1 {
		t.Fatalf("Run changed a leased job: %+v", s)
	}
	if _, err := runner.TakeOver(ctx, job.ID); err != nil {
		t.Fatalf("TakeOver: %v", err)
	}
	if s := get(t, table, job.ID); s.Status != jobs.StatusSucceeded || s.Attempts != 2 {
		t.Fatalf("after TakeOver: %+v", s)
	}
}

func TestTakenOverAttemptCannotWrite(t *testing.T) {
	ctx := context.Background()
	table := openTable(t)
	reg := jobs.NewRegistry()
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	var mu sync.Mutex
	calls := 0
	register(t, reg, "slow", func(ctx context.Context, _ json.RawMessage, rep jobs.Reporter) (json.RawMessage, error) {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		started <- struct{}{}
		if !first {
			return json.RawMessage(`"second"`), nil
		}
		<-release
		if err := rep.Progress(ctx, 0.9, "almost"); err != nil {
			return nil, err
		}
		return json.RawMessage(`"first"`), nil
	})
	runner := jobs.NewRunner(table, reg, jobs.RunnerOptions{})
	job := enqueue(t, table, "slow", "")

	firstErr := make(chan error, 1)
	go func() {
		_, err := runner.Run(ctx, job.ID)
		firstErr <- err
	}()
	<-started
	// Attempt 1 is stuck; attempt 2 takes the job over and finishes it.
	if _, err := runner.TakeOver(ctx, job.ID); err != nil {
		t.Fatalf("TakeOver: %v", err)
	}
	close(release)
	if err := <-firstErr; !errors.Is(err, jobs.ErrSuperseded) {
		t.Fatalf("attempt 1 ended with %v, want ErrSuperseded", err)
	}
	if s := get(t, table, job.ID); s.Status != jobs.StatusSucceeded || string(s.Result) != `"second"` || s.Attempts != 2 {
		t.Fatalf("stored %+v, want attempt 2's success", s)
	}
}

func TestProgressRetriesOnConflict(t *testing.T) {
	ctx := context.Background()
	table := openTable(t)
	reg := jobs.NewRegistry()
	job := enqueue(t, table, "k", "")
	register(t, reg, "k", func(ctx context.Context, _ json.RawMessage, rep jobs.Reporter) (json.RawMessage, error) {
		// Another writer bumps the record between two progress writes.
		j, err := jobs.Get(ctx, table, job.ID)
		if err != nil {
			return nil, err
		}
		j.Message = "touched elsewhere"
		j.Version++
		item, _ := jobs.Item(j)
		if err := table.Put(ctx, item, store.IfVersion(j.Version-1)); err != nil {
			return nil, err
		}
		return nil, rep.Progress(ctx, 0.3, "after conflict")
	})
	if _, err := jobs.NewRunner(table, reg, jobs.RunnerOptions{}).Run(ctx, job.ID); err != nil {
		t.Fatalf("run: %v", err)
	}
	if s := get(t, table, job.ID); s.Status != jobs.StatusSucceeded {
		t.Fatalf("stored %+v, want succeeded (progress write should retry, not fail)", s)
	}
}

func TestConcurrentProgressFromOneHandler(t *testing.T) {
	ctx := context.Background()
	table := openTable(t)
	reg := jobs.NewRegistry()
	register(t, reg, "fan", func(ctx context.Context, _ json.RawMessage, rep jobs.Reporter) (json.RawMessage, error) {
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for i := range 8 {
			wg.Go(func() { errs <- rep.Progress(ctx, float64(i)/8, "part") })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	job := enqueue(t, table, "fan", "")
	if _, err := jobs.NewRunner(table, reg, jobs.RunnerOptions{}).Run(ctx, job.ID); err != nil {
		t.Fatalf("run: %v", err)
	}
	if s := get(t, table, job.ID); s.Status != jobs.StatusSucceeded {
		t.Fatalf("stored %+v", s)
	}
}

func TestInterruptedRunGoesBackToQueued(t *testing.T) {
	table := openTable(t)
	reg := jobs.NewRegistry()
	ctx, cancel := context.WithCancel(context.Background())
	register(t, reg, "long", func(ctx context.Context, _ json.RawMessage, _ jobs.Reporter) (json.RawMessage, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	})
	job := enqueue(t, table, "long", "")
	if _, err := jobs.NewRunner(table, reg, jobs.RunnerOptions{}).Run(ctx, job.ID); !errors.Is(err, jobs.ErrTransient) {
		t.Fatalf("run: %v, want ErrTransient", err)
	}
	if s := get(t, table, job.ID); s.Status != jobs.StatusQueued || !strings.Contains(s.Error, "interrupted") {
		t.Fatalf("stored %+v, want queued after interruption", s)
	}
}

func TestRunMissingJob(t *testing.T) {
	runner := jobs.NewRunner(openTable(t), jobs.NewRegistry(), jobs.RunnerOptions{})
	for _, id := range []string{"nosuchjob", "../etc", ""} {
		if _, err := runner.Run(context.Background(), id); !errors.Is(err, jobs.ErrNotFound) {
			t.Errorf("Run(%q) = %v, want ErrNotFound", id, err)
		}
	}
}

func TestRegistryRefusesBadRegistrations(t *testing.T) {
	reg := jobs.NewRegistry()
	ok := func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) { return nil, nil }
	register(t, reg, "magazine.describe", ok)
	cases := map[string]struct {
		kind string
		h    jobs.Handler
	}{
		"duplicate kind":   {"magazine.describe", ok},
		"empty kind":       {"", ok},
		"upper-case kind":  {"Magazine", ok},
		"nil handler":      {"voices.clone", nil},
		"kind with spaces": {"a b", ok},
	}
	for name, tc := range cases {
		if err := reg.Register(tc.kind, tc.h); !errors.Is(err, jobs.ErrInvalid) {
			t.Errorf("%s: Register = %v, want ErrInvalid", name, err)
		}
	}
	if _, err := reg.Handler("voices.clone"); !errors.Is(err, jobs.ErrUnknownKind) {
		t.Errorf("Handler of unregistered kind = %v, want ErrUnknownKind", err)
	}
	if got := reg.Kinds(); len(got) != 1 || got[0] != "magazine.describe" {
		t.Errorf("Kinds = %v", got)
	}
}

func TestNewValidates(t *testing.T) {
	now := time.Now()
	if _, err := jobs.New("k", json.RawMessage(`{not json`), now); !errors.Is(err, jobs.ErrInvalid) {
		t.Errorf("bad payload: %v", err)
	}
	big := json.RawMessage(`"` + strings.Repeat("a", jobs.MaxDocumentSize) + `"`)
	if _, err := jobs.New("k", big, now); !errors.Is(err, jobs.ErrInvalid) {
		t.Errorf("big payload: %v", err)
	}
	if _, err := jobs.New("", nil, now); !errors.Is(err, jobs.ErrInvalid) {
		t.Errorf("empty kind: %v", err)
	}
	a, _ := jobs.New("k", nil, now)
	b, _ := jobs.New("k", nil, now)
	if a.ID == b.ID || len(a.ID) != 26 || jobs.ValidateID(a.ID) != nil {
		t.Errorf("ids %q %q: want distinct 26-char valid ids", a.ID, b.ID)
	}
	if a.Status != jobs.StatusQueued || a.Version != 1 {
		t.Errorf("new job %+v", a)
	}
}

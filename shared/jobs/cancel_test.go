package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/store"
)

// A run whose context is cancelled with ErrCancelled as the cause fails
// for good; a stop for any other reason (shutdown) queues it again.
func TestCancelledRunFailsInterruptedRunRequeues(t *testing.T) {
	table := openTable(t)
	reg := jobs.NewRegistry()
	started := make(chan struct{}, 1)
	register(t, reg, "test.wait", func(ctx context.Context, _ json.RawMessage, _ jobs.Reporter) (json.RawMessage, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	r := jobs.NewRunner(table, reg, jobs.RunnerOptions{})
	for _, tc := range []struct {
		cause error
		want  jobs.Status
	}{
		{fmt.Errorf("%w: the user cancelled it", jobs.ErrCancelled), jobs.StatusFailed},
		{errors.New("shutting down"), jobs.StatusQueued},
	} {
		job := enqueue(t, table, "test.wait", "")
		ctx, cancel := context.WithCancelCause(t.Context())
		go func() { <-started; cancel(tc.cause) }()
		got, _ := r.Run(ctx, job.ID)
		if got.Status != tc.want {
			t.Errorf("cancelled with %q: job %s (%s), want %s", tc.cause, got.Status, got.Error, tc.want)
		}
	}
}

// A queued job cancelled never runs; a finished one is left as it is.
func TestRunnerCancel(t *testing.T) {
	table := openTable(t)
	reg := jobs.NewRegistry()
	ran := 0
	register(t, reg, "test.count", func(context.Context, json.RawMessage, jobs.Reporter) (json.RawMessage, error) {
		ran++
		return nil, nil
	})
	r := jobs.NewRunner(table, reg, jobs.RunnerOptions{})
	job := enqueue(t, table, "test.count", "")
	got, err := r.Cancel(t.Context(), job.ID, "not wanted")
	if err != nil || got.Status != jobs.StatusFailed || !strings.Contains(got.Error, "not wanted") {
		t.Fatalf("cancel: %+v %v", got, err)
	}
	if got, _ := r.Run(t.Context(), job.ID); ran != 0 || got.Status != jobs.StatusFailed {
		t.Errorf("the cancelled job ran (%d) or changed: %s", ran, got.Status)
	}
	done := enqueue(t, table, "test.count", "")
	if _, err := r.Run(t.Context(), done.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Cancel(t.Context(), done.ID, "late"); err != nil || got.Status != jobs.StatusSucceeded {
		t.Errorf("cancel of a finished job: %s %v", got.Status, err)
	}
}

// A job found running when no process runs it is queued again the first
// time and failed the second (the process died in it twice).
func TestGiveUpCrashed(t *testing.T) {
	table := openTable(t)
	reg := jobs.NewRegistry()
	r := jobs.NewRunner(table, reg, jobs.RunnerOptions{})
	job := enqueue(t, table, "test.boom", "")
	for want, status := range []jobs.Status{jobs.StatusQueued, jobs.StatusFailed} {
		running := get(t, table, job.ID)
		running.Status = jobs.StatusRunning // as a process that died left it
		running.Version++
		item, err := jobs.Item(running)
		if err != nil {
			t.Fatal(err)
		}
		if err := table.Put(t.Context(), item, store.IfVersion(running.Version-1)); err != nil {
			t.Fatal(err)
		}
		running = get(t, table, job.ID)
		got, err := r.GiveUpCrashed(t.Context(), running, 2)
		if err != nil || got.Status != status || got.Crashes != want+1 {
			t.Fatalf("crash %d: %s, %d crashes, %v; want %s", want+1, got.Status, got.Crashes, err, status)
		}
	}
	if got := get(t, table, job.ID); !strings.Contains(got.Error, "stopped 2 times") {
		t.Errorf("error %q does not say why it was given up", got.Error)
	}
}

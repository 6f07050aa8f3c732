package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pipeline/asl"
	"github.com/lectern/lectern/statemachines"
)

// A vision engine that accepts the request and never answers must not use up
// the step's time: its call ends at its share of the remaining time, and the
// fallback engine still reads the page before the step's deadline.
func TestRecognizeFallsBackWhenTheVisionEngineHangs(t *testing.T) {
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		<-r.Context().Done() // never answers; the client gives up
	}))
	t.Cleanup(hung.Close)
	// As visionocr.Chain builds it: the client's own per-attempt timeout (30 s)
	// and retries, far beyond the step's time.
	primary := oaichat.New(oaichat.Config{BaseURL: hung.URL + "/v1", Model: "ocr"})
	fallback, calls := chatEngine(t, good)

	// The step's deadline, as the Lambda (or the state's TimeoutSeconds
	// locally) sets it.
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	rec, err := OCRChain{Primary: primary, Fallback: fallback}.Recognize(ctx, page())
	if err != nil {
		t.Fatalf("recognize: %v", err)
	}
	if ctx.Err() != nil {
		t.Errorf("the chain used up the step's time: %v", ctx.Err())
	}
	if rec.Engine != EngineVisionFallback || calls.Load() != 1 || len(rec.Regions) != 2 {
		t.Fatalf("recognition = %+v after %d fallback calls, want the fallback's regions", rec, calls.Load())
	}
	if len(rec.Attempts) != 1 || rec.Attempts[0].Engine != EngineVisionPrimary || !strings.Contains(rec.Attempts[0].Error, "share of the step's time") {
		t.Errorf("attempts = %+v, want the primary's time running out", rec.Attempts)
	}
}

// A second start of the same upload (a second PUT to the presigned URL) is
// refused at Prepare with a reason naming the owner, while the owner's own
// retry proceeds: one execution's work only.
func TestPrepareTwiceOnTheSameUpload(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	id := f.upload(t, harbourPDF())
	if err := f.repo.Create(ctx, magazine.Issue{ID: id, Title: "Harbour", Status: magazine.IssueUploading, SourceKey: issues.SourceKey(id), Step: "upload"}); err != nil {
		t.Fatal(err)
	}
	start := func(execution string) PrepareInput {
		return PrepareInput{SourceKey: issues.SourceKey(id), Execution: &Execution{Name: execution}}
	}
	first, err := f.steps.Prepare(ctx, start("exec-1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.steps.Render(ctx, PageRef{IssueID: id, Page: 1}); err != nil {
		t.Fatal(err)
	}

	_, err = f.steps.Prepare(ctx, start("exec-2"))
	var dup *DuplicateStartError
	if !errors.As(err, &dup) || dup.IssueID != id || !strings.Contains(err.Error(), `owned by execution "exec-1"`) {
		t.Fatalf("second prepare = %v, want a duplicate start naming exec-1", err)
	}
	// Nothing of the first execution's work was redone.
	if p := f.page(t, id, 1); p.Step != "render" || p.RenderKey == "" {
		t.Errorf("page 1 after the duplicate start = step %q render %q, want the first execution's render kept", p.Step, p.RenderKey)
	}
	if is := f.issue(t, id); is.Status != magazine.IssueProcessing || is.PageCount != 2 {
		t.Errorf("issue after the duplicate start = %+v", is)
	}

	// The owner's retry of its own Prepare goes through.
	again, err := f.steps.Prepare(ctx, start("exec-1"))
	if err != nil || again.IssueID != first.IssueID || again.PageCount != first.PageCount {
		t.Errorf("the owner's retry = %+v, %v", again, err)
	}
}

// Two executions starting at once: exactly one claims the issue.
func TestPrepareRaceHasOneWinner(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	id := f.upload(t, harbourPDF())
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id), Execution: &Execution{Name: "exec-" + string(rune('a'+i))}})
		})
	}
	wg.Wait()
	won, refused := 0, 0
	for _, err := range errs {
		var dup *DuplicateStartError
		switch {
		case err == nil:
			won++
		case errors.As(err, &dup):
			refused++
		default:
			t.Errorf("prepare: %v", err)
		}
	}
	if won != 1 || refused != 3 {
		t.Errorf("%d prepares proceeded and %d were refused, want 1 and 3", won, refused)
	}
}

// Through the real definition: a duplicate execution ends in AlreadyStarted,
// saying why, without touching the issue (FailIssue never runs).
func TestDuplicateExecutionEndsAlreadyStarted(t *testing.T) {
	f := newStepsFixture(t)
	id := f.upload(t, harbourPDF())
	def, err := asl.Parse(statemachines.Ingest())
	if err != nil {
		t.Fatal(err)
	}
	run := func(execution string) (json.RawMessage, map[string]int) {
		entered := map[string]int{}
		var mu sync.Mutex
		out, err := asl.Run(t.Context(), def, json.RawMessage(`{"source_key":"`+issues.SourceKey(id)+`","max_concurrency":1}`), asl.Options{
			Handlers: f.steps.Handlers(), ExecutionName: execution,
			OnState: func(e asl.StateEvent) { mu.Lock(); entered[e.Name]++; mu.Unlock() },
		})
		if err != nil {
			t.Fatalf("%s: %v", execution, err)
		}
		return out, entered
	}
	run("exec-1")
	before := f.issue(t, id)
	out, entered := run("exec-2")
	if entered["AlreadyStarted"] != 1 || entered["FailIssue"] != 0 || entered["Pages"] != 0 {
		t.Errorf("the duplicate entered %v", entered)
	}
	var got struct{ Error struct{ Error, Cause string } }
	if err := json.Unmarshal(out, &got); err != nil || got.Error.Error != "DuplicateStartError" || !strings.Contains(got.Error.Cause, "exec-1") {
		t.Errorf("the duplicate's output %s, want DuplicateStartError naming exec-1", out)
	}
	if after := f.issue(t, id); after.Status != before.Status || after.Revision != before.Revision || after.Updated != before.Updated {
		t.Errorf("the duplicate changed the issue: %+v, was %+v", after, before)
	}
}

// The watchdog fails the issue of an execution that ended without settling
// it, with a reason; it leaves settled issues and other executions' alone.
func TestWatchdogFailsAnIssueItsExecutionLeft(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	id := f.upload(t, harbourPDF())
	if _, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id), Execution: &Execution{Name: "exec-1"}}); err != nil {
		t.Fatal(err)
	}
	// The event as the watchdog rule delivers it to the fail-issue function.
	event := func(name, status, errName string) json.RawMessage {
		b, err := json.Marshal(map[string]any{
			"source": "aws.states", "detail-type": "Step Functions Execution Status Change",
			"detail": map[string]any{
				"name": name, "status": status, "input": `{"source_key":"` + issues.SourceKey(id) + `"}`,
				"error": errName, "cause": "The state/task 'Pages' returned a result with a size exceeding the maximum number of bytes service limit.",
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	record := f.steps.Handlers()["FailIssueFunctionArn"]

	// Another execution's end is not this issue's.
	if _, err := record(ctx, event("exec-2", "ABORTED", "")); err != nil {
		t.Fatal(err)
	}
	if is := f.issue(t, id); is.Status != magazine.IssueProcessing {
		t.Fatalf("an execution that does not own the issue settled it: %+v", is)
	}

	if _, err := record(ctx, event("exec-1", "FAILED", "States.DataLimitExceeded")); err != nil {
		t.Fatal(err)
	}
	is := f.issue(t, id)
	if is.Status != magazine.IssueFailed || !strings.Contains(is.Error, "ended FAILED") || !strings.Contains(is.Error, "exceeding the maximum number of bytes") {
		t.Fatalf("issue after the watchdog = %+v", is)
	}

	// A settled issue keeps its reason.
	if _, err := record(ctx, event("exec-1", "TIMED_OUT", "")); err != nil {
		t.Fatal(err)
	}
	if again := f.issue(t, id); again.Error != is.Error {
		t.Errorf("the watchdog overwrote a settled issue's reason: %q", again.Error)
	}
}

// Error texts are capped where they are stored.
func TestFailureTextsAreCapped(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	id := f.prepared(t)
	cause := strings.Repeat("é", 40_000) // a Lambda cause can be 32 KB and more
	if _, err := f.steps.FailPage(ctx, id, PageFailure{Page: 2, Step: "Render", Error: "StepError", Cause: cause}); err != nil {
		t.Fatal(err)
	}
	if p := f.page(t, id, 2); len(p.Error) > maxErrorText+20 || !strings.HasSuffix(p.Error, "(cut)") {
		t.Errorf("page error of %d bytes stored", len(p.Error))
	}
	in := FailIssueInput{SourceKey: issues.SourceKey(id)}
	in.Error.Error, in.Error.Cause = "States.Runtime", cause
	if _, err := f.steps.FailIssue(ctx, in); err != nil {
		t.Fatal(err)
	}
	if is := f.issue(t, id); len(is.Error) > maxErrorText+20 {
		t.Errorf("issue error of %d bytes stored", len(is.Error))
	}
}

package asl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ingestStubs stands in for the real pipeline handlers, recording what the
// definition sends them.
type ingestStubs struct {
	pages          int
	prepareErr     error
	probe          *concurrencyProbe // pages in flight
	recognizeCalls [8]atomic.Int32   // by page number

	mu           sync.Mutex
	finalized    json.RawMessage
	failed       json.RawMessage
	pageFailures map[int]pageFailure // by page, as RecordPageFailure stored them
	calls        map[string][]int    // step → page numbers seen
}

// pageInput is what every page step receives: the Map's item, unchanged by
// the steps before it (their results are discarded, ResultPath null).
type pageInput struct {
	IssueID string `json:"issue_id"`
	Index   int    `json:"index"`
	Page    int    `json:"page"`
}

func (s *ingestStubs) handlers() map[string]Handler {
	return map[string]Handler{
		"PrepareFunctionArn": func(_ context.Context, in json.RawMessage) (json.RawMessage, error) {
			if s.prepareErr != nil {
				return nil, s.prepareErr
			}
			pages := make([]int, s.pages)
			for i := range pages {
				pages[i] = i + 1
			}
			return json.Marshal(map[string]any{"issue_id": "iss-1", "page_count": s.pages, "pages": pages})
		},
		"RenderFunctionArn": s.pageStep("Render", func(p pageInput) (any, error) {
			return map[string]any{"image": fmt.Sprintf("renders/iss-1/%d.png", p.Page)}, nil
		}),
		"RecognizeFunctionArn": s.pageStep("Recognize", func(p pageInput) (any, error) {
			if p.Page == 3 && s.recognizeCalls[3].Add(1) <= 2 {
				return nil, &TransientError{Msg: "engine answered 429"}
			}
			return map[string]any{"engine": "text-layer"}, nil
		}),
		"RefineFiguresFunctionArn": s.pageStep("RefineFigures", func(p pageInput) (any, error) {
			if p.Page == 4 {
				return nil, InvalidInputError{Msg: "page 4 render is corrupt"}
			}
			return map[string]any{"figures": 1}, nil
		}),
		"CleanupFunctionArn": s.pageStep("Cleanup", func(pageInput) (any, error) { return map[string]any{"retyped": 0}, nil }),
		"OrderFunctionArn":   s.pageStep("Order", func(pageInput) (any, error) { return map[string]any{"regions": 12}, nil }),
		"FinalizeFunctionArn": func(_ context.Context, in json.RawMessage) (json.RawMessage, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.finalized = in
			return json.RawMessage(`{"status":"ready"}`), nil
		},
		"FailIssueFunctionArn": func(ctx context.Context, in json.RawMessage) (json.RawMessage, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if TaskState(ctx) == "RecordPageFailure" {
				var rec struct {
					IssueID string      `json:"issue_id"`
					Failure pageFailure `json:"failure"`
				}
				if err := json.Unmarshal(in, &rec); err != nil || rec.IssueID != "iss-1" {
					return nil, fmt.Errorf("RecordPageFailure got %s", in)
				}
				if s.pageFailures == nil {
					s.pageFailures = map[int]pageFailure{}
				}
				s.pageFailures[rec.Failure.Page] = rec.Failure
				return json.RawMessage(`{"ignored":true}`), nil
			}
			s.failed = in
			return json.RawMessage(`{"ignored":true}`), nil
		},
	}
}

// pageStep wraps a per-page stub with the concurrency probe: every page runs
// its steps one after another, so the handlers in flight are the pages
// processed at once.
func (s *ingestStubs) pageStep(name string, fn func(pageInput) (any, error)) Handler {
	return func(ctx context.Context, in json.RawMessage) (json.RawMessage, error) {
		defer s.probe.enter(ctx)()
		var p pageInput
		var fields map[string]any
		if err := json.Unmarshal(in, &p); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(in, &fields); err != nil {
			return nil, err
		}
		if p.IssueID != "iss-1" || p.Page != p.Index+1 || len(fields) != 3 {
			return nil, fmt.Errorf("%s got input %s, want only the Map's item {issue_id, index, page}", name, in)
		}
		s.mu.Lock()
		s.calls[name] = append(s.calls[name], p.Page)
		s.mu.Unlock()
		out, err := fn(p)
		if err != nil {
			return nil, err
		}
		return json.Marshal(out)
	}
}

// pageFailure is what the definition's per-page failure states record.
type pageFailure struct {
	Page  int    `json:"page"`
	Step  string `json:"step"`
	Error string `json:"error"`
	Cause string `json:"cause"`
}

func loadIngest(t *testing.T) *Definition {
	t.Helper()
	data, err := os.ReadFile("../../../statemachines/ingest.asl.json")
	if err != nil {
		t.Fatal(err)
	}
	def, err := Parse(data)
	if err != nil {
		t.Fatalf("the real ingest definition does not parse: %v", err)
	}
	return def
}

func TestIngestDefinitionFinishesTheIssueDespiteAFailingPage(t *testing.T) {
	def := loadIngest(t)
	stubs := &ingestStubs{pages: 5, calls: map[string][]int{}, probe: newConcurrencyProbe(2)}
	rec := &sleeps{}
	out, err := Run(t.Context(), def, json.RawMessage(`{"bucket":"uploads","key":"in/mag.pdf","max_concurrency":2}`), Options{
		Handlers: stubs.handlers(),
		Sleep:    rec.sleep,
		Jitter:   func(d time.Duration) time.Duration { return d }, // see the backoff itself
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	jsonEqual(t, out, `{"status":"ready"}`)
	// Finalize reads the pages from their records: the state hands it only the issue.
	jsonEqual(t, stubs.finalized, `{"issue_id":"iss-1"}`)
	want := map[int]pageFailure{4: {Page: 4, Step: "RefineFigures", Error: "InvalidInputError", Cause: "invalid input: page 4 render is corrupt"}}
	if !reflect.DeepEqual(stubs.pageFailures, want) {
		t.Errorf("recorded page failures %+v, want %+v", stubs.pageFailures, want)
	}
	if got := stubs.calls["Order"]; len(got) != 4 {
		t.Errorf("Order ran for pages %v, want the 4 that did not fail", got)
	}
	if got := stubs.recognizeCalls[3].Load(); got != 3 {
		t.Errorf("page 3 Recognize called %d times, want 3 (two transient failures, then success)", got)
	}
	if got := rec.seconds(); !reflect.DeepEqual(got, []float64{1, 2}) {
		t.Errorf("retry sleeps %v, want [1 2]", got)
	}
	for _, step := range []string{"Cleanup", "Order"} {
		for _, p := range stubs.calls[step] {
			if p == 4 {
				t.Errorf("%s ran for page 4 after it failed", step)
			}
		}
	}
	stubs.probe.check(t) // max_concurrency is 2
	if stubs.failed != nil {
		t.Errorf("FailIssue ran on a successful ingest: %s", stubs.failed)
	}
}

func TestIngestDefinitionDefaultsConcurrencyToFour(t *testing.T) {
	def := loadIngest(t)
	stubs := &ingestStubs{pages: 7, calls: map[string][]int{}, probe: newConcurrencyProbe(4)}
	if _, err := Run(t.Context(), def, json.RawMessage(`{"key":"in/mag.pdf"}`), Options{Handlers: stubs.handlers(), Sleep: (&sleeps{}).sleep}); err != nil {
		t.Fatalf("Run: %v", err)
	}
	stubs.probe.check(t) // the default is 4
	if got := len(stubs.calls["Order"]); got != 6 {
		t.Errorf("Order ran for %d pages, want 6 (all but page 4, whose RefineFigures fails)", got)
	}
}

func TestIngestDefinitionRecordsARejectedUploadAndFails(t *testing.T) {
	def := loadIngest(t)
	stubs := &ingestStubs{pages: 5, calls: map[string][]int{}, prepareErr: InvalidInputError{Msg: "encrypted PDF"}, probe: newConcurrencyProbe(1)}
	_, err := Run(t.Context(), def, json.RawMessage(`{"key":"in/locked.pdf"}`), Options{Handlers: stubs.handlers(), Sleep: (&sleeps{}).sleep})
	var e *Error
	if !errors.As(err, &e) || e.Name != "InvalidInputError" || e.Cause != "invalid input: encrypted PDF" {
		t.Fatalf("err = %v, want the Prepare error", err)
	}
	var failed struct {
		Key   string `json:"key"`
		Error struct{ Error, Cause string }
	}
	if err := json.Unmarshal(stubs.failed, &failed); err != nil {
		t.Fatalf("FailIssue input %s: %v", stubs.failed, err)
	}
	if failed.Key != "in/locked.pdf" || failed.Error.Error != "InvalidInputError" {
		t.Errorf("FailIssue got %s", stubs.failed)
	}
	if len(stubs.calls) != 0 || stubs.finalized != nil || stubs.pageFailures != nil {
		t.Errorf("pages ran after Prepare failed: %v", stubs.calls)
	}
}

// lambdaTimeouts reads each ingest Task resource's Lambda timeout from
// template.yaml: the function's own Timeout, else the Globals one.
func lambdaTimeouts(t *testing.T) map[string]int {
	t.Helper()
	tpl, err := os.ReadFile("../../../template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	global := regexp.MustCompile(`(?m)^Globals:\n  Function:\n(?:    .*\n)*?    Timeout: (\d+)`).FindSubmatch(tpl)
	if global == nil {
		t.Fatal("template.yaml has no Globals Function Timeout")
	}
	out := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^        (\w+FunctionArn): !GetAtt (\w+)\.Arn$`).FindAllSubmatch(tpl, -1) {
		block := regexp.MustCompile(`(?m)^  ` + string(m[2]) + `:\n((?:    .*\n|\n)*)`).FindSubmatch(tpl)
		if block == nil {
			t.Fatalf("template.yaml has no resource %s", m[2])
		}
		timeout := global[1]
		if own := regexp.MustCompile(`(?m)^      Timeout: (\d+)$`).FindSubmatch(block[1]); own != nil {
			timeout = own[1]
		}
		out[string(m[1])], _ = strconv.Atoi(string(timeout))
	}
	return out
}

// A Task's TimeoutSeconds is its Lambda's timeout plus a margin: the Lambda
// times out first and its error is the one recorded, while the state's
// timeout still ends an invoke that never returns. A state timeout beyond
// its Lambda's (Recognize had 900 s against 300 s) only delays that.
func TestIngestTaskTimeoutsFollowTheirLambdas(t *testing.T) {
	const margin = 10
	lambdas := lambdaTimeouts(t)
	def := loadIngest(t)
	n := 0
	def.root.each(func(s *state) {
		if s.typ != "Task" {
			return
		}
		n++
		want, ok := lambdas[s.resource]
		if !ok {
			t.Errorf("%s: resource %s is not in the state machine's DefinitionSubstitutions", s.name, s.resource)
			return
		}
		if got := int(s.timeout / time.Second); got != want+margin {
			t.Errorf("%s: TimeoutSeconds %d, want %d (its Lambda's %d s + %d)", s.name, got, want+margin, want, margin)
		}
	})
	if n < 9 {
		t.Errorf("found %d Task states, want the 9 of the ingest definition", n)
	}
}

// Every Task retries throttling patiently (about 6 attempts, backoff 2, at
// most 60 s apart) before anything else, and retries an invoke that timed
// out on the client side.
func TestIngestTasksRetryThrottlingAndClientTimeouts(t *testing.T) {
	var raw struct {
		States map[string]json.RawMessage
	}
	data, err := os.ReadFile("../../../statemachines/ingest.asl.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	type retrier struct {
		ErrorEquals     []string
		MaxAttempts     int
		BackoffRate     float64
		MaxDelaySeconds int
	}
	type task struct {
		Type          string
		Retry         []retrier
		ItemProcessor *struct{ States map[string]json.RawMessage }
	}
	var check func(states map[string]json.RawMessage)
	seen := 0
	check = func(states map[string]json.RawMessage) {
		for name, body := range states {
			var s task
			if err := json.Unmarshal(body, &s); err != nil {
				t.Fatal(err)
			}
			if s.ItemProcessor != nil {
				check(s.ItemProcessor.States)
			}
			if s.Type != "Task" {
				continue
			}
			seen++
			if len(s.Retry) == 0 || !slices.Equal(s.Retry[0].ErrorEquals, []string{"Lambda.TooManyRequestsException"}) ||
				s.Retry[0].MaxAttempts != 6 || s.Retry[0].BackoffRate != 2 || s.Retry[0].MaxDelaySeconds != 60 {
				t.Errorf("%s: first retrier %+v, want throttling with 6 attempts, backoff 2, MaxDelaySeconds 60", name, s.Retry)
			}
			retried := map[string]bool{}
			for _, r := range s.Retry {
				for _, e := range r.ErrorEquals {
					retried[e] = true
				}
			}
			for _, e := range []string{"TransientError", "Lambda.ClientExecutionTimeoutException", "Lambda.ServiceException", "States.Timeout"} {
				if !retried[e] {
					t.Errorf("%s does not retry %s", name, e)
				}
			}
		}
	}
	check(raw.States)
	if seen < 9 {
		t.Errorf("checked %d Task states, want 9", seen)
	}
}

package asl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
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

	mu        sync.Mutex
	finalized json.RawMessage
	failed    json.RawMessage
	calls     map[string][]int // step → page numbers seen
}

type pageInput struct {
	IssueID string `json:"issue_id"`
	Index   int    `json:"index"`
	Page    int    `json:"page"`
	Render  *struct {
		Image string `json:"image"`
	} `json:"render"`
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
			if p.Render == nil || p.Render.Image == "" {
				return nil, fmt.Errorf("Recognize got no render output: %+v", p)
			}
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
		"FailIssueFunctionArn": func(_ context.Context, in json.RawMessage) (json.RawMessage, error) {
			s.mu.Lock()
			defer s.mu.Unlock()
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
		if err := json.Unmarshal(in, &p); err != nil {
			return nil, err
		}
		if p.IssueID != "iss-1" || p.Page != p.Index+1 {
			return nil, fmt.Errorf("%s got input %s", name, in)
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

	var fin struct {
		IssueID string `json:"issue_id"`
		Pages   []struct {
			Page      int            `json:"page"`
			Index     int            `json:"index"`
			Recognize map[string]any `json:"recognize"`
			Order     map[string]any `json:"order"`
			Failure   *pageFailure   `json:"failure"`
		} `json:"pages"`
	}
	if err := json.Unmarshal(stubs.finalized, &fin); err != nil {
		t.Fatalf("Finalize input %s: %v", stubs.finalized, err)
	}
	if fin.IssueID != "iss-1" || len(fin.Pages) != 5 {
		t.Fatalf("Finalize got issue %q with %d pages: %s", fin.IssueID, len(fin.Pages), stubs.finalized)
	}
	for i, p := range fin.Pages {
		if p.Page != i+1 {
			t.Errorf("result %d is for page %d: Map results out of order", i, p.Page)
		}
		if p.Page == 4 {
			want := pageFailure{Page: 4, Step: "RefineFigures", Error: "InvalidInputError", Cause: "invalid input: page 4 render is corrupt"}
			if p.Failure == nil || *p.Failure != want {
				t.Errorf("page 4 failure = %+v, want %+v", p.Failure, want)
			}
			if p.Recognize == nil || p.Order != nil {
				t.Errorf("page 4 should keep its earlier results and stop: %+v", p)
			}
			continue
		}
		if p.Failure != nil || p.Order == nil {
			t.Errorf("page %d: failure %+v, order %v", p.Page, p.Failure, p.Order)
		}
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
	if len(stubs.calls) != 0 || stubs.finalized != nil {
		t.Errorf("pages ran after Prepare failed: %v", stubs.calls)
	}
}

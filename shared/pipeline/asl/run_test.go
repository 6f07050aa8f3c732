package asl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Error types named like the app's (STYLE.md 7), to check matching by name.
type TransientError struct{ Msg string }

func (e *TransientError) Error() string { return "transient: " + e.Msg }

type InvalidInputError struct{ Msg string }

func (e InvalidInputError) Error() string { return "invalid input: " + e.Msg }

func mustParse(t *testing.T, def string) *Definition {
	t.Helper()
	d, err := Parse([]byte(def))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return d
}

// jsonEqual compares two JSON texts by value.
func jsonEqual(t *testing.T, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("output %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("output\n got %s\nwant %s", got, want)
	}
}

func echo(_ context.Context, in json.RawMessage) (json.RawMessage, error) { return in, nil }

func constant(out string) Handler {
	return func(context.Context, json.RawMessage) (json.RawMessage, error) { return json.RawMessage(out), nil }
}

func failing(err error) Handler {
	return func(context.Context, json.RawMessage) (json.RawMessage, error) { return nil, err }
}

// sleeps records the retry delays instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return nil
}

func (s *sleeps) seconds() []float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []float64{}
	for _, d := range s.d {
		out = append(out, d.Seconds())
	}
	return out
}

// concurrencyProbe counts the handlers in flight and holds each one at a
// barrier until want of them have been in flight together, so a Map that runs
// fewer at once than its limit fails instead of passing by luck. A barrier
// that is not reached within probeTimeout opens for good and is reported by
// check, so a broken limit fails the test rather than hanging it.
type concurrencyProbe struct {
	want          int32
	running, peak atomic.Int32
	open          chan struct{}
	once          sync.Once
	timedOut      atomic.Bool
}

const probeTimeout = 2 * time.Minute // a failure bound: the barrier opens as soon as they are in

func newConcurrencyProbe(want int) *concurrencyProbe {
	return &concurrencyProbe{want: int32(want), open: make(chan struct{})}
}

// enter marks one handler in flight and waits at the barrier; the caller
// defers the returned leave.
func (p *concurrencyProbe) enter(ctx context.Context) (leave func()) {
	n := p.running.Add(1)
	for cur := p.peak.Load(); n > cur && !p.peak.CompareAndSwap(cur, n); cur = p.peak.Load() {
	}
	if n >= p.want {
		p.once.Do(func() { close(p.open) })
	}
	select {
	case <-p.open:
	case <-ctx.Done():
	case <-time.After(probeTimeout):
		p.timedOut.Store(true)
		p.once.Do(func() { close(p.open) })
	}
	time.Sleep(2 * time.Millisecond) // give a sibling over the limit time to show up
	return func() { p.running.Add(-1) }
}

// check asserts that exactly want handlers were in flight at the peak.
func (p *concurrencyProbe) check(t *testing.T) {
	t.Helper()
	if p.timedOut.Load() {
		t.Errorf("barrier: never %d handlers in flight together within %s (peak %d)", p.want, probeTimeout, p.peak.Load())
	}
	if got := p.peak.Load(); got != p.want {
		t.Errorf("peak concurrency %d, want exactly %d", got, p.want)
	}
}

func TestStatesProduceOutput(t *testing.T) {
	tests := []struct {
		name     string
		def      string
		input    string
		handlers map[string]Handler
		want     string
	}{
		{
			name:  "pass with Result writes it at ResultPath",
			def:   `{"StartAt":"P","States":{"P":{"Type":"Pass","Result":{"x":1},"ResultPath":"$.r","End":true}}}`,
			input: `{"a":1}`,
			want:  `{"a":1,"r":{"x":1}}`,
		},
		{
			name:  "pass without Result passes its input through",
			def:   `{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}}`,
			input: `{"a":[1,2]}`,
			want:  `{"a":[1,2]}`,
		},
		{
			name:  "pass Parameters resolve input, index and context paths",
			def:   `{"StartAt":"P","States":{"P":{"Type":"Pass","Parameters":{"first.$":"$.a[0]","deep.$":"$.b.c","lit":{"k":"v"},"arr":[{"n.$":"$.b.c"}],"exec.$":"$$.Execution.Input.b","name.$":"$$.State.Name"},"End":true}}}`,
			input: `{"a":[7,8],"b":{"c":"x"}}`,
			want:  `{"first":7,"deep":"x","lit":{"k":"v"},"arr":[{"n":"x"}],"exec":{"c":"x"},"name":"P"}`,
		},
		{
			name:  "ResultPath creates missing objects on the way",
			def:   `{"StartAt":"P","States":{"P":{"Type":"Pass","Result":true,"ResultPath":"$.a.b.c","End":true}}}`,
			input: `{"a":{"z":1}}`,
			want:  `{"a":{"z":1,"b":{"c":true}}}`,
		},
		{
			name:     "task runs InputPath, Parameters, ResultSelector, ResultPath, OutputPath in order",
			def:      `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","InputPath":"$.in","Parameters":{"v.$":"$.v"},"ResultSelector":{"got.$":"$.v"},"ResultPath":"$.res","OutputPath":"$.res","End":true}}}`,
			input:    `{"in":{"v":42,"other":1}}`,
			handlers: map[string]Handler{"Fn": echo},
			want:     `{"got":42}`,
		},
		{
			name:     "task ResultPath null discards the result",
			def:      `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","ResultPath":null,"End":true}}}`,
			input:    `{"keep":1}`,
			handlers: map[string]Handler{"Fn": constant(`{"dropped":true}`)},
			want:     `{"keep":1}`,
		},
		{
			name:     "task InputPath null sends an empty object",
			def:      `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:lambda:x","InputPath":null,"End":true}}}`,
			input:    `{"secret":1}`,
			handlers: map[string]Handler{"arn:aws:lambda:x": echo},
			want:     `{}`,
		},
		{
			name:  "succeed applies OutputPath and stops",
			def:   `{"StartAt":"S","States":{"S":{"Type":"Succeed","OutputPath":"$.a"}}}`,
			input: `{"a":{"b":1}}`,
			want:  `{"b":1}`,
		},
		{
			name: "choice takes the first matching rule",
			def: `{"StartAt":"C","States":{
				"C":{"Type":"Choice","Choices":[
					{"Variable":"$.n","NumericGreaterThan":10,"Next":"Big"},
					{"And":[{"Variable":"$.s","StringEquals":"x"},{"Not":{"Variable":"$.b","BooleanEquals":true}}],"Next":"Mixed"}
				],"Default":"Other"},
				"Big":{"Type":"Pass","Result":"big","End":true},
				"Mixed":{"Type":"Pass","Result":"mixed","End":true},
				"Other":{"Type":"Pass","Result":"other","End":true}}}`,
			input: `{"n":3,"s":"x","b":false}`,
			want:  `"mixed"`,
		},
		{
			name: "choice falls to Default when nothing matches",
			def: `{"StartAt":"C","States":{
				"C":{"Type":"Choice","Choices":[{"Or":[{"Variable":"$.n","NumericEquals":1},{"Variable":"$.missing","IsPresent":true}],"Next":"One"}],"Default":"Other"},
				"One":{"Type":"Pass","Result":"one","End":true},
				"Other":{"Type":"Pass","Result":"other","End":true}}}`,
			input: `{"n":2}`,
			want:  `"other"`,
		},
		{
			name: "choice comparing a value of the wrong type is false, not an error",
			def: `{"StartAt":"C","States":{
				"C":{"Type":"Choice","Choices":[{"Variable":"$.n","NumericLessThan":5,"Next":"Small"},{"Variable":"$.n","IsString":true,"Next":"Str"}]},
				"Small":{"Type":"Pass","Result":"small","End":true},
				"Str":{"Type":"Pass","Result":"str","End":true}}}`,
			input: `{"n":"4"}`,
			want:  `"str"`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Run(t.Context(), mustParse(t, tc.def), json.RawMessage(tc.input), Options{Handlers: tc.handlers})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			jsonEqual(t, out, tc.want)
		})
	}
}

func TestStatesFailWithNamedErrors(t *testing.T) {
	tests := []struct {
		name      string
		def       string
		input     string
		wantName  string
		wantCause string
	}{
		{
			name:      "fail state reports its Error and Cause",
			def:       `{"StartAt":"F","States":{"F":{"Type":"Fail","Error":"Broken","Cause":"on purpose"}}}`,
			wantName:  "Broken",
			wantCause: "on purpose",
		},
		{
			name:      "fail state reads ErrorPath and CausePath from its input",
			def:       `{"StartAt":"F","States":{"F":{"Type":"Fail","ErrorPath":"$.e.Error","CausePath":"$.e.Cause"}}}`,
			input:     `{"e":{"Error":"InvalidInputError","Cause":"not a PDF"}}`,
			wantName:  "InvalidInputError",
			wantCause: "not a PDF",
		},
		{
			name:     "choice without a match or Default fails with States.NoChoiceMatched",
			def:      `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.n","NumericEquals":1,"Next":"E"}]},"E":{"Type":"Succeed"}}}`,
			input:    `{"n":2}`,
			wantName: ErrNoChoiceMatched,
		},
		{
			name:     "choice on a missing Variable is a runtime error",
			def:      `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.n","NumericEquals":1,"Next":"E"}],"Default":"E"},"E":{"Type":"Succeed"}}}`,
			input:    `{}`,
			wantName: ErrRuntime,
		},
		{
			name:     "missing Parameters path fails with States.ParameterPathFailure",
			def:      `{"StartAt":"P","States":{"P":{"Type":"Pass","Parameters":{"x.$":"$.nope"},"End":true}}}`,
			input:    `{}`,
			wantName: ErrParameterPath,
		},
		{
			name:     "ResultPath into a non-object fails with States.ResultPathMatchFailure",
			def:      `{"StartAt":"P","States":{"P":{"Type":"Pass","Result":1,"ResultPath":"$.a.b","End":true}}}`,
			input:    `{"a":"str"}`,
			wantName: ErrResultPathMatch,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			input := tc.input
			if input == "" {
				input = `{}`
			}
			_, err := Run(t.Context(), mustParse(t, tc.def), json.RawMessage(input), Options{})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *asl.Error", err)
			}
			if e.Name != tc.wantName || (tc.wantCause != "" && e.Cause != tc.wantCause) {
				t.Errorf("got %s / %q, want %s / %q", e.Name, e.Cause, tc.wantName, tc.wantCause)
			}
		})
	}
}

func TestMapBoundsConcurrencyAndKeepsOrder(t *testing.T) {
	tests := []struct {
		name  string
		limit string // the Map's concurrency field(s)
		input string
		want  int32
	}{
		{name: "MaxConcurrency 3", limit: `"MaxConcurrency":3`, input: `{}`, want: 3},
		{name: "MaxConcurrencyPath from the input", limit: `"MaxConcurrencyPath":"$.conc"`, input: `{"conc":2}`, want: 2},
		{name: "MaxConcurrency 1 runs one at a time", limit: `"MaxConcurrency":1`, input: `{}`, want: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			def := mustParse(t, `{"StartAt":"M","States":{"M":{"Type":"Map","ItemsPath":"$.items",`+tc.limit+`,
				"ItemSelector":{"value.$":"$$.Map.Item.Value","index.$":"$$.Map.Item.Index","tag.$":"$.tag"},
				"ItemProcessor":{"ProcessorConfig":{"Mode":"INLINE"},"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","End":true}}},
				"ResultPath":"$.out","OutputPath":"$.out","End":true}}}`)
			probe := newConcurrencyProbe(int(tc.want))
			handler := func(ctx context.Context, in json.RawMessage) (json.RawMessage, error) {
				defer probe.enter(ctx)()
				var item struct {
					Value int
					Index int
					Tag   string
				}
				if err := json.Unmarshal(in, &item); err != nil {
					return nil, err
				}
				return json.Marshal(fmt.Sprintf("%s%d@%d", item.Tag, item.Value, item.Index))
			}
			var input map[string]any
			if err := json.Unmarshal([]byte(tc.input), &input); err != nil {
				t.Fatal(err)
			}
			items := []int{}
			var want []string
			for i := range 12 {
				items = append(items, 100+i)
				want = append(want, fmt.Sprintf("p%d@%d", 100+i, i))
			}
			input["items"], input["tag"] = items, "p"
			in, err := json.Marshal(input)
			if err != nil {
				t.Fatal(err)
			}

			out, err := Run(t.Context(), def, in, Options{Handlers: map[string]Handler{"Fn": handler}})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			var got []string
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("results %v, want %v", got, want)
			}
			probe.check(t)
		})
	}
}

func TestMapFailingIterationFailsTheMapWithItsError(t *testing.T) {
	def := mustParse(t, `{"StartAt":"M","States":{"M":{"Type":"Map","MaxConcurrency":2,
		"ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","End":true}}},"End":true}}}`)
	handler := func(ctx context.Context, in json.RawMessage) (json.RawMessage, error) {
		if string(in) == "3" {
			return nil, InvalidInputError{Msg: "page 3"}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(5 * time.Millisecond):
			return in, nil
		}
	}
	_, err := Run(t.Context(), def, json.RawMessage(`[1,2,3,4,5,6]`), Options{Handlers: map[string]Handler{"Fn": handler}})
	var e *Error
	if !errors.As(err, &e) || e.Name != "InvalidInputError" {
		t.Fatalf("err = %v, want InvalidInputError", err)
	}
	var inv InvalidInputError
	if !errors.As(err, &inv) {
		t.Errorf("the handler's own error is not reachable through errors.As")
	}
}

// retryDef wraps one Task with the given Retry and Catch arrays.
func retryDef(retry, catch string) string {
	return `{"StartAt":"T","States":{
		"T":{"Type":"Task","Resource":"${Fn}","Retry":` + retry + `,"Catch":` + catch + `,"End":true},
		"Caught":{"Type":"Pass","End":true}}}`
}

// flaky fails with errs in turn, then answers {"ok":true}.
func flaky(calls *atomic.Int32, errs ...error) Handler {
	return func(context.Context, json.RawMessage) (json.RawMessage, error) {
		n := int(calls.Add(1))
		if n <= len(errs) {
			return nil, errs[n-1]
		}
		return json.RawMessage(`{"ok":true}`), nil
	}
}

func TestRetryBacksOff(t *testing.T) {
	transient := &TransientError{Msg: "busy"}
	tests := []struct {
		name      string
		retry     string
		errs      []error
		jitter    func(time.Duration) time.Duration
		wantSleep []float64
		wantCalls int32
		want      string
	}{
		{
			name:      "three transient failures wait 1, 2, 4 s then succeed",
			retry:     `[{"ErrorEquals":["TransientError"],"IntervalSeconds":1,"BackoffRate":2,"MaxAttempts":3}]`,
			errs:      []error{transient, transient, transient},
			wantSleep: []float64{1, 2, 4},
			wantCalls: 4,
			want:      `{"ok":true}`,
		},
		{
			name:      "MaxDelaySeconds caps the wait",
			retry:     `[{"ErrorEquals":["TransientError"],"IntervalSeconds":1,"BackoffRate":3,"MaxAttempts":3,"MaxDelaySeconds":5}]`,
			errs:      []error{transient, transient, transient},
			wantSleep: []float64{1, 3, 5},
			wantCalls: 4,
			want:      `{"ok":true}`,
		},
		{
			name:      "FULL jitter draws each wait from the computed delay",
			retry:     `[{"ErrorEquals":["TransientError"],"IntervalSeconds":2,"BackoffRate":2,"MaxAttempts":2,"JitterStrategy":"FULL"}]`,
			errs:      []error{transient, transient},
			jitter:    func(d time.Duration) time.Duration { return d / 2 },
			wantSleep: []float64{1, 2},
			wantCalls: 3,
			want:      `{"ok":true}`,
		},
		{
			name:      "each retrier counts its own attempts",
			retry:     `[{"ErrorEquals":["States.Timeout"],"IntervalSeconds":5,"MaxAttempts":1},{"ErrorEquals":["TransientError"],"IntervalSeconds":1,"MaxAttempts":1}]`,
			errs:      []error{&Error{Name: ErrTimeout, Cause: "slow"}, transient},
			wantSleep: []float64{5, 1},
			wantCalls: 3,
			want:      `{"ok":true}`,
		},
		{
			name:      "retries exhausted fall through to Catch",
			retry:     `[{"ErrorEquals":["TransientError"],"IntervalSeconds":1,"BackoffRate":2,"MaxAttempts":2}]`,
			errs:      []error{transient, transient, transient},
			wantSleep: []float64{1, 2},
			wantCalls: 3,
			want:      `{"in":1,"err":{"Error":"TransientError","Cause":"transient: busy"}}`,
		},
		{
			name:      "MaxAttempts 0 never retries",
			retry:     `[{"ErrorEquals":["States.ALL"],"MaxAttempts":0}]`,
			errs:      []error{transient},
			wantSleep: []float64{},
			wantCalls: 1,
			want:      `{"in":1,"err":{"Error":"TransientError","Cause":"transient: busy"}}`,
		},
		{
			name:      "an error no retrier names is caught at once",
			retry:     `[{"ErrorEquals":["TransientError"]}]`,
			errs:      []error{InvalidInputError{Msg: "encrypted"}},
			wantSleep: []float64{},
			wantCalls: 1,
			want:      `{"in":1,"err":{"Error":"InvalidInputError","Cause":"invalid input: encrypted"}}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int32
			rec := &sleeps{}
			def := mustParse(t, retryDef(tc.retry, `[{"ErrorEquals":["States.ALL"],"ResultPath":"$.err","Next":"Caught"}]`))
			out, err := Run(t.Context(), def, json.RawMessage(`{"in":1}`), Options{
				Handlers: map[string]Handler{"Fn": flaky(&calls, tc.errs...)},
				Sleep:    rec.sleep,
				Jitter:   tc.jitter,
			})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			jsonEqual(t, out, tc.want)
			if got := rec.seconds(); !reflect.DeepEqual(got, tc.wantSleep) {
				t.Errorf("sleeps %v, want %v", got, tc.wantSleep)
			}
			if calls.Load() != tc.wantCalls {
				t.Errorf("calls %d, want %d", calls.Load(), tc.wantCalls)
			}
		})
	}
}

func TestCatchMatchesByErrorName(t *testing.T) {
	catch := `[
		{"ErrorEquals":["TransientError"],"ResultPath":"$.err","Next":"Transient"},
		{"ErrorEquals":["InvalidInputError","Custom.Name"],"ResultPath":"$.err","Next":"Invalid"},
		{"ErrorEquals":["States.TaskFailed"],"ResultPath":"$.err","Next":"TaskFailed"},
		{"ErrorEquals":["States.ALL"],"ResultPath":"$.err","Next":"All"}]`
	def := mustParse(t, `{"StartAt":"T","States":{
		"T":{"Type":"Task","Resource":"${Fn}","Catch":`+catch+`,"End":true},
		"Transient":{"Type":"Pass","Result":"Transient","ResultPath":"$.by","End":true},
		"Invalid":{"Type":"Pass","Result":"Invalid","ResultPath":"$.by","End":true},
		"TaskFailed":{"Type":"Pass","Result":"TaskFailed","ResultPath":"$.by","End":true},
		"All":{"Type":"Pass","Result":"All","ResultPath":"$.by","End":true}}}`)
	tests := []struct {
		name     string
		handler  Handler
		wantBy   string
		wantName string
	}{
		{"pointer error type matches its type name", failing(&TransientError{Msg: "x"}), "Transient", "TransientError"},
		{"value error type matches its type name", failing(InvalidInputError{Msg: "x"}), "Invalid", "InvalidInputError"},
		{"an *asl.Error names itself", failing(&Error{Name: "Custom.Name", Cause: "c"}), "Invalid", "Custom.Name"},
		{"fmt.Errorf wrapping hides the type as Lambda does", failing(fmt.Errorf("ctx: %w", &TransientError{Msg: "x"})), "TaskFailed", "wrapError"},
		{"States.TaskFailed does not catch a timeout", failing(&Error{Name: ErrTimeout}), "All", ErrTimeout},
		{"a panicking handler is caught as PanicError", func(context.Context, json.RawMessage) (json.RawMessage, error) { panic("boom") }, "TaskFailed", "PanicError"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Run(t.Context(), def, json.RawMessage(`{}`), Options{Handlers: map[string]Handler{"Fn": tc.handler}})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			var got struct {
				By  string
				Err struct{ Error, Cause string }
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if got.By != tc.wantBy || got.Err.Error != tc.wantName {
				t.Errorf("caught by %s as %s, want %s as %s", got.By, got.Err.Error, tc.wantBy, tc.wantName)
			}
		})
	}
}

func TestUncaughtTaskErrorFailsTheRun(t *testing.T) {
	def := mustParse(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","Catch":[{"ErrorEquals":["Other"],"Next":"T"}],"End":true}}}`)
	_, err := Run(t.Context(), def, nil, Options{Handlers: map[string]Handler{"Fn": failing(&TransientError{Msg: "x"})}})
	var e *Error
	var te *TransientError
	if !errors.As(err, &e) || e.Name != "TransientError" || e.State != "T" || !errors.As(err, &te) {
		t.Fatalf("err = %#v", err)
	}
}

func TestTaskTimeoutRaisesStatesTimeout(t *testing.T) {
	def := mustParse(t, `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","TimeoutSeconds":1,
		"Catch":[{"ErrorEquals":["States.Timeout"],"Next":"Late"}],"End":true},"Late":{"Type":"Pass","Result":"late","End":true}}}`)
	release := make(chan struct{})
	defer close(release)
	// Ignores its context, as a wedged engine call would: the runner must
	// stop waiting anyway.
	stuck := func(context.Context, json.RawMessage) (json.RawMessage, error) { <-release; return nil, nil }
	start := time.Now()
	out, err := Run(t.Context(), def, nil, Options{Handlers: map[string]Handler{"Fn": stuck}})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	jsonEqual(t, out, `"late"`)
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("took %s", el)
	}
}

func TestContextCancellationStopsTheRun(t *testing.T) {
	tests := []struct {
		name string
		def  string
		opts func(started chan<- struct{}) Options
	}{
		{
			name: "while a handler that honours ctx is running",
			def:  `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","End":true}}}`,
			opts: func(started chan<- struct{}) Options {
				return Options{Handlers: map[string]Handler{"Fn": func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
					close(started)
					<-ctx.Done()
					return nil, ctx.Err()
				}}}
			},
		},
		{
			name: "during a retry wait with the real sleeper",
			def:  retryDef(`[{"ErrorEquals":["States.ALL"],"IntervalSeconds":3600}]`, `[]`),
			opts: func(started chan<- struct{}) Options {
				var once sync.Once
				return Options{Handlers: map[string]Handler{"Fn": func(context.Context, json.RawMessage) (json.RawMessage, error) {
					once.Do(func() { close(started) })
					return nil, &TransientError{}
				}}}
			},
		},
		{
			name: "inside a Map iteration",
			def: `{"StartAt":"M","States":{"M":{"Type":"Map","MaxConcurrency":2,
				"ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","End":true}}},"End":true}}}`,
			opts: func(started chan<- struct{}) Options {
				var once sync.Once
				return Options{Handlers: map[string]Handler{"Fn": func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
					once.Do(func() { close(started) })
					<-ctx.Done()
					return nil, ctx.Err()
				}}}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			started := make(chan struct{})
			errc := make(chan error, 1)
			go func() {
				_, err := Run(ctx, mustParse(t, tc.def), json.RawMessage(`[1,2,3,4]`), tc.opts(started))
				errc <- err
			}()
			<-started
			cancel()
			select {
			case err := <-errc:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Run did not stop after cancel")
			}
		})
	}
}

func TestOnStateReportsEachStateEntered(t *testing.T) {
	def := mustParse(t, `{"StartAt":"A","States":{"A":{"Type":"Pass","Next":"M"},
		"M":{"Type":"Map","ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","End":true}}},"End":true}}}`)
	var mu sync.Mutex
	var seen []string
	var calls atomic.Int32
	_, err := Run(t.Context(), def, json.RawMessage(`[1]`), Options{
		Handlers: map[string]Handler{"Fn": flaky(&calls, &TransientError{})},
		Sleep:    (&sleeps{}).sleep,
		OnState: func(e StateEvent) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, fmt.Sprintf("%s/%s/%d/%d", e.Name, e.Type, e.Index, e.Attempt))
		},
	})
	if err == nil {
		t.Fatal("want the Task's error: it has no Retry")
	}
	want := []string{"A/Pass/-1/0", "M/Map/-1/0", "T/Task/0/0"}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("events %v, want %v", seen, want)
	}
}

func TestRunRefusesMissingHandlers(t *testing.T) {
	def := mustParse(t, `{"StartAt":"M","States":{"M":{"Type":"Map","ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Inner}","End":true}}},"Next":"O"},
		"O":{"Type":"Task","Resource":"${Outer}","End":true}}}`)
	if got := def.Resources(); !reflect.DeepEqual(got, []string{"Inner", "Outer"}) {
		t.Errorf("Resources() = %v", got)
	}
	var called atomic.Bool
	_, err := Run(t.Context(), def, json.RawMessage(`[]`), Options{Handlers: map[string]Handler{"Outer": func(context.Context, json.RawMessage) (json.RawMessage, error) {
		called.Store(true)
		return nil, nil
	}}})
	if err == nil || !strings.Contains(err.Error(), "Inner") {
		t.Errorf("err = %v, want a missing handler named Inner", err)
	}
	if called.Load() {
		t.Error("a handler ran before the missing one was reported")
	}
}

func TestParseRefusesWhatTheRunnerDoesNotImplement(t *testing.T) {
	task := func(extra string) string {
		return `{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}",` + extra + `"End":true}}}`
	}
	tests := []struct {
		name, def, wantInError string
	}{
		{"unknown state type", `{"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":1,"End":true}}}`, `state type "Wait"`},
		{"parallel state", `{"StartAt":"P","States":{"P":{"Type":"Parallel","Branches":[],"End":true}}}`, `"Parallel"`},
		{"unknown field on a task", task(`"HeartbeatSeconds":5,`), "HeartbeatSeconds"},
		{"Map field on a task", task(`"ItemsPath":"$.x",`), "ItemsPath"},
		{"misspelt field", task(`"Paramaters":{},`), "Paramaters"},
		{"unknown top-level field", `{"StartAt":"S","Foo":1,"States":{"S":{"Type":"Succeed"}}}`, "Foo"},
		{"unknown Retry field", task(`"Retry":[{"ErrorEquals":["X"],"Backoff":2}],`), "Backoff"},
		{"unknown Catch field", task(`"Catch":[{"ErrorEquals":["X"],"Next":"T","Output":1}],`), "Output"},
		{"unknown Choice operator", `{"StartAt":"C","States":{"C":{"Type":"Choice","Choices":[{"Variable":"$.a","StringMatches":"x*","Next":"S"}]},"S":{"Type":"Succeed"}}}`, "StringMatches"},
		{"intrinsic function", task(`"Parameters":{"a.$":"States.Format('{}', $.x)"},`), "intrinsic"},
		{"wildcard path", task(`"InputPath":"$.a[*]",`), "[n]"},
		{"JSONata", `{"QueryLanguage":"JSONata","StartAt":"S","States":{"S":{"Type":"Succeed"}}}`, "JSONPath"},
		{"distributed map", `{"StartAt":"M","States":{"M":{"Type":"Map","ItemProcessor":{"ProcessorConfig":{"Mode":"DISTRIBUTED","ExecutionType":"STANDARD"},"StartAt":"S","States":{"S":{"Type":"Succeed"}}},"End":true}}}`, "INLINE"},
		{"transition to an unknown state", `{"StartAt":"P","States":{"P":{"Type":"Pass","Next":"Nowhere"}}}`, "Nowhere"},
		{"state without Next or End", `{"StartAt":"P","States":{"P":{"Type":"Pass"}}}`, "Next or End"},
		{"StartAt not a state", `{"StartAt":"X","States":{"P":{"Type":"Succeed"}}}`, `"X"`},
		{"States.ALL not alone", task(`"Catch":[{"ErrorEquals":["States.ALL","X"],"Next":"T"}],`), "alone"},
		{"task without Resource", `{"StartAt":"T","States":{"T":{"Type":"Task","End":true}}}`, "Resource"},
		{"not JSON", `{"StartAt":`, "parse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.def))
			if err == nil {
				t.Fatal("Parse accepted it")
			}
			if !strings.Contains(err.Error(), tc.wantInError) {
				t.Errorf("error %q does not mention %q", err, tc.wantInError)
			}
		})
	}
}

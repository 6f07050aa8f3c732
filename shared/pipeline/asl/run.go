package asl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"
)

// Handler runs one Task: the same function a Lambda wraps in AWS.
type Handler func(ctx context.Context, input json.RawMessage) (json.RawMessage, error)

// StateEvent tells Options.OnState that a state was entered.
type StateEvent struct {
	Name    string // state name, e.g. "Recognize"
	Type    string // "Task", "Map", …
	Index   int    // index of the Map item this state runs for; -1 outside any Map
	Attempt int    // 0 on entry, then 1, 2, … for each retry of a Task or Map
}

// Options wire a run to the app.
type Options struct {
	// Handlers maps each Task Resource to its Go handler. A `${Name}`
	// substitution is looked up as Name (e.g. "RenderFunctionArn"); any other
	// Resource string as written.
	Handlers map[string]Handler
	// Sleep waits between retries; nil sleeps for real. Tests inject a
	// recorder so backoff is checked without waiting.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter picks the actual wait for a JitterStrategy FULL retry, given the
	// computed delay; nil picks uniformly in [0, d] as Step Functions does.
	Jitter func(d time.Duration) time.Duration
	// OnState, if set, is called as each state is entered, from the goroutine
	// running it: Map iterations call it concurrently.
	OnState func(StateEvent)
	// ExecutionName is $$.Execution.Name (and the last part of
	// $$.Execution.Id); empty names the run "local".
	ExecutionName string
}

type taskStateKey struct{}

// TaskState is the name of the Task state whose handler was given ctx
// ("" outside one): handlers shared by several states can tell them apart.
func TaskState(ctx context.Context) string {
	name, _ := ctx.Value(taskStateKey{}).(string)
	return name
}

// Run executes def on input and returns the final output. It fails with an
// *Error for a Fail state or an error no Catch handled, and with the
// context's error when ctx ends first.
func Run(ctx context.Context, def *Definition, input json.RawMessage, opts Options) (json.RawMessage, error) {
	var missing []string
	for _, r := range def.Resources() {
		if opts.Handlers[r] == nil {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("asl: no handler for resource(s) %s", strings.Join(missing, ", "))
	}
	var in any = map[string]any{}
	if len(input) > 0 {
		if err := unmarshal(input, &in); err != nil {
			return nil, fmt.Errorf("asl: run input: %w", err)
		}
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	if opts.Jitter == nil {
		opts.Jitter = func(d time.Duration) time.Duration { return rand.N(d + 1) }
	}
	if opts.ExecutionName == "" {
		opts.ExecutionName = "local"
	}
	r := &runner{opts: opts, execInput: in}

	runCtx := ctx
	if def.timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, def.timeout)
		defer cancel()
	}
	out, err := r.runMachine(runCtx, def.root, in, -1)
	if err != nil {
		if ctx.Err() == nil && runCtx.Err() != nil {
			return nil, &Error{Name: ErrTimeout, Cause: fmt.Sprintf("execution ran longer than %s", def.timeout)}
		}
		return nil, err
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("asl: encode output: %w", err)
	}
	return b, nil
}

type runner struct {
	opts      Options
	execInput any
}

func (r *runner) runMachine(ctx context.Context, m *machine, input any, index int) (any, error) {
	name := m.startAt
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := m.states[name]
		out, next, err := r.runState(ctx, s, input, index)
		if err != nil {
			return nil, err
		}
		if next == "" {
			return out, nil
		}
		name, input = next, out
	}
}

// runState returns the state's output and the next state ("" to stop).
func (r *runner) runState(ctx context.Context, s *state, input any, index int) (any, string, error) {
	r.notify(s, index, 0)
	switch s.typ {
	case "Task", "Map":
		return r.runRecoverable(ctx, s, input, index)
	case "Pass":
		out, err := r.passThrough(s, input, func(effective any) (any, error) {
			if s.hasResult {
				return s.result, nil
			}
			return effective, nil
		})
		return out, s.next, err
	case "Succeed":
		out, err := r.passThrough(s, input, nil)
		return out, "", err
	case "Choice":
		return r.choose(s, input)
	case "Fail":
		return nil, "", r.fail(s, input)
	}
	return nil, "", runtimeError(s.name, "state type %s", s.typ) // unreachable: Parse refuses it
}

func (r *runner) notify(s *state, index, attempt int) {
	if r.opts.OnState != nil {
		r.opts.OnState(StateEvent{Name: s.name, Type: s.typ, Index: index, Attempt: attempt})
	}
}

func (r *runner) context(s *state) map[string]any {
	return map[string]any{
		"Execution": map[string]any{
			"Input": r.execInput,
			"Name":  r.opts.ExecutionName,
			"Id":    "arn:aws:states:local:000000000000:execution:ingest:" + r.opts.ExecutionName,
		},
		"State": map[string]any{"Name": s.name},
	}
}

// passThrough applies the input/output filters around body, the order Step
// Functions uses: InputPath, Parameters, body, ResultSelector, ResultPath,
// OutputPath. body nil means the state has no result (Succeed).
func (r *runner) passThrough(s *state, raw any, body func(effective any) (any, error)) (any, error) {
	ctxObj := r.context(s)
	effective, err := applyFilterPath(s, "InputPath", s.inputPath, raw, ctxObj)
	if err != nil {
		return nil, err
	}
	if s.parameters != nil {
		if effective, err = s.parameters.eval(effective, ctxObj); err != nil {
			return nil, &Error{Name: ErrParameterPath, Cause: err.Error(), State: s.name}
		}
	}
	result := effective
	if body != nil {
		if result, err = body(effective); err != nil {
			return nil, err
		}
		if s.resultSelector != nil {
			if result, err = s.resultSelector.eval(result, ctxObj); err != nil {
				return nil, &Error{Name: ErrParameterPath, Cause: "ResultSelector: " + err.Error(), State: s.name}
			}
		}
		if result, err = applyResultPath(s.name, s.resultPath, raw, result); err != nil {
			return nil, err
		}
	}
	return applyFilterPath(s, "OutputPath", s.outputPath, result, ctxObj)
}

// applyFilterPath handles InputPath and OutputPath: absent keeps the value,
// null gives {}, a path selects (a missing path fails the run).
func applyFilterPath(s *state, field string, p optPath, v any, ctxObj any) (any, error) {
	switch {
	case p.null:
		return map[string]any{}, nil
	case p.p == nil:
		return v, nil
	}
	out, ok := p.p.get(v, ctxObj)
	if !ok {
		return nil, runtimeError(s.name, "%s %s not found in input", field, p.p.text)
	}
	return out, nil
}

// applyResultPath places result into the state's raw input: absent or `$`
// replaces it, null discards the result and keeps the input.
func applyResultPath(stateName string, p optPath, raw, result any) (any, error) {
	switch {
	case p.null:
		return raw, nil
	case p.p == nil:
		return result, nil
	}
	out, err := p.p.set(raw, result)
	if err != nil {
		return nil, &Error{Name: ErrResultPathMatch, Cause: err.Error(), State: stateName}
	}
	return out, nil
}

func (r *runner) choose(s *state, raw any) (any, string, error) {
	ctxObj := r.context(s)
	effective, err := applyFilterPath(s, "InputPath", s.inputPath, raw, ctxObj)
	if err != nil {
		return nil, "", err
	}
	next := s.defaultNext
	for _, c := range s.choices {
		ok, err := c.eval(effective, ctxObj)
		if err != nil {
			return nil, "", runtimeError(s.name, "%v", err)
		}
		if ok {
			next = c.next
			break
		}
	}
	if next == "" {
		return nil, "", &Error{Name: ErrNoChoiceMatched, Cause: "no choice rule matched and there is no Default", State: s.name}
	}
	out, err := applyFilterPath(s, "OutputPath", s.outputPath, effective, ctxObj)
	return out, next, err
}

func (r *runner) fail(s *state, raw any) error {
	e := &Error{Name: s.errName, Cause: s.cause, State: s.name}
	for _, f := range []struct {
		p   *path
		dst *string
	}{{s.errorPath, &e.Name}, {s.causePath, &e.Cause}} {
		if f.p == nil {
			continue
		}
		v, ok := f.p.get(raw, r.context(s))
		str, isStr := v.(string)
		if !ok || !isStr {
			return runtimeError(s.name, "%s does not select a string", f.p.text)
		}
		*f.dst = str
	}
	if e.Name == "" {
		e.Name = "States.Fail" // the spec leaves a Fail without Error unnamed; give callers something to match
	}
	return e
}

// runRecoverable runs a Task or Map with its Retry and Catch.
func (r *runner) runRecoverable(ctx context.Context, s *state, raw any, index int) (any, string, error) {
	attempts := make([]int, len(s.retry))
	for total := 0; ; total++ {
		if total > 0 {
			r.notify(s, index, total)
		}
		out, err := r.passThrough(s, raw, func(effective any) (any, error) {
			if s.typ == "Map" {
				return r.runMap(ctx, s, effective)
			}
			return r.invoke(ctx, s, effective)
		})
		if err == nil {
			return out, s.next, nil
		}
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		var e *Error
		if !errors.As(err, &e) {
			return nil, "", err
		}
		if e.Name == ErrRuntime {
			// Step Functions never retries or catches States.Runtime.
			return nil, "", err
		}
		if i := slices.IndexFunc(s.retry, func(rt retrier) bool { return matches(rt.errorEquals, e.Name) }); i >= 0 && attempts[i] < s.retry[i].maxAttempts {
			if err := r.opts.Sleep(ctx, r.delay(s.retry[i], attempts[i])); err != nil {
				return nil, "", err
			}
			attempts[i]++
			continue
		}
		for _, c := range s.catch {
			if !matches(c.errorEquals, e.Name) {
				continue
			}
			out, perr := applyResultPath(s.name, c.resultPath, raw, map[string]any{"Error": e.Name, "Cause": e.Cause})
			if perr != nil {
				return nil, "", runtimeError(s.name, "Catch: %v", perr)
			}
			return out, c.next, nil
		}
		return nil, "", err
	}
}

// delay is IntervalSeconds × BackoffRate^attempt, capped by MaxDelaySeconds,
// then drawn from [0, delay] under FULL jitter.
func (r *runner) delay(rt retrier, attempt int) time.Duration {
	d := time.Duration(float64(rt.interval) * math.Pow(rt.backoffRate, float64(attempt)))
	if rt.maxDelay > 0 && d > rt.maxDelay {
		d = rt.maxDelay
	}
	if rt.fullJitter {
		d = r.opts.Jitter(d)
	}
	return d
}

// matches reports whether an ErrorEquals list catches name. States.ALL
// catches everything (Runtime is filtered earlier); States.TaskFailed
// everything but States.Timeout.
func matches(errorEquals []string, name string) bool {
	for _, want := range errorEquals {
		switch {
		case want == name, want == ErrAll:
			return true
		case want == ErrTaskFailed && name != ErrTimeout:
			return true
		}
	}
	return false
}

// invoke calls the handler as Lambda would: bounded by TimeoutSeconds, and
// abandoned (not waited for) when the deadline or the run's context ends, so
// a handler that ignores ctx cannot hang the run. A panic becomes a task
// error rather than taking the whole local server down.
func (r *runner) invoke(ctx context.Context, s *state, effective any) (any, error) {
	in, err := json.Marshal(effective)
	if err != nil {
		return nil, runtimeError(s.name, "encode task input: %v", err)
	}
	taskCtx, cancel := ctx, context.CancelFunc(func() {})
	if s.timeout > 0 {
		taskCtx, cancel = context.WithTimeout(ctx, s.timeout)
	}
	defer cancel()

	type reply struct {
		out json.RawMessage
		err error
	}
	done := make(chan reply, 1)
	h := r.opts.Handlers[s.resource]
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- reply{err: &Error{Name: errHandlerPanicked, Cause: fmt.Sprint(p)}}
			}
		}()
		out, err := h(context.WithValue(taskCtx, taskStateKey{}, s.name), in)
		done <- reply{out, err}
	}()

	var rep reply
	select {
	case rep = <-done:
	case <-taskCtx.Done():
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &Error{Name: ErrTimeout, Cause: fmt.Sprintf("task ran longer than %s", s.timeout), State: s.name}
	}
	if rep.err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if s.timeout > 0 && errors.Is(rep.err, context.DeadlineExceeded) && taskCtx.Err() != nil {
			return nil, &Error{Name: ErrTimeout, Cause: fmt.Sprintf("task ran longer than %s", s.timeout), State: s.name, Err: rep.err}
		}
		return nil, taskError(s.name, rep.err)
	}
	var out any
	if len(rep.out) > 0 {
		if err := unmarshal(rep.out, &out); err != nil {
			return nil, &Error{Name: ErrTaskFailed, Cause: "handler returned invalid JSON: " + err.Error(), State: s.name}
		}
	}
	return out, nil
}

// runMap runs the item processor once per item, at most MaxConcurrency at a
// time (0: no bound), and returns the results in item order. The first
// failing iteration cancels the rest and fails the Map with its error.
func (r *runner) runMap(ctx context.Context, s *state, effective any) (any, error) {
	itemsVal := effective
	if s.itemsPath.p != nil {
		v, ok := s.itemsPath.p.get(effective, r.context(s))
		if !ok {
			return nil, runtimeError(s.name, "ItemsPath %s not found in input", s.itemsPath.p.text)
		}
		itemsVal = v
	}
	items, ok := itemsVal.([]any)
	if !ok {
		return nil, runtimeError(s.name, "ItemsPath selects a %s, not an array", jsonKind(itemsVal))
	}
	limit := s.maxConcurrency
	if s.maxConcPath != nil {
		v, ok := s.maxConcPath.get(effective, r.context(s))
		f, isNum := toFloat(v)
		if !ok || !isNum || f < 0 || f != math.Trunc(f) {
			return nil, runtimeError(s.name, "MaxConcurrencyPath %s must select a non-negative integer", s.maxConcPath.text)
		}
		limit = int(f)
	}
	if limit <= 0 || limit > len(items) {
		limit = len(items)
	}

	mapCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]any, len(items))
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	sem := make(chan struct{}, max(limit, 1))
launch:
	for i, item := range items {
		select {
		case sem <- struct{}{}:
		case <-mapCtx.Done():
			break launch
		}
		wg.Go(func() {
			defer func() { <-sem }()
			out, err := r.iterate(mapCtx, s, effective, i, item)
			if err == nil {
				results[i] = out
				return
			}
			mu.Lock()
			// Keep the failing iteration's own error, not the cancellations
			// it causes in its siblings.
			if firstErr == nil || (errors.Is(firstErr, context.Canceled) && !errors.Is(err, context.Canceled)) {
				firstErr = err
			}
			mu.Unlock()
			cancel()
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return results, nil
}

func (r *runner) iterate(ctx context.Context, s *state, effective any, index int, item any) (any, error) {
	input := item
	if s.itemSelector != nil {
		ctxObj := r.context(s)
		ctxObj["Map"] = map[string]any{"Item": map[string]any{"Index": index, "Value": item}}
		v, err := s.itemSelector.eval(effective, ctxObj)
		if err != nil {
			return nil, &Error{Name: ErrParameterPath, Cause: "ItemSelector: " + err.Error(), State: s.name}
		}
		input = v
	}
	return r.runMachine(ctx, s.processor, input, index)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

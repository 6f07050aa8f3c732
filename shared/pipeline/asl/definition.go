package asl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// Definition is a parsed state machine, ready to Run any number of times
// (concurrently, too: it is never modified after Parse).
type Definition struct {
	root    *machine
	timeout time.Duration
}

type machine struct {
	startAt string
	states  map[string]*state
}

type state struct {
	name, typ string
	next      string
	end       bool

	inputPath, outputPath, resultPath optPath
	parameters, resultSelector        *template

	// Task
	resource string // the handler key: `${X}` is looked up as X
	timeout  time.Duration
	retry    []retrier
	catch    []catcher

	// Pass
	result    any
	hasResult bool

	// Choice
	choices     []*rule
	defaultNext string

	// Fail
	errName, cause       string
	errorPath, causePath *path

	// Map
	itemsPath      optPath
	itemSelector   *template
	maxConcurrency int
	maxConcPath    *path
	processor      *machine
}

type retrier struct {
	errorEquals []string
	interval    time.Duration
	maxAttempts int
	backoffRate float64
	maxDelay    time.Duration // 0: no cap
	fullJitter  bool
}

type catcher struct {
	errorEquals []string
	resultPath  optPath
	next        string
}

// allowedFields lists the fields each state type may carry. Anything else is
// refused so a definition never relies on behaviour the runner would skip.
func allowedFields(typ string) []string {
	common := []string{"Type", "Comment", "QueryLanguage"}
	flow := []string{"Next", "End", "InputPath", "OutputPath"}
	switch typ {
	case "Task":
		return slices.Concat(common, flow, []string{"Resource", "Parameters", "ResultSelector", "ResultPath", "Retry", "Catch", "TimeoutSeconds"})
	case "Pass":
		return slices.Concat(common, flow, []string{"Result", "Parameters", "ResultPath"})
	case "Map":
		return slices.Concat(common, flow, []string{"ItemsPath", "ItemSelector", "Parameters", "MaxConcurrency", "MaxConcurrencyPath",
			"ItemProcessor", "Iterator", "ResultSelector", "ResultPath", "Retry", "Catch"})
	case "Choice":
		return slices.Concat(common, []string{"Choices", "Default", "InputPath", "OutputPath"})
	case "Succeed":
		return slices.Concat(common, []string{"InputPath", "OutputPath"})
	case "Fail":
		return slices.Concat(common, []string{"Error", "Cause", "ErrorPath", "CausePath"})
	}
	return nil
}

// Parse reads an Amazon States Language definition (JSONPath flavour) and
// refuses, with the offending state and field named, anything the runner
// does not implement: unknown state types (Wait, Parallel), unknown fields,
// intrinsic functions, JSONata, distributed Map.
func Parse(data []byte) (*Definition, error) {
	var top map[string]json.RawMessage
	if err := unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("asl: parse definition: %w", err)
	}
	if err := checkFields("definition", top, []string{"Comment", "StartAt", "States", "TimeoutSeconds", "Version", "QueryLanguage"}); err != nil {
		return nil, err
	}
	if err := checkQueryLanguage("definition", top); err != nil {
		return nil, err
	}
	root, err := parseMachine("definition", top)
	if err != nil {
		return nil, err
	}
	// The spec makes state names unique across the whole machine, nested
	// ItemProcessors included; each machine here has its own map, so a clash
	// between levels would otherwise pass unnoticed.
	seen := map[string]bool{}
	var dup string
	root.each(func(s *state) {
		if seen[s.name] && dup == "" {
			dup = s.name
		}
		seen[s.name] = true
	})
	if dup != "" {
		return nil, fmt.Errorf("asl: state %q: state names must be unique across the whole state machine", dup)
	}
	d := &Definition{root: root}
	if raw, ok := top["TimeoutSeconds"]; ok {
		var s int
		if err := unmarshal(raw, &s); err != nil || s <= 0 {
			return nil, errors.New("asl: definition: TimeoutSeconds must be a positive integer")
		}
		d.timeout = time.Duration(s) * time.Second
	}
	return d, nil
}

// Resources lists the handler keys the definition's Task states need, sorted,
// so an app can check its registry before the first run.
func (d *Definition) Resources() []string {
	seen := map[string]bool{}
	d.root.each(func(s *state) {
		if s.typ == "Task" {
			seen[s.resource] = true
		}
	})
	return slices.Sorted(maps.Keys(seen))
}

// each calls fn for every state of m, then of the machines nested in its Map
// states, in name order so that what Parse reports first does not vary.
func (m *machine) each(fn func(*state)) {
	for _, name := range slices.Sorted(maps.Keys(m.states)) {
		s := m.states[name]
		fn(s)
		if s.processor != nil {
			s.processor.each(fn)
		}
	}
}

func parseMachine(where string, raw map[string]json.RawMessage) (*machine, error) {
	m := &machine{states: map[string]*state{}}
	if err := unmarshal(raw["StartAt"], &m.startAt); err != nil || m.startAt == "" {
		return nil, fmt.Errorf("asl: %s: StartAt must be a state name", where)
	}
	var states map[string]json.RawMessage
	if err := unmarshal(raw["States"], &states); err != nil || len(states) == 0 {
		return nil, fmt.Errorf("asl: %s: States must be a non-empty object", where)
	}
	// In name order, so the error reported for a definition is always the same.
	for _, name := range slices.Sorted(maps.Keys(states)) {
		if n := utf8.RuneCountInString(name); n == 0 || n > 80 {
			return nil, fmt.Errorf("asl: state %q: a state name must be 1 to 80 characters", name)
		}
		s, err := parseState(name, states[name])
		if err != nil {
			return nil, err
		}
		m.states[name] = s
	}
	if _, ok := m.states[m.startAt]; !ok {
		return nil, fmt.Errorf("asl: %s: StartAt %q is not a state", where, m.startAt)
	}
	terminal := false
	for _, name := range slices.Sorted(maps.Keys(m.states)) {
		s := m.states[name]
		targets := []string{s.next, s.defaultNext}
		for _, c := range s.catch {
			targets = append(targets, c.next)
		}
		for _, r := range s.choices {
			targets = append(targets, r.next)
		}
		for _, t := range targets {
			if _, ok := m.states[t]; t != "" && !ok {
				return nil, fmt.Errorf("asl: state %q: transition to unknown state %q", s.name, t)
			}
		}
		terminal = terminal || s.end || s.typ == "Succeed" || s.typ == "Fail"
	}
	// Step Functions refuses such a machine (MISSING_END_STATE); run locally
	// it could only loop until it failed.
	if !terminal {
		return nil, fmt.Errorf("asl: %s: no terminal state (End, Succeed or Fail)", where)
	}
	return m, nil
}

func parseState(name string, body json.RawMessage) (*state, error) {
	var f map[string]json.RawMessage
	if err := unmarshal(body, &f); err != nil {
		return nil, fmt.Errorf("asl: state %q: a state must be a JSON object", name)
	}
	s := &state{name: name}
	if err := unmarshal(f["Type"], &s.typ); err != nil {
		return nil, fmt.Errorf("asl: state %q: Type must be a string", name)
	}
	allowed := allowedFields(s.typ)
	if allowed == nil {
		return nil, fmt.Errorf("asl: state %q: state type %q is not supported by the local runner", name, s.typ)
	}
	where := fmt.Sprintf("state %q", name)
	if err := checkFields(where, f, allowed); err != nil {
		return nil, err
	}
	if err := checkQueryLanguage(where, f); err != nil {
		return nil, err
	}
	p := fieldParser{where: where, f: f}
	p.str("Next", &s.next)
	p.boolean("End", &s.end)
	s.inputPath = p.optPath("InputPath")
	s.outputPath = p.optPath("OutputPath")
	s.resultPath = p.optPath("ResultPath")
	s.parameters = p.template("Parameters")
	s.resultSelector = p.template("ResultSelector")
	if p.err != nil {
		return nil, p.err
	}

	switch s.typ {
	case "Task":
		var res string
		p.str("Resource", &res)
		if res == "" && p.err == nil {
			p.fail("Resource is required")
		}
		s.resource = handlerKey(res)
		var secs int
		p.integer("TimeoutSeconds", &secs)
		if _, ok := f["TimeoutSeconds"]; ok && secs == 0 {
			// 0 would silently mean "no timeout"; the spec wants a positive integer.
			p.fail("TimeoutSeconds must be a positive integer")
		}
		s.timeout = time.Duration(secs) * time.Second
		s.retry = p.retriers()
		s.catch = p.catchers()
	case "Pass":
		if raw, ok := f["Result"]; ok {
			s.hasResult = true
			p.err = unmarshal(raw, &s.result)
		}
	case "Map":
		s.itemsPath = p.optPath("ItemsPath")
		s.itemSelector = p.template("ItemSelector")
		// The spec forbids each pair; taking one silently would run a
		// definition Step Functions refuses.
		p.atMostOne("ItemSelector", "Parameters")
		p.atMostOne("MaxConcurrency", "MaxConcurrencyPath")
		if s.itemSelector == nil {
			// Parameters is the older spelling of ItemSelector on a Map.
			s.itemSelector, s.parameters = s.parameters, nil
		}
		p.integer("MaxConcurrency", &s.maxConcurrency)
		if raw, ok := f["MaxConcurrencyPath"]; ok {
			s.maxConcPath = p.path("MaxConcurrencyPath", raw)
		}
		s.processor = p.processor()
		s.retry = p.retriers()
		s.catch = p.catchers()
	case "Choice":
		s.choices = p.choices()
		p.str("Default", &s.defaultNext)
	case "Fail":
		p.atMostOne("Error", "ErrorPath")
		p.atMostOne("Cause", "CausePath")
		p.str("Error", &s.errName)
		p.str("Cause", &s.cause)
		if raw, ok := f["ErrorPath"]; ok {
			s.errorPath = p.path("ErrorPath", raw)
		}
		if raw, ok := f["CausePath"]; ok {
			s.causePath = p.path("CausePath", raw)
		}
	}
	if p.err != nil {
		return nil, p.err
	}

	terminal := s.typ == "Choice" || s.typ == "Succeed" || s.typ == "Fail"
	switch {
	case !terminal && s.next == "" && !s.end:
		return nil, fmt.Errorf("asl: state %q: needs Next or End", name)
	case s.next != "" && s.end:
		return nil, fmt.Errorf("asl: state %q: has both Next and End", name)
	}
	return s, nil
}

// handlerKey maps a Resource to its registry key: SAM substitutions
// (`${RenderFunctionArn}`) by their name, anything else as written.
func handlerKey(resource string) string {
	if k, ok := strings.CutPrefix(resource, "${"); ok {
		if k, ok = strings.CutSuffix(k, "}"); ok {
			return k
		}
	}
	return resource
}

func checkFields(where string, f map[string]json.RawMessage, allowed []string) error {
	var unknown []string
	for k := range f {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	switch sort.Strings(unknown); len(unknown) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("asl: %s: field %s is not supported by the local runner", where, unknown[0])
	}
	return fmt.Errorf("asl: %s: fields %s are not supported by the local runner", where, strings.Join(unknown, ", "))
}

func checkQueryLanguage(where string, f map[string]json.RawMessage) error {
	raw, ok := f["QueryLanguage"]
	if !ok {
		return nil
	}
	var ql string
	if err := unmarshal(raw, &ql); err != nil || ql != "JSONPath" {
		return fmt.Errorf("asl: %s: only QueryLanguage JSONPath is supported", where)
	}
	return nil
}

// unmarshal decodes with UseNumber so integers such as page numbers and
// sizes survive the round trip through the runner exactly.
func unmarshal(data []byte, v any) error {
	if len(data) == 0 {
		return errors.New("missing")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after JSON value")
	}
	return nil
}

// fieldParser reads typed fields of one state, keeping the first error so
// parseState reads straight through.
type fieldParser struct {
	where string
	f     map[string]json.RawMessage
	err   error
}

func (p *fieldParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("asl: %s: %s", p.where, fmt.Sprintf(format, args...))
	}
}

// atMostOne refuses a state that gives both of two exclusive fields.
func (p *fieldParser) atMostOne(a, b string) {
	_, hasA := p.f[a]
	if _, hasB := p.f[b]; hasA && hasB {
		p.fail("give %s or %s, not both", a, b)
	}
}

func (p *fieldParser) decode(key string, v any) bool {
	raw, ok := p.f[key]
	if !ok || p.err != nil {
		return false
	}
	if err := json.Unmarshal(raw, v); err != nil {
		p.fail("%s: %v", key, err)
		return false
	}
	return true
}

func (p *fieldParser) str(key string, v *string)   { p.decode(key, v) }
func (p *fieldParser) boolean(key string, v *bool) { p.decode(key, v) }
func (p *fieldParser) integer(key string, v *int) {
	if p.decode(key, v) && *v < 0 {
		p.fail("%s must not be negative", key)
	}
}

func (p *fieldParser) path(key string, raw json.RawMessage) *path {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		p.fail("%s must be a path string", key)
		return nil
	}
	pp, err := parsePath(s)
	if err != nil {
		p.fail("%s: %v", key, err)
	}
	return pp
}

func (p *fieldParser) optPath(key string) optPath {
	raw, ok := p.f[key]
	if !ok || p.err != nil {
		return optPath{}
	}
	if string(bytes.TrimSpace(raw)) == "null" {
		return optPath{null: true}
	}
	pp := p.path(key, raw)
	if pp != nil && key == "ResultPath" {
		switch {
		case pp.context:
			p.fail("ResultPath cannot point into the context object")
		case slices.ContainsFunc(pp.steps, func(s step) bool { return s.isIdx }):
			// Refused here rather than failing every run at the first write.
			p.fail("ResultPath %s: array indexes are not supported by the local runner", pp.text)
		}
	}
	return optPath{p: pp}
}

func (p *fieldParser) template(key string) *template {
	raw, ok := p.f[key]
	if !ok || p.err != nil {
		return nil
	}
	var v any
	if err := unmarshal(raw, &v); err != nil {
		p.fail("%s: %v", key, err)
		return nil
	}
	if _, isObj := v.(map[string]any); !isObj {
		p.fail("%s must be an object", key)
		return nil
	}
	t, err := compileTemplate(v)
	if err != nil {
		p.fail("%s: %v", key, err)
	}
	return t
}

// errorEquals checks one Retrier's or Catcher's ErrorEquals; where is
// "Retry[i]" or "Catch[i]", last whether it is the array's final element.
func (p *fieldParser) errorEquals(where string, names []string, last bool) {
	if len(names) == 0 {
		p.fail("%s: ErrorEquals must not be empty", where)
	}
	if slices.Contains(names, ErrAll) {
		if len(names) > 1 {
			p.fail("%s: %s must appear alone in ErrorEquals", where, ErrAll)
		}
		// The spec also puts it last: anything after it could never match.
		if !last {
			field, _, _ := strings.Cut(where, "[")
			p.fail("%s: %s must be in the last element of %s", where, ErrAll, field)
		}
	}
}

func (p *fieldParser) retriers() []retrier {
	var raws []map[string]json.RawMessage
	if !p.decode("Retry", &raws) {
		return nil
	}
	out := make([]retrier, 0, len(raws))
	for i, raw := range raws {
		where := fmt.Sprintf("Retry[%d]", i)
		if err := checkFields(p.where+" "+where, raw, []string{"ErrorEquals", "IntervalSeconds", "MaxAttempts", "BackoffRate", "MaxDelaySeconds", "JitterStrategy", "Comment"}); err != nil {
			p.err = err
			return nil
		}
		var r struct {
			ErrorEquals     []string
			IntervalSeconds *float64
			MaxAttempts     *int
			BackoffRate     *float64
			MaxDelaySeconds float64
			JitterStrategy  string
		}
		body, _ := json.Marshal(raw)
		if err := json.Unmarshal(body, &r); err != nil {
			p.fail("%s: %v", where, err)
			return nil
		}
		p.errorEquals(where, r.ErrorEquals, i == len(raws)-1)
		// Defaults from the States Language spec.
		rt := retrier{errorEquals: r.ErrorEquals, interval: time.Second, maxAttempts: 3, backoffRate: 2}
		if r.IntervalSeconds != nil {
			rt.interval = time.Duration(*r.IntervalSeconds * float64(time.Second))
		}
		if r.MaxAttempts != nil {
			rt.maxAttempts = *r.MaxAttempts
		}
		if r.BackoffRate != nil {
			rt.backoffRate = *r.BackoffRate
		}
		rt.maxDelay = time.Duration(r.MaxDelaySeconds * float64(time.Second))
		switch r.JitterStrategy {
		case "", "NONE":
		case "FULL":
			rt.fullJitter = true
		default:
			p.fail("%s: JitterStrategy %q is not FULL or NONE", where, r.JitterStrategy)
		}
		switch {
		case rt.interval <= 0:
			p.fail("%s: IntervalSeconds must be positive", where)
		case rt.maxAttempts < 0:
			p.fail("%s: MaxAttempts must not be negative", where)
		case rt.backoffRate < 1:
			p.fail("%s: BackoffRate must be at least 1", where)
		case rt.maxDelay < 0:
			p.fail("%s: MaxDelaySeconds must not be negative", where)
		}
		out = append(out, rt)
	}
	return out
}

func (p *fieldParser) catchers() []catcher {
	var raws []map[string]json.RawMessage
	if !p.decode("Catch", &raws) {
		return nil
	}
	out := make([]catcher, 0, len(raws))
	for i, raw := range raws {
		where := fmt.Sprintf("Catch[%d]", i)
		if err := checkFields(p.where+" "+where, raw, []string{"ErrorEquals", "ResultPath", "Next", "Comment"}); err != nil {
			p.err = err
			return nil
		}
		sub := fieldParser{where: p.where + " " + where, f: raw}
		var c catcher
		sub.decode("ErrorEquals", &c.errorEquals)
		sub.str("Next", &c.next)
		c.resultPath = sub.optPath("ResultPath")
		if sub.err == nil && c.next == "" {
			sub.fail("Next is required")
		}
		if sub.err != nil {
			p.err = sub.err
			return nil
		}
		if p.errorEquals(where, c.errorEquals, i == len(raws)-1); p.err != nil {
			return nil
		}
		out = append(out, c)
	}
	return out
}

func (p *fieldParser) processor() *machine {
	key := "ItemProcessor"
	raw, ok := p.f[key]
	if !ok {
		key = "Iterator"
		raw, ok = p.f[key]
	}
	if !ok {
		p.fail("Map needs ItemProcessor (or Iterator)")
		return nil
	}
	if p.atMostOne("ItemProcessor", "Iterator"); p.err != nil {
		return nil
	}
	var f map[string]json.RawMessage
	if err := unmarshal(raw, &f); err != nil {
		p.fail("%s: %v", key, err)
		return nil
	}
	where := p.where + " " + key
	allowed := []string{"StartAt", "States", "Comment"}
	if key == "ItemProcessor" {
		allowed = append(allowed, "ProcessorConfig")
	}
	if err := checkFields(where, f, allowed); err != nil {
		p.err = err
		return nil
	}
	if rawCfg, ok := f["ProcessorConfig"]; ok {
		var cfg map[string]any
		if err := json.Unmarshal(rawCfg, &cfg); err != nil || len(cfg) > 1 || (len(cfg) == 1 && cfg["Mode"] != "INLINE") {
			p.fail("%s: only ProcessorConfig {\"Mode\": \"INLINE\"} is supported", key)
			return nil
		}
	}
	m, err := parseMachine(where, f)
	if err != nil {
		p.err = err
	}
	return m
}

package asl

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// path is a compiled reference path: `$`, `$.a.b`, `$.a[0]`, or the same
// rooted at the context object (`$$.Map.Item.Value`). Filters, wildcards and
// slices are refused when the definition is parsed.
type path struct {
	text    string
	context bool
	steps   []step
}

type step struct {
	key   string
	index int
	isIdx bool
}

// contextFields are the Context Object fields the runner fills in. A `$$`
// path to any other (State.EnteredTime, Task.Token, …) would
// resolve in Step Functions but fail here at run time, so it is refused.
var contextFields = [][]string{{"Execution", "Input"}, {"Execution", "Name"}, {"Execution", "Id"}, {"State", "Name"}, {"Map", "Item", "Index"}, {"Map", "Item", "Value"}}

func parsePath(s string) (*path, error) {
	if strings.HasPrefix(s, "States.") {
		return nil, fmt.Errorf("intrinsic functions (%s) are not supported by the local runner", s)
	}
	p := &path{text: s}
	rest := s
	switch {
	case strings.HasPrefix(s, "$$"):
		p.context, rest = true, s[2:]
	case strings.HasPrefix(s, "$"):
		rest = s[1:]
	default:
		return nil, fmt.Errorf("path %q must start with $", s)
	}
	for rest != "" {
		switch rest[0] {
		case '.':
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			key := rest[:end]
			// A backslash escapes the next character in JSONPath
			// (`$.store\.book` is one field); splitting at its dot would
			// read other fields, so escapes are refused.
			if strings.Contains(key, `\`) {
				return nil, fmt.Errorf("path %q: backslash escapes are not supported by the local runner", s)
			}
			if key == "" || strings.ContainsAny(key, "*?@()'\" ") {
				return nil, fmt.Errorf("path %q: unsupported field %q (only plain names, [n] indexes)", s, key)
			}
			p.steps = append(p.steps, step{key: key})
			rest = rest[end:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("path %q: unclosed [", s)
			}
			n, err := strconv.Atoi(rest[1:end])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("path %q: only non-negative [n] indexes are supported", s)
			}
			p.steps = append(p.steps, step{index: n, isIdx: true})
			rest = rest[end+1:]
		default:
			return nil, fmt.Errorf("path %q: unexpected %q", s, rest[:1])
		}
	}
	if p.context && !slices.ContainsFunc(contextFields, p.hasPrefix) {
		return nil, fmt.Errorf("path %q: the local runner's context object has only $$.Execution.Input/Name/Id, $$.State.Name and $$.Map.Item.Index/Value", s)
	}
	return p, nil
}

// hasPrefix reports whether the path starts with the given field names.
func (p *path) hasPrefix(keys []string) bool {
	if len(p.steps) < len(keys) {
		return false
	}
	for i, k := range keys {
		if p.steps[i].isIdx || p.steps[i].key != k {
			return false
		}
	}
	return true
}

// get resolves the path against the input or, for `$$` paths, the context
// object. ok is false when any step is missing.
func (p *path) get(input, context any) (any, bool) {
	v := input
	if p.context {
		v = context
	}
	for _, s := range p.steps {
		if s.isIdx {
			arr, ok := v.([]any)
			if !ok || s.index >= len(arr) {
				return nil, false
			}
			v = arr[s.index]
			continue
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[s.key]; !ok {
			return nil, false
		}
	}
	return v, true
}

// set returns a copy of input with value placed at the path, creating
// missing objects on the way. It copies every object it passes through rather
// than writing in place, because Map iterations share their parent's values.
func (p *path) set(input, value any) (any, error) {
	return setSteps(input, p.steps, value, p.text)
}

func setSteps(v any, steps []step, value any, text string) (any, error) {
	if len(steps) == 0 {
		return value, nil
	}
	s := steps[0]
	if s.isIdx {
		return nil, fmt.Errorf("ResultPath %q: indexes are not supported", text)
	}
	var obj map[string]any
	switch o := v.(type) {
	case map[string]any:
		obj = make(map[string]any, len(o)+1)
		for k, x := range o {
			obj[k] = x
		}
	case nil:
		obj = map[string]any{}
	default:
		return nil, fmt.Errorf("ResultPath %q: cannot set field %q on a %s", text, s.key, jsonKind(v))
	}
	child, err := setSteps(obj[s.key], steps[1:], value, text)
	if err != nil {
		return nil, err
	}
	obj[s.key] = child
	return obj, nil
}

// optPath is InputPath, OutputPath, ResultPath or ItemsPath as written:
// absent (the default, `$`), JSON null, or a path.
type optPath struct {
	null bool
	p    *path // nil when absent or null
}

// template is a compiled payload template (Parameters, ItemSelector,
// ResultSelector): fields whose names end in `.$` are paths to resolve.
type template struct {
	literal any
	ref     *path
	fields  map[string]*template // object template; keys without the `.$`
	items   []*template          // array template
	isObj   bool
	isArr   bool
}

func compileTemplate(v any) (*template, error) {
	switch x := v.(type) {
	case map[string]any:
		t := &template{isObj: true, fields: map[string]*template{}}
		// In key order, so the error reported for a template does not vary.
		for _, k := range slices.Sorted(maps.Keys(x)) {
			fv := x[k]
			if name, ok := strings.CutSuffix(k, ".$"); ok {
				s, isStr := fv.(string)
				if !isStr {
					return nil, fmt.Errorf("field %q: value must be a path string", k)
				}
				p, err := parsePath(s)
				if err != nil {
					return nil, fmt.Errorf("field %q: %w", k, err)
				}
				if _, dup := t.fields[name]; dup {
					return nil, fmt.Errorf("field %q given both with and without .$", name)
				}
				t.fields[name] = &template{ref: p}
				continue
			}
			if _, dup := t.fields[k]; dup {
				return nil, fmt.Errorf("field %q given both with and without .$", k)
			}
			sub, err := compileTemplate(fv)
			if err != nil {
				return nil, err
			}
			t.fields[k] = sub
		}
		return t, nil
	case []any:
		t := &template{isArr: true}
		for _, iv := range x {
			sub, err := compileTemplate(iv)
			if err != nil {
				return nil, err
			}
			t.items = append(t.items, sub)
		}
		return t, nil
	default:
		return &template{literal: v}, nil
	}
}

// eval builds a fresh value from the template.
func (t *template) eval(input, context any) (any, error) {
	switch {
	case t.ref != nil:
		v, ok := t.ref.get(input, context)
		if !ok {
			return nil, fmt.Errorf("path %s not found in input", t.ref.text)
		}
		return v, nil
	case t.isObj:
		out := make(map[string]any, len(t.fields))
		for k, f := range t.fields {
			v, err := f.eval(input, context)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case t.isArr:
		out := make([]any, len(t.items))
		for i, f := range t.items {
			v, err := f.eval(input, context)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	default:
		return t.literal, nil
	}
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	default:
		return "number"
	}
}

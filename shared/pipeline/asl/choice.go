package asl

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// rule is one Choice rule: a comparison on Variable, or And/Or/Not of rules.
// next is set only on top-level rules.
type rule struct {
	next        string
	variable    *path
	op          string // without the Path suffix
	operand     any
	operandPath *path // for the …Path comparators: where the operand is read
	and, or     []*rule
	not         *rule
}

func comparisonOperators() []string {
	compare := []string{
		"StringEquals", "StringLessThan", "StringGreaterThan", "StringLessThanEquals", "StringGreaterThanEquals",
		"NumericEquals", "NumericLessThan", "NumericGreaterThan", "NumericLessThanEquals", "NumericGreaterThanEquals",
		"BooleanEquals",
	}
	out := slices.Clone(compare)
	for _, op := range compare {
		out = append(out, op+"Path")
	}
	return append(out, "IsPresent", "IsNull", "IsNumeric", "IsString", "IsBoolean")
}

func (p *fieldParser) choices() []*rule {
	var raws []map[string]json.RawMessage
	if !p.decode("Choices", &raws) {
		if p.err == nil {
			p.fail("Choices is required")
		}
		return nil
	}
	if len(raws) == 0 {
		p.fail("Choices must not be empty")
	}
	out := make([]*rule, 0, len(raws))
	for i, raw := range raws {
		r, err := parseRule(raw, true)
		if err != nil {
			p.fail("Choices[%d]: %v", i, err)
			return nil
		}
		out = append(out, r)
	}
	return out
}

func parseRule(f map[string]json.RawMessage, top bool) (*rule, error) {
	r := &rule{}
	var ops []string
	for k := range f {
		switch {
		case k == "Comment":
		case k == "Next" && top:
			if err := json.Unmarshal(f[k], &r.next); err != nil || r.next == "" {
				return nil, fmt.Errorf("Next must be a state name")
			}
		case k == "Variable":
			p, err := rulePath(k, f[k])
			if err != nil {
				return nil, err
			}
			r.variable = p
		case k == "And" || k == "Or" || k == "Not" || slices.Contains(comparisonOperators(), k):
			ops = append(ops, k)
		case k == "Next":
			return nil, fmt.Errorf("Next is allowed only on a top-level rule, not inside And, Or or Not")
		default:
			return nil, fmt.Errorf("field %s is not supported by the local runner", k)
		}
	}
	if top && r.next == "" {
		return nil, fmt.Errorf("a top-level rule needs Next")
	}
	if len(ops) != 1 {
		return nil, fmt.Errorf("need exactly one operator, got %v", ops)
	}
	r.op = ops[0]
	raw := f[r.op]
	switch r.op {
	case "And", "Or":
		var subs []map[string]json.RawMessage
		if err := json.Unmarshal(raw, &subs); err != nil || len(subs) == 0 {
			return nil, fmt.Errorf("%s must be a non-empty array of rules", r.op)
		}
		for _, sub := range subs {
			sr, err := parseRule(sub, false)
			if err != nil {
				return nil, err
			}
			if r.op == "And" {
				r.and = append(r.and, sr)
			} else {
				r.or = append(r.or, sr)
			}
		}
		if r.variable != nil {
			return nil, fmt.Errorf("%s takes no Variable", r.op)
		}
		return r, nil
	case "Not":
		var sub map[string]json.RawMessage
		if err := json.Unmarshal(raw, &sub); err != nil {
			return nil, fmt.Errorf("Not must be a rule")
		}
		sr, err := parseRule(sub, false)
		if err != nil {
			return nil, err
		}
		r.not = sr
		if r.variable != nil {
			return nil, fmt.Errorf("Not takes no Variable")
		}
		return r, nil
	}
	if r.variable == nil {
		return nil, fmt.Errorf("%s needs a Variable", r.op)
	}
	if base, ok := strings.CutSuffix(r.op, "Path"); ok {
		// StringEqualsPath and friends compare with a value read from the
		// input (or context) instead of a literal.
		p, err := rulePath(r.op, raw)
		if err != nil {
			return nil, err
		}
		r.op, r.operandPath = base, p
		return r, nil
	}
	if err := unmarshal(raw, &r.operand); err != nil {
		return nil, fmt.Errorf("%s: %v", r.op, err)
	}
	var ok bool
	switch {
	case strings.HasPrefix(r.op, "String"):
		_, ok = r.operand.(string)
	case strings.HasPrefix(r.op, "Numeric"):
		_, ok = toFloat(r.operand)
	default: // BooleanEquals and the Is* tests
		_, ok = r.operand.(bool)
	}
	if !ok {
		return nil, fmt.Errorf("%s has an operand of the wrong type", r.op)
	}
	return r, nil
}

// rulePath reads a rule field whose value is a path (Variable, …Path).
func rulePath(field string, raw json.RawMessage) (*path, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%s must be a path string", field)
	}
	p, err := parsePath(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	return p, nil
}

// eval follows Step Functions: a comparison on a missing Variable is a
// States.Runtime error (only IsPresent may look at absent fields), while a
// comparison on a value of the wrong type is simply false.
func (r *rule) eval(input, context any) (bool, error) {
	switch r.op {
	case "And":
		for _, s := range r.and {
			if ok, err := s.eval(input, context); err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case "Or":
		for _, s := range r.or {
			if ok, err := s.eval(input, context); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	case "Not":
		ok, err := r.not.eval(input, context)
		return !ok, err
	}
	v, present := r.variable.get(input, context)
	if r.op == "IsPresent" {
		return present == r.operand.(bool), nil
	}
	if !present {
		return false, fmt.Errorf("choice Variable %s not found in input", r.variable.text)
	}
	operand := r.operand
	if r.operandPath != nil {
		var ok bool
		if operand, ok = r.operandPath.get(input, context); !ok {
			return false, fmt.Errorf("choice %sPath %s not found in input", r.op, r.operandPath.text)
		}
	}
	switch r.op {
	case "IsNull":
		return (v == nil) == operand.(bool), nil
	case "IsNumeric":
		_, isNum := toFloat(v)
		return isNum == operand.(bool), nil
	case "IsString":
		_, isStr := v.(string)
		return isStr == operand.(bool), nil
	case "IsBoolean":
		_, isBool := v.(bool)
		return isBool == operand.(bool), nil
	case "BooleanEquals":
		b, ok := v.(bool)
		want, wantOK := operand.(bool) // a …Path operand may be of any type
		return ok && wantOK && b == want, nil
	}
	if strings.HasPrefix(r.op, "String") {
		s, ok := v.(string)
		want, wantOK := operand.(string)
		if !ok || !wantOK {
			return false, nil
		}
		return compareOp(strings.TrimPrefix(r.op, "String"), strings.Compare(s, want)), nil
	}
	n, ok := toFloat(v)
	want, wantOK := toFloat(operand)
	if !ok || !wantOK {
		return false, nil
	}
	cmp := 0
	if n < want {
		cmp = -1
	} else if n > want {
		cmp = 1
	}
	return compareOp(strings.TrimPrefix(r.op, "Numeric"), cmp), nil
}

func compareOp(op string, cmp int) bool {
	switch op {
	case "Equals":
		return cmp == 0
	case "LessThan":
		return cmp < 0
	case "GreaterThan":
		return cmp > 0
	case "LessThanEquals":
		return cmp <= 0
	case "GreaterThanEquals":
		return cmp >= 0
	}
	return false
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	case int:
		return float64(n), true
	}
	return 0, false
}

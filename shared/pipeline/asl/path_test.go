package asl

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestPathsSelectValues(t *testing.T) {
	input := map[string]any{"a": map[string]any{"b": []any{"x", map[string]any{"c": json.Number("7")}}}}
	ctxObj := map[string]any{"Map": map[string]any{"Item": map[string]any{"Index": 2}}}
	tests := []struct {
		path   string
		want   any
		wantOK bool
	}{
		{"$", input, true},
		{"$.a.b[0]", "x", true},
		{"$.a.b[1].c", json.Number("7"), true},
		{"$$.Map.Item.Index", 2, true},
		{"$.a.b[2]", nil, false},
		{"$.a.missing", nil, false},
		{"$.a.b.c", nil, false}, // a field of an array
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			p, err := parsePath(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := p.get(input, ctxObj)
			if ok != tc.wantOK || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("get = %v, %v; want %v, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestPathsRefuseUnsupportedSyntax(t *testing.T) {
	for _, s := range []string{"a.b", "$.a[*]", "$..a", "$.a[-1]", "$.a[?(@.x)]", "$.", "$['a']"} {
		if _, err := parsePath(s); err == nil {
			t.Errorf("parsePath(%q) accepted it", s)
		}
	}
}

func TestResultPathSetLeavesTheInputUntouched(t *testing.T) {
	// Map iterations share their parent's values, so set must copy.
	inner := map[string]any{"keep": 1}
	input := map[string]any{"a": inner}
	p, _ := parsePath("$.a.new")
	out, err := p.set(input, "v")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": map[string]any{"keep": 1, "new": "v"}}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("set = %v, want %v", out, want)
	}
	if _, leaked := inner["new"]; leaked || len(input) != 1 {
		t.Errorf("set wrote into its input: %v", input)
	}
}

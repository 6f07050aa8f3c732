package fault

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

type refusal struct{ big bool }

func (r refusal) Error() string { return "refused" }
func (r refusal) Kind() Kind {
	if r.big {
		return TooLarge
	}
	return Invalid
}

func TestKindOf(t *testing.T) {
	missing := New(NotFound, "not found")
	for _, tc := range []struct {
		name string
		err  error
		want Kind
	}{
		{"a sentinel is its kind", missing, NotFound},
		{"a wrapped sentinel keeps its kind", fmt.Errorf("page 3: %w", missing), NotFound},
		{"a joined error takes the first kind", errors.Join(errors.New("x"), New(Conflict, "stale")), Conflict},
		{"a typed error tells its own kind", fmt.Errorf("upload: %w", refusal{big: true}), TooLarge},
		{"a one-off error has its kind", Errorf(TooLarge, "the PDF is %d bytes", 9), TooLarge},
		{"a plain error is internal", errors.New("disk on fire"), Internal},
		{"a cancelled context is internal", context.Canceled, Internal},
		{"nil is internal", nil, Internal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := KindOf(tc.err); got != tc.want {
				t.Fatalf("KindOf(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}

func TestSentinelsAreDistinct(t *testing.T) {
	a, b := New(NotFound, "not found"), New(NotFound, "not found")
	if errors.Is(a, b) {
		t.Fatal("two sentinels with the same text must not match each other")
	}
	if !errors.Is(fmt.Errorf("ctx: %w", a), a) {
		t.Fatal("a wrapped sentinel must match itself")
	}
}

func TestKindNames(t *testing.T) {
	for k, want := range map[Kind]string{Internal: "internal", NotFound: "not found", Upstream: "upstream failure", Kind(99): "internal"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), want)
		}
	}
}

func TestTidyDropsRepeatedSegments(t *testing.T) {
	for in, want := range map[string]string{
		"binary.txt: binary.txt: the file is binary":         "binary.txt: the file is binary",
		"corrupt: read context: xref table: xref table: eof": "corrupt: read context: xref table: eof",
		"a: b: a: c": "a: b: a: c",
		"plain":      "plain",
	} {
		if got := Tidy(in); got != want {
			t.Errorf("Tidy(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExplanationKeepsKindAndCause(t *testing.T) {
	cause := fmt.Errorf("x: %w", New(Invalid, "bad"))
	err := fmt.Errorf("wrapped: %w", Explain(cause, "Say what to do."))
	if s, ok := ExplanationOf(err); !ok || s != "Say what to do." {
		t.Fatalf("ExplanationOf = %q, %v", s, ok)
	}
	if KindOf(err) != Invalid || err.Error() != "wrapped: x: bad" {
		t.Fatalf("kind %v, text %q: the cause must stay as it was", KindOf(err), err.Error())
	}
	if _, ok := ExplanationOf(cause); ok {
		t.Fatal("an error without a sentence has none")
	}
}

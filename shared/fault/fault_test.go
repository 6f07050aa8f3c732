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

// Package fault is Lectern's one error vocabulary: a small set of kinds that
// every domain error wraps, so each transport maps a kind (not each domain's
// errors) to what it answers: httpapi to a status, the MCP server to its
// "Error:" texts. It knows nothing of HTTP.
package fault

import (
	"errors"
	"fmt"
	"strings"
)

// Kind is what sort of failure an error is, as a caller needs to know it.
type Kind int

const (
	// Internal: anything not filed under a kind; callers see no detail.
	Internal Kind = iota
	// NotFound: the thing asked for does not exist.
	NotFound
	// Invalid: the request breaks a rule; sending it again cannot help.
	Invalid
	// Conflict: the request clashes with the current state (a stale version,
	// a token overtaken by another change, the wrong mode).
	Conflict
	// TooLarge: the input is over a size limit.
	TooLarge
	// Upstream: an engine or host this server called failed or refused.
	Upstream
	// Unavailable: a part this server needs is down for now; retry later.
	Unavailable
)

var names = [...]string{"internal", "not found", "invalid", "conflict", "too large", "upstream failure", "unavailable"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(names) {
		return "internal"
	}
	return names[k]
}

// Error is a domain sentinel of a kind; wrap it with %w to add the detail:
// fmt.Errorf("%w: page %d", ErrNotFound, n).
type Error struct {
	kind Kind
	msg  string
}

// New returns a sentinel error of kind k.
func New(k Kind, msg string) error { return &Error{kind: k, msg: msg} }

// Errorf returns an error of kind k whose text is made from format, for a
// one-off refusal that no caller needs to match (the detail is the point).
func Errorf(k Kind, format string, args ...any) error {
	return &Error{kind: k, msg: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string { return e.msg }

// Kind says what sort of failure this is.
func (e *Error) Kind() Kind { return e.kind }

// Kinded is any error that knows its kind: the sentinels made by New, and
// typed errors such as a refused PDF, whose kind depends on the refusal.
type Kinded interface {
	error
	Kind() Kind
}

// KindOf finds the first kind in err's chain; Internal when there is none.
func KindOf(err error) Kind {
	var k Kinded
	if errors.As(err, &k) {
		return k.Kind()
	}
	return Internal
}

// Explainer is an error that also has a sentence for the user: what
// happened and what to do. Its Error() stays the technical cause, which
// transports show apart from the sentence (a problem's cause).
type Explainer interface {
	error
	Explanation() string
}

// Explain gives err a sentence for the user, keeping err (its kind and its
// text) as the technical cause.
func Explain(err error, sentence string) error {
	return &explained{err: err, sentence: sentence}
}

type explained struct {
	err      error
	sentence string
}

func (e *explained) Error() string       { return e.err.Error() }
func (e *explained) Unwrap() error       { return e.err }
func (e *explained) Explanation() string { return e.sentence }

// ExplanationOf finds the first sentence for the user in err's chain.
func ExplanationOf(err error) (string, bool) {
	var x Explainer
	if errors.As(err, &x) && x.Explanation() != "" {
		return x.Explanation(), true
	}
	return "", false
}

// Tidy drops a segment of an error text that repeats the one before it
// ("a.txt: a.txt: empty" → "a.txt: empty"), as happens when two layers
// each name the same thing while wrapping.
func Tidy(msg string) string {
	parts := strings.Split(msg, ": ")
	kept := parts[:1]
	for _, p := range parts[1:] {
		if p == kept[len(kept)-1] {
			continue
		}
		kept = append(kept, p)
	}
	return strings.Join(kept, ": ")
}

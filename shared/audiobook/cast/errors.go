package cast

import "github.com/lectern/lectern/shared/fault"

// Errors of this package, each of a fault kind.
var (
	// ErrInvalid: spans that do not fit the text (out of range or reversed).
	ErrInvalid = fault.New(fault.Invalid, "spans do not fit the book text")
	// ErrUpstream: the LLM failed, or answered with nothing we could read.
	ErrUpstream = fault.New(fault.Upstream, "LLM call failed")
	// ErrNoLLM: an LLM pass was asked for with no LLM engine configured.
	ErrNoLLM = fault.New(fault.Conflict, "no LLM engine is configured")
)

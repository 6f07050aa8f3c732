package audiobook

import "github.com/lectern/lectern/shared/fault"

// Errors of the audiobook service, each of a fault kind.
var (
	// ErrNotFound: no such book, segment, character or render.
	ErrNotFound = fault.New(fault.NotFound, "not found")
	// ErrInvalid: a request that breaks a rule (unknown speaker or voice,
	// a bad mode, an empty or unreadable book).
	ErrInvalid = fault.New(fault.Invalid, "invalid audiobook request")
	// ErrConflict: the book changed since the revision the request was made
	// on, or a job of the same kind is still running.
	ErrConflict = fault.New(fault.Conflict, "the book changed")
	// ErrTooLarge: an upload or a book over the limits.
	ErrTooLarge = fault.New(fault.TooLarge, "the book is too large")
	// ErrNoLLM: the cast job needs an LLM and Settings name none.
	ErrNoLLM = fault.New(fault.Conflict, "no LLM is configured: set llm_url in Settings")
	// ErrLLM: the LLM failed or answered nothing usable.
	ErrLLM = fault.New(fault.Upstream, "LLM call failed")
	// ErrNotReady: the render has not finished.
	ErrNotReady = fault.New(fault.Conflict, "the render is not finished")
)

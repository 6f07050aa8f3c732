package readaloud

import "github.com/lectern/lectern/shared/fault"

// Errors of this package, each of a fault kind.
var (
	// ErrNotFound: no such issue, article or podcast script.
	ErrNotFound = fault.New(fault.NotFound, "not found")
	// ErrNotApproved: the article is not approved (or changed since it was),
	// or the issue has no approved article.
	ErrNotApproved = fault.New(fault.Conflict, "not approved")
	// ErrInvalid: the request breaks a rule (hosts, minutes, turns, mode).
	ErrInvalid = fault.New(fault.Invalid, "invalid request")
	// ErrStale: the podcast script changed since the client read it.
	ErrStale = fault.New(fault.Conflict, "stale version")
	// ErrLLM: the LLM could not be reached or gave no usable script.
	ErrLLM = fault.New(fault.Upstream, "LLM failed")
)

// ErrNoLLM: Settings name no LLM (llm_url is empty).
var ErrNoLLM = fault.New(fault.Invalid, "no LLM is configured in Settings (llm_url)")

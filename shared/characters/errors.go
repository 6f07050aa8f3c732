package characters

import "github.com/lectern/lectern/shared/fault"

// Errors of the Characters feature, each of a fault kind.
var (
	// ErrNotFound: no such set, character, form or image.
	ErrNotFound = fault.New(fault.NotFound, "not found")
	// ErrInvalid: a request that breaks a rule (empty text, unknown kind, a
	// story image without a passage, a form name in use).
	ErrInvalid = fault.New(fault.Invalid, "invalid characters request")
	// ErrConflict: the character changed since the version the request was
	// made on, or the set is still being extracted.
	ErrConflict = fault.New(fault.Conflict, "the character changed")
	// ErrTooLarge: pasted text over MaxTextBytes.
	ErrTooLarge = fault.New(fault.TooLarge, "the text is too large")
	// ErrNoEngine: no image engine card, or no vision engine, to call.
	ErrNoEngine = fault.New(fault.Conflict, "no engine to call")
	// ErrEngine: an engine failed or answered nothing usable.
	ErrEngine = fault.New(fault.Upstream, "engine call failed")
)

package voices

import "github.com/lectern/lectern/shared/fault"

var (
	// ErrInvalid: a voice or a search breaks a rule (a field's length or
	// enum, a bad id, a clone without consent).
	ErrInvalid = fault.New(fault.Invalid, "invalid voice")
	// ErrNotFound: no voice has that id.
	ErrNotFound = fault.New(fault.NotFound, "voice not found")
	// ErrExists: a voice with that id is already in the library.
	ErrExists = fault.New(fault.Conflict, "voice already exists")
	// ErrStale: the voice changed since the version the caller read.
	ErrStale = fault.New(fault.Conflict, "voice changed since it was read")
	// ErrReadOnly: built-in voices cannot be changed or deleted.
	ErrReadOnly = fault.New(fault.Conflict, "built-in voices are read-only")
	// ErrEngine: an engine failed to list voices or to speak.
	ErrEngine = fault.New(fault.Upstream, "voice engine call failed")
	// ErrNoEngine: the voice's engine card is missing or cannot speak.
	ErrNoEngine = fault.New(fault.Invalid, "voice engine unusable")
)

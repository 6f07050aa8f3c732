package settings

import "github.com/lectern/lectern/shared/fault"

var (
	// ErrInvalid: an update breaks a rule (bad URL, oversized key, bad card name).
	ErrInvalid = fault.New(fault.Invalid, "invalid settings")
	// ErrConflict: the record kept changing under concurrent updates.
	ErrConflict = fault.New(fault.Conflict, "settings changed concurrently")
)

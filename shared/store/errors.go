package store

import "github.com/lectern/lectern/shared/fault"

var (
	// ErrNotFound: no item at the key.
	ErrNotFound = fault.New(fault.NotFound, "not found")
	// ErrConditionFailed: a write's condition did not hold; nothing was written.
	ErrConditionFailed = fault.New(fault.Conflict, "condition failed")
	// ErrInvalid: the request itself is malformed (empty key, bad cursor, too many writes).
	ErrInvalid = fault.New(fault.Invalid, "invalid store request")
)

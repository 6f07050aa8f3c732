package store

import "errors"

var (
	// ErrNotFound: no item at the key.
	ErrNotFound = errors.New("not found")
	// ErrConditionFailed: a write's condition did not hold; nothing was written.
	ErrConditionFailed = errors.New("condition failed")
	// ErrInvalid: the request itself is malformed (empty key, bad cursor, too many writes).
	ErrInvalid = errors.New("invalid store request")
)

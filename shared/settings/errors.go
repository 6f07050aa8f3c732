package settings

import "errors"

var (
	// ErrInvalid: an update breaks a rule (bad URL, oversized key, bad card name).
	ErrInvalid = errors.New("invalid settings")
	// ErrConflict: the record kept changing under concurrent updates.
	ErrConflict = errors.New("settings changed concurrently")
)

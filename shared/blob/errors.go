package blob

import "github.com/lectern/lectern/shared/fault"

var (
	// ErrNotFound: no object at the key.
	ErrNotFound = fault.New(fault.NotFound, "blob not found")
	// ErrInvalidKey: the key is empty, absolute, or escapes the store's root
	// (see CheckKey), or, in a local folder, nests under another object.
	ErrInvalidKey = fault.New(fault.Invalid, "invalid blob key")
	// ErrInvalid: a content type or presign lifetime the store cannot use.
	ErrInvalid = fault.New(fault.Invalid, "invalid blob request")
)

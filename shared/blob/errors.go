package blob

import "errors"

var (
	// ErrNotFound: no object at the key.
	ErrNotFound = errors.New("blob not found")
	// ErrInvalidKey: the key is empty, absolute, or escapes the store's root
	// (see CheckKey), or, in a local folder, nests under another object.
	ErrInvalidKey = errors.New("invalid blob key")
	// ErrInvalid: a content type or presign lifetime the store cannot use.
	ErrInvalid = errors.New("invalid blob request")
)

package book

import "github.com/lectern/lectern/shared/fault"

// Errors of this package, each of a fault kind.
var (
	// ErrInvalid: the upload is not a book we can read (empty, binary, a
	// broken zip, an EPUB without container, package or spine...).
	ErrInvalid = fault.New(fault.Invalid, "not a readable book")
	// ErrTooLarge: the book unpacks past a limit (an EPUB's documents,
	// its spine, its text).
	ErrTooLarge = fault.New(fault.TooLarge, "the book is too large")
)

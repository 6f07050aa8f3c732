package book

import "fmt"

// ParseText reads a plain-text book: UTF-8 (with or without a byte order
// mark) or, when the bytes are not valid UTF-8, Latin-1. The Project
// Gutenberg header, footer and licence are stripped, title and author are
// taken from the header when present, and chapters are found from their
// headings. filename is used only for the title when the header names none.
func ParseText(data []byte, filename string) (Book, error) {
	return Book{}, fmt.Errorf("parse %s: not yet implemented: %w", filename, ErrInvalid)
}

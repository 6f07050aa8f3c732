package book

import "fmt"

// ParseEPUB reads an EPUB (2 or 3): the spine's documents in order as plain
// text, chapter titles from the EPUB 3 nav document or the EPUB 2 toc.ncx.
func ParseEPUB(data []byte) (Book, error) {
	return Book{}, fmt.Errorf("parse epub: not yet implemented: %w", ErrInvalid)
}

// Package audiobook owns the audiobook feature's service (issue 16): a book
// uploaded as TXT or EPUB is parsed (book), split into narration and
// dialogue spans (spans) and cast by rules at import (cast.Extract,
// cast.AttributeRules), and stored as a book record with its segments and
// characters; the cast job asks the LLM about the lines the rules left
// (span mode) or lets it segment the text itself (classic mode, aligned
// back to the source by Align), and optionally verifies; voices are
// assigned per character plus a narrator, with suggestions from the voice
// library; the render job voices the book with the speech renderer as one
// M4B with a chapter per book chapter and one MP3 per chapter.
//
// Records (one table, see DESIGN.md): BOOK#<id>/META holds the book (title,
// author, chapters, counts, the text's blob key, the narrator voice, the
// last jobs, the revision every segment edit bumps); BOOK#<id>/SEG#<nnnn>
// holds up to SegmentsPerItem segments in text order (a 5 MB novel has
// about 20,000 spans, far over one item's 400 KB); BOOK#<id>/CHAR#<id> one
// character with its voice; BOOKS/BOOK#<id> the listing's entry. The text
// itself is a blob. Segments hold offsets into it, never text.
//
// Align (classic mode's auto-repair) is pure and table-tested; it runs only
// on classic mode's output, never after a span cast.
package audiobook

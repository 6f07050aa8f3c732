// Package book owns getting a book in: a plain-text file (UTF-8 or Latin-1,
// Project Gutenberg header, footer and licence stripped) or an EPUB, turned
// into one Book whose Text every later offset (chapters, spans, segments)
// refers to.
//
// Conventions every consumer relies on:
//
//   - Book.Text is kept exactly as given. For a TXT file it is the decoded
//     file between the Gutenberg markers (a byte-for-byte slice of the UTF-8
//     input; Latin-1 is decoded to UTF-8, the only transformation). Line ends
//     are kept as given: CRLF stays CRLF, so offsets agree with the upload.
//     For an EPUB it is the plain text of the spine's documents, one after
//     the other: paragraphs end in "\n\n", documents are joined by "\n\n".
//   - Offsets are byte offsets into Book.Text.
//   - A Chapter's [Start, End) begins at its heading line, so the title is
//     inside the chapter and read aloud with it, and ends where the next
//     chapter begins (or at the end of the text). Chapters are in order and
//     never overlap; text before the first heading (title page, contents,
//     dedication) belongs to no chapter. A book with no heading found is one
//     chapter covering the whole text.
//   - Chapter.Index is the chapter's position in Book.Chapters, from 0.
//
// Everything here is pure: bytes in, values out, no I/O.
package book

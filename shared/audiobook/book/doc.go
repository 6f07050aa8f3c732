// Package book owns getting a book in: a plain-text file (UTF-8 or Latin-1,
// Project Gutenberg header, footer and licence stripped) or an EPUB, turned
// into one Book whose Text every later offset (chapters, spans, segments)
// refers to.
//
// Conventions every consumer relies on:
//
//   - Book.Text is kept exactly as given. For a TXT file it is the decoded
//     file, byte for byte, between the Gutenberg markers (with the blank
//     lines around the body and a producer's credit at its top left out);
//     a file without markers is kept whole. Decoding is the only
//     transformation: a UTF-8 byte order mark is dropped, and a file that is
//     not valid UTF-8 is read as Latin-1 (Windows-1252, its superset in
//     practice) into UTF-8. Line ends are kept as given: CRLF stays CRLF,
//     and every rule that looks for lines or blank lines accepts both.
//   - For an EPUB, Text is the plain text of the spine's documents, one
//     after the other: paragraphs (p, h1–h6, li, div...) end in "\n\n", a
//     <br> is "\n", runs of white space are one space, and documents are
//     joined by "\n\n".
//   - Offsets are byte offsets into Book.Text.
//   - A Chapter's [Start, End) begins at its heading line, so the title is
//     inside the chapter and read aloud with it, and ends where the next
//     chapter begins (or at the end of the text). Chapters are in order and
//     never overlap. Front matter before the first heading (title page,
//     contents, dedication) belongs to no chapter, unless it holds a
//     paragraph of prose, which then is a chapter titled "Opening". A book
//     with no heading found is one chapter covering the whole text, titled
//     by the book.
//   - Chapter.Index is the chapter's position in Book.Chapters, from 0.
//
// Everything here is pure: bytes in, values out, no I/O.
package book

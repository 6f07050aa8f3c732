// Package spans splits a book's chapters into narration and dialogue spans
// from the book's own quotation marks, deterministically: no model decides
// where speech begins or ends, so text is never fused, dropped or duplicated.
//
// The spans of a chapter are contiguous, non-empty and in order, and
// concatenated they equal the chapter byte for byte. Offsets are into the
// book's text (book.Book.Text), not the chapter.
//
// Quote rules, decided once per book (see Split):
//
//   - The book's dialogue mark is double (" “ ”) or single (' ‘ ’), whichever
//     gives more quotations that open and close within a paragraph (double
//     on a tie); marks of the other kind are nested quotes and stay inside
//     the dialogue span around them.
//   - A single mark is told apart from an apostrophe or elision by what is
//     around it (italics' _ and * looked through): between letters (don't)
//     it is an apostrophe; before a known elision ('tis, 'em, 'n') it opens
//     speech only when the next mark in the paragraph closes it ('Tis true,'
//     said he), and inside speech, a mark before a small letter is an
//     elision too ('osses); after a letter (dogs' tails, o' the, goin') it
//     closes only when nothing else does: at the paragraph's end, before a
//     speech tag ('I saw the dogs' he said.) or before the next opening.
//   - A dialogue span covers its opening and closing marks.
//   - A quotation that runs over several paragraphs, each new paragraph
//     reopening with a mark, is one dialogue span per paragraph: the
//     paragraph break between them is narration and every span but the last
//     has Continues set.
//   - A quotation may carry an embedded block that does not reopen: an
//     indented address or letter, a song in nested marks, stanzas of verse.
//     It goes on through the block only when the paragraph after it closes
//     with an orphan closing mark; each paragraph is again a span of its own.
//   - Marks of the book's family inside an open quotation that open are
//     nested ("I tried to say "How doth..." but..."), unless the
//     quotation is still open at the paragraph's end: then the first
//     quotation was never closed and ends before that opening.
//   - Otherwise a quotation with no close before the chapter ends or before
//     a paragraph that does not reopen it is flagged Unclosed and ends at
//     the end of its paragraph's text, never merged into the text that
//     follows. A closing mark with no quotation open is narration.
//   - Paragraphs are told per chapter: by blank lines in hard-wrapped text
//     (and in book.ParseEPUB's text); one a line where lines are whole
//     paragraphs that mostly follow each other without a blank line; by
//     indentation in hard-wrapped text without blank lines.
//
// Span ids are "c<chapter>-s<n>": the chapter's index (two digits at least)
// and the span's position in the chapter (four digits at least), both from 0,
// e.g. "c03-s0042". The same book always gives the same ids.
package spans

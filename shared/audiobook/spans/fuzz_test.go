package spans

import (
	"testing"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/audiobook/book"
)

// FuzzSplit: whatever the text, a chapter's spans tile it: non-empty,
// contiguous, in order, with their ids, byte for byte.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		`"Hello," he said. "Bye."`,
		"‘Well,’ said Alice, ‘I don’t know.’\n\n‘’Tis o’ the dogs’ tails.",
		"\"Open\n\n\"Reopen,\n\n     _block_\n\nclose.\"\r\n\r\n\"\"\"''' ' \" “”‘’",
		"'Tis 'em 'n' rock 'n' roll' '45 o' dogs' 'osses,' he said.\n'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return // book text is always valid UTF-8
		}
		b := book.Book{Text: text, Chapters: []book.Chapter{{Index: 7, Start: 0, End: len(text)}}}
		if err := tileError(b, Split(text, b.Chapters[0])); err != nil {
			t.Fatalf("%v in %q", err, text)
		}
	})
}

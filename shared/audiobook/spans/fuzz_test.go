package spans

import (
	"strings"
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
		ch := book.Chapter{Index: 7, Start: 0, End: len(text)}
		var sb strings.Builder
		at := 0
		for n, s := range Split(text, ch) {
			if s.Start != at || s.End <= s.Start || s.Chapter != 7 || s.ID != SpanID(7, n) {
				t.Fatalf("span %d = %+v, want start %d in %q", n, s, at, text)
			}
			if a, z := s.Inner(text); a < s.Start || z > s.End || a > z {
				t.Fatalf("span %d: Inner %d,%d outside %+v", n, a, z, s)
			}
			sb.WriteString(s.Text(text))
			at = s.End
		}
		if sb.String() != text {
			t.Fatalf("spans give %q, chapter is %q", sb.String(), text)
		}
	})
}

package book

import (
	"testing"
)

// checkBook fails unless b's chapters lie in its text, in order, without
// overlapping.
func checkBook(t *testing.T, b Book) {
	t.Helper()
	end := 0
	for i, c := range b.Chapters {
		if c.Index != i || c.Start < end || c.Start >= c.End || c.End > len(b.Text) {
			t.Fatalf("chapter %d = %+v after %d in %d bytes", i, c, end, len(b.Text))
		}
		end = c.End
	}
	if len(b.Chapters) == 0 {
		t.Fatal("a book without chapters")
	}
}

// FuzzParseText: any bytes give a book whose chapters lie in its text, or
// ErrInvalid; never a panic.
func FuzzParseText(f *testing.F) {
	f.Add([]byte(gutenbergSample))
	f.Add([]byte("CHAPTER I.\n\nText.\n\nCHAPTER II\n\n\xe9t\xe9"))
	f.Add([]byte("I.\n\nII.\n\nBOOK I\nCHAPTER I"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ParseText(data, "f.txt")
		if err != nil {
			return
		}
		checkBook(t, b)
	})
}

// FuzzParseEPUB: any bytes give a book whose chapters lie in its text, or
// an error; never a panic.
func FuzzParseEPUB(f *testing.F) {
	f.Add(epubOf(f, map[string]string{
		"META-INF/container.xml": container,
		"OEBPS/content.opf": `<package><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest>
<spine><itemref idref="a"/></spine></package>`,
		"OEBPS/a.xhtml": xhtml(`<h1 id="x">One</h1><p>“Hi,” she said.</p>`),
	}))
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ParseEPUB(data)
		if err != nil {
			return
		}
		checkBook(t, b)
	})
}

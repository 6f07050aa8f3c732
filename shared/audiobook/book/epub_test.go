package book

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// epubOf zips files into an EPUB, mimetype first and stored as the format
// asks.
func epubOf(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("application/epub+zip"))
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const container = `<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`

func xhtml(body string) string {
	return `<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head><title>ignored title</title><style>p { margin: 0 }</style></head>
<body>` + body + `</body></html>`
}

// TestParseEPUB2WithNCX also reads HTML as browsers do: a <br> and a <p>
// left open.
func TestParseEPUB2WithNCX(t *testing.T) {
	data := epubOf(t, map[string]string{
		"META-INF/container.xml": container,
		"OEBPS/content.opf": `<?xml version="1.0"?>
<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:title>The Two Chapters</dc:title><dc:creator>Ann Writer</dc:creator>
  </metadata>
  <manifest>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    <item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>
    <item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/>
    <item id="c2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/>
    <item id="c2b" href="text/ch2%20more.xhtml" media-type="application/xhtml+xml"/>
    <item id="css" href="style.css" media-type="text/css"/>
  </manifest>
  <spine toc="ncx">
    <itemref idref="cover"/><itemref idref="c1"/><itemref idref="c2"/><itemref idref="c2b"/>
  </spine>
</package>`,
		"OEBPS/toc.ncx": `<?xml version="1.0"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
  <navMap>
    <navPoint id="n1" playOrder="1"><navLabel><text>Chapter One</text></navLabel><content src="text/ch1.xhtml"/></navPoint>
    <navPoint id="n2" playOrder="2"><navLabel><text>Chapter
      Two</text></navLabel><content src="text/ch2.xhtml"/></navPoint>
  </navMap>
</ncx>`,
		"OEBPS/cover.xhtml": xhtml(`<div><img src="cover.jpg" alt="Cover"/></div>`),
		"OEBPS/text/ch1.xhtml": xhtml(`<h1>Chapter One</h1>
<p>“It was <i>dark</i>,” she said.</p>
<p>Tom &amp; Jerry&nbsp;ran&#8212;fast.</p>`),
		"OEBPS/text/ch2.xhtml": xhtml(`<h2>Chapter Two</h2><p>First line<br>second   line
  wrapped.`),
		"OEBPS/text/ch2 more.xhtml": xhtml(`<p>The chapter goes on in a second file.</p>`),
	})
	b, err := ParseEPUB(data)
	if err != nil {
		t.Fatal(err)
	}
	if b.Title != "The Two Chapters" || b.Author != "Ann Writer" {
		t.Errorf("title %q author %q", b.Title, b.Author)
	}
	want := "Chapter One\n\n“It was dark,” she said.\n\nTom & Jerry\u00a0ran—fast." +
		"\n\nChapter Two\n\nFirst line\nsecond line wrapped.\n\nThe chapter goes on in a second file."
	if b.Text != want {
		t.Errorf("text\n got %q\nwant %q", b.Text, want)
	}
	if got := titles(t, b); strings.Join(got, "|") != "Chapter One|Chapter Two" {
		t.Errorf("chapters %q", got)
	}
	if body := b.Chapters[1].Body(b.Text); !strings.HasPrefix(body, "Chapter Two\n\n") || !strings.HasSuffix(body, "second file.") {
		t.Errorf("chapter two = %q", body)
	}
	if b.Chapters[0].Start != 0 {
		t.Errorf("chapter one starts at %d", b.Chapters[0].Start)
	}
}

func TestParseEPUB3WithNav(t *testing.T) {
	data := epubOf(t, map[string]string{
		"META-INF/container.xml": container,
		"OEBPS/content.opf": `<?xml version="1.0"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Anchored</dc:title>
    <meta property="dcterms:modified">2022-06-06T14:53:53Z</meta><meta content="1.4.3" name="Sigil version"/></metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="copy" href="text/copyright.xhtml" media-type="application/xhtml+xml"/>
    <item id="book" href="text/book.xhtml" media-type="application/xhtml+xml"/>
    <item id="notes" href="text/notes.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine><itemref idref="nav"/><itemref idref="copy"/><itemref idref="book"/><itemref idref="notes" linear="no"/></spine>
</package>`,
		"OEBPS/nav.xhtml": xhtml(`<nav epub:type="toc"><h1>Contents</h1><ol>
  <li><a href="text/book.xhtml#c1">I. <em>Morning</em></a></li>
  <li><a href="text/book.xhtml#c2">II. Evening</a></li>
</ol></nav>
<nav epub:type="page-list"><ol><li><a href="text/book.xhtml#p7">7</a></li></ol></nav>`),
		"OEBPS/text/copyright.xhtml": xhtml(`<p>Copyright © 2020. All rights reserved.</p>`),
		"OEBPS/text/book.xhtml": xhtml(`<section id="c1"><h1>I. Morning</h1><p>‘Up,’ said Jo.</p></section>
<section id="c2"><h1>II. Evening</h1><p id="p7">‘Down,’ said Jo.</p></section>`),
		"OEBPS/text/notes.xhtml": xhtml(`<p>Notes out of the reading order.</p>`),
	})
	if b, err := ParseEPUB(data); err != nil || b.Title != "Anchored" {
		t.Fatalf("title %q, %v", b.Title, err)
	}
	b, err := ParseEPUB(data)
	if err != nil {
		t.Fatal(err)
	}
	want := "I. Morning\n\n‘Up,’ said Jo.\n\nII. Evening\n\n‘Down,’ said Jo."
	if b.Text != want {
		t.Errorf("text\n got %q\nwant %q", b.Text, want)
	}
	if got := titles(t, b); strings.Join(got, "|") != "I. Morning|II. Evening" {
		t.Errorf("chapters %q", got)
	}
	if body := b.Chapters[1].Body(b.Text); body != "II. Evening\n\n‘Down,’ said Jo." {
		t.Errorf("chapter II = %q", body)
	}
	if body := b.Chapters[0].Body(b.Text); body != "I. Morning\n\n‘Up,’ said Jo.\n\n" {
		t.Errorf("chapter I = %q", body)
	}
}

func TestParseEPUBGutenbergHeaderAndNoTable(t *testing.T) {
	data := epubOf(t, map[string]string{
		"META-INF/container.xml": container,
		"OEBPS/content.opf": `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>
  <manifest><item id="a" href="a.html" media-type="application/xhtml+xml"/>
    <item id="b" href="b.html" media-type="text/html"/><item id="c" href="c.html" media-type="application/xhtml+xml"/></manifest>
  <spine><itemref idref="a"/><itemref idref="b"/><itemref idref="c"/></spine></package>`,
		"OEBPS/a.html": xhtml(`<section id="pg-header"><p>The Project Gutenberg eBook of X</p></section>
<h2>Chapter 1</h2><p>` + para(10) + `</p>
<section id="pg-footer"><p>THE FULL PROJECT GUTENBERG LICENSE</p></section>`),
		"OEBPS/b.html": xhtml(`<h2>Chapter 2</h2><p>Two.</p>`),
		"OEBPS/c.html": xhtml(`<p>Chapter 2 goes on.</p>`),
	})
	b, err := ParseEPUB(data)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.Text, "Gutenberg") || !strings.HasPrefix(b.Text, "Chapter 1\n\n") {
		t.Errorf("text = %q", b.Text)
	}
	if got := titles(t, b); strings.Join(got, "|") != "Chapter 1|Chapter 2" {
		t.Errorf("without a table each document with a heading is a chapter named by it: %q", got)
	}
	if body := b.Chapters[1].Body(b.Text); body != "Chapter 2\n\nTwo.\n\nChapter 2 goes on." {
		t.Errorf("chapter 2 = %q", body)
	}
}

func TestParseEPUBRefuses(t *testing.T) {
	opfNoSpine := `<package xmlns="http://www.idpf.org/2007/opf"><manifest/><spine/></package>`
	for name, data := range map[string][]byte{
		"empty":        nil,
		"not a zip":    []byte("plain text, not an archive"),
		"no container": epubOf(t, map[string]string{"OEBPS/content.opf": opfNoSpine}),
		"no spine":     epubOf(t, map[string]string{"META-INF/container.xml": container, "OEBPS/content.opf": opfNoSpine}),
		"spine without text": epubOf(t, map[string]string{"META-INF/container.xml": container,
			"OEBPS/content.opf": `<package><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/></spine></package>`,
			"OEBPS/a.xhtml":     xhtml(`<img src="x.png"/>`)}),
		"missing document": epubOf(t, map[string]string{"META-INF/container.xml": container,
			"OEBPS/content.opf": `<package><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/></spine></package>`}),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseEPUB(data); !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}

// manyDocs is an EPUB's files: n documents, each body, in the spine.
func manyDocs(opf func(string, string) string, item func(string, string) string, ref func(string) string, n int, body string) map[string]string {
	files := map[string]string{}
	var manifest, spine strings.Builder
	for i := range n {
		id := fmt.Sprintf("d%d", i)
		manifest.WriteString(item(id, id+".xhtml"))
		spine.WriteString(ref(id))
		files["OEBPS/"+id+".xhtml"] = body
	}
	files["OEBPS/content.opf"] = opf(manifest.String(), spine.String())
	return files
}

// TestParseEPUBBounds: an EPUB is bounded as a whole, not only entry by
// entry, and what the zip directory and spine show is refused before
// anything is unpacked.
func TestParseEPUBBounds(t *testing.T) {
	doc := func(mib int) string { // about mib MiB of text in one document
		return xhtml("<p>" + strings.Repeat("All work and no play makes Jack a dull boy. ", mib<<20/44) + "</p>")
	}
	opf := func(manifest, spine string) string {
		return `<package><manifest>` + manifest + `</manifest><spine>` + spine + `</spine></package>`
	}
	item := func(id, href string) string {
		return `<item id="` + id + `" href="` + href + `" media-type="application/xhtml+xml"/>`
	}
	ref := func(id string) string { return `<itemref idref="` + id + `"/>` }

	longSpine := strings.Repeat(ref("a"), MaxSpineItems+1)
	for _, c := range []struct {
		name  string
		files map[string]string
		want  error
		// most bytes refusing it may allocate: little where the directory
		// and spine show it; the text limit is met after parsing
		alloc uint64
	}{
		{"one document listed eight times", map[string]string{"OEBPS/content.opf": opf(item("a", "a.xhtml"), strings.Repeat(ref("a"), 8)),
			"OEBPS/a.xhtml": doc(2)}, ErrInvalid, 8 << 20},
		{"two manifest items naming one document", map[string]string{"OEBPS/content.opf": opf(item("a", "a.xhtml")+item("b", "a.xhtml"), ref("a")+ref("b")),
			"OEBPS/a.xhtml": doc(1)}, ErrInvalid, 8 << 20},
		{"a spine over the limit", map[string]string{"OEBPS/content.opf": opf(item("a", "a.xhtml"), longSpine),
			"OEBPS/a.xhtml": xhtml("<p>" + strings.Repeat("Jack. ", 1000) + "</p>")}, ErrTooLarge, 8 << 20},
		{"a zip bomb document", map[string]string{"OEBPS/content.opf": opf(item("a", "a.xhtml"), ref("a")),
			"OEBPS/a.xhtml": "<p>" + strings.Repeat(" ", 200<<20) + "</p>"}, ErrTooLarge, 8 << 20},
		{"a document over its limit", map[string]string{"OEBPS/content.opf": opf(item("a", "a.xhtml"), ref("a")),
			"OEBPS/a.xhtml": doc(5)}, ErrTooLarge, 8 << 20},
		{"documents that unpack past the budget together", manyDocs(opf, item, ref, 11, doc(3)), ErrTooLarge, 8 << 20},
		{"text past the limit", manyDocs(opf, item, ref, 3, doc(3)), ErrTooLarge, 32 * MaxTextBytes},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.files["META-INF/container.xml"] = container
			data := epubOf(t, c.files)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ParseEPUB(data)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			// The limits hold memory, not only the answer.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > c.alloc {
				t.Errorf("refusing it allocated %d MiB", alloc>>20)
			}
		})
	}
}

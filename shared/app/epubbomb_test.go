package app

import (
	"archive/zip"
	"bytes"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/audiobook"
)

// bombEPUB zips an EPUB whose spine lists doc under the given itemrefs:
// small on the wire, large unpacked.
func bombEPUB(t *testing.T, spine string, doc string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct{ name, body string }{
		{"mimetype", "application/epub+zip"},
		{"META-INF/container.xml", `<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>`},
		{"OEBPS/content.opf", `<package><manifest><item id="big" href="big.xhtml" media-type="application/xhtml+xml"/></manifest><spine>` + spine + `</spine></package>`},
		{"OEBPS/big.xhtml", doc},
	} {
		w, err := zw.Create(f.name)
		if err == nil {
			_, err = w.Write([]byte(f.body))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEPUBBombOverHTTP (issue 30): an EPUB whose spine lists one large
// document eight times, or whose document unpacks to hundreds of MB, is
// refused at once with a problem, costs little memory, and stores nothing.
// Before, the first took minutes and gigabytes and stored the text eight
// times.
func TestEPUBBombOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	page := "<p>" + strings.Repeat("All work and no play makes Jack a dull boy. ", 8<<20/44) + "</p>"
	for _, b := range []struct {
		name string
		data []byte
		want int
	}{
		{"one document eight times", bombEPUB(t, strings.Repeat(`<itemref idref="big"/>`, 8), page), http.StatusUnprocessableEntity},
		{"a zip bomb document", bombEPUB(t, `<itemref idref="big"/>`, "<p>"+strings.Repeat(" ", 300<<20)+"</p>"), http.StatusRequestEntityTooLarge},
	} {
		t.Run(b.name, func(t *testing.T) {
			if len(b.data) > 400<<10 {
				t.Fatalf("the bomb is %d bytes: not small", len(b.data))
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			status, body := c.uploadBook("bomb.epub", "application/epub+zip", b.data)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			assertProblem(t, b.name, status, body, b.want)
			// Server and client share this process: what the request
			// allocated is bounded by what both did.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Errorf("%s: the request allocated %d MiB", b.name, alloc>>20)
			}
			if took > 10*time.Second {
				t.Errorf("%s: answered in %v", b.name, took)
			}
			t.Logf("%s (%d bytes): %d in %v", b.name, len(b.data), status, took)
		})
	}
	list := decode[struct{ Books []audiobook.Summary }](t, c.get("/api/audiobook/books"))
	if len(list.Books) != 0 {
		t.Fatalf("refused bombs left books: %+v", list.Books)
	}
}

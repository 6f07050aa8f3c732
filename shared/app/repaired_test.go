package app

import (
	"archive/zip"
	"bytes"
	"net/http"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// damaged files of the kinds readers open anyway: the structure around the
// pages is broken, the pages are whole.
func damaged(t *testing.T, good []byte) map[string][]byte {
	t.Helper()
	sx := bytes.LastIndex(good, []byte("startxref"))
	tr := bytes.LastIndex(good, []byte("trailer"))
	xr := bytes.LastIndex(good, []byte("\nxref"))
	if sx < 0 || tr < 0 || xr < 0 {
		t.Fatal("the sample has no classic trailer to damage")
	}
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	f, err := zw.Create("readme.txt")
	if err == nil {
		_, err = f.Write([]byte("a ZIP archive first, then the PDF"))
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	return map[string][]byte{
		"startxref past the end":   join(good[:sx], []byte("startxref\n999999999\n%%EOF\n")),
		"startxref into the pages": join(good[:sx], []byte("startxref\n100\n%%EOF\n")),
		"no trailer":               join(good[:tr], []byte("startxref\n0\n%%EOF\n")),
		"garbled xref table":       join(good[:xr], []byte("\nxref\ngarbage garbage\n"), good[sx:]),
		"ZIP-first polyglot":       join(z.Bytes(), good),
	}
}

// A file pdfcpu would repair is either ingested whole (MuPDF draws its pages)
// or refused at upload with the reason: never accepted with 202 only to fail
// later (issue 12, honest limits).
func TestDamagedStructureIngestsOrIsRefusedAtUpload(t *testing.T) {
	c := newLocalApp(t)
	// One page of text keeps the seven ingests quick; the damage is around it.
	d := &pdftest.Doc{}
	d.AddPage(612, 792).Text(72, 72, 24, true, "Harbour Reborn").Text(72, 110, 11, false, "The pier was rebuilt over the winter.")
	good := d.Bytes()
	for name, data := range damaged(t, good) {
		status, b := c.upload("damaged.pdf", data, name)
		if status != http.StatusAccepted {
			t.Errorf("%s: upload answered %d %s; the pages are whole, so it must ingest", name, status, b)
			continue
		}
		view := c.waitReady(decode[magazine.Issue](t, b).ID)
		if view.Status != magazine.IssueReady || len(view.PageErrors) > 0 || view.PageCount != 1 {
			t.Errorf("%s: accepted, then ended %s with %d pages and page errors %v", name, view.Status, view.PageCount, view.PageErrors)
		}
	}
	// Cut in the middle, pages are lost that no reader can know of: refused
	// at once, with the reason. Cut in its last bytes (the end-of-file
	// marker), the pages are whole: ingested, or refused, never half.
	// A one-page file cut in half keeps its page tree but loses the page
	// (pdfcpu rebuilds the rest); so does the three-page sample.
	for _, f := range [][]byte{good, samplePDF()} {
		half := f[:len(f)/2]
		if status, b := c.upload("cut.pdf", half, "cut in half"); status != http.StatusUnprocessableEntity || !bytes.Contains(b, []byte("corrupt")) {
			t.Errorf("a file of %d bytes cut in half: %d %s, want 422 corrupt", len(f), status, b)
		}
	}
	good = samplePDF()
	status, b := c.upload("cut.pdf", good[:len(good)-40], "cut at the end")
	switch status {
	case http.StatusUnprocessableEntity:
	case http.StatusAccepted:
		if view := c.waitReady(decode[magazine.Issue](t, b).ID); view.Status != magazine.IssueReady || len(view.PageErrors) > 0 {
			t.Errorf("a file without its end-of-file marker was accepted, then ended %s with page errors %v", view.Status, view.PageErrors)
		}
	default:
		t.Errorf("a file without its end-of-file marker: %d %s", status, b)
	}
}

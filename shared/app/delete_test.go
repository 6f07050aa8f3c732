package app

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
)

// DELETE /api/magazine/{id}: 409 while ingesting, 204 once done (every
// record and blob gone: renders, thumbnails, crops, the PDF), 404 after,
// each refusal a problem body.
func TestDeleteIssueOverHTTP(t *testing.T) {
	c, local := newLocalAppWith(t, (*Local).Operations)
	status, b := c.upload("harbour.pdf", samplePDF(), "Harbour")
	if status != http.StatusAccepted {
		t.Fatalf("upload: %d %s", status, b)
	}
	is := decode[magazine.Issue](t, b)
	// Right after the upload the ingest runs: deleting now is refused.
	if status, h, b := c.do(http.MethodDelete, "/api/magazine/"+is.ID, nil); status == http.StatusConflict {
		if !strings.HasPrefix(h.Get("Content-Type"), "application/problem+json") || !strings.Contains(string(b), "still being ingested") {
			t.Errorf("409 body: %s %s", h.Get("Content-Type"), b)
		}
	} else if status != http.StatusNoContent {
		t.Fatalf("delete while ingesting: %d %s", status, b)
	}
	c.waitReady(is.ID)
	if status, _, b := c.do(http.MethodDelete, "/api/magazine/"+is.ID, nil); status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", status, b)
	}
	assertNothingKept(t, c, local, "after delete")
	status, h, b := c.do(http.MethodDelete, "/api/magazine/"+is.ID, nil)
	if status != http.StatusNotFound || !strings.HasPrefix(h.Get("Content-Type"), "application/problem+json") {
		t.Errorf("delete twice: %d %s %s", status, h.Get("Content-Type"), b)
	}
	if status, _, _ := c.do(http.MethodDelete, "/api/magazine/NOT..valid", nil); status != http.StatusUnprocessableEntity {
		t.Errorf("delete of a malformed id: %d", status)
	}
}

package issues

import (
	"context"
	"fmt"
	"slices"

	"github.com/lectern/lectern/shared/store"
)

// PagePDFKey is where Prepare keeps a page cut out of the uploaded PDF as a
// PDF of its own, next to the page's render (so deleting the issue's media
// deletes it too).
func PagePDFKey(id string, page int) string {
	return fmt.Sprintf("issues/%s/pages/%04d.pdf", id, page)
}

// splitSK holds how Prepare split the issue's PDF into pages.
const splitSK = "SPLIT"

// PageSplit is how Prepare split an issue's PDF: which pages have a PDF of
// their own at PagePDFKey. The others are read from the uploaded PDF.
type PageSplit struct {
	Pages int   `json:"pages"`
	Whole []int `json:"whole,omitempty"` // pages read from the uploaded PDF, in order
	// Note says why some or all pages are read from the uploaded PDF.
	Note string `json:"note,omitempty"`
}

// Own says whether page n has a PDF of its own.
func (s PageSplit) Own(n int) bool {
	if n < 1 || n > s.Pages {
		return false
	}
	_, found := slices.BinarySearch(s.Whole, n)
	return !found
}

// PutSplit records how the issue's PDF was split.
func (r *Repo) PutSplit(ctx context.Context, id string, s PageSplit) error {
	it, err := item(PK(id), splitSK, 0, s)
	if err != nil {
		return err
	}
	return r.table.Put(ctx, it, store.Condition{})
}

// Split is how the issue's PDF was split; an issue ingested before pages
// were split has no record, and reads every page from the uploaded PDF.
func (r *Repo) Split(ctx context.Context, id string) (PageSplit, error) {
	var s PageSplit
	if _, err := r.get(ctx, PK(id), splitSK, &s); err != nil {
		return PageSplit{}, err
	}
	return s, nil
}

package pdf

import (
	"testing"

	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// FuzzCheckPage: the pre-check reads any bytes without panicking, and a
// refusal is always a page error naming a reason. Seeds: testdata/fuzz.
func FuzzCheckPage(f *testing.F) {
	f.Add(build(article))
	f.Add(build(inlineBombPDF))
	f.Add(build(func(d *pdftest.Doc) { d.AddPage(612, 792).BrokenContent = true }))
	f.Add([]byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"))
	lim := DefaultLimits()
	lim.MaxContentBytes = 1 << 20 // keep each run small
	f.Fuzz(func(t *testing.T, data []byte) {
		err := CheckPage(data, 1, lim)
		if err == nil {
			return
		}
		inv, ok := err.(*InvalidInputError)
		if !ok || inv.Reason == "" || inv.Page != 1 {
			t.Fatalf("CheckPage = %#v, want a page-1 *InvalidInputError", err)
		}
	})
}

// FuzzInlineImages: the inline picture scanner takes any drawing
// instructions, reports only positive sizes, and ends.
func FuzzInlineImages(f *testing.F) {
	f.Add([]byte("q BI /W 10 /H 20 /CS /RGB /BPC 8 ID \x01\x02\x03 EI Q"))
	f.Add([]byte("(BI) Tj % BI\nBI /Width 3.5 /Height 2 /L 4 ID abcd EI <</X [1 2]>> BI /W 1 /H 1 ID"))
	f.Add([]byte("BI /W 99999999999 /H -1 ID EIEI EI"))
	f.Fuzz(func(t *testing.T, content []byte) {
		_ = InlineImages(content, func(w, h int64) error {
			if w <= 0 || h <= 0 || w > maxDeclared || h > maxDeclared {
				t.Fatalf("reported %d×%d", w, h)
			}
			return nil
		})
	})
}

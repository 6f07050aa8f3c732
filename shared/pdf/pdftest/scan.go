package pdftest

import "fmt"

// Invisible writes one line in text render mode 3 (neither filled nor
// stroked), as OCR software lays its text layer over a scanned picture.
func (p *Page) Invisible(x, top, size float64, s string) *Page {
	baseline := p.H - top - size*0.8
	fmt.Fprintf(&p.content, "BT 3 Tr /F1 %.2f Tf %.2f %.2f Td (%s) Tj ET\n", size, x, baseline, escape(s))
	return p
}

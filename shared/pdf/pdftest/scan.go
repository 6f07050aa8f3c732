package pdftest

import "fmt"

// Invisible writes one line in text render mode 3 (neither filled nor
// stroked), as OCR software lays its text layer over a scanned picture.
func (p *Page) Invisible(x, top, size float64, s string) *Page {
	baseline := p.H - top - size*0.8
	fmt.Fprintf(&p.content, "BT 3 Tr /F1 %.2f Tf %.2f %.2f Td (%s) Tj ET\n", size, x, baseline, escape(s))
	return p
}

// ScanBody is the text of the scanned pages tests make, line by line.
var ScanBody = []string{
	"The harbour board met on Tuesday to discuss the new pier and",
	"agreed that the work should begin before the winter storms arrive.",
	"Fishermen have waited for years for a safe place to land their",
	"catch, and the town hopes the pier will bring visitors back.",
	"The council will meet again in the spring to choose a builder",
	"and to decide how the cost of the work is to be shared out.",
}

// MisreadBody is a bad OCR engine's reading of ScanBody, line by line: the
// kind of hidden text layer a scan's own OCR can leave.
var MisreadBody = []string{
	"Tne harbonr bnard rnet ou Tnesday tc discnss tbe ncw pler aud",
	"agrecd tliat tbe wcrk shonld bcgin bcfore tbe wiuter stornis arrlve.",
	"Fisberrnen liave waitcd fcr ycars fcr a safc placc tc laud tbeir",
	"catcb, aud tbe tcwn hcpes tbe pler wlll briug visitcrs hack.",
	"Tbe ccuncil wlll rneet agaiu iu tbe sprlng tc cboose a bnilder",
	"aud tc dccide bcw tbe ccst cf tbe wcrk ls tc bc sbared cnt.",
}

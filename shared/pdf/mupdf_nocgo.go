//go:build !cgo

package pdf

import (
	"context"
	"errors"
	"image"
)

// Pure-Go builds (the API Lambdas) validate PDFs with pdfcpu but never draw
// them; only the render step is built with MuPDF.
var errNoMuPDF = errors.New("this build has no MuPDF (built without cgo)")

var errAborted = errors.New("stopped: the page took too long")

type pageRun struct {
	pixels        []byte
	text          []byte
	namesAt       int
	textErr       error
	w, h          int
	width, height float64
	errors        int
	firstError    string
}

type passWant struct {
	dpi  int
	text bool
}

func runPage(context.Context, []byte, int, passWant, int64, int64) (pageRun, error) {
	return pageRun{}, errNoMuPDF
}

type memoryError struct{ wanted, budget int64 }

func (e *memoryError) Error() string { return "over memory budget" }

var errMuPDFPassword = errors.New("the PDF needs a password")

func inspectMuPDF([]byte, int, int64) (int, []PageBox, error) { return 0, nil, errNoMuPDF }

func rgbImage(pageRun) *image.RGBA { return nil }

//go:build !cgo

package pdf

import (
	"context"
	"errors"
)

// Pure-Go builds (the API Lambdas) validate PDFs with pdfcpu but never draw
// them; only the render step is built with MuPDF.
var errNoMuPDF = errors.New("this build has no MuPDF (built without cgo)")

func runPage(context.Context, []byte, int, passWant, int64, int64) (pageRun, error) {
	return pageRun{}, errNoMuPDF
}

func inspectMuPDF([]byte, int, int64) (int, []PageBox, error) { return 0, nil, errNoMuPDF }

// MuPDFVersion says this build has no MuPDF.
func MuPDFVersion() (string, error) { return "", errNoMuPDF }

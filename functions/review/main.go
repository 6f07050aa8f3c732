// Command review serves region review and articles (edits with undo,
// reading order, cleanup, approval) through API Gateway v2. Re-reading an
// area uses MuPDF and Tesseract, so it is built like recognize (Makefile);
// having both, it also reports the built-in engines (GET /api/builtin-engines).
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/builtinsapi"
	"github.com/lectern/lectern/shared/httpapi/reviewapi"
	"github.com/lectern/lectern/shared/pdf"
)

func main() {
	awsapp.StartHTTP(lectern.Version(), reviewapi.Module, builtinsapi.Module(pdf.MuPDFVersion))
}

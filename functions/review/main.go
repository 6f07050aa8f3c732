// Command review serves region review and articles (edits with undo,
// reading order, cleanup, approval) through API Gateway v2. Re-reading an
// area uses MuPDF and Tesseract, so it is built like recognize (Makefile).
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/reviewapi"
)

func main() { awsapp.StartHTTP(lectern.Version(), reviewapi.Module) }

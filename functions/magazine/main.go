// Command magazine serves the magazine feature's HTTP operations (upload URLs,
// progress, preview, pages, renders, crops, figure refinement) through API
// Gateway v2.
package main

import (
	"os"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/pipeline/sfnexec"
)

// Cancelling an issue stops its Step Functions execution.
func main() { awsapp.StartHTTP(lectern.Version(), sfnexec.With(os.Getenv, magazineapi.API)) }

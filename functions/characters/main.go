// Command characters serves the Characters feature's operations (sets of
// characters, forms and overrides, prompt previews, image and review jobs
// started, images served) through API Gateway v2; the worker runs the jobs.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/charactersapi"
)

func main() { awsapp.StartHTTP(lectern.Version(), charactersapi.API) }

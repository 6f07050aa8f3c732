// Command magazine serves the magazine feature's HTTP operations (upload URLs,
// progress, preview, pages, renders, crops, figure refinement) through API
// Gateway v2.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
)

func main() { awsapp.StartHTTP(lectern.Version(), magazineapi.API) }

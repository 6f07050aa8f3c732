// Command voices serves the voice library's operations (search, read, add,
// edit, delete, import from an engine card, preview) through API Gateway v2,
// over the voice table every instance shares.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/voicesapi"
)

func main() { awsapp.StartHTTP(lectern.Version(), voicesapi.Module) }

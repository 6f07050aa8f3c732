// Command speech serves the speech renderer's operations (start a render of
// a text in a voice of the library, follow it, fetch its audio) through API
// Gateway v2; the render itself is a job the worker runs.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/speechapi"
)

func main() { awsapp.StartHTTP(lectern.Version(), speechapi.Module) }

// Package features lists every feature module, in the order the API
// document shows them. The local server, the platform Lambda (which serves
// the whole OpenAPI document) and the job worker mount all of them; a
// feature's own Lambda mounts only its module.
//
// Adding a feature: write its package with a `Module(*platform.Deps)
// (platform.Module, error)` that builds its services from the ports and
// returns its HTTP operations (one named constructor per operation, listed
// once in an `Operations` function) and its job kinds; add it to All; give it
// a Lambda in functions/<name> that calls awsapp.StartHTTP with its Module, and
// its routes in template.yaml. Nothing in app changes.
package features

import (
	"github.com/lectern/lectern/shared/httpapi/enginesapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/httpapi/listenapi"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/httpapi/reviewapi"
	"github.com/lectern/lectern/shared/httpapi/settingsapi"
	"github.com/lectern/lectern/shared/httpapi/speechapi"
	"github.com/lectern/lectern/shared/httpapi/voicesapi"
	"github.com/lectern/lectern/shared/platform"
)

// All is every feature's module constructor.
func All() []platform.New {
	return []platform.New{settingsapi.Module, enginesapi.Module, magazineapi.Module, reviewapi.Module, voicesapi.Module, voicesapi.LibraryModule, speechapi.Module, listenapi.Module, jobsapi.Module}
}

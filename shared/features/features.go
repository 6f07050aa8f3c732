// Package features lists every feature module, in the order the API
// document shows them, with the engine clients their jobs call (oaichat,
// visionocr). The local server and the job worker mount all of them; a
// feature's own Lambda mounts only its module, or its API constructor where
// the module's jobs call an engine the operations do not (listenapi.API,
// magazineapi.API), so the Lambda does not link that client. The platform
// Lambda serves the OpenAPI snapshot (openapidoc) and mounts none.
//
// Adding a feature: write its package with a `Module(*platform.Deps)
// (platform.Module, error)` that builds its services from the ports and
// returns its HTTP operations (one named constructor per operation, listed
// once in an `Operations` function) and its job kinds; add it to All; give it
// a Lambda in functions/<name> that calls awsapp.StartHTTP with its Module, and
// its routes in template.yaml. Nothing in app changes.
package features

import (
	"net/http"
	"time"

	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/httpapi/audiobookapi"
	"github.com/lectern/lectern/shared/httpapi/builtinsapi"
	"github.com/lectern/lectern/shared/httpapi/enginesapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/httpapi/listenapi"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/httpapi/reviewapi"
	"github.com/lectern/lectern/shared/httpapi/settingsapi"
	"github.com/lectern/lectern/shared/httpapi/speechapi"
	"github.com/lectern/lectern/shared/httpapi/voicesapi"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/pipeline/visionocr"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/readaloud"
)

// All is every feature's module constructor.
func All() []platform.New {
	return []platform.New{settingsapi.Module, enginesapi.Module, builtinsapi.Module(pdf.MuPDFVersion), magazineapi.Module(proposingSteps), reviewapi.Module, voicesapi.Module, voicesapi.LibraryModule, speechapi.Module, ListenModule(), AudiobookModule(), CharactersModule(), jobsapi.Module}
}

// ListenModule is listening with the podcast script job asking oaichat.
func ListenModule() platform.New { return listenapi.Module(podcastLLM) }

// podcastLLM is the LLM client the podcast script job asks.
func podcastLLM(base, key, model string, timeout time.Duration, client *http.Client) readaloud.Chat {
	return oaichat.New(oaichat.Config{BaseURL: base, APIKey: key, Model: model, Timeout: timeout, HTTPClient: client})
}

// AudiobookModule is the audiobook feature with its cast job asking oaichat.
func AudiobookModule() platform.New { return audiobookapi.Module(castLLM) }

// castLLM is the LLM client the audiobook cast job asks.
func castLLM(base, key, model string, timeout time.Duration, client *http.Client) cast.LLM {
	return oaichat.New(oaichat.Config{BaseURL: base, APIKey: key, Model: model, Timeout: timeout, HTTPClient: client})
}

// proposingSteps are the ingest steps as the local runner and the job
// worker run them: the vision OCR chain, and articles proposed as an issue
// finishes.
func proposingSteps(d *platform.Deps) *pipeline.Steps {
	return pipeline.Proposing(visionocr.NewSteps(d), d)
}

// Command recognize is the ingest state machine's Recognize task: it reads the
// text layer with MuPDF, so it is built like render (see its Makefile).
package main

import (
	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/pipeline"
)

func main() {
	app.StartLambda(func(d *app.Deps) any { return pipeline.Lambda(d.Steps.Recognize) })
}

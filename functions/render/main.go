// Command render is the ingest state machine's Render task: MuPDF draws the
// page, so it is built with cgo, static against musl (see its Makefile).
package main

import (
	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/pipeline"
)

func main() {
	app.StartLambda(func(d *app.Deps) any { return pipeline.Lambda(d.Steps.Render) })
}

// Command render is the ingest state machine's Render task: MuPDF draws the
// page, so it is built with cgo, static against musl (see its Makefile).
package main

import (
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/platform"
)

func main() {
	awsapp.StartStep(func(d *platform.Deps) any { return pipeline.Lambda(pipeline.NewSteps(d).Render) })
}

// Command recognize is the ingest state machine's Recognize task: it reads the
// text layer with MuPDF, so it is built like render (see its Makefile).
package main

import (
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/pipeline/visionocr"
	"github.com/lectern/lectern/shared/platform"
)

func main() {
	awsapp.StartStep(func(d *platform.Deps) any { return pipeline.Lambda(visionocr.NewSteps(d).Recognize) })
}

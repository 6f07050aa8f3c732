// Command prepare is the ingest state machine's Prepare task (statemachines/ingest.asl.json).
// It links MuPDF (see its Makefile): a file pdfcpu calls corrupt is checked
// with MuPDF, as in the local runner.
package main

import (
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/platform"
)

func main() {
	awsapp.StartStep(func(d *platform.Deps) any { return pipeline.Lambda(pipeline.NewSteps(d).Prepare) })
}

// Command finalize is the ingest state machine's Finalize task (statemachines/ingest.asl.json).
package main

import (
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/platform"
)

func main() {
	awsapp.StartStep(func(d *platform.Deps) any {
		return pipeline.Lambda(pipeline.Proposing(pipeline.NewSteps(d), d).Finalize)
	})
}

// Command refine-figures is the ingest state machine's RefineFigures task (statemachines/ingest.asl.json).
package main

import (
	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/pipeline"
)

func main() {
	app.StartLambda(func(d *app.Deps) any { return pipeline.Lambda(d.Steps.RefineFigures) })
}

// Command fail-issue records ingest failures (statemachines/ingest.asl.json):
// the FailIssue and RecordPageFailure tasks, and the watchdog rule's events
// of executions that ended without settling their issue (template.yaml).
package main

import (
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/pipeline"
	"github.com/lectern/lectern/shared/platform"
)

func main() {
	awsapp.StartStep(func(d *platform.Deps) any { return pipeline.Lambda(pipeline.NewSteps(d).RecordFailure) })
}

// Command worker is the Lambda that runs background jobs delivered by the SQS
// job queue, reporting failed records for redelivery (partial batch failure).
package main

import (
	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/jobs/sqsjobs"
)

func main() {
	app.StartLambda(func(d *app.Deps) any {
		return sqsjobs.Handler(d.Runner(), d.Log)
	})
}

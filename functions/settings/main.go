// Command settings is the Lambda serving GET/PUT /api/settings.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/httpapi"
)

func main() {
	app.StartLambda(func(d *app.Deps) any {
		return app.LambdaHTTP(lectern.Version(), d.Log, httpapi.Settings(d.Settings))
	})
}

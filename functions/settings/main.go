// Command settings is the Lambda serving GET/PUT /api/settings.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/httpapi/settingsapi"
)

func main() { app.StartHTTP(lectern.Version(), settingsapi.Module) }

// Command settings is the Lambda serving GET/PUT /api/settings.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/settingsapi"
)

func main() { awsapp.StartHTTP(lectern.Version(), settingsapi.Module) }

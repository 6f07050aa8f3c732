// Command platform is the Lambda serving /api/health, /api/version, any
// background job's status (/api/jobs/{id}) and the OpenAPI document of the
// whole API (every feature is mounted so the document is complete; API
// Gateway routes only those paths here).
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/features"
)

func main() { awsapp.StartHTTP(lectern.Version(), features.All()...) }

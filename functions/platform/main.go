// Command platform is the Lambda serving /api/health, /api/version, any
// background job's status (/api/jobs/{id}) and the OpenAPI document of the
// whole API, the snapshot the tests keep current (API Gateway routes only
// those paths here). It mounts no other feature, so it links no engine
// client.
package main

import (
	"log"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/httpapi/openapidoc"
)

func main() {
	doc, err := openapidoc.Document(lectern.Version())
	if err != nil {
		log.Fatal(err)
	}
	awsapp.StartPlatform(lectern.Version(), doc, jobsapi.Module)
}

// Command worker is the Lambda that runs background jobs delivered by the SQS
// job queue, reporting failed records for redelivery (partial batch failure).
// Every feature's job kinds are registered, as in the local job pool.
package main

import (
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/features"
)

func main() { awsapp.StartWorker(features.All()...) }

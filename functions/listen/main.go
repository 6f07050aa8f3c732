// Command listen serves listening to approved articles (narrate an article
// or an issue, write, edit and voice an article's podcast script) through
// API Gateway v2; the renders and the script job run on the worker.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/listenapi"
)

func main() { awsapp.StartHTTP(lectern.Version(), listenapi.API) }

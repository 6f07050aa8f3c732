// Command audiobook serves the audiobook feature (upload a book, its
// segments and cast, voices, start a cast or a render, downloads) through
// API Gateway v2; the cast and render jobs run on the worker.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/audiobookapi"
)

func main() { awsapp.StartHTTP(lectern.Version(), audiobookapi.API) }

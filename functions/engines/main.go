// Command engines serves the engine card operations (cards, container
// control through the Docker Engine API, Connect, Use as LLM) through API
// Gateway v2.
package main

import (
	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/app/awsapp"
	"github.com/lectern/lectern/shared/httpapi/enginesapi"
)

func main() { awsapp.StartHTTP(lectern.Version(), enginesapi.Module) }

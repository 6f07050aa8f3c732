// Package statemachines embeds the ASL definitions, so the local binary walks
// the very files template.yaml deploys to Step Functions.
package statemachines

import _ "embed"

//go:embed ingest.asl.json
var ingest []byte

// Ingest returns the magazine ingest definition.
func Ingest() []byte { return ingest }

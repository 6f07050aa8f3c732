// Package openapidoc is the OpenAPI document of the whole API, as the
// snapshot test froze it (go test ./shared/app -run OpenAPISnapshot -update
// writes openapi.json here from the local server, which mounts every
// feature). The platform Lambda serves it, so it mounts no feature: one
// that did would link every engine client and weigh 40 MB (issue 15).
package openapidoc

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed openapi.json
var snapshot []byte

// SnapshotVersion is the version the snapshot is written with.
const SnapshotVersion = "0.0.0-snapshot"

// Document is the snapshot with info.version set to version.
func Document(version string) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(snapshot, &doc); err != nil {
		return nil, fmt.Errorf("openapi snapshot: %w", err)
	}
	info, ok := doc["info"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("openapi snapshot has no info object")
	}
	info["version"] = version
	return json.Marshal(doc)
}

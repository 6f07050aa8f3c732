// Package lectern carries facts about the build that every entry point shares.
package lectern

import (
	_ "embed"
	"strings"
)

//go:embed VERSION
var versionFile string

// Version is the release version from the VERSION file (MAJOR.MINOR.PATCH).
func Version() string { return strings.TrimSpace(versionFile) }

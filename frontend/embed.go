// Package frontend embeds the built web app (frontend/dist) into the local binary.
package frontend

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Files returns the built app; it holds only .keep until `npm run build` has run.
func Files() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // "dist" is embedded above, so this cannot happen
	}
	return sub
}

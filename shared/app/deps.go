package app

import (
	"log/slog"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store"
)

// Deps is what every feature is built from, the same in both modes.
type Deps struct {
	Config   Config
	Log      *slog.Logger
	Clock    func() time.Time
	Table    store.Table
	Blobs    blob.Store
	Jobs     jobs.Queue
	Registry *jobs.Registry
	Settings *settings.Service
}

// Features lists every feature's HTTP operations; the local server and the
// platform Lambda mount them all, a feature Lambda mounts its own.
func (d *Deps) Features() []httpapi.Feature {
	return []httpapi.Feature{
		httpapi.Settings(d.Settings),
	}
}

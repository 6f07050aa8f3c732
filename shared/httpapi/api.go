// Package httpapi owns Lectern's HTTP surface: the huma v2 API every feature
// registers its operations on, the one place errors become RFC 9457 problem
// documents, bearer-token access control and request logging. A Lambda mounts
// one feature; the local server mounts them all.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
)

// Feature registers one feature's operations on the API.
type Feature func(api huma.API, log *slog.Logger)

// DefaultMaxBody bounds request bodies of operations that do not set their own limit.
const DefaultMaxBody = 64 << 10

// New builds the API on mux under /api with the platform operations
// (/api/health, /api/version, /api/openapi.json) and the given features.
func New(mux *http.ServeMux, version string, log *slog.Logger, features ...Feature) huma.API {
	cfg := huma.DefaultConfig("Lectern API", version)
	cfg.OpenAPIPath = "/api/openapi"
	// The docs renderer loads scripts from a CDN and JSON Schema links add a
	// "$schema" field to every body; neither belongs in this API.
	cfg.DocsPath = ""
	cfg.SchemasPath = ""
	cfg.CreateHooks = nil
	cfg.Info.Description = "Reading, audiobook and character service. Errors are RFC 9457 problem documents."
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"bearer": {Type: "http", Scheme: "bearer"},
	}
	cfg.Security = []map[string][]string{{"bearer": {}}}
	api := humago.New(mux, cfg)
	registerPlatform(api, version)
	for _, f := range features {
		f(api, log)
	}
	// Anything else under /api is a problem document, not the mux's plain text.
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		WriteProblem(w, http.StatusNotFound, "no operation at "+r.Method+" "+r.URL.Path)
	})
	return api
}

// HealthOutput answers GET /api/health.
type HealthOutput struct {
	Body struct {
		Status string `json:"status" enum:"ok" doc:"ok when the server can answer"`
	}
}

// VersionOutput answers GET /api/version.
type VersionOutput struct {
	Body struct {
		Version string `json:"version" doc:"release version from the VERSION file" example:"0.1.0"`
	}
}

func registerPlatform(api huma.API, version string) {
	huma.Register(api, huma.Operation{
		OperationID: "health", Method: http.MethodGet, Path: "/api/health",
		Summary: "Report that the server is up", Tags: []string{"platform"},
	}, func(ctx context.Context, _ *struct{}) (*HealthOutput, error) {
		out := &HealthOutput{}
		out.Body.Status = "ok"
		return out, nil
	})
	huma.Register(api, huma.Operation{
		OperationID: "version", Method: http.MethodGet, Path: "/api/version",
		Summary: "Report the release version", Tags: []string{"platform"},
	}, func(ctx context.Context, _ *struct{}) (*VersionOutput, error) {
		out := &VersionOutput{}
		out.Body.Version = version
		return out, nil
	})
}

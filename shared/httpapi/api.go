// Package httpapi owns Lectern's HTTP surface: the huma v2 API every feature
// registers its operations on, the one place errors become RFC 9457 problem
// documents, bearer-token access control and request logging. A Lambda mounts
// the operations of the modules it serves; the local server mounts them all.
package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"mime"
	"net/http"
	"path"
	"reflect"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
)

// Operation is one HTTP operation, ready to mount on an API. A feature's
// package has one named constructor per operation and lists them once.
type Operation func(api huma.API, log *slog.Logger)

// Op makes an Operation from its description and a handler that returns
// domain errors: they become problem documents here, so handlers stay thin.
func Op[I, O any](op huma.Operation, handle func(context.Context, *I) (*O, error)) Operation {
	return func(api huma.API, log *slog.Logger) {
		huma.Register(api, op, func(ctx context.Context, in *I) (*O, error) {
			out, err := handle(ctx, in)
			if err != nil {
				return nil, Problem(log, err)
			}
			return out, nil
		})
	}
}

// DefaultMaxBody bounds request bodies of operations that do not set their own limit.
const DefaultMaxBody = 64 << 10

// New builds the API on mux under /api with the platform operations
// (/api/health, /api/version, /api/openapi.json) and the given ones.
func New(mux *http.ServeMux, version string, log *slog.Logger, ops ...Operation) huma.API {
	return build(mux, version, log, nil, ops)
}

// NewWithDocument is New serving document at /api/openapi.json in place of
// the one the given operations make: the platform Lambda serves the whole
// API's document without mounting every feature.
func NewWithDocument(mux *http.ServeMux, version string, log *slog.Logger, document []byte, ops ...Operation) huma.API {
	api := build(mux, version, log, document, ops)
	mux.HandleFunc("GET /api/openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/openapi+json")
		w.Write(document)
	})
	return api
}

func build(mux *http.ServeMux, version string, log *slog.Logger, document []byte, ops []Operation) huma.API {
	cfg := huma.DefaultConfig("Lectern API", version)
	cfg.Components.Schemas = huma.NewMapRegistry("#/components/schemas/", schemaName)
	domainSchemas(cfg.Components.Schemas)
	cfg.OpenAPIPath = "/api/openapi"
	if document != nil {
		cfg.OpenAPIPath = ""
	}
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
	api.UseMiddleware(bodyLimit(api), requireJSON(api))
	registerPlatform(api, version)
	for _, op := range ops {
		op(api, log)
	}
	// Anything else under /api is a problem document, not the mux's plain text:
	// 405 with Allow when the path exists for other methods, else 404.
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if allowed := allowedMethods(mux, r); len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			WriteProblem(w, http.StatusMethodNotAllowed, r.Method+" is not allowed on "+r.URL.Path+"; use "+strings.Join(allowed, " or "))
			return
		}
		WriteProblem(w, http.StatusNotFound, "no operation at "+r.Method+" "+r.URL.Path)
	})
	return api
}

// requireJSON answers 415 to a body sent to a JSON operation under any
// other media type. huma would parse a missing type, or any "+json" type
// such as text/plain+json, as JSON; a cross-site HTML form can send
// text/plain without a preflight, so only application/json is JSON here.
func requireJSON(api huma.API) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		op := ctx.Operation()
		if op.RequestBody == nil || op.RequestBody.Content["application/json"] == nil {
			next(ctx)
			return
		}
		// An optional body left out (a POST of no bytes) has no type to check.
		if !op.RequestBody.Required && noBody(ctx) {
			next(ctx)
			return
		}
		sent := ctx.Header("Content-Type")
		mt, params, err := mime.ParseMediaType(sent)
		charset := strings.ToLower(params["charset"])
		if err != nil || mt != "application/json" || (charset != "" && charset != "utf-8") {
			if sent == "" {
				sent = "no Content-Type"
			}
			_ = huma.WriteErr(api, ctx, http.StatusUnsupportedMediaType,
				fmt.Sprintf("%s %s takes a JSON body sent as Content-Type: application/json (UTF-8), not %s", op.Method, op.Path, clip(sent, 100)))
			return
		}
		next(ctx)
	}
}

// noBody reports a request that declares no body: Content-Length 0, or
// neither a length nor chunks (curl -X POST).
func noBody(ctx huma.Context) bool {
	n := ctx.Header("Content-Length")
	return n == "0" || (n == "" && ctx.Header("Transfer-Encoding") == "")
}

// bodyLimit refuses a body whose declared length is over the operation's
// limit before reading it, saying both sizes. Uploads are left to their
// service, which names the file's own size against the PDF limit.
func bodyLimit(api huma.API) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		op := ctx.Operation()
		r, _ := humago.Unwrap(ctx)
		n := r.ContentLength // -1 when unknown (chunked)
		if op.MaxBodyBytes <= 0 || n <= op.MaxBodyBytes || op.RequestBody == nil || op.RequestBody.Content["multipart/form-data"] != nil {
			next(ctx)
			return
		}
		_ = huma.WriteErr(api, ctx, http.StatusRequestEntityTooLarge,
			fmt.Sprintf("the request body is %s; %s %s takes at most %s", Size(n), op.Method, op.Path, Size(op.MaxBodyBytes)))
	}
}

// Size writes a byte count for people: exact bytes, and the binary unit it
// is closest to when that reads better ("65536 bytes (64 KiB)").
func Size(n int64) string {
	exact := strconv.FormatInt(n, 10) + " bytes"
	for _, u := range []struct {
		name  string
		shift uint
	}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		if n >= 1<<u.shift {
			v := math.Round(float64(n)/float64(int64(1)<<u.shift)*100) / 100
			return exact + " (" + strconv.FormatFloat(v, 'f', -1, 64) + " " + u.name + ")"
		}
	}
	return exact
}

// HealthOutput answers GET /api/health.
type HealthOutput struct {
	Body struct {
		Status string `json:"status" enum:"ok" doc:"ok when the server can answer"`
	}
}

// VersionInput lets GET /api/version choose its format.
type VersionInput struct {
	Accept string `header:"Accept" doc:"application/json for {\"version\": \"…\"}; anything else gets the bare version as text"`
}

// VersionOutput answers GET /api/version: the VERSION file's contents as
// text (so `curl /api/version` prints them), or JSON when asked for.
type VersionOutput struct {
	ContentType string `header:"Content-Type"`
	Body        []byte
}

// VersionBody is GET /api/version's JSON answer.
type VersionBody struct {
	Version string `json:"version" doc:"the release version (the VERSION file)"`
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
	// The body is raw bytes in either format, so the document is told both.
	versionJSON := api.OpenAPI().Components.Schemas.Schema(reflect.TypeFor[VersionBody](), true, "VersionBody")
	huma.Register(api, huma.Operation{
		OperationID: "version", Method: http.MethodGet, Path: "/api/version",
		Summary: "Report the release version", Tags: []string{"platform"},
		Responses: map[string]*huma.Response{"200": {Content: map[string]*huma.MediaType{
			"application/json": {Schema: versionJSON},
			"text/plain":       {Schema: &huma.Schema{Type: huma.TypeString}},
		}}},
	}, func(ctx context.Context, in *VersionInput) (*VersionOutput, error) {
		if strings.Contains(in.Accept, "application/json") {
			body, err := json.Marshal(VersionBody{Version: version})
			return &VersionOutput{ContentType: "application/json", Body: body}, err
		}
		return &VersionOutput{ContentType: "text/plain; charset=utf-8", Body: []byte(version + "\n")}, nil
	})
}

// allowedMethods lists the methods the mux routes for r's path to a real
// operation rather than to the /api/ fallback.
func allowedMethods(mux *http.ServeMux, r *http.Request) []string {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPost, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "" && pattern != "/api/" {
			allowed = append(allowed, m)
		}
	}
	return allowed
}

// schemaName prefixes a feature package's types with the feature
// (settings.Update becomes SettingsUpdate), so names stay unique and readable
// across features.
func schemaName(t reflect.Type, hint string) string {
	name := huma.DefaultSchemaNamer(t, hint)
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	pkg := path.Base(t.PkgPath())
	if !strings.HasPrefix(t.PkgPath(), "github.com/lectern/lectern/shared/") || pkg == "httpapi" || strings.HasPrefix(name, strings.ToUpper(pkg[:1])+pkg[1:]) {
		return name
	}
	return strings.ToUpper(pkg[:1]) + pkg[1:] + name
}

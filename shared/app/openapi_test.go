package app

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/features"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/audiobookapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/httpapi/listenapi"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/httpapi/openapidoc"
	"github.com/lectern/lectern/shared/pipeline/visionocr"
	"github.com/lectern/lectern/shared/platform"
)

var update = flag.Bool("update", false, "rewrite shared/httpapi/openapidoc/openapi.json from the current API")

// TestOpenAPISnapshot freezes the whole public HTTP surface: every feature is
// mounted, as on the local server, and any change to an operation, schema or
// error shape shows up as a diff of shared/httpapi/openapidoc/openapi.json (regenerate with
// go test ./shared/app -run OpenAPISnapshot -update). The front end's types
// are generated from this file (npm run gen:api in frontend/; npm run check
// fails while they differ).
func TestOpenAPISnapshot(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	local := openTestLocal(t, "http://127.0.0.1", 1)
	mux := http.NewServeMux()
	httpapi.New(mux, "0.0.0-snapshot", log, local.Operations()...)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/api/openapi.json", nil))
	if rec.Code != 200 {
		t.Fatalf("openapi.json: %d", rec.Code)
	}
	var doc struct {
		Paths map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// Every feature is mounted: a path of each must be in the document.
	for _, p := range []string{"/api/health", "/api/settings", "/api/engines", "/api/magazine", "/api/magazine/{doc}/pages/{page}/regions/{block_id}"} {
		if _, ok := doc.Paths[p]; !ok {
			t.Errorf("path %s is missing from the document", p)
		}
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, rec.Body.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	const golden = "../httpapi/openapidoc/openapi.json"
	if *update {
		if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if !bytes.Equal(pretty.Bytes(), want) {
		t.Fatalf("the OpenAPI document changed; review the diff and rerun with -update:\n%s", pretty.String())
	}
}

// TestPlatformServesTheWholeDocument: the platform Lambda mounts only the
// job status operations, yet /api/openapi.json is the whole API's document
// (the snapshot above), under the running version.
func TestPlatformServesTheWholeDocument(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	doc, err := openapidoc.Document("1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	d := &platform.Deps{Log: log}
	jobsModule, err := jobsapi.Module(d)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	httpapi.NewWithDocument(mux, "1.2.3", log, doc, jobsModule.Operations...)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/api/openapi.json", nil))
	var served, snapshot struct {
		Info  struct{ Version string } `json:"info"`
		Paths map[string]any           `json:"paths"`
	}
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/openapi+json" {
		t.Fatalf("openapi.json: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &served); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../httpapi/openapidoc/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &snapshot); err != nil {
		t.Fatal(err)
	}
	if served.Info.Version != "1.2.3" || snapshot.Info.Version != openapidoc.SnapshotVersion {
		t.Errorf("versions: served %q, snapshot %q", served.Info.Version, snapshot.Info.Version)
	}
	if len(served.Paths) != len(snapshot.Paths) || len(served.Paths) < 40 {
		t.Errorf("served %d paths, the snapshot has %d", len(served.Paths), len(snapshot.Paths))
	}
	for p := range snapshot.Paths {
		if _, ok := served.Paths[p]; !ok {
			t.Errorf("path %s is not served", p)
		}
	}
	// The job status operation this function mounts still answers.
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/api/health", nil))
	if rec.Code != 200 {
		t.Errorf("health: %d", rec.Code)
	}
}

// TestAPIModulesServeTheSameOperations: the Lambdas of listening and of the
// magazine mount API constructors that leave the jobs (and their engine
// clients) to the worker; they must still offer every operation the full
// modules, which the local server mounts, offer.
func TestAPIModulesServeTheSameOperations(t *testing.T) {
	local := openTestLocal(t, "http://127.0.0.1", 1)
	for _, tc := range []struct {
		name      string
		api, full platform.New
	}{
		{"listen", listenapi.API, features.ListenModule()},
		{"magazine", magazineapi.API, magazineapi.Module(visionocr.NewSteps)},
		{"audiobook", audiobookapi.API, features.AudiobookModule()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api, err := tc.api(local.Deps)
			if err != nil {
				t.Fatal(err)
			}
			full, err := tc.full(local.Deps)
			if err != nil {
				t.Fatal(err)
			}
			if len(api.Jobs) != 0 || len(full.Jobs) == 0 {
				t.Errorf("the API module has %d job kinds, the full one %d", len(api.Jobs), len(full.Jobs))
			}
			if got, want := operationsOf(t, api), operationsOf(t, full); !slices.Equal(got, want) || len(got) == 0 {
				t.Errorf("API module operations %v, full module %v", got, want)
			}
		})
	}
}

// operationsOf lists a module's operations as "METHOD path".
func operationsOf(t *testing.T, m platform.Module) []string {
	t.Helper()
	api := httpapi.New(http.NewServeMux(), "test", slog.New(slog.NewTextHandler(io.Discard, nil)), m.Operations...)
	var ops []string
	for path, item := range api.OpenAPI().Paths {
		for method, op := range map[string]*huma.Operation{"GET": item.Get, "PUT": item.Put, "POST": item.Post, "PATCH": item.Patch, "DELETE": item.Delete} {
			if op != nil {
				ops = append(ops, method+" "+path)
			}
		}
	}
	slices.Sort(ops)
	return ops
}

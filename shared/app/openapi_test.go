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
	"testing"

	"github.com/lectern/lectern/shared/httpapi"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.json from the current API")

// TestOpenAPISnapshot freezes the whole public HTTP surface: every feature is
// mounted, as on the local server, and any change to an operation, schema or
// error shape shows up as a diff of testdata/openapi.json (regenerate with
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
	const golden = "testdata/openapi.json"
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

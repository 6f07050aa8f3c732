package httpapi

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

	"github.com/lectern/lectern/shared/settings"
)

var update = flag.Bool("update", false, "rewrite testdata/openapi.json from the current API")

// TestOpenAPISnapshot freezes the public HTTP surface: any change to an
// operation, schema or error shape shows up as a diff of testdata/openapi.json
// (regenerate with go test ./shared/httpapi -run OpenAPI -update).
func TestOpenAPISnapshot(t *testing.T) {
	mux := http.NewServeMux()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	New(mux, "0.0.0-snapshot", log, Settings(settings.NewService(nil, "snapshot")))
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/api/openapi.json", nil))
	if rec.Code != 200 {
		t.Fatalf("openapi.json: %d", rec.Code)
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

package docling

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/engines"
)

// docling-serve checks DOCLING_SERVE_API_KEY in X-Api-Key; a wrong key is
// the engine's 401, never shown with the key.
func TestKeyIsSentAsXApiKey(t *testing.T) {
	const key = "dk-3f9a71c2"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != key {
			http.Error(w, `{"detail":"Api key is required as x-api-key header"}`, http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"document":{"json_content":{"schema_name":"DoclingDocument"}},"status":"success","errors":[]}`))
	}))
	defer srv.Close()
	got, err := New(Config{BaseURL: srv.URL + "/v1", APIKey: key}).Vision(context.Background(), "", []byte("png"), "image/png")
	if err != nil || !strings.Contains(got, "DoclingDocument") {
		t.Fatalf("with the key: %q, %v", got, err)
	}
	_, err = New(Config{BaseURL: srv.URL + "/v1", APIKey: "wrong"}).Vision(context.Background(), "", []byte("png"), "image/png")
	var ee *engines.EngineError
	if !errors.Is(err, engines.ErrUnauthorized) || !errors.As(err, &ee) || ee.Status != http.StatusUnauthorized || strings.Contains(err.Error(), "wrong") {
		t.Fatalf("with a wrong key: %v", err)
	}
}

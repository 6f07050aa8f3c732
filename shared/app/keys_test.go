package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lectern/lectern/shared/features"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/settings"
)

// TestEngineKeysAreSealedAtRest: a copy of lectern.db alone reveals no key;
// with secret.key beside it, after a restart, the key still works.
func TestEngineKeysAreSealedAtRest(t *testing.T) {
	const llmKey, cardKey = "sk-at-rest-llm-0123456789", "sk-at-rest-card-9876543210"
	engine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+cardKey {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"object":"list","data":[{"id":"m1"}]}`))
	}))
	defer engine.Close()
	dir := t.TempDir()
	open := func(dir string) *Local {
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		cfg := platform.Config{Mode: platform.ModeLocal, Instance: "default", DataDir: dir, Workers: 1}
		local, err := OpenLocal(context.Background(), cfg, "http://127.0.0.1", log, features.All()...)
		if err != nil {
			t.Fatal(err)
		}
		return local
	}
	ctx := context.Background()

	local := open(dir)
	if _, err := local.Settings.Update(ctx, settings.Update{LLMAPIKey: ptrTo(llmKey), EngineAPIKeys: map[string]string{"gateway": cardKey}}); err != nil {
		t.Fatal(err)
	}
	local.Close()

	db, err := os.ReadFile(filepath.Join(dir, "lectern.db"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{llmKey, cardKey} {
		for _, form := range []string{k, base64.StdEncoding.EncodeToString([]byte(k)), base64.RawURLEncoding.EncodeToString([]byte(k))} {
			if bytes.Contains(db, []byte(form)) {
				t.Errorf("lectern.db holds %q", form)
			}
		}
	}
	info, err := os.Stat(filepath.Join(dir, "secret.key"))
	if err != nil || info.Mode().Perm() != 0o600 || info.Size() != 32 {
		t.Fatalf("secret.key: %v, %v", info, err)
	}

	// Restarted with its key file, the card key still opens the engine.
	local = open(dir)
	c := &apiClient{t: t}
	srv := httptest.NewServer(LocalHandler("0.0.0", "", local.Log, SiteParts{Static: fstest.MapFS{}}, local.Operations()...))
	c.base = srv.URL
	status, _, b := c.do(http.MethodPut, "/api/engines/gateway", []byte(`{"kind":"llm","base_url":"`+engine.URL+`"}`))
	if status != http.StatusOK {
		t.Fatalf("put card: %d %s", status, b)
	}
	if status, _, b = c.do(http.MethodPost, "/api/engines/gateway/connect", nil); status != http.StatusOK || !strings.Contains(string(b), "m1") {
		t.Fatalf("connect after a restart: %d %s", status, b)
	}
	srv.Close()
	local.Close()

	// The database copied without its key file: no key comes back.
	stolen := t.TempDir()
	if err := os.WriteFile(filepath.Join(stolen, "lectern.db"), db, 0o600); err != nil {
		t.Fatal(err)
	}
	thief := open(stolen)
	defer thief.Close()
	got, err := thief.Settings.Load(ctx)
	if err != nil || got.LLMAPIKey != "" || got.KeyFor("gateway") != "" {
		t.Fatalf("a copied database gave keys: %q %q, %v", got.LLMAPIKey, got.KeyFor("gateway"), err)
	}
}

func ptrTo(s string) *string { return &s }

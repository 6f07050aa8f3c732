package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/features"
	"github.com/lectern/lectern/shared/platform"
)

// TestADamagedSecretKeyStopsTheServer: a secret.key that is not 32 bytes
// is an error at start, and the file is kept as it was: replacing it would
// lose every key sealed with it.
func TestADamagedSecretKeyStopsTheServer(t *testing.T) {
	dir := t.TempDir()
	damaged := []byte("only-17-bytes-ok\n")
	path := filepath.Join(dir, "secret.key")
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := platform.Config{Mode: platform.ModeLocal, Instance: "default", DataDir: dir, Workers: 1}
	local, err := OpenLocal(context.Background(), cfg, "http://127.0.0.1", slog.New(slog.NewTextHandler(io.Discard, nil)), features.All()...)
	if err == nil {
		local.Close()
		t.Fatal("the server started with a damaged secret.key")
	}
	if !strings.Contains(err.Error(), "not 32") {
		t.Errorf("error %q does not say what is wrong", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, damaged) {
		t.Errorf("secret.key was replaced: %q", got)
	}
}

package app

import (
	"context"
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/lectern/lectern/shared/features"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/pipeline/visionocr"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/settings"
)

// openTestLocal opens the local platform with every feature in a temporary
// folder, closed when the test ends; base is where its server listens.
func openTestLocal(tb testing.TB, base string, workers int) *Local {
	tb.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// LECTERN_PIPER is the Makefile's Piper; unset, the server's default.
	cfg := platform.Config{Mode: platform.ModeLocal, Instance: "default", DataDir: tb.TempDir(), Workers: workers, PiperPython: os.Getenv("LECTERN_PIPER")}
	local, err := OpenLocal(context.Background(), cfg, base, log, features.All()...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { local.Close() })
	// The ear (on by default) is switched off: these tests count engine
	// calls and cached chunks, which the ear's retries would change, and
	// a busy machine need not hear every test render. The ear's default
	// and its retries are tested on their own (settings, speech/render,
	// e2e 10-settings and 77-ear).
	off := false
	if _, err := local.Settings.Update(context.Background(), settings.Update{EarCheck: &off}); err != nil {
		tb.Fatal(err)
	}
	return local
}

// magazineOf is the magazine feature's services over a local platform, for
// ingesting a file in-process as `lectern ingest` does.
func magazineOf(tb testing.TB, local *Local) *magazineapi.Parts {
	tb.Helper()
	mag, err := magazineapi.New(local.Deps, visionocr.NewSteps(local.Deps))
	if err != nil {
		tb.Fatal(err)
	}
	return mag
}

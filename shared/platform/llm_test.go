package platform

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store/bolt"
)

func TestLLMReadsTheCheckedEndpointOfSettings(t *testing.T) {
	ctx := context.Background()
	table, err := bolt.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer table.Close()
	d := &Deps{Config: Config{Mode: ModeLocal}, Settings: settings.NewService(table, "default")}
	set := func(url string) {
		t.Helper()
		if _, err := d.Settings.Update(ctx, settings.Update{LLMURL: &url}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.LLM(ctx); !errors.Is(err, ErrNoLLM) {
		t.Fatalf("no llm_url: %v, want ErrNoLLM", err)
	}
	set("http://127.0.0.1:8000")
	ep, err := d.LLM(ctx)
	if err != nil || ep.BaseURL != "http://127.0.0.1:8000/v1" || ep.Client == nil {
		t.Fatalf("local LLM: %+v, %v", ep, err)
	}
	d.Config.Mode = ModeAWS
	if _, err := d.LLM(ctx); fault.KindOf(err) != fault.Invalid {
		t.Fatalf("a loopback LLM in AWS without an allowlist: %v, want an Invalid refusal", err)
	}
}

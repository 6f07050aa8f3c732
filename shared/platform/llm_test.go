package platform

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/lectern/lectern/shared/engines/urlsafe"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store/bolt"
)

// settingsDeps is Deps in mode with settings in a fresh bbolt table.
func settingsDeps(t *testing.T, mode Mode) *Deps {
	t.Helper()
	table, err := bolt.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })
	return &Deps{Config: Config{Mode: mode}, Settings: settings.NewService(table, "default")}
}

func TestLLMReadsTheCheckedEndpointOfSettings(t *testing.T) {
	ctx := context.Background()
	d := settingsDeps(t, ModeLocal)
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

// TestLLMClientChecksEveryConnection: the allow list opens one loopback
// port for the LLM; the LLM redirects to another, which nobody allowed. The
// URL check passed (it saw the allowed one), so only the client's
// connect-time check stands between the redirect and the other port.
func TestLLMClientChecksEveryConnection(t *testing.T) {
	ctx := context.Background()
	var otherHits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		otherHits.Add(1)
		io.WriteString(w, `{"data":[]}`)
	}))
	defer other.Close()
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer llm.Close()
	d := settingsDeps(t, ModeAWS)
	url, allow := llm.URL+"/v1", []string{llm.Listener.Addr().String()}
	if _, err := d.Settings.Update(ctx, settings.Update{LLMURL: &url, EngineURLAllowlist: allow}); err != nil {
		t.Fatal(err)
	}
	ep, err := d.LLM(ctx)
	if err != nil {
		t.Fatalf("the allowed LLM: %v", err)
	}
	resp, err := ep.Client.Get(ep.BaseURL + "/models")
	if err == nil {
		resp.Body.Close()
	}
	if !errors.Is(err, urlsafe.ErrUnsafeURL) || otherHits.Load() != 0 {
		t.Fatalf("redirect to an address nobody allowed: %v, reached it %d times", err, otherHits.Load())
	}
}

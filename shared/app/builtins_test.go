package app

import (
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/builtins"
)

// GET /api/builtin-engines on the local server: the engines installed on
// this machine are found with the version they print themselves.
func TestBuiltinEnginesOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	r := decode[builtins.Report](t, c.get("/api/builtin-engines"))
	got := map[string]builtins.Engine{}
	for _, e := range r.Engines {
		got[e.Name] = e
	}
	if len(got) != 6 || r.Host != "this server" {
		t.Fatalf("report = %+v, want six engines of this server", r)
	}
	if e := got["text-layer"]; !e.Found || e.Version == "" {
		t.Errorf("the text layer (MuPDF is linked into this build) = %+v", e)
	}
	for name, flag := range map[string]string{"tesseract": "--version", "espeak-ng": "--version", "ffmpeg": "-version"} {
		out, err := exec.Command(name, flag).CombinedOutput()
		if err != nil {
			t.Fatalf("%s is part of this machine's setup (make deps): %v", name, err)
		}
		if e := got[name]; !e.Found || e.Version == "" || !strings.Contains(string(out), e.Version) {
			t.Errorf("%s = %+v; it prints %.80q", name, e, out)
		}
	}
	status, _, b := c.do(http.MethodPost, "/api/builtin-engines", nil)
	if status != http.StatusMethodNotAllowed {
		t.Errorf("POST = %d %s, want 405", status, b)
	}
}

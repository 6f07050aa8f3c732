package remotevoices_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/voicesapi"
	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/remotevoices"
	"github.com/lectern/lectern/shared/voices/sqlitevoices"
	"github.com/lectern/lectern/shared/voices/voicetest"
)

const token = "remote-library-test-token"

// owner serves the real library operations over an SQLite library in a
// temporary folder, behind the token check a local server with
// LECTERN_TOKEN has. It answers the base URL (127.0.0.1) and the file's
// own store, to see what was written.
func owner(t *testing.T) (string, *sqlitevoices.Store) {
	t.Helper()
	file, err := sqlitevoices.Open(filepath.Join(t.TempDir(), "voices.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { file.Close() })
	mux := http.NewServeMux()
	httpapi.New(mux, "test", slog.New(slog.NewTextHandler(io.Discard, nil)), voicesapi.LibraryOperations(file)...)
	srv := httptest.NewServer(httpapi.RequireToken(token, mux))
	t.Cleanup(srv.Close)
	return srv.URL, file
}

func open(t *testing.T, base string, opts remotevoices.Options) *remotevoices.Store {
	t.Helper()
	s, err := remotevoices.New(base, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	t.Run("remote", func(t *testing.T) {
		voicetest.Run(t, func(t *testing.T) voices.Store {
			base, _ := owner(t)
			return open(t, base, remotevoices.Options{Token: token})
		})
	})
}

var ctx = context.Background()

func TestCheckURLRefusesWhatIsNotAnInstancesBaseURL(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"ftp://127.0.0.1:8080", "http or https"},
		{"http://user:secret@127.0.0.1:8080", "credentials"},
		{"http://127.0.0.1:8080/?token=x", "without a query"},
		{"http:///voices", "no host"},
		{"127.0.0.1:8080", "does not parse"},
		{"http://user:secret@127.0.0.1:8080/%zz", "does not parse"},
	} {
		_, err := remotevoices.CheckURL(tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.url, err, tc.want)
		} else if strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the error shows the password: %v", tc.url, err)
		}
	}
	for raw, want := range map[string]string{
		"http://127.0.0.1:8080/":          "http://127.0.0.1:8080",
		"https://127.0.0.1:8443/lectern/": "https://127.0.0.1:8443/lectern",
	} {
		u, err := remotevoices.CheckURL(raw)
		if err != nil || u.String() != want {
			t.Errorf("%s: got %v, %v; want %s", raw, u, err, want)
		}
	}
}

func TestIsURLTellsInstancesFromFiles(t *testing.T) {
	for v, want := range map[string]bool{
		"http://127.0.0.1:8080": true, "https://127.0.0.1:8443": true, "ftp://127.0.0.1": true,
		"": false, "data/voices.db": false, "/srv/lectern/voices.db": false,
	} {
		if remotevoices.IsURL(v) != want {
			t.Errorf("IsURL(%q) = %v", v, !want)
		}
	}
}

func TestAnOwnerThatIsDownIsUnavailableAndNamed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ln.Close()
	s := open(t, base, remotevoices.Options{})
	start := time.Now()
	_, err = s.Get(ctx, "a")
	if !errors.Is(err, remotevoices.ErrUnreachable) || fault.KindOf(err) != fault.Unavailable || !strings.Contains(err.Error(), base) {
		t.Fatalf("got %v, want ErrUnreachable naming %s", err, base)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatalf("took %v", time.Since(start))
	}
}

func TestAnOwnerThatHangsTimesOut(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	s := open(t, srv.URL, remotevoices.Options{Timeout: 200 * time.Millisecond})
	_, err := s.Search(ctx, voices.Query{})
	if !errors.Is(err, remotevoices.ErrUnreachable) || !strings.Contains(err.Error(), "within 200ms") {
		t.Fatalf("got %v", err)
	}
}

func TestTheOwnersTokenIsSentAndAMissingOneIsExplained(t *testing.T) {
	base, _ := owner(t)
	if _, err := open(t, base, remotevoices.Options{Token: token}).Search(ctx, voices.Query{}); err != nil {
		t.Fatalf("with the token: %v", err)
	}
	_, err := open(t, base, remotevoices.Options{}).Search(ctx, voices.Query{})
	if !errors.Is(err, remotevoices.ErrBadAnswer) || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "LECTERN_TOKEN") {
		t.Fatalf("without the token: %v", err)
	}
}

func TestTheOwnerRefusesABadRecordAndWritesNothing(t *testing.T) {
	base, file := owner(t)
	s := open(t, base, remotevoices.Options{Token: token})
	bad := voicetest.Voice("bad", "Bad")
	bad.Language = "not a language"
	if _, err := s.Create(ctx, bad); !errors.Is(err, voices.ErrInvalid) || !strings.Contains(err.Error(), "language") {
		t.Fatalf("create: %v", err)
	}
	clone := voicetest.Voice("clone", "No consent")
	clone.Source = voices.SourceClone
	if _, err := s.Import(ctx, []voices.Voice{voicetest.Voice("good", "Good"), clone}); !errors.Is(err, voices.ErrInvalid) {
		t.Fatalf("import: %v", err)
	}
	if r, err := file.Search(ctx, voices.Query{Limit: 10}); err != nil || r.Total != 0 {
		t.Fatalf("the file holds %d voices (%v), want none", r.Total, err)
	}
}

// The problem documents themselves: each sentinel has its own type, so
// the two 409s are told apart without reading their text.
func TestProblemsNameTheirSentinelByType(t *testing.T) {
	base, file := owner(t)
	v, err := file.Create(ctx, voicetest.Voice("a", "A"))
	if err != nil {
		t.Fatal(err)
	}
	body := func(v voices.Voice) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	moved := v
	moved.ID = "b"
	stale := v
	stale.Version = 7
	for _, tc := range []struct {
		method, path, body string
		status             int
		typ                string
	}{
		{"GET", "/api/voice-library/nobody", "", 404, remotevoices.ProblemNotFound},
		{"POST", "/api/voice-library", body(v), 409, remotevoices.ProblemExists},
		{"PUT", "/api/voice-library/a", body(stale), 409, remotevoices.ProblemStale},
		{"PUT", "/api/voice-library/a", body(moved), 422, remotevoices.ProblemInvalid},
		{"DELETE", "/api/voice-library/a?version=3", "", 409, remotevoices.ProblemStale},
	} {
		req, _ := http.NewRequest(tc.method, base+tc.path, strings.NewReader(tc.body))
		req.Header.Set("Authorization", "Bearer "+token)
		if tc.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Type   string
			Status int
		}
		_ = json.NewDecoder(resp.Body).Decode(&p)
		resp.Body.Close()
		if resp.StatusCode != tc.status || p.Status != tc.status || p.Type != tc.typ ||
			resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s %s: %d %+v (%s), want %d %s", tc.method, tc.path, resp.StatusCode, p, resp.Header.Get("Content-Type"), tc.status, tc.typ)
		}
	}
}

func TestImportSendsALongListInBatches(t *testing.T) {
	base, file := owner(t)
	s := open(t, base, remotevoices.Options{Token: token})
	var vs []voices.Voice
	for i := range remotevoices.MaxImport + 20 {
		vs = append(vs, voicetest.Voice(fmt.Sprintf("v%04d", i), "Voice"))
	}
	if n, err := s.Import(ctx, vs); err != nil || n != len(vs) {
		t.Fatalf("imported %d (%v), want %d", n, err, len(vs))
	}
	if r, _ := file.Search(ctx, voices.Query{Limit: 1}); r.Total != len(vs) {
		t.Fatalf("the file holds %d", r.Total)
	}
}

func TestAnswersThatAreNotTheProtocolAreNeverEchoed(t *testing.T) {
	for name, answer := range map[string]func(w http.ResponseWriter){
		"a page, not JSON": func(w http.ResponseWriter) { _, _ = io.WriteString(w, "<html>secret-page</html>") },
		"a 500 page": func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, "secret-stack-trace")
		},
		"an endless body": func(w http.ResponseWriter) {
			chunk := []byte(`{"items":["secret-` + strings.Repeat("x", 1<<16) + `"`)
			for range 200 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { answer(w) }))
			defer srv.Close()
			_, err := open(t, srv.URL, remotevoices.Options{}).Search(ctx, voices.Query{})
			if !errors.Is(err, remotevoices.ErrBadAnswer) || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), srv.URL) {
				t.Fatalf("got %v", err)
			}
		})
	}
}

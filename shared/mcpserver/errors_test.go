package mcpserver

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// standIn is an upstream that answers each issue id with a chosen failure:
// statusNNN answers NNN with a problem document, hangslow never answers
// within the client's timeout, notjsonbody answers 200 with a body that is not
// JSON.
func standIn(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := strings.TrimPrefix(r.URL.Path, "/api/magazine/")
		switch {
		case id == "hangslow":
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		case id == "notjsonbody":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, "<html>")
		case strings.HasPrefix(id, "status"):
			var code int
			fmt.Sscanf(strings.TrimPrefix(id, "status"), "%d", &code)
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(code)
			fmt.Fprintf(w, `{"title":%q,"status":%d,"detail":"stand-in says %d"}`, http.StatusText(code), code, code)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestUpstreamErrorsMapToTheSpecsTexts calls a tool against an upstream
// that fails each way the spec's error table names.
func TestUpstreamErrorsMapToTheSpecsTexts(t *testing.T) {
	up := standIn(t)
	api, err := NewClient(up.URL, "tok", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The hang gets a client whose calls end sooner than the spec's 30 s.
	hasty, err := NewClient(up.URL, "tok", nil, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	s, slow := connect(t, api, Options{}, nil), connect(t, hasty, Options{}, nil)
	for _, tc := range []struct {
		id, want string
		s        *session
	}{
		{"status401", "Error: Invalid API authentication.", s},
		{"status403", "Error: Permission denied.", s},
		{"status404", "Error: Resource not found. Please check the ID is correct.", s},
		{"status429", "Error: Rate limit exceeded. Please wait before making more requests.", s},
		{"status409", "Error: API request failed with status 409. Lectern said: stand-in says 409", s},
		{"status500", "Error: API request failed with status 500.", s},
		{"hangslow", "Error: Request timed out. Please try again.", slow},
		{"notjsonbody", "Error: Unexpected error occurred: *json.SyntaxError:", s},
	} {
		t.Run(tc.id, func(t *testing.T) {
			tc.s.fails("lectern_get_issue_status", map[string]any{"issue_id": tc.id}, tc.want)
		})
	}
}

func TestErrorText(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"404 with detail", &StatusError{Status: 404, Detail: "issue abc not found"}, "Error: Resource not found. Please check the ID is correct. Lectern said: issue abc not found"},
		{"wrapped 401", fmt.Errorf("list: %w", &StatusError{Status: 401}), "Error: Invalid API authentication. Check the Lectern token (--token or LECTERN_TOKEN)."},
		{"invalid input", fmt.Errorf("%w: give exactly one of path or url", ErrInvalid), "Error: Invalid input: give exactly one of path or url"},
		{"own timeout", fmt.Errorf("%w: job j1 still running", ErrTimeout), "Error: Request timed out. Please try again. (timed out: job j1 still running)"},
		{"unexpected", fmt.Errorf("decode: %w", errors.New("boom")), "Error: Unexpected error occurred: *errors.errorString: decode: boom"},
		{"control characters in a detail", &StatusError{Status: 418, Detail: "bad\u200b\u0007 teapot"}, "Error: API request failed with status 418. Lectern said: bad teapot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorText(tc.err); got != tc.want {
				t.Errorf("ErrorText = %q, want %q", got, tc.want)
			}
		})
	}
}

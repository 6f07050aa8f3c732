package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorder is an upstream that answers every voice search with no voices
// and every issue with a fixed one, recording what it was asked.
type recorder struct {
	mu    sync.Mutex
	calls []string
	auth  []string
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec.mu.Lock()
	rec.calls = append(rec.calls, r.Method+" "+r.URL.RequestURI())
	rec.auth = append(rec.auth, r.Header.Get("Authorization"))
	rec.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/api/voices":
		_ = json.NewEncoder(w).Encode(map[string]any{"total": 0, "count": 0, "offset": 0, "items": []any{}, "has_more": false, "next_offset": nil})
	case r.URL.Path == "/api/engines":
		io.WriteString(w, `{"cards":[{"name":"harbour","kind":"llm","url":"http://engine.example/v1","url_source":"card","docker_url":"","key_configured":false}]}`)
	case strings.HasPrefix(r.URL.Path, "/api/magazine/"):
		_ = json.NewEncoder(w).Encode(issue{ID: strings.TrimPrefix(r.URL.Path, "/api/magazine/"), Title: "T", Status: "ready"})
	default:
		http.NotFound(w, r)
	}
}

func (rec *recorder) last() string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.calls) == 0 {
		return ""
	}
	return rec.calls[len(rec.calls)-1]
}

func recordingSession(t *testing.T) (*session, *recorder) {
	t.Helper()
	api, rec := recordingAPI(t)
	return connect(t, api, Options{}, nil), rec
}

// recordingAPI is a client of a stand-in API that records every call.
func recordingAPI(t *testing.T) (*Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	up := httptest.NewServer(rec)
	t.Cleanup(up.Close)
	api, err := NewClient(up.URL, "secret-token", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return api, rec
}

// TestInputIsStrippedAndValidatedBeforeTheCall checks the input rules: a
// value's whitespace is stripped before validation, and input outside a
// limit never reaches the API.
func TestInputIsStrippedAndValidatedBeforeTheCall(t *testing.T) {
	s, rec := recordingSession(t)
	s.ok("lectern_get_issue_status", map[string]any{"issue_id": "  abcd1234\n"})
	if got := rec.last(); got != "GET /api/magazine/abcd1234" {
		t.Errorf("stripped id called %q", got)
	}
	before := len(rec.calls)
	for _, tc := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"an extra field", "lectern_get_issue_status", map[string]any{"issue_id": "abcd1234", "verbose": true}},
		{"a missing required field", "lectern_get_issue_status", map[string]any{}},
		{"an id outside its pattern", "lectern_get_issue_status", map[string]any{"issue_id": "ABC"}},
		{"a blank query once stripped", "lectern_search_voices", map[string]any{"query": "   "}},
		{"a one-letter query", "lectern_search_voices", map[string]any{"query": " a "}},
		{"a query over 200 characters", "lectern_search_voices", map[string]any{"query": strings.Repeat("x", 201)}},
		{"limit over 100", "lectern_list_issues", map[string]any{"limit": 101}},
		{"limit under 1", "lectern_list_issues", map[string]any{"limit": 0}},
		{"a negative offset", "lectern_list_issues", map[string]any{"offset": -1}},
		{"an unknown response format", "lectern_list_issues", map[string]any{"response_format": "xml"}},
		{"a page of 0", "lectern_get_page_regions", map[string]any{"issue_id": "abcd1234", "page": 0}},
		{"too many ids", "lectern_retype_regions", map[string]any{"issue_id": "abcd1234", "page": 1, "kind": "noise", "region_ids": make([]string, 1001)}},
		{"no ids", "lectern_set_reading_order", map[string]any{"issue_id": "abcd1234", "page": 1, "region_ids": []string{}}},
		{"a box of three numbers", "lectern_edit_region", map[string]any{"issue_id": "abcd1234", "page": 1, "region_id": "r1", "bbox": []float64{1, 2, 3}}},
		{"an edit that changes nothing", "lectern_edit_region", map[string]any{"issue_id": "abcd1234", "page": 1, "region_id": "r1"}},
		{"both path and url", "lectern_upload_issue", map[string]any{"path": "/tmp/a.pdf", "url": "https://example.org/a.pdf"}},
		{"a url that is not http", "lectern_upload_issue", map[string]any{"url": "file:///etc/passwd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s.fails(tc.tool, tc.args, "Error: Invalid input: ")
		})
	}
	if len(rec.calls) != before {
		t.Errorf("invalid input reached the API: %v", rec.calls[before:])
	}
}

func TestSearchWithNoMatchIsNotAnError(t *testing.T) {
	s, rec := recordingSession(t)
	text := s.ok("lectern_search_voices", map[string]any{"query": " old sailor ", "language": "en"})
	if text != "No voices found matching 'old sailor en'" {
		t.Errorf("no match = %q", text)
	}
	if got := rec.last(); !strings.Contains(got, "q=old+sailor") || !strings.Contains(got, "limit=20") || !strings.Contains(got, "offset=0") {
		t.Errorf("search called %q, want the stripped query and the default page", got)
	}
	empty := jsonOf[voiceSearch](t, s.ok("lectern_search_voices", map[string]any{"query": "old sailor", "response_format": "json"}))
	if empty.Total != 0 || empty.Voices == nil || empty.HasMore || empty.NextOffset != nil {
		t.Errorf("no match in json = %+v", empty)
	}
}

func TestTokenIsSentAsBearer(t *testing.T) {
	s, rec := recordingSession(t)
	s.ok("lectern_get_issue_status", map[string]any{"issue_id": "abcd1234"})
	if rec.auth[len(rec.auth)-1] != "Bearer secret-token" {
		t.Errorf("Authorization = %q", rec.auth[len(rec.auth)-1])
	}
}

// TestEngineKeyOnAnOlderProtocol asks for a key from a client on protocol
// 2025-11-25, which gets elicitation/create from the server mid-call (the
// SDK's stand-in for the newer input-required round trip), and declines.
func TestEngineKeyOnAnOlderProtocol(t *testing.T) {
	rec := &recorder{}
	up := httptest.NewServer(rec)
	t.Cleanup(up.Close)
	api, err := NewClient(up.URL, "tok", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var asked []*mcp.ElicitParams
	s := connect(t, api, Options{WebURL: "https://lectern.example/"}, func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked = append(asked, r.Params)
		return &mcp.ElicitResult{Action: "decline"}, nil
	}, "2025-11-25")
	if v := s.cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Fatalf("negotiated %s", v)
	}
	text := s.ok("lectern_set_engine_key", map[string]any{"engine": "harbour"})
	if text != "The key was not set (decline). Engine **harbour** key set: false.\n" {
		t.Errorf("declined = %q", text)
	}
	if len(asked) != 1 || asked[0].Mode != "url" || asked[0].URL != "https://lectern.example/#/engines" {
		t.Errorf("asked %+v", asked)
	}
	s.fails("lectern_set_engine_key", map[string]any{"engine": "nosuchcard"}, "Error: Resource not found.")
}

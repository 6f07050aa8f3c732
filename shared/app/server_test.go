package app

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/settingsapi"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store/bolt"
)

// apiClient talks to a real server over HTTP and keeps every response body,
// so tests can prove no key byte ever leaves the server.
type apiClient struct {
	t     *testing.T
	base  string
	token string
	// mu guards bodies: a job's hook may call the API while the test
	// polls the job with the same client.
	mu     sync.Mutex
	bodies [][]byte
}

func (c *apiClient) do(method, path string, body []byte, header ...string) (int, http.Header, []byte) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	c.mu.Lock()
	c.bodies = append(c.bodies, b)
	c.mu.Unlock()
	return resp.StatusCode, resp.Header, b
}

func (c *apiClient) assertNoKeyLeaked(keys ...string) {
	c.t.Helper()
	for i, b := range c.bodies {
		for _, k := range keys {
			if bytes.Contains(b, []byte(k)) {
				c.t.Fatalf("response %d contains key %q: %s", i, k, b)
			}
		}
	}
}

type testServer struct {
	client *apiClient
	svc    *settings.Service
}

func newTestServer(t *testing.T, token string) testServer {
	t.Helper()
	table, err := bolt.Open(filepath.Join(t.TempDir(), "lectern.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })
	svc := settings.NewService(table, "default")
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	static := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Lectern</title>")}}
	srv := httptest.NewServer(LocalHandler(lectern.Version(), token, log, SiteParts{Static: static}, settingsapi.Operations(svc)...))
	t.Cleanup(srv.Close)
	return testServer{client: &apiClient{t: t, base: srv.URL, token: token}, svc: svc}
}

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

type problem struct {
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Errors []struct {
		Message  string `json:"message"`
		Location string `json:"location"`
	} `json:"errors"`
}

func TestPlatformOperations(t *testing.T) {
	c := newTestServer(t, "").client
	status, _, body := c.do("GET", "/api/health", nil)
	if status != 200 || decode[map[string]string](t, body)["status"] != "ok" {
		t.Fatalf("health: %d %s", status, body)
	}
	status, header, body := c.do("GET", "/api/version", nil)
	if status != 200 || string(body) != lectern.Version()+"\n" || !strings.HasPrefix(header.Get("Content-Type"), "text/plain") {
		t.Fatalf("version as text: %d %q %q, want %s", status, header.Get("Content-Type"), body, lectern.Version())
	}
	status, _, body = c.do("GET", "/api/version", nil, "Accept", "application/json")
	if status != 200 || decode[map[string]string](t, body)["version"] != lectern.Version() {
		t.Fatalf("version as JSON: %d %s, want %s", status, body, lectern.Version())
	}
	status, _, body = c.do("GET", "/api/openapi.json", nil)
	doc := decode[struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}](t, body)
	if status != 200 || !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Fatalf("openapi: %d version %q", status, doc.OpenAPI)
	}
	for _, p := range []string{"/api/health", "/api/version", "/api/settings"} {
		if doc.Paths[p] == nil {
			t.Errorf("openapi lacks %s", p)
		}
	}
	if doc.Paths["/api/settings"]["put"] == nil {
		t.Error("openapi lacks PUT /api/settings")
	}
	status, header, body = c.do("GET", "/api/no-such-thing", nil)
	if status != 404 || header.Get("Content-Type") != "application/problem+json" || decode[problem](t, body).Status != 404 {
		t.Fatalf("unknown path: %d %s %s", status, header.Get("Content-Type"), body)
	}
	status, header, body = c.do("DELETE", "/api/settings", nil)
	if status != 405 || header.Get("Allow") != "GET, PUT" || header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("wrong method: %d allow=%q %s", status, header.Get("Allow"), body)
	}
	status, _, body = c.do("GET", "/", nil)
	if status != 200 || !strings.Contains(string(body), "<title>Lectern") {
		t.Fatalf("web app: %d %s", status, body)
	}
}

func TestSettingsKeysNeverLeave(t *testing.T) {
	ts := newTestServer(t, "")
	c := ts.client
	const llmKey, ttsKey, ocrKey = "sk-llm-4c8e1f0a", "tts-k-77b2d9", "ocr-k-19fe03"

	status, _, body := c.do("GET", "/api/settings", nil)
	view := decode[settings.View](t, body)
	if status != 200 || view.LLMAPIKey != "" || view.InstanceName != "default" {
		t.Fatalf("fresh settings: %d %s", status, body)
	}

	status, _, body = c.do("PUT", "/api/settings", []byte(`{"llm_url":"http://10.1.2.3:4000/v1","llm_api_key":"`+llmKey+
		`","engine_api_keys":{"tts":"`+ttsKey+`","ocr":"`+ocrKey+`"},"vision_ocr_url":"http://10.1.2.3:8001/v1"}`))
	view = decode[settings.View](t, body)
	if status != 200 || view.LLMAPIKey != settings.Configured || view.EngineAPIKeys["tts"] != settings.Configured ||
		view.EngineAPIKeys["ocr"] != settings.Configured || view.LLMURL != "http://10.1.2.3:4000/v1" {
		t.Fatalf("put: %d %s", status, body)
	}

	// Sending the placeholder back keeps the keys; "" clears one.
	status, _, body = c.do("PUT", "/api/settings", []byte(`{"llm_api_key":"__configured__","engine_api_keys":{"tts":"__configured__","ocr":""}}`))
	view = decode[settings.View](t, body)
	if status != 200 || view.LLMAPIKey != settings.Configured || view.EngineAPIKeys["tts"] != settings.Configured {
		t.Fatalf("put placeholder: %d %s", status, body)
	}
	if _, ok := view.EngineAPIKeys["ocr"]; ok {
		t.Fatalf("cleared card key still listed: %s", body)
	}
	stored, err := ts.svc.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if stored.LLMAPIKey != llmKey || stored.EngineAPIKeys["tts"] != ttsKey || stored.EngineAPIKeys["ocr"] != "" {
		t.Fatalf("stored keys wrong: %+v", stored)
	}

	for _, path := range []string{"/api/settings", "/api/openapi.json"} {
		if status, _, body := c.do("GET", path, nil); status != 200 {
			t.Fatalf("GET %s: %d %s", path, status, body)
		}
	}
	if len(c.bodies) < 5 {
		t.Fatalf("expected every response recorded, got %d", len(c.bodies))
	}
	c.assertNoKeyLeaked(llmKey, ttsKey, ocrKey)
}

func TestSettingsBadInputStoresNothing(t *testing.T) {
	ts := newTestServer(t, "")
	c := ts.client
	const key = "sk-before-bad-input-55"
	if status, _, body := c.do("PUT", "/api/settings", []byte(`{"llm_api_key":"`+key+`","llm_url":"http://a.example/v1"}`)); status != 200 {
		t.Fatalf("seed: %d %s", status, body)
	}
	seeded, err := ts.svc.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if seeded.LLMURL != "http://a.example/v1" || seeded.LLMAPIKey != key {
		t.Fatalf("seed not stored: %+v", seeded)
	}
	cases := []struct {
		name   string
		body   []byte
		header []string
		status int
	}{
		{"malformed JSON", []byte(`{"llm_url": "http://x/v1"`), nil, 400},
		{"unknown field", []byte(`{"llm_url":"http://x/v1","favourite_colour":"blue"}`), nil, 422},
		{"wrong type", []byte(`{"llm_url": 42}`), nil, 422},
		{"wrong type in key map", []byte(`{"engine_api_keys": {"tts": 7}}`), nil, 422},
		{"bad URL scheme", []byte(`{"llm_url":"file:///etc/passwd"}`), nil, 422},
		{"empty instance name", []byte(`{"instance_name":""}`), nil, 422},
		{"oversized body", []byte(`{"llm_url":"http://x/` + strings.Repeat("a", httpapi.DefaultMaxBody) + `"}`), nil, 413},
		{"not JSON at all", []byte(`llm_url=x`), []string{"Content-Type", "text/plain"}, 415},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, header, body := c.do("PUT", "/api/settings", tc.body, tc.header...)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %s", status, tc.status, body)
			}
			if ct := header.Get("Content-Type"); ct != "application/problem+json" {
				t.Fatalf("content type %q, want application/problem+json", ct)
			}
			p := decode[problem](t, body)
			if p.Status != tc.status || (p.Detail == "" && len(p.Errors) == 0) {
				t.Fatalf("problem body lacks status or detail: %s", body)
			}
			stored, err := ts.svc.Load(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(stored, seeded) {
				t.Fatalf("bad input changed stored settings:\nbefore %+v\nafter  %+v", seeded, stored)
			}
		})
	}
	if status, _, _ := c.do("GET", "/api/settings", nil); status != 200 {
		t.Fatalf("server stopped serving after bad input: %d", status)
	}
	c.assertNoKeyLeaked(key)
}

func TestTokenGuardsEveryAPICall(t *testing.T) {
	const token = "tok-0123456789abcdef"
	ts := newTestServer(t, token)
	c := ts.client
	before, err := ts.svc.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/health", "/api/version", "/api/settings", "/api/openapi.json", "/api/nope"} {
		for _, auth := range []string{"", "Bearer wrong-token-value", "Basic " + token, token} {
			c.token = ""
			var hdr []string
			if auth != "" {
				hdr = []string{"Authorization", auth}
			}
			status, header, body := c.do("GET", path, nil, hdr...)
			if status != 401 || header.Get("Content-Type") != "application/problem+json" {
				t.Fatalf("GET %s with %q: %d %s", path, auth, status, body)
			}
		}
		c.token = token
		if status, _, body := c.do("GET", path, nil); path != "/api/nope" && status != 200 {
			t.Fatalf("GET %s with the token: %d %s", path, status, body)
		}
	}
	c.token = ""
	if status, _, _ := c.do("PUT", "/api/settings", []byte(`{"llm_url":"http://evil.example/v1"}`)); status != 401 {
		t.Fatalf("unauthenticated PUT: %d", status)
	}
	stored, err := ts.svc.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if stored.LLMURL != "" || !reflect.DeepEqual(stored, before) {
		t.Fatalf("unauthenticated PUT changed settings:\nbefore %+v\nafter  %+v", before, stored)
	}
	// The web app itself loads without the token so it can ask for it.
	if status, _, _ := c.do("GET", "/", nil); status != 200 {
		t.Fatalf("web app behind token: %d", status)
	}
}

func TestWebAppCSPAllowsOnlyTheInlineLoaderByHash(t *testing.T) {
	loader := "loadWithRetry(document, './assets/main.js?v=1');"
	static := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><body><script>" + loader + "</script></body>")}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(LocalHandler("0.0.0", "", log, SiteParts{Static: static}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sum := sha256.Sum256([]byte(loader))
	want := "script-src 'self' 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "';"
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, want) || strings.Contains(csp, "script-src 'self' 'unsafe-inline'") {
		t.Fatalf("CSP %q lacks %q", csp, want)
	}
	if resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("index.html must not be cached, got %q", resp.Header.Get("Cache-Control"))
	}
}

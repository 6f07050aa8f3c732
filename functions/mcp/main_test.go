package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

func loadEvent(t *testing.T, name string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

// rpcResult decodes a JSON-RPC answer (a JSON body, as the stateless
// server answers) into out.
func rpcResult(t *testing.T, resp events.APIGatewayV2HTTPResponse, out any) {
	t.Helper()
	body := resp.Body
	if resp.IsBase64Encoded {
		b, err := base64.StdEncoding.DecodeString(body)
		if err != nil {
			t.Fatal(err)
		}
		body = string(b)
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  any             `json:"error"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal([]byte(body), &msg) != nil || msg.Error != nil {
		t.Fatalf("answer %d %s", resp.StatusCode, body)
	}
	if err := json.Unmarshal(msg.Result, out); err != nil {
		t.Fatal(err)
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestToolsListFromARealEvent feeds the handler main starts an API Gateway
// v2 event of tools/list, with no API URL set (the request's own host).
func TestToolsListFromARealEvent(t *testing.T) {
	h, err := handler(env(nil), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := h(context.Background(), loadEvent(t, "tools-list.json"))
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	rpcResult(t, resp, &list)
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
	}
	if len(list.Tools) < 20 || !names["lectern_list_issues"] || !names["lectern_set_engine_key"] {
		t.Errorf("tools/list = %+v", list)
	}
}

// TestToolCallForwardsTheCallersToken feeds a tools/call event and checks
// the API was called with the event's own bearer token.
func TestToolCallForwardsTheCallersToken(t *testing.T) {
	var auth, path string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth, path = r.Header.Get("Authorization"), r.URL.Path
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"harbour01","title":"Harbour Gazette","status":"ready","page_count":3,"pages_done":3}`)
	}))
	defer api.Close()
	h, err := handler(env(map[string]string{"LECTERN_API_URL": api.URL}), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ev := loadEvent(t, "tools-call.json")
	resp, err := h(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	rpcResult(t, resp, &res)
	if res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, "# Harbour Gazette (harbour01)") {
		t.Errorf("tools/call = %+v", res)
	}
	if auth != ev.Headers["authorization"] || path != "/api/magazine/harbour01" {
		t.Errorf("the API got %q at %s, want the event's token", auth, path)
	}
}

// TestABrowserOfAnotherOriginIsRefused: the Lambda applies the transport's
// Origin rule as the local server does: 403 before any tool runs.
func TestABrowserOfAnotherOriginIsRefused(t *testing.T) {
	called := false
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { called = true }))
	defer api.Close()
	h, err := handler(env(map[string]string{"LECTERN_API_URL": api.URL}), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ev := loadEvent(t, "tools-call.json")
	ev.Headers["origin"] = "https://evil.example"
	resp, err := h(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusForbidden || called {
		t.Errorf("Origin https://evil.example: %d %s (API called: %t), want 403", resp.StatusCode, resp.Body, called)
	}
	// The stack's own host as origin passes.
	ev.Headers["origin"] = "https://" + ev.Headers["host"]
	if resp, err := h(context.Background(), ev); err != nil || resp.StatusCode != http.StatusOK || !called {
		t.Errorf("its own origin: %d %v (API called: %t)", resp.StatusCode, err, called)
	}
}

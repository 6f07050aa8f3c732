package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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

// callTool feeds a tools/call event and answers whether the tool failed
// and its text.
func callTool(t *testing.T, h func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error), ev events.APIGatewayV2HTTPRequest) (bool, string) {
	t.Helper()
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
	var text strings.Builder
	for _, c := range res.Content {
		text.WriteString(c.Text)
	}
	return res.IsError, text.String()
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
	if failed, text := callTool(t, h, ev); failed || !strings.Contains(text, "# Harbour Gazette (harbour01)") {
		t.Errorf("tools/call = %t %q", failed, text)
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

// TestTheLambdaReadsNoFileAndFetchesOnlyPublicAddresses: a hosted server
// has no folder to read, and a URL import of this machine's or the
// metadata service's address is refused before any connection.
func TestTheLambdaReadsNoFileAndFetchesOnlyPublicAddresses(t *testing.T) {
	var hits atomic.Int32
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, `{"issues":[],"upload":"presigned"}`)
	}))
	defer local.Close()
	h, err := handler(env(map[string]string{"LECTERN_API_URL": local.URL}), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		`{"path":"/etc/shadow"}`:                                      "Error: Not supported: this server reads no local files",
		`{"url":"` + local.URL + `/issue.pdf"}`:                       "Error: Refused: ",
		`{"url":"http://169.254.169.254/latest/meta-data/"}`:          "Error: Refused: ",
		`{"url":"http://[::ffff:169.254.169.254]/latest/meta-data/"}`: "Error: Refused: ",
	} {
		ev := loadEvent(t, "tools-call.json")
		ev.Body = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lectern_upload_issue","arguments":` + args + `}}`
		if failed, text := callTool(t, h, ev); !failed || !strings.HasPrefix(text, want) {
			t.Errorf("%s = %t %q, want a failure %q", args, failed, text, want)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("refused imports reached this machine %d times", hits.Load())
	}
}

// TestTheRequestsHostIsDialledThroughTheURLRule: with no LECTERN_API_URL
// the tools call the API at the request's Host with the caller's token; a
// Host on this machine is refused at connect time, so nothing, token
// included, reaches what listens there.
func TestTheRequestsHostIsDialledThroughTheURLRule(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	h, err := handler(env(nil), slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	ev := loadEvent(t, "tools-call.json")
	ev.Headers["host"] = ln.Addr().String()
	ev.RequestContext.DomainName = ln.Addr().String()
	failed, text := callTool(t, h, ev)
	if !failed || !strings.Contains(text, "loopback") {
		t.Errorf("a call to the API at Host %s = %t %q, want a loopback refusal", ev.Headers["host"], failed, text)
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the API call connected to this machine %d times", n)
	}
}

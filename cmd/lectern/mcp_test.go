package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPRefusesBadSettings(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"an unknown toolset", []string{"mcp", "--toolsets", "magazine,nosuchtoolset"}, `unknown toolset "nosuchtoolset"`},
		{"an API URL that is not http", []string{"mcp", "--api", "ftp://lectern.lan"}, "must be http(s)://"},
		{"a stray argument", []string{"mcp", "serve"}, "unexpected arguments"},
		{"HTTP off this machine without a token", []string{"mcp", "--http", "0.0.0.0:0"}, "is not a loopback address: set LECTERN_TOKEN"},
		{"a file folder that does not exist", []string{"mcp", "--files", "/nonexistent/lectern-books"}, `file folder "/nonexistent/lectern-books"`},
		{"a fetch allow-list entry opening everything", []string{"mcp", "--fetch-allow", "0.0.0.0/0"}, "covers more than an IPv4 /16"},
		{"an allowed origin that is not one", []string{"mcp", "--http", "127.0.0.1:0", "--allowed-origin", "notes.example/app"}, `allowed origin "notes.example/app"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errOut bytes.Buffer
			if code := run(context.Background(), tc.args, env(nil), keepEnv, io.Discard, &errOut); code != 1 || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut.String(), tc.want)
			}
		})
	}
}

// TestMCPServesStreamableHTTP runs `lectern mcp --http` against a stand-in
// API named by the environment, calls a tool over HTTP and checks the API
// got the environment's token; cancelling stops the server cleanly.
func TestMCPServesStreamableHTTP(t *testing.T) {
	gotAuth := make(chan string, 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case gotAuth <- r.Header.Get("Authorization"):
		default:
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"issues":[],"upload":"form"}`)
	}))
	defer api.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	ctx, cancel := context.WithCancel(context.Background())
	exit := make(chan int, 1)
	var errOut bytes.Buffer
	go func() {
		exit <- run(ctx, []string{"mcp", "--http", addr, "--toolsets", "magazine"},
			env(map[string]string{"LECTERN_API_URL": api.URL, "LECTERN_TOKEN": "env-token-0123456789"}), keepEnv, io.Discard, &errOut)
	}()
	var cs *mcp.ClientSession
	client := mcp.NewClient(&mcp.Implementation{Name: "cmd-test", Version: "1"}, nil)
	for deadline := time.Now().Add(slowBound); ; time.Sleep(50 * time.Millisecond) {
		if cs, err = client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("lectern mcp --http did not answer: %v\n%s", err, errOut.String())
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lectern_list_issues"})
	if err != nil || res.IsError {
		t.Fatalf("list issues: %v %+v", err, res)
	}
	if got := <-gotAuth; got != "Bearer env-token-0123456789" {
		t.Errorf("the API got Authorization %q", got)
	}
	// No --files: no path is read, /etc/shadow or any other.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "lectern_upload_issue", Arguments: map[string]any{"path": "/etc/hostname"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "reads no local files") {
		t.Errorf("a path without --files: %v %+v", err, res)
	}
	// A web page of another origin, or a name re-pointed at 127.0.0.1 (DNS
	// rebinding, which sends its own Host), is refused before the transport
	// reads the request.
	for _, bad := range [][2]string{{"Origin", "http://evil.example"}, {"Host", "rebind.evil.example"}} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if bad[0] == "Host" {
			req.Host = bad[1]
		} else {
			req.Header.Set(bad[0], bad[1])
		}
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s %s: %v %v, want 403", bad[0], bad[1], err, resp)
		} else {
			resp.Body.Close()
		}
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if !strings.HasPrefix(tool.Name, "lectern_") || strings.Contains(tool.Name, "voice") || strings.Contains(tool.Name, "engine") {
			t.Errorf("--toolsets magazine served %s", tool.Name)
		}
	}
	cs.Close()
	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit %d: %s", code, errOut.String())
		}
	case <-time.After(slowBound):
		t.Fatal("lectern mcp did not stop")
	}
}

func TestMCPOffThisMachineNeedsTheBearer(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	h := requireBearer("lan-token-0123456789", next)
	for header, want := range map[string]int{"": 401, "Bearer wrong": 401, "Bearer lan-token-0123456789": 204} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		if header != "" {
			req.Header.Set("Authorization", header)
		}
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Authorization %q = %d, want %d", header, rec.Code, want)
		}
	}
}

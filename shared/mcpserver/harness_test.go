package mcpserver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// session is an MCP client connected to lectern_mcp through the SDK's
// in-memory transport, recording the notifications it receives.
type session struct {
	t  *testing.T
	cs *mcp.ClientSession

	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	logs     []*mcp.LoggingMessageParams
}

// connect starts lectern_mcp over api and connects a client to it; elicit
// (optional) answers the server's elicitation requests as a user would;
// version (optional) is the protocol version the client asks for.
func connect(t *testing.T, api *Client, opts Options, elicit func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error), version ...string) *session {
	t.Helper()
	ctx := context.Background()
	srv, err := New(api, opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	s := &session{t: t}
	copts := &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.progress = append(s.progress, r.Params)
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.logs = append(s.logs, r.Params)
		},
	}
	if elicit != nil {
		copts.ElicitationHandler = elicit
		copts.Capabilities = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "lectern-test", Version: "1"}, copts)
	var sopts *mcp.ClientSessionOptions
	if len(version) > 0 {
		sopts = &mcp.ClientSessionOptions{ProtocolVersion: version[0]}
	}
	cs, err := client.Connect(ctx, ct, sopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	s.cs = cs
	return s
}

// call calls a tool and answers its text and whether it failed.
func (s *session) call(name string, args map[string]any) (string, bool) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute) // beyond the ingest wait
	defer cancel()
	// The log level rides on each request in protocol 2026-07-28, and
	// was set for the session (SetLoggingLevel) before it.
	params := &mcp.CallToolParams{Name: name, Arguments: args, Meta: mcp.Meta{mcp.MetaKeyLogLevel: "debug"}}
	params.SetProgressToken(name)
	res, err := s.cs.CallTool(ctx, params)
	if err != nil {
		s.t.Fatalf("%s: protocol error %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// ok calls a tool that must succeed.
func (s *session) ok(name string, args map[string]any) string {
	s.t.Helper()
	text, failed := s.call(name, args)
	if failed {
		s.t.Fatalf("%s(%v) failed: %s", name, args, text)
	}
	return text
}

// fails calls a tool that must fail with a text starting with prefix.
func (s *session) fails(name string, args map[string]any, prefix string) string {
	s.t.Helper()
	text, failed := s.call(name, args)
	if !failed || !strings.HasPrefix(text, prefix) {
		s.t.Errorf("%s(%v) = %q (failed %t), want a failure starting %q", name, args, text, failed, prefix)
	}
	return text
}

func (s *session) progressFor(token string) []*mcp.ProgressNotificationParams {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*mcp.ProgressNotificationParams
	for _, p := range s.progress {
		if p.ProgressToken == token {
			out = append(out, p)
		}
	}
	return out
}

// waitProgress waits for a progress notification of token to reach
// fraction (up to 2 minutes, a failure bound for a loaded machine), and
// answers all of its notifications.
func (s *session) waitProgress(token string, fraction float64) []*mcp.ProgressNotificationParams {
	s.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		got := s.progressFor(token)
		for _, p := range got {
			if p.Progress == fraction {
				return got
			}
		}
		if time.Now().After(deadline) {
			s.t.Errorf("no progress %v for %s among %d notifications", fraction, token, len(got))
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (s *session) logLevels() map[mcp.LoggingLevel]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[mcp.LoggingLevel]int{}
	for _, l := range s.logs {
		out[l.Level]++
	}
	return out
}

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds a caller's token to every request, as an MCP client
// configured with a header does.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func httpSession(t *testing.T, endpoint string, hc *http.Client) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "lectern-http-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestHostedHTTPCallsTheSameAPIWithTheCallersToken serves lectern_mcp as
// the Lambda does (stateless JSON, the caller's token forwarded, the API on
// the request's own host) beside a stand-in API on one TLS server.
func TestHostedHTTPCallsTheSameAPIWithTheCallersToken(t *testing.T) {
	rec := &recorder{}
	mux := http.NewServeMux()
	mux.Handle("/api/", rec)
	srv := httptest.NewUnstartedServer(mux)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	api, err := NewClient("https://unused.invalid", "", srv.Client(), 0)
	if err != nil {
		t.Fatal(err)
	}
	h, err := HTTPHandler(api, Options{}, HTTPOptions{Stateless: true, ForwardAuth: true, SameHost: true})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp", h)
	hc := srv.Client()
	hc.Transport = bearer{token: "caller-token-123", next: hc.Transport}
	cs := httpSession(t, srv.URL+"/mcp", hc)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != len(allTools(t)) {
		t.Fatalf("tools over HTTP: %d, %v", len(tools.Tools), err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lectern_get_issue_status", Arguments: map[string]any{"issue_id": "abcd1234"}})
	if err != nil || res.IsError {
		t.Fatalf("call over HTTP: %v %s", err, text(t, res))
	}
	if got := rec.last(); got != "GET /api/magazine/abcd1234" {
		t.Errorf("the API was called with %q", got)
	}
	if got := rec.auth[len(rec.auth)-1]; got != "Bearer caller-token-123" {
		t.Errorf("the API got Authorization %q, want the caller's", got)
	}
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lectern_list_issues", Arguments: map[string]any{"limit": 500}})
	if err != nil || !res.IsError || !strings.HasPrefix(text(t, res), "Error: Invalid input: ") {
		t.Errorf("invalid input over HTTP = %v %+v", err, res)
	}
	// A client that cannot open URLs is told where to set the key instead.
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "lectern_set_engine_key", Arguments: map[string]any{"engine": "harbour"}})
	if err != nil || res.IsError || !strings.Contains(text(t, res), "Open "+srv.URL+"/#/engines and set the key of engine **harbour**") {
		t.Errorf("set key without URL elicitation = %v %s", err, text(t, res))
	}
}

// presignedAPI is a stand-in for the API in AWS: uploads go by presigned
// form to a storage stand-in, and the issue is ready once stored.
type presignedAPI struct {
	t      *testing.T
	pdf    []byte
	mu     sync.Mutex
	stored []byte
	fields map[string]string
	srv    *httptest.Server
}

func (p *presignedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.Method + " " + r.URL.Path {
	case "GET /files/spring.pdf":
		w.Header().Set("Content-Type", "application/pdf")
		w.Write(p.pdf)
	case "GET /files/missing.pdf":
		http.NotFound(w, r)
	case "GET /api/magazine":
		io.WriteString(w, `{"issues":[],"upload":"presigned"}`)
	case "POST /api/magazine/uploads":
		var req struct {
			Filename string `json:"filename"`
			Size     int    `json:"size"`
			Title    string `json:"title"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if req.Filename != "spring.pdf" || req.Size != len(p.pdf) || req.Title != "Spring Issue" {
			w.WriteHeader(http.StatusUnprocessableEntity)
			io.WriteString(w, `{"detail":"unexpected presign request"}`)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{
			"issue":      issue{ID: "spring0001", Title: req.Title, Status: "uploading"},
			"upload_url": p.srv.URL + "/bucket", "method": "POST",
			"fields": map[string]string{"key": "uploads/spring0001.pdf", "Content-Type": "application/pdf", "policy": "p0l1cy"},
		})
	case "POST /bucket":
		if r.Header.Get("Authorization") != "" {
			w.WriteHeader(http.StatusBadRequest) // storage takes the signed form, never the API's token
			return
		}
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		data, _ := io.ReadAll(f)
		p.mu.Lock()
		p.stored = data
		p.fields = map[string]string{}
		for k, v := range r.MultipartForm.Value {
			p.fields[k] = v[0]
		}
		p.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case "GET /api/magazine/spring0001":
		p.mu.Lock()
		stored := p.stored != nil
		p.mu.Unlock()
		is := issue{ID: "spring0001", Title: "Spring Issue", Status: "uploading"}
		if stored {
			is.Status, is.PageCount, is.PagesDone = "ready", 1, 1
		}
		json.NewEncoder(w).Encode(is)
	default:
		http.NotFound(w, r)
	}
}

// newPresignedAPI starts the stand-in and a client of it.
func newPresignedAPI(t *testing.T) (*presignedAPI, *Client) {
	t.Helper()
	p := &presignedAPI{t: t, pdf: harbourPDF()}
	p.srv = httptest.NewServer(p)
	t.Cleanup(p.srv.Close)
	api, err := NewClient(p.srv.URL, "tok", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return p, api
}

// TestUploadFromAURLByPresignedForm fetches a PDF by URL and uploads it
// the way a deployed Lectern takes uploads; a hosted server refuses paths.
func TestUploadFromAURLByPresignedForm(t *testing.T) {
	p, api := newPresignedAPI(t)
	// The PDF server is on loopback, which only an allow-list entry opens.
	s := connect(t, api, Options{PollInterval: 10 * time.Millisecond, FetchAllow: []string{p.srv.Listener.Addr().String()}}, nil)
	out := jsonOf[issue](t, s.ok("lectern_upload_issue", map[string]any{"url": p.srv.URL + "/files/spring.pdf", "title": " Spring Issue ", "response_format": "json"}))
	if out.Status != "ready" || out.ID != "spring0001" {
		t.Errorf("upload = %+v", out)
	}
	p.mu.Lock()
	if string(p.stored) != string(p.pdf) || p.fields["key"] != "uploads/spring0001.pdf" || p.fields["policy"] != "p0l1cy" {
		t.Errorf("storage got %d bytes and fields %v", len(p.stored), p.fields)
	}
	p.mu.Unlock()
	s.fails("lectern_upload_issue", map[string]any{"url": p.srv.URL + "/files/missing.pdf"}, "Error: Invalid input: fetch ")
	s.fails("lectern_upload_issue", map[string]any{"path": "/etc/hostname"}, "Error: Not supported: this server reads no local files")
}

// TestServersAreKeptPerCredential checks a stateless server builds one MCP
// server per base URL and token, not one per request, and keeps a bounded
// number.
func TestServersAreKeptPerCredential(t *testing.T) {
	api, err := NewClient("http://127.0.0.1:1", "a", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	sc := &serverCache{}
	first := sc.get(api)
	if first == nil || sc.get(api) != first || sc.get(api.WithToken("a")) != first {
		t.Error("the same credential built a second server")
	}
	if sc.get(api.WithToken("b")) == first {
		t.Error("another token shared the first token's server")
	}
	for i := range maxCachedServers + 2 {
		sc.get(api.WithToken(fmt.Sprint("token-", i)))
	}
	if n := len(sc.byKey); n > maxCachedServers {
		t.Errorf("%d servers kept, the bound is %d", n, maxCachedServers)
	}
}

package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
)

// guarded is a tiny API behind Guard: PUT /api/thing takes a JSON body,
// POST /api/poke takes none, GET /api/thing reads.
func guarded(t *testing.T, a Access) http.Handler {
	t.Helper()
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	type thing struct {
		Body struct {
			Name string `json:"name"`
		}
	}
	mux := http.NewServeMux()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	New(mux, "0.0.0", log,
		Op(huma.Operation{OperationID: "put-thing", Method: http.MethodPut, Path: "/api/thing", MaxBodyBytes: DefaultMaxBody},
			func(ctx context.Context, in *thing) (*thing, error) { return in, nil }),
		Op(huma.Operation{OperationID: "poke", Method: http.MethodPost, Path: "/api/poke"},
			func(ctx context.Context, _ *struct{}) (*struct{}, error) { return nil, nil }),
		Op(huma.Operation{OperationID: "get-thing", Method: http.MethodGet, Path: "/api/thing"},
			func(ctx context.Context, _ *struct{}) (*thing, error) { return &thing{}, nil }),
	)
	return Guard(a, mux)
}

type req struct {
	method, host, path, body string
	header                   map[string]string
}

func (r req) send(h http.Handler) (int, problemDoc) {
	if r.host == "" {
		r.host = "127.0.0.1:8080"
	}
	hr := httptest.NewRequest(r.method, "http://"+r.host+r.path, strings.NewReader(r.body))
	hr.Host = r.host
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, hr)
	var p problemDoc
	if w.Code >= 400 {
		if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
			p.Detail = "not a problem document: " + ct
		} else {
			_ = json.Unmarshal(w.Body.Bytes(), &p)
		}
	}
	return w.Code, p
}

type problemDoc struct {
	Status int    `json:"status"`
	Detail string `json:"detail"`
}

var jsonType = map[string]string{"Content-Type": "application/json"}

func with(extra map[string]string) map[string]string {
	m := map[string]string{"Content-Type": "application/json"}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestGuardRefusesCrossSiteWrites(t *testing.T) {
	h := guarded(t, Access{Bound: "127.0.0.1:8080", Origins: []string{"https://notes.example"}})
	for _, tc := range []struct {
		name   string
		req    req
		status int
	}{
		{"curl without browser headers still writes", req{method: "PUT", path: "/api/thing", body: `{"name":"a"}`, header: jsonType}, 200},
		{"the app's own page writes", req{method: "PUT", path: "/api/thing", body: `{"name":"a"}`,
			header: with(map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:8080"})}, 200},
		{"a page on another port of 127.0.0.1 is refused", req{method: "PUT", path: "/api/thing", body: `{"name":"a"}`,
			header: with(map[string]string{"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9999"})}, 403},
		{"a cross-site body-less POST is refused", req{method: "POST", path: "/api/poke",
			header: map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}}, 403},
		{"an old browser's foreign Origin is refused", req{method: "POST", path: "/api/poke",
			header: map[string]string{"Origin": "https://evil.example"}}, 403},
		{"an opaque origin is refused", req{method: "POST", path: "/api/poke",
			header: map[string]string{"Origin": "null"}}, 403},
		{"an old browser's own Origin passes", req{method: "POST", path: "/api/poke",
			header: map[string]string{"Origin": "http://127.0.0.1:8080"}}, 204},
		{"a configured origin writes", req{method: "POST", path: "/api/poke",
			header: map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://notes.example"}}, 204},
		{"a cross-site read is not a write", req{method: "GET", path: "/api/thing",
			header: map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}}, 200},
		{"a cross-site multipart upload is refused", req{method: "POST", path: "/api/poke", body: "--x--",
			header: map[string]string{"Content-Type": "multipart/form-data; boundary=x", "Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9999"}}, 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, p := tc.req.send(h)
			if status != tc.status {
				t.Fatalf("status %d, want %d (%s)", status, tc.status, p.Detail)
			}
			if status == 403 && (p.Status != 403 || !strings.Contains(p.Detail, "cross-site")) {
				t.Fatalf("problem %+v", p)
			}
		})
	}
}

func TestJSONBodiesMustSayApplicationJSON(t *testing.T) {
	h := guarded(t, Access{})
	for _, tc := range []struct {
		name, contentType string
		status            int
	}{
		{"application/json", "application/json", 200},
		{"with a UTF-8 charset", "application/json; charset=UTF-8", 200},
		{"no Content-Type", "", 415},
		{"text/plain, as an HTML form sends", "text/plain", 415},
		{"a +json type huma would parse", "text/plain+json", 415},
		{"another charset", "application/json; charset=latin1", 415},
		{"form encoding", "application/x-www-form-urlencoded", 415},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := req{method: "PUT", path: "/api/thing", body: `{"name":"a"}`, header: map[string]string{}}
			if tc.contentType != "" {
				r.header["Content-Type"] = tc.contentType
			}
			status, p := r.send(h)
			if status != tc.status {
				t.Fatalf("status %d, want %d (%s)", status, tc.status, p.Detail)
			}
			if status == 415 && (p.Status != 415 || !strings.Contains(p.Detail, "application/json")) {
				t.Fatalf("problem %+v", p)
			}
		})
	}
	t.Run("a body-less operation needs no type", func(t *testing.T) {
		if status, p := (req{method: "POST", path: "/api/poke"}).send(h); status != 204 {
			t.Fatalf("status %d (%s)", status, p.Detail)
		}
	})
}

func TestGuardRefusesForeignHosts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		access Access
		host   string
		status int
	}{
		{"the bound address", Access{Bound: "127.0.0.1:8080"}, "127.0.0.1:8080", 200},
		{"localhost on the bound port", Access{Bound: "127.0.0.1:8080"}, "localhost:8080", 200},
		{"IPv6 loopback on the bound port", Access{Bound: "127.0.0.1:8080"}, "[::1]:8080", 200},
		{"a rebinding name", Access{Bound: "127.0.0.1:8080"}, "attacker.example:8080", 421},
		{"a rebinding name without port", Access{Bound: "127.0.0.1:8080"}, "attacker.example", 421},
		{"localhost on another port", Access{Bound: "127.0.0.1:8080"}, "localhost:9999", 421},
		{"a name under localhost is a name", Access{Bound: "127.0.0.1:8080"}, "evil.localhost:8080", 421},
		{"the public name on any port", Access{Bound: "127.0.0.1:8080", PublicHosts: []string{"Lectern.LAN"}}, "lectern.lan", 200},
		{"the public name with its port", Access{Bound: "127.0.0.1:8080", PublicHosts: []string{"lectern.lan:8443"}}, "lectern.lan:8443", 200},
		{"the public name on another port", Access{Bound: "127.0.0.1:8080", PublicHosts: []string{"lectern.lan:8443"}}, "lectern.lan:80", 421},
		{"a LAN address when bound to it", Access{Bound: "192.168.1.5:8080"}, "192.168.1.5:8080", 200},
		{"localhost when bound to a LAN address", Access{Bound: "192.168.1.5:8080"}, "localhost:8080", 421},
		{"any address when bound to all", Access{Bound: "[::]:8080"}, "10.0.0.7:8080", 200},
		{"a name when bound to all", Access{Bound: "0.0.0.0:8080"}, "attacker.example:8080", 421},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, p := req{method: "GET", host: tc.host, path: "/api/thing"}.send(guarded(t, tc.access))
			if status != tc.status {
				t.Fatalf("Host %s: status %d, want %d (%s)", tc.host, status, tc.status, p.Detail)
			}
			if status == 421 && (p.Status != 421 || !strings.Contains(p.Detail, "LECTERN_PUBLIC_HOST")) {
				t.Fatalf("problem %+v", p)
			}
		})
	}
}

func TestAccessCheckRefusesBadOrigins(t *testing.T) {
	for _, o := range []string{"notes.example", "https://notes.example/path", "*"} {
		if err := (Access{Origins: []string{o}}).Check(); err == nil {
			t.Errorf("origin %q accepted", o)
		}
	}
	h := Guard(Access{Origins: []string{"*"}}, http.NotFoundHandler())
	if status, _ := (req{method: "GET", path: "/"}).send(h); status != 500 {
		t.Fatalf("a bad Access served with %d; it must fail closed", status)
	}
}

func TestBodyLimitSaysBothSizes(t *testing.T) {
	h := guarded(t, Access{})
	big := `{"name":"` + strings.Repeat("a", 100<<10) + `"}`
	status, p := req{method: "PUT", path: "/api/thing", body: big, header: jsonType}.send(h)
	want := "the request body is 102411 bytes (100.01 KiB); PUT /api/thing takes at most 65536 bytes (64 KiB)"
	if status != 413 || p.Detail != want {
		t.Fatalf("%d %q\nwant 413 %q", status, p.Detail, want)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{
		100:             "100 bytes",
		64 << 10:        "65536 bytes (64 KiB)",
		250 << 20:       "262144000 bytes (250 MiB)",
		200<<20 + 1:     "209715201 bytes (200 MiB)",
		3<<30 + 512<<20: "3758096384 bytes (3.5 GiB)",
		1<<20 - 1:       "1048575 bytes (1024 KiB)",
	} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

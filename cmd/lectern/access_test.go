package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func get(t *testing.T, url, host string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A page whose name was re-pointed at 127.0.0.1 sends its own name as Host.
func TestServeRefusesARebindingHost(t *testing.T) {
	base, _, _, _ := startServe(t, map[string]string{"LECTERN_PUBLIC_HOST": "lectern.lan"})
	port := base[strings.LastIndex(base, ":")+1:]
	for _, tc := range []struct {
		host   string
		status int
	}{
		{"attacker.example:" + port, 421},
		{"attacker.example", 421},
		{"localhost:" + port, 200},
		{"127.0.0.1:" + port, 200},
		{"lectern.lan", 200},
	} {
		status, body := get(t, base+"/api/settings", tc.host)
		if status != tc.status {
			t.Fatalf("Host %s: %d %s, want %d", tc.host, status, body, tc.status)
		}
		if status == 421 {
			var p struct {
				Status int    `json:"status"`
				Detail string `json:"detail"`
			}
			if err := json.Unmarshal([]byte(body), &p); err != nil || p.Status != 421 || !strings.Contains(p.Detail, "attacker.example") {
				t.Fatalf("Host %s: not a problem document: %s", tc.host, body)
			}
		}
	}
}

func TestServeRefusesCrossSiteWritesButNotCurl(t *testing.T) {
	base, _, _, _ := startServe(t, nil, "--allowed-origin", "https://notes.example")
	post := func(origin, site string) int {
		req, _ := http.NewRequest("PUT", base+"/api/settings", strings.NewReader(`{"instance_name":"x"}`))
		req.Header.Set("Content-Type", "application/json")
		if origin != "" {
			req.Header.Set("Origin", origin)
			req.Header.Set("Sec-Fetch-Site", site)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := post("", ""); s != 200 {
		t.Fatalf("curl-like write: %d", s)
	}
	if s := post("http://127.0.0.1:1", "same-site"); s != 403 {
		t.Fatalf("cross-site write: %d, want 403", s)
	}
	if s := post("https://notes.example", "cross-site"); s != 200 {
		t.Fatalf("write from the allowed origin: %d", s)
	}
}

func TestServeRefusesABadAllowedOrigin(t *testing.T) {
	var errOut strings.Builder
	code := run(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--allowed-origin", "notes.example"}, env(nil), keepEnv, io.Discard, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "notes.example") {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
}

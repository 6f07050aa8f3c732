package mcpserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// The streamable HTTP transport must refuse a request whose Origin is
// present and not one the server expects (MCP transports, "Security
// Warning"): a web page the user visits can otherwise post tool calls to a
// server on their machine. Clients that are not browsers send no Origin and
// pass; a browser's request passes when it comes from the server's own
// origin or one the user allowed.

// normalOrigins checks and normalises allowed origins ("https://app.example",
// "http://localhost:6274"): scheme and host only, lower case.
func normalOrigins(list []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, o := range list {
		n, ok := normalOrigin(o)
		if !ok {
			return nil, fmt.Errorf("%w: allowed origin %q is not scheme://host[:port]", ErrInvalid, o)
		}
		out[n] = true
	}
	return out, nil
}

func normalOrigin(o string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(o))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), true
}

// originGuard answers 403 to a request with an Origin that is neither the
// request's own host nor allowed, before the MCP handler reads it.
func originGuard(allowed map[string]bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		vals := r.Header.Values("Origin")
		if len(vals) == 0 {
			next.ServeHTTP(w, r)
			return
		}
		origin := vals[0]
		n, ok := normalOrigin(origin)
		if ok && len(vals) == 1 && (allowed[n] || sameHost(n, r.Host)) {
			next.ServeHTTP(w, r)
			return
		}
		// A JSON-RPC error without an id, as the transport allows.
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{
			"code":    -32600,
			"message": "Forbidden: Origin " + clip(origin, 100) + " may not call lectern_mcp (allow it with --allowed-origin)",
		}})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		w.Write(body)
	})
}

// sameHost: the origin names the host and port the request was sent to.
func sameHost(origin, host string) bool {
	_, h, _ := strings.Cut(origin, "://")
	return host != "" && h == strings.ToLower(host)
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

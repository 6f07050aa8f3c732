package app

import (
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"log/slog"
	"net/http"
	"regexp"
	"strings"

	"github.com/lectern/lectern/shared/httpapi"
)

// SiteParts are what the local server serves besides the API, and who may
// reach it.
type SiteParts struct {
	Blobs  http.Handler   // signed blob URLs, mounted at /blobs/
	Static fs.FS          // the built web app
	Access httpapi.Access // Host names and origins the server answers
}

// LocalHandler is the whole local server: the API with the given operations,
// signed blob URLs and the web app, behind the Host and cross-site checks,
// the token check (when a token is set) and request logging. Check
// site.Access first: a bad one refuses every request.
func LocalHandler(version, token string, log *slog.Logger, site SiteParts, ops ...httpapi.Operation) http.Handler {
	mux := http.NewServeMux()
	httpapi.New(mux, version, log, ops...)
	if site.Blobs != nil {
		mux.Handle("/blobs/", site.Blobs)
	}
	mux.Handle("/", staticHandler(site.Static))
	var h http.Handler = mux
	if token != "" {
		h = httpapi.RequireToken(token, h)
	}
	return httpapi.LogRequests(log, httpapi.Guard(site.Access, h))
}

// staticHandler serves the embedded web app. index.html is never cached so a
// new release is picked up at once; its assets carry ?v=VERSION.
func staticHandler(files fs.FS) http.Handler {
	if _, err := fs.Stat(files, "index.html"); err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("The web app is not built into this binary. Run `make run` (or `cd frontend && npm ci && npm run build`, then rebuild).\nThe API is at /api.\n"))
		})
	}
	server := http.FileServerFS(files)
	csp := contentSecurityPolicy(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" || strings.HasSuffix(r.URL.Path, ".html") {
			w.Header().Set("Cache-Control", "no-cache")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=3600")
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", csp)
		server.ServeHTTP(w, r)
	})
}

var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// contentSecurityPolicy allows scripts from this origin plus, by hash, the
// inline loader in index.html; nothing else may run.
func contentSecurityPolicy(files fs.FS) string {
	scripts := "'self'"
	if index, err := fs.ReadFile(files, "index.html"); err == nil {
		for _, m := range inlineScript.FindAllSubmatch(index, -1) {
			sum := sha256.Sum256(m[1])
			scripts += " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		}
	}
	return "default-src 'self'; script-src " + scripts + "; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
}

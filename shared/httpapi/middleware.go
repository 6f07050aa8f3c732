package httpapi

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/auth"
)

// RequireToken refuses every /api request that lacks "Authorization: Bearer
// <token>". Other paths (the web app, signed blob URLs) pass: the app must load
// to ask for the token, and blob URLs carry their own signature.
func RequireToken(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isAPI(r.URL.Path) && !auth.BearerMatches(r.Header.Get("Authorization"), token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="lectern"`)
			WriteProblem(w, http.StatusUnauthorized, "this server requires Authorization: Bearer <LECTERN_TOKEN>")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func isAPI(path string) bool { return path == "/api" || strings.HasPrefix(path, "/api/") }

// LogRequests logs one line per request: never headers or bodies, which may hold keys.
func LogRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		log.Info("request", "method", r.Method, "path", r.URL.Path, "status", rec.status,
			"ms", time.Since(start).Milliseconds())
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

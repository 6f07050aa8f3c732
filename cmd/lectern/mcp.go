package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/auth"
	"github.com/lectern/lectern/shared/mcpserver"
	"github.com/lectern/lectern/shared/platform"
)

// mcpServe runs lectern_mcp: stdio by default, streamable HTTP with --http.
// It calls a Lectern API (a local `lectern serve` or a deployed stack) with
// a token, so it opens no data folder of its own.
func mcpServe(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	api := fs.String("api", envOr(getenv, "LECTERN_API_URL", "http://127.0.0.1:8080"), "base URL of the Lectern API to call (LECTERN_API_URL)")
	token := fs.String("token", getenv("LECTERN_TOKEN"), "bearer token for the API (LECTERN_TOKEN)")
	web := fs.String("web-url", getenv("LECTERN_WEB_URL"), "the web app's URL, where engine keys are set (LECTERN_WEB_URL; default: the API URL)")
	addr := fs.String("http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8090) instead of stdio")
	stateless := fs.Bool("stateless", false, "with --http: answer each request on its own with JSON (no sessions, progress or elicitation)")
	toolsets := fs.String("toolsets", getenv("LECTERN_MCP_TOOLSETS"), "comma-separated toolsets to enable, of "+strings.Join(mcpserver.Toolsets(), ", ")+" (LECTERN_MCP_TOOLSETS; default all)")
	files := fs.String("files", getenv("LECTERN_MCP_FILES"), "comma-separated folders whose files path arguments may name (LECTERN_MCP_FILES; default none: no file is read)")
	fetchAllow := fs.String("fetch-allow", getenv("LECTERN_MCP_FETCH_ALLOW"), "comma-separated hosts, host:port, addresses or CIDRs (at most /16, /48) besides public addresses that URL imports may fetch from (LECTERN_MCP_FETCH_ALLOW)")
	origins := fs.String("allowed-origin", getenv("LECTERN_MCP_ALLOWED_ORIGINS"), "with --http: comma-separated web origins whose pages may call /mcp besides its own (LECTERN_MCP_ALLOWED_ORIGINS)")
	verbose := fs.Bool("v", false, "log debug messages to stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	// stdout is the protocol's on stdio: logs go to stderr only.
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	client, err := mcpserver.NewClient(*api, *token, nil, 0)
	if err != nil {
		return err
	}
	opts := mcpserver.Options{Version: lectern.Version(), Log: log, WebURL: *web, Toolsets: splitList(*toolsets),
		FileRoots: splitList(*files), FetchAllow: splitList(*fetchAllow)}
	if *addr == "" {
		return mcpserver.ServeStdio(ctx, client, opts)
	}
	handler, err := mcpserver.HTTPHandler(client, opts, mcpserver.HTTPOptions{Stateless: *stateless, AllowedOrigins: splitList(*origins)})
	if err != nil {
		return err
	}
	// Off this machine, /mcp would lend the API token to anyone who can
	// reach it: as `lectern serve` does, it then needs callers to send it.
	if host, _, err := net.SplitHostPort(*addr); err != nil {
		return fmt.Errorf("--http %q: %w", *addr, err)
	} else if !platform.IsLoopback(host) {
		if *token == "" {
			return fmt.Errorf("--http %s is not a loopback address: set LECTERN_TOKEN, which callers then send as Authorization: Bearer", *addr)
		}
		handler = requireBearer(*token, handler)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("lectern_mcp serving streamable HTTP", "addr", ln.Addr().String(), "path", "/mcp", "api", client.BaseURL())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// requireBearer refuses a request without the token as its bearer.
func requireBearer(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !auth.BearerMatches(r.Header.Get("Authorization"), token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="lectern_mcp"`)
			http.Error(w, "lectern_mcp requires Authorization: Bearer <LECTERN_TOKEN>", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Command mcp is the Lambda serving lectern_mcp over streamable HTTP at
// POST /mcp, behind the API's authorizer: stateless JSON answers, each
// caller's bearer token forwarded to the Lectern API it calls. It links no
// feature package: every tool is a call to the HTTP API.
package main

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/engines/urlsafe"
	"github.com/lectern/lectern/shared/mcpserver"
)

// wait bounds how long a tool follows ingest or a job: API Gateway ends
// every request at 30 s, so a longer one answers "still running".
const wait = 20 * time.Second

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	h, err := handler(os.Getenv, log)
	if err != nil {
		log.Error("start", "err", err)
		os.Exit(1)
	}
	lambda.Start(h)
}

// handler serves /mcp. LECTERN_API_URL names the API to call; empty is the
// API the request came through (its own host), which the template cannot
// name without a dependency cycle. LECTERN_WEB_URL is the web app, where
// engine keys are set. A Lambda reads no file; it fetches URLs from public
// addresses and LECTERN_MCP_FETCH_ALLOW only, and answers browsers of
// another origin than LECTERN_MCP_ALLOWED_ORIGINS 403.
func handler(getenv func(string) string, log *slog.Logger) (func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error), error) {
	base, sameHost := getenv("LECTERN_API_URL"), false
	if base == "" {
		base, sameHost = "https://lectern.invalid", true // replaced by each request's host
	}
	// The API named by a request's own Host gets the caller's token, so
	// that Host is dialled through the hosted URL rule: a request naming
	// this machine, a link-local or a metadata address sends it nowhere.
	var hc *http.Client
	if sameHost {
		hc = urlsafe.Policy{Hosted: true}.HTTPClient(0)
	}
	api, err := mcpserver.NewClient(base, "", hc, 0)
	if err != nil {
		return nil, err
	}
	opts := mcpserver.Options{Version: lectern.Version(), Log: log, WebURL: getenv("LECTERN_WEB_URL"), Wait: wait,
		Hosted: true, FetchAllow: list(getenv("LECTERN_MCP_FETCH_ALLOW"))}
	h, err := mcpserver.HTTPHandler(api, opts, mcpserver.HTTPOptions{Stateless: true, ForwardAuth: true, SameHost: sameHost,
		AllowedOrigins: list(getenv("LECTERN_MCP_ALLOWED_ORIGINS"))})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	return httpadapter.NewV2(mux).ProxyWithContext, nil
}

// list splits a comma- or space-separated setting (hosts, origins).
func list(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

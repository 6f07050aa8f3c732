package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lectern/lectern/shared/engines/urlsafe"
)

// ServerName is the server's MCP name: {service}_mcp, with no version.
const ServerName = "lectern_mcp"

// The toolsets, each enabled on its own. A toolset joins when its feature
// lands: one constructor per tool, listed in its toolset's function, and a
// snapshot per tool under testdata/tools.
const (
	ToolsetMagazine   = "magazine"
	ToolsetAudiobook  = "audiobook"
	ToolsetCharacters = "characters"
	ToolsetVoices     = "voices"
	ToolsetEngines    = "engines"
)

// toolset is a named group of tools, enabled together.
type toolset struct {
	name  string
	tools func(d deps) []Tool
}

// toolsets lists each toolset with the constructors of its tools.
func toolsets() []toolset {
	return []toolset{
		{ToolsetMagazine, magazineTools},
		{ToolsetAudiobook, audiobookTools},
		{ToolsetCharacters, characterTools},
		{ToolsetVoices, voiceTools},
		{ToolsetEngines, engineTools},
	}
}

// Toolsets lists the names of the toolsets this server has.
func Toolsets() []string {
	var out []string
	for _, t := range toolsets() {
		out = append(out, t.name)
	}
	return out
}

// Options configures the server; the zero value of each field has a
// sensible meaning.
type Options struct {
	Version  string       // reported in serverInfo
	Log      *slog.Logger // server-side log (stderr); nil discards
	Toolsets []string     // enabled toolsets; empty enables all
	// WebURL is the web app, whose Engines page is where a user sets an
	// engine key; empty is the API's base URL (a local instance serves both).
	WebURL string
	// FileRoots are the folders whose files path arguments (upload, import)
	// may name; none (the default, and always on a hosted server) reads no
	// file. Nothing outside them is read, through ".." or a symbolic link.
	FileRoots []string
	// FetchAllow names exceptions to the rule that URLs are fetched only
	// from public addresses: hosts, host:port, addresses or CIDRs, as
	// urlsafe.Policy.Allow takes them. Cloud metadata addresses stay refused
	// unless named exactly.
	FetchAllow []string
	// Hosted: the server runs in AWS, where a presigned upload may not go to
	// a loopback or link-local address (locally storage may be on this
	// machine). Metadata addresses are refused in both.
	Hosted bool

	// Made by withDefaults from the fields above; no tool reaches the
	// network or the disk by another way.
	files       fileRoots
	fetchPolicy urlsafe.Policy
	fetch       *http.Client // documents by URL: public addresses only
	storage     *http.Client // presigned uploads: the URL the API signed
	// PollInterval is how often ingest and jobs are polled (default 1 s).
	PollInterval time.Duration
	// Wait bounds how long a tool follows ingest or a job before answering
	// that it is still running (default 15 min).
	Wait time.Duration
}

// deps is what every tool constructor gets.
type deps struct {
	api  *Client
	opts Options
	log  *slog.Logger
}

func (o Options) withDefaults() (Options, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	for _, e := range o.FetchAllow {
		if err := urlsafe.CheckAllowEntry(e); err != nil {
			return o, fmt.Errorf("%w: fetch allow list: %v", ErrInvalid, err)
		}
	}
	files, err := newFileRoots(o.FileRoots)
	if err != nil {
		return o, err
	}
	o.files = files
	o.fetchPolicy = fetchPolicy(o.FetchAllow)
	o.fetch = o.fetchPolicy.HTTPClient(0)
	o.storage = urlsafe.Policy{Hosted: o.Hosted}.HTTPClient(0)
	if o.PollInterval <= 0 {
		o.PollInterval = time.Second
	}
	if o.Wait <= 0 {
		o.Wait = 15 * time.Minute
	}
	return o, nil
}

// AllTools lists the tools of the enabled toolsets; an unknown toolset name
// is refused.
func AllTools(api *Client, opts Options) ([]Tool, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	for _, name := range opts.Toolsets {
		if !slices.Contains(Toolsets(), name) {
			return nil, fmt.Errorf("%w: unknown toolset %q (have %s)", ErrInvalid, name, strings.Join(Toolsets(), ", "))
		}
	}
	d := deps{api: api, opts: opts, log: opts.Log}
	var out []Tool
	for _, ts := range toolsets() {
		if len(opts.Toolsets) == 0 || slices.Contains(opts.Toolsets, ts.name) {
			out = append(out, ts.tools(d)...)
		}
	}
	return out, nil
}

// New builds lectern_mcp over the API client: the enabled toolsets' tools
// and the resources.
func New(api *Client, opts Options) (*mcp.Server, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	tools, err := AllTools(api, opts)
	if err != nil {
		return nil, err
	}
	s := mcp.NewServer(&mcp.Implementation{Name: ServerName, Title: "Lectern", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: "Lectern: magazine issues (ingest, review, articles), audiobooks (import, cast, speakers, render), characters and their images, the shared voice library and engine cards. " +
			"Tools are named lectern_<verb>_<noun>; list tools answer pages (limit, offset); every tool takes response_format markdown or json.",
		Logger:            opts.Log,
		HasTools:          true,
		HasResources:      true,
		Capabilities:      &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Completions: &mcp.CompletionCapabilities{}},
		CompletionHandler: completer(deps{api: api, opts: opts, log: opts.Log}),
	})
	for _, t := range tools {
		s.AddTool(t.Def, t.Handler)
	}
	for _, r := range resources(deps{api: api, opts: opts, log: opts.Log}) {
		s.AddResourceTemplate(r.template, r.handler)
	}
	return s, nil
}

// ServeStdio serves MCP over stdin and stdout until the client leaves or
// ctx ends. Nothing else may write to stdout.
func ServeStdio(ctx context.Context, api *Client, opts Options) error {
	s, err := New(api, opts)
	if err != nil {
		return err
	}
	return s.Run(ctx, &mcp.StdioTransport{})
}

// HTTPOptions configures streamable HTTP.
type HTTPOptions struct {
	// Stateless answers every request on its own with a JSON body (no
	// sessions, no server-to-client requests): what a Lambda can serve.
	Stateless bool
	// ForwardAuth calls the API with each request's own bearer token (a
	// hosted server, whose callers passed the API's authorizer with it).
	ForwardAuth bool
	// SameHost calls the API at https://<the request's Host> (a hosted
	// server routed by the same API); the client's base URL is then unused.
	SameHost bool
	// AllowedOrigins are web origins ("https://app.example") whose pages
	// may call the server besides its own; a request with any other Origin
	// header is answered 403. Requests without one (not a browser) pass.
	AllowedOrigins []string
}

// maxCachedServers bounds the servers kept for callers' credentials; a
// deployment sees one or a few.
const maxCachedServers = 32

// serverCache keeps one server per upstream base URL and token: building
// one takes milliseconds (every tool's schema), which a stateless server
// would otherwise pay on every request.
type serverCache struct {
	opts  Options
	mu    sync.Mutex
	byKey map[string]*mcp.Server
}

func cacheKey(c *Client) string { return c.BaseURL() + "\x00" + c.token }

func (sc *serverCache) get(c *Client) *mcp.Server {
	key := cacheKey(c)
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if s, ok := sc.byKey[key]; ok {
		return s
	}
	s, err := New(c, sc.opts)
	if err != nil {
		return nil
	}
	if sc.byKey == nil || len(sc.byKey) >= maxCachedServers {
		sc.byKey = map[string]*mcp.Server{}
	}
	sc.byKey[key] = s
	return s
}

// HTTPHandler serves MCP over streamable HTTP.
func HTTPHandler(api *Client, opts Options, ho HTTPOptions) (http.Handler, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	origins, err := normalOrigins(ho.AllowedOrigins)
	if err != nil {
		return nil, err
	}
	first, err := New(api, opts) // refuses bad options now, not per request
	if err != nil {
		return nil, err
	}
	servers := &serverCache{opts: opts, byKey: map[string]*mcp.Server{cacheKey(api): first}}
	getServer := func(r *http.Request) *mcp.Server {
		c := api
		if ho.SameHost && r.Host != "" {
			if sc, err := NewClient("https://"+r.Host, c.token, c.http, c.timeout); err == nil {
				c = sc
			}
		}
		if ho.ForwardAuth {
			token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			c = c.WithToken(strings.TrimSpace(token))
		}
		return servers.get(c) // nil (New failed) answers 400; New succeeded with these options above
	}
	return originGuard(origins, mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Stateless:    ho.Stateless,
		JSONResponse: ho.Stateless,
		Logger:       opts.Log,
	})), nil
}

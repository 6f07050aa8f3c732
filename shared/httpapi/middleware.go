package httpapi

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
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

// StatusClientClosed is logged (and sent, to no one) when the client went
// away before it was answered: nginx's 499, not a server fault.
const StatusClientClosed = 499

// LogRequests logs one line per request: never headers or bodies, which may
// hold keys. A request whose body broke off (the client closed the
// connection mid-upload) is answered and logged as 499, whatever status the
// operation's body parsing chose (huma says 500 "cannot read request body").
func LogRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		body := &bodyWatch{ReadCloser: r.Body}
		if r.Body != nil {
			r.Body = body
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK, body: body}
		next.ServeHTTP(rec, r)
		log.Info("request", "method", r.Method, "path", r.URL.Path, "status", rec.status,
			"ms", time.Since(start).Milliseconds())
	})
}

// bodyWatch remembers whether reading the request body broke off. Running
// into a body limit or a read timeout is the server's own decision, not a
// client that left.
type bodyWatch struct {
	io.ReadCloser
	broken bool
}

func (b *bodyWatch) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	var tooLarge *http.MaxBytesError
	var netErr net.Error
	if err != nil && err != io.EOF && !errors.As(err, &tooLarge) && !(errors.As(err, &netErr) && netErr.Timeout()) {
		b.broken = true
	}
	return n, err
}

type statusRecorder struct {
	http.ResponseWriter
	status  int
	body    *bodyWatch
	swallow bool // the operation's own error answer is replaced
}

func (s *statusRecorder) WriteHeader(code int) {
	if code >= 400 && s.body != nil && s.body.broken {
		s.status, s.swallow = StatusClientClosed, true
		WriteProblem(s.ResponseWriter, StatusClientClosed, "the request body broke off: the client closed the connection before sending all of it")
		return
	}
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(p []byte) (int, error) {
	if s.swallow {
		return len(p), nil
	}
	return s.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Access says who may reach the local server. Browsers are the risk: any page
// the user opens can send a form or a no-cors fetch to 127.0.0.1 (cross-site
// request forgery), and a page whose name re-resolves to 127.0.0.1 becomes
// same-origin with the server (DNS rebinding). Neither sends a bearer token,
// so a server with one is safe already; the default loopback server has none.
type Access struct {
	// Bound is the address the listener really bound ("127.0.0.1:8080").
	// Empty skips the Host check (tests on httptest servers).
	Bound string
	// PublicHosts are further names the server answers to ("lectern.lan" for
	// any port, "lectern.lan:8443" for one), e.g. behind a reverse proxy.
	PublicHosts []string
	// Origins are web origins ("https://notes.example") besides the server's
	// own that may send state-changing requests.
	Origins []string
}

// Check reports a configuration Guard cannot apply: an origin that is not
// scheme://host[:port], or a bound address that is not an IP and port.
func (a Access) Check() error {
	_, _, err := a.build()
	return err
}

func (a Access) build() (*http.CrossOriginProtection, hostRule, error) {
	cop := http.NewCrossOriginProtection()
	for _, o := range a.Origins {
		if err := cop.AddTrustedOrigin(strings.TrimSpace(o)); err != nil {
			return nil, hostRule{}, fmt.Errorf("allowed origin %q: %w", o, err)
		}
	}
	hosts, err := newHostRule(a.Bound, a.PublicHosts)
	return cop, hosts, err
}

// Guard refuses cross-site writes (403) and requests for a Host the server
// is not (421), each with a problem document. Requests without browser
// headers (curl, the MCP client, scripts) pass the origin check: only
// browsers send Sec-Fetch-Site and Origin, and only browsers are tricked.
// An Access that fails Check refuses everything (500): it fails closed.
func Guard(a Access, next http.Handler) http.Handler {
	cop, hosts, err := a.build()
	if err != nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			WriteProblem(w, http.StatusInternalServerError, "server misconfigured: "+err.Error())
		})
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		WriteProblem(w, http.StatusForbidden, "cross-site "+r.Method+" refused: this server accepts changes only from its own pages"+
			" or from an origin in LECTERN_ALLOWED_ORIGINS")
	}))
	guarded := cop.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hosts.allows(r.Host) {
			WriteProblem(w, http.StatusMisdirectedRequest, fmt.Sprintf("this server does not answer to host %q; it answers to %s"+
				" (LECTERN_PUBLIC_HOST adds a name)", clip(r.Host, 100), hosts))
			return
		}
		guarded.ServeHTTP(w, r)
	})
}

// hostRule is the set of Host header values the server answers to.
type hostRule struct {
	port     string // the bound port; "" means any Host passes
	ip       netip.Addr
	anyIP    bool // bound to every interface: any address literal names it
	loopback bool
	public   []hostPort
}

// hostPort is a configured public name; an empty port matches any.
type hostPort struct{ host, port string }

func (h hostPort) String() string {
	if h.port == "" {
		return h.host
	}
	return net.JoinHostPort(h.host, h.port)
}

func newHostRule(bound string, public []string) (hostRule, error) {
	if bound == "" {
		return hostRule{}, nil
	}
	h, port, err := net.SplitHostPort(bound)
	if err != nil {
		return hostRule{}, fmt.Errorf("bound address %q: %w", bound, err)
	}
	r := hostRule{port: port}
	if h == "" {
		r.anyIP = true
	} else if r.ip, err = netip.ParseAddr(h); err != nil {
		return hostRule{}, fmt.Errorf("bound address %q is not an IP address", bound)
	}
	r.anyIP = r.anyIP || r.ip.IsUnspecified()
	r.loopback = r.anyIP || r.ip.IsLoopback()
	for _, p := range public {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		hp := hostPort{host: p}
		if h, port, err := net.SplitHostPort(p); err == nil {
			hp = hostPort{host: h, port: port}
		}
		hp.host = canonicalHost(hp.host)
		r.public = append(r.public, hp)
	}
	return r, nil
}

// allows reports whether hostHeader names this server. A name can be
// re-pointed at 127.0.0.1 by whoever owns it, so only localhost and the
// configured names pass; address literals cannot be re-pointed.
func (r hostRule) allows(hostHeader string) bool {
	if r.port == "" {
		return true
	}
	host, port, err := net.SplitHostPort(hostHeader)
	if err != nil {
		host, port = hostHeader, "80"
	}
	host = canonicalHost(host)
	for _, p := range r.public {
		if p.host == host && (p.port == "" || p.port == port) {
			return true
		}
	}
	if port != r.port {
		return false
	}
	if host == "localhost" {
		return r.loopback
	}
	ip, err := netip.ParseAddr(host)
	switch {
	case err != nil:
		return false
	case r.anyIP:
		return true
	case r.ip.IsLoopback():
		return ip.Unmap().IsLoopback()
	}
	return ip.Unmap() == r.ip.Unmap()
}

func (r hostRule) String() string {
	var names []string
	switch {
	case r.anyIP:
		names = append(names, "any address or localhost on port "+r.port)
	case r.loopback:
		names = append(names, "localhost:"+r.port, net.JoinHostPort(r.ip.String(), r.port))
	default:
		names = append(names, net.JoinHostPort(r.ip.String(), r.port))
	}
	for _, p := range r.public {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

func canonicalHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Trim(h, "[]")), ".")
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

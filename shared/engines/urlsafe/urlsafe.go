// Package urlsafe owns the decision whether the server may call a
// user-supplied engine or Docker URL. Users type those URLs into engine
// cards, so on the hosted (AWS) deployment they are a server-side request
// forgery vector: without a check, "http://169.254.169.254/latest/meta-data"
// would hand out the instance role's credentials. Check vets a URL before it
// is stored or called; DialContext repeats the address check at connect time
// so a name that resolved to a public address during Check cannot be
// re-pointed at a forbidden one afterwards (DNS rebinding).
//
// Private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) stay allowed: the
// user's engines and Docker hosts normally live there. Cloud metadata
// addresses are refused in every mode, locally too: a laptop is rarely on a
// cloud instance, but a workstation or CI runner often is, and no engine
// lives there.
//
// A URL handed to the server only to fetch a document (an MCP agent's
// import by URL) is stricter: PublicOnly refuses every address that is not
// on the public internet, since nothing a document import needs lives on
// this machine or its private network, and everything an attacker would
// want does.
package urlsafe

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ErrUnsafeURL is wrapped by every refusal, so callers can tell "we will not
// call this" apart from "we could not look the host up".
var ErrUnsafeURL = errors.New("unsafe URL")

// Resolver looks host names up; *net.Resolver satisfies it. Tests substitute
// a fake so resolution is deterministic.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// Policy says which URLs the server may call.
type Policy struct {
	// Hosted is true on the shared AWS deployment, where loopback,
	// link-local and unspecified addresses belong to the platform, not to
	// the user. Locally they are the user's own machine, where engines
	// commonly run, so they are allowed. Metadata addresses are refused in
	// both modes.
	Hosted bool
	// PublicOnly refuses, besides the above, every address that is not a
	// public unicast address: loopback, link-local, private (10/8,
	// 172.16/12, 192.168/16, fc00::/7), shared (100.64/10), multicast,
	// benchmarking and reserved ranges, in every IPv6 spelling. It is the
	// policy for URLs fetched as documents, in both modes.
	PublicOnly bool
	// Allow lists exceptions to the hosted refusals: a host name ("gpu.lan"),
	// a host and port ("gpu.lan:8000", "127.0.0.1:11434", "[::1]:8080"), an
	// address ("127.0.0.1") or a CIDR ("127.0.0.0/8") no wider than /16
	// (IPv4) or /48 (IPv6); wider ones are ignored (CheckAllowEntry refuses
	// them when saved). A name entry trusts whatever the name resolves to;
	// an address entry trusts that address under any name.
	Allow []string
	// Resolver looks hosts up in Check; nil uses net.DefaultResolver.
	Resolver Resolver
}

// Check parses raw and returns it when the server may call it. Refusals wrap
// ErrUnsafeURL and name the URL (without credentials or query) and the
// reason. In hosted mode every address the host resolves to must be
// acceptable, since the dialler may pick any of them.
func (p Policy) Check(ctx context.Context, raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("%w %q: does not parse", ErrUnsafeURL, clip(raw))
	}
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("%w %q: %s", ErrUnsafeURL, display(u), fmt.Sprintf(format, args...))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, refuse("scheme %q is not http or https", u.Scheme)
	}
	if u.User != nil {
		// Credentials in the URL would be sent to whoever answers and end up
		// in logs; engine keys have their own field.
		return nil, refuse("user info in the URL is not allowed; put keys in the key field")
	}
	host := u.Hostname()
	if host == "" {
		return nil, refuse("no host")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return nil, refuse("port %q is out of range", port)
		}
	}
	if looksNumeric(host) {
		if _, err := netip.ParseAddr(host); err != nil {
			// "2130706433", "0x7f.1" and "0177.0.0.1" mean 127.0.0.1 to some
			// resolvers and nothing to others; the answer must not depend
			// on which one runs.
			return nil, refuse("host %q is an IPv4 address in a non-standard form", host)
		}
	}
	port := portOf(u)
	if p.allowsName(host, port) {
		return u, nil
	}
	if !p.Hosted && !p.PublicOnly {
		// Only address literals are checked here; a name is checked at
		// dial time, which the local mode would otherwise not resolve.
		if addr, err := netip.ParseAddr(host); err == nil {
			if kind := p.refusal(addr, port); kind != "" {
				return nil, refuse("%s is %s", addr, kind)
			}
		}
		return u, nil
	}
	if isLocalhostName(host) {
		return nil, refuse("%s names this machine", host)
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		if kind := p.refusal(addr, port); kind != "" {
			return nil, refuse("%s is %s", addr, kind)
		}
		return u, nil
	}
	resolver := p.Resolver
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	addrs, err := resolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("URL %q: cannot resolve %s: %w", display(u), host, err)
	}
	if len(addrs) == 0 {
		return nil, refuse("%s resolves to no address", host)
	}
	for _, a := range addrs {
		addr, ok := netip.AddrFromSlice(a.IP)
		if !ok {
			return nil, refuse("%s resolves to an unreadable address", host)
		}
		addr = addr.Unmap() // net.IP keeps IPv4 in 16 bytes
		if a.Zone != "" {
			addr = addr.WithZone(a.Zone)
		}
		if kind := p.refusal(addr, port); kind != "" {
			return nil, refuse("%s resolves to %s, %s", host, addr, kind)
		}
	}
	return u, nil
}

// DialContext returns a dial function for http.Transport.DialContext that
// applies the refusals to the address each connection actually goes to,
// checked in the dialler's Control hook after resolution. The transport
// must not use a proxy (Proxy: nil), or the address checked is the proxy's.
// base may be nil; its own Control or ControlContext still runs afterwards.
func (p Policy) DialContext(base *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	if base == nil {
		base = &net.Dialer{}
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, fmt.Errorf("%w: dial %q: %v", ErrUnsafeURL, addr, err)
		}
		if p.allowsName(host, port) {
			return base.DialContext(ctx, network, addr)
		}
		d := *base
		if r, ok := p.Resolver.(*net.Resolver); ok && d.Resolver == nil {
			d.Resolver = r
		}
		inner := base.ControlContext
		innerPlain := base.Control
		d.Control = nil
		d.ControlContext = func(ctx context.Context, network, address string, c syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: dial %s (%s): unreadable address", ErrUnsafeURL, addr, address)
			}
			if kind := p.refusal(ap.Addr(), strconv.Itoa(int(ap.Port()))); kind != "" {
				return fmt.Errorf("%w: dial %s: %s is %s", ErrUnsafeURL, addr, ap.Addr(), kind)
			}
			switch {
			case inner != nil:
				return inner(ctx, network, address, c)
			case innerPlain != nil:
				return innerPlain(network, address, c)
			}
			return nil
		}
		return d.DialContext(ctx, network, addr)
	}
}

// refusal names the class of platform address addr is ("a loopback
// address"), or "" when the policy may call it.
func (p Policy) refusal(addr netip.Addr, port string) string {
	kind := forbidden(addr, p.scope())
	if kind == "" || p.allowsAddr(addr, port) {
		return ""
	}
	return kind
}

// scope is how much of the address space a policy refuses.
type scope int

const (
	scopeLocal  scope = iota // metadata only
	scopeHosted              // and this machine's own addresses
	scopePublic              // and everything not on the public internet
)

func (p Policy) scope() scope {
	switch {
	case p.PublicOnly:
		return scopePublic
	case p.Hosted:
		return scopeHosted
	}
	return scopeLocal
}

// forbidden names the class of platform-owned address addr is, or "" when
// it belongs to the user. Locally only metadata addresses are the platform's.
func forbidden(addr netip.Addr, sc scope) string {
	a := addr.WithZone("").Unmap() // ::ffff:127.0.0.1 is 127.0.0.1 on the wire
	if kind := platformKind(a, sc); kind != "" {
		return kind
	}
	if v4, ok := embeddedV4(a); ok {
		if kind := platformKind(v4, sc); kind != "" {
			return fmt.Sprintf("an IPv6 form of %s, %s", v4, kind)
		}
	}
	return ""
}

// platformKind names the class of a platform-owned address, or "".
func platformKind(a netip.Addr, sc scope) string {
	switch {
	case isMetadata(a):
		return "a cloud metadata address"
	case sc == scopeLocal:
		return ""
	case a.IsLoopback():
		return "a loopback address"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "a link-local address"
	case a.IsUnspecified(), a.Is4() && a.As4()[0] == 0:
		// 0.0.0.0/8 is "this network": connecting to 0.0.0.0 reaches this host.
		return "an unspecified address"
	case sc != scopePublic:
		return ""
	case a.IsPrivate():
		return "a private address"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "a multicast address"
	case inAny(a, notPublic):
		return "a reserved or internal address"
	case !a.IsGlobalUnicast():
		return "not a public address"
	}
	return ""
}

// notPublic lists the ranges beside RFC 1918 and fc00::/7 that never reach a
// public host: shared (carrier-grade NAT, where some clouds put internal
// services), IETF protocol assignments, benchmarking, reserved and
// broadcast, and IPv6 discard-only and site-local.
var notPublic = []netip.Prefix{
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("fec0::/10"),
}

func inAny(a netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// isMetadata matches cloud instance-metadata endpoints. Most sit in
// 169.254.0.0/16 and would be refused as link-local anyway; naming them gives
// a clearer reason. The ones outside it are why this list exists.
func isMetadata(a netip.Addr) bool {
	for _, p := range [...]string{
		"169.254.169.254/32", // AWS, GCP, Azure, OCI, OpenStack, DigitalOcean
		"169.254.170.2/32",   // AWS ECS task metadata and credentials
		"169.254.170.23/32",  // AWS EKS pod identity
		"fd00:ec2::/32",      // AWS IPv6 instance services: IMDS ::254, DNS ::253, pod identity ::23
		"100.100.100.200/32", // Alibaba Cloud
		"168.63.129.16/32",   // Azure WireServer
		"192.0.0.192/32",     // Oracle Cloud Classic
	} {
		if netip.MustParsePrefix(p).Contains(a) {
			return true
		}
	}
	return false
}

// embeddedV4 extracts the IPv4 address that an IPv4-compatible (::a.b.c.d)
// or NAT64 (64:ff9b::a.b.c.d) address delivers to. :: and ::1 are left to
// platformKind, which already knows them.
func embeddedV4(a netip.Addr) (netip.Addr, bool) {
	if !a.Is6() || a.IsUnspecified() || a.IsLoopback() {
		return netip.Addr{}, false
	}
	b := a.As16()
	compat := [12]byte{}
	nat64 := [12]byte{0x00, 0x64, 0xff, 0x9b}
	if [12]byte(b[:12]) != compat && [12]byte(b[:12]) != nat64 {
		return netip.Addr{}, false
	}
	return netip.AddrFrom4([4]byte(b[12:])), true
}

// allowsName reports whether a name-only or name:port entry covers host.
func (p Policy) allowsName(host, port string) bool {
	host = canonicalName(host)
	for _, e := range p.Allow {
		e = strings.TrimSpace(e)
		if eh, ep, err := net.SplitHostPort(e); err == nil {
			if ep == port && canonicalName(eh) == host && !isAddr(eh) {
				return true
			}
			continue
		}
		if !isAddr(e) && !strings.Contains(e, "/") && canonicalName(e) == host {
			return true
		}
	}
	return false
}

// allowsAddr reports whether an address, address:port or CIDR entry covers addr.
func (p Policy) allowsAddr(addr netip.Addr, port string) bool {
	addr = addr.WithZone("")
	plain := addr.Unmap()
	match := func(a netip.Addr) bool {
		a = a.WithZone("")
		return a == addr || a.Unmap() == plain
	}
	for _, e := range p.Allow {
		e = strings.TrimSpace(e)
		if pre, err := netip.ParsePrefix(e); err == nil {
			if tooWide(pre) == "" && (pre.Contains(addr) || pre.Contains(plain)) {
				return true
			}
			continue
		}
		if a, err := netip.ParseAddr(e); err == nil {
			if match(a) {
				return true
			}
			continue
		}
		if ap, err := netip.ParseAddrPort(e); err == nil {
			if strconv.Itoa(int(ap.Port())) == port && match(ap.Addr()) {
				return true
			}
		}
	}
	return false
}

// CheckAllowEntry refuses an allow-list entry that is not a host, host:port,
// address or CIDR, or a CIDR wider than /16 (IPv4) or /48 (IPv6): an entry
// such as 0.0.0.0/0 would lift every refusal at once.
func CheckAllowEntry(e string) error {
	if strings.Contains(e, "/") {
		pre, err := netip.ParsePrefix(e)
		if err != nil {
			return fmt.Errorf("%q is not a CIDR", e)
		}
		if why := tooWide(pre); why != "" {
			return fmt.Errorf("%q %s; name the hosts or a narrower range", e, why)
		}
	}
	return nil
}

// tooWide says why a prefix covers too much to trust, or "".
func tooWide(pre netip.Prefix) string {
	bits := pre.Bits()
	if pre.Addr().Is4In6() && bits >= 96 {
		bits -= 96 // ::ffff:a.b.c.d/n covers IPv4 /n-96
		if bits < 16 {
			return "covers more than an IPv4 /16"
		}
		return ""
	}
	switch {
	case pre.Addr().Is4() && bits < 16:
		return "covers more than an IPv4 /16"
	case pre.Addr().Is6() && bits < 48:
		return "covers more than an IPv6 /48"
	}
	return ""
}

func isAddr(s string) bool {
	_, err := netip.ParseAddr(s)
	return err == nil
}

func canonicalName(s string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Trim(s, "[]")), ".")
}

// isLocalhostName catches names RFC 6761 reserves for this machine, which
// some resolvers answer without asking DNS.
func isLocalhostName(host string) bool {
	h := canonicalName(host)
	return h == "localhost" || strings.HasSuffix(h, ".localhost")
}

// looksNumeric applies the WHATWG URL rule: a host whose last label is a
// number is an IPv4 address, however it is written.
func looksNumeric(host string) bool {
	if strings.Contains(host, ":") {
		return false // IPv6 literal
	}
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	last := strings.ToLower(labels[len(labels)-1])
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		last = last[2:]
		return strings.Trim(last, "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// display shows u without user info, query or fragment, which may carry
// secrets, so refusals can be logged and shown to the user.
func display(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = ""
	c.ForceQuery = false
	c.Fragment = ""
	c.RawFragment = ""
	return clip(c.String())
}

func clip(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// HTTPClient returns a client that dials only what the policy allows,
// checked at connect time, with no proxy (a proxy would be what the dialler
// checks, not the engine). timeout 0 means none beyond the caller's context.
func (p Policy) HTTPClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.DialContext = p.DialContext(&net.Dialer{Timeout: 10 * time.Second})
	return &http.Client{Transport: t, Timeout: timeout}
}

package urlsafe

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// fakeResolver answers from a fixed table; unknown names are NXDOMAIN.
type fakeResolver struct {
	table map[string][]string
	calls atomic.Int32
}

func (f *fakeResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	f.calls.Add(1)
	ips, ok := f.table[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []net.IPAddr
	for _, s := range ips {
		out = append(out, net.IPAddr{IP: net.ParseIP(s)})
	}
	return out, nil
}

func resolver() *fakeResolver {
	return &fakeResolver{table: map[string][]string{
		"api.example.com":          {"203.0.113.10", "2001:db8::10"},
		"gpu.lan":                  {"192.168.1.20"},
		"rebind.example":           {"127.0.0.1"},
		"v6loop.example":           {"::1"},
		"mixed.example":            {"203.0.113.5", "169.254.169.254"},
		"metadata.google.internal": {"169.254.169.254"},
		"mapped.example":           {"::ffff:169.254.169.254"},
		"zero.example":             {"0.0.0.0"},
		"empty.example":            {},
	}}
}

func TestCheckRefusesInEveryMode(t *testing.T) {
	cases := []struct {
		name, raw, reason string
	}{
		{"file scheme", "file:///etc/passwd", `scheme "file"`},
		{"ftp scheme", "ftp://files.example.com/x", `scheme "ftp"`},
		{"gopher scheme", "gopher://127.0.0.1:6379/_FLUSHALL", `scheme "gopher"`},
		{"javascript scheme", "javascript:alert(1)", `scheme "javascript"`},
		{"no scheme", "//api.example.com/v1", `scheme ""`},
		{"empty", "", `scheme ""`},
		{"blank", "   ", `scheme ""`},
		{"empty host", "http:///v1/models", "no host"},
		{"opaque", "http:api.example.com", "no host"},
		{"port only", "http://:8080/", "no host"},
		{"user and password", "http://admin:hunter2@api.example.com/", "user info"},
		{"user only", "https://admin@api.example.com/", "user info"},
		{"port out of range", "http://api.example.com:99999/", "out of range"},
		{"port zero", "http://api.example.com:0/", "out of range"},
		{"decimal IPv4", "http://2130706433/", "non-standard form"},
		{"hex IPv4", "http://0x7f000001/", "non-standard form"},
		{"dotted hex IPv4", "http://0x7f.0x0.0x0.0x1/", "non-standard form"},
		{"octal IPv4", "http://0177.0.0.1/", "non-standard form"},
		{"short IPv4", "http://127.1/", "non-standard form"},
		{"leading zero IPv4", "http://169.254.169.0254/", "non-standard form"},
		{"unparseable", "http://[::1/", "does not parse"},
	}
	for _, hosted := range []bool{false, true} {
		p := Policy{Hosted: hosted, Resolver: resolver()}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				u, err := p.Check(context.Background(), c.raw)
				if !errors.Is(err, ErrUnsafeURL) || u != nil {
					t.Fatalf("hosted=%v: got %v, %v; want ErrUnsafeURL", hosted, u, err)
				}
				if !strings.Contains(err.Error(), c.reason) {
					t.Errorf("hosted=%v: %q does not give the reason %q", hosted, err, c.reason)
				}
			})
		}
	}
}

func TestCheckRefusesPlatformAddressesWhenHosted(t *testing.T) {
	cases := []struct {
		name, raw, reason string
	}{
		{"loopback", "http://127.0.0.1:11434/v1", "127.0.0.1 is a loopback address"},
		{"loopback range", "http://127.8.9.10/", "loopback"},
		{"IPv6 loopback", "http://[::1]:8080/", "::1 is a loopback address"},
		{"localhost", "http://localhost:4000/v1", "names this machine"},
		{"localhost trailing dot", "http://LocalHost./", "names this machine"},
		{"localhost subdomain", "http://api.localhost/", "names this machine"},
		{"AWS metadata", "http://169.254.169.254/latest/meta-data", "169.254.169.254 is a cloud metadata address"},
		{"AWS metadata https", "https://169.254.169.254/latest/api/token", "cloud metadata"},
		{"ECS credentials", "http://169.254.170.2/v2/credentials", "cloud metadata"},
		{"AWS IPv6 metadata", "http://[fd00:ec2::254]/latest/meta-data", "fd00:ec2::254 is a cloud metadata address"},
		{"Alibaba metadata", "http://100.100.100.200/latest/meta-data", "100.100.100.200 is a cloud metadata address"},
		{"Azure WireServer", "http://168.63.129.16/machine", "cloud metadata"},
		{"Oracle Classic", "http://192.0.0.192/", "cloud metadata"},
		{"link-local", "http://169.254.1.1/", "169.254.1.1 is a link-local address"},
		{"IPv6 link-local", "http://[fe80::1]/", "link-local"},
		{"IPv6 link-local with zone", "http://[fe80::1%25eth0]:80/", "link-local"},
		{"unspecified", "http://0.0.0.0:8000/", "0.0.0.0 is an unspecified address"},
		{"this network", "http://0.1.2.3/", "unspecified"},
		{"IPv6 unspecified", "http://[::]/", ":: is an unspecified address"},
		{"mapped loopback", "http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1 is a loopback address"},
		{"mapped loopback hex", "http://[::ffff:7f00:1]:4000/", "loopback"},
		{"mapped metadata", "http://[::ffff:169.254.169.254]/latest/meta-data", "cloud metadata"},
		{"mapped unspecified", "http://[::ffff:0.0.0.0]/", "unspecified"},
		{"IPv4-compatible loopback", "http://[::127.0.0.1]/", "::7f00:1 is an IPv6 form of 127.0.0.1, a loopback address"},
		{"NAT64 metadata", "http://[64:ff9b::169.254.169.254]/", "an IPv6 form of 169.254.169.254, a cloud metadata address"},
		{"name resolving to loopback", "http://rebind.example:8080/", "rebind.example resolves to 127.0.0.1, a loopback address"},
		{"name resolving to IPv6 loopback", "http://v6loop.example/", "loopback"},
		{"name resolving to metadata", "http://metadata.google.internal/computeMetadata/v1/", "cloud metadata"},
		{"name resolving to mapped metadata", "http://mapped.example/", "cloud metadata"},
		{"name resolving to unspecified", "http://zero.example/", "unspecified"},
		{"one of several addresses bad", "https://mixed.example/v1", "169.254.169.254"},
		{"name resolving to nothing", "http://empty.example/", "resolves to no address"},
	}
	p := Policy{Hosted: true, Resolver: resolver()}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, err := p.Check(context.Background(), c.raw)
			if !errors.Is(err, ErrUnsafeURL) || u != nil {
				t.Fatalf("got %v, %v; want ErrUnsafeURL", u, err)
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Errorf("%q does not give the reason %q", err, c.reason)
			}
			if !strings.Contains(err.Error(), strings.SplitN(c.raw, "/", 4)[2]) {
				t.Errorf("%q does not name the URL %s", err, c.raw)
			}
		})
	}
}

func TestCheckAcceptsUserAddresses(t *testing.T) {
	cases := []struct {
		name, raw string
		hosted    bool
	}{
		{"public IP hosted", "http://203.0.113.7:4000/v1", true},
		{"public IPv6 hosted", "http://[2001:db8::1]/v1", true},
		{"public name hosted", "https://api.example.com/v1", true},
		{"private Docker host hosted", "http://10.0.0.5:2375", true},
		{"private name hosted", "http://gpu.lan:8000/v1", true},
		{"upper-case scheme", "HTTPS://api.example.com/v1", true},
		{"loopback locally", "http://127.0.0.1:11434/v1", false},
		{"localhost locally", "http://localhost:4000", false},
		{"IPv6 loopback locally", "http://[::1]:8080/", false},
		{"mapped loopback locally", "http://[::ffff:127.0.0.1]/", false},
		{"link-local locally", "http://169.254.10.10/", false},
		{"unknown name locally", "http://nowhere.invalid/", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := resolver()
			u, err := Policy{Hosted: c.hosted, Resolver: r}.Check(context.Background(), c.raw)
			if err != nil || u == nil {
				t.Fatalf("got %v, %v", u, err)
			}
			if !c.hosted && r.calls.Load() != 0 {
				t.Errorf("local mode looked %s up; it has nothing to check", c.raw)
			}
		})
	}
}

func TestCheckChecksEveryResolvedAddressOfAnAcceptedName(t *testing.T) {
	r := resolver()
	if _, err := (Policy{Hosted: true, Resolver: r}).Check(context.Background(), "https://api.example.com/v1"); err != nil || r.calls.Load() != 1 {
		t.Fatalf("got %v after %d lookups", err, r.calls.Load())
	}
}

func TestAllowListOverridesHostedRefusals(t *testing.T) {
	cases := []struct {
		name  string
		allow []string
		raw   string
		ok    bool
	}{
		{"name", []string{"localhost"}, "http://localhost:11434/v1", true},
		{"name any case, trailing dot", []string{" LOCALHOST. "}, "http://localhost:11434/v1", true},
		{"name and port", []string{"rebind.example:8080"}, "http://rebind.example:8080/", true},
		{"name and other port", []string{"rebind.example:8080"}, "http://rebind.example:9090/", false},
		{"name and default port", []string{"rebind.example:443"}, "https://rebind.example/", true},
		{"address", []string{"127.0.0.1"}, "http://127.0.0.1:5000/", true},
		{"address covers a name resolving to it", []string{"127.0.0.1"}, "http://rebind.example/", true},
		{"address covers its mapped form", []string{"127.0.0.1"}, "http://[::ffff:127.0.0.1]/", true},
		{"address does not cover its neighbour", []string{"127.0.0.1"}, "http://127.0.0.2/", false},
		{"CIDR", []string{"127.5.0.0/16"}, "http://127.5.5.5/", true},
		{"CIDR leaves metadata refused", []string{"127.5.0.0/16"}, "http://169.254.169.254/latest/meta-data", false},
		{"a CIDR wider than /16 is ignored", []string{"127.0.0.0/8"}, "http://127.5.5.5/", false},
		{"0.0.0.0/0 is ignored", []string{"0.0.0.0/0"}, "http://169.254.169.254/", false},
		{"::/0 is ignored", []string{"::/0"}, "http://[fd00:ec2::254]/", false},
		{"a mapped ::/96 is ignored", []string{"::ffff:0.0.0.0/96"}, "http://169.254.169.254/", false},
		{"IPv6 address and port", []string{"[::1]:8080"}, "http://[::1]:8080/", true},
		{"IPv6 address and other port", []string{"[::1]:8080"}, "http://[::1]:9000/", false},
		{"address and port", []string{"127.0.0.1:11434"}, "http://rebind.example:11434/", true},
		{"other name", []string{"gpu.lan"}, "http://rebind.example/", false},
		{"all addresses of a mixed name needed", []string{"203.0.113.5"}, "http://mixed.example/", false},
		{"metadata explicitly allowed", []string{"169.254.169.254/32"}, "http://mixed.example/", true},
		{"bad entries are ignored", []string{"", "10.0.0.0/33", "::1::"}, "http://[::1]/", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, err := Policy{Hosted: true, Allow: c.allow, Resolver: resolver()}.Check(context.Background(), c.raw)
			if c.ok && (err != nil || u == nil) {
				t.Fatalf("allow %q: got %v", c.allow, err)
			}
			if !c.ok && !errors.Is(err, ErrUnsafeURL) {
				t.Fatalf("allow %q: got %v, want ErrUnsafeURL", c.allow, err)
			}
		})
	}
}

func TestAllowListDoesNotLiftTheBasicRules(t *testing.T) {
	p := Policy{Hosted: true, Allow: []string{"localhost", "127.0.0.0/8"}, Resolver: resolver()}
	for _, raw := range []string{"file://localhost/etc/passwd", "http://u:p@localhost/", "http://2130706433/"} {
		if _, err := p.Check(context.Background(), raw); !errors.Is(err, ErrUnsafeURL) {
			t.Errorf("%s: got %v", raw, err)
		}
	}
}

func TestRefusalsDoNotRepeatSecrets(t *testing.T) {
	p := Policy{Hosted: true, Resolver: resolver()}
	for _, raw := range []string{
		"http://admin:s3cr3t-pw@api.example.com/v1",
		"http://169.254.169.254/latest?token=s3cr3t-pw#s3cr3t-pw",
	} {
		_, err := p.Check(context.Background(), raw)
		if err == nil || strings.Contains(err.Error(), "s3cr3t-pw") {
			t.Errorf("%s: %v", raw, err)
		}
	}
}

func TestUnresolvableHostIsAnErrorButNotUnsafe(t *testing.T) {
	_, err := Policy{Hosted: true, Resolver: resolver()}.Check(context.Background(), "http://nowhere.invalid:8000/v1")
	var dnsErr *net.DNSError
	if err == nil || errors.Is(err, ErrUnsafeURL) || !errors.As(err, &dnsErr) || !strings.Contains(err.Error(), "nowhere.invalid") {
		t.Fatalf("got %v", err)
	}
}

func TestCheckReturnsTheParsedURL(t *testing.T) {
	u, err := Policy{}.Check(context.Background(), "  https://api.example.com:8443/v1?x=1  ")
	if err != nil || u.Host != "api.example.com:8443" || u.Path != "/v1" || u.RawQuery != "x=1" {
		t.Fatalf("got %v, %v", u, err)
	}
}

// server counts requests so a test can prove a refused dial never reached it.
func server(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		io.WriteString(w, "ok")
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func get(p Policy, base *net.Dialer, rawURL string) error {
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: p.DialContext(base), DisableKeepAlives: true}}
	resp, err := c.Get(rawURL)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	return err
}

func TestDialContextRefusesPlatformAddressesWhenHosted(t *testing.T) {
	srv, hits := server(t)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	for _, raw := range []string{srv.URL, "http://localhost:" + strconv.Itoa(port) + "/"} {
		err := get(Policy{Hosted: true}, nil, raw)
		if !errors.Is(err, ErrUnsafeURL) || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("%s: got %v", raw, err)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("a refused dial reached the server %d times", hits.Load())
	}
}

func TestDialContextRefusesMetadataBeforeConnecting(t *testing.T) {
	dial := Policy{Hosted: true}.DialContext(&net.Dialer{Timeout: time.Second})
	for _, addr := range []string{"169.254.169.254:80", "[fd00:ec2::254]:80", "100.100.100.200:80", "[::ffff:169.254.169.254]:80"} {
		conn, err := dial(context.Background(), "tcp", addr)
		if conn != nil {
			conn.Close()
		}
		if !errors.Is(err, ErrUnsafeURL) {
			t.Errorf("%s: got %v", addr, err)
		}
	}
}

func TestDialContextAllowsWhatThePolicyAllows(t *testing.T) {
	srv, hits := server(t)
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	cases := []struct {
		name string
		p    Policy
		raw  string
	}{
		{"local mode", Policy{}, srv.URL},
		{"allowed address", Policy{Hosted: true, Allow: []string{"127.0.0.1"}}, srv.URL},
		{"allowed CIDR", Policy{Hosted: true, Allow: []string{"127.0.0.0/16"}}, srv.URL},
		{"allowed address and port", Policy{Hosted: true, Allow: []string{"127.0.0.1:" + port}}, srv.URL},
		{"allowed name", Policy{Hosted: true, Allow: []string{"localhost"}}, "http://localhost:" + port + "/"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := hits.Load()
			if err := get(c.p, nil, c.raw); err != nil || hits.Load() != before+1 {
				t.Fatalf("got %v", err)
			}
		})
	}
	if err := get(Policy{Hosted: true, Allow: []string{"127.0.0.1:1"}}, nil, srv.URL); !errors.Is(err, ErrUnsafeURL) {
		t.Fatalf("an address entry for another port let the dial through: %v", err)
	}
}

func TestDialContextKeepsTheBaseDialersControl(t *testing.T) {
	srv, _ := server(t)
	var plain, withCtx atomic.Int32
	base := &net.Dialer{Control: func(string, string, syscall.RawConn) error { plain.Add(1); return nil }}
	if err := get(Policy{Hosted: true, Allow: []string{"127.0.0.1"}}, base, srv.URL); err != nil || plain.Load() != 1 {
		t.Fatalf("got %v, Control ran %d times", err, plain.Load())
	}
	base = &net.Dialer{ControlContext: func(context.Context, string, string, syscall.RawConn) error { withCtx.Add(1); return nil }}
	if err := get(Policy{Hosted: true, Allow: []string{"127.0.0.1"}}, base, srv.URL); err != nil || withCtx.Load() != 1 {
		t.Fatalf("got %v, ControlContext ran %d times", err, withCtx.Load())
	}
}

// TestDialContextDefeatsDNSRebinding: Check sees the name resolve to a public
// address, then the dial-time lookup answers 127.0.0.1. The dial must be
// refused although Check passed; allowing 127.0.0.1 proves the dial really
// went where the rebinding answer pointed.
func TestDialContextDefeatsDNSRebinding(t *testing.T) {
	srv, hits := server(t)
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	raw := "http://rebind.example:" + port + "/"
	checkTime := &fakeResolver{table: map[string][]string{"rebind.example": {"203.0.113.9"}}}
	p := Policy{Hosted: true, Resolver: checkTime}
	if _, err := p.Check(context.Background(), raw); err != nil {
		t.Fatalf("Check: %v", err)
	}
	base := &net.Dialer{Resolver: &net.Resolver{PreferGo: true, Dial: dnsAnswering(t, netip.MustParseAddr("127.0.0.1"))}}
	if err := get(p, base, raw); !errors.Is(err, ErrUnsafeURL) || !strings.Contains(err.Error(), "127.0.0.1 is a loopback address") {
		t.Fatalf("rebinding dial: got %v", err)
	}
	if hits.Load() != 0 {
		t.Fatal("the rebound dial reached the server")
	}
	p.Allow = []string{"127.0.0.1"}
	if err := get(p, base, raw); err != nil || hits.Load() != 1 {
		t.Fatalf("allowed dial: got %v", err)
	}
}

// dnsAnswering is a net.Resolver Dial that serves DNS over an in-memory
// stream: A questions get addr, anything else an empty NOERROR answer.
func dnsAnswering(t *testing.T, addr netip.Addr) func(context.Context, string, string) (net.Conn, error) {
	return func(context.Context, string, string) (net.Conn, error) {
		client, srv := net.Pipe()
		go func() {
			defer srv.Close()
			for {
				var n uint16
				if err := binary.Read(srv, binary.BigEndian, &n); err != nil {
					return
				}
				q := make([]byte, n)
				if _, err := io.ReadFull(srv, q); err != nil {
					return
				}
				resp := dnsReply(q, addr)
				if resp == nil {
					t.Errorf("unreadable DNS query % x", q)
					return
				}
				binary.Write(srv, binary.BigEndian, uint16(len(resp)))
				srv.Write(resp)
			}
		}()
		return client, nil
	}
}

func dnsReply(q []byte, addr netip.Addr) []byte {
	if len(q) < 12 {
		return nil
	}
	i := 12
	for i < len(q) && q[i] != 0 {
		i += int(q[i]) + 1
	}
	end := i + 5 // root label, QTYPE, QCLASS
	if end > len(q) {
		return nil
	}
	qtype := binary.BigEndian.Uint16(q[i+1 : i+3])
	resp := append([]byte{}, q[:2]...)          // ID
	resp = append(resp, 0x81, 0x80)             // response, recursion desired and available, NOERROR
	resp = append(resp, 0, 1, 0, 0, 0, 0, 0, 0) // QDCOUNT=1, ANCOUNT set below
	resp = append(resp, q[12:end]...)
	if qtype == 1 && addr.Is4() {
		resp[7] = 1
		a := addr.As4()
		resp = append(resp, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 1, 0, 4)
		resp = append(resp, a[:]...)
	}
	return resp
}

func TestMetadataIsRefusedLocallyToo(t *testing.T) {
	for _, raw := range []string{
		"http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://169.254.170.2/v2/credentials",
		"http://100.100.100.200/", "http://[::ffff:169.254.169.254]/", "tcp://169.254.169.254:2375",
	} {
		raw = strings.Replace(raw, "tcp://", "http://", 1) // as cards check a Docker host
		if _, err := (Policy{Resolver: resolver()}).Check(context.Background(), raw); !errors.Is(err, ErrUnsafeURL) || !strings.Contains(err.Error(), "metadata") {
			t.Errorf("%s: got %v, want a metadata refusal", raw, err)
		}
	}
	// A name is looked up when the connection is made.
	dial := Policy{}.DialContext(&net.Dialer{Timeout: time.Second})
	for _, addr := range []string{"169.254.169.254:80", "[fd00:ec2::254]:80", "[::ffff:169.254.169.254]:2375"} {
		conn, err := dial(context.Background(), "tcp", addr)
		if conn != nil {
			conn.Close()
		}
		if !errors.Is(err, ErrUnsafeURL) {
			t.Errorf("local dial to %s: got %v", addr, err)
		}
	}
	if _, err := (Policy{Allow: []string{"169.254.169.254"}}).Check(context.Background(), "http://169.254.169.254/"); err != nil {
		t.Errorf("the allow list names it, yet: %v", err)
	}
	if _, err := (Policy{}).Check(context.Background(), "http://169.254.10.10/"); err != nil {
		t.Errorf("other link-local addresses stay the user's locally: %v", err)
	}
}

func TestCheckAllowEntryRefusesWideRanges(t *testing.T) {
	for _, e := range []string{"0.0.0.0/0", "10.0.0.0/8", "172.16.0.0/12", "::/0", "2001:db8::/32", "::ffff:0.0.0.0/96", "fd00::/47", "10.0.0.0/33", "x/8"} {
		if err := CheckAllowEntry(e); err == nil {
			t.Errorf("%s accepted", e)
		}
	}
	for _, e := range []string{"10.1.0.0/16", "192.168.1.0/24", "fd00:1:2::/48", "::ffff:10.1.0.0/112", "169.254.169.254/32", "gpu.lan", "gpu.lan:8000", "127.0.0.1", "[::1]:8080"} {
		if err := CheckAllowEntry(e); err != nil {
			t.Errorf("%s refused: %v", e, err)
		}
	}
}

// TestPublicOnlyRefusesEverythingOffTheInternet is the policy of a URL an
// agent hands the server to fetch: no private, loopback, link-local,
// metadata or reserved address, in any IPv6 spelling, by literal or name.
func TestPublicOnlyRefusesEverythingOffTheInternet(t *testing.T) {
	r := resolver()
	r.table["lan.example"] = []string{"10.1.2.3"}
	r.table["ula.example"] = []string{"fd12:3456::1"}
	p := Policy{PublicOnly: true, Resolver: r}
	for _, c := range []struct{ raw, reason string }{
		{"http://127.0.0.1:8080/book.txt", "loopback"},
		{"http://[::1]/", "loopback"},
		{"http://localhost/", "names this machine"},
		{"http://169.254.169.254/latest/meta-data/", "cloud metadata"},
		{"http://[::ffff:169.254.169.254]/", "cloud metadata"},
		{"http://[fd00:ec2::254]/", "cloud metadata"},
		{"http://169.254.1.1/", "link-local"},
		{"http://[fe80::1]/", "link-local"},
		{"http://10.0.0.1/", "private"},
		{"http://172.16.5.4/", "private"},
		{"http://192.168.1.20/", "private"},
		{"http://[fc00::1]/", "private"},
		{"http://[fd12:3456::1]/", "private"},
		{"http://[::ffff:10.0.0.1]/", "private"},
		{"http://[::ffff:192.168.0.1]/", "private"},
		{"http://[64:ff9b::10.0.0.1]/", "an IPv6 form of 10.0.0.1, a private address"},
		{"http://100.64.0.1/", "reserved or internal"},
		{"http://198.18.0.1/", "reserved or internal"},
		{"http://240.0.0.1/", "reserved or internal"},
		{"http://255.255.255.255/", "reserved or internal"},
		{"http://239.1.2.3/", "multicast"},
		{"http://[ff05::1]/", "multicast"},
		{"http://[fec0::1]/", "reserved or internal"},
		{"http://0.0.0.0/", "unspecified"},
		{"http://[::]/", "unspecified"},
		{"http://gpu.lan/", "gpu.lan resolves to 192.168.1.20, a private address"},
		{"http://lan.example/", "private"},
		{"http://ula.example/", "private"},
		{"http://rebind.example/", "loopback"},
		{"http://mixed.example/", "169.254.169.254"},
	} {
		if _, err := p.Check(context.Background(), c.raw); !errors.Is(err, ErrUnsafeURL) || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s: got %v, want a refusal naming %q", c.raw, err, c.reason)
		}
	}
	for _, raw := range []string{"https://api.example.com/book.epub", "http://203.0.113.7/", "http://[2001:db8::7]/", "http://[64:ff9b::203.0.113.7]/"} {
		if _, err := p.Check(context.Background(), raw); err != nil {
			t.Errorf("%s is public: %v", raw, err)
		}
	}
	// The allow list is the user's way to fetch from their own network.
	allowed := Policy{PublicOnly: true, Resolver: r, Allow: []string{"192.168.1.0/24", "fd12:3456::/48"}}
	for _, raw := range []string{"http://gpu.lan/", "http://ula.example/"} {
		if _, err := allowed.Check(context.Background(), raw); err != nil {
			t.Errorf("%s is allowed: %v", raw, err)
		}
	}
	if _, err := allowed.Check(context.Background(), "http://169.254.169.254/"); err == nil {
		t.Error("an allow list of the LAN let the metadata address through")
	}
}

// TestPublicOnlyDialRefusesBeforeConnecting checks the same refusals at
// connect time, where a redirect or a re-resolved name ends up; the
// loopback server is never reached.
func TestPublicOnlyDialRefusesBeforeConnecting(t *testing.T) {
	srv, hits := server(t)
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	for _, raw := range []string{srv.URL, "http://localhost:" + port + "/", "http://[::ffff:127.0.0.1]:" + port + "/"} {
		if err := get(Policy{PublicOnly: true}, nil, raw); !errors.Is(err, ErrUnsafeURL) {
			t.Errorf("%s: got %v", raw, err)
		}
	}
	dial := Policy{PublicOnly: true}.DialContext(&net.Dialer{Timeout: time.Second})
	for _, addr := range []string{"10.0.0.1:80", "[fd00::1]:80", "[fe80::1]:80", "[::ffff:169.254.169.254]:80", "100.64.1.1:80"} {
		conn, err := dial(context.Background(), "tcp", addr)
		if conn != nil {
			conn.Close()
		}
		if !errors.Is(err, ErrUnsafeURL) {
			t.Errorf("%s: got %v", addr, err)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("a refused dial reached the server %d times", hits.Load())
	}
	if err := get(Policy{PublicOnly: true, Allow: []string{"127.0.0.1:" + port}}, nil, srv.URL); err != nil || hits.Load() != 1 {
		t.Fatalf("the allowed address: %v", err)
	}
}

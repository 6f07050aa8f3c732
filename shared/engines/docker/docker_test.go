package docker

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// container is how the fake daemon answers for one container: its inspect
// State (nil: no such container) and, per action, a status to force.
type container struct {
	state  map[string]any
	answer map[string]int // "json", "start", "stop", "restart" → status
}

// daemon is an httptest server speaking the parts of the Docker Engine API
// the package uses, under any /vX.Y prefix (or none), as Docker does.
type daemon struct {
	*httptest.Server
	apiVersion string // Api-Version header on /_ping; "" sends none
	mu         sync.Mutex
	containers map[string]container
	versions   []string // API version prefix of each container request
	requests   []string // "POST start ocr"
	pings      atomic.Int32
	route      *regexp.Regexp
}

func newDaemon(t *testing.T, apiVersion string) *daemon {
	t.Helper()
	d := &daemon{apiVersion: apiVersion, route: regexp.MustCompile(`^(?:/v([0-9.]+))?/containers/([^/]+)/(json|start|stop|restart)$`), containers: map[string]container{
		"ocr":      {state: state("running", map[string]any{"Status": "healthy"})},
		"tts":      {state: state("exited", nil)},
		"llm":      {state: state("restarting", nil)},
		"img":      {state: state("running", map[string]any{"Status": "unhealthy", "FailingStreak": 3})},
		"warming":  {state: state("running", map[string]any{"Status": "starting"})},
		"frozen":   {state: state("paused", nil)},
		"fresh":    {state: state("created", nil)},
		"gone":     {state: state("dead", nil)},
		"broken":   {state: state("running", nil), answer: map[string]int{"json": 500, "start": 500, "stop": 500, "restart": 500}},
		"stuck":    {state: state("exited", nil), answer: map[string]int{"start": 409, "restart": 409}},
		"teapot.1": {state: state("running", nil)},
	}}
	d.Server = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.Close)
	return d
}

// state builds an inspect State the way Docker fills it for status.
func state(status string, health map[string]any) map[string]any {
	s := map[string]any{
		"Status": status, "Running": status == "running" || status == "paused" || status == "restarting",
		"Paused": status == "paused", "Restarting": status == "restarting", "Dead": status == "dead",
		"Pid": 0, "ExitCode": 0, "Error": "", "StartedAt": "2025-01-01T00:00:00Z", "FinishedAt": "0001-01-01T00:00:00Z",
	}
	if health != nil {
		s["Health"] = health
	}
	return s
}

func (d *daemon) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/_ping" && (r.Method == http.MethodHead || r.Method == http.MethodGet) {
		d.pings.Add(1)
		if d.apiVersion != "" {
			w.Header().Set("Api-Version", d.apiVersion)
		}
		w.Header().Set("Ostype", "linux")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "OK")
		return
	}
	m := d.route.FindStringSubmatch(r.URL.Path)
	if m == nil || (m[3] == "json") != (r.Method == http.MethodGet) || (m[3] != "json" && r.Method != http.MethodPost) {
		apiError(w, http.StatusNotFound, "page not found")
		return
	}
	version, name, op := m[1], m[2], m[3]
	d.mu.Lock()
	d.versions = append(d.versions, version)
	d.requests = append(d.requests, r.Method+" "+op+" "+name)
	c, ok := d.containers[name]
	d.mu.Unlock()
	if !ok {
		apiError(w, http.StatusNotFound, "No such container: "+name)
		return
	}
	if code := c.answer[op]; code != 0 {
		msg := map[int]string{
			409: "Conflict. The container name is already in use by container 1f2e; a removal is in progress",
			500: "driver failed programming external connectivity on endpoint " + name,
		}[code]
		apiError(w, code, msg)
		return
	}
	running, _ := c.state["Running"].(bool)
	switch op {
	case "json":
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"Id": "4f1b" + name, "Name": "/" + name, "State": c.state,
			"Config": map[string]any{"Image": "engine/" + name},
		})
	case "start":
		if running {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case "stop":
		if !running {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	case "restart":
		w.WriteHeader(http.StatusNoContent)
	}
}

func apiError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"message": msg})
}

func (d *daemon) seen() (versions, requests []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.versions...), append([]string(nil), d.requests...)
}

func host(t *testing.T, endpoint string, hc *http.Client) *Host {
	t.Helper()
	h, err := New(endpoint, hc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestStatusMapsDockerStates(t *testing.T) {
	d := newDaemon(t, "1.47")
	h := host(t, d.URL, nil)
	cases := []struct {
		container string
		want      Status
	}{
		{"ocr", Running},
		{"warming", Running},
		{"tts", Stopped},
		{"fresh", Stopped},
		{"gone", Stopped},
		{"frozen", Stopped},
		{"llm", Restarting},
		{"img", Unhealthy},
		{"missing", NotInstalled},
		{"/ocr", Running},
	}
	for _, c := range cases {
		t.Run(c.container, func(t *testing.T) {
			got, err := h.Status(ctx(t), c.container)
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestActionsSucceedIncludingAlreadyDone(t *testing.T) {
	d := newDaemon(t, "1.47")
	h := host(t, d.URL, nil)
	cases := []struct {
		name      string
		act       func(context.Context, string) error
		container string
		request   string
	}{
		{"start stopped", h.Start, "tts", "POST start tts"},
		{"start running (304)", h.Start, "ocr", "POST start ocr"},
		{"stop running", h.Stop, "ocr", "POST stop ocr"},
		{"stop stopped (304)", h.Stop, "tts", "POST stop tts"},
		{"restart running", h.Restart, "ocr", "POST restart ocr"},
		{"restart stopped", h.Restart, "tts", "POST restart tts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := c.act(ctx(t), c.container); err != nil {
				t.Fatal(err)
			}
			if _, reqs := d.seen(); reqs[len(reqs)-1] != c.request {
				t.Fatalf("daemon last saw %q, want %q", reqs[len(reqs)-1], c.request)
			}
		})
	}
}

func TestFailuresCarryTheHostsStatus(t *testing.T) {
	d := newDaemon(t, "1.47")
	h := host(t, d.URL, nil)
	statusOp := func(c context.Context, name string) error { _, err := h.Status(c, name); return err }
	cases := []struct {
		name      string
		act       func(context.Context, string) error
		container string
		op        string
		status    int
		detail    string
	}{
		{"start missing", h.Start, "missing", "starting", 404, "no such container"},
		{"stop missing", h.Stop, "missing", "stopping", 404, "no such container"},
		{"restart missing", h.Restart, "missing", "restarting", 404, "no such container"},
		{"start conflict", h.Start, "stuck", "starting", 409, "the container's state does not allow it"},
		{"restart conflict", h.Restart, "stuck", "restarting", 409, "the container's state does not allow it"},
		{"inspect server error", statusOp, "broken", "inspecting", 500, "Internal Server Error"},
		{"start server error", h.Start, "broken", "starting", 500, "Internal Server Error"},
		{"stop server error", h.Stop, "broken", "stopping", 500, "Internal Server Error"},
		{"restart server error", h.Restart, "broken", "restarting", 500, "Internal Server Error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.act(ctx(t), c.container)
			var he *HostError
			if !errors.As(err, &he) {
				t.Fatalf("got %v, want *HostError", err)
			}
			if he.Status != c.status || he.Op != c.op || he.Container != c.container || he.Endpoint != d.URL {
				t.Fatalf("got %+v", he)
			}
			want := "docker host " + d.URL + " answered " + strconv.Itoa(c.status) + " while " + c.op + ` "` + c.container + `": ` + c.detail
			if !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("message %q\nwant prefix %q", err, want)
			}
			if strings.Contains(err.Error(), "driver failed") || strings.Contains(err.Error(), "No such container") {
				t.Fatalf("the host's answer is in the message: %q", err)
			}
			class := map[int]func(error) bool{404: cerrdefs.IsNotFound, 409: cerrdefs.IsConflict, 500: cerrdefs.IsInternal}[c.status]
			if !class(err) {
				t.Errorf("the errdefs class of %d does not reach through HostError: %v", c.status, err)
			}
		})
	}
}

func TestUnreachableHostHasStatusZero(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String()
	l.Close()
	h := host(t, endpoint, nil)
	acts := map[string]func(context.Context, string) error{
		"inspecting": func(c context.Context, n string) error { _, err := h.Status(c, n); return err },
		"starting":   h.Start,
		"stopping":   h.Stop,
		"restarting": h.Restart,
	}
	for op, act := range acts {
		t.Run(op, func(t *testing.T) {
			err := act(ctx(t), "ocr")
			var he *HostError
			if !errors.As(err, &he) || he.Status != 0 || he.Op != op {
				t.Fatalf("got %v", err)
			}
			want := "docker host " + endpoint + " unreachable while " + op + ` "ocr": `
			if !strings.HasPrefix(err.Error(), want) || !client.IsErrConnectionFailed(err) {
				t.Fatalf("message %q\nwant prefix %q", err, want)
			}
		})
	}
}

func TestSlowHostTimesOutWithStatusZero(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/_ping" {
			w.Header().Set("Api-Version", "1.47")
			return
		}
		<-release
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	c, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	err := host(t, srv.URL, nil).Start(c, "ocr")
	var he *HostError
	if !errors.As(err, &he) || he.Status != 0 || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("got %v", err)
	}
}

func TestA404FromSomethingElseIsNotNotInstalled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "404 page not found", http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	got, err := host(t, srv.URL, nil).Status(ctx(t), "ocr")
	var he *HostError
	if got != "" || !errors.As(err, &he) || he.Status != 404 || he.Op != "inspecting" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestAPIVersionIsNegotiatedOnce(t *testing.T) {
	cases := []struct {
		name, daemonVersion, want string
	}{
		{"older daemon", "1.41", "1.41"},
		{"current daemon", "1.47", "1.47"},
		{"newer daemon", "1.99", client.MaxAPIVersion},
		{"daemon without version header", "", client.MaxAPIVersion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDaemon(t, c.daemonVersion)
			h := host(t, d.URL, nil)
			if _, err := h.Status(ctx(t), "ocr"); err != nil {
				t.Fatal(err)
			}
			if err := h.Start(ctx(t), "tts"); err != nil {
				t.Fatal(err)
			}
			versions, _ := d.seen()
			if len(versions) != 2 || versions[0] != c.want || versions[1] != c.want {
				t.Fatalf("requests used API versions %q, want %s", versions, c.want)
			}
			if d.pings.Load() != 1 {
				t.Fatalf("pinged %d times, want once", d.pings.Load())
			}
		})
	}
}

func TestUsesTheCallersTransport(t *testing.T) {
	d := newDaemon(t, "1.47")
	var dials atomic.Int32
	var dialer net.Dialer
	hc := &http.Client{Transport: &http.Transport{DialContext: func(c context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return dialer.DialContext(c, network, addr)
	}}}
	if got, err := host(t, d.URL, hc).Status(ctx(t), "ocr"); err != nil || got != Running {
		t.Fatalf("got %q, %v", got, err)
	}
	if dials.Load() == 0 {
		t.Fatal("the caller's dialler was replaced; a urlsafe dialler would be bypassed")
	}
	refuse := errors.New("refused by policy")
	hc = &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		return nil, refuse
	}}}
	err := host(t, d.URL, hc).Start(ctx(t), "tts")
	var he *HostError
	if !errors.As(err, &he) || he.Status != 0 || !errors.Is(err, refuse) {
		t.Fatalf("got %v", err)
	}
}

func TestClientWithoutTransportWorks(t *testing.T) {
	d := newDaemon(t, "1.47")
	if got, err := host(t, d.URL, &http.Client{Timeout: 5 * time.Second}).Status(ctx(t), "img"); err != nil || got != Unhealthy {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestUnixSocketEndpoint(t *testing.T) {
	dir, err := os.MkdirTemp("", "dk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "docker.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	d := newDaemon(t, "1.47")
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(d.serve)}}
	srv.Start()
	t.Cleanup(srv.Close)
	for _, hc := range []*http.Client{nil, {Timeout: 5 * time.Second}, {Transport: &http.Transport{}}} {
		h := host(t, "unix://"+sock, hc)
		if got, err := h.Status(ctx(t), "llm"); err != nil || got != Restarting {
			t.Fatalf("got %q, %v", got, err)
		}
		if err := h.Stop(ctx(t), "ocr"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEndpointWithBasePath(t *testing.T) {
	d := newDaemon(t, "1.47")
	proxy := httptest.NewServer(http.StripPrefix("/docker", http.HandlerFunc(d.serve)))
	t.Cleanup(proxy.Close)
	if got, err := host(t, proxy.URL+"/docker/", nil).Status(ctx(t), "ocr"); err != nil || got != Running {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestBadContainerNamesNeverReachTheHost(t *testing.T) {
	d := newDaemon(t, "1.47")
	h := host(t, d.URL, nil)
	for _, name := range []string{"", "/", "../images/alpine", "ocr/../../images", "a b", "-ocr", ".ocr", "ocr?x=1", "ocr#x", "ocr%2F..", strings.Repeat("a", 256)} {
		if _, err := h.Status(ctx(t), name); !errors.Is(err, ErrBadContainerName) {
			t.Errorf("Status(%q): got %v", name, err)
		}
		if err := h.Restart(ctx(t), name); !errors.Is(err, ErrBadContainerName) {
			t.Errorf("Restart(%q): got %v", name, err)
		}
	}
	if _, reqs := d.seen(); len(reqs) != 0 || d.pings.Load() != 0 {
		t.Fatalf("the daemon saw %q", reqs)
	}
}

func TestNewRefusesUnusableEndpoints(t *testing.T) {
	for _, e := range []string{"", "ftp://10.0.0.5:2375", "10.0.0.5:2375", "http://", "http://:2375", "unix://", "http://u:p@10.0.0.5:2375", "http://[::1"} {
		if h, err := New(e, nil); err == nil {
			h.Close()
			t.Errorf("New(%q) accepted it", e)
		}
	}
	for _, e := range []string{"http://10.0.0.5:2375", "https://docker.lan:2376", "tcp://10.0.0.5:2375", "unix:///var/run/docker.sock"} {
		h, err := New(e, nil)
		if err != nil {
			t.Errorf("New(%q): %v", e, err)
			continue
		}
		h.Close()
	}
}

func TestHTTPSEndpointSpeaksTLS(t *testing.T) {
	d := newDaemon(t, "1.47")
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(d.serve))
	t.Cleanup(tlsSrv.Close)
	if got, err := host(t, tlsSrv.URL, tlsSrv.Client()).Status(ctx(t), "tts"); err != nil || got != Stopped {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestConcurrentCallsShareAHost(t *testing.T) {
	d := newDaemon(t, "1.44")
	h := host(t, d.URL, nil)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, err := h.Status(ctx(t), "ocr"); err != nil || got != Running {
				t.Errorf("got %q, %v", got, err)
			}
			var he *HostError
			if err := h.Start(ctx(t), "missing"); !errors.As(err, &he) || he.Status != 404 {
				t.Errorf("got %v", err)
			}
		}()
	}
	wg.Wait()
}

func TestTCPEndpointUsesTLSOnlyWhenConfigured(t *testing.T) {
	d := newDaemon(t, "1.47")
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(d.serve))
	t.Cleanup(tlsSrv.Close)
	if got, err := host(t, "tcp://"+tlsSrv.Listener.Addr().String(), tlsSrv.Client()).Status(ctx(t), "ocr"); err != nil || got != Running {
		t.Fatalf("tcp:// with TLS config: got %q, %v", got, err)
	}
	if got, err := host(t, "tcp://"+d.Listener.Addr().String(), &http.Client{}).Status(ctx(t), "ocr"); err != nil || got != Running {
		t.Fatalf("tcp:// without TLS config: got %q, %v", got, err)
	}
}

// Package docker owns start, stop, restart and status of the user's engine
// containers on a Docker host, through the Docker Engine API
// (github.com/moby/moby/client). It reduces Docker's container state to the
// five statuses an engine card shows and turns every failure into a HostError
// naming the host, the container and what was being done.
//
// The package does not vet the endpoint: on the hosted deployment pass an
// http.Client whose transport dials through urlsafe.Policy.DialContext. That
// client's transport is used as given for tcp endpoints.
package docker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/moby/moby/client"
)

// Status is what an engine card shows about its container.
type Status string

// The statuses Status reports.
const (
	Running      Status = "running"
	Stopped      Status = "stopped"
	Restarting   Status = "restarting"
	Unhealthy    Status = "unhealthy"
	NotInstalled Status = "not-installed"
)

// ErrBadContainerName: the name cannot be a Docker container name or ID. It
// is refused before any request because the client puts it into the URL
// path unescaped, where "../" would reach other API routes.
var ErrBadContainerName = errors.New("not a Docker container name")

// HostError is a failed call to a Docker host. Status is the HTTP status the
// host answered, or 0 when no answer arrived (refused, unresolvable, timed
// out): the card needs to tell "host down" from "host said no".
type HostError struct {
	Endpoint  string
	Container string
	Op        string // "inspecting", "starting", "stopping", "restarting"
	Status    int
	Err       error
}

// Error reads as one sentence for the engine card. An answer is told by
// its status only: the endpoint is whatever the card names, so showing its
// body would let a card read any service the server can reach.
func (e *HostError) Error() string {
	if e.Status == 0 {
		detail := "<no detail>"
		if e.Err != nil {
			detail = e.Err.Error()
		}
		return fmt.Sprintf("docker host %s unreachable while %s %q: %s", e.Endpoint, e.Op, e.Container, detail)
	}
	return fmt.Sprintf("docker host %s answered %d while %s %q: %s", e.Endpoint, e.Status, e.Op, e.Container, statusMeaning(e.Status))
}

// statusMeaning says what a Docker Engine API status means for a container call.
func statusMeaning(status int) string {
	switch status {
	case http.StatusNotFound:
		return "no such container, or the endpoint is not a Docker Engine API"
	case http.StatusConflict:
		return "the container's state does not allow it"
	}
	if t := http.StatusText(status); t != "" {
		return t
	}
	return "an unexpected status"
}

// Unwrap exposes the moby error, so errdefs checks (cerrdefs.IsNotFound),
// client.IsErrConnectionFailed and context errors still work.
func (e *HostError) Unwrap() error { return e.Err }

// Host controls containers on one Docker host. It is safe for concurrent use.
type Host struct {
	endpoint string
	api      *client.Client
}

// New builds a Host for endpoint, which is http://host:port, https://host:port,
// tcp://host:port or unix:///path/to/docker.sock. It does not contact the
// host. httpClient may be nil; otherwise its transport is kept (with its
// dialler and TLS settings) except for unix endpoints, which need a socket
// dialler.
//
// The API version is negotiated with the daemon on the first call rather
// than pinned: Docker 29 refuses versions below 1.44 and Docker 20.10 knows
// nothing above 1.41, and users run both.
func New(endpoint string, httpClient *http.Client) (*Host, error) {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil {
		return nil, fmt.Errorf("docker endpoint %q does not parse: %w", endpoint, err)
	}
	hc := cloneClient(httpClient)
	opts := []client.Opt{client.WithHTTPResponseHook(recordStatus)}
	switch u.Scheme {
	case "http", "https", "tcp":
		if u.Hostname() == "" || u.User != nil {
			return nil, fmt.Errorf("docker endpoint %q needs a host and no user info", endpoint)
		}
		// WithHost reconfigures the transport's dialler and proxy; passing
		// the caller's client after it keeps the caller's dialler.
		opts = append(opts, client.WithHost("tcp://"+u.Host+strings.TrimRight(u.Path, "/")))
		if hc != nil {
			opts = append(opts, client.WithHTTPClient(hc))
		}
		opts = append(opts, client.WithScheme(wireScheme(u.Scheme, httpClient)))
	case "unix":
		if u.Path == "" {
			return nil, fmt.Errorf("docker endpoint %q names no socket", endpoint)
		}
		if hc != nil {
			opts = append(opts, client.WithHTTPClient(hc))
		}
		opts = append(opts, client.WithHost("unix://"+u.Path), client.WithScheme("http"))
	default:
		return nil, fmt.Errorf("docker endpoint %q: scheme must be http, https, tcp or unix", endpoint)
	}
	api, err := client.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("docker endpoint %q: %w", endpoint, err)
	}
	return &Host{endpoint: strings.TrimSpace(endpoint), api: api}, nil
}

// wireScheme picks http or https explicitly. Left to itself the moby client
// guesses https from any TLS config on the transport, and a clone of
// http.DefaultTransport has one once HTTP/2 was set up on it. tcp:// is
// Docker's own notation and means TLS when the caller configured it.
func wireScheme(scheme string, hc *http.Client) string {
	switch scheme {
	case "https":
		return "https"
	case "tcp":
		if hc != nil {
			if t, ok := hc.Transport.(*http.Transport); ok && t.TLSClientConfig != nil {
				return "https"
			}
		}
	}
	return "http"
}

// cloneClient gives the moby client an *http.Transport to configure, which
// it requires for unix sockets, without touching the caller's client.
func cloneClient(hc *http.Client) *http.Client {
	if hc == nil {
		return nil
	}
	c := *hc
	if c.Transport == nil {
		if t, ok := http.DefaultTransport.(*http.Transport); ok {
			c.Transport = t.Clone()
		}
	}
	return &c
}

// Close releases idle connections to the host.
func (h *Host) Close() error { return h.api.Close() }

// Status reports the container's state. A container the host does not know
// is NotInstalled, not an error: the card offers to install it.
func (h *Host) Status(ctx context.Context, container string) (Status, error) {
	if err := checkName(container); err != nil {
		return "", err
	}
	ctx, status := withStatusSlot(ctx)
	res, err := h.api.ContainerInspect(ctx, container, client.ContainerInspectOptions{})
	if err != nil {
		if *status == http.StatusNotFound && isNoSuchContainer(err) {
			return NotInstalled, nil
		}
		return "", h.fail("inspecting", container, *status, err)
	}
	st := res.Container.State
	switch {
	case st == nil:
		return Stopped, nil
	case st.Restarting:
		// Docker also reports Running while it waits to restart a crashed
		// container; the crash loop is the news.
		return Restarting, nil
	case st.Running && st.Paused:
		// A paused container answers nothing, and start refuses it (409).
		return Stopped, nil
	case st.Running && st.Health != nil && st.Health.Status == "unhealthy":
		return Unhealthy, nil
	case st.Running:
		return Running, nil
	}
	return Stopped, nil
}

// Start starts the container. Docker answers 304 when it is already
// running, which counts as success.
func (h *Host) Start(ctx context.Context, container string) error {
	return h.do(ctx, "starting", container, func(ctx context.Context) error {
		_, err := h.api.ContainerStart(ctx, container, client.ContainerStartOptions{})
		return err
	})
}

// Stop stops the container, giving it the stop timeout it was created
// with. Docker answers 304 when it is already stopped, which counts as
// success.
func (h *Host) Stop(ctx context.Context, container string) error {
	return h.do(ctx, "stopping", container, func(ctx context.Context) error {
		_, err := h.api.ContainerStop(ctx, container, client.ContainerStopOptions{})
		return err
	})
}

// Restart stops and starts the container; a stopped container is started.
func (h *Host) Restart(ctx context.Context, container string) error {
	return h.do(ctx, "restarting", container, func(ctx context.Context) error {
		_, err := h.api.ContainerRestart(ctx, container, client.ContainerRestartOptions{})
		return err
	})
}

// do runs one container action with its status recorded for HostError.
func (h *Host) do(ctx context.Context, op, container string, call func(context.Context) error) error {
	if err := checkName(container); err != nil {
		return err
	}
	ctx, status := withStatusSlot(ctx)
	if err := call(ctx); err != nil {
		return h.fail(op, container, *status, err)
	}
	return nil
}

func (h *Host) fail(op, container string, status int, err error) error {
	return &HostError{Endpoint: h.endpoint, Container: container, Op: op, Status: status, Err: err}
}

// statusSlotKey carries, per call, where recordStatus writes the status of
// the API response. The moby client's errors keep only an error class, and
// the card wants the code itself.
type statusSlotKey struct{}

func withStatusSlot(ctx context.Context) (context.Context, *int) {
	var status int
	return context.WithValue(ctx, statusSlotKey{}, &status), &status
}

// recordStatus runs on every response. Version-negotiation pings are
// skipped so that an answered ping followed by a refused call still reads
// as unreachable.
func recordStatus(resp *http.Response) {
	if resp.Request == nil || strings.HasSuffix(resp.Request.URL.Path, "/_ping") {
		return
	}
	if slot, ok := resp.Request.Context().Value(statusSlotKey{}).(*int); ok {
		*slot = resp.StatusCode
	}
}

// isNoSuchContainer tells Docker's "No such container" 404 apart from a 404
// for an unknown route, which means the endpoint is not a Docker API (or
// sits under a different path) and must not read as "not installed".
func isNoSuchContainer(err error) bool {
	return strings.Contains(strings.ToLower(err.Error()), "no such container")
}

// checkName accepts what Docker accepts as a name or ID:
// [a-zA-Z0-9][a-zA-Z0-9_.-]*, optionally after one "/".
func checkName(name string) error {
	n := strings.TrimPrefix(name, "/")
	if n == "" || len(n) > 255 {
		return fmt.Errorf("%w: %q", ErrBadContainerName, name)
	}
	for i, r := range n {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && (i == 0 || (r != '_' && r != '.' && r != '-')) {
			return fmt.Errorf("%w: %q", ErrBadContainerName, name)
		}
	}
	return nil
}

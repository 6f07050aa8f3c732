package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// RequestTimeout is the spec's upstream request limit.
const RequestTimeout = 30 * time.Second

// maxAnswer bounds an API answer read into memory (a page with thousands of
// regions is well under it).
const maxAnswer = 32 << 20

// Client calls the Lectern HTTP API at BaseURL with a bearer token, as the
// web app does, so the same tools serve a local instance or a deployed one.
type Client struct {
	base    *url.URL
	token   string
	http    *http.Client
	timeout time.Duration
}

// NewClient checks base (http or https, no query) and returns a client whose
// calls each end after timeout (RequestTimeout when zero). hc nil is a
// plain http.Client.
func NewClient(base, token string, hc *http.Client, timeout time.Duration) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
		return nil, fmt.Errorf("%w: the API base URL %q must be http(s)://host[:port][/path]", ErrInvalid, base)
	}
	if hc == nil {
		hc = &http.Client{}
	}
	if timeout <= 0 {
		timeout = RequestTimeout
	}
	return &Client{base: u, token: token, http: hc, timeout: timeout}, nil
}

// WithToken is the same API with another token: a hosted server forwards
// each caller's own credential.
func (c *Client) WithToken(token string) *Client {
	cp := *c
	cp.token = token
	return &cp
}

// BaseURL is the API's base URL.
func (c *Client) BaseURL() string { return c.base.String() }

// request is one API call.
type request struct {
	method, path string
	query        url.Values
	body         any    // JSON-encoded when set
	raw          []byte // sent as is with contentType when set
	contentType  string
	ifMatch      int64 // page version, sent as If-Match when above 0
	timeout      time.Duration
}

// do sends r and decodes a 2xx JSON answer into out (nil discards it). A
// non-2xx answer is a *StatusError with the problem document's detail.
func (c *Client) do(ctx context.Context, r request, out any) error {
	timeout := c.timeout
	if r.timeout > 0 {
		timeout = r.timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	u := *c.base
	u.Path = c.base.Path + r.path
	u.RawQuery = r.query.Encode()
	var body io.Reader
	ctype := r.contentType
	switch {
	case r.raw != nil:
		body = bytes.NewReader(r.raw)
	case r.body != nil:
		b, err := json.Marshal(r.body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", r.method, r.path, err)
		}
		body, ctype = bytes.NewReader(b), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.method, r.path, err)
	}
	req.Header.Set("Accept", "application/json")
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if r.ifMatch > 0 {
		req.Header.Set("If-Match", strconv.Quote(strconv.FormatInt(r.ifMatch, 10)))
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.method, r.path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("%s %s: read answer: %w", r.method, r.path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		var problem struct {
			Title  string `json:"title"`
			Detail string `json:"detail"`
			Errors []struct {
				Message  string `json:"message"`
				Location string `json:"location"`
			} `json:"errors"`
		}
		_ = json.Unmarshal(data, &problem) // a body that is no problem document still has its status
		detail := problem.Detail
		if detail == "" {
			detail = problem.Title
		}
		for _, e := range problem.Errors { // what a 422 found wrong, field by field
			detail += "; " + strings.TrimSpace(e.Location+" "+e.Message)
		}
		return &StatusError{Method: r.method, Path: r.path, Status: resp.StatusCode, Detail: detail}
	}
	if out == nil || len(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decode answer: %w", r.method, r.path, err)
	}
	return nil
}

func (c *Client) get(ctx context.Context, path string, query url.Values, out any) error {
	return c.do(ctx, request{method: http.MethodGet, path: path, query: query}, out)
}

// multipartBody is a form of fields (in order) and then one file part of
// the given content type.
func multipartBody(fields [][2]string, fileField, filename, fileType string, data []byte) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := w.WriteField(f[0], f[1]); err != nil {
			return nil, "", err
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, fileField, filename))
	h.Set("Content-Type", fileType)
	part, err := w.CreatePart(h)
	if err != nil {
		return nil, "", err
	}
	if _, err := part.Write(data); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// seg escapes one path segment.
func seg(s string) string { return url.PathEscape(s) }

// absolute resolves a link the API answered (often /blobs/…) against its
// base URL, so a client elsewhere can follow it.
func (c *Client) absolute(link string) string {
	u, err := url.Parse(link)
	if err != nil || u.IsAbs() {
		return link
	}
	return c.base.ResolveReference(u).String()
}

// Package engines owns what the engine cards' Connect step needs before any
// engine-specific client is built: turning the base URL the user typed into
// the one OpenAI-compatible clients expect, and listing the engine's models
// with the resolved key, so that a wrong key surfaces as the engine's 401 and
// never as a 404 on a mistyped path. Engine clients live in the
// subpackages; the URL guard is urlsafe, the container control docker.
package engines

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// KeyPlaceholder stands in for a key wherever one would be shown, in the
// form the spec prescribes for forwarded keys.
const KeyPlaceholder = "<API_KEY>"

// NormalizeLLMURL makes an OpenAI-compatible base URL end in exactly one
// /v1, whatever the user pasted: "http://h:4000" → "http://h:4000/v1",
// "http://h:4000/v1/" and "http://h/v1/v1" → ".../v1", "http://h/api/" →
// "http://h/api/v1". A fragment is dropped. It refuses schemes other than
// http(s), an empty host, user info (keys go in the key field, not where
// logs and error messages would show them) and a query string (the
// client would silently drop it when appending /models).
func NormalizeLLMURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("engine URL %q does not parse", s)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("engine URL %q: scheme must be http or https", s)
	case u.User != nil:
		return "", errors.New("engine URL must not contain user info; put the key in the key field")
	case u.Hostname() == "":
		return "", fmt.Errorf("engine URL %q has no host", s)
	case u.RawQuery != "" || u.ForceQuery:
		return "", fmt.Errorf("engine URL %q: a base URL takes no query string", s)
	}
	p := strings.TrimRight(u.Path, "/")
	for {
		trimmed := strings.TrimRight(p, "/")
		if !strings.EqualFold(pathTail(trimmed), "v1") {
			p = trimmed
			break
		}
		p = trimmed[:len(trimmed)-len("/v1")]
	}
	u.Path = p + "/v1"
	u.RawPath = ""
	u.Fragment, u.RawFragment = "", ""
	return u.String(), nil
}

// pathTail is the last segment of p ("" for "").
func pathTail(p string) string {
	return p[strings.LastIndex(p, "/")+1:]
}

// ConnectError is a failed model listing. Status is the engine's HTTP
// status, or 0 when no answer arrived (refused, unresolvable, timed out).
// Its text names the URL and the status and never the engine's answer: an
// engine may echo the key in any encoding, which no redaction can catch.
type ConnectError struct {
	URL    string // the models endpoint that was called
	Status int
	Err    error  // its text is redacted too; errors.Is/As reach the cause
	detail string // why no answer arrived (Status 0 only); redacted
}

// Error leads with what the user must fix (key, URL, engine) and names the
// URL; it is built from already-redacted parts.
func (e *ConnectError) Error() string {
	switch {
	case e.Status == http.StatusUnauthorized:
		return fmt.Sprintf("engine at %s refused the key (401)", e.URL)
	case e.Status == http.StatusForbidden:
		return fmt.Sprintf("engine at %s refused access with this key (403)", e.URL)
	case e.Status >= 200 && e.Status < 300:
		return fmt.Sprintf("engine at %s answered %d but not with a model list", e.URL, e.Status)
	case e.Status != 0:
		return fmt.Sprintf("engine at %s answered %s", e.URL, StatusText(e.Status))
	case errors.Is(e.Err, context.DeadlineExceeded):
		return fmt.Sprintf("engine at %s did not answer in time: %s", e.URL, e.detail)
	}
	return fmt.Sprintf("cannot reach engine at %s: %s", e.URL, e.detail)
}

// StatusText names an engine's HTTP status for an error text ("502 Bad
// Gateway"), in place of the answer's body, which is never shown.
func StatusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return fmt.Sprintf("%d %s", status, t)
	}
	return strconv.Itoa(status)
}

// Unwrap exposes the cause for errors.Is(err, context.DeadlineExceeded) and
// errors.As(err, **openai.Error).
func (e *ConnectError) Unwrap() error { return e.Err }

// redactedError shows err's text with the key replaced but unwraps to err,
// so callers can still match context.DeadlineExceeded or *openai.Error.
type redactedError struct {
	err error
	msg string
}

func (r *redactedError) Error() string { return r.msg }
func (r *redactedError) Unwrap() error { return r.err }

// ListModels returns the ids the engine at baseURL lists under GET
// {base}/models, sorted and without duplicates, authenticating with key as a
// bearer token (none when key is empty). The base URL is normalised first.
// The call is made once, without retries, and bounded by ctx: Connect is a
// user waiting on a button. httpClient may be nil (http.DefaultClient).
func ListModels(ctx context.Context, httpClient *http.Client, baseURL, key string) ([]string, error) {
	base, err := NormalizeLLMURL(baseURL)
	if err != nil {
		return nil, errors.New(redact(err.Error(), key))
	}
	endpoint := redact(base+"/models", key)
	opts := []option.RequestOption{
		option.WithBaseURL(base + "/"),
		option.WithAPIKey(key),
		option.WithMaxRetries(0),
	}
	if httpClient != nil {
		opts = append(opts, option.WithHTTPClient(httpClient))
	}
	// The bare service, not openai.NewClient: the client would also read
	// OPENAI_ORG_ID, OPENAI_PROJECT_ID and OPENAI_CUSTOM_HEADERS from the
	// server's environment and send them to the user's engine.
	models := openai.NewModelService(opts...)
	var resp *http.Response
	page, err := models.List(ctx, option.WithResponseInto(&resp))
	if err != nil {
		return nil, connectError(endpoint, key, resp, err)
	}
	ids := make([]string, 0, len(page.Data))
	for _, m := range page.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

func connectError(endpoint, key string, resp *http.Response, err error) *ConnectError {
	e := &ConnectError{URL: endpoint, Err: &redactedError{err: err, msg: redact(err.Error(), key)}}
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		e.Status = apiErr.StatusCode
	case resp != nil:
		// An answer that was not a model list (HTML from a proxy, say).
		e.Status = resp.StatusCode
	default:
		e.detail = redact(err.Error(), key)
	}
	return e
}

// redact replaces the key wherever an engine or transport echoes it.
func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, KeyPlaceholder)
}

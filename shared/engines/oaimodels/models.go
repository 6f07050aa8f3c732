// Package oaimodels lists an OpenAI-compatible engine's models with the
// resolved key (the engine cards' Connect step), so that a wrong key surfaces
// as the engine's 401 and never as a 404 on a mistyped path. It is apart
// from engines because openai-go's package initialisers weigh 17 MB in
// every binary that links it.
package oaimodels

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/lectern/lectern/shared/engines"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

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
		return fmt.Sprintf("engine at %s answered %s", e.URL, engines.StatusText(e.Status))
	case errors.Is(e.Err, context.DeadlineExceeded):
		return fmt.Sprintf("engine at %s did not answer in time: %s", e.URL, e.detail)
	}
	return fmt.Sprintf("cannot reach engine at %s: %s", e.URL, e.detail)
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
	base, err := engines.NormalizeLLMURL(baseURL)
	if err != nil {
		return nil, errors.New(engines.Redact(err.Error(), key))
	}
	endpoint := engines.Redact(base+"/models", key)
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
	e := &ConnectError{URL: endpoint, Err: &redactedError{err: err, msg: engines.Redact(err.Error(), key)}}
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr):
		e.Status = apiErr.StatusCode
	case resp != nil:
		// An answer that was not a model list (HTML from a proxy, say).
		e.Status = resp.StatusCode
	default:
		e.detail = engines.Redact(err.Error(), key)
	}
	return e
}

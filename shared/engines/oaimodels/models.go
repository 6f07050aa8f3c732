// Package oaimodels lists an OpenAI-compatible engine's models with the
// resolved key (the engine cards' Connect step), so that a wrong key surfaces
// as the engine's 401 and never as a 404 on a mistyped path. It makes the
// one GET over net/http, not through openai-go: openai-go's package
// initialisers weigh 17 MB in every binary that links it, and the Engines
// Lambda, which calls nothing else of the OpenAI API, must stay under 15 MB
// (issue 15).
package oaimodels

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/lectern/lectern/shared/engines"
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
// the transport's errors.
func (e *ConnectError) Unwrap() error { return e.Err }

// redactedError shows err's text with the key replaced but unwraps to err,
// so callers can still match context.DeadlineExceeded.
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
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/models", nil)
	if err != nil {
		return nil, connectError(endpoint, key, 0, err)
	}
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, connectError(endpoint, key, 0, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return nil, connectError(endpoint, key, resp.StatusCode, fmt.Errorf("GET %s: %s", endpoint, engines.StatusText(resp.StatusCode)))
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxListBytes)).Decode(&list); err != nil || list.Data == nil {
		if err == nil {
			err = errors.New("no data array")
		}
		return nil, connectError(endpoint, key, resp.StatusCode, fmt.Errorf("the answer is not a model list: %w", err))
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// maxListBytes bounds a model list: gateways list thousands of models in a
// few hundred kilobytes.
const maxListBytes = 16 << 20

// connectError files a failed listing. status is the engine's answer, or 0
// when none arrived; only then does the cause's (redacted) text show.
func connectError(endpoint, key string, status int, err error) *ConnectError {
	e := &ConnectError{URL: endpoint, Status: status, Err: &redactedError{err: err, msg: engines.Redact(err.Error(), key)}}
	if status == 0 {
		e.detail = engines.Redact(err.Error(), key)
	}
	return e
}

// Package remotevoices is a voices.Store over HTTP: the library of another
// local instance, the one that owns the SQLite file (LECTERN_VOICES set to
// its base URL). It also defines that store protocol, which every local
// instance serves (voicesapi's library operations): the Store port's calls
// under Path, records as they are stored, and problem types that carry the
// store's sentinel errors back, since ErrExists and ErrStale share 409.
package remotevoices

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/voices"
)

// Path is where an instance serves its library, below its base URL.
const Path = "/api/voice-library"

// The problem types of the store's sentinel errors.
const (
	ProblemNotFound = "urn:lectern:problem:voice-not-found"
	ProblemExists   = "urn:lectern:problem:voice-exists"
	ProblemStale    = "urn:lectern:problem:voice-stale"
	ProblemInvalid  = "urn:lectern:problem:voice-invalid"
)

// problemTypes pairs each sentinel the protocol carries with its type.
var problemTypes = []struct {
	err error
	typ string
}{
	{voices.ErrNotFound, ProblemNotFound},
	{voices.ErrExists, ProblemExists},
	{voices.ErrStale, ProblemStale},
	{voices.ErrInvalid, ProblemInvalid},
}

// ProblemType is the problem type a server answers err with; ok is false
// when err is none of the store's sentinels.
func ProblemType(err error) (typ string, ok bool) {
	for _, p := range problemTypes {
		if errors.Is(err, p.err) {
			return p.typ, true
		}
	}
	return "", false
}

// ImportRequest is the body of POST Path/import.
type ImportRequest struct {
	Voices []voices.Voice `json:"voices" maxItems:"500" doc:"voices to add where their id is absent; each is checked, and one bad voice adds none"`
}

// MaxImport is how many voices one import request carries; Import sends
// longer lists in several.
const MaxImport = 500

// ImportAnswer is what POST Path/import answers.
type ImportAnswer struct {
	Created int `json:"created" doc:"voices that were absent and were added"`
}

var (
	// ErrUnreachable: the instance that owns the library did not answer.
	ErrUnreachable = fault.New(fault.Unavailable, "voice library unreachable")
	// ErrBadAnswer: it answered, but with a failure or something that is
	// not the protocol.
	ErrBadAnswer = fault.New(fault.Upstream, "voice library failed")
)

// DefaultTimeout bounds one request: the owner's SQLite waits up to 10 s
// for another process's write, and a little more is left for the network.
const DefaultTimeout = 15 * time.Second

// maxAnswerBytes bounds what is read of an answer: a page of 100 voices at
// their field limits stays far below it.
const maxAnswerBytes = 8 << 20

// Options are the optional settings of a Store.
type Options struct {
	// Token is sent as Authorization: Bearer when set: the owner's
	// LECTERN_TOKEN, when it requires one.
	Token string
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration
}

// Store is the library of the instance at a base URL.
type Store struct {
	base   *url.URL
	token  string
	client *http.Client
}

var _ voices.Store = (*Store)(nil)

// IsURL reports whether a LECTERN_VOICES value names an instance rather
// than a file: it has a scheme. New refuses schemes other than http(s).
func IsURL(v string) bool { return strings.Contains(v, "://") }

// CheckURL parses an instance's base URL: http or https, a host, and no
// credentials, query or fragment (the token has its own setting, and a URL
// ends up in logs and error texts).
func CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		// Not the parser's text: it quotes the URL, password and all.
		return nil, errors.New("voice library URL does not parse: give the instance's base URL, http://host:port")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("voice library URL %s: the scheme must be http or https", u.Redacted())
	case u.User != nil:
		return nil, fmt.Errorf("voice library URL %s: credentials do not belong in the URL; LECTERN_TOKEN is sent as the bearer token", u.Redacted())
	case u.Host == "":
		return nil, fmt.Errorf("voice library URL %s has no host", u.Redacted())
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("voice library URL %s: give the instance's base URL, without a query or fragment", u.Redacted())
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// New is the library of the instance at baseURL. It does not call it: an
// owner that is down makes each call fail with ErrUnreachable, not the
// start of this one.
func New(baseURL string, opts Options) (*Store, error) {
	base, err := CheckURL(baseURL)
	if err != nil {
		return nil, err
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	transport.ResponseHeaderTimeout = opts.Timeout
	return &Store{base: base, token: opts.Token, client: &http.Client{
		Transport: transport,
		Timeout:   opts.Timeout,
		// A redirect is not the protocol; following one could carry the
		// token to another server.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}, nil
}

// Close drops the idle connections.
func (s *Store) Close() error {
	s.client.CloseIdleConnections()
	return nil
}

// Get returns one voice.
func (s *Store) Get(ctx context.Context, id string) (voices.Voice, error) {
	if err := voices.CheckID(id); err != nil {
		return voices.Voice{}, err
	}
	var v voices.Voice
	err := s.call(ctx, http.MethodGet, voicePath(id), nil, nil, &v)
	return v, err
}

// Create adds v at version 1.
func (s *Store) Create(ctx context.Context, v voices.Voice) (voices.Voice, error) {
	var out voices.Voice
	err := s.call(ctx, http.MethodPost, Path, nil, voices.Normalize(v), &out)
	return out, err
}

// Update replaces the voice at v.Version.
func (s *Store) Update(ctx context.Context, v voices.Voice) (voices.Voice, error) {
	if err := voices.CheckID(v.ID); err != nil {
		return voices.Voice{}, err
	}
	var out voices.Voice
	err := s.call(ctx, http.MethodPut, voicePath(v.ID), nil, voices.Normalize(v), &out)
	return out, err
}

// Delete removes the voice at version (any when 0).
func (s *Store) Delete(ctx context.Context, id string, version int64) error {
	if err := voices.CheckID(id); err != nil {
		return err
	}
	q := url.Values{}
	if version != 0 {
		q.Set("version", strconv.FormatInt(version, 10))
	}
	return s.call(ctx, http.MethodDelete, voicePath(id), q, nil, nil)
}

// Import sends the voices MaxImport at a time; the owner adds each absent
// one once, so a batch sent again (or by another instance) adds nothing.
func (s *Store) Import(ctx context.Context, vs []voices.Voice) (int, error) {
	created := 0
	for start := 0; start < len(vs); start += MaxImport {
		batch := make([]voices.Voice, 0, min(MaxImport, len(vs)-start))
		for _, v := range vs[start:min(start+MaxImport, len(vs))] {
			batch = append(batch, voices.Normalize(v))
		}
		var out ImportAnswer
		if err := s.call(ctx, http.MethodPost, Path+"/import", nil, ImportRequest{Voices: batch}, &out); err != nil {
			return created, err
		}
		created += out.Created
	}
	return created, nil
}

// Search asks the owner for one page.
func (s *Store) Search(ctx context.Context, q voices.Query) (voices.Result, error) {
	params := url.Values{}
	for name, value := range map[string]string{
		"q": q.Text, "language": q.Language, "gender": string(q.Gender), "age": string(q.Age),
		"source": string(q.Source), "engine": q.Engine,
	} {
		if value != "" {
			params.Set(name, value)
		}
	}
	if q.Limit != 0 {
		params.Set("limit", strconv.Itoa(q.Limit))
	}
	params.Set("offset", strconv.Itoa(q.Offset))
	var r voices.Result
	err := s.call(ctx, http.MethodGet, Path, params, nil, &r)
	return r, err
}

// voicePath is the path of one voice; ids are checked first, so escaping
// changes nothing but keeps the path one segment whatever comes.
func voicePath(id string) string { return Path + "/" + url.PathEscape(id) }

// call sends one request (body as JSON, when not nil) and decodes a success
// into out (when not nil); a failure becomes the store's errors.
func (s *Store) call(ctx context.Context, method, path string, query url.Values, body, out any) error {
	var payload io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", method, path, err)
		}
		payload = bytes.NewReader(data)
	}
	target := s.base.JoinPath(path)
	target.RawQuery = query.Encode()
	req, err := http.NewRequestWithContext(ctx, method, target.String(), payload)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.token != "" {
		req.Header.Set("Authorization", "Bearer "+s.token)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return s.unreachable(ctx, method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	switch {
	case err != nil:
		return s.unreachable(ctx, method, path, err)
	case len(data) > maxAnswerBytes:
		return fmt.Errorf("%w: %s answered %s %s with more than %d MiB", ErrBadAnswer, s.base, method, path, maxAnswerBytes>>20)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return s.failure(method, path, resp.StatusCode, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			// The body is not shown: it may be anything the server sent.
			return fmt.Errorf("%w: %s answered %s %s with %d but not the voice library's JSON", ErrBadAnswer, s.base, method, path, resp.StatusCode)
		}
	}
	return nil
}

// unreachable files a request that got no answer. The caller's own
// cancellation stays what it is: nothing is wrong with the owner then.
func (s *Store) unreachable(ctx context.Context, method, path string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s %s%s: %w", method, s.base, path, ctx.Err())
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err // without the URL, which the text names already
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return fmt.Errorf("%w: %s (LECTERN_VOICES) did not answer %s %s within %s", ErrUnreachable, s.base, method, path, s.client.Timeout)
	}
	return fmt.Errorf("%w: %s (LECTERN_VOICES) did not answer %s %s: %v", ErrUnreachable, s.base, method, path, err)
}

// problem is the part of an RFC 9457 document the client reads.
type problem struct {
	Type   string `json:"type"`
	Detail string `json:"detail"`
}

// failure maps an error answer back to the store's errors: a problem type
// names its sentinel, and a 422 without one is the server's own refusal of
// the request's shape (huma's schema check), so also ErrInvalid. Anything
// else is the owner failing, told by status and the problem's detail.
func (s *Store) failure(method, path string, status int, data []byte) error {
	var p problem
	if json.Unmarshal(data, &p) != nil {
		p = problem{}
	}
	detail := clip(p.Detail)
	for _, known := range problemTypes {
		if p.Type == known.typ {
			return &storeError{sentinel: known.err, detail: detail}
		}
	}
	if status == http.StatusUnprocessableEntity {
		return &storeError{sentinel: voices.ErrInvalid, detail: "invalid voice: " + detail}
	}
	hint := ""
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		hint = " (an owner that requires LECTERN_TOKEN needs this instance to have the same one)"
	case http.StatusNotFound:
		hint = " (does it run a lectern that serves " + Path + "?)"
	}
	if detail == "" {
		detail = http.StatusText(status)
	}
	return fmt.Errorf("%w: %s answered %s %s with %d: %s%s", ErrBadAnswer, s.base, method, path, status, detail, hint)
}

// storeError is a sentinel the owner answered, with the owner's words.
type storeError struct {
	sentinel error
	detail   string
}

func (e *storeError) Error() string {
	if e.detail == "" {
		return e.sentinel.Error()
	}
	return e.detail
}

func (e *storeError) Unwrap() error { return e.sentinel }

// clip bounds a detail the owner sent before it becomes this server's text.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "�")
	if utf8.RuneCountInString(s) <= 300 {
		return s
	}
	return string([]rune(s)[:300]) + "…"
}

package oaimodels

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const goodKey = "sk-good-0a1b2c3d"

// engine serves GET /v1/models behind bearer auth and echoes a wrong key in
// its 401, as OpenAI does, so the tests see whether it leaks.
func engine(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.Method != http.MethodGet || r.URL.Path != "/v1/models" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":{"message":"no route `+r.URL.Path+`"}}`)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+goodKey {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+strings.TrimPrefix(got, "Bearer ")+`","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[
			{"id":"qwen2.5-vl-7b","object":"model","created":1,"owned_by":"vllm"},
			{"id":"gpt-4o-mini","object":"model","created":1,"owned_by":"openai"},
			{"id":"","object":"model","created":1,"owned_by":"x"},
			{"id":"claude-haiku","object":"model","created":1,"owned_by":"litellm"},
			{"id":"gpt-4o-mini","object":"model","created":1,"owned_by":"azure"}]}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func deadline(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestListModelsWithTheRightKey(t *testing.T) {
	srv, _ := engine(t)
	want := []string{"claude-haiku", "gpt-4o-mini", "qwen2.5-vl-7b"}
	for _, base := range []string{srv.URL, srv.URL + "/", srv.URL + "/v1", srv.URL + "/v1/", srv.URL + "/v1/v1"} {
		got, err := ListModels(deadline(t, 5*time.Second), nil, base, goodKey)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("base %s: got %q, %v", base, got, err)
		}
	}
}

func TestListModelsWithTheWrongKeySurfacesThe401(t *testing.T) {
	srv, calls := engine(t)
	const wrong = "sk-wrong-77ee99"
	_, err := ListModels(deadline(t, 5*time.Second), srv.Client(), srv.URL, wrong)
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Status != http.StatusUnauthorized {
		t.Fatalf("got %v, want a ConnectError with status 401", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "refused the key (401)") || !strings.Contains(msg, srv.URL+"/v1/models") {
		t.Errorf("message does not say the engine refused the key at its URL: %s", msg)
	}
	if strings.Contains(msg, wrong) || strings.Contains(errors.Unwrap(err).Error(), wrong) {
		t.Errorf("the key the engine echoed was shown: %s / %s", msg, errors.Unwrap(err))
	}
	if calls.Load() != 1 {
		t.Errorf("a refused key was retried: %d calls", calls.Load())
	}
}

func TestListModelsOnTheWrongPathIsA404NotA401(t *testing.T) {
	srv, _ := engine(t)
	_, err := ListModels(deadline(t, 5*time.Second), nil, srv.URL+"/api", goodKey)
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Status != http.StatusNotFound || !strings.Contains(err.Error(), srv.URL+"/api/v1/models answered 404") {
		t.Fatalf("got %v", err)
	}
}

func TestListModelsTimesOutNamingTheURL(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	start := time.Now()
	_, err := ListModels(deadline(t, 200*time.Millisecond), nil, srv.URL, goodKey)
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Status != 0 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "engine at "+srv.URL+"/v1/models did not answer in time") {
		t.Errorf("message: %s", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("took %v; the deadline was not applied", time.Since(start))
	}
}

func TestListModelsRefusedConnectionNamesTheURL(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + l.Addr().String()
	l.Close()
	_, err = ListModels(deadline(t, 5*time.Second), nil, base, goodKey)
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Status != 0 || ce.URL != base+"/v1/models" {
		t.Fatalf("got %v", err)
	}
	if !strings.Contains(err.Error(), "cannot reach engine at "+base+"/v1/models") || strings.Contains(err.Error(), goodKey) {
		t.Errorf("message: %s", err)
	}
}

func TestListModelsAnswerThatIsNotAModelList(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `<html>login</html>`)
	}))
	t.Cleanup(srv.Close)
	_, err := ListModels(deadline(t, 5*time.Second), nil, srv.URL, goodKey)
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Status != 200 || !strings.Contains(err.Error(), "not with a model list") {
		t.Fatalf("got %v", err)
	}
}

func TestListModelsServerErrorIsNotRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, `{"error":{"message":"upstream `+goodKey+` down"}}`)
	}))
	t.Cleanup(srv.Close)
	_, err := ListModels(deadline(t, 5*time.Second), nil, srv.URL, goodKey)
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Status != 502 || calls.Load() != 1 {
		t.Fatalf("got %v after %d calls", err, calls.Load())
	}
	if want := "engine at " + srv.URL + "/v1/models answered 502 Bad Gateway"; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// Redaction finds only the key as sent; an engine can echo it in any
// encoding, so no part of an answer's body reaches the error text.
func TestListModelsNeverShowsTheAnswer(t *testing.T) {
	encoded := base64.StdEncoding.EncodeToString([]byte(goodKey))
	for _, status := range []int{401, 403, 404, 502} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			io.WriteString(w, `{"error":{"message":"bad credentials `+encoded+` (echoed)"}}`)
		}))
		_, err := ListModels(deadline(t, 5*time.Second), nil, srv.URL, goodKey)
		srv.Close()
		if err == nil || strings.Contains(err.Error(), encoded) || strings.Contains(err.Error(), "echoed") {
			t.Errorf("status %d: the answer's body is in the error: %v", status, err)
		}
		if err != nil && !strings.Contains(err.Error(), strconv.Itoa(status)) {
			t.Errorf("status %d is not named: %v", status, err)
		}
	}
}

func TestListModelsSendsNothingFromTheServersEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-server-env")
	t.Setenv("OPENAI_ORG_ID", "org-server")
	t.Setenv("OPENAI_PROJECT_ID", "proj-server")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Internal: secret")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"llama3","object":"model","created":1,"owned_by":"ollama"}]}`)
	}))
	t.Cleanup(srv.Close)
	ids, err := ListModels(deadline(t, 5*time.Second), nil, srv.URL, "")
	if err != nil || !slices.Equal(ids, []string{"llama3"}) {
		t.Fatalf("got %q, %v", ids, err)
	}
	for _, h := range []string{"Authorization", "OpenAI-Organization", "OpenAI-Project", "X-Internal"} {
		if v := got.Get(h); v != "" {
			t.Errorf("sent %s: %s", h, v)
		}
	}
}

func TestListModelsRefusesABadBaseURL(t *testing.T) {
	_, err := ListModels(context.Background(), nil, "ftp://h/"+goodKey, goodKey)
	if err == nil || strings.Contains(err.Error(), goodKey) {
		t.Fatalf("got %v", err)
	}
}

func TestConnectErrorTexts(t *testing.T) {
	cases := []struct {
		e    *ConnectError
		want string
	}{
		{&ConnectError{URL: "http://h/v1/models", Status: 401}, "engine at http://h/v1/models refused the key (401)"},
		{&ConnectError{URL: "http://h/v1/models", Status: 403}, "engine at http://h/v1/models refused access with this key (403)"},
		{&ConnectError{URL: "http://h/v1/models", Status: 500}, "engine at http://h/v1/models answered 500 Internal Server Error"},
		{&ConnectError{URL: "http://h/v1/models", Status: 599}, "engine at http://h/v1/models answered 599"},
		{&ConnectError{URL: "http://h/v1/models", Err: context.DeadlineExceeded, detail: "x"}, "engine at http://h/v1/models did not answer in time: x"},
		{&ConnectError{URL: "http://h/v1/models", Err: errors.New("dial"), detail: "dial"}, "cannot reach engine at http://h/v1/models: dial"},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

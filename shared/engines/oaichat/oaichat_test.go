package oaichat

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const testKey = "sk-test-9f8e7d"

// engine is an httptest server speaking the chat-completions protocol; reply
// decides each attempt's answer from its number (1-based) and the request.
func engine(t *testing.T, reply func(n int, w http.ResponseWriter, req map[string]any)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1))
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+`","type":"invalid_request_error"}}`)
			return
		}
		var req map[string]any
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		reply(n, w, req)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func answer(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	b, _ := json.Marshal(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "m",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
	})
	w.Write(b)
}

func client(url string, timeout time.Duration, retries int) *Client {
	return New(Config{BaseURL: url + "/v1", APIKey: testKey, Model: "vision-test", Timeout: timeout, MaxRetries: retries})
}

func TestVisionSendsTheImageAndReturnsTheAnswer(t *testing.T) {
	var sent map[string]any
	srv, calls := engine(t, func(_ int, w http.ResponseWriter, req map[string]any) {
		sent = req
		answer(w, `{"regions":[]}`)
	})
	got, err := client(srv.URL, time.Second, 0).Vision(context.Background(), "read this page", []byte{0x89, 'P', 'N', 'G'}, "image/png")
	if err != nil || got != `{"regions":[]}` || calls.Load() != 1 {
		t.Fatalf("got %q, %v after %d calls", got, err, calls.Load())
	}
	body, _ := json.Marshal(sent)
	for _, want := range []string{`"model":"vision-test"`, `data:image/png;base64,iVBORw==`, `read this page`, `"type":"image_url"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("request lacks %s: %s", want, body)
		}
	}
}

func TestChatJSONAsksForAJSONObject(t *testing.T) {
	srv, _ := engine(t, func(_ int, w http.ResponseWriter, req map[string]any) {
		rf, _ := req["response_format"].(map[string]any)
		if rf["type"] != "json_object" {
			http.Error(w, "want json_object", http.StatusBadRequest)
			return
		}
		answer(w, `{"speaker":"Alice"}`)
	})
	got, err := client(srv.URL, time.Second, 0).ChatJSON(context.Background(), "system", "who speaks?")
	if err != nil || got != `{"speaker":"Alice"}` {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestRetriesServerErrorsThenSucceeds(t *testing.T) {
	srv, calls := engine(t, func(n int, w http.ResponseWriter, _ map[string]any) {
		if n == 1 {
			w.Header().Set("Retry-After-Ms", "10")
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusInternalServerError)
			return
		}
		answer(w, "ok")
	})
	if got, err := client(srv.URL, time.Second, 2).Vision(context.Background(), "p", []byte("x"), "image/png"); err != nil || got != "ok" || calls.Load() != 2 {
		t.Fatalf("got %q, %v after %d calls", got, err, calls.Load())
	}
}

func TestHonoursRetryAfterOn429(t *testing.T) {
	srv, calls := engine(t, func(n int, w http.ResponseWriter, _ map[string]any) {
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"slow down"}}`)
			return
		}
		answer(w, "ok")
	})
	start := time.Now()
	got, err := client(srv.URL, 5*time.Second, 2).Vision(context.Background(), "p", []byte("x"), "image/png")
	if err != nil || got != "ok" || calls.Load() != 2 {
		t.Fatalf("got %q, %v after %d calls", got, err, calls.Load())
	}
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Fatalf("retried after %v, before the engine's Retry-After of 1 s", waited)
	}
}

func TestGivesUpAfterRetriesWithTheStatus(t *testing.T) {
	srv, calls := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) {
		w.Header().Set("Retry-After-Ms", "1")
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, `{"error":{"message":"upstream down"}}`)
	})
	_, err := client(srv.URL, time.Second, 2).Vision(context.Background(), "p", []byte("x"), "image/png")
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Status != 502 || calls.Load() != 3 || !strings.Contains(err.Error(), "answered 502: Bad Gateway") || strings.Contains(err.Error(), "upstream down") {
		t.Fatalf("got %v after %d calls", err, calls.Load())
	}
}

func TestEmptyContentIsAFailedCall(t *testing.T) {
	srv, _ := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) { answer(w, "  \n") })
	if _, err := client(srv.URL, time.Second, 0).Vision(context.Background(), "p", []byte("x"), "image/png"); !errors.Is(err, ErrEmptyAnswer) {
		t.Fatalf("got %v", err)
	}
}

func TestSlowEngineTimesOutNamingTheURL(t *testing.T) {
	release := make(chan struct{})
	srv, _ := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) {
		<-release
		answer(w, "late")
	})
	defer close(release)
	start := time.Now()
	_, err := client(srv.URL, 200*time.Millisecond, -1).Vision(context.Background(), "p", []byte("x"), "image/png")
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Status != 0 || !strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("got %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("timeout not applied")
	}
}

func TestContextCancellationStopsTheCall(t *testing.T) {
	release := make(chan struct{})
	srv, _ := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) { <-release })
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := client(srv.URL, 10*time.Second, 2).Vision(ctx, "p", []byte("x"), "image/png"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
}

func TestWrongKeySurfacesThe401WithoutTheKey(t *testing.T) {
	srv, calls := engine(t, nil)
	c := New(Config{BaseURL: srv.URL + "/v1", APIKey: "sk-wrong-55aa", Model: "m", Timeout: time.Second})
	_, err := c.Vision(context.Background(), "p", []byte("x"), "image/png")
	var ee *EngineError
	if !errors.Is(err, ErrUnauthorized) || !errors.As(err, &ee) || ee.Status != 401 {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), "sk-wrong-55aa") || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("the error must name the status, not the engine's answer with the key: %v", err)
	}
	if calls.Load() != 1 {
		t.Fatalf("a 401 must not be retried, got %d calls", calls.Load())
	}
}

var speakersSchema = map[string]any{
	"type":                 "object",
	"additionalProperties": false,
	"required":             []any{"speakers"},
	"properties": map[string]any{
		"speakers": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	},
}

func TestChatSchemaSendsTheSchema(t *testing.T) {
	var sent map[string]any
	srv, calls := engine(t, func(_ int, w http.ResponseWriter, req map[string]any) {
		sent = req
		answer(w, `{"speakers":["Alice"]}`)
	})
	got, err := client(srv.URL, time.Second, 0).ChatSchema(context.Background(), "system", "who speaks?", "speakers", speakersSchema)
	if err != nil || got != `{"speakers":["Alice"]}` || calls.Load() != 1 {
		t.Fatalf("got %q, %v after %d calls", got, err, calls.Load())
	}
	rf, _ := sent["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["name"] != "speakers" || js["strict"] != true {
		t.Fatalf("response_format = %v", rf)
	}
	if schema, _ := js["schema"].(map[string]any); schema["additionalProperties"] != false || schema["type"] != "object" {
		t.Fatalf("schema = %v", js["schema"])
	}
}

func TestChatSchemaFallsBackToJSONObjectOn400(t *testing.T) {
	var formats []string
	var system string
	srv, calls := engine(t, func(_ int, w http.ResponseWriter, req map[string]any) {
		rf, _ := req["response_format"].(map[string]any)
		formats = append(formats, rf["type"].(string))
		if rf["type"] == "json_schema" {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"response_format json_schema is not supported"}}`)
			return
		}
		msgs, _ := req["messages"].([]any)
		first, _ := msgs[0].(map[string]any)
		system, _ = first["content"].(string)
		answer(w, `{"speakers":["Alice"]}`)
	})
	got, err := client(srv.URL, time.Second, 0).ChatSchema(context.Background(), "Name the speakers.", "who speaks?", "speakers", speakersSchema)
	if err != nil || got != `{"speakers":["Alice"]}` || calls.Load() != 2 {
		t.Fatalf("got %q, %v after %d calls", got, err, calls.Load())
	}
	if strings.Join(formats, ",") != "json_schema,json_object" {
		t.Fatalf("formats asked = %v", formats)
	}
	if !strings.HasPrefix(system, "Name the speakers.") || !strings.Contains(system, `"additionalProperties":false`) {
		t.Fatalf("the fallback must carry the schema in the system prompt: %q", system)
	}
}

func TestChatSchemaDoesNotFallBackOnOtherErrors(t *testing.T) {
	srv, calls := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) {
		w.WriteHeader(http.StatusUnprocessableEntity)
		io.WriteString(w, `{"error":{"message":"bad"}}`)
	})
	_, err := client(srv.URL, time.Second, 0).ChatSchema(context.Background(), "s", "u", "speakers", speakersSchema)
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Status != http.StatusUnprocessableEntity || calls.Load() != 1 {
		t.Fatalf("got %v after %d calls", err, calls.Load())
	}
}

package oaispeech

import (
	"bytes"
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

	"github.com/lectern/lectern/shared/engines/speech"
)

const testKey = "sk-test-5a6b7c"

// engine is an httptest server speaking POST /v1/audio/speech; reply decides
// each attempt's answer from its number (1-based) and the decoded JSON body.
// A wrong bearer key gets a 401 that echoes the key, as some engines do.
func engine(t *testing.T, reply func(n int, w http.ResponseWriter, req map[string]any)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1))
		if r.URL.Path != "/v1/audio/speech" || r.Method != http.MethodPost {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			w.Header().Set("Content-Type", "application/json")
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

func audio(w http.ResponseWriter, contentType string, data []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Write(data)
}

func client(url string, timeout time.Duration, retries int) *OpenAI {
	return NewOpenAI(Config{BaseURL: url + "/v1", APIKey: testKey, Model: "kokoro", Timeout: timeout, MaxRetries: retries})
}

func TestOpenAISendsTheRequestAndReturnsTheAudio(t *testing.T) {
	mp3 := []byte("ID3\x04\x00fake mp3 frames")
	var sent map[string]any
	srv, calls := engine(t, func(_ int, w http.ResponseWriter, req map[string]any) {
		sent = req
		audio(w, "audio/mpeg", mp3)
	})
	got, err := client(srv.URL, time.Second, 0).Speak(context.Background(),
		speech.Request{Text: `-v "quoted" text`, Voice: "af_heart", Format: speech.FormatMP3, Speed: 1.5})
	if err != nil || calls.Load() != 1 {
		t.Fatalf("got %v after %d calls", err, calls.Load())
	}
	if !bytes.Equal(got.Data, mp3) || got.ContentType != "audio/mpeg" {
		t.Fatalf("got %q as %q", got.Data, got.ContentType)
	}
	want := map[string]any{"model": "kokoro", "input": `-v "quoted" text`, "voice": "af_heart", "response_format": "mp3", "speed": 1.5}
	for k, v := range want {
		if sent[k] != v {
			t.Errorf("request %s = %#v, want %#v (body %v)", k, sent[k], v, sent)
		}
	}
}

func TestOpenAIAppliesDefaults(t *testing.T) {
	for _, tc := range []struct {
		name        string
		contentType string // what the engine answers with
		want        string
	}{
		{"engine names the type", "audio/wav; charset=binary", "audio/wav"},
		{"generic type falls back to the format", "application/octet-stream", "audio/wav"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent map[string]any
			srv, _ := engine(t, func(_ int, w http.ResponseWriter, req map[string]any) {
				sent = req
				audio(w, tc.contentType, []byte("RIFF...."))
			})
			c := NewOpenAI(Config{BaseURL: srv.URL + "/v1/", APIKey: testKey})
			got, err := c.Speak(context.Background(), speech.Request{Text: "hi"})
			if err != nil || got.ContentType != tc.want {
				t.Fatalf("got %q, %v", got.ContentType, err)
			}
			if sent["model"] != DefaultModel || sent["voice"] != DefaultVoice || sent["response_format"] != "wav" {
				t.Fatalf("defaults not sent: %v", sent)
			}
			if _, ok := sent["speed"]; ok {
				t.Fatalf("speed 0 must be left to the engine: %v", sent)
			}
		})
	}
}

func TestOpenAIEmptyAudioIsAFailedCall(t *testing.T) {
	srv, _ := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) { audio(w, "audio/wav", nil) })
	if _, err := client(srv.URL, time.Second, 0).Speak(context.Background(), speech.Request{Text: "hi"}); !errors.Is(err, speech.ErrEmptyAnswer) {
		t.Fatalf("got %v", err)
	}
}

func TestOpenAIWrongKeySurfacesThe401WithoutTheKey(t *testing.T) {
	srv, calls := engine(t, nil)
	c := NewOpenAI(Config{BaseURL: srv.URL + "/v1", APIKey: "sk-wrong-1234", Timeout: time.Second})
	_, err := c.Speak(context.Background(), speech.Request{Text: "hi"})
	var ee *speech.EngineError
	if !errors.Is(err, speech.ErrUnauthorized) || !errors.As(err, &ee) || ee.Status != 401 {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), "sk-wrong-1234") || !strings.Contains(err.Error(), "Unauthorized") {
		t.Fatalf("the error must name the status, not the engine's answer with the key: %v", err)
	}
	if calls.Load() != 1 {
		t.Fatalf("a 401 must not be retried, got %d calls", calls.Load())
	}
}

func TestOpenAIHonoursRetryAfterOn429(t *testing.T) {
	srv, calls := engine(t, func(n int, w http.ResponseWriter, _ map[string]any) {
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":{"message":"slow down"}}`)
			return
		}
		audio(w, "audio/wav", []byte("RIFF"))
	})
	start := time.Now()
	got, err := client(srv.URL, 5*time.Second, 2).Speak(context.Background(), speech.Request{Text: "hi"})
	if err != nil || string(got.Data) != "RIFF" || calls.Load() != 2 {
		t.Fatalf("got %q, %v after %d calls", got.Data, err, calls.Load())
	}
	if waited := time.Since(start); waited < 900*time.Millisecond {
		t.Fatalf("retried after %v, before the engine's Retry-After of 1 s", waited)
	}
}

func TestOpenAIGivesUpAfterRetriesNamingURLAndStatus(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"OpenAI error body", `{"error":{"message":"model crashed"}}`, "answered 500: Internal Server Error"},
		// A proxy's page is not OpenAI's JSON; the status must survive.
		{"proxy page", `<html>Internal Server Error</html>`, "answered 500"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) {
				w.Header().Set("Retry-After-Ms", "1")
				w.WriteHeader(http.StatusInternalServerError)
				io.WriteString(w, tc.body)
			})
			_, err := client(srv.URL, time.Second, 2).Speak(context.Background(), speech.Request{Text: "hi"})
			var ee *speech.EngineError
			if !errors.As(err, &ee) || ee.Status != 500 || calls.Load() != 3 {
				t.Fatalf("got %v after %d calls", err, calls.Load())
			}
			if !strings.Contains(err.Error(), srv.URL+"/v1/audio/speech") || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error must name the URL and say %q: %v", tc.want, err)
			}
		})
	}
}

func TestOpenAISlowEngineTimesOutNamingTheURL(t *testing.T) {
	release := make(chan struct{})
	srv, _ := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) {
		<-release
		audio(w, "audio/wav", []byte("late"))
	})
	defer close(release)
	start := time.Now()
	_, err := client(srv.URL, 200*time.Millisecond, -1).Speak(context.Background(), speech.Request{Text: "hi"})
	var ee *speech.EngineError
	if !errors.As(err, &ee) || ee.Status != 0 || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("got %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("timeout not applied")
	}
}

func TestOpenAITimeoutCoversASlowBody(t *testing.T) {
	release := make(chan struct{})
	srv, _ := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) {
		w.Header().Set("Content-Type", "audio/wav")
		w.Write([]byte("RIFF"))
		w.(http.Flusher).Flush()
		<-release
	})
	defer close(release)
	start := time.Now()
	if _, err := client(srv.URL, 200*time.Millisecond, -1).Speak(context.Background(), speech.Request{Text: "hi"}); err == nil {
		t.Fatal("a body that never ends was accepted")
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("timeout not applied to the body")
	}
}

func TestOpenAIContextCancellationStopsTheCall(t *testing.T) {
	release := make(chan struct{})
	srv, _ := engine(t, func(_ int, w http.ResponseWriter, _ map[string]any) { <-release })
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := client(srv.URL, 10*time.Second, 2).Speak(ctx, speech.Request{Text: "hi"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
}

func TestRefusesInvalidRequestsWithoutCalling(t *testing.T) {
	srv, calls := engine(t, nil)
	if _, err := client(srv.URL, time.Second, 0).Speak(context.Background(), speech.Request{Text: "x", Speed: 9}); !errors.Is(err, speech.ErrInvalid) {
		t.Fatalf("got %v", err)
	}
	if calls.Load() != 0 {
		t.Fatalf("the engine was called %d times", calls.Load())
	}
}

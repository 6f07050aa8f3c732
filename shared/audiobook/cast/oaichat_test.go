package cast

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/engines/oaichat"
)

// TestAttributeLLMThroughTheEngineClient runs the first pass through the
// real engine client against a chat-completions server on 127.0.0.1 that
// checks the structured-output request and names Mr. Bob for every marked
// span.
func TestAttributeLLMThroughTheEngineClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
			ResponseFormat struct {
				Type       string `json:"type"`
				JSONSchema struct {
					Name string `json:"name"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		if req.ResponseFormat.Type != "json_schema" || req.ResponseFormat.JSONSchema.Name != "speakers" {
			http.Error(w, "want the speakers schema", http.StatusBadRequest)
			return
		}
		content := answerAll(func(string) string { return "Mr. Bob" })(markedIDs(req.Messages[1].Content))
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "c1", "object": "chat.completion", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
		})
	}))
	defer srv.Close()
	llm := oaichat.New(oaichat.Config{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 5 * time.Second, MaxRetries: -1})
	text := longBook(12)
	sp := split(text)
	att, st, err := AttributeLLM(context.Background(), llm, text, sp, testCast, AttributeRules(text, sp, testCast), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Requests != 1 || st.AskedSpans != 10 {
		t.Fatalf("stats %+v", st)
	}
	for i, a := range att {
		want := "Mr. Bob"
		if i%10 == 0 {
			want = "Alice"
		}
		if a.Speaker != want {
			t.Fatalf("line %d: %+v, want %s", i, a, want)
		}
	}
}

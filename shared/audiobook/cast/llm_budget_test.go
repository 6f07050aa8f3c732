package cast

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/audiobook/book"
	"github.com/lectern/lectern/shared/audiobook/spans"
	"github.com/lectern/lectern/shared/engines/oaichat"
)

// promptMeter is a chat-completions server on 127.0.0.1 that measures
// what it is sent: requests, marked spans and the bytes of the messages
// (the schema, sent as response_format, apart). It names nobody.
type promptMeter struct {
	mu                    sync.Mutex
	requests, spans, size int
}

func (m *promptMeter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 2 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	ids := markedIDs(req.Messages[1].Content)
	m.mu.Lock()
	m.requests++
	m.spans += len(ids)
	m.size += len(req.Messages[0].Content) + len(req.Messages[1].Content)
	m.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "c1", "object": "chat.completion", "created": 1, "model": "m",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": answerAll(func(string) string { return "Unknown" })(ids)}}},
	})
}

// TestLLMPassBudgetOnPDNCDev casts pdnc-dev novels (one with a
// first-person narrator) by rules and sends the LLM pass through the real
// engine client to a server that measures the prompts: at most one
// request per 40 dialogue spans, at most MaxTokensPerSpan prompt tokens
// (a quarter of the bytes sent) per asked span.
func TestLLMPassBudgetOnPDNCDev(t *testing.T) {
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "data")
	}
	for _, novel := range []string{"TheSunAlsoRises", "Persuasion"} {
		t.Run(novel, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, "books", "pdnc-dev", novel, "novel_text.txt"))
			if err != nil {
				t.Fatalf("the pdnc-dev novel: %v (set LECTERN_SAMPLE_DATA)", err)
			}
			b, err := book.ParseText(raw, "novel_text.txt")
			if err != nil {
				t.Fatal(err)
			}
			sp := spans.SplitBook(b)
			chars := Extract(b.Text, sp)
			fixed := AttributeRules(b.Text, sp, chars)
			meter := &promptMeter{}
			srv := httptest.NewServer(meter)
			defer srv.Close()
			llm := oaichat.New(oaichat.Config{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 10 * time.Second, MaxRetries: -1})
			_, st, err := AttributeLLM(context.Background(), llm, b.Text, sp, chars, fixed, Options{})
			if err != nil {
				t.Fatal(err)
			}
			lines, asked := 0, 0
			for _, a := range fixed {
				lines++
				if Asks(a) {
					asked++
				}
			}
			sent := float64(meter.size) / 4 / float64(max(1, meter.spans))
			t.Logf("%s: %d dialogue spans, %d asked (blank or below %.2f) in %d requests; %.1f prompt tokens per asked span as sent (%.1f estimated)",
				novel, lines, asked, LowConfidence, meter.requests, sent, float64(st.PromptTokens)/float64(max(1, st.AskedSpans)))
			if meter.spans != asked || st.AskedSpans != asked {
				t.Errorf("the server saw %d spans, the pass counted %d, want the %d Asks picks", meter.spans, st.AskedSpans, asked)
			}
			if meter.requests*MaxWindow > lines+MaxWindow-1 {
				t.Errorf("%d requests for %d dialogue spans: more than one per %d", meter.requests, lines, MaxWindow)
			}
			if sent > MaxTokensPerSpan {
				t.Errorf("%.1f prompt tokens per asked span, over %d", sent, MaxTokensPerSpan)
			}
		})
	}
}

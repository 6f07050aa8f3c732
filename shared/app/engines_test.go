package app

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEngineCardsOverHTTP drives the engine card operations over HTTP
// against an engine speaking /v1/models with bearer auth, and checks that no
// response ever carries a key.
func TestEngineCardsOverHTTP(t *testing.T) {
	const cardKey, globalKey = "sk-card-e2e-0123456789", "sk-global-e2e-9876543210"
	engine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+cardKey {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":{"message":"Incorrect API key provided: ` + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ") + `"}}`))
			return
		}
		w.Write([]byte(`{"object":"list","data":[{"id":"qwen3-32b"},{"id":"llama-3.3-70b"}]}`))
	}))
	defer engine.Close()
	c := newLocalApp(t)

	status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"llm_api_key":"`+globalKey+`"}`))
	if status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, b)
	}
	status, _, b = c.do(http.MethodPut, "/api/engines/gateway", []byte(`{"kind":"llm","base_url":"`+engine.URL+`/v1/","model":"qwen3-32b"}`))
	if status != http.StatusOK || !strings.Contains(string(b), `"url_source":"card"`) {
		t.Fatalf("put card: %d %s", status, b)
	}
	before := engineState(t, c)
	status, _, b = c.do(http.MethodPut, "/api/engines/bad", []byte(`{"kind":"llm","base_url":"gopher://x"}`))
	if status != http.StatusUnprocessableEntity {
		t.Errorf("a bad card URL = %d %s", status, b)
	}
	assertEnginesUnchanged(t, c, before, "a refused card")

	// The global key is wrong for this engine: its 401 is told as such.
	status, _, b = c.do(http.MethodPost, "/api/engines/gateway/connect", nil)
	if status != http.StatusBadGateway || !strings.Contains(string(b), "refused the key (401)") || !strings.Contains(string(b), engine.URL) {
		t.Fatalf("connect with the wrong key = %d %s", status, b)
	}
	assertEnginesUnchanged(t, c, before, "a refused connect")

	status, _, _ = c.do(http.MethodPut, "/api/settings", []byte(`{"engine_api_keys":{"gateway":"`+cardKey+`"}}`))
	if status != http.StatusOK {
		t.Fatal("saving the card key failed")
	}
	status, _, b = c.do(http.MethodPost, "/api/engines/gateway/connect", nil)
	models := decode[struct{ Models []string }](t, b)
	if status != http.StatusOK || strings.Join(models.Models, ",") != "llama-3.3-70b,qwen3-32b" {
		t.Fatalf("connect with the card key = %d %s", status, b)
	}
	status, _, b = c.do(http.MethodPost, "/api/engines/gateway/use-as-llm", nil)
	if status != http.StatusOK || !strings.Contains(string(b), `"llm_url":"`+engine.URL+`/v1"`) || !strings.Contains(string(b), `"llm_api_key":"__configured__"`) {
		t.Fatalf("use as LLM = %d %s", status, b)
	}
	status, _, b = c.do(http.MethodGet, "/api/engines", nil)
	if status != http.StatusOK || !strings.Contains(string(b), `"key_configured":true`) {
		t.Fatalf("list = %d %s", status, b)
	}
	before = engineState(t, c)
	status, _, b = c.do(http.MethodPost, "/api/engines/gateway/start", nil)
	if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), "names no container") {
		t.Errorf("start without a container = %d %s", status, b)
	}
	assertEnginesUnchanged(t, c, before, "a refused start")
	status, _, _ = c.do(http.MethodDelete, "/api/engines/gateway", nil)
	deleted := engineState(t, c)
	if deleted == before || strings.Contains(deleted, `"name":"gateway"`) {
		t.Errorf("the deleted card is still listed: %s", deleted)
	}
	status2, _, _ := c.do(http.MethodDelete, "/api/engines/gateway", nil)
	if status != http.StatusNoContent || status2 != http.StatusNotFound {
		t.Errorf("delete twice = %d, %d", status, status2)
	}
	assertEnginesUnchanged(t, c, deleted, "a second delete")
	c.assertNoKeyLeaked(cardKey, globalKey)
}

// engineState is what a client can read of the engine cards and settings.
func engineState(t *testing.T, c *apiClient) string {
	t.Helper()
	var state []string
	for _, path := range []string{"/api/engines", "/api/settings"} {
		state = append(state, string(c.get(path)))
	}
	return strings.Join(state, "\n")
}

func assertEnginesUnchanged(t *testing.T, c *apiClient, before, call string) {
	t.Helper()
	if after := engineState(t, c); after != before {
		t.Errorf("%s changed the cards or settings:\nbefore %s\nafter  %s", call, before, after)
	}
}

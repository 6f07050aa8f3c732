package settings

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzSettingsBody: any PUT /api/settings body is decoded (unknown fields
// refused, as the API does), then validated; an update Validate accepts
// applies without a panic and never shows a saved key.
func FuzzSettingsBody(f *testing.F) {
	f.Add([]byte(`{"llm_url":"http://127.0.0.1:8000/v1","llm_api_key":"sk-1","engine_api_keys":{"vision":"__configured__"}}`))
	f.Add([]byte(`{"instance_name":"","engine_url_allowlist":["10.0.0.0/8","::/0","host:99999"]}`))
	f.Add([]byte(`{"vision_ocr_url":"file:///etc/passwd","llm_model":null}`))
	stored := Defaults("test")
	stored.LLMAPIKey = "sk-saved-secret"
	f.Fuzz(func(t *testing.T, body []byte) {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		var u Update
		if dec.Decode(&u) != nil {
			return
		}
		if Validate(u) != nil {
			return
		}
		v := Show(Apply(stored, u))
		if raw, err := json.Marshal(v); err != nil || bytes.Contains(raw, []byte("sk-saved-secret")) {
			t.Fatalf("view %s, %v", raw, err)
		}
	})
}

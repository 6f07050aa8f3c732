package speech

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/engines"
)

// OpenAIVoices are the voice names of OpenAI's /v1/audio/speech (openai-go
// v3's list). Engines that offer no voice list accept them, mapped to
// voices of their own.
var OpenAIVoices = []string{"alloy", "ash", "ballad", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer", "verse", "marin", "cedar"}

// maxVoiceListBytes bounds an engine's voice list: thousands of voices fit.
const maxVoiceListBytes = 4 << 20

// maxVoiceIDChars bounds one voice id taken from a list; longer ones are
// dropped rather than stored.
const maxVoiceIDChars = 200

// ListVoices asks the OpenAI-compatible speech engine at baseURL (ending in
// /v1) for its voices with GET {base}/audio/voices, the route LocalAI and
// Kokoro-FastAPI offer. offered is false when the engine has no such route
// (404, 405 or 501): the caller then falls back to OpenAIVoices. The ids
// come back sorted and unique. Errors name the URL and the status, never the
// answer's body, which could echo the key.
func ListVoices(ctx context.Context, client *http.Client, baseURL, key string) (voices []string, offered bool, err error) {
	if client == nil {
		client = http.DefaultClient
	}
	endpoint := strings.TrimRight(baseURL, "/") + "/audio/voices"
	shown := engines.Redact(endpoint, key)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
	if err != nil {
		return nil, false, &EngineError{URL: shown, Detail: engines.Redact(err.Error(), key), Err: err}
	}
	req.Header.Set("Accept", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, false, &EngineError{URL: shown, Detail: engines.Redact(err.Error(), key), Err: err}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed || resp.StatusCode == http.StatusNotImplemented:
		return nil, false, nil
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, true, &EngineError{URL: shown, Status: resp.StatusCode, Detail: http.StatusText(resp.StatusCode), Err: ErrUnauthorized}
	case resp.StatusCode >= 300:
		return nil, true, &EngineError{URL: shown, Status: resp.StatusCode, Detail: http.StatusText(resp.StatusCode)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxVoiceListBytes+1))
	if err != nil {
		return nil, true, &EngineError{URL: shown, Status: resp.StatusCode, Detail: "reading the voice list: " + engines.Redact(err.Error(), key), Err: err}
	}
	if len(body) > maxVoiceListBytes {
		return nil, true, &EngineError{URL: shown, Status: resp.StatusCode, Detail: fmt.Sprintf("voice list larger than %d MiB", maxVoiceListBytes>>20)}
	}
	voices, err = parseVoiceList(body)
	if err != nil {
		return nil, true, &EngineError{URL: shown, Status: resp.StatusCode, Detail: err.Error()}
	}
	return voices, true, nil
}

// parseVoiceList reads the shapes engines answer: {"voices": [...]} (Kokoro,
// LocalAI), {"data": [...]}, or a bare list, whose entries are ids or
// objects with an id, voice_id or name.
func parseVoiceList(body []byte) ([]string, error) {
	var list []json.RawMessage
	if err := json.Unmarshal(body, &list); err != nil {
		var wrapped struct {
			Voices []json.RawMessage `json:"voices"`
			Data   []json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(body, &wrapped); err != nil {
			return nil, errors.New("the answer is not a JSON voice list")
		}
		list = append(wrapped.Voices, wrapped.Data...)
	}
	var ids []string
	for _, raw := range list {
		var id string
		if json.Unmarshal(raw, &id) != nil {
			var obj struct {
				ID      string `json:"id"`
				VoiceID string `json:"voice_id"`
				Name    string `json:"name"`
			}
			if json.Unmarshal(raw, &obj) != nil {
				continue
			}
			id = firstNonEmpty(obj.ID, obj.VoiceID, obj.Name)
		}
		id = strings.TrimSpace(id)
		if id != "" && utf8.RuneCountInString(id) <= maxVoiceIDChars && !strings.ContainsFunc(id, isControl) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

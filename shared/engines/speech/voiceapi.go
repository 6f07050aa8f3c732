package speech

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/engines"
)

// VoiceTimeout bounds one voice-management call (a clone uploads up to
// MaxReferenceBytes; a design makes several samples).
const VoiceTimeout = 120 * time.Second

// MaxReferenceBytes is the largest reference recording sent to a clone
// call: Chatterbox's own upload limit (10 MB).
const MaxReferenceBytes = 10 << 20

// maxVoiceAnswerBytes bounds a voice-management answer: a design's three
// base64 samples fit with room to spare.
const maxVoiceAnswerBytes = 32 << 20

// Reference is a recording of the speaker a clone is made from.
type Reference struct {
	Audio       []byte
	Filename    string // with the extension of its format: sample.wav
	ContentType string
	Transcript  string // what the recording says; optional
}

// DesignSample is one voice an engine designed from a description, with
// a sample of it.
type DesignSample struct {
	// GeneratedID names the designed voice to the engine until it is saved.
	GeneratedID string
	Audio       Audio
}

// keyHeader says how an engine takes its key.
type keyHeader func(h http.Header, key string)

func bearer(h http.Header, key string) { h.Set("Authorization", "Bearer "+key) }

// voiceCall is one request to an engine's voice-management API: it sends
// body (JSON or a multipart form) and decodes a JSON answer into out (when
// out is not nil) or returns the raw answer. Errors name the URL and the
// status, never the answer's body, which could echo the key.
type voiceCall struct {
	client *http.Client
	key    string
	auth   keyHeader
}

func (c voiceCall) do(ctx context.Context, method, endpoint, contentType string, body []byte, out any) ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(ctx, VoiceTimeout)
	defer cancel()
	shown := engines.Redact(endpoint, c.key)
	req, err := http.NewRequestWithContext(ctx, method, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, "", &EngineError{URL: shown, Detail: engines.Redact(err.Error(), c.key), Err: err}
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.key != "" {
		c.auth(req.Header, c.key)
	}
	client := c.client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", &EngineError{URL: shown, Detail: engines.Redact(err.Error(), c.key), Err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return nil, "", statusError(shown, resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxVoiceAnswerBytes+1))
	if err != nil {
		return nil, "", &EngineError{URL: shown, Status: resp.StatusCode, Detail: "reading the answer: " + engines.Redact(err.Error(), c.key), Err: err}
	}
	if len(data) > maxVoiceAnswerBytes {
		return nil, "", &EngineError{URL: shown, Status: resp.StatusCode, Detail: fmt.Sprintf("answer larger than %d MiB", maxVoiceAnswerBytes>>20)}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return nil, "", &EngineError{URL: shown, Status: resp.StatusCode, Detail: "the answer is not the JSON this call returns"}
		}
	}
	return data, resp.Header.Get("Content-Type"), nil
}

// deleteVoice sends a voice delete; the engine's 404 means the voice is
// gone already, which is what the caller wants.
func deleteVoice(ctx context.Context, call voiceCall, endpoint string) error {
	_, _, err := call.do(ctx, http.MethodDelete, endpoint, "", nil, nil)
	var ee *EngineError
	if errors.As(err, &ee) && ee.Status == http.StatusNotFound {
		return nil
	}
	return err
}

// statusError files a refused call: 401/403 is the key's fault, other 4xx
// the request's (a sample the engine would not take, a name it already
// has), 5xx the engine's.
func statusError(shown string, status int) error {
	e := &EngineError{URL: shown, Status: status, Detail: http.StatusText(status)}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Err = ErrUnauthorized
	case status >= 400 && status < 500 && status != http.StatusTooManyRequests && status != http.StatusRequestTimeout:
		e.Err = ErrInvalid
	}
	return e
}

// form builds a multipart body of fields and one file.
func form(fields [][2]string, fileField string, ref Reference) ([]byte, string, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := w.WriteField(f[0], f[1]); err != nil {
			return nil, "", err
		}
	}
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name=%q; filename=%q`, fileField, ref.Filename)}
	h["Content-Type"] = []string{ref.ContentType}
	part, err := w.CreatePart(h)
	if err != nil {
		return nil, "", err
	}
	if _, err := part.Write(ref.Audio); err != nil {
		return nil, "", err
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), w.FormDataContentType(), nil
}

// checkReference refuses a recording no engine should be sent.
func checkReference(ref Reference) error {
	switch {
	case len(ref.Audio) == 0:
		return fmt.Errorf("%w: the reference recording is empty", ErrInvalid)
	case len(ref.Audio) > MaxReferenceBytes:
		return fmt.Errorf("%w: the reference recording has %d bytes, more than %d", ErrInvalid, len(ref.Audio), MaxReferenceBytes)
	case ref.Filename == "" || strings.ContainsAny(ref.Filename, "\"\r\n/\\"):
		return fmt.Errorf("%w: the reference recording needs a plain file name", ErrInvalid)
	}
	return nil
}

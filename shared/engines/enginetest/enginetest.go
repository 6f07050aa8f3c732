// Package enginetest serves the vision OCR engines' real protocols on
// 127.0.0.1 for tests: vLLM's OpenAI-compatible chat completions (as it
// serves dots.ocr, olmOCR and Qwen-VL) and docling-serve's convert API.
// Each answers with a recorded answer and keeps what it was asked, so a
// test checks the prompt and image an engine got as well as what Lectern
// made of its answer.
package enginetest

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Chat is vLLM's /v1/chat/completions answering every call with one answer.
type Chat struct {
	URL    string // the engine's base URL, ending in /v1
	mu     sync.Mutex
	answer string
	calls  int
	model  string
	prompt string
	image  []byte
}

// NewChat starts a chat-completions engine on 127.0.0.1 answering answer.
func NewChat(t testing.TB, answer string) *Chat {
	t.Helper()
	c := &Chat{answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(c.serve))
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the engine listens on %s, not on 127.0.0.1", srv.URL)
	}
	c.URL = srv.URL + "/v1"
	return c
}

func (c *Chat) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	c.calls++
	c.model = req.Model
	for _, m := range req.Messages {
		var parts []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		if json.Unmarshal(m.Content, &parts) != nil {
			continue
		}
		for _, p := range parts {
			switch p.Type {
			case "text":
				c.prompt = p.Text
			case "image_url":
				if _, data, ok := strings.Cut(p.ImageURL.URL, ";base64,"); ok {
					c.image, _ = base64.StdEncoding.DecodeString(data)
				}
			}
		}
	}
	answer := c.answer
	c.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": answer}}},
	})
}

// Asked is the model, prompt and image (decoded from its data URL) of the
// last call.
func (c *Chat) Asked() (model, prompt string, image []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.model, c.prompt, c.image
}

// Calls is the number of chat completions answered.
func (c *Chat) Calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// Docling is docling-serve's convert API at one path (/v1/convert/file or
// /v1alpha/convert/file; the other answers 404, as a server of the other
// API version does).
type Docling struct {
	URL   string // the engine's base URL, ending in /v1
	mu    sync.Mutex
	calls int
	file  []byte
}

// NewDocling starts docling-serve on 127.0.0.1 at path; reply writes the
// answer to a well-formed request (a page image asked back as JSON).
func NewDocling(t testing.TB, path string, reply func(w http.ResponseWriter)) *Docling {
	t.Helper()
	d := &Docling{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		d.calls++
		d.mu.Unlock()
		if r.Method != http.MethodPost || r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		fields, file, err := readForm(r)
		if err != nil || len(file) == 0 || fields["to_formats"] != "json" || fields["from_formats"] != "image" {
			http.Error(w, `{"detail":"bad request"}`, http.StatusUnprocessableEntity)
			return
		}
		d.mu.Lock()
		d.file = file
		d.mu.Unlock()
		reply(w)
	}))
	t.Cleanup(srv.Close)
	d.URL = srv.URL + "/v1"
	return d
}

// readForm reads a multipart request: its fields and the "files" part.
func readForm(r *http.Request) (map[string]string, []byte, error) {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return nil, nil, err
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	fields, file := map[string]string{}, []byte(nil)
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return fields, file, nil
		}
		if err != nil {
			return nil, nil, err
		}
		b, err := io.ReadAll(p)
		if err != nil {
			return nil, nil, err
		}
		if p.FormName() == "files" {
			file = b
			continue
		}
		fields[p.FormName()] = string(b)
	}
}

// Calls is the number of requests, 404s included.
func (d *Docling) Calls() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls
}

// File is the file of the last well-formed request.
func (d *Docling) File() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.file
}

// DoclingReply answers with docling-serve's convert response around doc, a
// DoclingDocument.
func DoclingReply(doc string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"document":{"filename":"page.png","md_content":null,"json_content":`+doc+`},"status":"success","errors":[],"processing_time":1.5,"timings":{}}`)
	}
}

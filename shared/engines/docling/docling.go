// Package docling is the client for docling-serve, a document converter
// users host (it runs on CPU): a page image goes up as a file and its
// DoclingDocument comes back. It is not a chat engine and takes no prompt;
// Vision has the chat engines' shape so the OCR chain calls it alike.
package docling

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/engines"
)

// DefaultTimeout bounds one conversion when Config.Timeout is zero: a CPU
// docling reads a page in seconds to a minute.
const DefaultTimeout = 120 * time.Second

// maxAnswer bounds the response read (a page's document is tens of kB).
const maxAnswer = 16 << 20

// Config names one docling-serve.
type Config struct {
	BaseURL    string // ends in /v1, as every engine URL is normalised
	APIKey     string // sent as X-Api-Key (DOCLING_SERVE_API_KEY); may be empty
	Timeout    time.Duration
	HTTPClient *http.Client
}

// Client calls one docling-serve.
type Client struct {
	cfg  Config
	http *http.Client
}

// New builds a client; it does not contact the engine.
func New(cfg Config) *Client {
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{cfg: cfg, http: hc}
}

// convertResponse is docling-serve's answer to one file.
type convertResponse struct {
	Document struct {
		JSONContent json.RawMessage `json:"json_content"`
	} `json:"document"`
	Status string `json:"status"`
	Errors []struct {
		ComponentType string `json:"component_type"`
		ModuleName    string `json:"module_name"`
		ErrorMessage  string `json:"error_message"`
	} `json:"errors"`
}

// Vision converts the page image and returns its DoclingDocument as JSON.
// The prompt is ignored (docling has none). POST {base}/convert/file, as
// docling-serve's v1 API names it; a server of the v1alpha API answers 404
// there and is asked at /v1alpha/convert/file instead.
func (c *Client) Vision(ctx context.Context, _ string, image []byte, mimeType string) (string, error) {
	base := strings.TrimSuffix(strings.TrimRight(c.cfg.BaseURL, "/"), "/v1")
	body, err := c.convert(ctx, base+"/v1/convert/file", image, mimeType)
	var ee *engines.EngineError
	if errors.As(err, &ee) && ee.Status == http.StatusNotFound {
		body, err = c.convert(ctx, base+"/v1alpha/convert/file", image, mimeType)
	}
	if err != nil {
		return "", err
	}
	var resp convertResponse
	if err := json.Unmarshal(body, &resp); err != nil {
		return "", fmt.Errorf("docling-serve answer is not its convert response: %w", err)
	}
	if resp.Status != "" && resp.Status != "success" && resp.Status != "partial_success" {
		var msgs []string
		for _, e := range resp.Errors {
			msgs = append(msgs, e.ErrorMessage)
		}
		return "", fmt.Errorf("docling-serve conversion %s: %s", resp.Status, strings.Join(msgs, "; "))
	}
	if len(resp.Document.JSONContent) == 0 || string(resp.Document.JSONContent) == "null" {
		return "", nil // an empty answer: the chain moves on
	}
	return string(resp.Document.JSONContent), nil
}

func (c *Client) convert(ctx context.Context, url string, image []byte, mimeType string) ([]byte, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range [][2]string{
		{"from_formats", "image"}, {"to_formats", "json"}, {"image_export_mode", "placeholder"},
		{"do_ocr", "true"}, {"return_as_file", "false"},
	} {
		w.WriteField(f[0], f[1])
	}
	ext := "png"
	if mimeType == "image/jpeg" {
		ext = "jpg"
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="files"; filename="page.`+ext+`"`)
	h.Set("Content-Type", mimeType)
	part, err := w.CreatePart(h)
	if err != nil {
		return nil, err
	}
	part.Write(image)
	if err := w.Close(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, &buf)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		req.Header.Set("X-Api-Key", c.cfg.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, &engines.EngineError{URL: url, Detail: err.Error(), Err: err}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return nil, &engines.EngineError{URL: url, Status: resp.StatusCode, Detail: err.Error(), Err: err}
	}
	if len(body) > maxAnswer {
		return nil, &engines.EngineError{URL: url, Status: resp.StatusCode, Detail: fmt.Sprintf("answer is over %d bytes", maxAnswer)}
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, &engines.EngineError{URL: url, Status: resp.StatusCode, Detail: "the engine refused the API key", Err: engines.ErrUnauthorized}
	case resp.StatusCode/100 != 2:
		detail := strings.TrimSpace(string(body))
		if len(detail) > 300 {
			detail = detail[:300]
		}
		return nil, &engines.EngineError{URL: url, Status: resp.StatusCode, Detail: detail, RetryAfter: resp.Header.Get("Retry-After")}
	}
	return body, nil
}

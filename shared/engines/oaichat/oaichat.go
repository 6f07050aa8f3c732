// Package oaichat is the client for OpenAI-compatible chat engines (the LLM
// gateway, vision OCR and describe engines), built on openai-go: JSON-mode
// chat, chat following a JSON schema and chat with an image, retries on
// 429/5xx honouring Retry-After, a request timeout and context cancellation.
// Keys never appear in errors.
package oaichat

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/engines"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// Defaults for Config fields left zero.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultMaxRetries = 2
)

// KeyPlaceholder stands in for a key wherever one would be shown.
const KeyPlaceholder = engines.KeyPlaceholder

var (
	// ErrUnauthorized: the engine refused the key (HTTP 401/403).
	ErrUnauthorized = engines.ErrUnauthorized
	// ErrEmptyAnswer: the engine answered without content.
	ErrEmptyAnswer = errors.New("engine answered with empty content")
)

// EngineError is a failed call, naming the engine URL and its HTTP status.
type EngineError = engines.EngineError

// Config names one engine.
type Config struct {
	BaseURL    string // ends in /v1
	APIKey     string // resolved on the server; may be empty
	Model      string
	Timeout    time.Duration // per attempt
	MaxRetries int           // on 429, 5xx and connection errors
	HTTPClient *http.Client
}

// Client calls one engine.
type Client struct {
	api     openai.Client
	cfg     Config
	retries int
}

// New builds a client; it does not contact the engine.
func New(cfg Config) *Client {
	retries := Retries(cfg.MaxRetries)
	opts := RequestOptions(cfg.BaseURL, cfg.APIKey, retries, cfg.Timeout, DefaultTimeout, cfg.HTTPClient)
	return &Client{api: openai.NewClient(opts...), cfg: cfg, retries: retries}
}

// Retries turns a configured retry count into the one used: 0 means
// DefaultMaxRetries, a negative count means none.
func Retries(n int) int {
	switch {
	case n == 0:
		return DefaultMaxRetries
	case n < 0:
		return 0
	}
	return n
}

// RequestOptions are the openai-go options every engine client shares: the
// base URL with one trailing slash, the key, retries, the per-attempt
// timeout (def when timeout ≤ 0) and the caller's HTTP client, if any.
func RequestOptions(baseURL, key string, retries int, timeout, def time.Duration, hc *http.Client) []option.RequestOption {
	if timeout <= 0 {
		timeout = def
	}
	opts := []option.RequestOption{
		option.WithBaseURL(strings.TrimRight(baseURL, "/") + "/"),
		option.WithAPIKey(key),
		option.WithMaxRetries(retries),
		option.WithRequestTimeout(timeout),
	}
	if hc != nil {
		opts = append(opts, option.WithHTTPClient(hc))
	}
	return opts
}

// ChatJSON asks for a JSON object answer (response_format json_object) and
// returns the message content.
func (c *Client) ChatJSON(ctx context.Context, system, user string) (string, error) {
	return c.chat(ctx, system, user, openai.ChatCompletionNewParamsResponseFormatUnion{
		OfJSONObject: &openai.ResponseFormatJSONObjectParam{},
	})
}

// ChatSchema asks for an answer following a JSON schema (response_format
// json_schema, strict) and returns the message content. Engines that refuse
// json_schema with 400 (older gateways, some local servers) are asked again
// in JSON-object mode with the schema written into the system prompt, so the
// caller still parses one JSON object.
func (c *Client) ChatSchema(ctx context.Context, system, user, schemaName string, schema map[string]any) (string, error) {
	out, err := c.chat(ctx, system, user, openai.ChatCompletionNewParamsResponseFormatUnion{
		OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:   schemaName,
				Strict: openai.Bool(true),
				Schema: schema,
			},
		},
	})
	var ee *EngineError
	if err == nil || !errors.As(err, &ee) || ee.Status != http.StatusBadRequest {
		return out, err
	}
	shape, merr := json.Marshal(schema)
	if merr != nil {
		return "", fmt.Errorf("schema %s: %w", schemaName, merr)
	}
	return c.ChatJSON(ctx, system+"\n\nAnswer with one JSON object following this JSON schema:\n"+string(shape), user)
}

// chat sends one system and one user message asking for format.
func (c *Client) chat(ctx context.Context, system, user string, format openai.ChatCompletionNewParamsResponseFormatUnion) (string, error) {
	return c.complete(ctx, openai.ChatCompletionNewParams{
		Model: c.cfg.Model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(system),
			openai.UserMessage(user),
		},
		ResponseFormat: format,
	})
}

// Vision sends prompt with one image (PNG or JPEG bytes) and returns the
// message content.
func (c *Client) Vision(ctx context.Context, prompt string, image []byte, mimeType string) (string, error) {
	dataURL := "data:" + mimeType + ";base64," + base64.StdEncoding.EncodeToString(image)
	params := openai.ChatCompletionNewParams{
		Model: c.cfg.Model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
				openai.TextContentPart(prompt),
				openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: dataURL}),
			}),
		},
	}
	return c.complete(ctx, params)
}

func (c *Client) complete(ctx context.Context, params openai.ChatCompletionNewParams) (string, error) {
	resp, err := c.api.Chat.Completions.New(ctx, params)
	if err != nil {
		return "", c.wrap(err)
	}
	if len(resp.Choices) == 0 || strings.TrimSpace(resp.Choices[0].Message.Content) == "" {
		return "", &EngineError{URL: c.cfg.BaseURL, Status: 200, Detail: ErrEmptyAnswer.Error(), Err: ErrEmptyAnswer}
	}
	return resp.Choices[0].Message.Content, nil
}

// wrap turns a client error into an EngineError with the key redacted.
func (c *Client) wrap(err error) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		// The status only: the answer's body may echo the key in any encoding.
		e := &EngineError{URL: c.cfg.BaseURL, Status: apiErr.StatusCode, Detail: http.StatusText(apiErr.StatusCode), Err: err}
		if apiErr.StatusCode == http.StatusUnauthorized || apiErr.StatusCode == http.StatusForbidden {
			e.Err = ErrUnauthorized
		}
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return &EngineError{URL: c.cfg.BaseURL, Detail: "no answer in time: " + c.redact(err.Error()), Err: err}
	}
	return &EngineError{URL: c.cfg.BaseURL, Detail: c.redact(err.Error()), Err: err}
}

// redact replaces the key wherever an error might echo it.
func (c *Client) redact(s string) string {
	if c.cfg.APIKey == "" {
		return s
	}
	return strings.ReplaceAll(s, c.cfg.APIKey, KeyPlaceholder)
}

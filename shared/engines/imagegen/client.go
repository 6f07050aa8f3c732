package imagegen

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // engines may answer GIF; decoded to re-encode as PNG
	_ "image/jpeg" // engines may answer JPEG; decoded to re-encode as PNG
	"image/png"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/lectern/lectern/shared/engines/oaichat"
)

// Defaults for Config fields left zero.
const (
	// DefaultTimeout bounds one attempt. It is four times oaichat's: one
	// image takes OpenAI tens of seconds and a local diffusion model longer.
	DefaultTimeout    = 2 * time.Minute
	DefaultMaxRetries = 2
)

// MaxImageBytes caps an image fetched from a URL the engine answered.
const MaxImageBytes = 32 << 20

// maxPixels caps a non-PNG answer before it is decoded for conversion: a
// small JPEG can claim a huge canvas.
const maxPixels = MaxSide * MaxSide

// Config names one OpenAI-compatible image engine.
type Config struct {
	BaseURL    string        // ends in /v1
	APIKey     string        // resolved on the server; may be empty
	Model      string        // empty leaves the choice to the engine
	Timeout    time.Duration // per attempt, and for fetching an answered URL; 0 means DefaultTimeout
	MaxRetries int           // on 429, 5xx and connection errors; 0 means DefaultMaxRetries, <0 none
	// HTTPClient makes every call, fetching answered URLs included, so a
	// guarded client (urlsafe) guards those too; nil means
	// http.DefaultClient.
	HTTPClient *http.Client
}

// Client calls one engine.
type Client struct {
	api  openai.ImageService
	cfg  Config
	http *http.Client
	base *url.URL // resolves relative URLs in answers; nil if BaseURL does not parse
}

var _ Generator = (*Client)(nil)

// New builds a client; it does not contact the engine.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	opts := oaichat.RequestOptions(cfg.BaseURL, cfg.APIKey, oaichat.Retries(cfg.MaxRetries), cfg.Timeout, DefaultTimeout, cfg.HTTPClient)
	hc := http.DefaultClient
	if cfg.HTTPClient != nil {
		hc = cfg.HTTPClient
	}
	base, err := url.Parse(cfg.BaseURL + "/")
	if err != nil {
		base = nil
	}
	// The bare service, not openai.NewClient: the client would also read
	// OPENAI_ORG_ID, OPENAI_PROJECT_ID and OPENAI_CUSTOM_HEADERS from the
	// server's environment and send them to the user's engine.
	return &Client{api: openai.NewImageService(opts...), cfg: cfg, http: hc, base: base}
}

// Generate asks /images/generations for req.N images (1 when 0).
//
// No response_format is sent: OpenAI's GPT image models refuse it and
// always answer base64, older and self-hosted engines often answer URLs by
// default; both are accepted.
func (c *Client) Generate(ctx context.Context, req GenerateRequest) (Image, error) {
	if err := req.Validate(); err != nil {
		return Image{}, err
	}
	params := openai.ImageGenerateParams{Prompt: req.Prompt, Model: c.cfg.Model}
	if req.Size != "" {
		params.Size = openai.ImageGenerateParamsSize(req.Size)
	}
	if req.N > 0 {
		params.N = openai.Int(int64(req.N))
	}
	endpoint := c.endpoint("images/generations")
	var raw *http.Response
	resp, err := c.api.Generate(ctx, params, option.WithResponseInto(&raw))
	if err != nil {
		return Image{}, c.engineError(endpoint, raw, err)
	}
	return c.collect(ctx, endpoint, resp)
}

// Edit asks /images/edits to change req.Image as req.Prompt says. An engine
// that answers 405 there has no edits endpoint (many self-hosted ones); the
// spec has Edit fall back to Generate with the same prompt and size then,
// and the Image says so in FellBack.
func (c *Client) Edit(ctx context.Context, req EditRequest) (Image, error) {
	if err := req.Validate(); err != nil {
		return Image{}, err
	}
	params := openai.ImageEditParams{
		Prompt: req.Prompt,
		Model:  c.cfg.Model,
		Image: openai.ImageEditParamsImageUnion{
			OfFile: openai.File(bytes.NewReader(req.Image), "image.png", "image/png"),
		},
	}
	if req.Size != "" {
		params.Size = openai.ImageEditParamsSize(req.Size)
	}
	if req.Mask != nil {
		params.Mask = openai.File(bytes.NewReader(req.Mask), "mask.png", "image/png")
	}
	endpoint := c.endpoint("images/edits")
	var raw *http.Response
	resp, err := c.api.Edit(ctx, params, option.WithResponseInto(&raw))
	if err != nil {
		if statusOf(raw, err) == http.StatusMethodNotAllowed {
			img, gerr := c.Generate(ctx, GenerateRequest{Prompt: req.Prompt, Size: req.Size})
			if gerr != nil {
				return Image{}, fmt.Errorf("%s answered 405, so generating from the prompt alone: %w", endpoint, gerr)
			}
			img.FellBack = true
			return img, nil
		}
		return Image{}, c.engineError(endpoint, raw, err)
	}
	return c.collect(ctx, endpoint, resp)
}

// collect turns the engine's answer into PNGs, fetching URLs.
func (c *Client) collect(ctx context.Context, endpoint string, resp *openai.ImagesResponse) (Image, error) {
	if resp == nil || len(resp.Data) == 0 {
		return Image{}, &EngineError{URL: endpoint, Status: http.StatusOK, Detail: ErrEmptyAnswer.Error(), Err: ErrEmptyAnswer}
	}
	var img Image
	for i, d := range resp.Data {
		var data []byte
		var err error
		switch {
		case d.B64JSON != "":
			data, err = decodeBase64(d.B64JSON)
			if err != nil {
				err = &EngineError{URL: endpoint, Status: http.StatusOK, Detail: "b64_json does not decode: " + err.Error(), Err: err}
			}
		case d.URL != "":
			data, err = c.fetch(ctx, d.URL)
		default:
			err = &EngineError{URL: endpoint, Status: http.StatusOK, Detail: "an image with neither b64_json nor url", Err: ErrEmptyAnswer}
		}
		if err == nil {
			data, err = toPNG(data)
			if err != nil {
				err = &EngineError{URL: endpoint, Status: http.StatusOK, Detail: err.Error(), Err: err}
			}
		}
		if err != nil {
			return Image{}, err
		}
		if i == 0 {
			img.PNG, img.RevisedPrompt = data, d.RevisedPrompt
		} else {
			img.More = append(img.More, data)
		}
	}
	return img, nil
}

// decodeBase64 decodes b64_json, tolerating the data: URL prefix some
// engines put in front.
func decodeBase64(s string) ([]byte, error) {
	if strings.HasPrefix(s, "data:") {
		if _, after, ok := strings.Cut(s, ";base64,"); ok {
			s = after
		}
	}
	return base64.StdEncoding.DecodeString(strings.TrimSpace(s))
}

// fetch GETs an image URL the engine answered, with the configured client
// and timeout, at most MaxImageBytes. A relative URL is taken relative to
// the engine's base URL. The key is not sent: the URL may be another host
// (a storage bucket) that has no business seeing it.
func (c *Client) fetch(ctx context.Context, raw string) ([]byte, error) {
	u, err := url.Parse(raw)
	if err == nil && c.base != nil {
		u = c.base.ResolveReference(u)
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &EngineError{URL: c.cfg.BaseURL, Status: http.StatusOK, Detail: fmt.Sprintf("answered an image URL that is not http(s): %.80q", c.redact(raw))}
	}
	// The query of a storage URL is often a signature: leave it out of errors.
	shown := c.redact((&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String())
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &EngineError{URL: shown, Detail: c.redact(err.Error()), Err: err}
	}
	resp, err := c.http.Do(req)
	if err != nil {
		detail := "fetching the image: " + c.redact(err.Error())
		if u.RawQuery != "" {
			detail = strings.ReplaceAll(detail, u.RawQuery, "…")
		}
		return nil, &EngineError{URL: shown, Detail: detail, Err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &EngineError{URL: shown, Status: resp.StatusCode, Detail: "fetching the image: " + http.StatusText(resp.StatusCode)}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxImageBytes+1))
	switch {
	case err != nil:
		return nil, &EngineError{URL: shown, Status: resp.StatusCode, Detail: "reading the image: " + c.redact(err.Error()), Err: err}
	case len(data) > MaxImageBytes:
		return nil, &EngineError{URL: shown, Status: resp.StatusCode, Detail: fmt.Sprintf("image larger than %d MiB", MaxImageBytes>>20)}
	}
	return data, nil
}

// toPNG returns data as PNG: unchanged when it is one, re-encoded when it is
// JPEG or GIF (engines asked for no format may answer those).
func toPNG(data []byte) ([]byte, error) {
	if isPNG(data) {
		return data, nil
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, errors.New("answered data that is not a PNG, JPEG or GIF image")
	}
	if int64(cfg.Width)*int64(cfg.Height) > maxPixels {
		return nil, fmt.Errorf("answered a %dx%d %s, larger than accepted", cfg.Width, cfg.Height, format)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("answered a %s that does not decode: %v", format, err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("re-encoding the %s as PNG: %v", format, err)
	}
	return buf.Bytes(), nil
}

// endpoint is path under the base URL, as shown in errors.
func (c *Client) endpoint(path string) string {
	return c.redact(c.cfg.BaseURL + "/" + path)
}

// statusOf is the HTTP status of a failed call, 0 when none arrived.
func statusOf(resp *http.Response, err error) int {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}
	if resp != nil && resp.StatusCode >= 400 {
		return resp.StatusCode
	}
	return 0
}

// engineError turns a failed openai-go call into an EngineError with the key
// redacted. resp is the last answer, if any: it supplies the status when the
// error is not an *openai.Error.
func (c *Client) engineError(endpoint string, resp *http.Response, err error) error {
	e := &EngineError{URL: endpoint, Status: statusOf(resp, err), Err: err}
	var apiErr *openai.Error
	switch {
	case errors.As(err, &apiErr), e.Status != 0:
		// The status only: the answer's body may echo the key in any encoding.
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		e.Detail = "no answer in time: " + c.redact(err.Error())
	default:
		e.Detail = c.redact(err.Error())
	}
	if e.Detail == "" {
		e.Detail = http.StatusText(e.Status)
	}
	if e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden {
		e.Err = ErrUnauthorized
	}
	return e
}

// redact replaces the key wherever an engine or transport echoes it.
func (c *Client) redact(s string) string {
	if c.cfg.APIKey == "" {
		return s
	}
	return strings.ReplaceAll(s, c.cfg.APIKey, KeyPlaceholder)
}

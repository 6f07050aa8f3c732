package platform

import (
	"context"
	"net/http"
	"strings"

	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/engines/urlsafe"
	"github.com/lectern/lectern/shared/fault"
)

// LLMEndpoint is the LLM of the current Settings, ready to dial: its base
// URL normalised to end in /v1 and checked against the URL policy, and an
// HTTP client that checks every address it dials again.
type LLMEndpoint struct {
	BaseURL string
	Key     string
	Model   string
	Client  *http.Client
}

// ErrNoLLM: Settings name no LLM (llm_url is empty).
var ErrNoLLM = fault.New(fault.Conflict, "no LLM is configured: set llm_url in Settings")

// LLM reads the LLM endpoint of the current Settings for a job or an
// operation that asks it. An empty llm_url is ErrNoLLM; a URL that is not
// an LLM's, or that the URL policy refuses, is an Invalid error.
func (d *Deps) LLM(ctx context.Context) (LLMEndpoint, error) {
	s, err := d.Settings.Load(ctx)
	if err != nil {
		return LLMEndpoint{}, err
	}
	if strings.TrimSpace(s.LLMURL) == "" {
		return LLMEndpoint{}, ErrNoLLM
	}
	base, err := engines.NormalizeLLMURL(s.LLMURL)
	if err != nil {
		return LLMEndpoint{}, fault.Errorf(fault.Invalid, "llm_url %q: %v", s.LLMURL, err)
	}
	policy := urlsafe.Policy{Hosted: d.Hosted(), Allow: s.EngineURLAllowlist}
	if _, err := policy.Check(ctx, base); err != nil {
		return LLMEndpoint{}, fault.Errorf(fault.Invalid, "llm_url is refused: %v", err)
	}
	return LLMEndpoint{BaseURL: base, Key: s.LLMAPIKey, Model: s.LLMModel, Client: policy.HTTPClient(0)}, nil
}

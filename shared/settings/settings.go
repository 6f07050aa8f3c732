// Package settings owns an instance's settings: engine URLs and the API keys
// the server uses on the user's behalf. Keys are kept server-side only; every
// view of the settings answers a saved key as the literal Configured.
package settings

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/lectern/lectern/shared/engines/urlsafe"
)

// Configured is what every settings response shows in place of a saved key.
// Sent back in an update, it keeps the saved key.
const Configured = "__configured__"

// Limits on what an update may hold.
const (
	MaxKeyLength       = 4096
	MaxURLLength       = 2048
	MaxEngineKeys      = 64
	MaxInstanceNameLen = 64
	MaxModelLength     = 200
	MaxAllowEntries    = 32
	MaxAllowEntryLen   = 255
)

// cardNamePattern bounds engine card names: they are map keys shown in the UI.
var cardNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$`)

// Settings is the stored record, keys included. It never leaves the server.
type Settings struct {
	InstanceName         string            `json:"instance_name"`
	LLMURL               string            `json:"llm_url"`
	LLMAPIKey            string            `json:"llm_api_key"`
	LLMModel             string            `json:"llm_model"`
	EngineAPIKeys        map[string]string `json:"engine_api_keys"`
	VisionOCRURL         string            `json:"vision_ocr_url"`
	VisionOCRFallbackURL string            `json:"vision_ocr_fallback_url"`
	VisionOCRModel       string            `json:"vision_ocr_model"`
	EngineURLAllowlist   []string          `json:"engine_url_allowlist"`
	// EarCheck switches the ear (speech recognition of every render) for
	// renders that do not say; nil, as in a record saved before the switch,
	// is on (EarOn).
	EarCheck *bool `json:"ear_check,omitempty"`
}

// EarOn says whether renders that do not ask either way are heard by the
// ear: on unless switched off in Settings.
func (s Settings) EarOn() bool { return s.EarCheck == nil || *s.EarCheck }

// KeyFor resolves the key the server sends to an engine card: the card's
// own engine_api_keys entry first, then the global llm_api_key (spec:
// Engine cards 1).
func (s Settings) KeyFor(card string) string {
	if k := s.EngineAPIKeys[card]; k != "" {
		return k
	}
	return s.LLMAPIKey
}

// View is the settings as shown to a client: keys replaced by Configured ("" when unset).
type View struct {
	InstanceName         string            `json:"instance_name"`
	LLMURL               string            `json:"llm_url"`
	LLMAPIKey            string            `json:"llm_api_key"`
	LLMModel             string            `json:"llm_model"`
	EngineAPIKeys        map[string]string `json:"engine_api_keys"`
	VisionOCRURL         string            `json:"vision_ocr_url"`
	VisionOCRFallbackURL string            `json:"vision_ocr_fallback_url"`
	VisionOCRModel       string            `json:"vision_ocr_model"`
	EngineURLAllowlist   []string          `json:"engine_url_allowlist"`
	EarCheck             bool              `json:"ear_check" doc:"whether renders that do not ask either way (audiobooks, issues, articles) are checked by the ear, speech recognition of every chunk; on by default"`
}

// Update is a client's change. A nil field is left as it is. For keys,
// Configured keeps the saved key and "" clears it.
type Update struct {
	InstanceName         *string           `json:"instance_name,omitempty" minLength:"1" maxLength:"64" doc:"display name of this instance"`
	LLMURL               *string           `json:"llm_url,omitempty" maxLength:"2048" doc:"LLM engine base URL (OpenAI-compatible, ends in /v1); empty clears"`
	LLMAPIKey            *string           `json:"llm_api_key,omitempty" maxLength:"4096" doc:"global LLM key; __configured__ keeps the saved key, empty clears it"`
	EngineAPIKeys        map[string]string `json:"engine_api_keys,omitempty" doc:"engine card name to that card's key; same rule per entry"`
	VisionOCRURL         *string           `json:"vision_ocr_url,omitempty" maxLength:"2048" doc:"primary vision OCR engine URL; empty clears"`
	VisionOCRFallbackURL *string           `json:"vision_ocr_fallback_url,omitempty" maxLength:"2048" doc:"fallback vision OCR engine URL; empty clears"`
	LLMModel             *string           `json:"llm_model,omitempty" maxLength:"200" doc:"model the LLM engine is asked for"`
	VisionOCRModel       *string           `json:"vision_ocr_model,omitempty" maxLength:"200" doc:"model the vision OCR engines are asked for"`
	EngineURLAllowlist   []string          `json:"engine_url_allowlist,omitempty" maxItems:"32" doc:"hosts, host:port, addresses or CIDRs the hosted server may call although they are loopback, link-local or metadata addresses; sent as a whole list, [] clears"`
	EarCheck             *bool             `json:"ear_check,omitempty" doc:"check renders that do not ask either way with the ear (speech recognition of every chunk, which speaks a chunk heard wrong again and marks it); decided when the render runs"`
}

// Defaults are the settings of an instance that has never saved any.
func Defaults(instance string) Settings {
	return Settings{InstanceName: instance, EngineAPIKeys: map[string]string{}}
}

// Show masks every key of s.
func Show(s Settings) View {
	keys := make(map[string]string, len(s.EngineAPIKeys))
	for card, key := range s.EngineAPIKeys {
		keys[card] = mask(key)
	}
	return View{
		InstanceName:         s.InstanceName,
		LLMURL:               s.LLMURL,
		LLMAPIKey:            mask(s.LLMAPIKey),
		EngineAPIKeys:        keys,
		VisionOCRURL:         s.VisionOCRURL,
		VisionOCRFallbackURL: s.VisionOCRFallbackURL,
		LLMModel:             s.LLMModel,
		VisionOCRModel:       s.VisionOCRModel,
		EngineURLAllowlist:   append([]string{}, s.EngineURLAllowlist...),
		EarCheck:             s.EarOn(),
	}
}

func mask(key string) string {
	if key == "" {
		return ""
	}
	return Configured
}

// Validate checks an update before anything is read or written.
func Validate(u Update) error {
	if u.InstanceName != nil {
		n := *u.InstanceName
		if n == "" || len(n) > MaxInstanceNameLen {
			return fmt.Errorf("instance_name must be 1 to %d characters: %w", MaxInstanceNameLen, ErrInvalid)
		}
	}
	for field, v := range map[string]*string{
		"llm_url": u.LLMURL, "vision_ocr_url": u.VisionOCRURL, "vision_ocr_fallback_url": u.VisionOCRFallbackURL,
	} {
		if v == nil || *v == "" {
			continue
		}
		if err := checkURL(*v); err != nil {
			return fmt.Errorf("%s: %v: %w", field, err, ErrInvalid)
		}
	}
	for field, v := range map[string]*string{"llm_model": u.LLMModel, "vision_ocr_model": u.VisionOCRModel} {
		if v != nil && len(*v) > MaxModelLength {
			return fmt.Errorf("%s is longer than %d characters: %w", field, MaxModelLength, ErrInvalid)
		}
	}
	if len(u.EngineURLAllowlist) > MaxAllowEntries {
		return fmt.Errorf("engine_url_allowlist has %d entries, limit %d: %w", len(u.EngineURLAllowlist), MaxAllowEntries, ErrInvalid)
	}
	for _, e := range u.EngineURLAllowlist {
		if e == "" || len(e) > MaxAllowEntryLen || strings.ContainsAny(e, " \t\r\n") {
			return fmt.Errorf("engine_url_allowlist entry %q must be a host, host:port, address or CIDR: %w", e, ErrInvalid)
		}
		if strings.Contains(e, "://") {
			return fmt.Errorf("engine_url_allowlist entry %q must be a host, not a URL: %w", e, ErrInvalid)
		}
		if err := urlsafe.CheckAllowEntry(e); err != nil {
			return fmt.Errorf("engine_url_allowlist entry %v: %w", err, ErrInvalid)
		}
	}
	if u.LLMAPIKey != nil && len(*u.LLMAPIKey) > MaxKeyLength {
		return fmt.Errorf("llm_api_key is longer than %d characters: %w", MaxKeyLength, ErrInvalid)
	}
	if len(u.EngineAPIKeys) > MaxEngineKeys {
		return fmt.Errorf("engine_api_keys has %d entries, limit %d: %w", len(u.EngineAPIKeys), MaxEngineKeys, ErrInvalid)
	}
	for _, card := range sortedKeys(u.EngineAPIKeys) {
		if !cardNamePattern.MatchString(card) {
			return fmt.Errorf("engine_api_keys: card name %q must be 1-64 letters, digits, spaces, '.', '_' or '-': %w", card, ErrInvalid)
		}
		if len(u.EngineAPIKeys[card]) > MaxKeyLength {
			return fmt.Errorf("engine_api_keys[%s] is longer than %d characters: %w", card, MaxKeyLength, ErrInvalid)
		}
	}
	return nil
}

// checkURL accepts absolute http(s) URLs only. Whether the server may call the
// address is decided where it is called (engine URL safety), not here.
func checkURL(raw string) error {
	if len(raw) > MaxURLLength {
		return fmt.Errorf("longer than %d characters", MaxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("must start with http:// or https://")
	}
	if u.Host == "" {
		return fmt.Errorf("has no host")
	}
	return nil
}

// Apply returns stored with the update applied. It does not validate.
func Apply(stored Settings, u Update) Settings {
	next := stored
	next.EngineAPIKeys = make(map[string]string, len(stored.EngineAPIKeys)+len(u.EngineAPIKeys))
	for card, key := range stored.EngineAPIKeys {
		next.EngineAPIKeys[card] = key
	}
	setString(&next.InstanceName, u.InstanceName)
	setString(&next.LLMURL, u.LLMURL)
	setString(&next.VisionOCRURL, u.VisionOCRURL)
	setString(&next.VisionOCRFallbackURL, u.VisionOCRFallbackURL)
	setString(&next.LLMModel, u.LLMModel)
	setString(&next.VisionOCRModel, u.VisionOCRModel)
	if u.EngineURLAllowlist != nil {
		next.EngineURLAllowlist = append([]string{}, u.EngineURLAllowlist...)
	}
	if u.EarCheck != nil {
		on := *u.EarCheck
		next.EarCheck = &on
	}
	if u.LLMAPIKey != nil {
		next.LLMAPIKey = applyKey(stored.LLMAPIKey, *u.LLMAPIKey)
	}
	for card, sent := range u.EngineAPIKeys {
		if key := applyKey(stored.EngineAPIKeys[card], sent); key != "" {
			next.EngineAPIKeys[card] = key
		} else {
			delete(next.EngineAPIKeys, card)
		}
	}
	return next
}

func setString(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

// applyKey implements the key rule: Configured keeps, "" clears, anything else sets.
func applyKey(saved, sent string) string {
	if sent == Configured {
		return saved
	}
	return sent
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Package cards owns engine cards: the user's AI engines (LLM gateway, vision
// OCR, vision, TTS, image, other containers), each with its URL, model,
// container and Docker host, stored per instance. It controls their
// containers through the Docker Engine API, connects to them with keys the
// server resolves (the browser never holds one), and makes one the LLM.
package cards

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/lectern/lectern/shared/cards/cardrec"
	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/engines/docker"
	"github.com/lectern/lectern/shared/engines/oaimodels"
	"github.com/lectern/lectern/shared/engines/urlsafe"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store"
)

// Errors of this package, each of a fault kind, so the one problem mapping
// needs no knowledge of cards.
var (
	// ErrInvalid: a card breaks a rule (name, kind, URL, container).
	ErrInvalid = fault.New(fault.Invalid, "invalid engine card")
	// ErrNotFound: no card of that name on this instance.
	ErrNotFound = fault.New(fault.NotFound, "engine card not found")
	// ErrNeedsURL: the card has no URL and none can be assumed (AWS mode).
	ErrNeedsURL = fault.New(fault.Invalid, "engine card needs a URL")
	// ErrNoContainer: the card names no container to control.
	ErrNoContainer = fault.New(fault.Invalid, "engine card names no container")
	// ErrRefusedURL: the server will not call the card's URL (engine URL safety).
	ErrRefusedURL = fault.New(fault.Invalid, "engine URL refused")
	// ErrEngine: the engine or its Docker host answered with an error or not at all.
	ErrEngine = fault.New(fault.Upstream, "engine call failed")
)

// classify files a failure from an engine, Docker host or URL check under
// this package's errors, keeping its own text.
func classify(name string, err error) error {
	switch {
	case errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, urlsafe.ErrUnsafeURL):
		return &cardError{card: name, err: err, kind: ErrRefusedURL}
	}
	return &cardError{card: name, err: err, kind: ErrEngine}
}

// cardError names the card and says only what went wrong; errors.Is and
// errors.As reach both the cause and this package's kind of error.
type cardError struct {
	card      string
	err, kind error
}

func (e *cardError) Error() string   { return fmt.Sprintf("card %q: %v", e.card, e.err) }
func (e *cardError) Unwrap() []error { return []error{e.err, e.kind} }

// Explanation is what a user reads when nothing answered at the card's URL:
// the card and what to check; the network's own words ("dial tcp …:
// connection refused") stay the cause. An engine that answered (a 401, a
// 500) is already told in the error's own text, which names its URL.
func (e *cardError) Explanation() string {
	var op *net.OpError
	if e.kind != ErrEngine || !errors.As(e.err, &op) || op.Op != "dial" {
		return ""
	}
	where := ""
	if u := (*url.Error)(nil); errors.As(e.err, &u) {
		where = " at " + u.URL
	}
	return fmt.Sprintf("Nothing answered%s for engine card %q. Check that the engine is running and that the card's URL and port are right, then try again.", where, e.card)
}

// Kind is what an engine does.
type Kind string

// The kinds of card.
const (
	KindLLM               Kind = "llm"                 // LLM gateway (OpenAI-compatible chat)
	KindVisionOCR         Kind = "vision-ocr"          // primary vision OCR
	KindVisionOCRFallback Kind = "vision-ocr-fallback" // fallback vision OCR
	KindVision            Kind = "vision"              // figure descriptions
	KindTTS               Kind = "tts"                 // speech
	KindImage             Kind = "image"               // image generation
	KindOther             Kind = "other"               // any other container
)

// UsualPort is the port engines of kind k commonly listen on; a card without
// a URL assumes http://<engine host>:<port>/v1 in local mode. 0: none.
func UsualPort(k Kind) int {
	switch k {
	case KindLLM:
		return 4000 // LiteLLM
	case KindVisionOCR:
		return 8000 // vLLM
	case KindVisionOCRFallback:
		return 8001
	case KindVision:
		return 8002
	case KindTTS:
		return 8880 // Kokoro-FastAPI
	case KindImage:
		return 7860
	}
	return 0
}

var (
	namePattern      = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$`)
	containerPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$`)
)

// Spec is what the user says of an engine.
type Spec struct {
	Kind    Kind   `json:"kind" enum:"llm,vision-ocr,vision-ocr-fallback,vision,tts,image,other"`
	BaseURL string `json:"base_url,omitempty" maxLength:"2048" doc:"engine base URL; empty assumes this host's usual port (local mode only)"`
	Model   string `json:"model,omitempty" maxLength:"200"`
	// VoiceAPI names the voice-management protocol a TTS engine speaks
	// besides speech: it decides whether the engine can clone or design
	// voices, and how. Empty is VoiceAPIOpenAI.
	VoiceAPI VoiceAPI `json:"voice_api,omitempty" enum:"openai,chatterbox,elevenlabs," doc:"tts cards: openai (speech only, the default), chatterbox (Chatterbox TTS API: speech and voice cloning), elevenlabs (ElevenLabs API: speech, cloning and voice design)"`
	// OCRPreset names the engine family of a vision OCR card: the prompt
	// its model was trained on and the reader of its answer. Empty is
	// magazine.PresetLectern.
	OCRPreset  string `json:"ocr_preset,omitempty" enum:"lectern,dots-ocr,olmocr,docling,qwen2.5-vl,qwen3-vl," doc:"vision-ocr and vision-ocr-fallback cards: lectern (any vision chat model asked for Lectern's JSON regions, the default), dots-ocr (dots.ocr on vLLM), olmocr (olmOCR-2 on vLLM; its blocks are placed on Tesseract's words), docling (docling-serve's convert API), qwen2.5-vl or qwen3-vl (text spotting); the OCR chain uses the preset of the card whose base_url is vision_ocr_url or vision_ocr_fallback_url"`
	Container  string `json:"container,omitempty" maxLength:"128" doc:"Docker container name on the engine host"`
	DockerHost string `json:"docker_host,omitempty" maxLength:"2048" doc:"Docker Engine API endpoint of the host the container runs on (http(s)://host:2375 or unix:///var/run/docker.sock)"`
}

// Card is one named engine.
type Card struct {
	Name string `json:"name" minLength:"1" maxLength:"64" doc:"card name; also its key in engine_api_keys"`
	Spec
}

// View is a card as shown: the URL it will really use and whether it has
// its own key (never the key).
type View struct {
	Card
	URL           string `json:"url" doc:"the URL the server will call; empty when the card needs one"`
	URLSource     string `json:"url_source" enum:"card,default,missing"`
	DockerURL     string `json:"docker_url"`
	KeyConfigured bool   `json:"key_configured" doc:"true when engine_api_keys holds a key for this card"`
	// OCRPrompt shows what the card's preset asks its model, so the user
	// can check it is the prompt the model was trained on.
	OCRPrompt string `json:"ocr_prompt,omitempty" doc:"vision OCR cards: the prompt the card's preset sends with each page image (none for docling, which takes no prompt)"`
}

// Validate checks a card before anything is stored.
func Validate(c Card) error {
	if !namePattern.MatchString(c.Name) {
		return fmt.Errorf("name %q must be 1-64 letters, digits, spaces, '.', '_' or '-': %w", c.Name, ErrInvalid)
	}
	if UsualPort(c.Kind) == 0 && c.Kind != KindOther {
		return fmt.Errorf("kind %q is not one of llm, vision-ocr, vision-ocr-fallback, vision, tts, image, other: %w", c.Kind, ErrInvalid)
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			return fmt.Errorf("base_url %q must be an http:// or https:// URL without credentials: %w", c.BaseURL, ErrInvalid)
		}
	}
	if c.Container != "" && !containerPattern.MatchString(c.Container) {
		return fmt.Errorf("container %q is not a Docker container name: %w", c.Container, ErrInvalid)
	}
	if c.DockerHost != "" {
		u, err := url.Parse(c.DockerHost)
		if err != nil || !(u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "tcp" || u.Scheme == "unix") || (u.Scheme != "unix" && u.Host == "") {
			return fmt.Errorf("docker_host %q must be http://, https://, tcp:// or unix://: %w", c.DockerHost, ErrInvalid)
		}
	}
	if len(c.Model) > 200 {
		return fmt.Errorf("model is longer than 200 characters: %w", ErrInvalid)
	}
	if c.OCRPreset != "" {
		if _, ok := magazine.ParseVisionPreset(c.OCRPreset); !ok {
			return fmt.Errorf("ocr_preset %q is not one of lectern, dots-ocr, olmocr, docling, qwen2.5-vl, qwen3-vl: %w", c.OCRPreset, ErrInvalid)
		}
		if c.Kind != KindVisionOCR && c.Kind != KindVisionOCRFallback {
			return fmt.Errorf("ocr_preset %q is for vision-ocr cards, not %s: %w", c.OCRPreset, c.Kind, ErrInvalid)
		}
	}
	switch c.VoiceAPI {
	case "", VoiceAPIOpenAI:
	case VoiceAPIChatterbox, VoiceAPIElevenLabs:
		if c.Kind != KindTTS {
			return fmt.Errorf("voice_api %q is for tts cards, not %s: %w", c.VoiceAPI, c.Kind, ErrInvalid)
		}
	default:
		return fmt.Errorf("voice_api %q is not one of openai, chatterbox, elevenlabs: %w", c.VoiceAPI, ErrInvalid)
	}
	return nil
}

// VoiceAPI is the protocol family of a TTS engine, beyond OpenAI speech.
type VoiceAPI string

// The voice APIs a TTS card may name.
const (
	// VoiceAPIOpenAI: POST /v1/audio/speech only (Kokoro-FastAPI, LocalAI,
	// OpenedAI-Speech, OpenAI); no cloning or design.
	VoiceAPIOpenAI VoiceAPI = "openai"
	// VoiceAPIChatterbox: the Chatterbox TTS API server (travisvn/
	// chatterbox-tts-api): OpenAI speech, and a voice library that clones
	// a voice from an uploaded sample (POST /v1/voices).
	VoiceAPIChatterbox VoiceAPI = "chatterbox"
	// VoiceAPIElevenLabs: the ElevenLabs API (speech by voice id, instant
	// voice cloning, voice design from a description).
	VoiceAPIElevenLabs VoiceAPI = "elevenlabs"
)

// Options configure a Service.
type Options struct {
	Instance string
	// Hosted is AWS mode: no default URLs, and the hosted URL rules.
	Hosted bool
	// EngineHost is the address engines default to in local mode (this
	// machine); empty means 127.0.0.1.
	EngineHost string
	// DockerDefault is the Docker endpoint of cards that name none in local
	// mode; empty means unix:///var/run/docker.sock.
	DockerDefault string
	// Resolver looks hosts up for the URL checks; nil uses the system's.
	Resolver urlsafe.Resolver
	// Timeout bounds each engine or Docker call; 0 means 30 s.
	Timeout time.Duration
}

// Service manages one instance's cards.
type Service struct {
	table    store.Table
	settings *settings.Service
	opts     Options
}

// FromDeps is this instance's engine cards, as every feature that calls an
// engine reads them. It lives here, not on platform.Deps, so that a function
// which calls no engine links neither the Docker client nor openai-go.
func FromDeps(d *platform.Deps) *Service {
	return NewService(d.Table, d.Settings, Options{
		Instance: d.Config.Instance, Hosted: d.Hosted(),
		EngineHost: d.Config.EngineHost, DockerDefault: d.Config.DockerHost,
	})
}

// NewService returns the cards of opts.Instance.
func NewService(table store.Table, s *settings.Service, opts Options) *Service {
	if opts.EngineHost == "" {
		opts.EngineHost = "127.0.0.1"
	}
	if opts.DockerDefault == "" {
		opts.DockerDefault = "unix:///var/run/docker.sock"
	}
	if opts.Timeout == 0 {
		opts.Timeout = 30 * time.Second
	}
	return &Service{table: table, settings: s, opts: opts}
}

func (s *Service) pk() string { return cardrec.PK(s.opts.Instance) }

// List returns every card, by name.
func (s *Service) List(ctx context.Context) ([]View, error) {
	cfg, err := s.settings.Load(ctx)
	if err != nil {
		return nil, err
	}
	var out []View
	err = cardrec.Each(ctx, s.table, s.opts.Instance, func(data []byte) error {
		var c Card
		if err := json.Unmarshal(data, &c); err != nil {
			return err
		}
		out = append(out, s.view(c, cfg))
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Get returns one card.
func (s *Service) Get(ctx context.Context, name string) (View, error) {
	c, err := s.card(ctx, name)
	if err != nil {
		return View{}, err
	}
	cfg, err := s.settings.Load(ctx)
	if err != nil {
		return View{}, err
	}
	return s.view(c, cfg), nil
}

// Put creates or replaces a card.
func (s *Service) Put(ctx context.Context, c Card) (View, error) {
	if err := Validate(c); err != nil {
		return View{}, err
	}
	data, err := json.Marshal(c)
	if err != nil {
		return View{}, err
	}
	if err := s.table.Put(ctx, store.Item{PK: s.pk(), SK: cardrec.SK(c.Name), Version: 1, Data: data}, store.Condition{}); err != nil {
		return View{}, fmt.Errorf("save card %s: %w", c.Name, err)
	}
	return s.Get(ctx, c.Name)
}

// Delete removes a card; its key stays in settings until cleared there.
func (s *Service) Delete(ctx context.Context, name string) error {
	if _, err := s.card(ctx, name); err != nil {
		return err
	}
	return s.table.Delete(ctx, s.pk(), cardrec.SK(name), store.IfExists())
}

func (s *Service) card(ctx context.Context, name string) (Card, error) {
	if !namePattern.MatchString(name) {
		return Card{}, fmt.Errorf("card name %q: %w", name, ErrInvalid)
	}
	it, err := s.table.Get(ctx, s.pk(), cardrec.SK(name))
	if errors.Is(err, store.ErrNotFound) {
		return Card{}, fmt.Errorf("card %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return Card{}, err
	}
	var c Card
	if err := json.Unmarshal(it.Data, &c); err != nil {
		return Card{}, fmt.Errorf("decode card %s: %w", name, err)
	}
	return c, nil
}

func (s *Service) view(c Card, cfg settings.Settings) View {
	v := View{Card: c, KeyConfigured: cfg.EngineAPIKeys[c.Name] != ""}
	if c.Kind == KindVisionOCR || c.Kind == KindVisionOCRFallback {
		if p, ok := magazine.ParseVisionPreset(c.OCRPreset); ok {
			v.OCRPrompt = p.Prompt()
		}
	}
	switch {
	case c.BaseURL != "":
		v.URL, v.URLSource = c.BaseURL, "card"
	case !s.opts.Hosted && UsualPort(c.Kind) != 0:
		v.URL = "http://" + net.JoinHostPort(s.opts.EngineHost, strconv.Itoa(UsualPort(c.Kind))) + "/v1"
		v.URLSource = "default"
	default:
		v.URLSource = "missing"
	}
	switch {
	case c.DockerHost != "":
		v.DockerURL = c.DockerHost
	case !s.opts.Hosted:
		v.DockerURL = s.opts.DockerDefault
	}
	return v
}

// policy is the URL rule for this call, with the user's allow list.
func (s *Service) policy(cfg settings.Settings) urlsafe.Policy {
	return urlsafe.Policy{Hosted: s.opts.Hosted, Allow: cfg.EngineURLAllowlist, Resolver: s.opts.Resolver}
}

// client checks every connection again at dial time, so a name cannot be
// re-pointed at a forbidden address after Check.
func (s *Service) client(p urlsafe.Policy) *http.Client { return p.HTTPClient(s.opts.Timeout) }

// ContainerStatus reports the card's container.
func (s *Service) ContainerStatus(ctx context.Context, name string) (docker.Status, error) {
	host, container, err := s.docker(ctx, name)
	if err != nil {
		return "", err
	}
	defer host.Close()
	st, err := host.Status(ctx, container)
	if err != nil {
		return "", classify(name, err)
	}
	return st, nil
}

// Container operations.
const (
	OpStart   = "start"
	OpStop    = "stop"
	OpRestart = "restart"
)

// Control starts, stops or restarts the card's container and returns its
// status afterwards.
func (s *Service) Control(ctx context.Context, name, op string) (docker.Status, error) {
	host, container, err := s.docker(ctx, name)
	if err != nil {
		return "", err
	}
	defer host.Close()
	switch op {
	case OpStart:
		err = host.Start(ctx, container)
	case OpStop:
		err = host.Stop(ctx, container)
	case OpRestart:
		err = host.Restart(ctx, container)
	default:
		return "", fmt.Errorf("operation %q: %w", op, ErrInvalid)
	}
	if err != nil {
		return "", classify(name, err)
	}
	st, err := host.Status(ctx, container)
	if err != nil {
		return "", classify(name, err)
	}
	return st, nil
}

func (s *Service) docker(ctx context.Context, name string) (*docker.Host, string, error) {
	c, err := s.card(ctx, name)
	if err != nil {
		return nil, "", err
	}
	if c.Container == "" {
		return nil, "", fmt.Errorf("card %q: %w", name, ErrNoContainer)
	}
	cfg, err := s.settings.Load(ctx)
	if err != nil {
		return nil, "", err
	}
	v := s.view(c, cfg)
	if v.DockerURL == "" {
		return nil, "", fmt.Errorf("card %q has no Docker host (AWS mode assumes none): %w", name, ErrNeedsURL)
	}
	p := s.policy(cfg)
	endpoint, err := url.Parse(v.DockerURL)
	if err != nil {
		return nil, "", fmt.Errorf("card %q docker_host: %w", name, ErrInvalid)
	}
	if endpoint.Scheme == "unix" {
		if s.opts.Hosted {
			return nil, "", fmt.Errorf("card %q: a unix socket is not reachable from the hosted server: %w", name, ErrRefusedURL)
		}
	} else {
		check := *endpoint
		if check.Scheme == "tcp" {
			check.Scheme = "http"
		}
		if _, err := p.Check(ctx, check.String()); err != nil {
			return nil, "", classify(name, err)
		}
	}
	host, err := docker.New(v.DockerURL, s.client(p))
	if err != nil {
		return nil, "", fmt.Errorf("card %q docker_host: %v: %w", name, err, ErrInvalid)
	}
	return host, c.Container, nil
}

// Connect lists the engine's models with the server-resolved key.
func (s *Service) Connect(ctx context.Context, name string) ([]string, error) {
	c, cfg, base, err := s.target(ctx, name)
	if err != nil {
		return nil, err
	}
	p := s.policy(cfg)
	models, err := oaimodels.ListModels(ctx, s.client(p), base, cfg.KeyFor(c.Name))
	if err != nil {
		return nil, classify(name, err)
	}
	return models, nil
}

// Endpoint is how to call a card's engine: its kind, checked base URL
// (ending in /v1), the key the server resolves, and a client that checks
// every connection against the URL rules again.
type Endpoint struct {
	Kind     Kind
	VoiceAPI VoiceAPI // empty: VoiceAPIOpenAI
	Model    string
	BaseURL  string
	Key      string
	Client   *http.Client
}

// Endpoint resolves a card for another feature's engine calls (the voice
// library speaks through TTS cards).
func (s *Service) Endpoint(ctx context.Context, name string) (Endpoint, error) {
	c, cfg, base, err := s.target(ctx, name)
	if err != nil {
		return Endpoint{}, err
	}
	return Endpoint{Kind: c.Kind, VoiceAPI: c.VoiceAPI, Model: c.Model, BaseURL: base, Key: cfg.KeyFor(c.Name), Client: s.client(s.policy(cfg))}, nil
}

// target is a card with its settings and the checked, normalised base URL.
func (s *Service) target(ctx context.Context, name string) (Card, settings.Settings, string, error) {
	c, err := s.card(ctx, name)
	if err != nil {
		return Card{}, settings.Settings{}, "", err
	}
	cfg, err := s.settings.Load(ctx)
	if err != nil {
		return Card{}, settings.Settings{}, "", err
	}
	v := s.view(c, cfg)
	if v.URL == "" {
		return Card{}, settings.Settings{}, "", fmt.Errorf("card %q: set its URL (there is no default in AWS mode): %w", name, ErrNeedsURL)
	}
	base, err := engines.NormalizeLLMURL(v.URL)
	if err != nil {
		return Card{}, settings.Settings{}, "", fmt.Errorf("card %q: %v: %w", name, err, ErrInvalid)
	}
	if _, err := s.policy(cfg).Check(ctx, base); err != nil {
		return Card{}, settings.Settings{}, "", classify(name, err)
	}
	return c, cfg, base, nil
}

// Where the model Use as LLM sets came from.
const (
	ModelFromCard   = "card"   // the card names a model
	ModelFromEngine = "engine" // the first model the engine lists
	ModelNone       = "none"   // neither: llm_model is cleared
)

// ModelChoice says which model Use as LLM set, and why.
type ModelChoice struct {
	Model  string `json:"model" doc:"the llm_model now set; empty when it was cleared"`
	Source string `json:"source" enum:"card,engine,none" doc:"card: the card's own model; engine: the card names none, so the first model the engine lists at /v1/models (as Connect shows them); none: neither, so llm_model was cleared"`
	Reason string `json:"reason" doc:"the choice in words, for the user"`
}

// UseAsLLM makes the card the LLM: llm_url becomes its URL ending in exactly
// one /v1, llm_api_key its resolved key, and llm_model its model. A card
// without a model never keeps the previous card's: the engine's first
// listed model is taken, else llm_model is cleared.
func (s *Service) UseAsLLM(ctx context.Context, name string) (settings.View, ModelChoice, error) {
	c, cfg, base, err := s.target(ctx, name)
	if err != nil {
		return settings.View{}, ModelChoice{}, err
	}
	k := cfg.KeyFor(c.Name)
	choice := ModelChoice{Model: c.Model, Source: ModelFromCard, Reason: fmt.Sprintf("card %q names the model %q", c.Name, c.Model)}
	if c.Model == "" {
		models, err := oaimodels.ListModels(ctx, s.client(s.policy(cfg)), base, k)
		switch {
		case err != nil:
			choice = ModelChoice{Source: ModelNone, Reason: fmt.Sprintf("card %q names no model and its engine did not list any (%v); llm_model was cleared", c.Name, err)}
		case len(models) == 0:
			choice = ModelChoice{Source: ModelNone, Reason: fmt.Sprintf("card %q names no model and its engine lists none; llm_model was cleared", c.Name)}
		default:
			choice = ModelChoice{Model: models[0], Source: ModelFromEngine, Reason: fmt.Sprintf("card %q names no model; %q is the first of the %d its engine lists", c.Name, models[0], len(models))}
		}
	}
	view, err := s.settings.Update(ctx, settings.Update{LLMURL: &base, LLMAPIKey: &k, LLMModel: &choice.Model})
	return view, choice, err
}

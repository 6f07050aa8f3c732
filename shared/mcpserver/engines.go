package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// engineTools are the engines toolset: the engine cards, their containers,
// models, the LLM choice and keys.
func engineTools(d deps) []Tool {
	return []Tool{listEngines(d), getEngineStatus(d), connectEngine(d), useEngineAsLLM(d), setEngineKey(d)}
}

type card struct {
	Name          string `json:"name"`
	Kind          string `json:"kind"`
	URL           string `json:"url"`
	URLSource     string `json:"url_source"`
	Model         string `json:"model,omitempty"`
	Container     string `json:"container,omitempty"`
	VoiceAPI      string `json:"voice_api,omitempty"`
	OCRPreset     string `json:"ocr_preset,omitempty"`
	KeyConfigured bool   `json:"key_configured"`
}

func cards(ctx context.Context, api *Client) ([]card, error) {
	var out struct {
		Cards []card `json:"cards"`
	}
	if err := api.get(ctx, "/api/engines", nil, &out); err != nil {
		return nil, err
	}
	return out.Cards, nil
}

func findCard(ctx context.Context, api *Client, name string) (card, error) {
	all, err := cards(ctx, api)
	if err != nil {
		return card{}, err
	}
	i := slices.IndexFunc(all, func(c card) bool { return c.Name == name })
	if i < 0 {
		return card{}, &StatusError{Method: http.MethodGet, Path: "/api/engines", Status: http.StatusNotFound, Detail: "no engine card named " + name}
	}
	return all[i], nil
}

func cardPath(name string) string { return "/api/engines/" + seg(name) }

type engineIn struct {
	Engine string `json:"engine" jsonschema:"the engine card's name, as lectern_list_engines shows it"`
	Format
}

// --- lectern_list_engines

type listEnginesIn struct {
	Paging
	Format
}

type cardList struct{ Page[card] }

func (l cardList) Markdown() string {
	var b strings.Builder
	b.WriteString("# Engine cards\n\n")
	if l.Total == 0 {
		b.WriteString("No engine cards yet: Lectern uses its built-in engines (PDF text layer, Tesseract, espeak-ng).\n")
	}
	for _, c := range l.Items {
		key := "no key of its own"
		if c.KeyConfigured {
			key = "key set"
		}
		preset := ""
		if c.OCRPreset != "" {
			preset = ", reads as " + c.OCRPreset
		}
		fmt.Fprintf(&b, "- **%s** (%s): %s (URL from %s), model %s%s, %s\n", c.Name, c.Kind, orNone(c.URL), c.URLSource, orNone(c.Model), preset, key)
	}
	b.WriteString(more(l.Total, l.Count, l.Offset, l.NextOffset))
	return b.String()
}

func listEngines(d deps) Tool {
	return newTool(ToolsetEngines, spec{
		name: "lectern_list_engines", title: "List engine cards",
		doc: doc{
			purpose: "List the engine cards: each engine Lectern may call (LLM, vision OCR, TTS, image), the URL it will use and whether it has its own key.",
			notDo:   "call the engines (use lectern_get_engine_status or lectern_connect_engine) or show keys (they are never returned).",
			returns: "a page of cards (name, kind, url, url_source, model, container, voice_api, ocr_preset, key_configured).",
			use:     "to find a card's name before the other engine tools.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in listEnginesIn) (any, error) {
		all, err := cards(ctx, d.api)
		if err != nil {
			return nil, err
		}
		return cardList{paginate(all, in.Paging)}, nil
	})
}

// --- lectern_get_engine_status

type engineStatus struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

func (s engineStatus) Markdown() string {
	return fmt.Sprintf("Engine **%s**: %s\n", s.Name, s.Status)
}

func getEngineStatus(d deps) Tool {
	return newTool(ToolsetEngines, spec{
		name: "lectern_get_engine_status", title: "Get an engine's status",
		doc: doc{
			purpose: "Ask the engine card's Docker host for its container's state: running, stopped, restarting, unhealthy or not-installed.",
			notDo:   "start, stop or restart the container, or check the engine's models.",
			returns: "name and status.",
			use:     "when an engine does not answer, to see whether its container runs.",
			errors:  "the card needs a container and a Docker host; an unreachable host answers 502.",
		},
		hints: hints{readOnly: true, idempotent: true, openWorld: true},
	}, d.log, nil, func(ctx context.Context, c *call, in engineIn) (any, error) {
		var s engineStatus
		if err := d.api.get(ctx, cardPath(in.Engine)+"/status", nil, &s); err != nil {
			return nil, err
		}
		return s, nil
	})
}

// --- lectern_connect_engine

type connectIn struct {
	Engine string `json:"engine" jsonschema:"the engine card's name, as lectern_list_engines shows it"`
	Paging
	Format
}

type connected struct {
	Name   string       `json:"name"`
	URL    string       `json:"url"`
	Models Page[string] `json:"models"`
}

func (x connected) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Connected to **%s** at %s. Models:\n", x.Name, x.URL)
	for _, m := range x.Models.Items {
		fmt.Fprintf(&b, "- %s\n", m)
	}
	b.WriteString(more(x.Models.Total, x.Models.Count, x.Models.Offset, x.Models.NextOffset))
	return b.String()
}

func connectEngine(d deps) Tool {
	return newTool(ToolsetEngines, spec{
		name: "lectern_connect_engine", title: "Connect to an engine",
		doc: doc{
			purpose: "Connect to an engine card's endpoint with the key the server holds for it and list the models it offers (GET /v1/models).",
			notDo:   "change the card or the settings (use lectern_use_engine_as_llm to choose it).",
			returns: "name, url and a page of model names.",
			use:     "to check an engine answers and its key works, or to see which models it has.",
			errors:  "the engine refusing the key or not answering comes back as the API's status (401/502) with its reason.",
		},
		hints: hints{readOnly: true, idempotent: true, openWorld: true},
	}, d.log, nil, func(ctx context.Context, c *call, in connectIn) (any, error) {
		var out struct {
			Name   string   `json:"name"`
			URL    string   `json:"url"`
			Models []string `json:"models"`
		}
		if err := d.api.do(ctx, request{method: http.MethodPost, path: cardPath(in.Engine) + "/connect"}, &out); err != nil {
			return nil, err
		}
		return connected{Name: out.Name, URL: out.URL, Models: paginate(out.Models, in.Paging)}, nil
	})
}

// --- lectern_use_engine_as_llm

type llmChosen struct {
	Engine string `json:"engine"`
	LLMURL string `json:"llm_url"`
	Model  string `json:"llm_model"`
	Source string `json:"model_source"`
	Reason string `json:"reason"`
}

func (x llmChosen) Markdown() string {
	return fmt.Sprintf("**%s** is now the LLM: %s, model %s. %s\n", x.Engine, x.LLMURL, orNone(x.Model), x.Reason)
}

func useEngineAsLLM(d deps) Tool {
	return newTool(ToolsetEngines, spec{
		name: "lectern_use_engine_as_llm", title: "Use an engine as the LLM",
		doc: doc{
			purpose: "Make an engine card the LLM: its URL (ending in /v1) and key become llm_url and llm_api_key, and its model (or the first one the engine lists) llm_model.",
			notDo:   "return or show any key.",
			returns: "engine, llm_url, llm_model, model_source (card, engine or none) and the reason for the model chosen.",
			use:     "to switch Lectern's LLM to another engine.",
			errors:  "a card that is not an LLM, or has no URL, is refused (400/422).",
		},
		hints: hints{destructive: true, idempotent: true, openWorld: true},
	}, d.log, nil, func(ctx context.Context, c *call, in engineIn) (any, error) {
		var out struct {
			LLMURL      string `json:"llm_url"`
			ModelChoice struct {
				Model  string `json:"model"`
				Source string `json:"source"`
				Reason string `json:"reason"`
			} `json:"model_choice"`
		}
		if err := d.api.do(ctx, request{method: http.MethodPost, path: cardPath(in.Engine) + "/use-as-llm"}, &out); err != nil {
			return nil, err
		}
		c.info(ctx, "LLM chosen", "engine", in.Engine, "model", out.ModelChoice.Model)
		return llmChosen{Engine: in.Engine, LLMURL: out.LLMURL, Model: out.ModelChoice.Model, Source: out.ModelChoice.Source, Reason: out.ModelChoice.Reason}, nil
	})
}

// --- lectern_set_engine_key

type keyRequest struct {
	Engine        string `json:"engine"`
	SettingsURL   string `json:"settings_url"`
	Action        string `json:"action"`
	KeyConfigured bool   `json:"key_configured"`
}

func (k keyRequest) Markdown() string {
	switch k.Action {
	case "accept":
		if k.KeyConfigured {
			return fmt.Sprintf("Engine **%s** has a key now. Lectern keeps it; it is never shown.\n", k.Engine)
		}
		return fmt.Sprintf("The Engines page was opened (%s), but engine **%s** has no key yet. Once it is saved there, lectern_list_engines shows key set.\n", k.SettingsURL, k.Engine)
	case "unsupported":
		return fmt.Sprintf("This client cannot open a page for the key. Open %s and set the key of engine **%s** there; keys are never passed through this chat.\n", k.SettingsURL, k.Engine)
	default:
		return fmt.Sprintf("The key was not set (%s). Engine **%s** key set: %t.\n", k.Action, k.Engine, k.KeyConfigured)
	}
}

func setEngineKey(d deps) Tool {
	return newTool(ToolsetEngines, spec{
		name: "lectern_set_engine_key", title: "Set an engine's key",
		doc: doc{
			purpose: "Ask the user to set an engine card's API key on Lectern's Engines page: the client is asked to open the page (URL-mode " +
				"elicitation), the key goes from the user's browser to Lectern, and the tool then reports whether the card has a key.",
			notDo: "take the key as an argument or return it: keys never pass through the model or this server.",
			returns: "engine, settings_url, action (accept, decline, cancel, or unsupported when the client cannot open URLs; then the user " +
				"opens settings_url by hand) and key_configured.",
			use:    "when an engine answers 401 or has no key. Not to read keys: Lectern never returns them.",
			errors: "an unknown card answers not found.",
		},
		hints: hints{destructive: true, idempotent: true, openWorld: true},
	}, d.log, nil, func(ctx context.Context, c *call, in engineIn) (any, error) {
		out := keyRequest{Engine: in.Engine, SettingsURL: d.webURL() + "/#/engines"}
		if responses, state := c.responses(); responses != nil {
			return keyAnswered(ctx, c, d, out, responses, state)
		}
		before, err := findCard(ctx, d.api, in.Engine)
		if err != nil {
			return nil, err
		}
		out.KeyConfigured = before.KeyConfigured
		if !canOpenURLs(c.req) {
			out.Action = "unsupported"
			return out, nil
		}
		id := make([]byte, 12)
		_, _ = rand.Read(id) // crypto/rand.Read never fails
		c.debug(ctx, "asking the user to open the Engines page", "engine", in.Engine)
		return inputRequired{
			requests: mcp.InputRequestMap{keyRequestID: &mcp.ElicitParams{
				Mode:          "url",
				Message:       fmt.Sprintf("Set the API key of Lectern's engine card %q on its Engines page. The key goes from your browser to Lectern only.", in.Engine),
				URL:           out.SettingsURL,
				ElicitationID: hex.EncodeToString(id),
			}},
			state: fmt.Sprintf("%s %t", hex.EncodeToString(id), before.KeyConfigured),
		}, nil
	})
}

// keyRequestID names the URL elicitation among a call's input requests.
const keyRequestID = "engine_key_page"

// keyAnswered finishes set_engine_key once the client answered the URL
// elicitation: after an accept it watches the card for its key.
func keyAnswered(ctx context.Context, c *call, d deps, out keyRequest, responses mcp.InputResponseMap, state string) (any, error) {
	res, ok := responses[keyRequestID].(*mcp.ElicitResult)
	if !ok {
		return nil, fmt.Errorf("%w: the client answered no %s request", ErrInvalid, keyRequestID)
	}
	id, had, _ := strings.Cut(state, " ")
	out.Action = res.Action
	if res.Action != "accept" {
		card, err := findCard(ctx, d.api, out.Engine)
		if err != nil {
			return nil, err
		}
		out.KeyConfigured = card.KeyConfigured
	} else {
		after, err := waitForKey(ctx, d, out.Engine, had == "true")
		if err != nil {
			return nil, err
		}
		out.KeyConfigured = after
		if after && id != "" && c.req.Session != nil {
			// Tells the client the page's work is done; a client that does
			// not follow elicitation ids ignores it.
			_ = c.req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: id})
		}
	}
	c.info(ctx, "engine key requested", "engine", out.Engine, "action", out.Action, "key_configured", out.KeyConfigured)
	return out, nil
}

// keyWait is how long set_engine_key watches for a key saved on the page.
const keyWait = 2 * time.Minute

// waitForKey polls the card until it has a key (when it had none), for up
// to keyWait; a card that had one answers at once.
func waitForKey(ctx context.Context, d deps, name string, had bool) (bool, error) {
	deadline := time.Now().Add(min(keyWait, d.opts.Wait))
	for {
		c, err := findCard(ctx, d.api, name)
		if err != nil {
			return false, err
		}
		if had || c.KeyConfigured || time.Now().After(deadline) {
			return c.KeyConfigured, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(d.opts.PollInterval):
		}
	}
}

// canOpenURLs reports whether the client declared URL-mode elicitation. A
// request with no capabilities known (an older client over stateless HTTP,
// which cannot be asked anything) cannot.
func canOpenURLs(req *mcp.CallToolRequest) bool {
	if req == nil || req.Session == nil {
		return false
	}
	p := req.Session.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil && p.Capabilities.Elicitation.URL != nil
}

func (d deps) webURL() string {
	if d.opts.WebURL != "" {
		return strings.TrimRight(d.opts.WebURL, "/")
	}
	return d.api.BaseURL()
}

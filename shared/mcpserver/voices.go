package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// voiceTools are the voices toolset: search the shared library, preview.
func voiceTools(d deps) []Tool {
	return []Tool{searchVoices(d), previewVoice(d)}
}

type voice struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Language    string   `json:"language"`
	Accent      string   `json:"accent,omitempty"`
	Gender      string   `json:"gender,omitempty"`
	Age         string   `json:"age,omitempty"`
	Tags        []string `json:"tags"`
	Source      string   `json:"source"`
	Engine      string   `json:"engine"`
	EngineVoice string   `json:"engine_voice,omitempty"`
	Preview     string   `json:"preview,omitempty"`
	Version     int64    `json:"version"`
}

func (v voice) line() string {
	var attrs []string
	for _, a := range []string{v.Language, v.Accent, v.Gender, strings.ReplaceAll(v.Age, "_", " ")} {
		if a != "" {
			attrs = append(attrs, a)
		}
	}
	s := fmt.Sprintf("- **%s** (%s): %s; %s voice on %s", v.Name, v.ID, strings.Join(attrs, ", "), v.Source, v.Engine)
	if v.Description != "" {
		s += " — " + oneLine(v.Description, 200)
	}
	if len(v.Tags) > 0 {
		s += " [" + strings.Join(v.Tags, ", ") + "]"
	}
	return s + "\n"
}

// --- lectern_search_voices

type searchVoicesIn struct {
	Query    string `json:"query,omitempty" jsonschema:"words to find in name, description and tags (all of them, ignoring case); omit to list every voice the filters select"`
	Language string `json:"language,omitempty" jsonschema:"BCP 47 language tag; en also finds en-us and en-gb"`
	Gender   string `json:"gender,omitempty" jsonschema:"female, male or neutral"`
	Age      string `json:"age,omitempty" jsonschema:"young, middle_aged or old"`
	Source   string `json:"source,omitempty" jsonschema:"builtin, engine, clone or design"`
	Engine   string `json:"engine,omitempty" jsonschema:"engine card name, or espeak-ng for the built-in engine"`
	Paging
	Format
}

// voiceSearch is the spec's search result shape, with voices for users.
type voiceSearch struct {
	Total      int     `json:"total"`
	Count      int     `json:"count"`
	Offset     int     `json:"offset"`
	Voices     []voice `json:"voices"`
	HasMore    bool    `json:"has_more"`
	NextOffset *int    `json:"next_offset"`
	asked      string  // what the search asked for, for the no-match text
}

func (r voiceSearch) Markdown() string {
	if r.Total == 0 {
		return fmt.Sprintf("No voices found matching '%s'", r.asked)
	}
	var b strings.Builder
	if r.asked != "" {
		fmt.Fprintf(&b, "# Voices matching '%s'\n\n", r.asked)
	} else {
		b.WriteString("# Voices\n\n")
	}
	for _, v := range r.Voices {
		b.WriteString(v.line())
	}
	b.WriteString(more(r.Total, r.Count, r.Offset, r.NextOffset))
	return b.String()
}

func searchVoices(d deps) Tool {
	return newTool(ToolsetVoices, spec{
		name: "lectern_search_voices", title: "Search voices",
		doc: doc{
			purpose: "Search the shared voice library by words and filters (language, gender, age, source, engine), best match first.",
			notDo:   "create, clone, design or change voices, or make audio (use lectern_preview_voice to hear one).",
			returns: "JSON total, count, offset, voices (id, name, description, language, accent, gender, age, tags, source, engine), has_more, " +
				"next_offset. No match answers the text \"No voices found matching '<query>'\" (json: total 0), which is not an error.",
			use: "to pick a voice id for a narration or a character.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "query", length(2, 200))
		set(s, "language", length(2, 35))
		set(s, "gender", oneOf("female", "male", "neutral"))
		set(s, "age", oneOf("young", "middle_aged", "old"))
		set(s, "source", oneOf("builtin", "engine", "clone", "design"))
		set(s, "engine", length(1, 64))
	}, func(ctx context.Context, c *call, in searchVoicesIn) (any, error) {
		q := url.Values{}
		for k, v := range map[string]string{"q": in.Query, "language": in.Language, "gender": in.Gender, "age": in.Age, "source": in.Source, "engine": in.Engine} {
			if v != "" {
				q.Set(k, v)
			}
		}
		q.Set("limit", strconv.Itoa(in.Limit))
		q.Set("offset", strconv.Itoa(in.Offset))
		var page Page[voice]
		if err := d.api.get(ctx, "/api/voices", q, &page); err != nil {
			return nil, err
		}
		return voiceSearch{Total: page.Total, Count: page.Count, Offset: page.Offset, Voices: nonNil(page.Items),
			HasMore: page.HasMore, NextOffset: page.NextOffset, asked: searchWords(in)}, nil
	})
}

// searchWords is what a search asked for, for the no-match text.
func searchWords(in searchVoicesIn) string {
	var parts []string
	for _, p := range []string{in.Query, in.Language, in.Gender, in.Age, in.Source, in.Engine} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

// --- lectern_preview_voice

type previewIn struct {
	VoiceID string `json:"voice_id" jsonschema:"the voice id, as lectern_search_voices shows it"`
	Format
}

type preview struct {
	VoiceID     string `json:"voice_id"`
	Text        string `json:"text"`
	URL         string `json:"url"`
	ContentType string `json:"content_type"`
	Cached      bool   `json:"cached"`
}

func (p preview) Markdown() string {
	made := "made now"
	if p.Cached {
		made = "made earlier"
	}
	return fmt.Sprintf("Voice %s says: \"%s\" (%s, %s).\n\nListen: %s (valid for an hour)\n", p.VoiceID, p.Text, p.ContentType, made, p.URL)
}

func previewVoice(d deps) Tool {
	return newTool(ToolsetVoices, spec{
		name: "lectern_preview_voice", title: "Preview a voice",
		doc: doc{
			purpose: "Make a voice speak its sample sentence and give a link to the audio; the first preview calls the voice's engine, later ones reuse the sample.",
			notDo:   "speak text of your choosing or narrate articles.",
			returns: "voice_id, text (what it says), url (the audio, valid for an hour), content_type, cached.",
			use:     "to hear a voice before choosing it.",
			errors:  "the voice's engine failing answers the API's status (502/503) with its reason.",
		},
		hints: hints{idempotent: true, openWorld: true},
	}, d.log, nil, func(ctx context.Context, c *call, in previewIn) (any, error) {
		var p preview
		if err := d.api.do(ctx, request{method: http.MethodPost, path: "/api/voices/" + seg(in.VoiceID) + "/preview"}, &p); err != nil {
			return nil, err
		}
		p.URL = d.api.absolute(p.URL)
		c.info(ctx, "voice previewed", "voice", in.VoiceID, "cached", p.Cached)
		return p, nil
	})
}

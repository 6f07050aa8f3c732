// Package listenapi is listening to approved articles over HTTP: narrate an
// article, or a whole issue with a chapter per approved article, as a
// speech render; and an article's two-host podcast: write its script as a
// background job (the LLM from Settings, grounded, or deterministic), read
// and edit it, and voice it with the two hosts.
package listenapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/httpapi/speechapi"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/podcast"
	"github.com/lectern/lectern/shared/readaloud"
	"github.com/lectern/lectern/shared/review"
	"github.com/lectern/lectern/shared/speech/render"
)

// DialLLM makes the client of a checked LLM endpoint. The wiring that
// runs jobs passes oaichat's (features.All); this package does not import
// it, so the API Lambda links no LLM client (openai-go's package
// initialisers alone would put it over the 15 MB budget of issue 15).
type DialLLM func(base, key, model string, timeout time.Duration, client *http.Client) readaloud.Chat

// Module is listening with the podcast script job, as the local server and
// the job worker run it; dial makes the LLM's client. The renders it
// starts are the speech module's job.
func Module(dial DialLLM) platform.New {
	return func(d *platform.Deps) (platform.Module, error) {
		svc, pods := build(d, dial)
		return platform.Module{
			Name:       "listen",
			Operations: Operations(svc, pods),
			Jobs:       map[string]jobs.Handler{readaloud.ScriptJobKind: pods.ScriptJob},
		}, nil
	}
}

// API is listening as its API Lambda serves it: the operations only, the
// worker writing the scripts.
func API(d *platform.Deps) (platform.Module, error) {
	svc, pods := build(d, nil)
	return platform.Module{Name: "listen", Operations: Operations(svc, pods)}, nil
}

func build(d *platform.Deps, dial DialLLM) (*readaloud.Service, *readaloud.Podcasts) {
	svc := readaloud.NewService(issues.NewRepo(d.Table, d.Clock), review.New(d.Table, d.Clock), speechapi.NewRenderService(d))
	return svc, readaloud.NewPodcasts(svc, d.Table, d.Jobs, settingsLLM(d, dial), d.Clock)
}

// LLMTimeout bounds one LLM call: a long script is a long answer.
const LLMTimeout = 3 * time.Minute

// settingsLLM is the LLM from the current Settings (platform.Deps.LLM: its
// URL checked before it is called, and again at every dial), with the
// errors readaloud files. Without dial (the API Lambda) the check is all it
// does: StartScript settles the mode from it, and the chat it answers
// refuses to be asked.
func settingsLLM(d *platform.Deps, dial DialLLM) func(context.Context) (readaloud.Chat, error) {
	return func(ctx context.Context) (readaloud.Chat, error) {
		ep, err := d.LLM(ctx)
		switch {
		case errors.Is(err, platform.ErrNoLLM):
			return nil, readaloud.ErrNoLLM
		case fault.KindOf(err) == fault.Invalid:
			return nil, fmt.Errorf("%w: %v", readaloud.ErrInvalid, err)
		case err != nil:
			return nil, err
		case dial == nil:
			return workerOnly{}, nil
		}
		return dial(ep.BaseURL, ep.Key, ep.Model, LLMTimeout, ep.Client), nil
	}
}

// workerOnly is the LLM where scripts are not written (the API Lambda).
type workerOnly struct{}

func (workerOnly) ChatJSON(context.Context, string, string) (string, error) {
	return "", fmt.Errorf("%w: podcast scripts are written by the job worker, not this function", readaloud.ErrLLM)
}

// Operations lists the listen operations.
func Operations(svc *readaloud.Service, pods *readaloud.Podcasts) []httpapi.Operation {
	return []httpapi.Operation{
		listenArticle(svc), listenIssue(svc),
		startPodcastScript(pods), getPodcastScript(pods), editPodcastScript(pods), voicePodcast(pods),
	}
}

var tags = []string{"listen"}

// DocPath names an issue.
type DocPath struct {
	Doc string `path:"doc" pattern:"^[a-z0-9]{8,40}$" doc:"issue id"`
}

// ArticlePath names an article.
type ArticlePath struct {
	DocPath
	Article string `path:"article" pattern:"^[a-z0-9]{4,40}$"`
}

const articlePath = "/api/magazine/{doc}/articles/{article}"

// ListenBody asks for a narration.
type ListenBody struct {
	VoiceID      string  `json:"voice_id" pattern:"^[a-z0-9][a-z0-9._-]{0,99}$" doc:"the narrator: a voice of the library"`
	Descriptions bool    `json:"descriptions,omitempty" doc:"read each picture's description where the picture occurs (default false); a picture without one is skipped"`
	SkipTables   bool    `json:"skip_tables,omitempty" doc:"leave tables out (default false: a table is read as its caption, then row by row with the column headings)"`
	Speed        float64 `json:"speed,omitempty" minimum:"0" maximum:"4" doc:"multiple of the normal rate, 0.25..4; 0 or absent is 1"`
	Check        *bool   `json:"check,omitempty" doc:"hear every chunk with the ear (speech recognition) beside the render; absent follows Settings (ear_check, on unless switched off)"`
}

// RenderOut is the render a listen operation started: follow it at
// /api/speech/renders/{id}.
type RenderOut struct {
	Status   int
	Location string `header:"Location" doc:"the render's status URL"`
	Body     render.Status
}

func rendered(st render.Status, err error) (*RenderOut, error) {
	if err != nil {
		return nil, err
	}
	return &RenderOut{Status: http.StatusAccepted, Location: "/api/speech/renders/" + st.ID, Body: st}, nil
}

func listenArticle(svc *readaloud.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "listen-article", Method: http.MethodPost, Path: articlePath + "/listen",
		Summary: "Narrate an approved article as a speech render (its id works with /api/speech/renders/{id}, /chunks and /audio): " +
			"the title as the first sentence, then the text, pictures' descriptions only when asked; the byline is the file's artist. " +
			"An article not approved, or changed since it was, answers 409",
		Tags: tags, DefaultStatus: http.StatusAccepted,
	}, func(ctx context.Context, in *struct {
		ArticlePath
		Body struct {
			ListenBody
			Format string `json:"format,omitempty" enum:"mp3,m4b" default:"mp3" doc:"mp3 (default) or m4b"`
		}
	}) (*RenderOut, error) {
		b := in.Body
		return rendered(svc.ListenArticle(ctx, in.Doc, in.Article, readaloud.Listen{VoiceID: b.VoiceID, Descriptions: b.Descriptions, SkipTables: b.SkipTables, Format: or(b.Format, render.FormatMP3), Speed: b.Speed, Check: b.Check}))
	})
}

func listenIssue(svc *readaloud.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "listen-issue", Method: http.MethodPost, Path: "/api/magazine/{doc}/listen",
		Summary: "Narrate every approved article of an issue as one speech render, a chapter per article (titled with it) in the order the issue prints them; " +
			"an issue without an approved article answers 409",
		Tags: tags, DefaultStatus: http.StatusAccepted,
	}, func(ctx context.Context, in *struct {
		DocPath
		Body struct {
			ListenBody
			Format string `json:"format,omitempty" enum:"mp3,m4b" default:"m4b" doc:"m4b (default: chapters for audiobook players) or mp3"`
		}
	}) (*RenderOut, error) {
		b := in.Body
		return rendered(svc.ListenIssue(ctx, in.Doc, readaloud.Listen{VoiceID: b.VoiceID, Descriptions: b.Descriptions, SkipTables: b.SkipTables, Format: or(b.Format, render.FormatM4B), Speed: b.Speed, Check: b.Check}))
	})
}

func startPodcastScript(pods *readaloud.Podcasts) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "start-podcast-script", Method: http.MethodPost, Path: articlePath + "/podcast",
		Summary: "Write the two hosts' script of an approved article as a background job. mode llm: the LLM from Settings writes it, grounded in the article; " +
			"a script with invented numbers, names or quotations is asked for again (at most 3 calls) and, if every answer has some, the best is stored flagged. " +
			"A script more than 15% over the minutes is cut at a turn boundary, keeping its closing. mode deterministic: the hosts read the paragraphs in turn. " +
			"The script is stored on the article's podcast record (GET it); an LLM failure fails the job and is recorded there, keeping the previous script, " +
			"and an edit saved while the job runs is kept (the job fails saying so)",
		Tags: tags, DefaultStatus: http.StatusAccepted,
	}, func(ctx context.Context, in *struct {
		ArticlePath
		Body struct {
			Hosts   []readaloud.Host `json:"hosts" minItems:"2" maxItems:"2" doc:"the two hosts; host 0 opens"`
			Minutes int              `json:"minutes,omitempty" minimum:"1" maximum:"30" default:"5" doc:"the length to aim at (LLM scripts)"`
			Mode    string           `json:"mode,omitempty" enum:"llm,deterministic" doc:"default: llm when Settings have an LLM, else deterministic"`
		}
	}) (*jobsapi.JobStartedOut, error) {
		b := in.Body
		req := readaloud.ScriptRequest{Minutes: b.Minutes, Mode: b.Mode}
		for i, h := range b.Hosts {
			req.Hosts[i] = podcast.Host{Name: h.Name, VoiceID: h.VoiceID}
		}
		return jobsapi.Started(pods.StartScript(ctx, in.Doc, in.Article, req))
	})
}

// ScriptOut is an article's podcast record.
type ScriptOut struct {
	ETag string `header:"ETag" doc:"the record's version; send it as If-Match with an edit"`
	Body readaloud.Record
}

func scriptOut(r readaloud.Record, err error) (*ScriptOut, error) {
	if err != nil {
		return nil, err
	}
	return &ScriptOut{ETag: strconv.Quote(strconv.FormatInt(r.Version, 10)), Body: r}, nil
}

func getPodcastScript(pods *readaloud.Podcasts) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-podcast-script", Method: http.MethodGet, Path: articlePath + "/podcast",
		Summary: "An article's podcast record: the script (title, hosts, turns), where it came from, its grounding violations, its length, and the last generation's error; 404 before any",
		Tags:    tags,
	}, func(ctx context.Context, in *ArticlePath) (*ScriptOut, error) {
		return scriptOut(pods.Script(ctx, in.Doc, in.Article))
	})
}

// maxEditBody bounds an edit: the largest script, twice over for JSON's escapes.
const maxEditBody = 2*readaloud.MaxScriptBytes + 64<<10

func editPodcastScript(pods *readaloud.Podcasts) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "edit-podcast-script", Method: http.MethodPut, Path: articlePath + "/podcast",
		Summary: fmt.Sprintf("Replace the script's turns (and, optionally, hosts) with an edit made on the version in If-Match (another version answers 409). "+
			"The grounding check runs again and its violations are stored: an edited script is flagged, never refused. At most %d turns of %d bytes, %d bytes in all",
			readaloud.MaxTurns, readaloud.MaxTurnBytes, readaloud.MaxScriptBytes),
		Tags: tags, MaxBodyBytes: maxEditBody,
	}, func(ctx context.Context, in *struct {
		ArticlePath
		IfMatch string `header:"If-Match" required:"true" doc:"the record's ETag (its version) the edit was made on"`
		Body    struct {
			Turns []readaloud.Turn `json:"turns" minItems:"1" maxItems:"400"`
			Hosts []readaloud.Host `json:"hosts,omitempty" minItems:"2" maxItems:"2" doc:"new hosts; absent keeps them"`
		}
	}) (*ScriptOut, error) {
		v, err := strconv.ParseInt(strings.Trim(strings.TrimPrefix(in.IfMatch, "W/"), `"`), 10, 64)
		if err != nil || v <= 0 {
			return nil, huma.Error400BadRequest("If-Match must be the podcast record's ETag (its version number)")
		}
		return scriptOut(pods.EditScript(ctx, in.Doc, in.Article, v, readaloud.Edit{Turns: in.Body.Turns, Hosts: in.Body.Hosts}))
	})
}

func voicePodcast(pods *readaloud.Podcasts) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "voice-podcast", Method: http.MethodPost, Path: articlePath + "/podcast/voice",
		Summary: "Voice the stored podcast script as a speech render: one chapter whose segments are the turns, each in its host's voice",
		Tags:    tags, DefaultStatus: http.StatusAccepted,
	}, func(ctx context.Context, in *struct {
		ArticlePath
		Body *struct {
			Format string `json:"format,omitempty" enum:"mp3,m4b" default:"mp3" doc:"mp3 (default) or m4b"`
		} `required:"false"`
	}) (*RenderOut, error) {
		format := render.FormatMP3
		if in.Body != nil {
			format = or(in.Body.Format, format)
		}
		return rendered(pods.VoiceScript(ctx, in.Doc, in.Article, format))
	})
}

// or is v, or fallback when v is empty (a default huma did not fill in).
func or(v, fallback string) string {
	if v == "" {
		return fallback
	}
	return v
}

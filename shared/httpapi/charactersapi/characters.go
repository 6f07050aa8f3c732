// Package charactersapi is the Characters feature over HTTP (issue 17):
// sets of characters extracted from a book or pasted text, their
// appearance forms and overrides, the deterministic prompts and their
// fingerprint, and image generation and review as background jobs.
//
// Module is the feature as the local server and the job worker run it,
// with the engine clients its jobs call (an image engine card, the LLM and
// the vision engine from Settings) made by the dials features passes in;
// API is the operations only, so the API Lambda links no engine client
// (openai-go alone would put it over its 15 MB budget).
package charactersapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/characters"
	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/engines/urlsafe"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/store"
)

// Dials make the engine clients the jobs call; features passes
// oaichat's and imagegen's.
type Dials struct {
	// LLM is the fact extractor at a checked LLM URL.
	LLM func(base, key, model string, timeout time.Duration, client *http.Client) cast.LLM
	// Vision is the vision engine at a checked URL.
	Vision func(base, key, model string, client *http.Client) characters.Vision
	// Image is the image engine of a resolved image card.
	Image func(ep cards.Endpoint) characters.Painter
}

// Module is the Characters feature with its jobs.
func Module(dials Dials) platform.New {
	return func(d *platform.Deps) (platform.Module, error) {
		svc := build(d, &dials)
		return platform.Module{
			Name:       "characters",
			Operations: Operations(svc),
			Jobs: map[string]jobs.Handler{
				characters.ExtractJobKind: svc.ExtractJob,
				characters.ImageJobKind:   svc.ImageJob,
				characters.ReviewJobKind:  svc.ReviewJob,
			},
		}, nil
	}
}

// API is the feature as its Lambda serves it: the operations only; the
// worker runs the jobs.
func API(d *platform.Deps) (platform.Module, error) {
	return platform.Module{Name: "characters", Operations: Operations(build(d, nil))}, nil
}

func build(d *platform.Deps, dials *Dials) *characters.Service {
	var eng characters.Engines
	if dials != nil {
		eng = engineSources(d, *dials)
	}
	return characters.NewService(d.Table, d.Blobs, d.Jobs, BookTexts{Table: d.Table, Blobs: d.Blobs}, eng, d.Clock)
}

// LLMTimeout bounds one LLM call of the extraction.
const LLMTimeout = 3 * time.Minute

// VisionKeyCard is the engine_api_keys entry of the vision engine, as the
// OCR chain uses it.
const VisionKeyCard = "vision-ocr"

func engineSources(d *platform.Deps, dials Dials) characters.Engines {
	return characters.Engines{
		LLM: func(ctx context.Context) (cast.LLM, error) {
			s, err := d.Settings.Load(ctx)
			if err != nil {
				return nil, jobs.Transient(fmt.Errorf("load settings: %w", err))
			}
			if strings.TrimSpace(s.LLMURL) == "" || dials.LLM == nil {
				return nil, nil // rules only
			}
			base, client, err := checked(ctx, d, s.LLMURL, s.EngineURLAllowlist)
			if err != nil {
				return nil, err
			}
			return dials.LLM(base, s.LLMAPIKey, s.LLMModel, LLMTimeout, client), nil
		},
		Vision: func(ctx context.Context) (characters.Vision, error) {
			s, err := d.Settings.Load(ctx)
			if err != nil {
				return nil, jobs.Transient(fmt.Errorf("load settings: %w", err))
			}
			url := s.VisionOCRURL
			if url == "" {
				url = s.VisionOCRFallbackURL
			}
			if url == "" || dials.Vision == nil {
				return nil, fmt.Errorf("%w: set vision_ocr_url in Settings to have portraits described", characters.ErrNoEngine)
			}
			base, client, err := checked(ctx, d, url, s.EngineURLAllowlist)
			if err != nil {
				return nil, err
			}
			return dials.Vision(base, s.KeyFor(VisionKeyCard), s.VisionOCRModel, client), nil
		},
		Painter: func(ctx context.Context, card string) (characters.Painter, string, error) {
			cs := cards.FromDeps(d)
			if card == "" {
				views, err := cs.List(ctx)
				if err != nil {
					return nil, "", err
				}
				for _, v := range views {
					if v.Kind == cards.KindImage {
						card = v.Name
						break
					}
				}
				if card == "" {
					return nil, "", fmt.Errorf("%w: add an engine card of kind image (an OpenAI-compatible images API) in Engines", characters.ErrNoEngine)
				}
			}
			ep, err := cs.Endpoint(ctx, card)
			switch {
			case errors.Is(err, cards.ErrNotFound):
				return nil, "", fmt.Errorf("%w: there is no engine card %q", characters.ErrNoEngine, card)
			case err != nil:
				return nil, "", err
			case ep.Kind != cards.KindImage:
				return nil, "", fmt.Errorf("%w: engine card %q is a %s card, not image", characters.ErrNoEngine, card, ep.Kind)
			case dials.Image == nil:
				return nil, "", fmt.Errorf("%w: images are made by the job worker", characters.ErrNoEngine)
			}
			return dials.Image(ep), card, nil
		},
	}
}

// checked is an engine URL normalised and allowed by the URL policy, with
// the client that checks it again at every dial.
func checked(ctx context.Context, d *platform.Deps, raw string, allow []string) (string, *http.Client, error) {
	base, err := engines.NormalizeLLMURL(raw)
	if err != nil {
		return "", nil, fmt.Errorf("%w: engine URL %q: %v", characters.ErrInvalid, raw, err)
	}
	policy := urlsafe.Policy{Hosted: d.Hosted(), Allow: allow}
	if _, err := policy.Check(ctx, base); err != nil {
		return "", nil, fmt.Errorf("%w: engine URL is refused: %v", characters.ErrInvalid, err)
	}
	return base, policy.HTTPClient(0), nil
}

// BookTexts reads the audiobook feature's books for extraction: the title
// and text key of BOOK#<id>/META and the text blob. It reads only; the
// book's CHAR# items stay the audiobook feature's.
type BookTexts struct {
	Table store.Table
	Blobs blob.Store
}

// Text returns a book's title and text.
func (b BookTexts) Text(ctx context.Context, id string) (string, string, error) {
	it, err := b.Table.Get(ctx, "BOOK#"+id, "META")
	if errors.Is(err, store.ErrNotFound) {
		return "", "", fmt.Errorf("%w: book %s", characters.ErrNotFound, id)
	}
	if err != nil {
		return "", "", fmt.Errorf("get book %s: %w", id, err)
	}
	var meta struct {
		Title   string `json:"title"`
		TextKey string `json:"text_key"`
		Status  string `json:"status"`
	}
	if err := json.Unmarshal(it.Data, &meta); err != nil || meta.TextKey == "" {
		return "", "", fmt.Errorf("%w: book %s has no text", characters.ErrInvalid, id)
	}
	// A book has its text once its import job made it ready (no status:
	// stored before imports ran as jobs).
	if meta.Status != "" && meta.Status != "ready" { // audiobook.StatusReady, not linked here
		return "", "", fmt.Errorf("%w: book %s is %s, not ready: its characters can be found once it is imported", characters.ErrConflict, id, meta.Status)
	}
	rc, _, err := b.Blobs.Get(ctx, meta.TextKey)
	if err != nil {
		return "", "", fmt.Errorf("read text of book %s: %w", id, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, 64<<20))
	if err != nil {
		return "", "", fmt.Errorf("read text of book %s: %w", id, err)
	}
	return meta.Title, string(data), nil
}

// Operations lists the Characters operations.
func Operations(svc *characters.Service) []httpapi.Operation {
	return []httpapi.Operation{
		listSets(svc), extract(svc), previewPrompts(), getSet(svc), deleteSet(svc),
		getCharacter(svc), editCharacter(svc), addForm(svc),
		generateImage(svc), getImage(svc), reviewForm(svc),
	}
}

var tags = []string{"characters"}

// SetPath names a set of characters.
type SetPath struct {
	Set string `path:"set" pattern:"^[a-f0-9]{16}$" doc:"set id"`
}

// CharacterPath names a character of a set.
type CharacterPath struct {
	SetPath
	Character string `path:"character" pattern:"^[a-z0-9][a-z0-9-]{0,99}$" doc:"character id (a slug of its name)"`
}

// FormPath names an appearance form.
type FormPath struct {
	CharacterPath
	Form string `path:"form" pattern:"^[a-z0-9]{1,40}$" doc:"form id; the base form is base"`
}

const (
	setPath       = "/api/characters/{set}"
	characterPath = setPath + "/{character}"
	formPath      = characterPath + "/forms/{form}"
)

// SetsOut lists the sets.
type SetsOut struct {
	Body struct {
		Sets []characters.Set `json:"sets"`
	}
}

func listSets(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "list-character-sets", Method: http.MethodGet, Path: "/api/characters",
		Summary: "The sets of characters, newest first", Tags: tags,
	}, func(ctx context.Context, _ *struct{}) (*SetsOut, error) {
		sets, err := svc.List(ctx)
		if err != nil {
			return nil, err
		}
		out := &SetsOut{}
		out.Body.Sets = sets
		return out, nil
	})
}

// ExtractOut is a new set and its extraction job.
type ExtractOut struct {
	Status   int
	Location string `header:"Location" doc:"the job's status URL"`
	Body     struct {
		Set       characters.Set `json:"set"`
		JobID     string         `json:"job_id"`
		StatusURL string         `json:"status_url" doc:"GET it to follow the extraction"`
	}
}

func extract(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "extract-characters", Method: http.MethodPost, Path: "/api/characters",
		Summary: "Extract the characters of a book (book_id, a book of the audiobook feature) or of pasted text as a background job: " +
			"name, aliases, role, and the physical, clothing and age details the text states, each with the passages it came from. " +
			"With an LLM in Settings the LLM refines the cast and reads the facts (never an image prompt); without one, rules read the " +
			"narration near each name. Each character gets a base form whose prompts are built deterministically",
		Tags: tags, DefaultStatus: http.StatusAccepted, MaxBodyBytes: 2*characters.MaxTextBytes + 64<<10,
	}, func(ctx context.Context, in *struct {
		Body struct {
			Title  string `json:"title,omitempty" maxLength:"200"`
			Text   string `json:"text,omitempty" doc:"the text (UTF-8, at most 4 MiB); or book_id"`
			BookID string `json:"book_id,omitempty" pattern:"^[a-z0-9]{1,40}$" doc:"a book of the audiobook feature"`
		}
	}) (*ExtractOut, error) {
		set, job, err := svc.StartExtract(ctx, characters.ExtractRequest{Title: in.Body.Title, Text: in.Body.Text, BookID: in.Body.BookID})
		if err != nil {
			return nil, err
		}
		out := &ExtractOut{Status: http.StatusAccepted, Location: jobsapi.StatusPath(job.ID)}
		out.Body.Set, out.Body.JobID, out.Body.StatusURL = set, job.ID, jobsapi.StatusPath(job.ID)
		return out, nil
	})
}

// PreviewOut is a form's prompts and fingerprint.
type PreviewOut struct {
	Body struct {
		Fingerprint string             `json:"fingerprint" doc:"lowercase hex SHA-256 of canonical"`
		Canonical   string             `json:"canonical" doc:"the canonical text of the inputs (see shared/characters Canonical)"`
		Prompts     characters.Prompts `json:"prompts"`
		Story       string             `json:"story,omitempty" doc:"the story prompt with the passage, when one was sent"`
		Armed       bool               `json:"armed"`
	}
}

func previewPrompts() httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "preview-character-prompts", Method: http.MethodPost, Path: "/api/characters/prompts",
		Summary: "Build the deterministic prompts of unsaved form inputs, and their fingerprint (the browser computes the same fingerprint); nothing is stored",
		Tags:    tags,
	}, func(ctx context.Context, in *struct {
		Body struct {
			characters.Inputs
			Description *characters.Description `json:"description,omitempty" doc:"the vision description of the form's reviewed portrait"`
			Passage     string                  `json:"passage,omitempty" maxLength:"4000"`
		}
	}) (*PreviewOut, error) {
		b := in.Body
		out := &PreviewOut{}
		out.Body.Fingerprint, out.Body.Canonical = characters.Fingerprint(b.Inputs), characters.Canonical(b.Inputs)
		out.Body.Prompts = characters.BuildPrompts(b.Inputs, b.Description)
		out.Body.Armed = characters.Armed(b.Inputs)
		if strings.TrimSpace(b.Passage) != "" {
			out.Body.Story = characters.Prompt(characters.KindStory, b.Inputs, b.Description, b.Passage)
		}
		return out, nil
	})
}

// SetOut is a set with its characters.
type SetOut struct {
	Body struct {
		Set        characters.Set         `json:"set"`
		Characters []characters.Character `json:"characters"`
	}
}

func getSet(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-character-set", Method: http.MethodGet, Path: setPath,
		Summary: "A set with its characters, most mentioned first (none while it is extracting)", Tags: tags,
	}, func(ctx context.Context, in *SetPath) (*SetOut, error) {
		set, chars, err := svc.Get(ctx, in.Set)
		if err != nil {
			return nil, err
		}
		out := &SetOut{}
		out.Body.Set, out.Body.Characters = set, chars
		return out, nil
	})
}

func deleteSet(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "delete-character-set", Method: http.MethodDelete, Path: setPath,
		Summary: "Delete a set with its characters and images", Tags: tags, DefaultStatus: http.StatusNoContent,
	}, func(ctx context.Context, in *SetPath) (*struct{}, error) {
		return nil, svc.Delete(ctx, in.Set)
	})
}

// CharacterOut is one character; its ETag is its version.
type CharacterOut struct {
	ETag string `header:"ETag" doc:"the character's version; send it as If-Match with an edit"`
	Body characters.Character
}

func characterOut(c characters.Character, err error) (*CharacterOut, error) {
	if err != nil {
		return nil, err
	}
	return &CharacterOut{ETag: strconv.Quote(strconv.FormatInt(c.Version, 10)), Body: c}, nil
}

func getCharacter(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-character", Method: http.MethodGet, Path: characterPath,
		Summary: "One character: facts with their passages, overrides, forms with their prompts, fingerprint, images, stale flag and review", Tags: tags,
	}, func(ctx context.Context, in *CharacterPath) (*CharacterOut, error) {
		return characterOut(svc.Character(ctx, in.Set, in.Character))
	})
}

// EditBody changes a character; absent fields are kept.
type EditBody struct {
	Role       *string            `json:"role,omitempty" enum:"protagonist,major,minor"`
	Age        *string            `json:"age,omitempty" maxLength:"300"`
	ActiveForm *string            `json:"active_form,omitempty" pattern:"^[a-z0-9]{1,40}$" doc:"the form edits and prompt writes go to"`
	Physical   *string            `json:"physical,omitempty" maxLength:"4000" doc:"the active form's physical description"`
	Clothing   *string            `json:"clothing,omitempty" maxLength:"4000" doc:"the active form's clothing description"`
	Visual     *characters.Visual `json:"visual,omitempty" doc:"the visual_* overrides, replaced as a whole"`
}

func editCharacter(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "edit-character", Method: http.MethodPatch, Path: characterPath,
		Summary: "Edit a character: role, age, visual_* overrides, the active form, and the active form's physical and clothing descriptions " +
			"(active_form, when sent, is applied first). Prompts and fingerprints are rebuilt; a form whose images were made with other inputs is marked stale. " +
			"With If-Match, a character changed since answers 409",
		Tags: tags,
	}, func(ctx context.Context, in *struct {
		CharacterPath
		IfMatch string `header:"If-Match" required:"false" doc:"the character's ETag (its version)"`
		Body    EditBody
	}) (*CharacterOut, error) {
		var version int64
		if in.IfMatch != "" {
			v, err := strconv.ParseInt(strings.Trim(strings.TrimPrefix(in.IfMatch, "W/"), `"`), 10, 64)
			if err != nil || v <= 0 {
				return nil, huma.Error400BadRequest("If-Match must be the character's ETag (its version number)")
			}
			version = v
		}
		b := in.Body
		return characterOut(svc.EditCharacter(ctx, in.Set, in.Character, version, characters.Edit{
			Role: b.Role, Age: b.Age, ActiveForm: b.ActiveForm, Physical: b.Physical, Clothing: b.Clothing, Visual: b.Visual,
		}))
	})
}

func addForm(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "add-character-form", Method: http.MethodPost, Path: characterPath + "/forms",
		Summary: "Add an appearance form (its descriptions copied from the active form where left empty); it becomes the active form",
		Tags:    tags, DefaultStatus: http.StatusCreated,
	}, func(ctx context.Context, in *struct {
		CharacterPath
		Body struct {
			Name     string `json:"name" minLength:"1" maxLength:"100"`
			Physical string `json:"physical,omitempty" maxLength:"4000"`
			Clothing string `json:"clothing,omitempty" maxLength:"4000"`
		}
	}) (*CharacterOut, error) {
		return characterOut(svc.AddForm(ctx, in.Set, in.Character, in.Body.Name, in.Body.Physical, in.Body.Clothing))
	})
}

func generateImage(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "generate-character-image", Method: http.MethodPost, Path: formPath + "/images",
		Summary: "Generate images of a form with its deterministic prompts as a background job, through an image engine card: " +
			"avatar (alone: it flags the pair it breaks), concept, pair (avatar then concept, a matched pair), turnaround (a character sheet) " +
			"or story (a chosen passage). Concept, turnaround and story images are edits with the avatar as reference; an engine that " +
			"answers 405 to the edit or the character-sheet call is asked for a generation instead, and the image's note says so",
		Tags: tags, DefaultStatus: http.StatusAccepted,
	}, func(ctx context.Context, in *struct {
		FormPath
		Body struct {
			Kind    string `json:"kind" enum:"avatar,concept,pair,turnaround,story"`
			Passage string `json:"passage,omitempty" maxLength:"4000" doc:"story: a passage id of the character (p1, …) or the passage's text"`
			Card    string `json:"card,omitempty" maxLength:"64" doc:"the image engine card; default the first card of kind image"`
		}
	}) (*jobsapi.JobStartedOut, error) {
		b := in.Body
		return jobsapi.Started(svc.StartImage(ctx, in.Set, in.Character, in.Form, characters.ImageRequest{Kind: b.Kind, Passage: b.Passage, Card: b.Card}))
	})
}

// RedirectOut sends the browser to a stored file.
type RedirectOut struct {
	Status   int
	Location string `header:"Location"`
}

func getImage(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "get-character-image", Method: http.MethodGet, Path: formPath + "/images/{image}",
		Summary: "A form's image as PNG (redirect to a short-lived URL)", Tags: tags, DefaultStatus: http.StatusFound,
	}, func(ctx context.Context, in *struct {
		FormPath
		Image string `path:"image" pattern:"^[a-f0-9]{12}(-[a-z]+)?$"`
	}) (*RedirectOut, error) {
		url, err := svc.ImageURL(ctx, in.Set, in.Character, in.Form, in.Image)
		if err != nil {
			return nil, err
		}
		return &RedirectOut{Status: http.StatusFound, Location: url}, nil
	})
}

func reviewForm(svc *characters.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "review-character-form", Method: http.MethodPost, Path: formPath + "/review",
		Summary: "Review a form's own image pair as a background job: avatar and concept image present and drawn, made together, made with the form's current inputs. " +
			"After the portrait passes, the vision engine from Settings describes its hair, facial hair and eyes, and the turnaround and story prompts are rebuilt from that description",
		Tags: tags, DefaultStatus: http.StatusAccepted,
	}, func(ctx context.Context, in *FormPath) (*jobsapi.JobStartedOut, error) {
		return jobsapi.Started(svc.StartReview(ctx, in.Set, in.Character, in.Form))
	})
}

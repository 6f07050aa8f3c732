package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// characterTools are the characters toolset: the sets extracted from books
// or texts, their characters, and images of a character's forms.
func characterTools(d deps) []Tool {
	return []Tool{listCharacterSets(d), listCharacters(d), getCharacter(d), generateCharacterImage(d)}
}

type characterSet struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	Source     string `json:"source"`
	BookID     string `json:"book_id,omitempty"`
	Status     string `json:"status"`
	Method     string `json:"method,omitempty"`
	Characters int    `json:"characters"`
	Error      string `json:"error,omitempty"`
}

type characterImage struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Card     string `json:"card,omitempty"`
	Note     string `json:"note,omitempty"`
	FellBack bool   `json:"fell_back,omitempty"`
	Passage  string `json:"passage,omitempty"`
	Prompt   string `json:"prompt"`
	URL      string `json:"url"`
}

type characterForm struct {
	ID         string           `json:"id"`
	Name       string           `json:"name"`
	Physical   string           `json:"physical"`
	Clothing   string           `json:"clothing"`
	Stale      bool             `json:"stale"`
	PairBroken bool             `json:"pair_broken"`
	Avatar     *characterImage  `json:"avatar,omitempty"`
	Concept    *characterImage  `json:"concept,omitempty"`
	Turnaround *characterImage  `json:"turnaround,omitempty"`
	Story      []characterImage `json:"story,omitempty"`
}

// images lists a form's images, avatar first.
func (f characterForm) images() []characterImage {
	var out []characterImage
	for _, im := range []*characterImage{f.Avatar, f.Concept, f.Turnaround} {
		if im != nil {
			out = append(out, *im)
		}
	}
	return append(out, f.Story...)
}

type passage struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

type character struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Aliases    []string        `json:"aliases"`
	Gender     string          `json:"gender"`
	Role       string          `json:"role"`
	Age        string          `json:"age"`
	Mentions   int             `json:"mentions"`
	Version    int64           `json:"version"`
	ActiveForm string          `json:"active_form"`
	Forms      []characterForm `json:"forms"`
	Passages   []passage       `json:"passages,omitempty"`
}

func (c character) summary() string {
	s := fmt.Sprintf("- **%s** (%s): %s, %d mentions", c.Name, c.ID, orNone(c.Role), c.Mentions)
	if c.Gender != "" {
		s += ", " + c.Gender
	}
	if len(c.Aliases) > 0 {
		s += "; also " + strings.Join(c.Aliases, ", ")
	}
	return s + "\n"
}

func (c character) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s)\n\n- Role: %s\n- Gender: %s\n- Age: %s\n- Mentions: %d\n", c.Name, c.ID, orNone(c.Role), orNone(c.Gender), orNone(c.Age), c.Mentions)
	if len(c.Aliases) > 0 {
		fmt.Fprintf(&b, "- Also called: %s\n", strings.Join(c.Aliases, ", "))
	}
	for _, f := range c.Forms {
		active := ""
		if f.ID == c.ActiveForm {
			active = ", active"
		}
		fmt.Fprintf(&b, "\n## Form %s (%s%s)\n- Physical: %s\n- Clothing: %s\n", orNone(f.Name), f.ID, active, orNone(oneLine(f.Physical, 300)), orNone(oneLine(f.Clothing, 300)))
		if f.Stale {
			b.WriteString("- Its images were made from other inputs (stale)\n")
		}
		for _, im := range f.images() {
			fmt.Fprintf(&b, "- %s image (%s): %s\n", im.Kind, im.ID, im.URL)
		}
	}
	if len(c.Passages) > 0 {
		b.WriteString("\n## Passages\n")
		for _, p := range c.Passages {
			fmt.Fprintf(&b, "- %s: %s\n", p.ID, oneLine(p.Text, 200))
		}
	}
	return b.String()
}

const (
	setIDPattern       = "^[a-f0-9]{16}$"
	characterIDPattern = "^[a-z0-9][a-z0-9-]{0,99}$"
	formIDPattern      = "^[a-z0-9]{1,40}$"
)

func setPath(id string) string { return "/api/characters/" + seg(id) }

func characterPath(set, id string) string { return setPath(set) + "/" + seg(id) }

// withURLs makes a character's image links absolute.
func withURLs(api *Client, c character) character {
	for i := range c.Forms {
		f := &c.Forms[i]
		for _, im := range []*characterImage{f.Avatar, f.Concept, f.Turnaround} {
			if im != nil {
				im.URL = api.absolute(im.URL)
			}
		}
		for j := range f.Story {
			f.Story[j].URL = api.absolute(f.Story[j].URL)
		}
	}
	return c
}

// --- lectern_list_character_sets

type listSetsIn struct {
	Paging
	Format
}

type setList struct{ Page[characterSet] }

func (l setList) Markdown() string {
	var b strings.Builder
	b.WriteString("# Character sets\n\n")
	if l.Total == 0 {
		b.WriteString("No character sets yet: extract one from a book or a text in Lectern's Characters section.\n")
	}
	for _, s := range l.Items {
		fmt.Fprintf(&b, "- **%s** (%s): %s, %d characters, from a %s\n", orNone(s.Title), s.ID, s.Status, s.Characters, s.Source)
	}
	b.WriteString(more(l.Total, l.Count, l.Offset, l.NextOffset))
	return b.String()
}

func listCharacterSets(d deps) Tool {
	return newTool(ToolsetCharacters, spec{
		name: "lectern_list_character_sets", title: "List character sets",
		doc: doc{
			purpose: "List the sets of characters extracted from books or texts, newest first, with their status.",
			notDo:   "list the characters themselves (use lectern_list_characters) or extract new ones.",
			returns: "a page of sets (id, title, source, book_id, status extracting, ready or failed, characters).",
			use:     "to find a set's id.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in listSetsIn) (any, error) {
		var out struct {
			Sets []characterSet `json:"sets"`
		}
		if err := d.api.get(ctx, "/api/characters", nil, &out); err != nil {
			return nil, err
		}
		return setList{paginate(out.Sets, in.Paging)}, nil
	})
}

// --- lectern_list_characters

type setIn struct {
	SetID string `json:"set_id" jsonschema:"the character set's id, as lectern_list_character_sets shows it"`
}

type listCharactersIn struct {
	setIn
	Paging
	Format
}

type characterList struct {
	Set characterSet `json:"set"`
	Page[character]
}

func (l characterList) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Characters of %s (%s, %s)\n\n", orNone(l.Set.Title), l.Set.ID, l.Set.Status)
	for _, c := range l.Items {
		b.WriteString(c.summary())
	}
	b.WriteString(more(l.Total, l.Count, l.Offset, l.NextOffset))
	return b.String()
}

func listCharacters(d deps) Tool {
	return newTool(ToolsetCharacters, spec{
		name: "lectern_list_characters", title: "List characters",
		doc: doc{
			purpose: "List a set's characters, most mentioned first, with role, gender and aliases.",
			notDo:   "show a character's forms, prompts or images (use lectern_get_character).",
			returns: "the set and a page of its characters (id, name, aliases, gender, role, age, mentions, forms).",
			use:     "to find a character's id. A set still extracting has none yet.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in listCharactersIn) (any, error) {
		var out struct {
			Set        characterSet `json:"set"`
			Characters []character  `json:"characters"`
		}
		if err := d.api.get(ctx, setPath(in.SetID), nil, &out); err != nil {
			return nil, err
		}
		for i := range out.Characters {
			out.Characters[i] = withURLs(d.api, out.Characters[i])
		}
		return characterList{Set: out.Set, Page: paginate(out.Characters, in.Paging)}, nil
	})
}

// --- lectern_get_character

type characterIn struct {
	setIn
	CharacterID string `json:"character_id" jsonschema:"the character's id, as lectern_list_characters shows it"`
	Format
}

func getCharacter(d deps) Tool {
	return newTool(ToolsetCharacters, spec{
		name: "lectern_get_character", title: "Get a character",
		doc: doc{
			purpose: "Get one character: role, gender, age, aliases, its forms (appearance descriptions, stale flag, images with links) and the passages they came from.",
			notDo:   "change the character or make images (use lectern_generate_character_image).",
			returns: "the character (id, name, aliases, gender, role, age, mentions, version, active_form, forms with images, passages).",
			use:     "to read a character before generating images, or to get its image links.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in characterIn) (any, error) {
		var ch character
		if err := d.api.get(ctx, characterPath(in.SetID, in.CharacterID), nil, &ch); err != nil {
			return nil, err
		}
		return withURLs(d.api, ch), nil
	})
}

// --- lectern_generate_character_image

type generateIn struct {
	setIn
	CharacterID string `json:"character_id" jsonschema:"the character's id, as lectern_list_characters shows it"`
	FormID      string `json:"form_id,omitempty" jsonschema:"the form to draw (default base, the first form)"`
	Kind        string `json:"kind" jsonschema:"avatar (a portrait), concept, pair (avatar then concept), turnaround (a character sheet) or story (a passage)"`
	Passage     string `json:"passage,omitempty" jsonschema:"story: a passage id of the character (p1, …) or the passage's text"`
	Card        string `json:"card,omitempty" jsonschema:"the image engine card to use (default: the first card of kind image)"`
	Format
}

func (in generateIn) check() error {
	if (in.Kind == "story") != (in.Passage != "") {
		return fmt.Errorf("%w: give a passage with kind story, and only then", ErrInvalid)
	}
	return nil
}

type generated struct {
	SetID       string           `json:"set_id"`
	CharacterID string           `json:"character_id"`
	FormID      string           `json:"form_id"`
	Kind        string           `json:"kind"`
	Images      []characterImage `json:"images"`
}

func (g generated) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s image of %s (form %s)\n\n", g.Kind, g.CharacterID, g.FormID)
	for _, im := range g.Images {
		fmt.Fprintf(&b, "- %s (%s, card %s): %s\n", im.Kind, im.ID, orNone(im.Card), im.URL)
		if im.Note != "" {
			fmt.Fprintf(&b, "  Note: %s\n", im.Note)
		}
	}
	return b.String()
}

func generateCharacterImage(d deps) Tool {
	return newTool(ToolsetCharacters, spec{
		name: "lectern_generate_character_image", title: "Generate a character image",
		doc: doc{
			purpose: "Generate images of a character's form with its deterministic prompts through an image engine card, and wait for the job, " +
				"reporting its progress: an avatar, a concept image, both as a matched pair, a turnaround sheet or a story image of a passage.",
			notDo:   "write or change prompts (they come from the character's descriptions), or review the images.",
			returns: "the form's images of the kind asked (id, kind, card, note, prompt, url: a short-lived link to the PNG).",
			use:     "after reading the character with lectern_get_character. A new avatar replaces the form's avatar.",
			errors:  "422 when no image card is set up; the job fails when the image engine does.",
		},
		hints: hints{destructive: true, openWorld: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "form_id", pattern(formIDPattern), defaultTo("base"))
		set(s, "kind", oneOf("avatar", "concept", "pair", "turnaround", "story"))
		set(s, "passage", length(1, 4000))
		set(s, "card", pattern(cardNamePattern))
	}, func(ctx context.Context, c *call, in generateIn) (any, error) {
		body := map[string]string{"kind": in.Kind}
		if in.Passage != "" {
			body["passage"] = in.Passage
		}
		if in.Card != "" {
			body["card"] = in.Card
		}
		var started jobStarted
		path := characterPath(in.SetID, in.CharacterID) + "/forms/" + seg(in.FormID) + "/images"
		if err := d.api.do(ctx, request{method: http.MethodPost, path: path, body: body}, &started); err != nil {
			return nil, err
		}
		if _, err := followJob(ctx, c, d, started.JobID); err != nil {
			return nil, err
		}
		var ch character
		if err := d.api.get(ctx, characterPath(in.SetID, in.CharacterID), nil, &ch); err != nil {
			return nil, err
		}
		ch = withURLs(d.api, ch)
		out := generated{SetID: in.SetID, CharacterID: in.CharacterID, FormID: in.FormID, Kind: in.Kind, Images: []characterImage{}}
		i := slices.IndexFunc(ch.Forms, func(f characterForm) bool { return f.ID == in.FormID })
		if i < 0 {
			return out, nil
		}
		for _, im := range ch.Forms[i].images() {
			if im.Kind == in.Kind || (in.Kind == "pair" && (im.Kind == "avatar" || im.Kind == "concept")) {
				out.Images = append(out.Images, im)
			}
		}
		c.info(ctx, "character image generated", "set", in.SetID, "character", in.CharacterID, "kind", in.Kind)
		return out, nil
	})
}

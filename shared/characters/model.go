package characters

import "time"

// Set is a set of characters extracted from one text: a book of the
// audiobook feature, or pasted text.
type Set struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Source is "book" (BookID names it) or "text" (pasted).
	Source string `json:"source" enum:"book,text"`
	BookID string `json:"book_id,omitempty"`
	// Status is extracting, ready or failed.
	Status string `json:"status" enum:"extracting,ready,failed"`
	// Method says how facts were found: rules, or llm (the LLM extracted
	// facts; prompts are still built here).
	Method string `json:"method,omitempty" enum:"rules,llm,"`
	Error  string `json:"error,omitempty"`
	// JobID is the extraction's job, in the answer that started it.
	JobID      string    `json:"job_id,omitempty"`
	Characters int       `json:"characters"`
	Created    time.Time `json:"created"`
	TextKey    string    `json:"-"`
}

// Set statuses.
const (
	StatusExtracting = "extracting"
	StatusReady      = "ready"
	StatusFailed     = "failed"
)

// Passage is a stretch of the text a fact came from.
type Passage struct {
	ID    string `json:"id" doc:"p1, p2, … within the character"`
	Start int    `json:"start" doc:"byte offset of the passage in the text"`
	Text  string `json:"text"`
}

// Fact is one thing the text states of a character, with the passages it
// came from.
type Fact struct {
	Text     string   `json:"text"`
	Passages []string `json:"passages" doc:"ids of the character's passages"`
}

// Visual are the per-character overrides of what the text says; each takes
// part in every form's prompts and fingerprint.
type Visual struct {
	Style   string `json:"visual_style,omitempty" maxLength:"300" doc:"art style (default: clean storybook illustration)"`
	Hair    string `json:"visual_hair,omitempty" maxLength:"300" doc:"hair, over the text's and the vision description's"`
	Eyes    string `json:"visual_eyes,omitempty" maxLength:"300" doc:"eyes, over the text's and the vision description's"`
	Skin    string `json:"visual_skin,omitempty" maxLength:"300"`
	Build   string `json:"visual_build,omitempty" maxLength:"300"`
	Palette string `json:"visual_palette,omitempty" maxLength:"300" doc:"costume colours"`
}

// Description is what the vision engine saw in a reviewed portrait.
type Description struct {
	Hair       string `json:"hair"`
	FacialHair string `json:"facial_hair"`
	Eyes       string `json:"eyes"`
	// Avatar is the id of the portrait described.
	Avatar string `json:"avatar"`
}

// Kind is what an image shows.
type Kind string

// Image kinds.
const (
	KindAvatar     Kind = "avatar"     // head-and-shoulders portrait
	KindConcept    Kind = "concept"    // full-body concept art
	KindTurnaround Kind = "turnaround" // character sheet: front, side, back
	KindStory      Kind = "story"      // a scene of a chosen passage
)

// Kinds lists the image kinds in the order the prompts are shown.
var Kinds = []Kind{KindAvatar, KindConcept, KindTurnaround, KindStory}

// Image is one generated image, stored as a PNG blob.
type Image struct {
	ID   string `json:"id"`
	Kind Kind   `json:"kind" enum:"avatar,concept,turnaround,story"`
	Key  string `json:"-"`
	// Prompt is exactly what the engine was sent.
	Prompt string `json:"prompt"`
	// Fingerprint is the form's fingerprint when the image was made.
	Fingerprint string `json:"fingerprint"`
	// Pair is the avatar id an avatar and its concept image share.
	Pair string `json:"pair,omitempty"`
	// Reference is the avatar sent as the edit's reference, if any.
	Reference string `json:"reference,omitempty"`
	// FellBack: the engine answered 405 to the edit and the image was
	// generated from the prompt alone; Note says so.
	FellBack bool      `json:"fell_back,omitempty"`
	Note     string    `json:"note,omitempty"`
	Passage  string    `json:"passage,omitempty"`
	Card     string    `json:"card"`
	Created  time.Time `json:"created"`
	URL      string    `json:"url" doc:"a short-lived link to the PNG"`
}

// Check is one item of a form's review.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Review is the last check of a form's own image pair.
type Review struct {
	At     time.Time `json:"at"`
	Passed bool      `json:"passed"`
	Checks []Check   `json:"checks"`
}

// Prompts are a form's deterministic prompts; Story is the character part
// a story image's passage is put in front of.
type Prompts struct {
	Avatar     string `json:"avatar"`
	Concept    string `json:"concept"`
	Turnaround string `json:"turnaround"`
	Story      string `json:"story"`
}

// Form is one appearance of a character.
type Form struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Physical string `json:"physical"`
	Clothing string `json:"clothing"`
	// ImagePrompt is the form's own portrait prompt; Prompts holds all.
	ImagePrompt string  `json:"image_prompt"`
	Prompts     Prompts `json:"prompts"`
	Fingerprint string  `json:"fingerprint"`
	Avatar      *Image  `json:"avatar,omitempty"`
	Concept     *Image  `json:"concept,omitempty"`
	Turnaround  *Image  `json:"turnaround,omitempty"`
	Story       []Image `json:"story,omitempty"`
	// Stale: the form's inputs changed since its avatar or concept image
	// was made.
	Stale bool `json:"stale"`
	// PairBroken: the avatar and concept image were not made together
	// (an avatar was generated alone after the pair).
	PairBroken  bool         `json:"pair_broken"`
	Description *Description `json:"description,omitempty"`
	Review      *Review      `json:"review,omitempty"`
}

// Character is one character of a set.
type Character struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Aliases  []string  `json:"aliases"`
	Gender   string    `json:"gender"`
	Role     string    `json:"role" doc:"protagonist, major or minor"`
	Mentions int       `json:"mentions"`
	Age      string    `json:"age"`
	Facts    Facts     `json:"facts"`
	Passages []Passage `json:"passages"`
	Visual
	Forms []Form `json:"forms" doc:"the first is the base form"`
	// ActiveForm is the id of the form edits and prompt writes go to.
	ActiveForm string `json:"active_form"`
	Version    int64  `json:"version"`
}

// Facts are what the text states, by aspect.
type Facts struct {
	Physical []Fact `json:"physical"`
	Clothing []Fact `json:"clothing"`
	Age      []Fact `json:"age"`
}

// Form returns the form with id, or ErrNotFound.
func (c *Character) Form(id string) (*Form, error) {
	for i := range c.Forms {
		if c.Forms[i].ID == id {
			return &c.Forms[i], nil
		}
	}
	return nil, ErrNotFound
}

// Inputs are the inputs of a form's prompts and fingerprint.
func (c *Character) Inputs(f *Form) Inputs {
	return Inputs{Name: c.Name, Age: c.Age, Form: f.Name, Physical: f.Physical, Clothing: f.Clothing, Visual: c.Visual}
}

// Refresh rebuilds every form's prompts, fingerprint and flags from its
// inputs: call it after any change to a character.
func (c *Character) Refresh() {
	for i := range c.Forms {
		f := &c.Forms[i]
		in := c.Inputs(f)
		f.Fingerprint = Fingerprint(in)
		f.Prompts = BuildPrompts(in, f.Description)
		f.ImagePrompt = f.Prompts.Avatar
		f.Stale = Stale(f)
		f.PairBroken = f.Avatar != nil && f.Concept != nil && f.Avatar.Pair != f.Concept.Pair
	}
}

// Stale reports whether a form's inputs changed since its avatar or
// concept image was made: their fingerprint is not the form's.
func Stale(f *Form) bool {
	for _, img := range []*Image{f.Avatar, f.Concept} {
		if img != nil && img.Fingerprint != f.Fingerprint {
			return true
		}
	}
	return false
}

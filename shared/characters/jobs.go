package characters

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/png" // the review decodes the stored PNGs
	"io"
	"strings"

	"github.com/lectern/lectern/shared/audiobook/book"
	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/audiobook/spans"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/store"
)

// refineSample is how much of the book the LLM's cast refinement reads.
const refineSample = 24000

// ExtractJob finds the characters of a set's text: the rules' cast, refined
// by the LLM when Settings name one; facts by rules, or by the LLM from the
// same passages. Re-running it replaces the set's characters.
func (s *Service) ExtractJob(ctx context.Context, payload json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var p setPayload
	if err := json.Unmarshal(payload, &p); err != nil || p.Set == "" {
		return nil, fmt.Errorf("%w: payload %s", ErrInvalid, payload)
	}
	set, version, err := s.loadSet(ctx, p.Set)
	if err != nil {
		return nil, err
	}
	chars, method, err := s.extract(ctx, set, progress)
	if err != nil {
		set.Status, set.Error = StatusFailed, err.Error()
		if serr := s.saveSet(ctx, set, version); serr != nil {
			return nil, errors.Join(err, serr)
		}
		return nil, err
	}
	_ = progress.Progress(ctx, 0.9, fmt.Sprintf("storing %d characters", len(chars)))
	if err := s.clearCharacters(ctx, set.ID); err != nil {
		return nil, jobs.Transient(err)
	}
	for _, c := range chars {
		c = Finish(c)
		c.Version = 0
		if err := s.putCharacter(ctx, set.ID, c, store.Condition{}); err != nil {
			return nil, jobs.Transient(fmt.Errorf("store character %s: %w", c.ID, err))
		}
	}
	set.Status, set.Error, set.Method, set.Characters = StatusReady, "", method, len(chars)
	if err := s.saveSet(ctx, set, version); err != nil {
		return nil, jobs.Transient(fmt.Errorf("store set %s: %w", set.ID, err))
	}
	return json.Marshal(map[string]any{"set": set.ID, "characters": len(chars), "method": method})
}

func (s *Service) extract(ctx context.Context, set Set, progress jobs.Reporter) ([]Character, string, error) {
	_ = progress.Progress(ctx, 0.05, "reading the text")
	var text string
	if set.Source == "book" {
		if s.books == nil {
			return nil, "", fmt.Errorf("%w: books are not served here", ErrInvalid)
		}
		_, t, err := s.books.Text(ctx, set.BookID)
		if err != nil {
			return nil, "", err
		}
		text = t
	} else {
		rc, _, err := s.blobs.Get(ctx, set.TextKey)
		if err != nil {
			return nil, "", fmt.Errorf("read text of set %s: %w", set.ID, err)
		}
		data, err := io.ReadAll(io.LimitReader(rc, MaxTextBytes+1))
		rc.Close()
		if err != nil {
			return nil, "", fmt.Errorf("read text of set %s: %w", set.ID, err)
		}
		text = string(data)
	}
	b, err := book.ParseText([]byte(text), set.Title+".txt")
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	_ = progress.Progress(ctx, 0.2, "finding the cast")
	sp := spans.SplitBook(b)
	found := cast.Extract(b.Text, sp)
	method := "rules"
	var llm cast.LLM
	if s.engines.LLM != nil {
		llm, err = s.engines.LLM(ctx)
		if err != nil {
			return nil, "", err
		}
	}
	if llm != nil {
		_ = progress.Progress(ctx, 0.35, "the LLM refines the cast")
		refined, err := cast.Refine(ctx, llm, found, cast.RefineSample(b.Text, found, refineSample))
		if err != nil {
			return nil, "", fmt.Errorf("%w: cast: %v", ErrEngine, err)
		}
		found = refined
	}
	_ = progress.Progress(ctx, 0.5, fmt.Sprintf("reading the passages of %d characters", min(len(found), MaxCharacters)))
	chars := FromText(b.Text, sp, found)
	if llm != nil {
		_ = progress.Progress(ctx, 0.6, "the LLM reads the facts")
		chars, err = FactsByLLM(ctx, llm, chars)
		if err != nil {
			return nil, "", err
		}
		method = "llm"
	}
	return chars, method, nil
}

// ImageRequest asks for images of a form.
type ImageRequest struct {
	// Kind is avatar, concept, pair (avatar then concept, a matched pair),
	// turnaround or story.
	Kind string
	// Passage is the scene of a story image: a passage id of the character,
	// or the text itself.
	Passage string
	// Card is the image engine card; "" the first image card.
	Card string
}

// KindPair is an avatar and a concept image made together.
const KindPair = "pair"

type imagePayload struct {
	Set       string `json:"set"`
	Character string `json:"character"`
	Form      string `json:"form"`
	Kind      string `json:"kind"`
	Passage   string `json:"passage,omitempty"`
	Card      string `json:"card,omitempty"`
	// Image is the id the new image gets, so a re-run writes the same one.
	Image string `json:"image"`
}

// StartImage checks an image request and queues its job.
func (s *Service) StartImage(ctx context.Context, set, id, form string, req ImageRequest) (jobs.Job, error) {
	c, err := s.Character(ctx, set, id)
	if err != nil {
		return jobs.Job{}, err
	}
	if form == "" {
		form = c.ActiveForm
	}
	if _, err := c.Form(form); err != nil {
		return jobs.Job{}, fmt.Errorf("%w: form %s of %s", ErrNotFound, form, id)
	}
	switch Kind(req.Kind) {
	case KindAvatar, KindConcept, KindTurnaround, KindPair:
	case KindStory:
		if strings.TrimSpace(req.Passage) == "" {
			return jobs.Job{}, fmt.Errorf("%w: a story image needs a passage", ErrInvalid)
		}
	default:
		return jobs.Job{}, fmt.Errorf("%w: kind %q is not avatar, concept, pair, turnaround or story", ErrInvalid, req.Kind)
	}
	payload, _ := json.Marshal(imagePayload{Set: set, Character: id, Form: form, Kind: req.Kind, Passage: req.Passage, Card: req.Card, Image: newID(6)})
	job, err := s.queue.Enqueue(ctx, ImageJobKind, payload)
	if err != nil {
		return jobs.Job{}, fmt.Errorf("queue image: %w", err)
	}
	return job, nil
}

// Sizes asked of the engine.
const (
	squareSize = "1024x1024"
	wideSize   = "1536x1024"
	tallSize   = "1024x1536"
)

// ImageJob makes the images asked for with the form's deterministic
// prompts, stores them as blobs and records them on the form. An avatar
// made alone flags the pair it breaks; concept, turnaround and story
// images are edits with the avatar as reference where there is one, and an
// engine that answers 405 to the edit (or the character-sheet call) is
// asked for a generation instead, which the image's note says.
func (s *Service) ImageJob(ctx context.Context, payload json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var p imagePayload
	if err := json.Unmarshal(payload, &p); err != nil || p.Set == "" || p.Character == "" || p.Form == "" || p.Image == "" {
		return nil, fmt.Errorf("%w: payload %s", ErrInvalid, payload)
	}
	if s.engines.Painter == nil {
		return nil, fmt.Errorf("%w: images are made by the job worker", ErrNoEngine)
	}
	painter, card, err := s.engines.Painter(ctx, p.Card)
	if err != nil {
		return nil, err
	}
	var made []Image
	steps := []Kind{Kind(p.Kind)}
	if p.Kind == KindPair {
		steps = []Kind{KindAvatar, KindConcept}
	}
	for i, kind := range steps {
		_ = progress.Progress(ctx, 0.1+0.8*float64(i)/float64(len(steps)), fmt.Sprintf("%s: asking %s", kind, card))
		id := p.Image
		if i > 0 {
			id += "-" + string(kind)
		}
		img, err := s.paint(ctx, painter, card, p, kind, id)
		if err != nil {
			return nil, err
		}
		made = append(made, img)
	}
	_ = progress.Progress(ctx, 1, "done")
	return json.Marshal(map[string]any{"images": made})
}

// paint makes one image and records it on the form.
func (s *Service) paint(ctx context.Context, painter Painter, card string, p imagePayload, kind Kind, id string) (Image, error) {
	c, err := s.Character(ctx, p.Set, p.Character)
	if err != nil {
		return Image{}, err
	}
	f, err := c.Form(p.Form)
	if err != nil {
		return Image{}, fmt.Errorf("%w: form %s of %s", ErrNotFound, p.Form, p.Character)
	}
	passage := p.Passage
	for _, ps := range c.Passages {
		if ps.ID == p.Passage {
			passage = ps.Text
		}
	}
	in := c.Inputs(f)
	prompt := Prompt(kind, in, f.Description, passage)
	img := Image{ID: id, Kind: kind, Prompt: prompt, Fingerprint: Fingerprint(in), Card: card, Created: s.clock().UTC()}
	if kind == KindStory {
		img.Passage = passage
	}
	size := map[Kind]string{KindAvatar: squareSize, KindConcept: tallSize, KindTurnaround: wideSize, KindStory: wideSize}[kind]
	var pic Picture
	if kind == KindAvatar || f.Avatar == nil {
		pic, err = painter.Generate(ctx, prompt, size)
	} else {
		ref, rerr := s.readPNG(ctx, imageKey(p.Set, c.ID, f.ID, f.Avatar.ID))
		if rerr != nil {
			return Image{}, jobs.Transient(rerr)
		}
		img.Reference = f.Avatar.ID
		pic, err = painter.Edit(ctx, prompt, size, ref)
	}
	if err != nil {
		return Image{}, fmt.Errorf("%w: %s image from %s: %v", ErrEngine, kind, card, err)
	}
	if pic.FellBack {
		img.FellBack = true
		img.Note = fmt.Sprintf("The engine answered 405 to the edit with the avatar as reference (a gateway without /images/edits), so this %s was generated from the prompt alone; compare it with the avatar.", kind)
	}
	if err := s.blobs.Put(ctx, imageKey(p.Set, c.ID, f.ID, id), bytes.NewReader(pic.PNG), "image/png"); err != nil {
		return Image{}, jobs.Transient(fmt.Errorf("store image %s: %w", id, err))
	}
	saved, err := s.update(ctx, p.Set, p.Character, 0, func(c *Character) error {
		f, err := c.Form(p.Form)
		if err != nil {
			return fmt.Errorf("%w: form %s was removed meanwhile", ErrNotFound, p.Form)
		}
		switch kind {
		case KindAvatar:
			img.Pair = img.ID
			if f.Concept != nil && f.Concept.Pair != img.ID {
				img.Note = strings.TrimSpace(img.Note + " Made alone: the concept image belongs to the earlier avatar, so the pair is broken until the concept image (or the pair) is made again.")
			}
			f.Avatar = &img
		case KindConcept:
			if f.Avatar != nil && img.Reference == f.Avatar.ID {
				img.Pair = f.Avatar.ID
			}
			f.Concept = &img
		case KindTurnaround:
			f.Turnaround = &img
		case KindStory:
			kept := f.Story[:0]
			for _, st := range f.Story {
				if st.ID != img.ID {
					kept = append(kept, st)
				}
			}
			f.Story = append(kept, img)
		}
		return nil
	})
	if err != nil {
		return Image{}, err
	}
	img = s.withURLs(ctx, p.Set, saved).imageOf(p.Form, img.ID, img)
	return img, nil
}

// imageOf finds an image of a form (for its URL), else fallback.
func (c Character) imageOf(form, id string, fallback Image) Image {
	f, err := c.Form(form)
	if err != nil {
		return fallback
	}
	for _, im := range f.images() {
		if im.ID == id {
			return im
		}
	}
	return fallback
}

type formPayload struct {
	Set       string `json:"set"`
	Character string `json:"character"`
	Form      string `json:"form"`
}

// StartReview queues the review of a form's own image pair.
func (s *Service) StartReview(ctx context.Context, set, id, form string) (jobs.Job, error) {
	c, err := s.Character(ctx, set, id)
	if err != nil {
		return jobs.Job{}, err
	}
	if _, err := c.Form(form); err != nil {
		return jobs.Job{}, fmt.Errorf("%w: form %s of %s", ErrNotFound, form, id)
	}
	payload, _ := json.Marshal(formPayload{Set: set, Character: id, Form: form})
	job, err := s.queue.Enqueue(ctx, ReviewJobKind, payload)
	if err != nil {
		return jobs.Job{}, fmt.Errorf("queue review: %w", err)
	}
	return job, nil
}

// describePrompt asks the vision engine for what the later prompts need.
const describePrompt = "This is a character portrait. For an illustrator who must draw the same character again, describe only: " +
	"hair (colour, length, style), facial hair (or none) and eyes (colour). A few words each, no moods. " +
	`Answer JSON only: {"hair": "...", "facial_hair": "...", "eyes": "..."}`

// ReviewJob checks a form's own image pair: the avatar and the concept
// image are this form's, decode as pictures, were made together and with
// the form's current inputs. After the portrait passes, the vision engine
// describes its hair, facial hair and eyes, and the turnaround and story
// prompts are rebuilt from that description.
func (s *Service) ReviewJob(ctx context.Context, payload json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var p formPayload
	if err := json.Unmarshal(payload, &p); err != nil || p.Set == "" || p.Character == "" || p.Form == "" {
		return nil, fmt.Errorf("%w: payload %s", ErrInvalid, payload)
	}
	c, err := s.Character(ctx, p.Set, p.Character)
	if err != nil {
		return nil, err
	}
	f, err := c.Form(p.Form)
	if err != nil {
		return nil, fmt.Errorf("%w: form %s of %s", ErrNotFound, p.Form, p.Character)
	}
	_ = progress.Progress(ctx, 0.1, "checking the image pair")
	var checks []Check
	var avatarPNG []byte
	for _, it := range []struct {
		name string
		img  *Image
	}{{"avatar", f.Avatar}, {"concept", f.Concept}} {
		ch := Check{Name: it.name}
		if it.img == nil {
			ch.Detail = "none yet"
		} else if data, err := s.readPNG(ctx, imageKey(p.Set, c.ID, f.ID, it.img.ID)); err != nil {
			ch.Detail = "the stored image cannot be read"
		} else {
			ch.OK, ch.Detail = checkPicture(data)
			if ch.OK && it.name == "avatar" {
				avatarPNG = data
			}
		}
		checks = append(checks, ch)
	}
	pair := Check{Name: "pair", OK: f.Avatar != nil && f.Concept != nil && f.Concept.Pair == f.Avatar.ID}
	pair.Detail = map[bool]string{true: "the concept image was made with this avatar", false: "the avatar and the concept image were not made together"}[pair.OK]
	fresh := Check{Name: "fingerprint", OK: f.Avatar != nil && !Stale(f)}
	fresh.Detail = map[bool]string{true: "made with the form's current inputs", false: "the form changed since its images were made (stale)"}[fresh.OK]
	checks = append(checks, pair, fresh)

	var desc *Description
	if avatarPNG != nil {
		_ = progress.Progress(ctx, 0.4, "the vision engine describes the portrait")
		d, err := s.describe(ctx, avatarPNG)
		ch := Check{Name: "description", OK: err == nil}
		if err != nil {
			ch.Detail = err.Error()
		} else {
			d.Avatar = f.Avatar.ID
			desc = &d
			ch.Detail = fmt.Sprintf("hair: %s; facial hair: %s; eyes: %s", d.Hair, d.FacialHair, d.Eyes)
		}
		checks = append(checks, ch)
	}
	review := Review{At: s.clock().UTC(), Passed: true, Checks: checks}
	for _, ch := range checks {
		review.Passed = review.Passed && ch.OK
	}
	_ = progress.Progress(ctx, 0.9, "storing the review")
	saved, err := s.update(ctx, p.Set, p.Character, 0, func(c *Character) error {
		f, err := c.Form(p.Form)
		if err != nil {
			return fmt.Errorf("%w: form %s was removed meanwhile", ErrNotFound, p.Form)
		}
		f.Review = &review
		if desc != nil && f.Avatar != nil && f.Avatar.ID == desc.Avatar {
			f.Description = desc
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sf, _ := saved.Form(p.Form)
	return json.Marshal(map[string]any{"review": review, "prompts": sf.Prompts})
}

func (s *Service) describe(ctx context.Context, png []byte) (Description, error) {
	if s.engines.Vision == nil {
		return Description{}, fmt.Errorf("%w: the vision engine is called by the job worker", ErrNoEngine)
	}
	v, err := s.engines.Vision(ctx)
	if err != nil {
		return Description{}, err
	}
	answer, err := v.Vision(ctx, describePrompt, png, "image/png")
	if err != nil {
		return Description{}, fmt.Errorf("%w: vision: %v", ErrEngine, err)
	}
	var d Description
	if err := json.Unmarshal([]byte(stripFence(answer)), &d); err != nil {
		return Description{}, fmt.Errorf("%w: the vision answer is not the JSON asked for", ErrEngine)
	}
	d.Hair, d.FacialHair, d.Eyes = strip(d.Hair), strip(d.FacialHair), strip(d.Eyes)
	if d.Hair == "" && d.Eyes == "" {
		return Description{}, fmt.Errorf("%w: the vision engine described neither hair nor eyes", ErrEngine)
	}
	return d, nil
}

// strip keeps a described trait short and free of moods.
func strip(s string) string {
	kept := keptClauses(s)
	return firstWords(strings.Join(kept, ", "), 12)
}

// checkPicture says whether data is a usable portrait: a PNG of at least
// 64×64 pixels that is not one flat colour (an engine's blank answer).
func checkPicture(data []byte) (bool, string) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return false, "not a picture: " + err.Error()
	}
	b := img.Bounds()
	if b.Dx() < 64 || b.Dy() < 64 {
		return false, fmt.Sprintf("%dx%d pixels, smaller than 64x64", b.Dx(), b.Dy())
	}
	first := img.At(b.Min.X, b.Min.Y)
	r0, g0, b0, _ := first.RGBA()
	for y := b.Min.Y; y < b.Max.Y; y += max(1, b.Dy()/32) {
		for x := b.Min.X; x < b.Max.X; x += max(1, b.Dx()/32) {
			r, g, bb, _ := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bb != b0 {
				return true, fmt.Sprintf("%dx%d PNG", b.Dx(), b.Dy())
			}
		}
	}
	return false, "one flat colour: the engine drew nothing"
}

package characters

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/store"
)

// Job kinds of the feature.
const (
	ExtractJobKind = "characters.extract"
	ImageJobKind   = "characters.image"
	ReviewJobKind  = "characters.review"
)

// MaxTextBytes bounds pasted text (a long novel is 2 MB).
const MaxTextBytes = 4 << 20

// Picture is what an image engine made.
type Picture struct {
	PNG []byte
	// FellBack: the engine answered 405 to the edit (a gateway without
	// /images/edits) and the picture was generated from the prompt alone.
	FellBack bool
}

// Painter is the image engine port (an OpenAI-compatible images API;
// features wires imagegen's client).
type Painter interface {
	Generate(ctx context.Context, prompt, size string) (Picture, error)
	// Edit makes an image from prompt with reference (a PNG) for
	// consistency.
	Edit(ctx context.Context, prompt, size string, reference []byte) (Picture, error)
}

// Vision is the vision engine port: a prompt with one image, a text answer.
type Vision interface {
	Vision(ctx context.Context, prompt string, image []byte, mimeType string) (string, error)
}

// Books reads a book of the audiobook feature: its title and text.
type Books interface {
	Text(ctx context.Context, id string) (title, text string, err error)
}

// Engines give the engines jobs call, from the current Settings and
// cards. Each answers ErrNoEngine (or an LLM of nil) when none is set.
type Engines struct {
	// LLM is the fact extractor; nil, nil when Settings name no LLM.
	LLM func(ctx context.Context) (cast.LLM, error)
	// Painter is the image engine of the named card ("" the first image
	// card), and the card's name.
	Painter func(ctx context.Context, card string) (Painter, string, error)
	// Vision is the vision engine of Settings.
	Vision func(ctx context.Context) (Vision, error)
}

// Service is the Characters feature over the table, the blob store and the
// job queue.
type Service struct {
	table   store.Table
	blobs   blob.Store
	queue   jobs.Queue
	books   Books
	engines Engines
	clock   func() time.Time
}

// NewService builds the service; engines may be zero where no job runs
// (an API Lambda).
func NewService(table store.Table, blobs blob.Store, queue jobs.Queue, books Books, engines Engines, clock func() time.Time) *Service {
	return &Service{table: table, blobs: blobs, queue: queue, books: books, engines: engines, clock: clock}
}

// Keys of the feature's items and blobs.
const (
	setPrefix    = "CHARSET#"
	personPrefix = "PERSON#"
	metaSK       = "META"
	indexPK      = "CHARSETS"
)

func setPK(id string) string       { return setPrefix + id }
func blobPrefix(set string) string { return "characters/" + set + "/" }
func textKey(set string) string    { return blobPrefix(set) + "text.txt" }
func imageKey(set, char, form, img string) string {
	return blobPrefix(set) + char + "/" + form + "/" + img + ".png"
}

// ImagePath is where the API serves an image.
func ImagePath(set, char, form, img string) string {
	return "/api/characters/" + set + "/" + char + "/forms/" + form + "/images/" + img
}

func newID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand never fails on supported platforms
	return hex.EncodeToString(b)
}

// ExtractRequest names the text to extract characters from: a book of the
// audiobook feature, or pasted text.
type ExtractRequest struct {
	Title  string
	Text   string
	BookID string
}

// StartExtract stores a new set and queues its extraction job.
func (s *Service) StartExtract(ctx context.Context, req ExtractRequest) (Set, jobs.Job, error) {
	set := Set{ID: newID(8), Title: clean(req.Title), Status: StatusExtracting, Created: s.clock().UTC()}
	switch {
	case req.BookID != "" && strings.TrimSpace(req.Text) != "":
		return Set{}, jobs.Job{}, fmt.Errorf("%w: send a book or a text, not both", ErrInvalid)
	case req.BookID != "":
		if s.books == nil {
			return Set{}, jobs.Job{}, fmt.Errorf("%w: books are not served here", ErrInvalid)
		}
		title, _, err := s.books.Text(ctx, req.BookID)
		if err != nil {
			return Set{}, jobs.Job{}, err
		}
		set.Source, set.BookID = "book", req.BookID
		if set.Title == "" {
			set.Title = title
		}
	case strings.TrimSpace(req.Text) == "":
		return Set{}, jobs.Job{}, fmt.Errorf("%w: the text is empty", ErrInvalid)
	case len(req.Text) > MaxTextBytes:
		return Set{}, jobs.Job{}, fmt.Errorf("%w: %d bytes, more than %d", ErrTooLarge, len(req.Text), MaxTextBytes)
	default:
		set.Source, set.TextKey = "text", textKey(set.ID)
		if err := s.blobs.Put(ctx, set.TextKey, strings.NewReader(req.Text), "text/plain; charset=utf-8"); err != nil {
			return Set{}, jobs.Job{}, fmt.Errorf("store text of set %s: %w", set.ID, err)
		}
	}
	if set.Title == "" {
		set.Title = "Untitled"
	}
	// The set is stored before its job is queued: the job may run at once.
	data, err := json.Marshal(setRecord{Set: set, TextKey: set.TextKey})
	if err != nil {
		return Set{}, jobs.Job{}, err
	}
	entry, _ := json.Marshal(set)
	if err := s.table.Transact(ctx, []store.Write{
		{Op: store.OpPut, Cond: store.IfAbsent(), Item: store.Item{PK: setPK(set.ID), SK: metaSK, Version: 1, Data: data}},
		{Op: store.OpPut, Cond: store.IfAbsent(), Item: store.Item{PK: indexPK, SK: setPrefix + set.ID, Version: 1, Data: entry}},
	}); err != nil {
		return Set{}, jobs.Job{}, fmt.Errorf("store set %s: %w", set.ID, err)
	}
	payload, _ := json.Marshal(setPayload{Set: set.ID})
	job, err := s.queue.Enqueue(ctx, ExtractJobKind, payload)
	if err != nil {
		set.Status, set.Error = StatusFailed, "the extraction could not be queued"
		return Set{}, jobs.Job{}, errors.Join(fmt.Errorf("queue extraction of set %s: %w", set.ID, err), s.saveSet(ctx, set, 1))
	}
	set.JobID = job.ID
	return set, job, nil
}

// setRecord is META as stored.
type setRecord struct {
	Set
	TextKey string `json:"text_key,omitempty"`
}

type setPayload struct {
	Set string `json:"set"`
}

func (s *Service) loadSet(ctx context.Context, id string) (Set, int64, error) {
	it, err := s.table.Get(ctx, setPK(id), metaSK)
	if errors.Is(err, store.ErrNotFound) {
		return Set{}, 0, fmt.Errorf("%w: set %s", ErrNotFound, id)
	}
	if err != nil {
		return Set{}, 0, fmt.Errorf("get set %s: %w", id, err)
	}
	var r setRecord
	if err := json.Unmarshal(it.Data, &r); err != nil {
		return Set{}, 0, fmt.Errorf("decode set %s: %w", id, err)
	}
	r.Set.TextKey = r.TextKey
	return r.Set, it.Version, nil
}

// saveSet writes META and the listing's entry after a change of status.
func (s *Service) saveSet(ctx context.Context, set Set, version int64) error {
	data, err := json.Marshal(setRecord{Set: set, TextKey: set.TextKey})
	if err != nil {
		return err
	}
	entry, _ := json.Marshal(set)
	return s.table.Transact(ctx, []store.Write{
		{Op: store.OpPut, Cond: store.IfVersion(version), Item: store.Item{PK: setPK(set.ID), SK: metaSK, Version: version + 1, Data: data}},
		{Op: store.OpPut, Item: store.Item{PK: indexPK, SK: setPrefix + set.ID, Version: version + 1, Data: entry}},
	})
}

// List returns every set, newest first.
func (s *Service) List(ctx context.Context) ([]Set, error) {
	out := []Set{}
	q := store.Query{PK: indexPK, SKPrefix: setPrefix, Descending: true}
	for {
		page, err := s.table.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("list sets: %w", err)
		}
		for _, it := range page.Items {
			var st Set
			if err := json.Unmarshal(it.Data, &st); err != nil {
				return nil, fmt.Errorf("list sets (%s): %w", it.SK, err)
			}
			out = append(out, st)
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	// Ids are random: order by creation.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Created.After(out[j-1].Created); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

// Get returns a set with its characters, most mentioned first.
func (s *Service) Get(ctx context.Context, id string) (Set, []Character, error) {
	set, _, err := s.loadSet(ctx, id)
	if err != nil {
		return Set{}, nil, err
	}
	chars, err := s.characters(ctx, id)
	return set, chars, err
}

func (s *Service) characters(ctx context.Context, set string) ([]Character, error) {
	out := []Character{}
	q := store.Query{PK: setPK(set), SKPrefix: personPrefix}
	for {
		page, err := s.table.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("characters of %s: %w", set, err)
		}
		for _, it := range page.Items {
			c, err := decodeCharacter(it)
			if err != nil {
				return nil, err
			}
			out = append(out, s.withURLs(ctx, set, c))
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Mentions > out[j-1].Mentions; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out, nil
}

func decodeCharacter(it store.Item) (Character, error) {
	var c Character
	if err := json.Unmarshal(it.Data, &c); err != nil {
		return Character{}, fmt.Errorf("decode %s/%s: %w", it.PK, it.SK, err)
	}
	c.Version = it.Version
	return c, nil
}

// withURLs fills each image's URL: a short-lived link to the blob, so an
// <img> needs no API token; the API's redirect path when none can be made.
func (s *Service) withURLs(ctx context.Context, set string, c Character) Character {
	link := func(img *Image, form string) {
		img.URL = ImagePath(set, c.ID, form, img.ID)
		if u, err := s.blobs.PresignGet(ctx, imageKey(set, c.ID, form, img.ID), ImageLinkTTL); err == nil {
			img.URL = u
		}
	}
	for i := range c.Forms {
		f := &c.Forms[i]
		for _, img := range []*Image{f.Avatar, f.Concept, f.Turnaround} {
			if img != nil {
				link(img, f.ID)
			}
		}
		for j := range f.Story {
			link(&f.Story[j], f.ID)
		}
	}
	return c
}

// ImageLinkTTL is how long an image link works.
const ImageLinkTTL = 30 * time.Minute

// Delete removes a set with its characters and images.
func (s *Service) Delete(ctx context.Context, id string) error {
	if _, _, err := s.loadSet(ctx, id); err != nil {
		return err
	}
	if err := s.clearCharacters(ctx, id); err != nil {
		return err
	}
	for _, key := range [][2]string{{setPK(id), metaSK}, {indexPK, setPrefix + id}} {
		if err := s.table.Delete(ctx, key[0], key[1], store.Condition{}); err != nil {
			return fmt.Errorf("delete set %s: %w", id, err)
		}
	}
	if _, err := s.blobs.DeletePrefix(ctx, blobPrefix(id)); err != nil {
		return fmt.Errorf("delete files of set %s: %w", id, err)
	}
	return nil
}

func (s *Service) clearCharacters(ctx context.Context, set string) error {
	for {
		page, err := s.table.Query(ctx, store.Query{PK: setPK(set), SKPrefix: personPrefix})
		if err != nil {
			return fmt.Errorf("characters of %s: %w", set, err)
		}
		for _, it := range page.Items {
			if err := s.table.Delete(ctx, it.PK, it.SK, store.Condition{}); err != nil {
				return fmt.Errorf("delete %s/%s: %w", it.PK, it.SK, err)
			}
		}
		if page.Next == "" {
			return nil
		}
	}
}

// Character returns one character.
func (s *Service) Character(ctx context.Context, set, id string) (Character, error) {
	it, err := s.table.Get(ctx, setPK(set), personPrefix+id)
	if errors.Is(err, store.ErrNotFound) {
		return Character{}, fmt.Errorf("%w: character %s of set %s", ErrNotFound, id, set)
	}
	if err != nil {
		return Character{}, fmt.Errorf("get character %s/%s: %w", set, id, err)
	}
	c, err := decodeCharacter(it)
	return s.withURLs(ctx, set, c), err
}

func (s *Service) putCharacter(ctx context.Context, set string, c Character, cond store.Condition) error {
	c.Refresh()
	version := c.Version
	// URLs are filled on read, never stored.
	for i := range c.Forms {
		f := &c.Forms[i]
		for _, img := range []*Image{f.Avatar, f.Concept, f.Turnaround} {
			if img != nil {
				img.URL = ""
			}
		}
		for j := range f.Story {
			f.Story[j].URL = ""
		}
	}
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return s.table.Put(ctx, store.Item{PK: setPK(set), SK: personPrefix + c.ID, Version: version + 1, Data: data}, cond)
}

// update applies change to the stored character, again on a concurrent
// write, when version is 0; with a version, a character changed since
// answers ErrConflict.
func (s *Service) update(ctx context.Context, set, id string, version int64, change func(*Character) error) (Character, error) {
	for attempt := 0; ; attempt++ {
		c, err := s.Character(ctx, set, id)
		if err != nil {
			return Character{}, err
		}
		if version > 0 && c.Version != version {
			return Character{}, fmt.Errorf("%w: version %d, the request was made on %d", ErrConflict, c.Version, version)
		}
		if err := change(&c); err != nil {
			return Character{}, err
		}
		err = s.putCharacter(ctx, set, c, store.IfVersion(c.Version))
		if errors.Is(err, store.ErrConditionFailed) && version == 0 && attempt < 5 {
			continue
		}
		if errors.Is(err, store.ErrConditionFailed) {
			return Character{}, fmt.Errorf("%w: character %s changed meanwhile", ErrConflict, id)
		}
		if err != nil {
			return Character{}, fmt.Errorf("put character %s/%s: %w", set, id, err)
		}
		return s.Character(ctx, set, id)
	}
}

// Edit is a change to a character: nil fields are kept. Physical and
// Clothing go to the active form (or Form, when set).
type Edit struct {
	Role       *string
	Age        *string
	ActiveForm *string
	Form       string
	Physical   *string
	Clothing   *string
	Visual     *Visual
}

// EditCharacter applies an edit made on version (0: any).
func (s *Service) EditCharacter(ctx context.Context, set, id string, version int64, e Edit) (Character, error) {
	return s.update(ctx, set, id, version, func(c *Character) error {
		if e.ActiveForm != nil {
			if _, err := c.Form(*e.ActiveForm); err != nil {
				return fmt.Errorf("%w: form %s of %s", ErrNotFound, *e.ActiveForm, id)
			}
			c.ActiveForm = *e.ActiveForm
		}
		target := c.ActiveForm
		if e.Form != "" {
			target = e.Form
		}
		f, err := c.Form(target)
		if err != nil {
			return fmt.Errorf("%w: form %s of %s", ErrNotFound, target, id)
		}
		if e.Physical != nil {
			f.Physical = *e.Physical
		}
		if e.Clothing != nil {
			f.Clothing = *e.Clothing
		}
		if e.Role != nil {
			c.Role = *e.Role
		}
		if e.Age != nil {
			c.Age = *e.Age
		}
		if e.Visual != nil {
			c.Visual = *e.Visual
		}
		return nil
	})
}

// AddForm adds an appearance form, copying the active form's descriptions
// where the request leaves them empty, and makes it the active form.
func (s *Service) AddForm(ctx context.Context, set, id, name, physical, clothing string) (Character, error) {
	name = clean(name)
	if name == "" {
		return Character{}, fmt.Errorf("%w: a form needs a name", ErrInvalid)
	}
	return s.update(ctx, set, id, 0, func(c *Character) error {
		for _, f := range c.Forms {
			if strings.EqualFold(f.Name, name) {
				return fmt.Errorf("%w: %s already has a form named %q", ErrInvalid, c.Name, name)
			}
		}
		active, err := c.Form(c.ActiveForm)
		if err != nil {
			active = &c.Forms[0]
		}
		f := Form{ID: "f" + newID(4), Name: name, Physical: or(physical, active.Physical), Clothing: or(clothing, active.Clothing)}
		c.Forms = append(c.Forms, f)
		c.ActiveForm = f.ID
		return nil
	})
}

// ImageURL is a short-lived link to a stored image.
func (s *Service) ImageURL(ctx context.Context, set, id, form, img string) (string, error) {
	c, err := s.Character(ctx, set, id)
	if err != nil {
		return "", err
	}
	f, err := c.Form(form)
	if err != nil {
		return "", fmt.Errorf("%w: form %s of %s", ErrNotFound, form, id)
	}
	for _, im := range f.images() {
		if im.ID == img {
			return s.blobs.PresignGet(ctx, imageKey(set, id, form, img), ImageLinkTTL)
		}
	}
	return "", fmt.Errorf("%w: image %s", ErrNotFound, img)
}

func (f *Form) images() []Image {
	var out []Image
	for _, im := range []*Image{f.Avatar, f.Concept, f.Turnaround} {
		if im != nil {
			out = append(out, *im)
		}
	}
	return append(out, f.Story...)
}

func (s *Service) readPNG(ctx context.Context, key string) ([]byte, error) {
	rc, _, err := s.blobs.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	defer rc.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(rc, 64<<20)); err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	return buf.Bytes(), nil
}

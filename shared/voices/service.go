package voices

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/engines/speech"
)

// Engines is what the library needs of the engines.
type Engines interface {
	// Speaker is the synthesizer of an engine: a built-in one or a TTS card.
	// A missing or unusable card is an error wrapping ErrNoEngine.
	Speaker(ctx context.Context, engine string) (speech.Synthesizer, error)
	// CardVoices lists a TTS card's voices: listed is false when the engine
	// offers no list and the names are OpenAI's.
	CardVoices(ctx context.Context, card string) (names []string, listed bool, err error)
	// Available reports why this instance cannot speak with engine now
	// (a built-in engine not installed or not carried), or nil. It does
	// not call an engine card.
	Available(ctx context.Context, engine string) error
	// EspeakVoices lists espeak-ng's voices.
	EspeakVoices(ctx context.Context) ([]speech.EspeakVoice, error)
	// EspeakVariants lists espeak-ng's variants (f2, grandma).
	EspeakVariants(ctx context.Context) ([]string, error)
	// Cloner is the clone call of an engine; one without is an error
	// wrapping ErrCannotClone that names the engine.
	Cloner(ctx context.Context, engine string) (Cloner, error)
	// Designer is the design call of an engine (BuiltinEngine designs
	// offline); one without is an error wrapping ErrCannotDesign.
	Designer(ctx context.Context, engine string) (Designer, error)
}

// PreviewTTL is how long a preview's URL plays.
const PreviewTTL = time.Hour

// Service is the voice library: search, edits, imports and previews.
type Service struct {
	store   Store
	blobs   blob.Store
	engines Engines
	clock   func() time.Time
	log     *slog.Logger
}

// NewService builds the library over its store, the instance's blob store
// (previews) and its engines.
func NewService(store Store, blobs blob.Store, engines Engines, clock func() time.Time, log *slog.Logger) *Service {
	return &Service{store: store, blobs: blobs, engines: engines, clock: clock, log: log}
}

// Spec is what a user says of a voice they add or edit.
type Spec struct {
	Name        string   `json:"name" minLength:"1" maxLength:"100"`
	Description string   `json:"description,omitempty" maxLength:"1000"`
	Language    string   `json:"language,omitempty" maxLength:"35" doc:"BCP 47 language tag (en, en-gb)"`
	Accent      string   `json:"accent,omitempty" maxLength:"50"`
	Gender      Gender   `json:"gender,omitempty" enum:"female,male,neutral,"`
	Age         Age      `json:"age,omitempty" enum:"young,middle_aged,old,"`
	Tags        []string `json:"tags,omitempty" maxItems:"20" doc:"tags of at most 32 characters"`
	Source      Source   `json:"source,omitempty" enum:"engine,design," doc:"engine (default) or design when adding; kept when editing"`
	Engine      string   `json:"engine" minLength:"1" maxLength:"64" doc:"engine card name, or espeak-ng"`
	EngineVoice string   `json:"engine_voice" minLength:"1" maxLength:"200" doc:"the engine's own voice id"`
	// Version guards an edit: when set it must be the stored version; 0
	// edits whatever version is stored.
	Version int64 `json:"version,omitempty" minimum:"0" doc:"the version read; 0 overwrites the latest"`
}

// Search answers one page of the voices q selects.
func (s *Service) Search(ctx context.Context, q Query) (Result, error) {
	q, err := NormalizeQuery(q)
	if err != nil {
		return Result{}, err
	}
	r, err := s.store.Search(ctx, q)
	s.annotate(ctx, r.Items)
	return r, err
}

// Get returns one voice, saying whether this instance can speak in it.
func (s *Service) Get(ctx context.Context, id string) (Voice, error) {
	v, err := s.get(ctx, id)
	vs := []Voice{v}
	s.annotate(ctx, vs)
	return vs[0], err
}

// get is the stored voice.
func (s *Service) get(ctx context.Context, id string) (Voice, error) {
	if err := CheckID(id); err != nil {
		return Voice{}, err
	}
	return s.store.Get(ctx, id)
}

// Create adds a voice under a new id.
func (s *Service) Create(ctx context.Context, spec Spec) (Voice, error) {
	v, err := s.fromSpec(ctx, NewID(), spec)
	if err != nil {
		return Voice{}, err
	}
	return s.store.Create(ctx, v)
}

// Put creates the voice id, or edits it (created says which). Source,
// creation time and consent stay as they were; the preview stays only while
// the engine, its voice and the language do. A clone's name, description,
// language, accent, gender, age and tags may change, not the engine voice
// it was cloned as.
func (s *Service) Put(ctx context.Context, id string, spec Spec) (v Voice, created bool, err error) {
	if err := CheckID(id); err != nil {
		return Voice{}, false, err
	}
	old, err := s.store.Get(ctx, id)
	if errors.Is(err, ErrNotFound) {
		v, err := s.fromSpec(ctx, id, spec)
		if err != nil {
			return Voice{}, false, err
		}
		v, err = s.store.Create(ctx, v)
		return v, err == nil, err
	}
	if err != nil {
		return Voice{}, false, err
	}
	if old.ReadOnly() {
		return Voice{}, false, fmt.Errorf("%w: %s (%s) comes with %s; add a voice of your own instead", ErrReadOnly, old.Name, id, old.Engine)
	}
	if spec.Version != 0 && spec.Version != old.Version {
		return Voice{}, false, fmt.Errorf("%w: %s is at version %d, not %d", ErrStale, id, old.Version, spec.Version)
	}
	if spec.Source != "" && spec.Source != old.Source {
		return Voice{}, false, fmt.Errorf("%w: source stays %s", ErrInvalid, old.Source)
	}
	spec.Source = old.Source
	if old.Source == SourceClone && (spec.Engine != old.Engine || spec.EngineVoice != old.EngineVoice) {
		return Voice{}, false, fmt.Errorf("%w: a clone stays the voice %s of engine %s it was cloned as; clone again for another", ErrInvalid, old.EngineVoice, old.Engine)
	}
	next := specVoice(id, spec, s.clock().UTC())
	next.Created, next.Consent, next.Version = old.Created, old.Consent, old.Version
	if err := Validate(next); err != nil {
		return Voice{}, false, err
	}
	if next.Engine != old.Engine || next.EngineVoice != old.EngineVoice {
		if err := s.checkEngine(ctx, next); err != nil {
			return Voice{}, false, err
		}
	}
	if PreviewKey(next) == PreviewKey(old) {
		next.Preview = old.Preview
	}
	if v, err = s.store.Update(ctx, next); err != nil {
		return Voice{}, false, err
	}
	// A clone's old preview speaks in the speaker's voice and nothing
	// would find it again.
	if old.Source == SourceClone && old.Preview != "" && old.Preview != v.Preview {
		if err := s.blobs.Purge(ctx, old.Preview); err != nil {
			s.log.Warn("a clone's old preview was not deleted", "voice", id, "key", old.Preview, "err", err)
		}
	}
	return v, false, nil
}

// specVoice is the voice record a user's spec describes, unchecked.
func specVoice(id string, spec Spec, now time.Time) Voice {
	src := spec.Source
	if src == "" {
		src = SourceEngine
	}
	return Normalize(Voice{
		ID: id, Name: spec.Name, Description: spec.Description, Language: spec.Language,
		Accent: spec.Accent, Gender: spec.Gender, Age: spec.Age, Tags: spec.Tags,
		Source: src, Engine: spec.Engine, EngineVoice: spec.EngineVoice,
		Created: now, Updated: now,
	})
}

// fromSpec makes a checked voice record from a user's spec for a voice
// added by hand, on an engine this instance has.
func (s *Service) fromSpec(ctx context.Context, id string, spec Spec) (Voice, error) {
	v, err := s.handVoice(id, spec)
	if err != nil {
		return Voice{}, err
	}
	return v, s.checkEngine(ctx, v)
}

// handVoice is fromSpec before the engine is asked.
func (s *Service) handVoice(id string, spec Spec) (Voice, error) {
	v := specVoice(id, spec, s.clock().UTC())
	if v.Source == SourceBuiltin || v.Source == SourceClone {
		return Voice{}, fmt.Errorf("%w: %s voices are not added by hand (built-in voices come from espeak-ng, clones from the clone call)", ErrInvalid, v.Source)
	}
	return v, Validate(v)
}

// checkEngine refuses a voice no engine of this instance has: an engine
// card that does not exist (or is no TTS card), or a name espeak-ng does
// not list. espeak-ng would speak an unknown name in its default voice
// without a word, so the library would hold a voice that is not one.
func (s *Service) checkEngine(ctx context.Context, v Voice) error {
	if v.Engine == PiperEngine {
		if _, err := speech.ParsePiperSpec(v.EngineVoice); err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		return nil
	}
	if v.Engine != BuiltinEngine {
		_, err := s.engines.Speaker(ctx, v.Engine)
		return err
	}
	spec, err := speech.ParseEspeakSpec(v.EngineVoice)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	name, variant, _ := strings.Cut(spec.Voice, "+")
	table, err := s.engines.EspeakVoices(ctx)
	if err != nil {
		return fmt.Errorf("%w: espeak-ng's voices cannot be listed: %v", ErrNoEngine, err)
	}
	if !slices.ContainsFunc(table, func(e speech.EspeakVoice) bool { return strings.EqualFold(e.Language, name) }) {
		return fmt.Errorf("%w: espeak-ng has no voice %q (espeak-ng --voices lists them)", ErrInvalid, name)
	}
	if variant == "" {
		return nil
	}
	variants, err := s.engines.EspeakVariants(ctx)
	if err != nil {
		return fmt.Errorf("%w: espeak-ng's variants cannot be listed: %v", ErrNoEngine, err)
	}
	if !slices.Contains(variants, variant) {
		return fmt.Errorf("%w: espeak-ng has no variant %q (espeak-ng --voices=variant lists them)", ErrInvalid, variant)
	}
	return nil
}

// Delete removes a voice; version 0 removes any version. A clone leaves
// nothing of the speaker behind: the engine's copy goes first (an engine
// that fails keeps everything here, so the delete can be retried), then
// the recording and the preview (every version of them), then the record.
func (s *Service) Delete(ctx context.Context, id string, version int64) error {
	v, err := s.get(ctx, id)
	if err != nil {
		return err
	}
	if v.ReadOnly() {
		return fmt.Errorf("%w: %s (%s) comes with %s", ErrReadOnly, v.Name, id, v.Engine)
	}
	if v.Source == SourceClone {
		if version != 0 && version != v.Version {
			return fmt.Errorf("%w: %s is at version %d, not %d", ErrStale, id, v.Version, version)
		}
		if err := s.forgetClone(ctx, v); err != nil {
			return err
		}
	}
	return s.store.Delete(ctx, id, version)
}

// forgetClone deletes a clone on its engine and purges its recording and
// preview. A card that is gone cannot be reached: the engine's copy is
// then the user's to remove, and the log says so.
func (s *Service) forgetClone(ctx context.Context, v Voice) error {
	cloner, err := s.engines.Cloner(ctx, v.Engine)
	switch {
	case errors.Is(err, ErrNoEngine):
		s.log.Warn("clone deleted without its engine card: remove it on the engine by hand", "voice", v.ID, "engine", v.Engine, "engine_voice", v.EngineVoice, "err", err)
	case err != nil:
		return err
	default:
		if err := cloner.DeleteVoice(ctx, v.EngineVoice); err != nil {
			return engineError(v.Engine, err)
		}
	}
	keys := []string{}
	for _, f := range AudioFormats {
		keys = append(keys, ReferenceKey(v.ID, f))
	}
	// The preview speaks in the speaker's voice too; a clone's is its own
	// (the key digests the engine's voice id), never shared.
	keys = append(keys, PreviewKey(v))
	if v.Preview != "" && v.Preview != PreviewKey(v) {
		keys = append(keys, v.Preview)
	}
	for _, k := range keys {
		if err := s.blobs.Purge(ctx, k); err != nil {
			return fmt.Errorf("delete the recordings of %s: %w", v.ID, err)
		}
	}
	return nil
}

// Preview is a voice's sample as a client fetches it.
type Preview struct {
	VoiceID     string `json:"voice_id"`
	Key         string `json:"key" doc:"blob key of the sample"`
	ContentType string `json:"content_type" doc:"audio/wav or audio/mpeg"`
	URL         string `json:"url" doc:"where to fetch the sample; valid for an hour"`
	Text        string `json:"text" doc:"what the sample says"`
	Cached      bool   `json:"cached" doc:"the sample was already made; no engine was called"`
}

// Preview makes the voice speak its sample sentence, once: the sample is
// stored under PreviewKey and a later preview, in any process sharing the
// blob store, serves it without an engine call.
func (s *Service) Preview(ctx context.Context, id string) (Preview, error) {
	v, err := s.get(ctx, id)
	if err != nil {
		return Preview{}, err
	}
	p := Preview{VoiceID: v.ID, Key: PreviewKey(v), Text: SampleSentence(v.Language)}
	info, err := s.blobs.Head(ctx, p.Key)
	switch {
	case err == nil:
		p.Cached, p.ContentType = true, info.ContentType
	case errors.Is(err, blob.ErrNotFound):
		if p.ContentType, err = s.speak(ctx, v, p); err != nil {
			return Preview{}, err
		}
	default:
		return Preview{}, err
	}
	if p.URL, err = s.blobs.PresignGet(ctx, p.Key, PreviewTTL); err != nil {
		return Preview{}, err
	}
	if v.Preview != p.Key {
		v.Preview, v.Unavailable = p.Key, ""
		// Another writer may have changed the voice meanwhile; the sample
		// is stored either way and the next preview records it.
		if _, err := s.store.Update(ctx, v); err != nil && !errors.Is(err, ErrStale) && !errors.Is(err, ErrNotFound) {
			return Preview{}, err
		}
	}
	return p, nil
}

// speak makes v's sample and stores it under p.Key.
func (s *Service) speak(ctx context.Context, v Voice, p Preview) (string, error) {
	speaker, err := s.engines.Speaker(ctx, v.Engine)
	if err != nil {
		return "", err
	}
	audio, err := speaker.Speak(ctx, speech.Request{Text: p.Text, Voice: v.EngineVoice, Format: PreviewFormat(v)})
	if err != nil {
		return "", engineError(v.Engine, err)
	}
	if err := s.blobs.Put(ctx, p.Key, bytes.NewReader(audio.Data), audio.ContentType); err != nil {
		return "", fmt.Errorf("store preview of %s: %w", v.ID, err)
	}
	return audio.ContentType, nil
}

// engineError files an engine's failure: a refused request is the voice's
// fault (say, a voice id the engine does not have), anything else the
// engine's.
func engineError(engine string, err error) error {
	if errors.Is(err, speech.ErrInvalid) {
		return fmt.Errorf("%w: engine %s: %v", ErrNoEngine, engine, err)
	}
	return fmt.Errorf("%w: engine %s: %v", ErrEngine, engine, err)
}

// ImportBuiltin adds the built-in voices that the library lacks: the
// neural voice and its variations (listed whether or not this instance
// has Piper: the library is shared, and Search says where one cannot
// speak), espeak-ng's voices and its variants for a cast. It runs on every
// start and adds nothing the second time.
func (s *Service) ImportBuiltin(ctx context.Context) (int, error) {
	now := s.clock().UTC()
	added, err := s.store.Import(ctx, PiperVoices(now))
	if err != nil {
		return added, err
	}
	list, err := s.engines.EspeakVoices(ctx)
	if err != nil {
		return added, engineError(BuiltinEngine, err)
	}
	vs := make([]Voice, 0, len(list))
	for _, e := range list {
		v := FromEspeak(e, now)
		if err := Validate(v); err != nil {
			s.log.Warn("espeak-ng voice skipped", "voice", e.Language, "err", err)
			continue
		}
		vs = append(vs, v)
	}
	variants, err := s.engines.EspeakVariants(ctx)
	if err != nil {
		return added, engineError(BuiltinEngine, err)
	}
	vs = append(vs, EspeakCastVoices(variants, now)...)
	n, err := s.store.Import(ctx, vs)
	return added + n, err
}

// Refresh is what an engine card's import did.
type Refresh struct {
	Engine  string `json:"engine"`
	Listed  bool   `json:"listed" doc:"the engine listed its voices (GET /v1/audio/voices); false: OpenAI's voice names were assumed"`
	Voices  int    `json:"voices" doc:"voices the engine has"`
	Added   int    `json:"added" doc:"voices new to the library"`
	Removed int    `json:"removed" doc:"voices of this card the engine no longer lists"`
}

// ImportRequest names the engine whose voices to import.
type ImportRequest struct {
	Engine string `json:"engine" minLength:"1" maxLength:"64" doc:"a TTS engine card's name, or espeak-ng"`
}

// RefreshEngine imports the voices a TTS card's engine has and removes the
// card's imported voices it no longer lists (voices users added by hand
// stay). Voices already in the library keep their edits.
func (s *Service) RefreshEngine(ctx context.Context, card string) (Refresh, error) {
	if IsBuiltinEngine(card) {
		n, err := s.ImportBuiltin(ctx)
		return Refresh{Engine: card, Listed: true, Added: n}, err
	}
	if err := CheckEngine(card); err != nil {
		return Refresh{}, err
	}
	names, listed, err := s.engines.CardVoices(ctx, card)
	if err != nil {
		if errors.Is(err, ErrNoEngine) {
			return Refresh{}, err
		}
		return Refresh{}, engineError(card, err)
	}
	now := s.clock().UTC()
	keep := map[string]bool{}
	var vs []Voice
	for _, name := range names {
		v := FromEngine(card, name, now)
		if Validate(v) != nil {
			continue
		}
		keep[v.ID] = true
		vs = append(vs, v)
	}
	r := Refresh{Engine: card, Listed: listed, Voices: len(vs)}
	if r.Added, err = s.store.Import(ctx, vs); err != nil {
		return r, err
	}
	gone, err := s.imported(ctx, card)
	if err != nil {
		return r, err
	}
	for _, v := range gone {
		if keep[v.ID] || v.ID != EngineVoiceID(card, v.EngineVoice) {
			continue // still listed, or added by hand
		}
		if err := s.store.Delete(ctx, v.ID, v.Version); err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrStale) {
			return r, err
		}
		r.Removed++
	}
	return r, nil
}

// imported lists every engine-sourced voice of a card.
func (s *Service) imported(ctx context.Context, card string) ([]Voice, error) {
	var out []Voice
	q := Query{Engine: card, Source: SourceEngine, Limit: MaxLimit}
	for {
		page, err := s.store.Search(ctx, q)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if !page.HasMore {
			return out, nil
		}
		q.Offset = *page.NextOffset
	}
}

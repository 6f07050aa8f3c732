// Package voices owns the voice library shared by every instance: voice
// records and the rules each field follows, search over them, the Store port
// that keeps them (SQLite locally, the shared DynamoDB voice table in AWS),
// and the Service that imports voices from the engines and makes cached
// preview samples. Everything but the Service is pure.
package voices

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/blob"
)

// Source says where a voice came from.
type Source string

// The sources of a voice.
const (
	SourceBuiltin Source = "builtin" // shipped with a built-in engine (espeak-ng, Piper); read-only
	SourceEngine  Source = "engine"  // listed by an engine card
	SourceClone   Source = "clone"   // cloned from reference audio; needs consent
	SourceDesign  Source = "design"  // designed from a text description
)

// Sources lists every source, in the order the API shows them.
var Sources = []Source{SourceBuiltin, SourceEngine, SourceClone, SourceDesign}

// Gender is how a voice sounds; empty when nobody said.
type Gender string

// The genders a voice may have.
const (
	GenderFemale  Gender = "female"
	GenderMale    Gender = "male"
	GenderNeutral Gender = "neutral"
)

// Genders lists every gender.
var Genders = []Gender{GenderFemale, GenderMale, GenderNeutral}

// Age is the age group a voice sounds like; empty when nobody said.
type Age string

// The age groups, named as the ElevenLabs library names them.
const (
	AgeYoung      Age = "young"
	AgeMiddleAged Age = "middle_aged"
	AgeOld        Age = "old"
)

// Ages lists every age group.
var Ages = []Age{AgeYoung, AgeMiddleAged, AgeOld}

// BuiltinEngine is the engine name of espeak-ng's voices; with PiperEngine
// the built-in engines. Any other engine name is an engine card's.
const BuiltinEngine = "espeak-ng"

// Field limits, in characters.
const (
	MaxNameChars        = 100
	MaxDescriptionChars = 1000
	MaxAccentChars      = 50
	MaxLanguageChars    = 35 // BCP 47's practical limit
	MaxTags             = 20
	MaxTagChars         = 32
	MaxEngineVoiceChars = 200
	MaxConsentChars     = 500
)

// Voice is one voice of the library.
type Voice struct {
	ID          string   `json:"id" doc:"voice id"`
	Name        string   `json:"name" doc:"display name"`
	Description string   `json:"description" doc:"what the voice sounds like"`
	Language    string   `json:"language" doc:"BCP 47 language tag, lower case (en, en-gb, fr-fr)"`
	Accent      string   `json:"accent" doc:"accent, free text (Scottish, New York City)"`
	Gender      Gender   `json:"gender" enum:"female,male,neutral," doc:"empty when unknown"`
	Age         Age      `json:"age" enum:"young,middle_aged,old," doc:"age group; empty when unknown"`
	Tags        []string `json:"tags" doc:"lower-case tags"`
	Source      Source   `json:"source" enum:"builtin,engine,clone,design"`
	// Engine is the engine card the voice runs on, or a built-in engine.
	Engine      string `json:"engine" doc:"engine card name, or a built-in engine: espeak-ng, piper (the neural voice)"`
	EngineVoice string `json:"engine_voice" doc:"the engine's own voice id (alloy, af_heart, en-us)"`
	// Preview is the blob key of the voice's sample. The key is derived from
	// the engine, its voice and the sample text, so every instance sharing
	// the library finds or makes the same sample in its own blob store.
	Preview string   `json:"preview,omitempty" doc:"blob key of the preview sample, once one was made"`
	Consent *Consent `json:"consent,omitempty" doc:"the speaker's consent; clones only"`
	// Unavailable is not stored: the library is shared, and whether a
	// built-in engine runs is each instance's own.
	Unavailable string    `json:"unavailable,omitempty" doc:"why this instance cannot speak in the voice now (say, the neural voice is not installed); empty when it can"`
	Created     time.Time `json:"created" doc:"when the voice was added"`
	Updated     time.Time `json:"updated" doc:"when the voice last changed"`
	// Version counts writes; an update naming an older one is refused.
	Version int64 `json:"version" doc:"increases with every change; send it back to update"`
}

// Consent records the confirmation a clone needs: the speaker agreed to
// have their voice cloned.
type Consent struct {
	Confirmed bool      `json:"confirmed" doc:"the uploader confirmed the speaker's consent"`
	Statement string    `json:"statement" doc:"the statement that was confirmed"`
	By        string    `json:"by,omitempty" doc:"who confirmed it"`
	At        time.Time `json:"at" doc:"when it was confirmed"`
}

// ReadOnly reports whether the voice may not be changed or deleted through
// the API: built-in voices come from the engine and would come back on the
// next start anyway.
func (v Voice) ReadOnly() bool { return v.Source == SourceBuiltin }

var (
	idPattern       = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,99}$`)
	languagePattern = regexp.MustCompile(`^[a-z]{2,3}(-[a-z0-9]{1,8})*$`)
	tagPattern      = regexp.MustCompile(`^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{N} _.'-]*$`)
	// enginePattern is the engine card name rule (cards.Validate).
	enginePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$`)
)

// CheckID reports whether id is a voice id: 1-100 lower-case letters,
// digits, '.', '_' or '-', starting with a letter or digit.
func CheckID(id string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("%w: id %q must be 1-100 lower-case letters, digits, '.', '_' or '-'", ErrInvalid, clip(id))
	}
	return nil
}

// Normalize returns v with text trimmed, the language and tags lower-cased,
// tags de-duplicated and sorted, so equal voices compare equal and search
// sees one spelling.
func Normalize(v Voice) Voice {
	v.ID = strings.TrimSpace(v.ID)
	v.Name = strings.TrimSpace(v.Name)
	v.Description = strings.TrimSpace(v.Description)
	v.Language = strings.ToLower(strings.TrimSpace(v.Language))
	v.Accent = strings.TrimSpace(v.Accent)
	v.Gender = Gender(strings.ToLower(strings.TrimSpace(string(v.Gender))))
	v.Age = Age(strings.ToLower(strings.TrimSpace(string(v.Age))))
	v.Engine = strings.TrimSpace(v.Engine)
	v.EngineVoice = strings.TrimSpace(v.EngineVoice)
	tags := make([]string, 0, len(v.Tags))
	for _, t := range v.Tags {
		if t = strings.ToLower(strings.Join(strings.Fields(t), " ")); t != "" {
			tags = append(tags, t)
		}
	}
	slices.Sort(tags)
	v.Tags = slices.Compact(tags)
	if v.Consent != nil {
		c := *v.Consent
		c.Statement, c.By = strings.TrimSpace(c.Statement), strings.TrimSpace(c.By)
		v.Consent = &c
	}
	return v
}

// Validate reports the first rule v breaks, as an error wrapping
// ErrInvalid, or nil. It checks v as Normalize leaves it.
func Validate(v Voice) error {
	if err := CheckID(v.ID); err != nil {
		return err
	}
	checks := []error{
		text("name", v.Name, required, MaxNameChars),
		text("description", v.Description, multiline, MaxDescriptionChars),
		text("accent", v.Accent, 0, MaxAccentChars),
		CheckLanguage(v.Language),
		CheckGender(v.Gender),
		CheckAge(v.Age),
		CheckSource(v.Source),
		CheckEngine(v.Engine),
		text("engine_voice", v.EngineVoice, required, MaxEngineVoiceChars),
		checkTags(v.Tags),
		checkConsent(v),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if v.Preview != "" {
		if err := blob.CheckKey(v.Preview); err != nil {
			return fmt.Errorf("%w: preview: %v", ErrInvalid, err)
		}
	}
	return nil
}

// CheckLanguage accepts "" (unknown) or a BCP 47 style tag in lower case:
// a 2-3 letter language and subtags of 1-8 letters or digits.
func CheckLanguage(l string) error {
	if l != "" && (len(l) > MaxLanguageChars || !languagePattern.MatchString(l)) {
		return fmt.Errorf("%w: language %q is not a language tag such as en, en-gb or pt-br", ErrInvalid, clip(l))
	}
	return nil
}

// CheckGender accepts "" or one of Genders.
func CheckGender(g Gender) error { return oneOf("gender", g, Genders, true) }

// CheckAge accepts "" or one of Ages.
func CheckAge(a Age) error { return oneOf("age", a, Ages, true) }

// CheckSource accepts one of Sources.
func CheckSource(s Source) error { return oneOf("source", s, Sources, false) }

// CheckEngine accepts BuiltinEngine or an engine card name.
func CheckEngine(e string) error {
	if e != BuiltinEngine && !enginePattern.MatchString(e) {
		return fmt.Errorf("%w: engine %q is neither %s nor an engine card name", ErrInvalid, clip(e), BuiltinEngine)
	}
	return nil
}

func oneOf[T ~string](field string, v T, allowed []T, emptyOK bool) error {
	if (v == "" && emptyOK) || slices.Contains(allowed, v) {
		return nil
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return fmt.Errorf("%w: %s %q is not one of %s", ErrInvalid, field, clip(string(v)), strings.Join(names, ", "))
}

// textRule says what else a free-text field needs.
type textRule int

const (
	required  textRule = 1 << iota // at least one character
	multiline                      // newlines allowed
)

// text checks a free-text field: valid UTF-8 without control characters
// (but newlines where multiline), at most max characters.
func text(field, s string, rule textRule, max int) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: %s is not valid UTF-8", ErrInvalid, field)
	}
	n := utf8.RuneCountInString(s)
	switch {
	case n == 0 && rule&required != 0:
		return fmt.Errorf("%w: %s is empty", ErrInvalid, field)
	case n > max:
		return fmt.Errorf("%w: %s has %d characters, more than %d", ErrInvalid, field, n, max)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) && !(r == '\n' && rule&multiline != 0) }) {
		return fmt.Errorf("%w: %s has control characters", ErrInvalid, field)
	}
	return nil
}

func checkTags(tags []string) error {
	if len(tags) > MaxTags {
		return fmt.Errorf("%w: %d tags, more than %d", ErrInvalid, len(tags), MaxTags)
	}
	for _, t := range tags {
		if utf8.RuneCountInString(t) > MaxTagChars || !tagPattern.MatchString(t) {
			return fmt.Errorf("%w: tag %q must be 1-%d lower-case letters, digits, spaces, '_', '.', ''' or '-'", ErrInvalid, clip(t), MaxTagChars)
		}
	}
	return nil
}

// checkConsent: a clone carries a confirmed consent with its statement;
// nothing else carries one.
func checkConsent(v Voice) error {
	if v.Source != SourceClone {
		if v.Consent != nil {
			return fmt.Errorf("%w: only a clone carries consent", ErrInvalid)
		}
		return nil
	}
	if v.Consent == nil || !v.Consent.Confirmed {
		return fmt.Errorf("%w: a cloned voice needs the speaker's confirmed consent", ErrInvalid)
	}
	if err := text("consent statement", v.Consent.Statement, required|multiline, MaxConsentChars); err != nil {
		return err
	}
	return text("consent by", v.Consent.By, 0, MaxNameChars)
}

// clip shortens a refused value for an error text.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= 40 {
		return s
	}
	return string([]rune(s)[:40]) + "…"
}

package voices

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/engines/speech"
)

// PiperEngine is the engine name of the built-in neural voice (Piper with
// its bundled model) and its variations.
const PiperEngine = "piper"

// IsBuiltinEngine reports whether engine ships with Lectern (espeak-ng,
// Piper) rather than being an engine card.
func IsBuiltinEngine(engine string) bool { return engine == BuiltinEngine || engine == PiperEngine }

// builtinVoice is a voice Lectern offers for a cast: its engine voice and
// what it sounds like.
type builtinVoice struct {
	engineVoice string
	name        string
	gender      Gender
	age         Age
	sound       string
}

// piperVoices are the neural voice and its variations: one male speaker
// made younger (faster, higher), older (slower, lower, more varied) or
// deeper. Piper's joe model has no female speaker, and a pitch raised far
// enough to make one sounds like a cartoon, so the cast's women come from
// espeak-ng's variants.
var piperVoices = []builtinVoice{
	{speech.PiperModel, "Joe (neural)", GenderMale, AgeMiddleAged, "a natural U.S. English male voice, the default narrator"},
	{speech.PiperModel + ";rate=106;pitch=110;var=110", "Joe, younger (neural)", GenderMale, AgeYoung, "the neural voice a little higher and quicker"},
	{speech.PiperModel + ";rate=88;pitch=91;var=125", "Joe, older (neural)", GenderMale, AgeOld, "the neural voice slower, lower and rougher"},
	{speech.PiperModel + ";rate=96;pitch=86", "Joe, deep (neural)", GenderMale, AgeMiddleAged, "the neural voice deeper and a little slower"},
}

// espeakCast are espeak-ng's English voices with variants for a cast:
// women of every age and older men, which its plain voices lack (they are
// all male and ageless). Ages follow what espeak-ng says of a variant
// (f1, m1 and croak 70, grandma 90) or how it sounds.
var espeakCast = []builtinVoice{
	{"en-us+f2", "English (America), female, young", GenderFemale, AgeYoung, "higher, lighter"},
	{"en-us+f5", "English (America), female, young 2", GenderFemale, AgeYoung, "bright"},
	{"en-us+f3", "English (America), female", GenderFemale, AgeMiddleAged, "a mid-range woman's voice"},
	{"en-gb+f4", "English (Great Britain), female", GenderFemale, AgeMiddleAged, "a British woman's voice"},
	{"en-us+f1", "English (America), female, older", GenderFemale, AgeOld, "lower, older"},
	{"en-gb+grandma;rate=90", "English (Great Britain), grandmother", GenderFemale, AgeOld, "an elderly British woman, slower"},
	{"en-us+m2", "English (America), male, young", GenderMale, AgeYoung, "a young man's voice"},
	{"en-gb+m3", "English (Great Britain), male", GenderMale, AgeMiddleAged, "a British man's voice"},
	{"en-us+m7", "English (America), male 7", GenderMale, AgeMiddleAged, "a man's voice, another timbre"},
	{"en-us+m1", "English (America), male, older", GenderMale, AgeOld, "lower, older"},
	{"en-gb+croak;rate=90", "English (Great Britain), old man", GenderMale, AgeOld, "a croaking elderly man, slower"},
	{"en-us+grandpa;rate=90", "English (America), grandfather", GenderMale, AgeOld, "an elderly American man, slower"},
}

// PiperVoices are the library records of the neural voice and its
// variations.
func PiperVoices(now time.Time) []Voice {
	out := make([]Voice, 0, len(piperVoices))
	for _, b := range piperVoices {
		out = append(out, Normalize(Voice{
			ID: EngineVoiceID(PiperEngine, b.engineVoice), Name: b.name,
			Description: "Piper's neural voice, offline: " + b.sound + ".",
			Language:    "en-us", Accent: "America", Gender: b.gender, Age: b.age,
			Tags:   []string{"built-in", "neural", "offline", "piper"},
			Source: SourceBuiltin, Engine: PiperEngine, EngineVoice: b.engineVoice,
			Created: now, Updated: now,
		}))
	}
	return out
}

// EspeakCastVoices are the records of espeak-ng's voices for a cast whose
// variant espeak-ng has (variants lists them).
func EspeakCastVoices(variants []string, now time.Time) []Voice {
	var out []Voice
	for _, b := range espeakCast {
		spec, err := speech.ParseEspeakSpec(b.engineVoice)
		if err != nil {
			continue
		}
		lang, variant, _ := strings.Cut(spec.Voice, "+")
		if !slices.Contains(variants, variant) {
			continue
		}
		out = append(out, Normalize(Voice{
			ID: EngineVoiceID(BuiltinEngine, b.engineVoice), Name: b.name,
			Description: "espeak-ng's built-in voice with the " + variant + " variant: " + b.sound + "; formant synthesis, works offline.",
			Language:    lang, Gender: b.gender, Age: b.age,
			Tags:   []string{"built-in", "offline", "espeak-ng"},
			Source: SourceBuiltin, Engine: BuiltinEngine, EngineVoice: b.engineVoice,
			Created: now, Updated: now,
		}))
	}
	return out
}

// DefaultVoiceID is the voice read-aloud, podcasts and audiobook narration
// speak in until the user picks another: the neural voice.
var DefaultVoiceID = EngineVoiceID(PiperEngine, speech.PiperModel)

// FallbackVoiceID is the default where the neural voice cannot speak:
// espeak-ng's U.S. English.
var FallbackVoiceID = EngineVoiceID(BuiltinEngine, speech.DefaultEspeakVoice)

// DefaultVoice is this instance's default voice, and why it is not the
// neural one when it is not.
type DefaultVoice struct {
	Voice  Voice  `json:"voice" doc:"the voice narration speaks in until the user picks another"`
	Neural bool   `json:"neural" doc:"the default is the neural voice"`
	Reason string `json:"reason,omitempty" doc:"why the neural voice is not the default on this instance"`
}

// Default answers the default voice: the neural one where it can speak,
// else espeak-ng's, with the reason.
func (s *Service) Default(ctx context.Context) (DefaultVoice, error) {
	reason := ""
	if err := s.engines.Available(ctx, PiperEngine); err != nil {
		reason = err.Error()
	} else if v, err := s.store.Get(ctx, DefaultVoiceID); err == nil {
		return DefaultVoice{Voice: v, Neural: true}, nil
	} else if !errors.Is(err, ErrNotFound) {
		return DefaultVoice{}, err
	} else {
		reason = "the library has no neural voice yet (it is added when the server starts)"
	}
	v, err := s.store.Get(ctx, FallbackVoiceID)
	if err != nil {
		return DefaultVoice{}, fmt.Errorf("default voice %s: %w", FallbackVoiceID, err)
	}
	v.Unavailable = ""
	return DefaultVoice{Voice: v, Reason: reason}, nil
}

// annotate says of each built-in voice whether this instance can speak in
// it now (Voice.Unavailable); each engine is asked once.
func (s *Service) annotate(ctx context.Context, vs []Voice) {
	why := map[string]string{}
	for i := range vs {
		v := &vs[i]
		v.Unavailable = ""
		if !IsBuiltinEngine(v.Engine) {
			continue
		}
		reason, ok := why[v.Engine]
		if !ok {
			if err := s.engines.Available(ctx, v.Engine); err != nil {
				reason = err.Error()
			}
			why[v.Engine] = reason
		}
		v.Unavailable = reason
	}
}

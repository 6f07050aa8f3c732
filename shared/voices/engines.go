package voices

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/engines/speech"
)

// NewID is a fresh id for a voice a user adds.
func NewID() string { return "v-" + strings.ToLower(rand.Text())[:16] }

// EngineVoiceID is the id of an engine's own voice: readable (engine and
// voice, made id-safe) and unique (a digest of both), and the same in every
// instance, so importing the same voice twice finds it already there.
func EngineVoiceID(engine, voice string) string {
	sum := sha256.Sum256([]byte(engine + "\x00" + voice))
	slug := slugify(engine + "-" + voice)
	if len(slug) > 60 {
		slug = strings.TrimRight(slug[:60], "-")
	}
	return slug + "-" + hex.EncodeToString(sum[:4])
}

// slugify keeps lower-case letters and digits and turns every other run of
// characters into one '-'.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}

// FromEspeak is the built-in voice record of one espeak-ng voice: the
// parenthesised part of its name ("English (Scotland)") is the accent.
func FromEspeak(e speech.EspeakVoice, now time.Time) Voice {
	name := e.Name
	if name == "" {
		name = e.Language
	}
	accent := ""
	if i := strings.Index(name, "("); i >= 0 && strings.HasSuffix(name, ")") {
		accent = strings.TrimSpace(name[i+1 : len(name)-1])
	}
	gender := Gender("")
	switch e.Gender {
	case "M":
		gender = GenderMale
	case "F":
		gender = GenderFemale
	}
	v := Voice{
		ID:          EngineVoiceID(BuiltinEngine, e.Language),
		Name:        name,
		Description: "espeak-ng's built-in " + name + " voice: formant synthesis, clear and robotic, works offline.",
		Language:    e.Language,
		Accent:      accent,
		Gender:      gender,
		Tags:        []string{"built-in", "offline", "espeak-ng"},
		Source:      SourceBuiltin,
		Engine:      BuiltinEngine,
		EngineVoice: e.Language,
		Created:     now,
		Updated:     now,
	}
	v = Normalize(v)
	if CheckLanguage(v.Language) != nil {
		v.Language = "" // a name espeak-ng accepts but that is no language tag
	}
	return v
}

// FromEngine is the record of a voice an engine card lists. What it sounds
// like is unknown until a user says, so only the id names it.
func FromEngine(card, voice string, now time.Time) Voice {
	return Normalize(Voice{
		ID:          EngineVoiceID(card, voice),
		Name:        voice,
		Description: "Voice " + voice + " of the engine " + card + ".",
		Tags:        []string{"engine"},
		Source:      SourceEngine,
		Engine:      card,
		EngineVoice: voice,
		Created:     now,
		Updated:     now,
	})
}

// samples are sentences a voice speaks for its preview, by primary
// language; others speak English.
var samples = map[string]string{
	"en": "Hello! This is how I sound reading an article aloud.",
	"de": "Hallo! So klinge ich, wenn ich einen Artikel vorlese.",
	"es": "¡Hola! Así sueno cuando leo un artículo en voz alta.",
	"fr": "Bonjour ! Voici ma voix quand je lis un article à voix haute.",
	"it": "Ciao! Ecco come suono quando leggo un articolo ad alta voce.",
	"nl": "Hallo! Zo klink ik als ik een artikel voorlees.",
	"pt": "Olá! É assim que eu soo lendo um artigo em voz alta.",
	"pl": "Cześć! Tak brzmię, czytając artykuł na głos.",
	"sv": "Hej! Så här låter jag när jag läser en artikel högt.",
}

// SampleSentence is the preview text for a voice of the given language.
func SampleSentence(language string) string {
	primary, _, _ := strings.Cut(language, "-")
	if s, ok := samples[primary]; ok {
		return s
	}
	return samples["en"]
}

// PreviewFormat is the audio format a preview is asked for: the built-in
// engines only write WAV; other engines send MP3, a tenth of the size.
func PreviewFormat(v Voice) string {
	if IsBuiltinEngine(v.Engine) {
		return speech.FormatWAV
	}
	return speech.FormatMP3
}

// PreviewKey is the blob key of v's sample: a digest of everything that
// decides the audio (engine, its voice, the text, the format), so a key
// that exists holds the right sample, and any change makes a new one.
func PreviewKey(v Voice) string {
	format := PreviewFormat(v)
	sum := sha256.Sum256([]byte(v.Engine + "\x00" + v.EngineVoice + "\x00" + SampleSentence(v.Language) + "\x00" + format))
	return "voices/previews/" + hex.EncodeToString(sum[:16]) + "." + format
}

package speech

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// EspeakSpec is an espeak-ng voice with its own pitch and rate, written as
// one voice name: "en-gb-scotland+f2;pitch=42;rate=85". A designed voice is
// stored that way, so it needs nothing but its name to speak.
type EspeakSpec struct {
	Voice string // language with an optional variant: en-gb-scotland+f2
	Pitch int    // espeak-ng's -p, 0..99; -1 leaves espeak-ng's 50
	Rate  int    // percent of the normal rate, 50..200; 0 is 100
}

// String writes the spec as the voice name Speak takes.
func (s EspeakSpec) String() string {
	out := s.Voice
	if s.Pitch >= 0 {
		out += ";pitch=" + strconv.Itoa(s.Pitch)
	}
	if s.Rate != 0 && s.Rate != 100 {
		out += ";rate=" + strconv.Itoa(s.Rate)
	}
	return out
}

// ParseEspeakSpec reads a voice name, with or without pitch and rate.
func ParseEspeakSpec(name string) (EspeakSpec, error) {
	parts := strings.Split(strings.TrimSpace(name), ";")
	s := EspeakSpec{Voice: parts[0], Pitch: -1}
	if s.Voice == "" {
		s.Voice = DefaultEspeakVoice
	}
	if !isEspeakVoice(s.Voice) {
		return EspeakSpec{}, fmt.Errorf("%w: %q is not an espeak-ng voice name", ErrInvalid, s.Voice)
	}
	for _, p := range parts[1:] {
		key, value, _ := strings.Cut(p, "=")
		n, err := strconv.Atoi(value)
		switch {
		case err == nil && key == "pitch" && n >= 0 && n <= 99:
			s.Pitch = n
		case err == nil && key == "rate" && n >= 50 && n <= 200:
			s.Rate = n
		default:
			return EspeakSpec{}, fmt.Errorf("%w: %q in voice %q is not pitch=0..99 or rate=50..200", ErrInvalid, p, name)
		}
	}
	return s, nil
}

// EspeakDesign is an espeak-ng voice made from a description, with what
// the description was read to say.
type EspeakDesign struct {
	Spec     EspeakSpec
	Language string // BCP 47, lower case
	Accent   string
	Gender   string // female, male or "" when the description does not say
	Age      string // young, middle_aged, old or ""
	Summary  string // the choices in words: "Scottish English, female variant f2, lower pitch, slower"
}

// accents map words of a description to an espeak-ng voice; the first
// match in this order wins, so "New York" beats "American".
var accents = []struct {
	pattern  *regexp.Regexp
	voice    string
	language string
	accent   string
}{
	{regexp.MustCompile(`\bscot(s|tish|land)\b`), "en-gb-scotland", "en-gb", "Scottish"},
	{regexp.MustCompile(`\bnew york(er)?\b|\bnyc\b`), "en-us-nyc", "en-us", "New York City"},
	{regexp.MustCompile(`\bcaribbean|jamaican|trinidadian\b`), "en-029", "en", "Caribbean"},
	{regexp.MustCompile(`\blancashire|lancaster|northern english\b`), "en-gb-x-gbclan", "en-gb", "Lancashire"},
	{regexp.MustCompile(`\bbirmingham|brummie|west midlands\b`), "en-gb-x-gbcwmd", "en-gb", "West Midlands"},
	{regexp.MustCompile(`\b(received pronunciation|rp|posh|bbc)\b`), "en-gb-x-rp", "en-gb", "Received Pronunciation"},
	{regexp.MustCompile(`\b(british|english|london|irish|welsh)\b`), "en-gb", "en-gb", "British"},
	{regexp.MustCompile(`\b(american|us|texan|californian)\b`), "en-us", "en-us", "American"},
	{regexp.MustCompile(`\bfrench\b`), "fr-fr", "fr-fr", "French"},
	{regexp.MustCompile(`\bgerman\b`), "de", "de", "German"},
	{regexp.MustCompile(`\bspanish\b`), "es", "es", "Spanish"},
	{regexp.MustCompile(`\bitalian\b`), "it", "it", "Italian"},
	{regexp.MustCompile(`\bdutch\b`), "nl", "nl", "Dutch"},
	{regexp.MustCompile(`\bportuguese|brazilian\b`), "pt-br", "pt-br", "Brazilian Portuguese"},
}

var (
	female    = regexp.MustCompile(`\b(woman|women|female|lady|girl|she|her|mother|grandmother|grandma|aunt|queen|feminine)\b`)
	male      = regexp.MustCompile(`\b(man|men|male|gentleman|boy|he|his|father|grandfather|grandpa|uncle|king|masculine)\b`)
	young     = regexp.MustCompile(`\b(young|youthful|child|kid|teen(age|ager)?|girl|boy|student)\b`)
	middle    = regexp.MustCompile(`\bmiddle[- ]aged\b`)
	old       = regexp.MustCompile(`\b(old|older|elderly|aged|senior|grandmother|grandfather|grandma|grandpa|ancient|veteran)\b`)
	low       = regexp.MustCompile(`\b(deep|low|bass|baritone|gravelly|gruff|husky|booming|dark)\b`)
	high      = regexp.MustCompile(`\b(high|bright|squeaky|light|soprano|chirpy|shrill)\b`)
	slow      = regexp.MustCompile(`\b(slow|slowly|measured|calm|relaxed|unhurried|deliberate|gentle|soothing)\b`)
	veryslow  = regexp.MustCompile(`\bvery slow(ly)?\b`)
	fast      = regexp.MustCompile(`\b(fast|quick|quickly|brisk|energetic|excited|rapid|lively|hurried)\b`)
	whisper   = regexp.MustCompile(`\b(whisper|whispering|whispery|breathy|hushed)\b`)
	raspy     = regexp.MustCompile(`\b(raspy|croaky|croaking|hoarse|rough|crackly)\b`)
	warm      = regexp.MustCompile(`\b(warm|soft|kind|friendly|smooth|rich)\b`)
	negations = regexp.MustCompile(`\b(not|no|never|isn't|without)\s+\w+`)
)

// DesignEspeak maps a description ("warm older woman, Scottish, slow") to
// espeak-ng voices: the closest one first, then two neighbours (another
// variant, a little higher and a little lower), so a user can pick by ear.
// The same description always gives the same voices.
func DesignEspeak(description string) []EspeakDesign {
	d := strings.ToLower(description)
	// "not fast" must not read as fast: negated words are dropped.
	d = negations.ReplaceAllString(d, " ")
	base := EspeakDesign{Spec: EspeakSpec{Voice: "en-us", Pitch: 50, Rate: 100}, Language: "en-us", Accent: "American"}
	for _, a := range accents {
		if a.pattern.MatchString(d) {
			base.Spec.Voice, base.Language, base.Accent = a.voice, a.language, a.accent
			break
		}
	}
	isFemale, isMale := female.MatchString(d), male.MatchString(d)
	switch {
	case isFemale && !isMale:
		base.Gender = "female"
	case isMale && !isFemale:
		base.Gender = "male"
	}
	switch {
	case middle.MatchString(d):
		base.Age = "middle_aged"
	case old.MatchString(d):
		base.Age = "old"
	case young.MatchString(d):
		base.Age = "young"
	}

	// Pitch: by gender and age first, then the words that move it.
	pitch := map[string]int{"female": 62, "male": 38, "": 50}[base.Gender]
	switch base.Age {
	case "young":
		pitch += 8
	case "old":
		pitch -= 6
	}
	if low.MatchString(d) {
		pitch -= 12
	}
	if high.MatchString(d) {
		pitch += 12
	}
	base.Spec.Pitch = min(max(pitch, 5), 95)

	switch {
	case veryslow.MatchString(d):
		base.Spec.Rate = 70
	case slow.MatchString(d):
		base.Spec.Rate = 85
	case fast.MatchString(d):
		base.Spec.Rate = 120
	}
	if base.Age == "old" && base.Spec.Rate == 100 {
		base.Spec.Rate = 92
	}

	variants := variantsFor(base.Gender, base.Age, d)
	out := make([]EspeakDesign, 0, 3)
	for i, shift := range []int{0, 6, -6} {
		c := base
		c.Spec.Voice = base.Spec.Voice + "+" + variants[i%len(variants)]
		c.Spec.Pitch = min(max(base.Spec.Pitch+shift, 0), 99)
		c.Summary = summary(c)
		out = append(out, c)
	}
	return out
}

// variantsFor picks espeak-ng variants (voices/!v) that suit the voice:
// the first suits it best.
func variantsFor(gender, age, d string) []string {
	switch {
	case whisper.MatchString(d) && gender == "female":
		return []string{"whisperf", "f2", "f4"}
	case whisper.MatchString(d):
		return []string{"whisper", "m2", "m5"}
	case raspy.MatchString(d):
		return []string{"croak", "m7", "f3"}
	case gender == "female" && age == "old":
		return []string{"grandma", "f3", "f2"}
	case gender == "male" && age == "old":
		return []string{"grandpa", "m7", "m3"}
	case gender == "female" && warm.MatchString(d):
		return []string{"f2", "f5", "f1"}
	case gender == "female":
		return []string{"f4", "f1", "f2"}
	case gender == "male" && warm.MatchString(d):
		return []string{"m2", "m3", "m6"}
	case gender == "male":
		return []string{"m3", "m1", "m6"}
	}
	return []string{"m2", "f2", "klatt"}
}

func summary(c EspeakDesign) string {
	parts := []string{c.Accent + " (" + c.Spec.Voice + ")"}
	if c.Gender != "" {
		parts = append(parts, c.Gender)
	}
	if c.Age != "" {
		parts = append(parts, strings.ReplaceAll(c.Age, "_", "-"))
	}
	parts = append(parts, fmt.Sprintf("pitch %d", c.Spec.Pitch))
	if c.Spec.Rate != 100 {
		parts = append(parts, fmt.Sprintf("%d%% speed", c.Spec.Rate))
	}
	return strings.Join(parts, ", ")
}

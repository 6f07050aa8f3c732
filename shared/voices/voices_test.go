package voices

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/engines/speech"
)

func valid() Voice {
	return Voice{
		ID: "v-abc", Name: "Moira", Description: "Warm.\nSlow.", Language: "en-gb", Accent: "Scottish",
		Gender: GenderFemale, Age: AgeOld, Tags: []string{"warm", "storyteller"},
		Source: SourceEngine, Engine: "kokoro", EngineVoice: "bf_emma",
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Voice)
		want   string // part of the error; "" means valid
	}{
		{"a full voice is valid", func(*Voice) {}, ""},
		{"the built-in engine is valid", func(v *Voice) { v.Engine, v.Source = BuiltinEngine, SourceBuiltin }, ""},
		{"unknowns left empty are valid", func(v *Voice) { v.Gender, v.Age, v.Language, v.Accent, v.Tags = "", "", "", "", nil }, ""},
		{"a clone with confirmed consent is valid", func(v *Voice) {
			v.Source, v.Consent = SourceClone, &Consent{Confirmed: true, Statement: "I agree."}
		}, ""},
		{"id with upper case", func(v *Voice) { v.ID = "V-ABC" }, "id"},
		{"id with a slash", func(v *Voice) { v.ID = "a/b" }, "id"},
		{"id too long", func(v *Voice) { v.ID = strings.Repeat("a", 101) }, "id"},
		{"empty name", func(v *Voice) { v.Name = "" }, "name is empty"},
		{"name of 101 characters", func(v *Voice) { v.Name = strings.Repeat("é", 101) }, "name has 101 characters"},
		{"name with a newline", func(v *Voice) { v.Name = "a\nb" }, "name has control"},
		{"name not UTF-8", func(v *Voice) { v.Name = "\xff" }, "UTF-8"},
		{"description of 1001 characters", func(v *Voice) { v.Description = strings.Repeat("a", 1001) }, "description has 1001"},
		{"description with a NUL", func(v *Voice) { v.Description = "a\x00" }, "description has control"},
		{"accent of 51 characters", func(v *Voice) { v.Accent = strings.Repeat("a", 51) }, "accent"},
		{"language not a tag", func(v *Voice) { v.Language = "english" }, "language"},
		{"language with an underscore", func(v *Voice) { v.Language = "en_gb" }, "language"},
		{"unknown gender", func(v *Voice) { v.Gender = "robot" }, "gender \"robot\" is not one of female, male, neutral"},
		{"unknown age", func(v *Voice) { v.Age = "ancient" }, "age"},
		{"missing source", func(v *Voice) { v.Source = "" }, "source"},
		{"unknown source", func(v *Voice) { v.Source = "stolen" }, "source"},
		{"engine with a slash", func(v *Voice) { v.Engine = "a/b" }, "engine"},
		{"empty engine voice", func(v *Voice) { v.EngineVoice = "" }, "engine_voice is empty"},
		{"21 tags", func(v *Voice) { v.Tags = strings.Split(strings.Repeat("t,", 21)[:41], ",") }, "21 tags"},
		{"tag of 33 characters", func(v *Voice) { v.Tags = []string{strings.Repeat("a", 33)} }, "tag"},
		{"upper-case tag", func(v *Voice) { v.Tags = []string{"Warm"} }, "tag"},
		{"clone without consent", func(v *Voice) { v.Source = SourceClone }, "consent"},
		{"clone with unconfirmed consent", func(v *Voice) { v.Source, v.Consent = SourceClone, &Consent{Statement: "x"} }, "consent"},
		{"clone consent without statement", func(v *Voice) { v.Source, v.Consent = SourceClone, &Consent{Confirmed: true} }, "statement is empty"},
		{"consent on a non-clone", func(v *Voice) { v.Consent = &Consent{Confirmed: true, Statement: "x"} }, "only a clone"},
		{"preview key climbing out", func(v *Voice) { v.Preview = "../x.wav" }, "preview"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := valid()
			tc.change(&v)
			err := Validate(v)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an ErrInvalid saying %q", err, tc.want)
			}
		})
	}
}

func TestNormalizeTrimsLowersAndSortsTags(t *testing.T) {
	v := Normalize(Voice{ID: " x ", Name: " Moira ", Language: " EN-GB ", Gender: "Female", Age: " OLD",
		Tags: []string{" Warm ", "warm", "", "Story   Teller"}})
	if v.ID != "x" || v.Name != "Moira" || v.Language != "en-gb" || v.Gender != GenderFemale || v.Age != AgeOld {
		t.Fatalf("got %+v", v)
	}
	if strings.Join(v.Tags, "|") != "story teller|warm" {
		t.Fatalf("tags %q", v.Tags)
	}
}

func TestEngineVoiceIDIsStableUniqueAndValid(t *testing.T) {
	a := EngineVoiceID("kokoro", "af_heart")
	if a != EngineVoiceID("kokoro", "af_heart") {
		t.Fatal("not stable")
	}
	seen := map[string]string{}
	for _, pair := range [][2]string{{"kokoro", "af_heart"}, {"kokoro", "af-heart"}, {"Kokoro", "af_heart"}, {"a b", "c"}, {"a", "b c"},
		{BuiltinEngine, "chr-US-Qaaa-x-west"}, {"x", strings.Repeat("long voice ", 30)}, {"x", "日本語"}} {
		id := EngineVoiceID(pair[0], pair[1])
		if err := CheckID(id); err != nil {
			t.Fatalf("%q: %v", pair, err)
		}
		if prev, ok := seen[id]; ok {
			t.Fatalf("%q and %s share id %s", pair, prev, id)
		}
		seen[id] = pair[0] + "/" + pair[1]
	}
	if !strings.HasPrefix(a, "kokoro-af-heart-") {
		t.Fatalf("id %q does not read as its engine and voice", a)
	}
}

func TestFromEspeakNamesAccentAndGender(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	v := FromEspeak(speech.EspeakVoice{Language: "en-gb-scotland", Gender: "M", Name: "English (Scotland)", File: "gmw/en-GB-scotland"}, now)
	if err := Validate(v); err != nil {
		t.Fatal(err)
	}
	if v.Accent != "Scotland" || v.Gender != GenderMale || v.Language != "en-gb-scotland" || v.EngineVoice != "en-gb-scotland" ||
		v.Source != SourceBuiltin || v.Engine != BuiltinEngine || !v.Created.Equal(now) {
		t.Fatalf("got %+v", v)
	}
	// espeak-ng's own spelling is kept for the engine, lower-cased for search.
	w := FromEspeak(speech.EspeakVoice{Language: "chr-US-Qaaa-x-west", Name: "Cherokee"}, now)
	if w.EngineVoice != "chr-US-Qaaa-x-west" || w.Language != "chr-us-qaaa-x-west" || w.Gender != "" || Validate(w) != nil {
		t.Fatalf("got %+v (%v)", w, Validate(w))
	}
}

func TestSampleSentenceFollowsThePrimaryLanguage(t *testing.T) {
	if SampleSentence("fr-be") != samples["fr"] || SampleSentence("de") != samples["de"] ||
		SampleSentence("") != samples["en"] || SampleSentence("xx-yy") != samples["en"] {
		t.Fatal("wrong sample sentence")
	}
}

func TestPreviewKeyChangesWithWhatDecidesTheAudio(t *testing.T) {
	v := valid()
	k := PreviewKey(v)
	if !strings.HasPrefix(k, "voices/previews/") || !strings.HasSuffix(k, ".mp3") {
		t.Fatalf("key %q", k)
	}
	same := v
	same.Name, same.Tags = "Other name", nil
	if PreviewKey(same) != k {
		t.Fatal("a name change changed the sample's key")
	}
	for name, change := range map[string]func(*Voice){
		"engine":       func(v *Voice) { v.Engine = "other" },
		"engine voice": func(v *Voice) { v.EngineVoice = "bf_isabella" },
		"language":     func(v *Voice) { v.Language = "fr" },
	} {
		w := v
		change(&w)
		if PreviewKey(w) == k {
			t.Errorf("changing the %s kept the key", name)
		}
	}
	b := v
	b.Engine = BuiltinEngine
	if !strings.HasSuffix(PreviewKey(b), ".wav") {
		t.Fatal("espeak-ng previews are WAV")
	}
}

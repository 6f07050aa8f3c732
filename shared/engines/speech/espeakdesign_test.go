package speech

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestDesignEspeakReadsTheDescription(t *testing.T) {
	for _, c := range []struct {
		description              string
		voice, language, accent  string
		gender, age              string
		minPitch, maxPitch, rate int
	}{
		{"warm older woman, Scottish, slow", "en-gb-scotland+grandma", "en-gb", "Scottish", "female", "old", 45, 65, 85},
		{"A deep-voiced middle-aged man from New York, fast and energetic", "en-us-nyc+m3", "en-us", "New York City", "male", "middle_aged", 15, 35, 120},
		{"young British girl, bright and quick", "en-gb+f4", "en-gb", "British", "female", "young", 75, 95, 120},
		{"a raspy old pirate captain, he growls", "en-us+croak", "en-us", "American", "male", "old", 20, 40, 92},
		{"whispering woman, very slowly", "en-us+whisperf", "en-us", "American", "female", "", 55, 70, 70},
		{"a narrator", "en-us+m2", "en-us", "American", "", "", 45, 55, 100},
		// A negated word does not count: "not fast" is no fast voice.
		{"a calm man, not fast, not old", "en-us+m3", "en-us", "American", "male", "", 30, 45, 85},
	} {
		got := DesignEspeak(c.description)
		if len(got) != 3 {
			t.Fatalf("%q: %d candidates, want 3", c.description, len(got))
		}
		first := got[0]
		if first.Spec.Voice != c.voice || first.Language != c.language || first.Accent != c.accent || first.Gender != c.gender || first.Age != c.age {
			t.Errorf("%q: %+v", c.description, first)
		}
		if first.Spec.Pitch < c.minPitch || first.Spec.Pitch > c.maxPitch || first.Spec.Rate != c.rate {
			t.Errorf("%q: pitch %d (want %d..%d), rate %d (want %d)", c.description, first.Spec.Pitch, c.minPitch, c.maxPitch, first.Spec.Rate, c.rate)
		}
		// Deterministic: the same description, the same voices.
		if again := DesignEspeak(c.description); !reflect.DeepEqual(got, again) {
			t.Errorf("%q: a second design differs", c.description)
		}
		// The three are three different voices.
		if got[0].Spec == got[1].Spec || got[1].Spec == got[2].Spec || got[0].Spec == got[2].Spec {
			t.Errorf("%q: candidates repeat: %v", c.description, got)
		}
	}
}

func TestEspeakSpecRoundTripsAndRefusesWhatIsNoVoice(t *testing.T) {
	for _, name := range []string{"en-gb-scotland+f2;pitch=42;rate=85", "en-us", "de+m3;pitch=0", "en;rate=200"} {
		s, err := ParseEspeakSpec(name)
		if err != nil || s.String() != name {
			t.Errorf("%q: %+v %v → %q", name, s, err, s.String())
		}
	}
	for _, name := range []string{"en;pitch=100", "en;rate=20", "en;volume=3", "-w /etc/passwd", "../../x", "en;pitch=4x"} {
		if _, err := ParseEspeakSpec(name); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q: %v, want ErrInvalid", name, err)
		}
	}
}

func TestEspeakSpeaksADesignedVoiceWithItsPitchAndRate(t *testing.T) {
	requireEspeak(t)
	ctx := context.Background()
	speak := func(voice string) []byte {
		a, err := Espeak{}.Speak(ctx, Request{Text: "The lighthouse keeper read the letter twice.", Voice: voice})
		if err != nil {
			t.Fatalf("%s: %v", voice, err)
		}
		return a.Data
	}
	low, high := speak("en-gb-scotland+f2;pitch=20"), speak("en-gb-scotland+f2;pitch=80")
	if bytes.Equal(low, high) {
		t.Error("pitch 20 and pitch 80 sound the same")
	}
	normal, slow := speak("en-gb-scotland+f2"), speak("en-gb-scotland+f2;rate=60")
	// A slower voice takes longer: more samples.
	if len(slow) < len(normal)*5/4 {
		t.Errorf("rate 60: %d bytes against %d at the normal rate", len(slow), len(normal))
	}
}

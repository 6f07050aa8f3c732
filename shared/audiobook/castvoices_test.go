package audiobook

import (
	"reflect"
	"testing"

	"github.com/lectern/lectern/shared/voices"
)

func TestAssignVoices(t *testing.T) {
	lib := []voices.Voice{
		{ID: "joe", Gender: voices.GenderMale, Age: voices.AgeMiddleAged, Language: "en-us", Tags: []string{"neural"}},
		{ID: "joe-old", Gender: voices.GenderMale, Age: voices.AgeOld, Language: "en-us", Tags: []string{"neural"}},
		{ID: "m3", Gender: voices.GenderMale, Age: voices.AgeMiddleAged, Language: "en-gb"},
		{ID: "f2", Gender: voices.GenderFemale, Age: voices.AgeYoung, Language: "en-us"},
		{ID: "f3", Gender: voices.GenderFemale, Age: voices.AgeMiddleAged, Language: "en-us"},
	}
	for _, tc := range []struct {
		name  string
		chars []Character
		lib   []voices.Voice
		want  map[string]string
	}{
		{
			name: "each by gender, distinct, the narrator's neural voice kept for narration",
			chars: []Character{
				{ID: "alice", Name: "Alice", Gender: "female"}, {ID: "king", Name: "The King", Gender: "male"},
				{ID: "queen", Name: "The Queen", Gender: "female"}, {ID: "old", Name: "Old Father William", Gender: "male"},
			},
			lib:  lib,
			want: map[string]string{"alice": "f2", "king": "m3", "queen": "f3", "old": "joe-old"},
		},
		{
			name:  "the first-person narrator and unknown genders speak in the narrator's voice",
			chars: []Character{{ID: "me", Name: "Narrator", Gender: "male", Narrator: true}, {ID: "cat", Name: "Cheshire Cat"}, {ID: "alice", Name: "Alice", Gender: "female"}},
			lib:   lib,
			want:  map[string]string{"alice": "f2"},
		},
		{
			name:  "no woman's voice: a woman speaks in the narrator's, never a man's",
			chars: []Character{{ID: "alice", Name: "Alice", Gender: "female"}},
			lib:   lib[:3],
			want:  map[string]string{},
		},
		{
			name:  "more women than voices: the voices are shared",
			chars: []Character{{ID: "a", Name: "A", Gender: "female"}, {ID: "b", Name: "B", Gender: "female"}, {ID: "c", Name: "C", Gender: "female"}},
			lib:   lib,
			want:  map[string]string{"a": "f2", "b": "f3", "c": "f2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := AssignVoices(tc.chars, tc.lib, "joe"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("AssignVoices = %v, want %v", got, tc.want)
			}
		})
	}
}

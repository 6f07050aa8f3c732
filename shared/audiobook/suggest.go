package audiobook

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/voices"
)

// SuggestedVoice is a library voice proposed for a character.
type SuggestedVoice struct {
	VoiceID  string        `json:"voice_id"`
	Name     string        `json:"name"`
	Gender   voices.Gender `json:"gender" enum:"female,male,neutral,"`
	Age      voices.Age    `json:"age" enum:"young,middle_aged,old,"`
	Language string        `json:"language"`
	Score    int           `json:"score" doc:"higher fits better: gender, then age, then English, then not yet taken"`
}

// CharacterSuggestion lists the voices proposed for one character, best
// first; the first is distinct from the other characters' first picks
// while the library has enough.
type CharacterSuggestion struct {
	ID     string           `json:"id"`
	Name   string           `json:"name"`
	Gender string           `json:"gender"`
	Age    voices.Age       `json:"age" enum:"young,middle_aged,old," doc:"guessed from the name (Old, Little, King...); empty when it says nothing"`
	Voices []SuggestedVoice `json:"voices"`
}

// Suggestions are voices proposed for the narrator and each character.
type Suggestions struct {
	Narrator   []SuggestedVoice      `json:"narrator"`
	Characters []CharacterSuggestion `json:"characters"`
}

// perCharacter is how many voices are proposed for each.
const perCharacter = 5

// ageWords tell a character's age group from a word of its name.
var ageWords = map[string]voices.Age{
	"old": voices.AgeOld, "elder": voices.AgeOld, "grandfather": voices.AgeOld, "grandmother": voices.AgeOld,
	"granny": voices.AgeOld, "grandpa": voices.AgeOld, "grandma": voices.AgeOld, "aged": voices.AgeOld,
	"young": voices.AgeYoung, "little": voices.AgeYoung, "boy": voices.AgeYoung, "girl": voices.AgeYoung,
	"child": voices.AgeYoung, "baby": voices.AgeYoung, "lad": voices.AgeYoung, "lass": voices.AgeYoung, "miss": voices.AgeYoung,
	"mr": voices.AgeMiddleAged, "mrs": voices.AgeMiddleAged, "king": voices.AgeMiddleAged, "queen": voices.AgeMiddleAged,
	"duke": voices.AgeMiddleAged, "duchess": voices.AgeMiddleAged, "lord": voices.AgeMiddleAged, "lady": voices.AgeMiddleAged,
	"sir": voices.AgeMiddleAged, "captain": voices.AgeMiddleAged, "doctor": voices.AgeMiddleAged, "dr": voices.AgeMiddleAged,
	"father": voices.AgeMiddleAged, "mother": voices.AgeMiddleAged, "madam": voices.AgeMiddleAged,
}

// guessAge reads an age group from a character's names.
func guessAge(c Character) voices.Age {
	for _, n := range append([]string{c.Name}, c.Aliases...) {
		for _, w := range strings.FieldsFunc(strings.ToLower(n), func(r rune) bool { return r == ' ' || r == '.' || r == '-' }) {
			if a, ok := ageWords[w]; ok {
				return a
			}
		}
	}
	return ""
}

// score rates a voice for a gender and age: gender first (a neutral voice
// fits anyone a little, and best a character of unknown gender), then
// age, then English, then neural.
func score(v voices.Voice, gender string, age voices.Age) int {
	s := 0
	switch {
	case gender != "" && string(v.Gender) == gender:
		s += 100
	case v.Gender == voices.GenderNeutral:
		s += 20
	case gender != "" && v.Gender != "":
		s -= 100
	}
	if age != "" && v.Age == age {
		s += 30
	}
	if voices.LanguageMatches("en", v.Language) {
		s += 10
	}
	// Of voices that fit alike, the neural ones sound natural.
	if slices.Contains(v.Tags, "neural") {
		s += 3
	}
	return s
}

// Suggest proposes voices of lib for the narrator and for each character
// (in the order given: the most lines first get first pick), by gender and
// age, a voice already a character's first pick coming after those not
// taken. The narrator's own voice is not proposed to characters.
func Suggest(chars []Character, lib []voices.Voice, narrator string) Suggestions {
	out := Suggestions{Narrator: []SuggestedVoice{}, Characters: []CharacterSuggestion{}}
	taken := map[string]bool{narrator: true}
	for _, c := range chars {
		if c.VoiceID != "" {
			taken[c.VoiceID] = true
		}
	}
	pick := func(gender string, age voices.Age, avoid map[string]bool) []SuggestedVoice {
		ranked := make([]SuggestedVoice, 0, len(lib))
		for _, v := range lib {
			sc := score(v, gender, age)
			if !avoid[v.ID] {
				sc += 5
			}
			ranked = append(ranked, SuggestedVoice{VoiceID: v.ID, Name: v.Name, Gender: v.Gender, Age: v.Age, Language: v.Language, Score: sc})
		}
		slices.SortStableFunc(ranked, func(a, b SuggestedVoice) int {
			if a.Score != b.Score {
				return b.Score - a.Score
			}
			return strings.Compare(a.VoiceID, b.VoiceID)
		})
		return ranked[:min(perCharacter, len(ranked))]
	}
	out.Narrator = pick("", voices.AgeMiddleAged, map[string]bool{})
	for _, c := range chars {
		age := guessAge(c)
		vs := pick(c.Gender, age, taken)
		if len(vs) > 0 {
			taken[vs[0].VoiceID] = true
		}
		out.Characters = append(out.Characters, CharacterSuggestion{ID: c.ID, Name: c.Name, Gender: c.Gender, Age: age, Voices: vs})
	}
	return out
}

// maxLibrary bounds the voices read for suggestions.
const maxLibrary = 1000

// Suggestions proposes voices of the library for a book's narrator and cast.
func (s *Service) Suggestions(ctx context.Context, id string) (Suggestions, error) {
	b, err := s.loadBook(ctx, id)
	if err != nil {
		return Suggestions{}, err
	}
	chars, err := s.Cast(ctx, id)
	if err != nil {
		return Suggestions{}, err
	}
	var lib []voices.Voice
	for offset := 0; offset < maxLibrary; offset += voices.MaxLimit {
		page, err := s.library.Search(ctx, voices.Query{Limit: voices.MaxLimit, Offset: offset})
		if err != nil {
			return Suggestions{}, fmt.Errorf("voice library: %w", err)
		}
		lib = append(lib, page.Items...)
		if !page.HasMore {
			break
		}
	}
	return Suggest(chars, lib, b.NarratorVoice), nil
}

package audiobook

import (
	"context"
	"slices"

	"github.com/lectern/lectern/shared/voices"
)

// CastVoices is what casting needs of this instance's voices (the voice
// library's Service): the default narrator, and the library with each
// built-in voice saying whether it can speak here.
type CastVoices interface {
	Default(ctx context.Context) (voices.DefaultVoice, error)
	Search(ctx context.Context, q voices.Query) (voices.Result, error)
}

// WithCastVoices lets an import give the book its narrator (the default
// voice, the neural one where it can speak) and its characters voices by
// gender. Without it a book starts with no voices set.
func (s *Service) WithCastVoices(v CastVoices) *Service {
	s.castVoices = v
	return s
}

// AssignVoices gives each character of known gender (in the order given:
// the most lines or mentions first) a voice of its gender, never the
// narrator's: one no other character has while lib has any left, then
// the best fit (age, English, neural; see score). The first-person
// narrator and characters of unknown gender keep the narrator's voice, and
// so does a character no voice of whose gender can speak. lib holds the
// voices that can speak here.
func AssignVoices(chars []Character, lib []voices.Voice, narrator string) map[string]string {
	out := map[string]string{}
	taken := map[string]bool{narrator: true}
	for _, c := range chars {
		if (c.Gender != string(voices.GenderFemale) && c.Gender != string(voices.GenderMale)) || c.Narrator {
			continue
		}
		age := guessAge(c)
		best, bestFree, bestScore := "", false, 0
		for _, v := range lib {
			if string(v.Gender) != c.Gender || v.ID == narrator {
				continue
			}
			free, sc := !taken[v.ID], score(v, c.Gender, age)
			// A render speaks in at most MaxVoices voices.
			if free && len(taken) >= MaxVoices {
				continue
			}
			better := best == "" || (free && !bestFree) ||
				(free == bestFree && (sc > bestScore || (sc == bestScore && v.ID < best)))
			if better {
				best, bestFree, bestScore = v.ID, free, sc
			}
		}
		if best != "" {
			taken[best] = true
			out[c.ID] = best
		}
	}
	return out
}

// voicesFor picks the narrator's voice and the characters' at import. The
// voices are a head start, not the book: a library that cannot answer (no
// built-in voices imported yet, as in a fresh AWS stack, or a store
// outage) leaves them unset, as without CastVoices.
func (s *Service) voicesFor(ctx context.Context, chars []Character) (string, map[string]string) {
	if s.castVoices == nil {
		return "", nil
	}
	def, err := s.castVoices.Default(ctx)
	if err != nil {
		return "", nil
	}
	var lib []voices.Voice
	for offset := 0; offset < maxLibrary; offset += voices.MaxLimit {
		page, err := s.castVoices.Search(ctx, voices.Query{Limit: voices.MaxLimit, Offset: offset})
		if err != nil {
			return def.Voice.ID, nil
		}
		lib = append(lib, page.Items...)
		if !page.HasMore {
			break
		}
	}
	lib = slices.DeleteFunc(lib, func(v voices.Voice) bool { return v.Unavailable != "" })
	return def.Voice.ID, AssignVoices(chars, lib, def.Voice.ID)
}

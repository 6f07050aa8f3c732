package audiobook

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/store"
)

// A cast edit (merge, split, rename, gender) is made on the book's revision
// the user read and re-attributes the book's lines with the rules over the
// edited cast, in one save with the cast. What a user expects of the lines
// after an edit:
//
//   - a line set by hand keeps its speaker (renamed when its character was
//     merged away or renamed): nothing a person set is lost;
//   - an LLM answer is kept while its speaker (renamed likewise) is still
//     in the cast, unless the rules now name the speaker from an explicit
//     tag, which nothing overrules; a split does not move it, since no rule
//     knows which of the two the LLM meant;
//   - every other line takes the rules' new answer: a merge joins the lines
//     of the two characters, a split gives the lines tagged with the alias
//     to the new character, a gender re-resolves pronoun tags;
//   - a line whose speaker changed loses its verify mark (the mark was about
//     the old speaker); the others keep theirs.
//
// A book cast in classic mode has no spans to attribute by rules: there an
// edit only renames the speakers its merge or rename moved.

// CastEdited answers a cast edit: the book as saved and how many lines
// changed speaker.
type CastEdited struct {
	Book    Book
	Changed int
}

// MergeCharacters merges the character gone into keep: gone's names become
// keep's aliases and gone's lines keep's; keep keeps its voice (else takes
// gone's).
func (s *Service) MergeCharacters(ctx context.Context, id string, revision int64, keepID, goneID string) (CastEdited, error) {
	return s.editCast(ctx, id, revision, func(chars []cast.Character, _ string) ([]cast.Character, map[string]string, error) {
		out, err := cast.MergeCharacters(chars, keepID, goneID)
		if err != nil {
			return nil, nil, err
		}
		k, g := byID(chars, keepID), byID(chars, goneID)
		return out, map[string]string{g.Name: k.Name}, nil
	})
}

// SplitAlias makes a character's alias a character of its own, counted in
// the text, with no voice (it speaks in the narrator's until given one).
func (s *Service) SplitAlias(ctx context.Context, id string, revision int64, charID, alias string) (CastEdited, error) {
	return s.editCast(ctx, id, revision, func(chars []cast.Character, text string) ([]cast.Character, map[string]string, error) {
		if len(chars) >= MaxCharacters {
			return nil, nil, fmt.Errorf("%w: the cast has %d characters, at most %d", ErrInvalid, len(chars), MaxCharacters)
		}
		out, added, err := cast.SplitAlias(chars, charID, alias)
		if err != nil {
			return nil, nil, err
		}
		for i := range out {
			if out[i].ID == charID || out[i].ID == added.ID {
				out[i].Mentions = cast.Mentions(text, out[i])
			}
		}
		return out, nil, nil
	})
}

// RenameCharacter renames a character; its old name becomes an alias and
// its lines follow.
func (s *Service) RenameCharacter(ctx context.Context, id string, revision int64, charID, name string) (CastEdited, error) {
	return s.editCast(ctx, id, revision, func(chars []cast.Character, _ string) ([]cast.Character, map[string]string, error) {
		out, err := cast.RenameCharacter(chars, charID, name)
		if err != nil {
			return nil, nil, err
		}
		return out, map[string]string{byID(chars, charID).Name: byID(out, charID).Name}, nil
	})
}

// SetGender sets a character's gender (female, male or "" for unknown):
// pronoun tags are resolved again.
func (s *Service) SetGender(ctx context.Context, id string, revision int64, charID, gender string) (CastEdited, error) {
	return s.editCast(ctx, id, revision, func(chars []cast.Character, _ string) ([]cast.Character, map[string]string, error) {
		out, err := cast.SetGender(chars, charID, gender)
		return out, nil, err
	})
}

func byID(chars []cast.Character, id string) cast.Character {
	i := slices.IndexFunc(chars, func(c cast.Character) bool { return c.ID == id })
	if i < 0 {
		return cast.Character{}
	}
	return chars[i]
}

// castEdit changes a cast given the book's text, answering the new cast
// and the names it moved (old → new).
type castEdit func(chars []cast.Character, text string) ([]cast.Character, map[string]string, error)

// editCast applies edit to the stored cast on the book's revision (another
// answers ErrConflict and changes nothing), refused while a cast job runs
// (its save would undo the edit), re-attributes the lines and saves the
// cast and the lines together.
func (s *Service) editCast(ctx context.Context, id string, revision int64, edit castEdit) (CastEdited, error) {
	in, err := s.castInput(ctx, id)
	if err != nil {
		return CastEdited{}, err
	}
	b := in.book
	if b.Revision != revision {
		return CastEdited{}, fmt.Errorf("%w: book %s is at revision %d, not %d: read it again", ErrConflict, id, b.Revision, revision)
	}
	if err := s.idle(ctx, b.CastJob, "cast"); err != nil {
		return CastEdited{}, err
	}
	if !b.CastClaimed.IsZero() && s.clock().Sub(b.CastClaimed) < claimTTL {
		return CastEdited{}, fmt.Errorf("%w: a cast of book %s is being started", ErrConflict, id)
	}
	stored, err := s.loadCast(ctx, id)
	if err != nil {
		return CastEdited{}, err
	}
	next, rename, err := edit(in.cast, in.text)
	if err != nil {
		return CastEdited{}, err
	}
	segs, err := s.loadSegments(ctx, id)
	if err != nil {
		return CastEdited{}, err
	}
	var att []cast.Attribution
	if b.Mode != ModeClassic {
		att = cast.AttributeRules(in.text, in.spans, next)
	}
	lines, changed := reattribute(segs.segs, att, next, rename)
	puts, dels := castWrites(id, stored, next, rename)
	b, err = s.saveCastEdit(ctx, b, segs, lines, puts, dels)
	if err != nil {
		return CastEdited{}, err
	}
	return CastEdited{Book: b, Changed: changed}, nil
}

// reattribute lays the rules' answers att (by span id; nil in classic
// mode) over the stored lines as editCast's comment says, with the names
// rename moved, and counts the lines whose speaker changed.
func reattribute(segs []Segment, att []cast.Attribution, chars []cast.Character, rename map[string]string) ([]Segment, int) {
	inCast := map[string]bool{}
	for _, c := range chars {
		inCast[c.Name] = true
	}
	byID := make(map[string]cast.Attribution, len(att))
	for _, a := range att {
		byID[a.SpanID] = a
	}
	moved := func(name string) string {
		if to, ok := rename[name]; ok && name != "" {
			return to
		}
		return name
	}
	out := slices.Clone(segs)
	changed := 0
	for i := range out {
		sg := &out[i]
		if sg.Kind != KindDialogue {
			continue
		}
		was := sg.Speaker
		sg.Speaker, sg.Other = moved(sg.Speaker), moved(sg.Other)
		a, ruled := byID[sg.ID]
		switch {
		case sg.Source == SourceHand:
		case !ruled:
			// classic mode, or a segment the spans lack: names only
		case (sg.Source == string(cast.SourceLLM) || sg.Source == SourceClassic) && inCast[sg.Speaker] && a.Source != cast.SourceExplicit:
		default:
			src := a.Source
			if src == "" {
				src = cast.SourceNone
			}
			if a.Speaker != sg.Speaker {
				sg.Mark, sg.Other = "", ""
				sg.Confidence = a.Confidence
			} else if sg.Mark == "" {
				sg.Confidence = a.Confidence
			}
			sg.Speaker, sg.Source = a.Speaker, string(src)
		}
		if sg.Speaker != "" && !inCast[sg.Speaker] && sg.Source != SourceHand {
			sg.Speaker, sg.Source, sg.Mark, sg.Other, sg.Confidence = "", string(cast.SourceNone), "", "", 0
		}
		if sg.Speaker != was {
			changed++
		}
	}
	return out, changed
}

// castWrites are the writes that turn the stored cast into next: changed
// characters put (on the version read), new ones added, gone ones
// deleted. A character merged away passes its voice to the one it joined
// when that one has none, or only one assigned at import while the
// merged-away one was chosen by hand.
func castWrites(id string, stored []Character, next []cast.Character, rename map[string]string) (puts, dels []store.Write) {
	old := map[string]Character{}
	byName := map[string]Character{} // of the stored cast
	for _, c := range stored {
		old[c.ID] = c
		byName[c.Name] = c
	}
	inherit := map[string]Character{} // new name → a merged-away voice
	for from, to := range rename {
		if f := byName[from]; f.VoiceID != "" && (inherit[to].VoiceID == "" || f.handVoice()) {
			inherit[to] = f
		}
	}
	keep := map[string]bool{}
	for _, n := range next {
		keep[n.ID] = true
		c, had := old[n.ID]
		want := Character{ID: n.ID, Name: n.Name, Aliases: nonNilNames(n.Aliases), Gender: n.Gender, Mentions: n.Mentions, Narrator: n.Narrator,
			VoiceID: c.VoiceID, VoiceAssigned: c.VoiceAssigned, Version: c.Version}
		if h := inherit[n.Name]; h.VoiceID != "" && (want.VoiceID == "" || (h.handVoice() && !want.handVoice())) {
			want.VoiceID, want.VoiceAssigned = h.VoiceID, h.VoiceAssigned
		}
		if had && sameCharacter(c, want) {
			continue
		}
		cond := store.IfAbsent()
		if had {
			cond = store.IfVersion(c.Version)
		}
		want.Version++
		it, err := charItem(id, want)
		if err != nil {
			continue // a Character always marshals
		}
		puts = append(puts, store.Write{Op: store.OpPut, Cond: cond, Item: it})
	}
	for _, c := range stored {
		if !keep[c.ID] {
			dels = append(dels, store.Write{Op: store.OpDelete, Cond: store.IfVersion(c.Version), Item: store.Item{PK: bookPK(id), SK: charPrefix + c.ID}})
		}
	}
	return puts, dels
}

func nonNilNames(names []string) []string {
	if names == nil {
		return []string{}
	}
	return names
}

// saveCastEdit saves the cast writes with the lines and META in one
// transaction when they fit in one (a change meanwhile then writes
// nothing); a book whose lines need more writes stores the characters
// put first, then the lines, then the deletions, so a failure between
// leaves every line naming a character that exists.
func (s *Service) saveCastEdit(ctx context.Context, b Book, old segmentItems, segs []Segment, puts, dels []store.Write) (Book, error) {
	b, ws, err := s.segmentSave(b, old, segs)
	if err != nil {
		return b, err
	}
	if len(ws)+len(puts)+len(dels) <= store.MaxTransactWrites {
		err = s.table.Transact(ctx, slices.Concat(puts, dels, ws))
	} else if err = s.transact(ctx, b.ID, puts); err == nil {
		if err = s.table.Transact(ctx, ws); err == nil {
			err = s.transact(ctx, b.ID, dels)
		}
	}
	if errors.Is(err, store.ErrConditionFailed) {
		return b, fmt.Errorf("%w: book %s changed meanwhile (revision %d): read it again", ErrConflict, b.ID, b.Revision-1)
	}
	if err != nil {
		return b, fmt.Errorf("save the cast edit of %s: %w", b.ID, err)
	}
	return b, nil
}

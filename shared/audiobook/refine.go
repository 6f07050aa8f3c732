package audiobook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/store"
)

// RefineSampleBytes bounds the text Refine sends as evidence.
const RefineSampleBytes = 24000

// RefineReport says what the LLM changed in the cast before attribution.
type RefineReport struct {
	Requests int      `json:"requests" doc:"LLM requests made (0 when a re-run found the answer kept)"`
	Merged   []Merge  `json:"merged"`
	Renamed  []Rename `json:"renamed"`
	Dropped  []string `json:"dropped" doc:"names the LLM said are not characters"`
	Added    []string `json:"added" doc:"characters the LLM found in the sample that the rules missed"`
	// Error is why the cast stayed as the rules found it (an LLM that
	// refused or answered nothing usable); empty when it was refined.
	Error string `json:"error,omitempty"`
}

// Merge is characters the LLM found to be one.
type Merge struct {
	Into string   `json:"into"`
	From []string `json:"from"`
}

// Rename is a character the LLM named otherwise.
type Rename struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// castPlan is the stored cast after a refinement: the characters to put,
// those to delete, and each old name's new one.
type castPlan struct {
	put    []Character
	del    []Character
	rename map[string]string // old name → new name
	report RefineReport
}

// planRefine maps the stored cast onto refined. Each stored character
// joins the refined one that holds its name; the member named as the
// refined character (else the most mentioned) is kept, with its id,
// version and voice (else a member's voice), so voice assignments follow.
// A stored character refined leaves out is kept when pinned (a hand-set
// line or a voice names it: nothing a person set is lost), else dropped.
func planRefine(stored []Character, refined []cast.Character, pinned map[string]bool) castPlan {
	p := castPlan{rename: map[string]string{}, report: RefineReport{Merged: []Merge{}, Renamed: []Rename{}, Dropped: []string{}, Added: []string{}}}
	member := make([]int, len(stored)) // index in refined, or -1
	ids := map[string]bool{}
	for i, c := range stored {
		member[i] = -1
		ids[c.ID] = true
		for j, r := range refined {
			if slices.ContainsFunc(r.Names(), func(n string) bool { return cast.NameKey(n) == cast.NameKey(c.Name) }) {
				member[i] = j
				break
			}
		}
	}
	for j, r := range refined {
		var ms []int
		for i := range stored {
			if member[i] == j {
				ms = append(ms, i)
			}
		}
		next := Character{Name: r.Name, Aliases: r.Aliases, Gender: r.Gender, Mentions: r.Mentions, Narrator: r.Narrator}
		if next.Aliases == nil {
			next.Aliases = []string{}
		}
		if len(ms) == 0 {
			next.ID = freeID(ids, r.ID)
			p.put = append(p.put, next)
			p.report.Added = append(p.report.Added, r.Name)
			continue
		}
		slices.SortStableFunc(ms, func(a, b int) int {
			ka, kb := cast.NameKey(stored[a].Name) == cast.NameKey(r.Name), cast.NameKey(stored[b].Name) == cast.NameKey(r.Name)
			switch {
			case ka != kb && ka:
				return -1
			case ka != kb:
				return 1
			}
			return stored[b].Mentions - stored[a].Mentions
		})
		kept := stored[ms[0]]
		next.ID, next.Version, next.VoiceID, next.VoiceAssigned = kept.ID, kept.Version, kept.VoiceID, kept.VoiceAssigned
		var from []string
		for _, i := range ms {
			c := stored[i]
			// A voice chosen by hand wins over one the import assigned.
			if next.VoiceID == "" || (c.handVoice() && !next.handVoice()) {
				next.VoiceID, next.VoiceAssigned = c.VoiceID, c.VoiceAssigned
			}
			if c.Name != r.Name {
				p.rename[c.Name] = r.Name
			}
			if i != ms[0] {
				p.del = append(p.del, c)
			}
			from = append(from, c.Name)
		}
		switch {
		case len(ms) > 1:
			p.report.Merged = append(p.report.Merged, Merge{Into: r.Name, From: from})
		case kept.Name != r.Name:
			p.report.Renamed = append(p.report.Renamed, Rename{From: kept.Name, To: r.Name})
		}
		if !sameCharacter(kept, next) {
			p.put = append(p.put, next)
		}
	}
	for i, c := range stored {
		if member[i] >= 0 {
			continue
		}
		if pinned[c.Name] || c.handVoice() {
			continue // kept as it is
		}
		p.del = append(p.del, c)
		p.report.Dropped = append(p.report.Dropped, c.Name)
	}
	return p
}

// freeID is id, or id with a number, unused in ids (which it joins).
func freeID(ids map[string]bool, id string) string {
	out := id
	for n := 2; ids[out]; n++ {
		out = fmt.Sprintf("%s-%d", id, n)
	}
	ids[out] = true
	return out
}

func sameCharacter(a, b Character) bool {
	return a.Name == b.Name && slices.Equal(a.Aliases, b.Aliases) && a.Gender == b.Gender && a.Mentions == b.Mentions && a.VoiceID == b.VoiceID && a.VoiceAssigned == b.VoiceAssigned && a.Narrator == b.Narrator
}

// refine lets the LLM merge, rename and gender the book's cast before
// attribution and applies its answer to the stored book: characters and
// voices (planRefine) and every stored speaker name, a hand-set one
// staying hand-set. The refined cast is kept under the job's run, so a
// re-run after a crash applies the same answer without asking again (the
// stored cast it then reads is already partly or wholly refined, which
// applying again leaves as it is). An LLM that refuses or answers nothing
// usable leaves the cast as the rules found it: the cast goes on.
func (s *Service) refine(ctx context.Context, calls *answers, in *castInput) (RefineReport, error) {
	key := calls.prefix + "refine.json"
	var refined []cast.Character
	asked := 0
	if kept, ok := readKept(ctx, s.blobs, key); !ok || json.Unmarshal(kept, &refined) != nil {
		refined = nil
	}
	if refined == nil {
		before := calls.asked
		r, err := cast.Refine(ctx, calls, in.cast, cast.RefineSample(in.text, in.cast, RefineSampleBytes))
		asked = calls.asked - before
		if err != nil {
			if ctx.Err() != nil {
				return RefineReport{}, ctx.Err()
			}
			return RefineReport{Requests: asked, Merged: []Merge{}, Renamed: []Rename{}, Dropped: []string{}, Added: []string{}, Error: err.Error()}, nil
		}
		if len(r) > MaxCharacters {
			r = r[:MaxCharacters]
		}
		data, err := json.Marshal(r)
		if err != nil {
			return RefineReport{}, err
		}
		if err := s.blobs.Put(ctx, key, strings.NewReader(string(data)), "application/json"); err != nil {
			return RefineReport{}, fmt.Errorf("keep the refined cast: %w", err)
		}
		refined = r
	}
	rep, chars, err := s.applyRefine(ctx, in.book.ID, refined)
	if err != nil {
		return rep, err
	}
	rep.Requests = asked
	in.cast = castOf(chars)
	return rep, nil
}

// applyRefine writes a refinement: the characters put, the segments'
// speakers renamed, then the characters merged away or dropped deleted
// (in that order, so a crash between leaves names a re-run maps again).
// It answers the cast as stored after it.
func (s *Service) applyRefine(ctx context.Context, id string, refined []cast.Character) (RefineReport, []Character, error) {
	stored, err := s.loadCast(ctx, id)
	if err != nil {
		return RefineReport{}, nil, err
	}
	segs, err := s.loadSegments(ctx, id)
	if err != nil {
		return RefineReport{}, nil, err
	}
	pinned := map[string]bool{}
	for _, sg := range segs.segs {
		if sg.Source == SourceHand {
			pinned[sg.Speaker] = true
		}
	}
	plan := planRefine(stored, refined, pinned)
	var ws []store.Write
	for _, c := range plan.put {
		cond, version := store.IfAbsent(), int64(1)
		if c.Version > 0 {
			cond, version = store.IfVersion(c.Version), c.Version+1
		}
		c.Version = version
		it, err := charItem(id, c)
		if err != nil {
			return plan.report, nil, err
		}
		ws = append(ws, store.Write{Op: store.OpPut, Cond: cond, Item: it})
	}
	if err := s.transact(ctx, id, ws); err != nil {
		return plan.report, nil, err
	}
	if len(plan.rename) > 0 {
		if err := s.renameSpeakers(ctx, id, plan.rename); err != nil {
			return plan.report, nil, err
		}
	}
	ws = ws[:0]
	for _, c := range plan.del {
		ws = append(ws, store.Write{Op: store.OpDelete, Cond: store.IfVersion(c.Version), Item: store.Item{PK: bookPK(id), SK: charPrefix + c.ID}})
	}
	if err := s.transact(ctx, id, ws); err != nil {
		return plan.report, nil, err
	}
	chars, err := s.loadCast(ctx, id)
	return plan.report, chars, err
}

// transact writes ws in transactions of at most store.MaxTransactWrites;
// a character changed meanwhile (a voice set) is worth another run.
func (s *Service) transact(ctx context.Context, id string, ws []store.Write) error {
	for len(ws) > 0 {
		n := min(len(ws), store.MaxTransactWrites)
		if err := s.table.Transact(ctx, ws[:n]); err != nil {
			if errors.Is(err, store.ErrConditionFailed) {
				return fmt.Errorf("%w: the cast of %s changed meanwhile: %w", ErrConflict, id, err)
			}
			return fmt.Errorf("the cast of %s: %w", id, err)
		}
		ws = ws[n:]
	}
	return nil
}

// renameSpeakers rewrites every stored speaker (and verify's other answer)
// that names an old name, keeping its source: a hand-set line stays
// hand-set. Conflicts with an edit are read again.
func (s *Service) renameSpeakers(ctx context.Context, id string, rename map[string]string) error {
	var err error
	for try := 0; try < 8; try++ {
		var b Book
		if b, err = s.loadBook(ctx, id); err != nil {
			return err
		}
		var stored segmentItems
		if stored, err = s.loadSegments(ctx, id); err != nil {
			return err
		}
		segs := slices.Clone(stored.segs)
		changed := false
		for i := range segs {
			if to, ok := rename[segs[i].Speaker]; ok && segs[i].Speaker != "" {
				segs[i].Speaker, changed = to, true
			}
			if to, ok := rename[segs[i].Other]; ok && segs[i].Other != "" {
				segs[i].Other, changed = to, true
			}
		}
		if !changed {
			return nil
		}
		if _, err = s.saveSegments(ctx, b, stored, segs); !errors.Is(err, ErrConflict) {
			return err
		}
	}
	return err
}

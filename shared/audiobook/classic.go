package audiobook

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/audiobook/cast"
)

// classicChunk is the most source text (bytes) classic mode sends in one
// request: the answer repeats it, so it stays well within an LLM's output.
const classicChunk = 3000

var classicSchema = map[string]any{
	"type":                 "object",
	"additionalProperties": false,
	"required":             []any{"segments"},
	"properties": map[string]any{
		"segments": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type":                 "object",
				"additionalProperties": false,
				"required":             []any{"speaker", "text"},
				"properties": map[string]any{
					"speaker": map[string]any{"type": "string"},
					"text":    map[string]any{"type": "string"},
				},
			},
		},
	},
}

const classicSystem = `You split a novel excerpt into segments for an audiobook: narration (speaker "narrator") and each character's spoken lines (speaker: a name from the cast list, or "Unknown"). Copy the text exactly, in order, every word once; a spoken line keeps its quotation marks.`

// chunks cuts text[start:end] into stretches of at most size bytes, at
// paragraph breaks where it can, else at a space.
func chunks(text string, start, end, size int) [][2]int {
	var out [][2]int
	for start < end {
		stop := end
		if stop-start > size {
			stop = start + size
			if i := strings.LastIndex(text[start:stop], "\n\n"); i > 0 {
				stop = start + i + 2
			} else if i := strings.LastIndexAny(text[start:stop], " \n"); i > 0 {
				stop = start + i + 1
			}
		}
		out = append(out, [2]int{start, stop})
		start = stop
	}
	return out
}

// classicRequests is how many requests classic mode makes of a book.
func classicRequests(in castInput) int {
	n := 0
	for _, c := range in.book.Chapters {
		n += len(chunks(in.text, c.Start, c.End, classicChunk))
	}
	return n
}

// parseClassic reads an answer tolerantly: code fences and prose around
// the JSON, a bare array of segments.
func parseClassic(raw string) ([]ClassicSegment, bool) {
	raw = strings.TrimSpace(raw)
	var obj struct {
		Segments []ClassicSegment `json:"segments"`
	}
	if i, j := strings.Index(raw, "{"), strings.LastIndex(raw, "}"); i >= 0 && j > i {
		if json.Unmarshal([]byte(raw[i:j+1]), &obj) == nil && obj.Segments != nil {
			return obj.Segments, true
		}
	}
	if i, j := strings.Index(raw, "["), strings.LastIndex(raw, "]"); i >= 0 && j > i {
		if json.Unmarshal([]byte(raw[i:j+1]), &obj.Segments) == nil {
			return obj.Segments, true
		}
	}
	return nil, false
}

// castClassic is classic mode: the LLM segments each chunk of a chapter
// itself and Align fits its segments back onto the source, reporting what
// it fused, dropped or invented.
func (s *Service) castClassic(ctx context.Context, calls *answers, in castInput) ([]Segment, CastResult, error) {
	chars := make([]Character, len(in.cast))
	var names strings.Builder
	for i, c := range in.cast {
		chars[i] = Character{ID: c.ID, Name: c.Name, Aliases: c.Aliases}
		names.WriteString(strings.Join(c.Names(), ", ") + "\n")
	}
	res := CastResult{Repair: &Repair{Dropped: []Range{}, Absorbed: []Range{}, Invented: []string{}, Fused: []Fused{}}}
	var segs []Segment
	for _, ch := range in.book.Chapters {
		n := 0
		for _, c := range chunks(in.text, ch.Start, ch.End, classicChunk) {
			src := in.text[c[0]:c[1]]
			user := "Cast:\n" + names.String() + "\nText:\n" + src
			res.Requests++
			res.PromptTokens += (len(classicSystem) + len(user) + 3) / 4
			raw, err := calls.ChatSchema(ctx, classicSystem, user, "segments", classicSchema)
			if err != nil {
				return nil, res, llmFailure(err)
			}
			answer, ok := parseClassic(raw)
			if !ok {
				res.UnreadableChunks++
			}
			pieces, rep := Align(src, answer)
			pieces = TrimDialogue(src, pieces)
			mergeRepair(res.Repair, &res.RepairTotals, rep, c[0])
			for _, p := range pieces {
				sg := Segment{ID: classicID(ch.Index, n), Chapter: ch.Index, Start: c[0] + p.Start, End: c[0] + p.End, Kind: KindNarration}
				if !p.Narration {
					sg.Kind, sg.Source = KindDialogue, string(cast.SourceNone)
					if name, ok := resolveSpeaker(chars, p.Speaker); ok {
						sg.Speaker, sg.Source = name, SourceClassic
					}
				}
				segs = append(segs, sg)
				n++
			}
		}
	}
	return segs, res, nil
}

// reportLimit bounds each list of the book's repair report, and
// reportText each text in it, so the job's result stays small (the totals
// are counted in full).
const (
	reportLimit = 100
	reportText  = 200
)

// mergeRepair adds one chunk's repair (offsets from base) to the book's.
func mergeRepair(into *Repair, totals *RepairTotals, rep Repair, base int) {
	totals.Dropped += len(rep.Dropped)
	totals.Absorbed += len(rep.Absorbed)
	totals.Invented += len(rep.Invented)
	totals.Fused += len(rep.Fused)
	for _, r := range rep.Dropped {
		if len(into.Dropped) < reportLimit {
			into.Dropped = append(into.Dropped, Range{Start: base + r.Start, End: base + r.End, Text: clip(r.Text)})
		}
	}
	for _, r := range rep.Absorbed {
		if len(into.Absorbed) < reportLimit {
			into.Absorbed = append(into.Absorbed, Range{Start: base + r.Start, End: base + r.End, Text: clip(r.Text)})
		}
	}
	for _, t := range rep.Invented {
		if len(into.Invented) < reportLimit {
			into.Invented = append(into.Invented, clip(t))
		}
	}
	for _, f := range rep.Fused {
		if len(into.Fused) < reportLimit {
			into.Fused = append(into.Fused, f)
		}
	}
}

// clip shortens a reported text to reportText bytes at a rune boundary.
func clip(s string) string {
	if len(s) <= reportText {
		return s
	}
	n := reportText
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

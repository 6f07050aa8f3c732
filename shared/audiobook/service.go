package audiobook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/audiobook/spans"
	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/voices"
)

// LLMSource gives the LLM the cast job asks, from the current Settings;
// ErrNoLLM when none is configured.
type LLMSource func(ctx context.Context) (cast.LLM, error)

// Renderer runs one speech render synchronously: the speech renderer's job
// handler (render.Service.Job), given a render payload.
type Renderer interface {
	Job(ctx context.Context, payload json.RawMessage, progress jobs.Reporter) (json.RawMessage, error)
}

// Service is the audiobook feature over the table, the blob store, the job
// queue and the voice library.
type Service struct {
	table    store.Table
	blobs    blob.Store
	queue    jobs.Queue
	library  voices.Store
	clock    func() time.Time
	llm      LLMSource
	renderer Renderer
	ffmpeg   string // joins a render's chapter parts; "" is ffmpeg on PATH
	// castVoices gives an imported book its voices; nil leaves them unset.
	castVoices CastVoices
}

// NewService builds the service. llm and renderer are what the jobs call;
// where jobs do not run (an API function) llm only tells whether one is
// configured and renderer may be nil.
func NewService(table store.Table, blobs blob.Store, queue jobs.Queue, library voices.Store, clock func() time.Time, llm LLMSource, renderer Renderer) *Service {
	if library == nil {
		library = voices.Unconfigured{}
	}
	return &Service{table: table, blobs: blobs, queue: queue, library: library, clock: clock, llm: llm, renderer: renderer}
}

// spanSegments makes a segment of each span with the speaker att names;
// kept are hand-set speakers by span id, which win.
func spanSegments(sp []spans.Span, att []cast.Attribution, kept map[string]Segment) []Segment {
	byID := make(map[string]cast.Attribution, len(att))
	for _, a := range att {
		byID[a.SpanID] = a
	}
	segs := make([]Segment, len(sp))
	for i, x := range sp {
		sg := Segment{ID: x.ID, SpanID: x.ID, Chapter: x.Chapter, Start: x.Start, End: x.End, Kind: string(x.Kind),
			Unclosed: x.Unclosed, Continues: x.Continues}
		if x.Kind == spans.Dialogue {
			a := byID[x.ID]
			sg.Speaker, sg.Source, sg.Mark, sg.Other, sg.Confidence = a.Speaker, string(a.Source), string(a.Mark), a.Other, a.Confidence
			if sg.Source == "" {
				sg.Source = string(cast.SourceNone)
			}
			if k, ok := kept[x.ID]; ok && k.Source == SourceHand {
				sg.Speaker, sg.Source, sg.Confidence = k.Speaker, SourceHand, 1
			}
		}
		segs[i] = sg
	}
	return segs
}

// List lists the books, newest first.
func (s *Service) List(ctx context.Context) ([]Summary, error) {
	out := []Summary{}
	q := store.Query{PK: indexPK, SKPrefix: bookPrefix}
	for {
		page, err := s.table.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("list books: %w", err)
		}
		for _, it := range page.Items {
			var sm Summary
			if err := json.Unmarshal(it.Data, &sm); err != nil {
				return nil, fmt.Errorf("list books (%s): %w", it.SK, err)
			}
			if sm.Status == StatusImporting {
				if sm, err = s.settleSummary(ctx, sm); err != nil {
					return nil, err
				}
			}
			if sm.Status == "" {
				sm.Status = StatusReady
			}
			out = append(out, sm)
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	slices.SortStableFunc(out, func(a, b Summary) int { return strings.Compare(b.Created, a.Created) })
	return out, nil
}

// Get reads a book.
func (s *Service) Get(ctx context.Context, id string) (Book, error) {
	b, err := s.loadBook(ctx, id)
	if err != nil {
		return b, err
	}
	return s.settle(ctx, b)
}

// Delete removes a book, its segments, cast, text and renders.
func (s *Service) Delete(ctx context.Context, id string) error {
	if _, err := s.loadBook(ctx, id); err != nil {
		return err
	}
	return s.remove(ctx, id)
}

func (s *Service) remove(ctx context.Context, id string) error {
	if err := s.table.Delete(ctx, indexPK, bookPrefix+id, store.Condition{}); err != nil {
		return fmt.Errorf("delete book %s: %w", id, err)
	}
	for _, prefix := range []string{charPrefix, segPrefix, renderSK, metaSK} {
		q := store.Query{PK: bookPK(id), SKPrefix: prefix}
		for {
			page, err := s.table.Query(ctx, q)
			if err != nil {
				return fmt.Errorf("delete book %s: %w", id, err)
			}
			for _, it := range page.Items {
				if err := s.table.Delete(ctx, it.PK, it.SK, store.Condition{}); err != nil {
					return fmt.Errorf("delete book %s: %w", id, err)
				}
			}
			if page.Next == "" {
				break
			}
			q.Cursor = page.Next
		}
	}
	if _, err := s.blobs.DeletePrefix(ctx, "audiobook/"+id+"/"); err != nil {
		return fmt.Errorf("delete the files of book %s: %w", id, err)
	}
	return nil
}

// SegmentQuery selects a page of a book's segments.
type SegmentQuery struct {
	Chapter  int // -1: every chapter
	Disputed bool
	// LeastCertain lists only dialogue lines, those without a speaker
	// first, then by confidence, lowest first (text order among equals):
	// the review order.
	LeastCertain bool
	Limit        int
	Offset       int
}

// SegmentPage is one page of segments, in the paginated shape the voice
// search answers.
type SegmentPage struct {
	Revision   int64     `json:"revision" doc:"the book's revision these segments are of; send it as If-Match to set a speaker"`
	Total      int       `json:"total" doc:"segments matching the filter"`
	Count      int       `json:"count"`
	Offset     int       `json:"offset"`
	Items      []Segment `json:"items"`
	HasMore    bool      `json:"has_more"`
	NextOffset *int      `json:"next_offset" doc:"offset of the next page; null when there is none"`
}

// Segments answers a page of a book's segments with their text.
func (s *Service) Segments(ctx context.Context, id string, q SegmentQuery) (SegmentPage, error) {
	b, err := s.loadBook(ctx, id)
	if err != nil {
		return SegmentPage{}, err
	}
	if q.Chapter >= len(b.Chapters) {
		return SegmentPage{}, fmt.Errorf("%w: book %s has chapters 0..%d, not %d", ErrNotFound, id, len(b.Chapters)-1, q.Chapter)
	}
	stored, err := s.loadSegments(ctx, id)
	if err != nil {
		return SegmentPage{}, err
	}
	var sel []Segment
	for _, sg := range stored.segs {
		if (q.Chapter < 0 || sg.Chapter == q.Chapter) && (!q.Disputed || sg.Mark == string(cast.MarkDisputed)) && (!q.LeastCertain || sg.Kind == KindDialogue) {
			sel = append(sel, sg)
		}
	}
	if q.LeastCertain {
		slices.SortStableFunc(sel, leastCertainFirst)
	}
	page := SegmentPage{Revision: b.Revision, Total: len(sel), Offset: q.Offset, Items: []Segment{}}
	if q.Offset < len(sel) {
		page.Items = sel[q.Offset:min(len(sel), q.Offset+q.Limit)]
	}
	if len(page.Items) > 0 {
		text, err := s.readText(ctx, b)
		if err != nil {
			return SegmentPage{}, err
		}
		for i := range page.Items {
			page.Items[i].Text = text[page.Items[i].Start:page.Items[i].End]
		}
	}
	page.Count = len(page.Items)
	if next := q.Offset + page.Count; next < len(sel) {
		page.HasMore, page.NextOffset = true, &next
	}
	return page, nil
}

// leastCertainFirst orders lines for review: no speaker first, then by
// confidence, lowest first.
func leastCertainFirst(a, b Segment) int {
	if (a.Speaker == "") != (b.Speaker == "") {
		if a.Speaker == "" {
			return -1
		}
		return 1
	}
	switch {
	case a.Confidence < b.Confidence:
		return -1
	case a.Confidence > b.Confidence:
		return 1
	}
	return 0
}

// resolveSpeaker finds the cast name a speaker names (name, alias or id,
// case and spaces ignored).
func resolveSpeaker(chars []Character, name string) (string, bool) {
	key := normName(name)
	for _, c := range chars {
		if normName(c.ID) == key || normName(c.Name) == key {
			return c.Name, true
		}
	}
	for _, c := range chars {
		for _, a := range c.Aliases {
			if normName(a) == key {
				return c.Name, true
			}
		}
	}
	return "", false
}

func normName(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// SetSpeaker sets a dialogue segment's speaker by hand, on the book's
// revision the caller read (another answers ErrConflict and changes
// nothing). A hand-set speaker is kept by later casts and never overruled
// by the verify pass.
func (s *Service) SetSpeaker(ctx context.Context, id, segID string, revision int64, speaker string) (Segment, Book, error) {
	b, err := s.loadBook(ctx, id)
	if err != nil {
		return Segment{}, b, err
	}
	if b.Revision != revision {
		return Segment{}, b, fmt.Errorf("%w: book %s is at revision %d, not %d: read it again", ErrConflict, id, b.Revision, revision)
	}
	ch, n, err := parseSegmentID(segID)
	if err != nil {
		return Segment{}, b, err
	}
	chars, err := s.loadCast(ctx, id)
	if err != nil {
		return Segment{}, b, err
	}
	name, ok := resolveSpeaker(chars, speaker)
	if !ok {
		return Segment{}, b, fmt.Errorf("%w: %q is not in the cast of %s", ErrInvalid, speaker, id)
	}
	stored, err := s.loadSegments(ctx, id)
	if err != nil {
		return Segment{}, b, err
	}
	i := -1
	if ch < len(b.Chapters) {
		i = b.Chapters[ch].First + n
	}
	if i < 0 || i >= len(stored.segs) || stored.segs[i].ID != segID {
		return Segment{}, b, fmt.Errorf("%w: book %s has no segment %s", ErrNotFound, id, segID)
	}
	if stored.segs[i].Kind != KindDialogue {
		return Segment{}, b, fmt.Errorf("%w: segment %s is narration, which has no speaker", ErrInvalid, segID)
	}
	segs := slices.Clone(stored.segs)
	sg := &segs[i]
	sg.Speaker, sg.Source, sg.Mark, sg.Other, sg.Confidence = name, SourceHand, "", "", 1
	b, err = s.saveSegments(ctx, b, stored, segs)
	if err != nil {
		return Segment{}, b, err
	}
	out := segs[i]
	text, err := s.readText(ctx, b)
	if err == nil {
		out.Text = text[out.Start:out.End]
	}
	return out, b, err
}

// Cast lists a book's characters, most lines first, each with the lines it
// speaks.
func (s *Service) Cast(ctx context.Context, id string) ([]Character, error) {
	if _, err := s.loadBook(ctx, id); err != nil {
		return nil, err
	}
	chars, err := s.loadCast(ctx, id)
	if err != nil {
		return nil, err
	}
	stored, err := s.loadSegments(ctx, id)
	if err != nil {
		return nil, err
	}
	lines := map[string]int{}
	for _, sg := range stored.segs {
		if sg.Kind == KindDialogue && sg.Speaker != "" {
			lines[sg.Speaker]++
		}
	}
	for i := range chars {
		chars[i].Lines = lines[chars[i].Name]
		if chars[i].Aliases == nil {
			chars[i].Aliases = []string{}
		}
	}
	slices.SortStableFunc(chars, func(a, b Character) int {
		if a.Lines != b.Lines {
			return b.Lines - a.Lines
		}
		return b.Mentions - a.Mentions
	})
	return chars, nil
}

// checkVoice refuses a voice the library does not have.
func (s *Service) checkVoice(ctx context.Context, id string) (voices.Voice, error) {
	v, err := s.library.Get(ctx, id)
	if errors.Is(err, voices.ErrNotFound) {
		return v, fmt.Errorf("%w: there is no voice %q in the library", ErrInvalid, id)
	}
	return v, err
}

// SetVoice sets the voice a character speaks in ("" clears it: the
// character speaks in the narrator's voice).
func (s *Service) SetVoice(ctx context.Context, id, charID, voiceID string) (Character, error) {
	if voiceID != "" {
		if _, err := s.checkVoice(ctx, voiceID); err != nil {
			return Character{}, err
		}
	}
	for try := 0; try < 8; try++ {
		it, err := s.table.Get(ctx, bookPK(id), charPrefix+charID)
		if errors.Is(err, store.ErrNotFound) {
			if _, err := s.loadBook(ctx, id); err != nil {
				return Character{}, err
			}
			return Character{}, fmt.Errorf("%w: book %s has no character %q", ErrNotFound, id, charID)
		}
		if err != nil {
			return Character{}, fmt.Errorf("character %s/%s: %w", id, charID, err)
		}
		var c Character
		if err := json.Unmarshal(it.Data, &c); err != nil {
			return Character{}, err
		}
		c.VoiceID, c.VoiceAssigned, c.Version = voiceID, false, it.Version+1
		next, err := charItem(id, c)
		if err != nil {
			return Character{}, err
		}
		err = s.table.Put(ctx, next, store.IfVersion(it.Version))
		if errors.Is(err, store.ErrConditionFailed) {
			continue
		}
		if err != nil {
			return Character{}, fmt.Errorf("character %s/%s: %w", id, charID, err)
		}
		return c, nil
	}
	return Character{}, fmt.Errorf("%w: character %s/%s keeps changing", ErrConflict, id, charID)
}

// SetNarrator sets the narrator's voice.
func (s *Service) SetNarrator(ctx context.Context, id, voiceID string) (Book, error) {
	if _, err := s.loadBook(ctx, id); err != nil {
		return Book{}, err
	}
	if _, err := s.checkVoice(ctx, voiceID); err != nil {
		return Book{}, err
	}
	return s.updateBook(ctx, id, func(b *Book) error {
		b.NarratorVoice = voiceID
		return nil
	})
}

// Job reads one of the book jobs' records.
func (s *Service) Job(ctx context.Context, id string) (jobs.Job, error) { return s.queue.Get(ctx, id) }

package audiobook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/audiobook/book"
	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/audiobook/spans"
	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/jobs"
)

// CastJobKind is the background job that casts a book with the LLM.
const CastJobKind = "audiobook.cast"

// CastRequest starts a cast.
type CastRequest struct {
	BookID string `json:"book_id"`
	// Mode is span (default: the LLM names the speakers of the dialogue
	// spans the rules left) or classic (the LLM segments the text itself).
	Mode string `json:"mode"`
	// Verify runs the second pass that marks lines agreed or disputed.
	Verify bool `json:"verify"`
}

// castPayload is the job's payload. Run names where the job keeps its LLM
// answers (the job's own id is not known to its handler).
type castPayload struct {
	CastRequest
	Run string `json:"run"`
}

// CastResult is the cast job's result.
type CastResult struct {
	Mode string `json:"mode"`
	// Requests, AskedSpans and PromptTokens measure the attribution pass
	// (span mode: cast.Stats; classic: one request per chunk).
	Requests     int `json:"requests"`
	AskedSpans   int `json:"asked_spans" doc:"dialogue spans sent to the LLM (span mode): those the rules left"`
	PromptTokens int `json:"prompt_tokens" doc:"estimated: a quarter of the prompts' bytes"`
	// PromptTokensPerSpan is PromptTokens per asked span (span mode).
	PromptTokensPerSpan float64 `json:"prompt_tokens_per_span" doc:"prompt_tokens per asked span (span mode); the budget is 150"`
	// Verify* measure the verify pass; zero without one.
	VerifyRequests int `json:"verify_requests"`
	Agreed         int `json:"agreed"`
	Disputed       int `json:"disputed"`
	// Kept counts hand-set speakers the cast kept.
	Kept   int    `json:"kept_hand_set"`
	Counts Counts `json:"counts"`
	// Refine is what the LLM changed in the cast before attribution.
	Refine *RefineReport `json:"refine,omitempty"`
	// Repair is classic mode's auto-repair report (the first 100 of each
	// list); absent in span mode, where auto-repair never runs.
	Repair       *Repair      `json:"repair,omitempty"`
	RepairTotals RepairTotals `json:"repair_totals"`
	// UnreadableChunks counts classic answers that were not JSON: their
	// text is read by the narrator.
	UnreadableChunks int `json:"unreadable_chunks"`
}

// RepairTotals count what auto-repair did in all.
type RepairTotals struct {
	Dropped  int `json:"dropped"`
	Absorbed int `json:"absorbed"`
	Invented int `json:"invented"`
	Fused    int `json:"fused"`
}

// StartCast queues the cast job of a book: 202 with the job. The LLM must be
// configured; one cast of a book runs at a time.
func (s *Service) StartCast(ctx context.Context, req CastRequest) (jobs.Job, error) {
	if req.Mode == "" {
		req.Mode = ModeSpan
	}
	if req.Mode != ModeSpan && req.Mode != ModeClassic {
		return jobs.Job{}, fmt.Errorf("%w: mode %q is not span or classic", ErrInvalid, req.Mode)
	}
	if _, err := s.loadBook(ctx, req.BookID); err != nil {
		return jobs.Job{}, err
	}
	if _, err := s.llm(ctx); err != nil {
		return jobs.Job{}, err
	}
	payload, err := json.Marshal(castPayload{CastRequest: req, Run: jobs.NewID()})
	if err != nil {
		return jobs.Job{}, err
	}
	return s.startJob(ctx, req.BookID, castStart(), CastJobKind, payload, nil)
}

// A job kind's start on a book: what claim checks and records.
type jobStart struct {
	what    string
	job     func(*Book) *string
	claimed func(*Book) *time.Time
}

func castStart() jobStart {
	return jobStart{"cast", func(b *Book) *string { return &b.CastJob }, func(b *Book) *time.Time { return &b.CastClaimed }}
}

func renderStart() jobStart {
	return jobStart{"render", func(b *Book) *string { return &b.RenderJob }, func(b *Book) *time.Time { return &b.RenderClaimed }}
}

// claimTTL is how long a start's claim holds a book without its job being
// recorded: a process that died between the two leaves the book free again.
const claimTTL = time.Minute

// startJob starts a job of kind on a book, at most one at a time: claim
// marks the book with a write conditional on the META version the idle
// check read, so of two simultaneous starts one wins and the other sees
// its claim (ErrConflict, 409); then the job is enqueued and recorded.
// prepare (may be nil) changes the book in the claiming write.
func (s *Service) startJob(ctx context.Context, id string, st jobStart, kind string, payload json.RawMessage, prepare func(*Book)) (jobs.Job, error) {
	if err := s.claim(ctx, id, st, prepare); err != nil {
		return jobs.Job{}, err
	}
	job, err := s.queue.Enqueue(ctx, kind, payload)
	if err != nil {
		_, _ = s.updateBook(context.WithoutCancel(ctx), id, func(b *Book) error {
			*st.claimed(b) = time.Time{}
			return nil
		})
		return job, err
	}
	_, err = s.updateBook(ctx, id, func(b *Book) error {
		*st.job(b), *st.claimed(b) = job.ID, time.Time{}
		return nil
	})
	return job, err
}

func (s *Service) claim(ctx context.Context, id string, st jobStart, prepare func(*Book)) error {
	for try := 0; try < 8; try++ {
		b, err := s.loadBook(ctx, id)
		if err != nil {
			return err
		}
		if b.Status != StatusReady {
			return fmt.Errorf("%w: book %s is %s, not ready", ErrConflict, id, b.Status)
		}
		if err := s.idle(ctx, *st.job(&b), st.what); err != nil {
			return err
		}
		now := s.clock()
		if at := *st.claimed(&b); !at.IsZero() && now.Sub(at) < claimTTL {
			return fmt.Errorf("%w: a %s of book %s is being started", ErrConflict, st.what, id)
		}
		*st.claimed(&b) = now.UTC()
		if prepare != nil {
			prepare(&b)
		}
		// Conditional on the version read: a start that claimed meanwhile
		// makes this one read again and find its claim.
		if _, err = s.putBook(ctx, b); !errors.Is(err, ErrConflict) {
			return err
		}
	}
	return fmt.Errorf("%w: book %s keeps changing", ErrConflict, id)
}

// idle refuses to start a job while the book's last one of its kind runs.
func (s *Service) idle(ctx context.Context, id, what string) error {
	if id == "" {
		return nil
	}
	j, err := s.queue.Get(ctx, id)
	if errors.Is(err, jobs.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !j.Status.Final() {
		return fmt.Errorf("%w: the %s job %s is still %s", ErrConflict, what, id, j.Status)
	}
	return nil
}

// castInput is what a cast reads: the book, its text, spans and cast.
type castInput struct {
	book  Book
	text  string
	spans []spans.Span
	cast  []cast.Character
}

func (s *Service) castInput(ctx context.Context, id string) (castInput, error) {
	b, err := s.loadBook(ctx, id)
	if err != nil {
		return castInput{}, err
	}
	text, err := s.readText(ctx, b)
	if err != nil {
		return castInput{}, err
	}
	chars, err := s.loadCast(ctx, id)
	if err != nil {
		return castInput{}, err
	}
	bk := book.Book{Title: b.Title, Author: b.Author, Text: text}
	for _, c := range b.Chapters {
		bk.Chapters = append(bk.Chapters, book.Chapter{Index: c.Index, Title: c.Title, Start: c.Start, End: c.End})
	}
	in := castInput{book: b, text: text, spans: spans.SplitBook(bk)}
	in.cast = castOf(chars)
	return in, nil
}

// castOf is the stored cast as the cast package reads it.
func castOf(chars []Character) []cast.Character {
	out := make([]cast.Character, 0, len(chars))
	for _, c := range chars {
		out = append(out, cast.Character{ID: c.ID, Name: c.Name, Aliases: c.Aliases, Gender: c.Gender, Mentions: c.Mentions, Narrator: c.Narrator})
	}
	return out
}

// handSet are the hand-set speakers of segs, by segment id and by range (a
// cast in another mode has other ids for the same text).
func handSet(segs []Segment) map[string]Segment {
	out := map[string]Segment{}
	for _, sg := range segs {
		if sg.Source == SourceHand {
			out[sg.ID] = sg
			out[rangeKey(sg.Start, sg.End)] = sg
		}
	}
	return out
}

func rangeKey(start, end int) string { return fmt.Sprintf("%d:%d", start, end) }

// keepHand lays the hand-set speakers over segs.
func keepHand(segs []Segment, hand map[string]Segment) (int, []Segment) {
	kept := 0
	for i := range segs {
		sg := &segs[i]
		if sg.Kind != KindDialogue {
			continue
		}
		k, ok := hand[sg.ID]
		if !ok {
			k, ok = hand[rangeKey(sg.Start, sg.End)]
		}
		if ok {
			sg.Speaker, sg.Source, sg.Mark, sg.Other, sg.Confidence = k.Speaker, SourceHand, "", "", 1
			kept++
		}
	}
	return kept, segs
}

// save stores segs with the hand-set speakers stored now laid over them,
// again when an edit came in meanwhile, so a speaker set by hand while the
// job ran is kept.
func (s *Service) save(ctx context.Context, id, mode string, segs []Segment) (Book, int, error) {
	var err error
	for try := 0; try < 8; try++ {
		var b Book
		if b, err = s.loadBook(ctx, id); err != nil {
			return b, 0, err
		}
		var stored segmentItems
		if stored, err = s.loadSegments(ctx, id); err != nil {
			return b, 0, err
		}
		kept, next := keepHand(slices.Clone(segs), handSet(stored.segs))
		b.Mode = mode
		if b, err = s.saveSegments(ctx, b, stored, next); !errors.Is(err, ErrConflict) {
			return b, kept, err
		}
	}
	return Book{}, 0, err
}

// CastJob is the cast job's handler: Refine, then attribution in the mode
// asked, then verify. It is safe to run again: every LLM answer (and the
// refined cast) is kept under the job's run, so a run after a crash asks
// the LLM only what it had not answered, and the segments are replaced
// whole.
func (s *Service) CastJob(ctx context.Context, raw json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var p castPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("%w: payload: %v", ErrInvalid, err)
	}
	if p.Mode == "" {
		p.Mode = ModeSpan
	}
	in, err := s.castInput(ctx, p.BookID)
	if err != nil {
		return nil, err
	}
	llm, err := s.llm(ctx)
	if err != nil {
		return nil, err
	}
	if p.Run == "" {
		return nil, fmt.Errorf("%w: payload without a run id", ErrInvalid)
	}
	calls := &answers{llm: llm, blobs: s.blobs, prefix: "audiobook/" + in.book.ID + "/llm/" + p.Run + "/", progress: progress}
	// Refine first: attribution then names the refined cast. The guess of
	// the requests to come keeps the progress from jumping.
	calls.expect = 1 + len(in.spans)/cast.MaxWindow
	refined, err := s.refine(ctx, calls, &in)
	if err != nil {
		return nil, jobs.Transient(fmt.Errorf("refine the cast of %s: %w", in.book.ID, err))
	}
	var res CastResult
	var segs []Segment
	if p.Mode == ModeClassic {
		n := classicRequests(in)
		if p.Verify {
			n *= 2
		}
		calls.expect = calls.done + n
		segs, res, err = s.castClassic(ctx, calls, in)
	} else {
		segs, res, err = s.castSpans(ctx, calls, in, p.Verify)
	}
	if err != nil {
		return nil, err
	}
	if p.Verify {
		segs, err = s.verify(ctx, calls, in, segs, &res)
		if err != nil {
			return nil, err
		}
	}
	b, kept, err := s.save(ctx, in.book.ID, p.Mode, segs)
	if err != nil {
		return nil, jobs.Transient(err)
	}
	res.Mode, res.Kept, res.Counts, res.Refine = p.Mode, kept, b.Counts, &refined
	res.Agreed, res.Disputed = b.Counts.Agreed, b.Counts.Disputed
	// The answers kept for a re-run are not needed once the cast is saved.
	_, _ = s.blobs.DeletePrefix(context.WithoutCancel(ctx), calls.prefix)
	return json.Marshal(res)
}

// castSpans is span mode: rules (as at import) with the hand-set speakers
// fixed, then the LLM about the dialogue spans still without a speaker or
// answered by the rules below cast.LowConfidence. An explicit tag and a
// hand-set speaker are never asked about nor replaced.
func (s *Service) castSpans(ctx context.Context, calls *answers, in castInput, verify bool) ([]Segment, CastResult, error) {
	stored, err := s.loadSegments(ctx, in.book.ID)
	if err != nil {
		return nil, CastResult{}, err
	}
	hand := handSet(stored.segs)
	fixed := cast.AttributeRules(in.text, in.spans, in.cast)
	byID := make(map[string]spans.Span, len(in.spans))
	for _, x := range in.spans {
		byID[x.ID] = x
	}
	asked := 0
	for i, a := range fixed {
		x := byID[a.SpanID]
		k, ok := hand[a.SpanID]
		if !ok {
			k, ok = hand[rangeKey(x.Start, x.End)]
		}
		if ok {
			fixed[i].Speaker, fixed[i].Source = k.Speaker, cast.Source(SourceHand)
		}
		if cast.Asks(fixed[i]) {
			asked++
		}
	}
	calls.expect = calls.done + (asked+cast.MaxWindow-1)/cast.MaxWindow
	if verify {
		calls.expect += 1 + (len(fixed)+cast.MaxWindow-1)/cast.MaxWindow
	}
	att, st, err := cast.AttributeLLM(ctx, calls, in.text, in.spans, in.cast, fixed, cast.Options{})
	if err != nil {
		return nil, CastResult{}, llmFailure(err)
	}
	res := CastResult{Requests: st.Requests, AskedSpans: st.AskedSpans, PromptTokens: st.PromptTokens}
	if st.AskedSpans > 0 {
		res.PromptTokensPerSpan = float64(st.PromptTokens) / float64(st.AskedSpans)
	}
	return spanSegments(in.spans, att, nil), res, nil
}

// verify is the second pass: every line but those with an explicit tag is
// asked again with shifted windows; lines are marked agreed or disputed
// (the other answer kept), and no speaker changes.
func (s *Service) verify(ctx context.Context, calls *answers, in castInput, segs []Segment, res *CastResult) ([]Segment, error) {
	sp := make([]spans.Span, len(segs))
	current := make([]cast.Attribution, 0, len(segs))
	for i, sg := range segs {
		sp[i] = spans.Span{ID: sg.ID, Chapter: sg.Chapter, Start: sg.Start, End: sg.End, Kind: spans.Kind(sg.Kind), Unclosed: sg.Unclosed, Continues: sg.Continues}
		if sg.Kind == KindDialogue {
			current = append(current, cast.Attribution{SpanID: sg.ID, Speaker: sg.Speaker, Source: cast.Source(sg.Source)})
		}
	}
	att, st, err := cast.Verify(ctx, calls, in.text, sp, in.cast, current, cast.Options{})
	if err != nil {
		return nil, llmFailure(err)
	}
	res.VerifyRequests = st.Requests
	byID := make(map[string]cast.Attribution, len(att))
	for _, a := range att {
		byID[a.SpanID] = a
	}
	out := make([]Segment, len(segs))
	copy(out, segs)
	for i := range out {
		if a, ok := byID[out[i].ID]; ok && out[i].Kind == KindDialogue {
			// Speakers stay: only the mark, the other answer and the
			// confidence come from the second pass.
			out[i].Mark, out[i].Other, out[i].Confidence = string(a.Mark), a.Other, a.Confidence
		}
	}
	return out, nil
}

// llmFailure files an LLM failure: worth another run, which resumes from
// the answers kept.
func llmFailure(err error) error {
	return jobs.Transient(fmt.Errorf("%w: %w", ErrLLM, err))
}

// answers is the LLM as the cast job asks it: each answer is kept as a
// blob named by a digest of the question, so a run after a crash gets the
// answers already given without asking again, and every answered request
// reports progress.
type answers struct {
	llm      cast.LLM
	blobs    blob.Store
	prefix   string
	progress jobs.Reporter
	expect   int // requests expected in all, for progress
	done     int
	asked    int // requests that reached the LLM (not kept answers)
}

func (a *answers) ChatSchema(ctx context.Context, system, user, schemaName string, schema map[string]any) (string, error) {
	sum := sha256.Sum256([]byte(system + "\x00" + user + "\x00" + schemaName))
	key := a.prefix + hex.EncodeToString(sum[:16]) + ".json"
	if kept, ok := readKept(ctx, a.blobs, key); ok {
		return string(kept), a.step(ctx)
	}
	a.asked++
	out, err := a.llm.ChatSchema(ctx, system, user, schemaName, schema)
	if err != nil {
		return "", err
	}
	if err := a.blobs.Put(ctx, key, strings.NewReader(out), "application/json"); err != nil {
		return "", fmt.Errorf("keep an LLM answer: %w", err)
	}
	return out, a.step(ctx)
}

// readKept reads an answer a run kept; false when there is none to read.
func readKept(ctx context.Context, blobs blob.Store, key string) ([]byte, bool) {
	rc, _, err := blobs.Get(ctx, key)
	if err != nil {
		return nil, false
	}
	defer rc.Close()
	kept, err := io.ReadAll(io.LimitReader(rc, 4<<20))
	return kept, err == nil && len(kept) > 0
}

func (a *answers) step(ctx context.Context) error {
	a.done++
	total := max(a.expect, a.done+1)
	return a.progress.Progress(ctx, 0.95*float64(a.done)/float64(total), fmt.Sprintf("%d of about %d LLM requests answered", a.done, total))
}

var _ cast.LLM = (*answers)(nil)

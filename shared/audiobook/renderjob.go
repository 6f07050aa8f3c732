package audiobook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/store"
)

// RenderJobKind is the background job that voices a book.
const RenderJobKind = "audiobook.render"

// MaxVoices is the most voices a book's render speaks in (the speech
// renderer's limit).
const MaxVoices = 64

// renderSK is the item that records a render's finished outputs, so a run
// after a crash does not make them again.
const renderSK = "RENDER"

// RenderRequest starts a render.
type RenderRequest struct {
	Speed float64 `json:"speed,omitempty"`
	Check *bool   `json:"check,omitempty"` // the ear; nil follows Settings (ear_check)
	// Chapter, when set, renders only that chapter's MP3 (an index into the
	// book's chapters); the last render's other files stay.
	Chapter *int `json:"chapter,omitempty"`
}

// voiceRef is a library voice as it was when the render was asked for.
type voiceRef struct {
	Engine      string `json:"engine"`
	EngineVoice string `json:"engine_voice"`
}

// renderPayload is the render job's payload: the voices resolved when it
// was asked for, so the worker needs no voice library.
type renderPayload struct {
	BookID   string              `json:"book_id"`
	Run      string              `json:"run" doc:"names the outputs"`
	Narrator string              `json:"narrator"`
	Speakers map[string]string   `json:"speakers"` // cast name → voice id
	Voices   map[string]voiceRef `json:"voices"`   // voice id → engine
	Speed    float64             `json:"speed,omitempty"`
	Check    *bool               `json:"check,omitempty"`
	// Chapter renders that chapter's MP3 alone, under Part (so the file it
	// replaces stays playable until the new one is recorded).
	Chapter *int   `json:"chapter,omitempty"`
	Part    string `json:"part,omitempty"`
}

// Output is one audio file a render made.
type Output struct {
	Chapter    int    `json:"chapter" doc:"the book chapter's index; -1 for the whole book"`
	Title      string `json:"title"`
	Format     string `json:"format" enum:"m4b,mp3"`
	Key        string `json:"key" doc:"blob key of the audio"`
	DurationMS int64  `json:"duration_ms"`
	// Chunks, Cached and EngineCalls are the speech renderer's: a chapter
	// MP3 finds every chunk the M4B spoke in the cache, and a run after a
	// crash speaks only what the crash left unspoken.
	Chunks      int `json:"chunks"`
	Cached      int `json:"cached"`
	EngineCalls int `json:"engine_calls"`
	// Ear is what the ear heard of the chunks (the speech renderer's).
	Ear *render.EarReport `json:"ear,omitempty"`
	// TimingsKey is the speech renderer's: every sentence's place in the file.
	TimingsKey string `json:"timings_key,omitempty"`
}

// RenderResult is the render job's result.
type RenderResult struct {
	Book     Output   `json:"book" doc:"the M4B, a chapter per book chapter"`
	Chapters []Output `json:"chapters" doc:"an MP3 per book chapter"`
}

// renderRecord is the RENDER item: the outputs a render job finished.
type renderRecord struct {
	Run    string       `json:"run"`
	Result RenderResult `json:"result"`
	Done   []bool       `json:"done"` // per chapter MP3
	Whole  bool         `json:"whole"`
	// Parts are the chapters' M4Bs made so far (Key "" where not yet),
	// joined into the book's once all are made.
	Parts []Output `json:"parts,omitempty"`
	// Reached is the progress the run's last cut-off job reached, and
	// Continued how many jobs handed the render on (see continueRender).
	Reached   float64 `json:"reached,omitempty"`
	Continued int     `json:"continued,omitempty"`
}

// RenderReserve is what a render job keeps back from a deadline (the job
// worker's Lambda timeout): when only this is left it stops speaking,
// records how far it got and queues its continuation, so a book of any
// length renders in as many invocations as it needs.
const RenderReserve = 20 * time.Second

// renderWholeRun is the working time below which a render job that made no
// progress is not taken to be stuck (the worker's is 300 s less the reserve).
const renderWholeRun = 2 * time.Minute

// RenderContinued is the result of a render job that handed the render on.
type RenderContinued struct {
	ContinuedBy string  `json:"continued_by" doc:"the job that goes on with the render"`
	Reached     float64 `json:"reached"`
}

// reached is a Reporter that remembers the highest progress reported, and
// whether a speech render spoke all its chunks.
type reached struct {
	to    jobs.Reporter
	mu    sync.Mutex
	max   float64
	spoke bool
}

func (r *reached) spokenAll() {
	r.mu.Lock()
	r.spoke = true
	r.mu.Unlock()
}

func (r *reached) Progress(ctx context.Context, f float64, msg string) error {
	r.mu.Lock()
	r.max = max(r.max, f)
	r.mu.Unlock()
	return r.to.Progress(ctx, f, msg)
}

// high is the highest progress reported and whether all was spoken.
func (r *reached) high() (float64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.max, r.spoke
}

// StartRender queues the render of a book in the voices assigned: the
// narrator's (required) for narration and for any character without a
// voice of its own. Voices are checked against the library now.
func (s *Service) StartRender(ctx context.Context, id string, req RenderRequest) (jobs.Job, error) {
	b, err := s.loadBook(ctx, id)
	if err != nil {
		return jobs.Job{}, err
	}
	if req.Speed != 0 && (req.Speed < 0.25 || req.Speed > 4) {
		return jobs.Job{}, fmt.Errorf("%w: speed %g is outside 0.25..4", ErrInvalid, req.Speed)
	}
	if b.NarratorVoice == "" {
		return jobs.Job{}, fmt.Errorf("%w: book %s has no narrator voice: set one first", ErrInvalid, id)
	}
	if req.Chapter != nil && (*req.Chapter < 0 || *req.Chapter >= len(b.Chapters)) {
		return jobs.Job{}, fmt.Errorf("%w: book %s has no chapter %d (its chapters are 0..%d)", ErrInvalid, id, *req.Chapter, len(b.Chapters)-1)
	}
	if err := s.idle(ctx, b.RenderJob, "render"); err != nil {
		return jobs.Job{}, err // before the voices are checked; startJob checks again
	}
	chars, err := s.loadCast(ctx, id)
	if err != nil {
		return jobs.Job{}, err
	}
	p := renderPayload{BookID: id, Narrator: b.NarratorVoice, Speakers: map[string]string{}, Voices: map[string]voiceRef{}, Speed: req.Speed, Check: req.Check}
	need := []string{b.NarratorVoice}
	for _, c := range chars {
		if c.VoiceID != "" {
			p.Speakers[c.Name] = c.VoiceID
			need = append(need, c.VoiceID)
		}
	}
	for _, v := range need {
		if _, ok := p.Voices[v]; ok {
			continue
		}
		if len(p.Voices) == MaxVoices {
			return jobs.Job{}, fmt.Errorf("%w: the cast speaks in more than %d voices", ErrInvalid, MaxVoices)
		}
		voice, err := s.checkVoice(ctx, v)
		if err != nil {
			return jobs.Job{}, err
		}
		p.Voices[v] = voiceRef{Engine: voice.Engine, EngineVoice: voice.EngineVoice}
	}
	p.Run = jobs.NewID()
	if req.Chapter != nil {
		// One chapter joins the last render's run, so its other files stay.
		p.Chapter, p.Part = req.Chapter, jobs.NewID()
		if b.RenderRun != "" {
			p.Run = b.RenderRun
		}
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return jobs.Job{}, err
	}
	// The run is the book's before the job can start, so the job's outputs
	// are the ones the book shows.
	return s.startJob(ctx, id, renderStart(), RenderJobKind, raw, func(b *Book) { b.RenderRun = p.Run })
}

// speechChapter is a chapter as the speech renderer's payload takes it.
type speechChapter struct {
	Title    string          `json:"title"`
	Text     string          `json:"text"`
	Segments []speechSegment `json:"segments,omitempty"`
}

type speechSegment struct {
	VoiceID string `json:"voice_id,omitempty"`
	Text    string `json:"text"`
}

// speechPayload is the speech renderer's job payload (render.Service.Job).
type speechPayload struct {
	Chapters    []speechChapter     `json:"chapters"`
	VoiceID     string              `json:"voice_id"`
	Format      string              `json:"format"`
	Title       string              `json:"title,omitempty"`
	Artist      string              `json:"artist,omitempty"`
	Speed       float64             `json:"speed,omitempty"`
	Check       *bool               `json:"check,omitempty"`
	Engine      string              `json:"engine"`
	EngineVoice string              `json:"engine_voice"`
	Voices      map[string]voiceRef `json:"voices,omitempty"`
	Output      string              `json:"output"`
	Album       string              `json:"album,omitempty"`
	Track       int                 `json:"track,omitempty"`
	Tracks      int                 `json:"tracks,omitempty"`
}

// voicedChapters are the book's chapters as segments in their voices: each
// segment speaks in its speaker's voice, narration and speakers without a
// voice in the narrator's. Segments are never merged, so every dialogue
// boundary stays a boundary; segments with nothing to say are left out.
func voicedChapters(b Book, text string, segs []Segment, speakers map[string]string) []speechChapter {
	out := make([]speechChapter, len(b.Chapters))
	for i, c := range b.Chapters {
		out[i].Title = c.Title
	}
	for _, sg := range segs {
		if sg.Chapter < 0 || sg.Chapter >= len(out) || strings.TrimSpace(text[sg.Start:sg.End]) == "" {
			continue
		}
		voice := ""
		if sg.Kind == KindDialogue {
			voice = speakers[sg.Speaker]
		}
		out[sg.Chapter].Segments = append(out[sg.Chapter].Segments, speechSegment{VoiceID: voice, Text: text[sg.Start:sg.End]})
	}
	return out
}

// scaled reports a part of the render's progress as a share of the job's.
type scaled struct {
	to       jobs.Reporter
	from, by float64
	prefix   string
}

func (r scaled) Progress(ctx context.Context, f float64, msg string) error {
	if t, ok := r.to.(*reached); ok && f >= 1 {
		t.spokenAll()
	}
	return r.to.Progress(ctx, r.from+r.by*f, r.prefix+msg)
}

// RenderJob is the render job's handler: an M4B part per chapter, joined
// by stream copy into the book's M4B with a chapter per book chapter,
// then an MP3 per chapter. It is safe to run again: the speech renderer's
// chunk cache means a run after a crash speaks only what is missing (the
// chapter MP3s speak nothing: the parts spoke every chunk), and outputs
// and parts already made are recorded and skipped.
// Under a deadline (the worker Lambda's timeout) it stops RenderReserve
// before it and hands the render on to a new job (continueRender), so the
// length of a book is not bounded by one message's attempts.
func (s *Service) RenderJob(ctx context.Context, raw json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var p renderPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("%w: payload: %v", ErrInvalid, err)
	}
	if s.renderer == nil {
		return nil, fmt.Errorf("%w: this function does not render", ErrInvalid)
	}
	b, err := s.loadBook(ctx, p.BookID)
	if err != nil {
		return nil, err
	}
	text, err := s.readText(ctx, b)
	if err != nil {
		return nil, jobs.Transient(err)
	}
	stored, err := s.loadSegments(ctx, b.ID)
	if err != nil {
		return nil, jobs.Transient(err)
	}
	chapters := voicedChapters(b, text, stored.segs, p.Speakers)
	if p.Run == "" {
		return nil, fmt.Errorf("%w: payload without a run id", ErrInvalid)
	}
	rec, version, err := s.renderRecord(ctx, b.ID, p.Run, len(chapters))
	if err != nil {
		return nil, jobs.Transient(err)
	}
	// work ends RenderReserve before the deadline: the rest is for
	// recording the progress and queueing the continuation.
	work, whole := ctx, true
	if deadline, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		work, cancel = context.WithDeadline(ctx, deadline.Add(-RenderReserve))
		defer cancel()
		// A job that started late in the worker's batch had less time
		// than a whole invocation: it hands on rather than fail.
		whole = deadline.Sub(s.clock()) >= RenderReserve+renderWholeRun
	}
	track := &reached{to: progress}
	if rec.Continued > 0 {
		_ = track.Progress(ctx, rec.Reached, fmt.Sprintf("continuing (part %d): the chunks spoken are in the cache", rec.Continued+1))
	}
	cutOff := func(err error) (json.RawMessage, error) {
		if work.Err() != nil && ctx.Err() == nil {
			high, spoke := track.high()
			return s.continueRender(ctx, raw, p, rec, version, high, spoke && whole)
		}
		return nil, err
	}
	prefix := "audiobook/" + b.ID + "/render/" + p.Run + "/"
	def := p.Voices[p.Narrator]
	others := map[string]voiceRef{}
	for id, v := range p.Voices {
		if id != p.Narrator {
			others[id] = v
		}
	}
	var spoken []speechChapter
	// speak renders chs; a chapter MP3 (number > 0, of the spoken) is titled by
	// its chapter, its album the book, so players list a book's files in order.
	speak := func(chs []speechChapter, format, output string, number int, rep jobs.Reporter) (Output, error) {
		sp := speechPayload{Chapters: chs, VoiceID: p.Narrator, Format: format, Title: b.Title, Artist: b.Author, Speed: p.Speed, Check: p.Check,
			Engine: def.Engine, EngineVoice: def.EngineVoice, Voices: others, Output: output}
		if number > 0 {
			sp.Title, sp.Album, sp.Track, sp.Tracks = chs[0].Title, b.Title, number, len(spoken)
			if strings.TrimSpace(sp.Title) == "" {
				sp.Title = fmt.Sprintf("Chapter %d", number)
			}
		}
		raw, err := json.Marshal(sp)
		if err != nil {
			return Output{}, err
		}
		res, err := s.renderer.Job(work, raw, rep)
		if err != nil {
			return Output{}, err
		}
		out := Output{Chapter: -1, Title: b.Title, Format: format}
		if err := json.Unmarshal(res, &out); err != nil {
			return Output{}, fmt.Errorf("render result: %w", err)
		}
		return out, nil
	}
	// Chapters with nothing to say would fail the whole render: the M4B
	// keeps the others.
	for _, c := range chapters {
		if len(c.Segments) > 0 {
			spoken = append(spoken, c)
		}
	}
	if len(spoken) == 0 {
		return nil, fmt.Errorf("%w: book %s has nothing to speak", ErrInvalid, b.ID)
	}
	if p.Chapter != nil {
		return s.renderOneChapter(ctx, p, b.ID, prefix, chapters, rec, version, speak, track, cutOff)
	}
	// Each chapter is its own M4B render (loudness per chapter, as
	// audiobook platforms do per file), recorded when made, so no step
	// grows with the book: a continuation goes on at the next chapter and
	// the join is a stream copy.
	const wholeShare = 0.8
	if len(rec.Parts) != len(chapters) {
		rec.Parts = make([]Output, len(chapters))
	}
	if !rec.Whole {
		partShare := 0.95 * wholeShare / float64(len(spoken))
		n := 0
		for i, c := range chapters {
			if len(c.Segments) == 0 {
				continue
			}
			n++
			from := partShare * float64(n-1)
			if rec.Parts[i].Key != "" {
				continue
			}
			rep := scaled{to: track, from: from, by: partShare, prefix: fmt.Sprintf("M4B chapter %d of %d: ", i+1, len(chapters))}
			out, err := speak([]speechChapter{c}, "m4b", fmt.Sprintf("%spart%03d/", prefix, i), 0, rep)
			if err != nil {
				return cutOff(err)
			}
			out.Chapter, out.Title = i, c.Title
			rec.Parts[i] = out
			if version, err = s.putRenderRecord(ctx, b.ID, rec, version); err != nil {
				return nil, jobs.Transient(err)
			}
			// A finished chapter is progress even if its renderer reported
			// less (the stuck guard compares progress between jobs).
			_ = track.Progress(ctx, from+partShare, fmt.Sprintf("M4B chapter %d of %d made", i+1, len(chapters)))
		}
		var parts []Output
		for _, pt := range rec.Parts {
			if pt.Key != "" {
				parts = append(parts, pt)
			}
		}
		out, err := s.joinParts(work, b.Title, b.Author, parts, prefix+"book/audio.m4b")
		if err != nil {
			return cutOff(err)
		}
		rec.Result.Book, rec.Whole = out, true
		if version, err = s.putRenderRecord(ctx, b.ID, rec, version); err != nil {
			return nil, jobs.Transient(err)
		}
		_ = track.Progress(ctx, wholeShare, "M4B joined")
	}
	number := 0 // the chapter's among those spoken
	for i, c := range chapters {
		if len(c.Segments) > 0 {
			number++
		}
		if rec.Done[i] || len(c.Segments) == 0 {
			continue
		}
		share := (1 - wholeShare) / float64(len(chapters))
		rep := scaled{to: track, from: wholeShare + share*float64(i), by: share, prefix: fmt.Sprintf("chapter %d of %d MP3: ", i+1, len(chapters))}
		out, err := speak([]speechChapter{c}, "mp3", fmt.Sprintf("%sch%03d/", prefix, i), number, rep)
		if err != nil {
			return cutOff(err)
		}
		out.Chapter, out.Title = i, c.Title
		rec.Result.Chapters = append(rec.Result.Chapters, out)
		rec.Done[i] = true
		if version, err = s.putRenderRecord(ctx, b.ID, rec, version); err != nil {
			return nil, jobs.Transient(err)
		}
	}
	return json.Marshal(rec.Result)
}

// renderOneChapter makes chapter p.Chapter's MP3 alone and records it in
// place of the run's earlier one; the run's other files are untouched.
func (s *Service) renderOneChapter(ctx context.Context, p renderPayload, book, prefix string, chapters []speechChapter, rec renderRecord, version int64,
	speak func([]speechChapter, string, string, int, jobs.Reporter) (Output, error), track jobs.Reporter,
	cutOff func(error) (json.RawMessage, error)) (json.RawMessage, error) {
	i := *p.Chapter
	if i < 0 || i >= len(chapters) || len(chapters[i].Segments) == 0 {
		return nil, fmt.Errorf("%w: chapter %d of book %s has nothing to speak", ErrInvalid, i, book)
	}
	number := 0 // its track number: its place among the chapters that speak
	for _, c := range chapters[:i+1] {
		if len(c.Segments) > 0 {
			number++
		}
	}
	rep := scaled{to: track, by: 1, prefix: fmt.Sprintf("chapter %d of %d MP3: ", i+1, len(chapters))}
	out, err := speak([]speechChapter{chapters[i]}, "mp3", fmt.Sprintf("%sch%03d-%s/", prefix, i, p.Part), number, rep)
	if err != nil {
		return cutOff(err)
	}
	out.Chapter, out.Title = i, chapters[i].Title
	rec.Result.Chapters = slices.DeleteFunc(rec.Result.Chapters, func(o Output) bool { return o.Chapter == i })
	rec.Result.Chapters = append(rec.Result.Chapters, out)
	slices.SortFunc(rec.Result.Chapters, func(a, b Output) int { return a.Chapter - b.Chapter })
	rec.Done[i] = true
	if _, err := s.putRenderRecord(ctx, book, rec, version); err != nil {
		return nil, jobs.Transient(err)
	}
	return json.Marshal(out)
}

// continueRender hands a render cut off by its deadline on to a new job
// of the same payload: the chunks it spoke are in the cache and the files
// it made in RENDER, so the next job goes on from there, with a whole
// invocation and its own attempts. The book then names the new job, which
// GET …/render follows. A job that had every chunk spoken in a whole
// invocation (spokeAll) and still made no progress (an assembly longer
// than the invocation) fails instead
// of handing on for ever; while chunks are being spoken, a job whose
// progress did not reach the renderer's next report (a twentieth of the
// book) hands on: its chunks are in the cache.
func (s *Service) continueRender(ctx context.Context, raw json.RawMessage, p renderPayload, rec renderRecord, version int64, reached float64, spokeAll bool) (json.RawMessage, error) {
	if spokeAll && reached <= rec.Reached {
		return nil, fmt.Errorf("%w: the render of book %s made no progress in a whole run of the worker (stuck at %.0f%%, part %d): "+
			"a step takes longer than the worker's timeout", ErrTooLarge, p.BookID, 100*reached, rec.Continued+1)
	}
	b, err := s.loadBook(ctx, p.BookID)
	if err != nil {
		return nil, jobs.Transient(err)
	}
	if b.RenderRun != p.Run {
		return nil, fmt.Errorf("%w: book %s has a newer render; this one stops", ErrConflict, p.BookID)
	}
	rec.Reached, rec.Continued = max(rec.Reached, reached), rec.Continued+1
	if _, err := s.putRenderRecord(ctx, p.BookID, rec, version); err != nil {
		return nil, jobs.Transient(err)
	}
	next, err := s.queue.Enqueue(ctx, RenderJobKind, raw)
	if err != nil {
		return nil, jobs.Transient(fmt.Errorf("queue the render's continuation: %w", err))
	}
	if _, err := s.updateBook(ctx, p.BookID, func(b *Book) error {
		if b.RenderRun != p.Run {
			return fmt.Errorf("%w: book %s has a newer render", ErrConflict, p.BookID)
		}
		b.RenderJob = next.ID
		return nil
	}); err != nil {
		return nil, fmt.Errorf("the render goes on in job %s, but the book does not name it: %w", next.ID, err)
	}
	return json.Marshal(RenderContinued{ContinuedBy: next.ID, Reached: reached})
}

// renderRecord reads the RENDER item of a run, or a fresh one.
func (s *Service) renderRecord(ctx context.Context, book, run string, chapters int) (renderRecord, int64, error) {
	fresh := renderRecord{Run: run, Done: make([]bool, chapters), Result: RenderResult{Chapters: []Output{}}}
	it, err := s.table.Get(ctx, bookPK(book), renderSK)
	if errors.Is(err, store.ErrNotFound) {
		return fresh, 0, nil
	}
	if err != nil {
		return fresh, 0, err
	}
	var rec renderRecord
	if err := json.Unmarshal(it.Data, &rec); err != nil || rec.Run != run || len(rec.Done) != chapters {
		return fresh, it.Version, nil // another job's: replaced
	}
	if len(rec.Parts) != chapters {
		rec.Parts = make([]Output, chapters)
	}
	return rec, it.Version, nil
}

func (s *Service) putRenderRecord(ctx context.Context, book string, rec renderRecord, version int64) (int64, error) {
	data, err := json.Marshal(rec)
	if err != nil {
		return version, err
	}
	cond := store.IfAbsent()
	if version > 0 {
		cond = store.IfVersion(version)
	}
	if err := s.table.Put(ctx, store.Item{PK: bookPK(book), SK: renderSK, Version: version + 1, Data: data}, cond); err != nil {
		return version, fmt.Errorf("render record of %s: %w", book, err)
	}
	return version + 1, nil
}

// RenderView is a book's last render as the API shows it.
type RenderView struct {
	JobID    string      `json:"job_id"`
	Status   jobs.Status `json:"status" enum:"queued,running,succeeded,failed"`
	Progress float64     `json:"progress"`
	Message  string      `json:"message,omitempty"`
	Error    string      `json:"error,omitempty"`
	// Book is the M4B once made; Chapters the MP3s made so far.
	Book     *Output  `json:"book,omitempty"`
	Chapters []Output `json:"chapters"`
	// Ear is the ear's word on the chapters made so far.
	Ear *render.EarReport `json:"ear,omitempty" doc:"the ear over the chapters made so far: marked chunks by book chapter, the worst rate, and the median of the chapters' medians"`
}

// bookEar sums the chapters' ear reports up: a chunk marked in a chapter
// is marked with the book chapter's index.
func bookEar(parts []Output) *render.EarReport {
	var out *render.EarReport
	var medians []float64
	for _, p := range parts {
		e := p.Ear
		if p.Key == "" || e == nil {
			continue
		}
		if out == nil {
			out = &render.EarReport{Status: e.Status, Marked: []render.MarkedChunk{}}
		}
		if e.Status != render.EarChecked { // unavailable or off anywhere is said
			out.Status, out.Reason = e.Status, e.Reason
		}
		out.Checked += e.Checked
		out.Retried += e.Retried
		out.Worst = max(out.Worst, e.Worst)
		if e.Checked > 0 {
			medians = append(medians, e.Median)
		}
		for _, m := range e.Marked {
			m.Chapter = p.Chapter
			out.Marked = append(out.Marked, m)
		}
	}
	if len(medians) > 0 {
		slices.Sort(medians)
		out.Median = medians[len(medians)/2]
	}
	return out
}

// Render reports a book's last render.
func (s *Service) Render(ctx context.Context, id string) (RenderView, error) {
	b, err := s.loadBook(ctx, id)
	if err != nil {
		return RenderView{}, err
	}
	if b.RenderJob == "" {
		return RenderView{}, fmt.Errorf("%w: book %s has not been rendered", ErrNotFound, id)
	}
	j, err := s.queue.Get(ctx, b.RenderJob)
	if err != nil {
		return RenderView{}, err
	}
	v := RenderView{JobID: j.ID, Status: j.Status, Progress: j.Progress, Message: j.Message, Error: j.Error, Chapters: []Output{}}
	rec, _, err := s.renderRecord(ctx, id, b.RenderRun, len(b.Chapters))
	if err != nil {
		return RenderView{}, err
	}
	if rec.Whole {
		out := rec.Result.Book
		v.Book = &out
	}
	v.Chapters = append(v.Chapters, rec.Result.Chapters...)
	v.Ear = bookEar(rec.Parts)
	// A continuation starts its job's progress at 0; the render's is
	// where the last job got to.
	if !j.Status.Final() && rec.Reached > v.Progress {
		v.Progress = rec.Reached
	}
	return v, nil
}

// ChapterTimings are the sentence timings of a chapter's MP3, for a player
// to step by sentence and show what is said.
func (s *Service) ChapterTimings(ctx context.Context, id string, chapter int) (render.Timings, error) {
	v, err := s.Render(ctx, id)
	if err != nil {
		return render.Timings{}, err
	}
	i := slices.IndexFunc(v.Chapters, func(o Output) bool { return o.Chapter == chapter })
	if i < 0 || v.Chapters[i].TimingsKey == "" {
		return render.Timings{}, fmt.Errorf("%w: chapter %d of book %s has no timings (not rendered, or rendered before they were kept)", ErrNotReady, chapter, id)
	}
	rc, _, err := s.blobs.Get(ctx, v.Chapters[i].TimingsKey)
	if errors.Is(err, blob.ErrNotFound) {
		return render.Timings{}, fmt.Errorf("%w: %s is gone", ErrNotFound, v.Chapters[i].TimingsKey)
	}
	if err != nil {
		return render.Timings{}, err
	}
	defer rc.Close()
	var tm render.Timings
	if err := json.NewDecoder(rc).Decode(&tm); err != nil {
		return render.Timings{}, fmt.Errorf("timings of chapter %d of book %s: %w", chapter, id, err)
	}
	return tm, nil
}

// AudioTTL is how long an audio URL stays valid.
const AudioTTL = time.Hour

// AudioURL is a short-lived URL of a render's M4B (chapter < 0) or of a
// chapter's MP3.
func (s *Service) AudioURL(ctx context.Context, id string, chapter int) (string, error) {
	v, err := s.Render(ctx, id)
	if err != nil {
		return "", err
	}
	key := ""
	if chapter < 0 && v.Book != nil {
		key = v.Book.Key
	}
	for _, c := range v.Chapters {
		if chapter >= 0 && c.Chapter == chapter {
			key = c.Key
		}
	}
	if key == "" {
		what := "the M4B"
		if chapter >= 0 {
			what = fmt.Sprintf("chapter %d's MP3", chapter)
		}
		return "", fmt.Errorf("%w: %s of book %s is not made yet (the render is %s)", ErrNotReady, what, id, v.Status)
	}
	url, err := s.blobs.PresignGet(ctx, key, AudioTTL)
	if errors.Is(err, blob.ErrNotFound) {
		return "", fmt.Errorf("%w: %s is gone", ErrNotFound, key)
	}
	return url, err
}

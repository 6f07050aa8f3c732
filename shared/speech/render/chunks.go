package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/jobs"
)

// planBlob is the name, under a render's output prefix, of its chunks as
// the job planned them (JSON), so the API can list the chunks spoken so
// far with the very cache keys the job speaks into, wherever it runs.
const planBlob = "chunks.json"

// Limits of a chunk listing.
const (
	DefaultChunkLimit = 20
	MaxChunkLimit     = 100
	// planCacheSize is how many renders' plans the service keeps decoded:
	// a player polls one render over and over, and a novel's plan is
	// megabytes, so a few.
	planCacheSize = 4
	// chunkLookups is how many chunks are looked up in the store at once.
	chunkLookups = 8
)

// plannedEntry is one chunk of a stored plan.
type plannedEntry struct {
	Chapter  int    `json:"chapter"`
	Sentence int    `json:"sentence"`
	Segment  int    `json:"segment"`
	VoiceID  string `json:"voice_id,omitempty"`
	Text     string `json:"text"`
	Key      string `json:"key"`
}

// storePlan keeps the render's chunks beside its output for ListChunks.
func (r *Renderer) storePlan(ctx context.Context, output string, chunks []planned) error {
	entries := make([]plannedEntry, len(chunks))
	for i, c := range chunks {
		entries[i] = plannedEntry{Chapter: c.chapter, Sentence: c.Sentence, Segment: c.segment, VoiceID: c.voiceID, Text: c.Text, Key: c.key}
	}
	data, err := json.Marshal(entries)
	if err != nil {
		return err
	}
	if err := r.blobs.Put(ctx, output+planBlob, bytes.NewReader(data), "application/json"); err != nil {
		return fmt.Errorf("store the render's plan: %w", err)
	}
	return nil
}

// ChunkList is a render's chunks that are spoken, in order, from one index.
type ChunkList struct {
	Status jobs.Status   `json:"status" enum:"queued,running,succeeded,failed"`
	Error  string        `json:"error,omitempty" doc:"why the render failed, or why it is being retried"`
	Total  int           `json:"total" doc:"chunks in the render; 0 until its job has planned them"`
	From   int           `json:"from"`
	Chunks []SpokenChunk `json:"chunks" doc:"the chunks from 'from' on that are spoken, in order, up to the first that is not yet"`
	// Next is absent when nothing more will come: every chunk listed, or
	// the render failed, or its chunks were evicted.
	Next    *int `json:"next,omitempty" doc:"the index to ask from next; absent when no more chunks will come"`
	Evicted bool `json:"evicted,omitempty" doc:"the render finished but a chunk's audio has left the cache: the list stops before it; play the whole audio instead"`
}

// SpokenChunk is one spoken chunk: a sentence, or a piece of a long one.
type SpokenChunk struct {
	Index      int    `json:"index" doc:"the chunk's place in the render, from 0"`
	Chapter    int    `json:"chapter" doc:"its chapter's index"`
	Sentence   int    `json:"sentence" doc:"its sentence's index within the chapter (as in the timings); pieces of one sentence share it"`
	Segment    int    `json:"segment" doc:"its segment's index within the chapter"`
	VoiceID    string `json:"voice_id,omitempty" doc:"the library voice speaking it"`
	Text       string `json:"text"`
	URL        string `json:"url" doc:"a short-lived URL of the chunk's audio (audio/wav)"`
	DurationMS int64  `json:"duration_ms"`
}

// planCache keeps the last few renders' plans, most recent last.
type planCache struct {
	mu      sync.Mutex
	entries []cachedPlan
}

type cachedPlan struct {
	id   string
	plan []plannedEntry
}

func (c *planCache) get(id string) ([]plannedEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.id == id {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			return e.plan, true
		}
	}
	return nil, false
}

func (c *planCache) put(id string, plan []plannedEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.id == id {
			c.entries = append(c.entries[:i:i], c.entries[i+1:]...)
			break
		}
	}
	if len(c.entries) >= planCacheSize {
		c.entries = c.entries[1:]
	}
	c.entries = append(c.entries, cachedPlan{id, plan})
}

// plan reads a render's plan; none yet (the job has not started) is nil.
func (s *Service) plan(ctx context.Context, id, output string) ([]plannedEntry, error) {
	if p, ok := s.plans.get(id); ok {
		return p, nil
	}
	rc, _, err := s.blobs.Get(ctx, output+planBlob)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("render %s: plan: %w", id, err)
	}
	defer rc.Close()
	var plan []plannedEntry
	// A plan is its texts and a key per chunk: a few times the text at most.
	if err := json.NewDecoder(io.LimitReader(rc, 8*MaxTextBytes)).Decode(&plan); err != nil {
		return nil, fmt.Errorf("render %s: plan: %w", id, err)
	}
	s.plans.put(id, plan)
	return plan, nil
}

// ListChunks lists up to limit of a render's chunks from index from on
// that are spoken, in order, stopping at the first that is not: a player
// can start on chunk 0 while the rest is being spoken.
func (s *Service) ListChunks(ctx context.Context, id string, from, limit int) (ChunkList, error) {
	if from < 0 {
		return ChunkList{}, fmt.Errorf("%w: from %d is negative", ErrInvalid, from)
	}
	if limit <= 0 {
		limit = DefaultChunkLimit
	}
	limit = min(limit, MaxChunkLimit)
	job, err := s.queue.Get(ctx, id)
	if err != nil {
		return ChunkList{}, err
	}
	if job.Kind != JobKind {
		return ChunkList{}, fmt.Errorf("render %s: %w", id, jobs.ErrNotFound)
	}
	var p payload
	if err := json.Unmarshal(job.Payload, &p); err != nil {
		return ChunkList{}, fmt.Errorf("render %s: payload: %w", job.ID, err)
	}
	list := ChunkList{Status: job.Status, Error: job.Error, From: from, Chunks: []SpokenChunk{}}
	plan, err := s.plan(ctx, id, p.Output)
	if err != nil {
		return ChunkList{}, err
	}
	list.Total = len(plan)
	finished := job.Status == jobs.StatusSucceeded || job.Status == jobs.StatusFailed
	if from >= len(plan) {
		if !finished && len(plan) == 0 {
			list.Next = &from
		}
		return list, nil
	}
	window := plan[from:min(from+limit, len(plan))]
	found, err := s.spoken(ctx, window)
	if err != nil {
		return ChunkList{}, err
	}
	for i, e := range window {
		if found[i] == nil {
			break
		}
		c := *found[i]
		c.Index, c.Chapter, c.Sentence, c.Segment, c.VoiceID, c.Text = from+i, e.Chapter, e.Sentence, e.Segment, e.VoiceID, e.Text
		list.Chunks = append(list.Chunks, c)
	}
	next := from + len(list.Chunks)
	switch {
	case next == len(plan):
	case job.Status == jobs.StatusSucceeded && len(list.Chunks) < len(window):
		list.Evicted = true
	case job.Status == jobs.StatusFailed && len(list.Chunks) < len(window):
	default:
		list.Next = &next
	}
	return list, nil
}

// spoken looks each chunk up in the cache, a few at once: a spoken one
// gets its URL and duration, a missing one is nil.
func (s *Service) spoken(ctx context.Context, window []plannedEntry) ([]*SpokenChunk, error) {
	found := make([]*SpokenChunk, len(window))
	errs := make([]error, len(window))
	slots := make(chan struct{}, chunkLookups)
	var wg sync.WaitGroup
	for i, e := range window {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			found[i], errs[i] = s.spokenChunk(ctx, e.Key)
		}()
	}
	wg.Wait()
	return found, errors.Join(errs...)
}

// spokenChunk is a cached chunk's URL and duration (from its WAV header
// and size), or nil when it is not cached (or is what a crash cut short).
func (s *Service) spokenChunk(ctx context.Context, key string) (*SpokenChunk, error) {
	rc, info, err := s.blobs.Get(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	header := make([]byte, wavHeaderSize)
	_, err = io.ReadFull(rc, header)
	rc.Close()
	if err != nil || info.Size <= wavHeaderSize {
		return nil, nil
	}
	f, _, err := parseWAV(header)
	if err != nil {
		return nil, nil
	}
	url, err := s.blobs.PresignGet(ctx, key, AudioTTL)
	if err != nil {
		return nil, err
	}
	return &SpokenChunk{URL: url, DurationMS: f.duration(int(info.Size - wavHeaderSize)).Milliseconds()}, nil
}

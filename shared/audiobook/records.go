package audiobook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/store"
)

// Keys of a book's items.
const (
	bookPrefix = "BOOK#"
	metaSK     = "META"
	segPrefix  = "SEG#"
	charPrefix = "CHAR#"
	indexPK    = "BOOKS" // one item per book, so listing is one query
)

func bookPK(id string) string { return bookPrefix + id }
func segSK(i int) string      { return fmt.Sprintf("%s%04d", segPrefix, i) }
func textKey(id string) string {
	return "audiobook/" + id + "/text.txt"
}

// bookRecord is META as stored: the book and its text's key.
type bookRecord struct {
	Book
	Text string `json:"text_key"`
	Run  string `json:"render_run,omitempty"`
	// Claimed are Book's CastClaimed and RenderClaimed.
	CastClaimed   time.Time `json:"cast_claimed,omitzero"`
	RenderClaimed time.Time `json:"render_claimed,omitzero"`
}

// Summary is a book in the listing.
type Summary struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Author  string `json:"author"`
	Created string `json:"created"`
	Status  string `json:"status" enum:"importing,ready,failed"`
	Error   string `json:"error,omitempty" doc:"why the import failed"`
}

func (s *Service) loadBook(ctx context.Context, id string) (Book, error) {
	it, err := s.table.Get(ctx, bookPK(id), metaSK)
	if errors.Is(err, store.ErrNotFound) {
		return Book{}, fmt.Errorf("%w: there is no book %q", ErrNotFound, id)
	}
	if err != nil {
		return Book{}, fmt.Errorf("book %s: %w", id, err)
	}
	var r bookRecord
	if err := json.Unmarshal(it.Data, &r); err != nil {
		return Book{}, fmt.Errorf("book %s: %w", id, err)
	}
	r.Book.TextKey, r.Book.RenderRun, r.Book.version = r.Text, r.Run, it.Version
	r.Book.CastClaimed, r.Book.RenderClaimed = r.CastClaimed, r.RenderClaimed
	if r.Book.Status == "" {
		r.Book.Status = StatusReady // stored before imports ran as jobs
	}
	return r.Book, nil
}

// bookItem is b as the META item of its next revision.
func bookItem(b Book) (store.Item, error) {
	data, err := json.Marshal(bookRecord{Book: b, Text: b.TextKey, Run: b.RenderRun, CastClaimed: b.CastClaimed, RenderClaimed: b.RenderClaimed})
	return store.Item{PK: bookPK(b.ID), SK: metaSK, Version: b.version, Data: data}, err
}

// segmentItems are the SEG# items of a book's segments.
type segmentItems struct {
	segs     []Segment
	versions []int64 // per item; 0 for one not stored
}

func (s *Service) loadSegments(ctx context.Context, id string) (segmentItems, error) {
	var out segmentItems
	q := store.Query{PK: bookPK(id), SKPrefix: segPrefix}
	for {
		page, err := s.table.Query(ctx, q)
		if err != nil {
			return out, fmt.Errorf("segments of %s: %w", id, err)
		}
		for _, it := range page.Items {
			var segs []Segment
			if err := json.Unmarshal(it.Data, &segs); err != nil {
				return out, fmt.Errorf("segments of %s (%s): %w", id, it.SK, err)
			}
			out.segs = append(out.segs, segs...)
			out.versions = append(out.versions, it.Version)
		}
		if page.Next == "" {
			return out, nil
		}
		q.Cursor = page.Next
	}
}

// segmentWrites are the writes that replace the stored segments (old) with
// segs: every item whose content changed, conditional on the version read,
// and the deletion of items no longer needed.
func segmentWrites(id string, old segmentItems, segs []Segment) ([]store.Write, error) {
	n := (len(segs) + SegmentsPerItem - 1) / SegmentsPerItem
	if n > MaxSegmentItems {
		return nil, fmt.Errorf("%w: %d segments, at most %d", ErrTooLarge, len(segs), MaxSegments)
	}
	var ws []store.Write
	for i := 0; i < n; i++ {
		part := segs[i*SegmentsPerItem : min(len(segs), (i+1)*SegmentsPerItem)]
		data, err := json.Marshal(part)
		if err != nil {
			return nil, err
		}
		cond, version := store.IfAbsent(), int64(1)
		if i < len(old.versions) {
			was := old.segs[i*SegmentsPerItem : min(len(old.segs), (i+1)*SegmentsPerItem)]
			if prev, _ := json.Marshal(was); string(prev) == string(data) {
				continue
			}
			cond, version = store.IfVersion(old.versions[i]), old.versions[i]+1
		}
		ws = append(ws, store.Write{Op: store.OpPut, Cond: cond, Item: store.Item{PK: bookPK(id), SK: segSK(i), Version: version, Data: data}})
	}
	for i := n; i < len(old.versions); i++ {
		ws = append(ws, store.Write{Op: store.OpDelete, Cond: store.IfVersion(old.versions[i]), Item: store.Item{PK: bookPK(id), SK: segSK(i)}})
	}
	return ws, nil
}

// saveSegments stores segs and b (counts recomputed, revision bumped) in
// one transaction, conditional on b's revision and the items' versions
// read: a change made meanwhile answers ErrConflict and nothing is written.
func (s *Service) saveSegments(ctx context.Context, b Book, old segmentItems, segs []Segment) (Book, error) {
	b, ws, err := s.segmentSave(b, old, segs)
	if err != nil {
		return b, err
	}
	if err := s.table.Transact(ctx, ws); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return b, fmt.Errorf("%w: book %s changed meanwhile (revision %d)", ErrConflict, b.ID, b.Revision-1)
		}
		return b, fmt.Errorf("save segments of %s: %w", b.ID, err)
	}
	return b, nil
}

// segmentSave is b at its next revision (counts recomputed) and the writes
// that store it with segs: the segment items changed and META, each
// conditional on the version read.
func (s *Service) segmentSave(b Book, old segmentItems, segs []Segment) (Book, []store.Write, error) {
	ws, err := segmentWrites(b.ID, old, segs)
	if err != nil {
		return b, nil, err
	}
	b = withCounts(b, segs)
	b.Updated = s.clock().UTC()
	prev := b.version
	b.Revision++
	b.version++
	meta, err := bookItem(b)
	if err != nil {
		return b, nil, err
	}
	return b, append(ws, store.Write{Op: store.OpPut, Cond: store.IfVersion(prev), Item: meta}), nil
}

// putBook writes b's META (another revision, conditional on b's).
func (s *Service) putBook(ctx context.Context, b Book) (Book, error) {
	prev := b.version
	b.version++
	b.Updated = s.clock().UTC()
	it, err := bookItem(b)
	if err != nil {
		return b, err
	}
	if err := s.table.Put(ctx, it, store.IfVersion(prev)); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return b, fmt.Errorf("%w: book %s changed meanwhile", ErrConflict, b.ID)
		}
		return b, fmt.Errorf("book %s: %w", b.ID, err)
	}
	return b, nil
}

// updateBook applies change to the current META, again on a conflict with
// another writer (a job's progress, an edit), a few times.
func (s *Service) updateBook(ctx context.Context, id string, change func(*Book) error) (Book, error) {
	var err error
	for try := 0; try < 8; try++ {
		var b Book
		if b, err = s.loadBook(ctx, id); err != nil {
			return b, err
		}
		if err = change(&b); err != nil {
			return b, err
		}
		if b, err = s.putBook(ctx, b); !errors.Is(err, ErrConflict) {
			return b, err
		}
	}
	return Book{}, err
}

// withCounts is b with its counts and each chapter's from segs.
func withCounts(b Book, segs []Segment) Book {
	b.Counts = count(segs)
	chapters := make([]Chapter, len(b.Chapters))
	copy(chapters, b.Chapters)
	byChapter := map[int][]Segment{}
	for _, sg := range segs {
		byChapter[sg.Chapter] = append(byChapter[sg.Chapter], sg)
	}
	first := 0
	for i := range chapters {
		cs := byChapter[chapters[i].Index]
		chapters[i].First, chapters[i].Counts = first, count(cs)
		first += len(cs)
	}
	b.Chapters = chapters
	return b
}

func (s *Service) loadCast(ctx context.Context, id string) ([]Character, error) {
	var out []Character
	q := store.Query{PK: bookPK(id), SKPrefix: charPrefix}
	for {
		page, err := s.table.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("cast of %s: %w", id, err)
		}
		for _, it := range page.Items {
			var c Character
			if err := json.Unmarshal(it.Data, &c); err != nil {
				return nil, fmt.Errorf("cast of %s (%s): %w", id, it.SK, err)
			}
			c.Version = it.Version
			out = append(out, c)
		}
		if page.Next == "" {
			return out, nil
		}
		q.Cursor = page.Next
	}
}

func charItem(book string, c Character) (store.Item, error) {
	data, err := json.Marshal(c)
	return store.Item{PK: bookPK(book), SK: charPrefix + c.ID, Version: c.Version, Data: data}, err
}

// readText reads a book's text.
func (s *Service) readText(ctx context.Context, b Book) (string, error) {
	rc, _, err := s.blobs.Get(ctx, b.TextKey)
	if errors.Is(err, blob.ErrNotFound) {
		return "", fmt.Errorf("book %s: its text %s is gone", b.ID, b.TextKey)
	}
	if err != nil {
		return "", fmt.Errorf("book %s: text: %w", b.ID, err)
	}
	defer rc.Close()
	var sb strings.Builder
	if _, err := io.Copy(&sb, io.LimitReader(rc, 8*MaxUploadBytes)); err != nil {
		return "", fmt.Errorf("book %s: text: %w", b.ID, err)
	}
	return sb.String(), nil
}

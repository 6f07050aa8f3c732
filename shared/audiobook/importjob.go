package audiobook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/audiobook/book"
	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/audiobook/spans"
	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/store"
)

// ImportJobKind is the background job that parses, splits and casts (by
// rules) an uploaded book: the largest book takes seconds, so it runs off
// the request like every long job.
const ImportJobKind = "audiobook.import"

// A book's import status.
const (
	StatusImporting = "importing"
	StatusReady     = "ready"
	StatusFailed    = "failed"
)

// importPayload is the import job's payload.
type importPayload struct {
	BookID string `json:"book_id"`
}

// ImportResult is the import job's result.
type ImportResult struct {
	BookID string `json:"book_id"`
	Counts Counts `json:"counts"`
}

func uploadKey(id string) string { return "audiobook/" + id + "/upload" }

// sniff judges an upload by what is cheap and certain: its size, its
// format, and for an EPUB its zip directory and package document (a bomb
// is refused here, before anything is unpacked). It says the format.
func sniff(filename string, data []byte) (string, error) {
	switch {
	case len(data) == 0:
		return "", fmt.Errorf("%w: %s is empty", ErrInvalid, filename)
	case len(data) > MaxUploadBytes:
		return "", fmt.Errorf("%w: %s has %d bytes, at most %d", ErrTooLarge, filename, len(data), MaxUploadBytes)
	}
	if isEPUB(filename, data) {
		if err := book.CheckEPUB(data); err != nil {
			return "", fmt.Errorf("%s: %w", filename, err)
		}
		return "epub", nil
	}
	if err := book.CheckText(data, filename); err != nil {
		return "", err
	}
	return "txt", nil
}

func isEPUB(filename string, data []byte) bool {
	return bytes.HasPrefix(data, []byte("PK\x03\x04")) || strings.EqualFold(path.Ext(filename), ".epub")
}

// parse reads an upload as EPUB (a zip) or text; its errors name the file
// (ParseText's do already).
func parse(filename string, data []byte) (book.Book, error) {
	if isEPUB(filename, data) {
		b, err := book.ParseEPUB(data)
		if err != nil {
			return b, fmt.Errorf("%s: %w", filename, err)
		}
		return b, nil
	}
	return book.ParseText(data, filename)
}

// StartImport checks an upload (see sniff: a file refused here stores
// nothing), stores it with its book in status importing and queues the
// import job, which makes the book ready or failed.
func (s *Service) StartImport(ctx context.Context, filename string, data []byte) (Book, jobs.Job, error) {
	b, err := s.create(ctx, filename, data)
	if err != nil {
		return Book{}, jobs.Job{}, err
	}
	payload, err := json.Marshal(importPayload{BookID: b.ID})
	if err != nil {
		return Book{}, jobs.Job{}, err
	}
	job, err := s.queue.Enqueue(ctx, ImportJobKind, payload)
	if err != nil {
		_ = s.remove(context.WithoutCancel(ctx), b.ID)
		return Book{}, jobs.Job{}, err
	}
	// The job may already have finished: record its id on what it left.
	b, err = s.updateBook(ctx, b.ID, func(b *Book) error {
		b.ImportJob = job.ID
		return nil
	})
	return b, job, err
}

// Import is StartImport with the import run in the caller (tests, tools):
// it answers the book ready, or the import's error with the book failed.
func (s *Service) Import(ctx context.Context, filename string, data []byte) (Book, error) {
	b, err := s.create(ctx, filename, data)
	if err != nil {
		return Book{}, err
	}
	if err := s.importBook(ctx, b.ID, nil); err != nil {
		return Book{}, err
	}
	return s.loadBook(ctx, b.ID)
}

// create stores an upload that passes sniff and its book, importing.
func (s *Service) create(ctx context.Context, filename string, data []byte) (Book, error) {
	format, err := sniff(filename, data)
	if err != nil {
		return Book{}, err
	}
	now := s.clock().UTC()
	b := Book{ID: jobs.NewID(), Title: strings.TrimSuffix(path.Base(filename), path.Ext(filename)), Filename: filename, Format: format,
		Mode: ModeSpan, Status: StatusImporting, Chapters: []Chapter{}, Created: now, Updated: now}
	b.TextKey = textKey(b.ID)
	if err := s.blobs.Put(ctx, uploadKey(b.ID), bytes.NewReader(data), "application/octet-stream"); err != nil {
		return Book{}, fmt.Errorf("store the upload %s: %w", filename, err)
	}
	b.version = 1
	meta, err := bookItem(b)
	if err != nil {
		return Book{}, err
	}
	entry, err := listingItem(b, 1)
	if err != nil {
		return Book{}, err
	}
	if err := s.table.Transact(ctx, []store.Write{
		{Op: store.OpPut, Cond: store.IfAbsent(), Item: meta},
		{Op: store.OpPut, Cond: store.IfAbsent(), Item: entry},
	}); err != nil {
		_, _ = s.blobs.DeletePrefix(context.WithoutCancel(ctx), "audiobook/"+b.ID+"/")
		return Book{}, fmt.Errorf("store book %s: %w", b.ID, err)
	}
	return b, nil
}

// listingItem is b's entry in the listing, at version.
func listingItem(b Book, version int64) (store.Item, error) {
	entry, err := json.Marshal(Summary{ID: b.ID, Title: b.Title, Author: b.Author, Created: b.Created.Format(time.RFC3339), Status: b.Status, Error: b.Error})
	return store.Item{PK: indexPK, SK: bookPrefix + b.ID, Version: version, Data: entry}, err
}

// ImportJob is the import job's handler. It is safe to run again (after a
// crash the local pool and SQS deliver it again): a book no longer
// importing is left as it is, and what a run stores before its last write
// is overwritten whole by the next.
func (s *Service) ImportJob(ctx context.Context, raw json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var p importPayload
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("%w: payload: %v", ErrInvalid, err)
	}
	if err := s.importBook(ctx, p.BookID, progress); err != nil {
		return nil, err
	}
	b, err := s.loadBook(ctx, p.BookID)
	if err != nil {
		return nil, err
	}
	return json.Marshal(ImportResult{BookID: b.ID, Counts: b.Counts})
}

// importBook parses, splits and casts an importing book's upload and
// stores it ready. A book the upload cannot make is marked failed with
// the reason, which is also returned; a failure of the stores is
// transient (the job runs again), and the book stays importing.
func (s *Service) importBook(ctx context.Context, id string, progress jobs.Reporter) error {
	step := func(fraction float64, message string) error {
		if progress == nil {
			return nil
		}
		return progress.Progress(ctx, fraction, message)
	}
	b, err := s.loadBook(ctx, id)
	if err != nil {
		return err // deleted meanwhile: nothing to import
	}
	if b.Status != StatusImporting {
		return nil
	}
	if err := step(0.1, "reading the book"); err != nil {
		return err
	}
	data, err := s.readUpload(ctx, id)
	if err != nil {
		return s.failImport(ctx, id, err)
	}
	bk, err := parse(b.Filename, data)
	if err != nil {
		return s.failImport(ctx, id, err)
	}
	if err := step(0.3, "splitting it into narration and dialogue"); err != nil {
		return err
	}
	sp := spans.SplitBook(bk)
	if len(sp) > MaxSegments {
		return s.failImport(ctx, id, fmt.Errorf("%w: %s has %d spans, at most %d", ErrTooLarge, b.Filename, len(sp), MaxSegments))
	}
	if err := step(0.5, "finding the cast and naming the speakers"); err != nil {
		return err
	}
	chars := cast.Extract(bk.Text, sp)
	if len(chars) > MaxCharacters {
		chars = chars[:MaxCharacters] // the most mentioned
	}
	segs := spanSegments(sp, cast.AttributeRules(bk.Text, sp, chars), nil)
	people := make([]Character, len(chars))
	for i, c := range chars {
		people[i] = Character{ID: c.ID, Name: c.Name, Aliases: c.Aliases, Gender: c.Gender, Mentions: c.Mentions, Narrator: c.Narrator}
	}
	narrator, assigned := s.voicesFor(ctx, people)
	if err := step(0.9, "storing the book"); err != nil {
		return err
	}
	if err := s.blobs.Put(ctx, b.TextKey, strings.NewReader(bk.Text), "text/plain; charset=utf-8"); err != nil {
		return jobs.Transient(fmt.Errorf("store the text of %s: %w", b.Filename, err))
	}
	if err := s.storeImported(ctx, id, bk, chars, narrator, assigned, segs); err != nil {
		if errors.Is(err, ErrNotFound) {
			// Deleted while it was imported: take away what this run wrote.
			_ = s.remove(context.WithoutCancel(ctx), id)
			return err
		}
		return jobs.Transient(err)
	}
	_ = s.blobs.Delete(context.WithoutCancel(ctx), uploadKey(id))
	return nil
}

func (s *Service) readUpload(ctx context.Context, id string) ([]byte, error) {
	rc, _, err := s.blobs.Get(ctx, uploadKey(id))
	if errors.Is(err, blob.ErrNotFound) {
		return nil, fmt.Errorf("%w: the upload of book %s is gone", ErrInvalid, id)
	}
	if err != nil {
		return nil, jobs.Transient(fmt.Errorf("read the upload of book %s: %w", id, err))
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, MaxUploadBytes+1))
}

// storeImported writes an imported book: its characters (with the voices
// assigned, by id), then its segments, META (ready, with the narrator's
// voice) and listing entry in one transaction, so the book turns ready
// whole or not at all.
func (s *Service) storeImported(ctx context.Context, id string, bk book.Book, chars []cast.Character, narrator string, assigned map[string]string, segs []Segment) error {
	var ws []store.Write
	for _, c := range chars {
		// Unconditional: a run after a crash writes the same cast again.
		it, err := charItem(id, Character{ID: c.ID, Name: c.Name, Aliases: c.Aliases, Gender: c.Gender, Mentions: c.Mentions, Narrator: c.Narrator,
			VoiceID: assigned[c.ID], VoiceAssigned: assigned[c.ID] != "", Version: 1})
		if err != nil {
			return err
		}
		ws = append(ws, store.Write{Op: store.OpPut, Item: it})
	}
	for len(ws) > 0 {
		n := min(len(ws), store.MaxTransactWrites)
		if err := s.table.Transact(ctx, ws[:n]); err != nil {
			return fmt.Errorf("store the cast of %s: %w", id, err)
		}
		ws = ws[n:]
	}
	for try := 0; try < 8; try++ {
		b, err := s.loadBook(ctx, id)
		if err != nil {
			return err
		}
		if b.Status != StatusImporting {
			return nil
		}
		if bk.Title != "" {
			b.Title = bk.Title
		}
		b.Author, b.Bytes, b.Status, b.Error, b.Chapters = bk.Author, len(bk.Text), StatusReady, "", nil
		if b.NarratorVoice == "" {
			b.NarratorVoice = narrator
		}
		for _, c := range bk.Chapters {
			b.Chapters = append(b.Chapters, Chapter{Index: c.Index, Title: c.Title, Start: c.Start, End: c.End})
		}
		b.Revision = 0 // the first revision of the segments is 1
		ws, err := s.readyWrites(b, segs)
		if err != nil {
			return err
		}
		if err = s.table.Transact(ctx, ws); !errors.Is(err, store.ErrConditionFailed) {
			if err != nil {
				return fmt.Errorf("store book %s: %w", id, err)
			}
			return nil
		}
	}
	return fmt.Errorf("%w: book %s keeps changing", ErrConflict, id)
}

// readyWrites store b ready with its first segments, META conditional on
// the version read, and its listing entry.
func (s *Service) readyWrites(b Book, segs []Segment) ([]store.Write, error) {
	b, ws, err := s.segmentSave(b, segmentItems{}, segs)
	if err != nil {
		return nil, err
	}
	entry, err := listingItem(b, b.version)
	if err != nil {
		return nil, err
	}
	return append(ws, store.Write{Op: store.OpPut, Item: entry}), nil
}

// failImport marks an importing book failed with cause and returns cause
// (a failed import is final: the user deletes the book or uploads again).
// A transient cause leaves the book importing for the job's next run.
func (s *Service) failImport(ctx context.Context, id string, cause error) error {
	if errors.Is(cause, jobs.ErrTransient) {
		return cause
	}
	if err := s.markFailed(context.WithoutCancel(ctx), id, failureReason(cause)); err != nil && !errors.Is(err, ErrNotFound) {
		return jobs.Transient(fmt.Errorf("%v; and marking book %s failed: %w", cause, id, err))
	}
	return cause
}

// unexpectedFailure is a failed book's reason when the cause is not the
// book's own fault: the detail stays on the job record and in the log.
const unexpectedFailure = "the import stopped on an unexpected error; delete the book and upload it again"

// failureReason is what a failed book says: the book's own fault (not a
// book, over a limit) in the words the upload check would use; anything
// else, which would only show the server's internals, as one sentence.
func failureReason(cause error) string {
	switch fault.KindOf(cause) {
	case fault.Invalid, fault.TooLarge:
		return cause.Error()
	}
	return unexpectedFailure
}

// crashedReason says why a book whose import the server died in is failed.
func crashedReason(times int) string {
	return fmt.Sprintf("the server stopped %d times while importing this book (killed, or out of memory), so it is not imported again; delete it", times)
}

// markFailed records a failed import on the book and its listing entry.
func (s *Service) markFailed(ctx context.Context, id, reason string) error {
	for try := 0; try < 8; try++ {
		b, err := s.loadBook(ctx, id)
		if err != nil {
			return err
		}
		if b.Status != StatusImporting {
			return nil
		}
		prev := b.version
		b.Status, b.Error, b.Updated, b.version = StatusFailed, reason, s.clock().UTC(), prev+1
		meta, err := bookItem(b)
		if err != nil {
			return err
		}
		entry, err := listingItem(b, b.version)
		if err != nil {
			return err
		}
		err = s.table.Transact(ctx, []store.Write{{Op: store.OpPut, Cond: store.IfVersion(prev), Item: meta}, {Op: store.OpPut, Item: entry}})
		if !errors.Is(err, store.ErrConditionFailed) {
			return err
		}
	}
	return fmt.Errorf("%w: book %s keeps changing", ErrConflict, id)
}

// settle makes a book that cannot finish importing failed: its job failed
// without the handler saying so (it gave up after attempts that killed
// the process, or panicked), its job is gone, or it was never queued (the
// process died between storing the book and queueing its job). A book is
// then never importing forever. Reads call it.
func (s *Service) settle(ctx context.Context, b Book) (Book, error) {
	if b.Status != StatusImporting {
		return b, nil
	}
	reason := ""
	if b.ImportJob == "" {
		if s.clock().Sub(b.Created) < claimTTL {
			return b, nil // being started
		}
		reason = "the import was never started (the server stopped); delete the book and upload it again"
	} else {
		j, err := s.queue.Get(ctx, b.ImportJob)
		switch {
		case errors.Is(err, jobs.ErrNotFound):
			reason = "the import job is gone; delete the book and upload it again"
		case err != nil:
			return b, err
		case j.Status == jobs.StatusFailed && j.Crashes > 0:
			reason = crashedReason(j.Crashes)
		case j.Status == jobs.StatusFailed:
			reason = unexpectedFailure
		case j.Status == jobs.StatusRunning && j.Attempts >= jobs.DefaultMaxAttempts && s.clock().After(j.LeaseUntil):
			// Every run died without a word (a Lambda killed or out of
			// memory): the queue delivers it no more.
			reason = crashedReason(j.Attempts)
		default:
			return b, nil
		}
	}
	if err := s.markFailed(ctx, b.ID, reason); err != nil {
		return b, err
	}
	return s.loadBook(ctx, b.ID)
}

// settleSummary is settle for a listing entry.
func (s *Service) settleSummary(ctx context.Context, sm Summary) (Summary, error) {
	b, err := s.loadBook(ctx, sm.ID)
	if errors.Is(err, ErrNotFound) {
		return sm, nil
	}
	if err != nil {
		return sm, err
	}
	if b, err = s.settle(ctx, b); err != nil {
		return sm, err
	}
	sm.Status, sm.Error = b.Status, b.Error
	return sm, nil
}

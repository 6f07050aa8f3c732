package issues

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/store"
)

// ErrUploadOpen: the issue's presigned upload URL is still valid, so its
// PDF may yet arrive and recreate it.
var ErrUploadOpen = fault.New(fault.Conflict, "the issue's upload URL is still valid; delete the issue once it expires (15 minutes after the upload was asked for)")

// Delete removes an issue: its blobs (renders, thumbnails, crops, the
// uploaded PDF), then the records of its partition (pages, steps, articles,
// backups, undo point), its record and list entry last, so a delete that
// is cut short leaves the issue listed and can be repeated. An issue being
// ingested is refused with ErrBusy.
func (s *Service) Delete(ctx context.Context, id string) error {
	is, _, err := s.Repo.Get(ctx, id)
	if err != nil {
		return err
	}
	switch {
	case is.Status == magazine.IssueProcessing:
		return ErrBusy
	case is.Status == magazine.IssueUploading && s.Clock().Before(is.Created.Add(MediaTTL)):
		return ErrUploadOpen
	}
	if _, err := s.Media.DeletePrefix(ctx, MediaPrefix(id)); err != nil {
		return fmt.Errorf("delete issue %s: %w", id, err)
	}
	if err := s.Uploads.Delete(ctx, SourceKey(id)); err != nil {
		return fmt.Errorf("delete issue %s: %w", id, err)
	}
	return s.Repo.Delete(ctx, id)
}

// CancelledStep is the step of an issue whose ingest the user cancelled.
const CancelledStep = "cancelled"

// Cancel stops an issue's ingest for good and marks it failed, keeping the
// pages read so far; it can then be deleted. The run is stopped before the
// issue is marked, so no step of it writes afterwards. An issue whose ingest
// has ended answers ErrNotIngesting; one whose upload URL is still valid,
// ErrUploadOpen (its PDF may yet arrive and start one).
func (s *Service) Cancel(ctx context.Context, id string) (magazine.Issue, error) {
	is, _, err := s.Repo.Get(ctx, id)
	if err != nil {
		return magazine.Issue{}, err
	}
	switch {
	case is.Status == magazine.IssueUploading && s.Clock().Before(is.Created.Add(MediaTTL)):
		return is, ErrUploadOpen
	case is.Status != magazine.IssueProcessing && is.Status != magazine.IssueUploading:
		return is, fmt.Errorf("%w: it is %s", ErrNotIngesting, is.Status)
	}
	if s.Stop != nil {
		if err := s.Stop(ctx, id, SourceKey(id)); err != nil {
			return is, fmt.Errorf("cancel issue %s: %w", id, err)
		}
	}
	return s.Repo.Update(ctx, id, func(is *magazine.Issue) error {
		if is.Status != magazine.IssueProcessing && is.Status != magazine.IssueUploading {
			return nil // it ended as it was stopped
		}
		is.Status = magazine.IssueFailed
		is.Step = CancelledStep
		is.Error = "the ingest was cancelled; the pages read before are kept"
		return nil
	})
}

// MediaPrefix is the folder of an issue's renders, thumbnails and crops.
func MediaPrefix(id string) string { return "issues/" + id + "/" }

// Delete removes every record of an issue: the partition's items in
// transactions, then the record and its list entry together, on the
// condition that the record did not change meanwhile.
func (r *Repo) Delete(ctx context.Context, id string) error {
	_, v, err := r.Get(ctx, id)
	if err != nil {
		return err
	}
	var batch []store.Write
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := r.table.Transact(ctx, batch)
		batch = batch[:0]
		return err
	}
	q := store.Query{PK: PK(id)}
	for {
		page, err := r.table.Query(ctx, q)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if it.SK == MetaSK {
				continue
			}
			batch = append(batch, store.Write{Op: store.OpDelete, Item: store.Item{PK: it.PK, SK: it.SK}})
			if len(batch) == store.MaxTransactWrites {
				if err := flush(); err != nil {
					return fmt.Errorf("delete issue %s: %w", id, err)
				}
			}
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	if err := flush(); err != nil {
		return fmt.Errorf("delete issue %s: %w", id, err)
	}
	err = r.table.Transact(ctx, []store.Write{
		{Op: store.OpDelete, Item: store.Item{PK: PK(id), SK: MetaSK}, Cond: store.IfVersion(v)},
		{Op: store.OpDelete, Item: store.Item{PK: indexPK, SK: id}},
	})
	if err != nil {
		return fmt.Errorf("delete issue %s: %w", id, err)
	}
	return nil
}

// Recovered is what Recover settled.
type Recovered struct {
	Resumed []string // issues whose ingest was queued again
	Failed  []string // issues marked failed, with the reason on each
	Orphans int      // uploaded PDFs removed for having no issue
}

// Recover settles what a process stopped mid-way (kill -9, a crash, a
// power cut) left behind. The local server runs it at start, before its job
// workers, while it alone holds the data; live says whether a queued or
// running ingest job exists for a PDF's key. An issue still uploading or
// processing with no live job is resumed when its ingest never began and
// its PDF is stored, and is otherwise marked failed with the reason: an
// ingest that stopped part-way is not run again blindly, since the page
// that stopped it may stop it again. gaveUp is why an ingest job was given
// up (the process died in it each time it ran), or "". An uploaded PDF
// without an issue is removed.
func (s *Service) Recover(ctx context.Context, live func(sourceKey string) bool, gaveUp func(sourceKey string) string) (Recovered, error) {
	var out Recovered
	list, err := s.Repo.List(ctx)
	if err != nil {
		return out, err
	}
	known := map[string]bool{}
	for _, is := range list {
		known[is.ID] = true
		if is.Status != magazine.IssueProcessing && is.Status != magazine.IssueUploading {
			continue
		}
		key := SourceKey(is.ID)
		if live(key) {
			continue
		}
		_, err := s.Uploads.Head(ctx, key)
		stored := err == nil
		if err != nil && !errors.Is(err, blob.ErrNotFound) {
			return out, err
		}
		if why := gaveUp(key); why != "" {
			if err := s.fail(ctx, is.ID, "the ingest was given up: "+why+"; the PDF may be too much for this server: delete the issue"); err != nil {
				return out, err
			}
			out.Failed = append(out.Failed, is.ID)
			continue
		}
		if stored && is.Step == "upload" && s.Start != nil {
			if err := s.Start(ctx, key, is.Title); err != nil {
				return out, fmt.Errorf("resume issue %s: %w", is.ID, err)
			}
			out.Resumed = append(out.Resumed, is.ID)
			continue
		}
		reason := fmt.Sprintf("ingest stopped at step %q when the server stopped, and nothing is left to finish it: delete the issue and upload the PDF again", is.Step)
		if !stored {
			reason = "the upload was cut short before the PDF was stored: upload it again"
		}
		if err := s.fail(ctx, is.ID, reason); err != nil {
			return out, err
		}
		out.Failed = append(out.Failed, is.ID)
	}
	uploads, err := s.Uploads.List(ctx, "uploads/")
	if err != nil {
		return out, err
	}
	for _, u := range uploads {
		id, ok := IDFromSourceKey(u.Key)
		if !ok || known[id] || live(u.Key) || !strings.HasSuffix(u.Key, ".pdf") {
			continue
		}
		if err := s.Uploads.Delete(ctx, u.Key); err != nil {
			return out, err
		}
		out.Orphans++
	}
	return out, nil
}

// fail marks a stopped issue failed with the reason.
func (s *Service) fail(ctx context.Context, id, reason string) error {
	_, err := s.Repo.Update(ctx, id, func(is *magazine.Issue) error {
		is.Status = magazine.IssueFailed
		is.Error = reason
		return nil
	})
	if err != nil {
		return fmt.Errorf("fail stopped issue %s: %w", id, err)
	}
	return nil
}

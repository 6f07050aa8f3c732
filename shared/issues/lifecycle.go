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
// that stopped it may stop it again. An uploaded PDF without an issue is
// removed.
func (s *Service) Recover(ctx context.Context, live func(sourceKey string) bool) (Recovered, error) {
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
		_, err = s.Repo.Update(ctx, is.ID, func(is *magazine.Issue) error {
			is.Status = magazine.IssueFailed
			is.Error = reason
			return nil
		})
		if err != nil {
			return out, fmt.Errorf("fail stopped issue %s: %w", is.ID, err)
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

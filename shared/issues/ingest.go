package issues

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/store"
)

// claimSK holds the name of the ingest execution that owns the issue.
const claimSK = "INGEST"

type ingestClaim struct {
	Execution string `json:"execution"`
}

// ErrClaimed: another ingest execution owns the issue (a second upload of
// the same PDF started a second one).
var ErrClaimed = errors.New("the issue is already being ingested by another execution")

// Claimable says whether an ingest may still claim the issue: it is
// uploading, or (local mode, which records uploads as processing) no
// ingest has begun on it yet.
func Claimable(is magazine.Issue) bool {
	return is.Status == magazine.IssueUploading || (is.Status == magazine.IssueProcessing && is.Step == "upload")
}

// ClaimIngest moves a claimable issue to processing for one execution, in
// one conditional write with the claim, so of two executions started for
// the same upload exactly one proceeds. The owner claiming again (a retry of
// its own Prepare) succeeds; anyone else gets ErrClaimed.
func (r *Repo) ClaimIngest(ctx context.Context, id, execution string) error {
	for range maxUpdateAttempts {
		is, v, err := r.Get(ctx, id)
		if err != nil {
			return err
		}
		if !Claimable(is) {
			owner, err := r.IngestOwner(ctx, id)
			if err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
			if owner == execution {
				return nil
			}
			return fmt.Errorf("%w: issue %s is %s (step %q), owned by execution %q", ErrClaimed, id, is.Status, is.Step, owner)
		}
		is.Status = magazine.IssueProcessing
		is.Step = "prepare"
		is.Updated = r.clock()
		meta, err := item(PK(id), MetaSK, v+1, is)
		if err != nil {
			return err
		}
		claim, err := item(PK(id), claimSK, 1, ingestClaim{Execution: execution})
		if err != nil {
			return err
		}
		err = r.table.Transact(ctx, []store.Write{
			{Op: store.OpPut, Item: meta, Cond: store.IfVersion(v)},
			{Op: store.OpPut, Item: claim},
		})
		if errors.Is(err, store.ErrConditionFailed) {
			continue
		}
		return err
	}
	return fmt.Errorf("issue %s kept changing: %w", id, store.ErrConditionFailed)
}

// IngestOwner is the execution that claimed the issue (ErrNotFound when
// none has).
func (r *Repo) IngestOwner(ctx context.Context, id string) (string, error) {
	var c ingestClaim
	if _, err := r.get(ctx, PK(id), claimSK, &c); err != nil {
		return "", err
	}
	return c.Execution, nil
}

func failureSK(n int) string { return fmt.Sprintf("FAILURE#%04d", n) }

// PutPageFailure records why a page stopped, where Finalize reads it: the
// state machine's state carries no page results (the 256 KB limit).
func (r *Repo) PutPageFailure(ctx context.Context, id string, f magazine.PageError) error {
	it, err := item(PK(id), failureSK(f.Page), 0, f)
	if err != nil {
		return err
	}
	return r.table.Put(ctx, it, store.Condition{})
}

// PageFailures returns the recorded page failures in page order.
func (r *Repo) PageFailures(ctx context.Context, id string) ([]magazine.PageError, error) {
	var out []magazine.PageError
	err := r.each(ctx, PK(id), "FAILURE#", func(data []byte) error {
		var f magazine.PageError
		if err := json.Unmarshal(data, &f); err != nil {
			return err
		}
		out = append(out, f)
		return nil
	})
	return out, err
}

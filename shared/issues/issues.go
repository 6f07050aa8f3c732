// Package issues keeps magazine issues and their pages: the issue record, one
// page record per page (regions, order, engine), a small step record per
// page for progress, and the renders and crops in the blob store. The ingest
// pipeline writes through it and the HTTP API reads through it.
package issues

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/store"
)

// Errors of this package.
var (
	// ErrNotFound: no such issue or page.
	ErrNotFound = fault.New(fault.NotFound, "not found")
	// ErrInvalid: a malformed id or page number.
	ErrInvalid = fault.New(fault.Invalid, "invalid")
)

// maxUpdateAttempts bounds optimistic retries when pages finish at once.
const maxUpdateAttempts = 20

var idPattern = regexp.MustCompile(`^[a-z0-9]{8,40}$`)

// NewID returns a fresh issue id: time-ordered, so listings come out newest
// first without an index.
func NewID(now time.Time) string {
	return fmt.Sprintf("%011x%s", now.UnixMilli(), strings.ToLower(rand.Text()[:10]))
}

// ValidateID refuses ids that could escape a key or a blob prefix.
func ValidateID(id string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("issue id %q: %w", id, ErrInvalid)
	}
	return nil
}

// Step is one page's place in the pipeline, kept apart from the page record
// so progress polling reads a few bytes per page.
type Step struct {
	Page   int       `json:"page"`
	Step   string    `json:"step"` // the last step finished, or "failed"
	Engine string    `json:"engine,omitempty"`
	Error  string    `json:"error,omitempty"`
	Done   bool      `json:"done"`
	At     time.Time `json:"at"`
}

// Blob keys.
func SourceKey(id string) string           { return "uploads/" + id + ".pdf" }
func RenderKey(id string, page int) string { return fmt.Sprintf("issues/%s/pages/%04d.png", id, page) }
func ThumbKey(id string, page int) string {
	return fmt.Sprintf("issues/%s/pages/%04d.thumb.png", id, page)
}

// CropKey is where a picture region's crop is kept. Crops cut by an edit
// carry the issue revision (rev > 0), so an undo that restores an older box
// also finds the crop cut for it; ingest's crops have none.
func CropKey(id string, page int, region string, rev int64) string {
	if rev > 0 {
		return fmt.Sprintf("issues/%s/crops/%04d/%s-r%d.png", id, page, region, rev)
	}
	return fmt.Sprintf("issues/%s/crops/%04d/%s.png", id, page, region)
}

// IDFromSourceKey reads the issue id back from an upload key.
func IDFromSourceKey(key string) (string, bool) {
	id, ok := strings.CutPrefix(key, "uploads/")
	if !ok {
		return "", false
	}
	id, ok = strings.CutSuffix(id, ".pdf")
	return id, ok && ValidateID(id) == nil
}

// Repo stores issues in a table.
type Repo struct {
	table store.Table
	clock func() time.Time
}

// NewRepo returns a Repo over table.
func NewRepo(table store.Table, clock func() time.Time) *Repo {
	return &Repo{table: table, clock: clock}
}

// The records of one issue share its partition (DESIGN.md, Records). This
// is the one place their keys are spelled; the review service uses them too.
func PK(id string) string        { return "ISSUE#" + id }
func PageSK(n int) string        { return fmt.Sprintf("PAGE#%04d", n) }
func stepSK(n int) string        { return fmt.Sprintf("STEP#%04d", n) }
func ArticleSK(id string) string { return ArticlePrefix + id }
func BackupSK(n int) string      { return fmt.Sprintf("BACKUP#%04d", n) }

// Fixed sort keys of an issue's partition.
const (
	MetaSK        = "META"
	UndoSK        = "UNDO"
	ArticlePrefix = "ARTICLE#"
)

const indexPK = "ISSUES" // one item per issue, so listing is one query

// Create stores a new issue; it fails if the id exists.
func (r *Repo) Create(ctx context.Context, is magazine.Issue) error {
	if err := ValidateID(is.ID); err != nil {
		return err
	}
	now := r.clock()
	is.Created, is.Updated = now, now
	meta, err := item(PK(is.ID), MetaSK, 1, is)
	if err != nil {
		return err
	}
	index, err := item(indexPK, is.ID, 1, struct{}{})
	if err != nil {
		return err
	}
	return r.table.Transact(ctx, []store.Write{
		{Op: store.OpPut, Item: meta, Cond: store.IfAbsent()},
		{Op: store.OpPut, Item: index, Cond: store.IfAbsent()},
	})
}

// Get returns an issue with its version.
func (r *Repo) Get(ctx context.Context, id string) (magazine.Issue, int64, error) {
	if err := ValidateID(id); err != nil {
		return magazine.Issue{}, 0, err
	}
	var is magazine.Issue
	v, err := r.get(ctx, PK(id), MetaSK, &is)
	if err != nil {
		return magazine.Issue{}, 0, fmt.Errorf("issue %s: %w", id, err)
	}
	return is, v, nil
}

// Update applies change to the issue with a conditional write, retrying on
// conflicts; change may be called more than once.
func (r *Repo) Update(ctx context.Context, id string, change func(*magazine.Issue) error) (magazine.Issue, error) {
	for range maxUpdateAttempts {
		is, v, err := r.Get(ctx, id)
		if err != nil {
			return magazine.Issue{}, err
		}
		if err := change(&is); err != nil {
			return magazine.Issue{}, err
		}
		is.Updated = r.clock()
		it, err := item(PK(id), MetaSK, v+1, is)
		if err != nil {
			return magazine.Issue{}, err
		}
		err = r.table.Put(ctx, it, store.IfVersion(v))
		if errors.Is(err, store.ErrConditionFailed) {
			continue
		}
		return is, err
	}
	return magazine.Issue{}, fmt.Errorf("issue %s kept changing: %w", id, store.ErrConditionFailed)
}

// List returns issues, newest first.
func (r *Repo) List(ctx context.Context) ([]magazine.Issue, error) {
	var out []magazine.Issue
	q := store.Query{PK: indexPK, Descending: true}
	for {
		page, err := r.table.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			is, _, err := r.Get(ctx, it.SK)
			if errors.Is(err, ErrNotFound) {
				continue // index written, issue gone: never shown
			}
			if err != nil {
				return nil, err
			}
			out = append(out, is)
		}
		if page.Next == "" {
			return out, nil
		}
		q.Cursor = page.Next
	}
}

// PutPage writes a page unconditionally, bumping its version: the pipeline
// owns pages while the issue is processing. Review's edits go through
// conditional writes instead (shared/review).
func (r *Repo) PutPage(ctx context.Context, p magazine.Page) error {
	p.Updated = r.clock()
	var old magazine.Page
	v, err := r.get(ctx, PK(p.IssueID), PageSK(p.Number), &old)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	it, err := item(PK(p.IssueID), PageSK(p.Number), v+1, p)
	if err != nil {
		return err
	}
	return r.table.Put(ctx, it, store.Condition{})
}

// Page returns one page with its version.
func (r *Repo) Page(ctx context.Context, id string, n int) (magazine.Page, int64, error) {
	if err := ValidateID(id); err != nil {
		return magazine.Page{}, 0, err
	}
	if n < 1 {
		return magazine.Page{}, 0, fmt.Errorf("page %d: %w", n, ErrInvalid)
	}
	var p magazine.Page
	v, err := r.get(ctx, PK(id), PageSK(n), &p)
	if err != nil {
		return magazine.Page{}, 0, fmt.Errorf("issue %s page %d: %w", id, n, err)
	}
	return p, v, nil
}

// PageJSON returns a page's stored JSON as it is, with its version, for
// readers that pass it on without decoding it.
func (r *Repo) PageJSON(ctx context.Context, id string, n int) ([]byte, int64, error) {
	if err := ValidateID(id); err != nil {
		return nil, 0, err
	}
	it, err := r.table.Get(ctx, PK(id), PageSK(n))
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, fmt.Errorf("issue %s page %d: %w", id, n, ErrNotFound)
	}
	if err != nil {
		return nil, 0, err
	}
	return it.Data, it.Version, nil
}

// Pages returns every page of an issue in page order.
func (r *Repo) Pages(ctx context.Context, id string) ([]magazine.Page, error) {
	var out []magazine.Page
	err := r.each(ctx, PK(id), "PAGE#", func(data []byte) error {
		var p magazine.Page
		if err := json.Unmarshal(data, &p); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// SetStep records a page's progress.
func (r *Repo) SetStep(ctx context.Context, id string, s Step) error {
	s.At = r.clock()
	it, err := item(PK(id), stepSK(s.Page), 0, s)
	if err != nil {
		return err
	}
	return r.table.Put(ctx, it, store.Condition{})
}

// Steps returns every page's progress in page order.
func (r *Repo) Steps(ctx context.Context, id string) ([]Step, error) {
	var out []Step
	err := r.each(ctx, PK(id), "STEP#", func(data []byte) error {
		var s Step
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

func (r *Repo) each(ctx context.Context, pk, prefix string, fn func([]byte) error) error {
	q := store.Query{PK: pk, SKPrefix: prefix}
	for {
		page, err := r.table.Query(ctx, q)
		if err != nil {
			return err
		}
		for _, it := range page.Items {
			if err := fn(it.Data); err != nil {
				return fmt.Errorf("decode %s/%s: %w", it.PK, it.SK, err)
			}
		}
		if page.Next == "" {
			return nil
		}
		q.Cursor = page.Next
	}
}

func (r *Repo) get(ctx context.Context, pk, sk string, into any) (int64, error) {
	it, err := r.table.Get(ctx, pk, sk)
	if errors.Is(err, store.ErrNotFound) {
		return 0, ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	if err := json.Unmarshal(it.Data, into); err != nil {
		return 0, fmt.Errorf("decode %s/%s: %w", pk, sk, err)
	}
	return it.Version, nil
}

func item(pk, sk string, version int64, v any) (store.Item, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return store.Item{}, fmt.Errorf("encode %s/%s: %w", pk, sk, err)
	}
	return store.Item{PK: pk, SK: sk, Version: version, Data: data}, nil
}

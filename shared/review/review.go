// Package review owns the editing of an ingested issue: region operations,
// reading order by hand, cleanup on demand, articles and approval, with one
// level of undo. Every change is one transaction of conditional writes over
// the page(s), the articles it touches, the issue's revision and the undo
// point, so concurrent edits never lose each other's work.
package review

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/store"
)

// Errors of this package, each of a fault kind.
var (
	// ErrConflict: the page changed since the client read it, or the undo
	// token is stale because something else changed since.
	ErrConflict = fault.New(fault.Conflict, "conflict")
	// ErrNothingToUndo: no undo point is stored (already undone or cleared).
	ErrNothingToUndo = fault.New(fault.Conflict, "nothing to undo")
	// ErrBadToken: the undo token was not issued by this server for this issue.
	ErrBadToken = fault.New(fault.Invalid, "invalid undo token")
	// ErrNotFound: no such issue, page, region or article.
	ErrNotFound = fault.New(fault.NotFound, "not found")
	// ErrInvalid: the request cannot apply (bad box, offset, kind, ids).
	ErrInvalid = fault.New(fault.Invalid, "invalid edit")
	// ErrBadView: a view of a page that cannot be drawn (off the page, or
	// over the DPI or pixel limits).
	ErrBadView = fault.New(fault.Invalid, "view not drawn")
)

// maxAttempts bounds optimistic retries of a change made without If-Match;
// retries back off with jitter so many writers to one issue take turns.
const maxAttempts = 40

// Service edits issues in a table.
type Service struct {
	table store.Table
	clock func() time.Time
	// locks serialise this process's changes to one issue, so concurrent
	// edits queue instead of retrying against each other; the conditional
	// writes still guard against other processes (other Lambdas).
	locks sync.Map // issue id → *sync.Mutex
}

// New returns a Service over table.
func New(table store.Table, clock func() time.Time) *Service {
	return &Service{table: table, clock: clock}
}

func (s *Service) lock(issueID string) func() {
	m, _ := s.locks.LoadOrStore(issueID, &sync.Mutex{})
	mu := m.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock
}

// backoff waits a random time that grows with the attempt (at most ~0.5 s).
func backoff(ctx context.Context, attempt int) error {
	limit := time.Duration(min(1<<attempt, 64)) * 8 * time.Millisecond
	n, _ := rand.Int(rand.Reader, big.NewInt(int64(limit)))
	t := time.NewTimer(time.Duration(n.Int64()))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// item is one record as read, with its bytes kept for undo.
type item struct {
	key     store.Key
	version int64 // 0: absent
	before  []byte
	after   []byte // nil with deleted
	deleted bool
	changed bool
}

// state is what one change reads and writes.
type state struct {
	s        *Service
	ctx      context.Context
	issueID  string
	issue    magazine.Issue
	meta     *item
	pages    map[int]*item
	articles map[string]*item // loaded all at once
	pageData map[int]*magazine.Page
	artData  map[string]*magazine.Article
	loadedAr bool
	backups  map[int]*item
	backData map[int]*magazine.Page
	// ifMatch is the page versions the client edited: a page read at any
	// other version refuses the change before any work is done on it.
	ifMatch map[int]int64
	// approving is the article this change approves: the one article whose
	// approval it does not withdraw.
	approving string
}

func newState(s *Service, ctx context.Context, issueID string) *state {
	return &state{s: s, ctx: ctx, issueID: issueID, pages: map[int]*item{}, articles: map[string]*item{},
		pageData: map[int]*magazine.Page{}, artData: map[string]*magazine.Article{},
		backups: map[int]*item{}, backData: map[int]*magazine.Page{}}
}

// Backup returns the page's layout backup (a zero Page when none).
func (st *state) Backup(n int) (magazine.Page, error) {
	if p, ok := st.backData[n]; ok {
		return *p, nil
	}
	it, err := st.get(store.Key{PK: issues.PK(st.issueID), SK: issues.BackupSK(n)})
	if err != nil {
		return magazine.Page{}, err
	}
	var p magazine.Page
	if it.version > 0 {
		if err := json.Unmarshal(it.before, &p); err != nil {
			return magazine.Page{}, err
		}
	}
	st.backups[n] = it
	st.backData[n] = &p
	return p, nil
}

// PutBackup records a page's layout backup.
func (st *state) PutBackup(p magazine.Page) error {
	if _, err := st.Backup(p.Number); err != nil {
		return err
	}
	st.backData[p.Number] = &p
	st.backups[p.Number].changed = true
	return nil
}

func (st *state) get(key store.Key) (*item, error) {
	it, err := st.s.table.Get(st.ctx, key.PK, key.SK)
	if errors.Is(err, store.ErrNotFound) {
		return &item{key: key}, nil
	}
	if err != nil {
		return nil, err
	}
	return &item{key: key, version: it.Version, before: it.Data}, nil
}

// Page returns the page for editing; PutPage stores the edit.
func (st *state) Page(n int) (magazine.Page, int64, error) {
	if p, ok := st.pageData[n]; ok {
		return *p, st.pages[n].version, nil
	}
	it, err := st.get(store.Key{PK: issues.PK(st.issueID), SK: issues.PageSK(n)})
	if err != nil {
		return magazine.Page{}, 0, err
	}
	if it.version == 0 {
		return magazine.Page{}, 0, fmt.Errorf("issue %s page %d: %w", st.issueID, n, ErrNotFound)
	}
	if v, ok := st.ifMatch[n]; ok && it.version != v {
		return magazine.Page{}, 0, staleError(n, it.version, v)
	}
	var p magazine.Page
	if err := json.Unmarshal(it.before, &p); err != nil {
		return magazine.Page{}, 0, err
	}
	st.pages[n] = it
	st.pageData[n] = &p
	return p, it.version, nil
}

// staleError says the page changed since the client read it.
func staleError(n int, stored, edited int64) error {
	return fmt.Errorf("page %d changed since it was shown (it is at version %d, the edit was made on %d); reload the page: %w", n, stored, edited, ErrConflict)
}

// PutPage records a page edit.
func (st *state) PutPage(p magazine.Page) {
	p.Updated = st.s.clock()
	st.pageData[p.Number] = &p
	st.pages[p.Number].changed = true
}

// Articles returns every article of the issue, by id.
func (st *state) Articles() ([]magazine.Article, error) {
	if !st.loadedAr {
		page, err := st.s.table.Query(st.ctx, store.Query{PK: issues.PK(st.issueID), SKPrefix: issues.ArticlePrefix})
		if err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			var a magazine.Article
			if err := json.Unmarshal(it.Data, &a); err != nil {
				return nil, err
			}
			st.articles[a.ID] = &item{key: it.Key(), version: it.Version, before: it.Data}
			st.artData[a.ID] = &a
		}
		st.loadedAr = true
	}
	ids := make([]string, 0, len(st.artData))
	for id := range st.artData {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	out := make([]magazine.Article, 0, len(ids))
	for _, id := range ids {
		out = append(out, *st.artData[id])
	}
	return out, nil
}

// PutArticle records an article write (new or changed).
func (st *state) PutArticle(a magazine.Article) {
	// Lists are always lists in JSON, never null.
	if a.Regions == nil {
		a.Regions = []magazine.RegionRef{}
	}
	if a.Images == nil {
		a.Images = []magazine.RegionRef{}
	}
	if _, ok := st.articles[a.ID]; !ok {
		st.articles[a.ID] = &item{key: store.Key{PK: issues.PK(st.issueID), SK: issues.ArticleSK(a.ID)}}
	}
	st.artData[a.ID] = &a
	st.articles[a.ID].changed = true
	st.articles[a.ID].deleted = false
}

// DeleteArticle records an article's removal.
func (st *state) DeleteArticle(id string) {
	if it, ok := st.articles[id]; ok {
		it.changed, it.deleted = true, true
		delete(st.artData, id)
	}
}

// FollowMembership updates every article after a page edit changed which
// regions exist.
func (st *state) FollowMembership(page int, m magazine.Membership) error {
	arts, err := st.Articles()
	if err != nil {
		return err
	}
	for i, a := range m.Follow(page, arts) {
		if !slices.Equal(a.Regions, arts[i].Regions) || !slices.Equal(a.Images, arts[i].Images) {
			st.PutArticle(a)
		}
	}
	return nil
}

// followApproval withdraws the approval of every approved article the
// change touched (magazine.FollowApproval), before it is written.
func (st *state) followApproval() error {
	changed := map[magazine.RegionRef]bool{}
	for n, it := range st.pages {
		if !it.changed {
			continue
		}
		var before magazine.Page
		if err := json.Unmarshal(it.before, &before); err != nil {
			return err
		}
		for _, id := range magazine.ChangedRegions(before, *st.pageData[n]) {
			changed[magazine.RegionRef{Page: n, Region: id}] = true
		}
	}
	edited := slices.ContainsFunc(slices.Collect(maps.Values(st.articles)), func(it *item) bool { return it.changed })
	if len(changed) == 0 && !edited {
		return nil
	}
	arts, err := st.Articles()
	if err != nil {
		return err
	}
	for _, a := range arts {
		it := st.articles[a.ID]
		if a.ID == st.approving || it.before == nil {
			continue
		}
		var before magazine.Article
		if err := json.Unmarshal(it.before, &before); err != nil {
			return err
		}
		if next, ok := magazine.FollowApproval(before, a, func(r magazine.RegionRef) bool { return changed[r] }); ok {
			st.PutArticle(next)
		}
	}
	return nil
}

// Options of one change.
type Options struct {
	// Undoable stores an undo point and returns a token; otherwise the stored
	// undo point is cleared.
	Undoable bool
	// IfMatch, when set, is the page version the client edited; a different
	// stored version answers ErrConflict instead of retrying.
	IfMatch map[int]int64
	// Ingesting lets the change write an issue still being ingested (the
	// proposals Finalize stores before it marks the issue ready).
	Ingesting bool
}

// Outcome is what a change reports besides its own result.
type Outcome struct {
	UndoToken   string `json:"undo_token,omitempty"`
	UndoCleared bool   `json:"undo_cleared,omitempty" doc:"true when this change cleared the stored undo point (the Undo button goes away)"`
	Revision    int64  `json:"revision"`
}

// Change runs fn over a fresh read of the issue and writes what it changed
// in one transaction; a concurrent write makes it read and apply again
// (or answer ErrConflict under IfMatch).
func (s *Service) Change(ctx context.Context, issueID string, opts Options, fn func(st *state) error) (Outcome, error) {
	defer s.lock(issueID)()
	for attempt := range maxAttempts {
		if attempt > 0 {
			if err := backoff(ctx, attempt); err != nil {
				return Outcome{}, err
			}
		}
		st := newState(s, ctx, issueID)
		meta, err := st.get(store.Key{PK: issues.PK(issueID), SK: issues.MetaSK})
		if err != nil {
			return Outcome{}, err
		}
		if meta.version == 0 {
			return Outcome{}, fmt.Errorf("issue %s: %w", issueID, ErrNotFound)
		}
		if err := json.Unmarshal(meta.before, &st.issue); err != nil {
			return Outcome{}, err
		}
		st.meta = meta
		st.ifMatch = opts.IfMatch
		if !opts.Ingesting && (st.issue.Status == magazine.IssueProcessing || st.issue.Status == magazine.IssueUploading) {
			return Outcome{}, fmt.Errorf("issue %s is still being ingested: %w", issueID, ErrConflict)
		}
		if err := fn(st); err != nil {
			return Outcome{}, err
		}
		out, err := s.commit(st, opts.Undoable)
		var tx *store.TxConditionError
		if errors.As(err, &tx) {
			if opts.IfMatch != nil && strings.HasPrefix(tx.Key.SK, "PAGE#") {
				return Outcome{}, fmt.Errorf("the page changed while this edit was saved; reload the page: %w", ErrConflict)
			}
			continue
		}
		return out, err
	}
	return Outcome{}, fmt.Errorf("issue %s kept changing: %w", issueID, ErrConflict)
}

// undoPoint is the stored undo record.
type undoPoint struct {
	Revision int64        `json:"revision"`
	Digest   string       `json:"digest"`
	Items    []undoRecord `json:"items"`
}

type undoRecord struct {
	PK           string `json:"pk"`
	SK           string `json:"sk"`
	Before       []byte `json:"before,omitempty"` // nil: the item did not exist
	VersionAfter int64  `json:"version_after"`    // 0: the change deleted it
}

func (s *Service) commit(st *state, undoable bool) (Outcome, error) {
	if err := st.followApproval(); err != nil {
		return Outcome{}, err
	}
	var writes []store.Write
	var records []undoRecord
	var changed []*item
	for n, it := range st.pages {
		if !it.changed {
			continue
		}
		data, err := json.Marshal(st.pageData[n])
		if err != nil {
			return Outcome{}, err
		}
		it.after = data
		changed = append(changed, it)
	}
	for n, it := range st.backups {
		if !it.changed {
			continue
		}
		data, err := json.Marshal(st.backData[n])
		if err != nil {
			return Outcome{}, err
		}
		it.after = data
		changed = append(changed, it)
	}
	for id, it := range st.articles {
		if !it.changed {
			continue
		}
		if !it.deleted {
			data, err := json.Marshal(st.artData[id])
			if err != nil {
				return Outcome{}, err
			}
			it.after = data
		}
		changed = append(changed, it)
	}
	sort.Slice(changed, func(i, j int) bool { return changed[i].key.SK < changed[j].key.SK })
	for _, it := range changed {
		cond := store.IfVersion(it.version)
		if it.version == 0 {
			cond = store.IfAbsent()
		}
		rec := undoRecord{PK: it.key.PK, SK: it.key.SK, Before: it.before}
		if it.deleted {
			writes = append(writes, store.Write{Op: store.OpDelete, Item: store.Item{PK: it.key.PK, SK: it.key.SK}, Cond: cond})
		} else {
			writes = append(writes, store.Write{Op: store.OpPut, Item: store.Item{PK: it.key.PK, SK: it.key.SK, Version: it.version + 1, Data: it.after}, Cond: cond})
			rec.VersionAfter = it.version + 1
		}
		records = append(records, rec)
	}
	st.issue.Revision++
	st.issue.Updated = s.clock()
	meta, err := json.Marshal(st.issue)
	if err != nil {
		return Outcome{}, err
	}
	writes = append(writes, store.Write{Op: store.OpPut, Item: store.Item{PK: issues.PK(st.issueID), SK: issues.MetaSK, Version: st.meta.version + 1, Data: meta}, Cond: store.IfVersion(st.meta.version)})
	out := Outcome{Revision: st.issue.Revision}
	undoKey := store.Item{PK: issues.PK(st.issueID), SK: issues.UndoSK}
	if undoable && len(records) > 0 {
		digest := digestOf(changed)
		point, err := json.Marshal(undoPoint{Revision: st.issue.Revision, Digest: digest, Items: records})
		if err != nil {
			return Outcome{}, err
		}
		undoKey.Data, undoKey.Version = point, 1
		writes = append(writes, store.Write{Op: store.OpPut, Item: undoKey})
		secret, err := s.secret(st.ctx)
		if err != nil {
			return Outcome{}, err
		}
		out.UndoToken = seal(secret, st.issueID, st.issue.Revision, digest)
	} else {
		writes = append(writes, store.Write{Op: store.OpDelete, Item: undoKey})
		out.UndoCleared = true
	}
	if err := store.ValidateWrites(writes); err != nil {
		return Outcome{}, fmt.Errorf("the change touches too many records: %w", ErrInvalid)
	}
	if err := s.table.Transact(st.ctx, writes); err != nil {
		return Outcome{}, err
	}
	return out, nil
}

// digestOf hashes the saved state of the changed records.
func digestOf(items []*item) string {
	h := sha256.New()
	for _, it := range items {
		fmt.Fprintf(h, "%s/%s\n%d\n", it.key.PK, it.key.SK, len(it.after))
		h.Write(it.after)
	}
	return hex.EncodeToString(h.Sum(nil))
}

type token struct {
	Issue    string `json:"i"`
	Revision int64  `json:"r"`
	MAC      string `json:"m"`
}

func mac(secret []byte, issue string, revision int64, digest string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(issue + "|" + strconv.FormatInt(revision, 10) + "|" + digest))
	return hex.EncodeToString(m.Sum(nil))
}

// seal makes an undo token: the issue, the revision the change created and
// an HMAC over them and the digest of the saved state.
func seal(secret []byte, issue string, revision int64, digest string) string {
	b, _ := json.Marshal(token{Issue: issue, Revision: revision, MAC: mac(secret, issue, revision, digest)})
	return base64.RawURLEncoding.EncodeToString(b)
}

func parseToken(s string) (token, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) > 512 {
		return token{}, ErrBadToken
	}
	var t token
	if err := json.Unmarshal(b, &t); err != nil || t.Issue == "" || t.MAC == "" {
		return token{}, ErrBadToken
	}
	return t, nil
}

// secret is the server's undo-sealing key, made once and kept in the table
// (never in a response).
func (s *Service) secret(ctx context.Context) ([]byte, error) {
	it, err := s.table.Get(ctx, "SECRET", "UNDO")
	if err == nil {
		return it.Data, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	err = s.table.Put(ctx, store.Item{PK: "SECRET", SK: "UNDO", Version: 1, Data: key}, store.IfAbsent())
	if errors.Is(err, store.ErrConditionFailed) {
		return s.secret(ctx)
	}
	return key, err
}

// Undo restores the state before the change that issued tok, only if
// nothing else has changed since.
func (s *Service) Undo(ctx context.Context, issueID, tok string) (Outcome, error) {
	defer s.lock(issueID)()
	t, err := parseToken(tok)
	if err != nil || t.Issue != issueID {
		return Outcome{}, fmt.Errorf("token for another issue or malformed: %w", ErrBadToken)
	}
	secret, err := s.secret(ctx)
	if err != nil {
		return Outcome{}, err
	}
	it, err := s.table.Get(ctx, issues.PK(issueID), issues.UndoSK)
	if errors.Is(err, store.ErrNotFound) {
		return Outcome{}, fmt.Errorf("there is no change to undo (it was undone, or a later change cleared it): %w", ErrNothingToUndo)
	}
	if err != nil {
		return Outcome{}, err
	}
	var point undoPoint
	if err := json.Unmarshal(it.Data, &point); err != nil {
		return Outcome{}, err
	}
	if !hmac.Equal([]byte(mac(secret, issueID, t.Revision, point.Digest)), []byte(t.MAC)) {
		if t.Revision != point.Revision {
			return Outcome{}, fmt.Errorf("this token belongs to an earlier change; only the last change can be undone: %w", ErrConflict)
		}
		return Outcome{}, fmt.Errorf("the token does not match the saved change: %w", ErrBadToken)
	}
	metaItem, err := s.table.Get(ctx, issues.PK(issueID), issues.MetaSK)
	if err != nil {
		return Outcome{}, err
	}
	var is magazine.Issue
	if err := json.Unmarshal(metaItem.Data, &is); err != nil {
		return Outcome{}, err
	}
	if is.Revision != t.Revision {
		return Outcome{}, fmt.Errorf("something else changed the issue since (revision %d, the change made %d): %w", is.Revision, t.Revision, ErrConflict)
	}
	var writes []store.Write
	for _, r := range point.Items {
		cond := store.IfVersion(r.VersionAfter)
		if r.VersionAfter == 0 {
			cond = store.IfAbsent()
		}
		switch {
		case r.Before == nil:
			writes = append(writes, store.Write{Op: store.OpDelete, Item: store.Item{PK: r.PK, SK: r.SK}, Cond: cond})
		default:
			writes = append(writes, store.Write{Op: store.OpPut, Item: store.Item{PK: r.PK, SK: r.SK, Version: r.VersionAfter + 1, Data: r.Before}, Cond: cond})
		}
	}
	is.Revision++
	is.Updated = s.clock()
	meta, err := json.Marshal(is)
	if err != nil {
		return Outcome{}, err
	}
	writes = append(writes,
		store.Write{Op: store.OpPut, Item: store.Item{PK: issues.PK(issueID), SK: issues.MetaSK, Version: metaItem.Version + 1, Data: meta}, Cond: store.IfVersion(metaItem.Version)},
		store.Write{Op: store.OpDelete, Item: store.Item{PK: issues.PK(issueID), SK: issues.UndoSK}, Cond: store.IfVersion(it.Version)},
	)
	if err := s.table.Transact(ctx, writes); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return Outcome{}, fmt.Errorf("something else changed while undoing: %w", ErrConflict)
		}
		return Outcome{}, err
	}
	return Outcome{Revision: is.Revision, UndoCleared: true}, nil
}

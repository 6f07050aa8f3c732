// Package tablevoices keeps the voice library in a store.Table: in AWS the
// voice table template.yaml shares between instances (DynamoDB), one item
// per voice under PK "VOICE" (DESIGN.md's layout). Search reads the whole
// partition and runs voices.Search over it; a revision item that every write
// changes right after its voice lets a warm process reuse what it read while
// nothing changed, at the cost of one strongly consistent read. (Not in one
// transaction with the voice: concurrent transactions on the revision item
// would cancel each other, and a plain put never conflicts.)
package tablevoices

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/voices"
)

const (
	pk = "VOICE"
	// revPK/revSK hold the library's revision: a fresh random token on
	// every write, outside the voices' partition so queries never see it.
	revPK, revSK = "VOICE#REV", "REV"
)

// Store is the voice library over a table.
type Store struct {
	table store.Table

	mu     sync.Mutex
	rev    string // revision the cache was read at; "" when none
	cached *voices.Library
}

var _ voices.Store = (*Store)(nil)

// New keeps the library in table.
func New(table store.Table) *Store { return &Store{table: table} }

// Get returns one voice.
func (s *Store) Get(ctx context.Context, id string) (voices.Voice, error) {
	it, err := s.table.Get(ctx, pk, id)
	if errors.Is(err, store.ErrNotFound) {
		return voices.Voice{}, fmt.Errorf("%w: %s", voices.ErrNotFound, id)
	}
	if err != nil {
		return voices.Voice{}, fmt.Errorf("get voice %s: %w", id, err)
	}
	return decode(it)
}

// Create adds v at version 1.
func (s *Store) Create(ctx context.Context, v voices.Voice) (voices.Voice, error) {
	v.Version = 1
	err := s.write(ctx, v, store.IfAbsent())
	if errors.Is(err, store.ErrConditionFailed) {
		return voices.Voice{}, fmt.Errorf("%w: %s", voices.ErrExists, v.ID)
	}
	return v, err
}

// Update replaces the voice at v.Version.
func (s *Store) Update(ctx context.Context, v voices.Voice) (voices.Voice, error) {
	old := v.Version
	v.Version++
	if err := s.write(ctx, v, store.IfVersion(old)); err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return voices.Voice{}, s.why(ctx, v.ID, old)
		}
		return voices.Voice{}, err
	}
	return v, nil
}

// Delete removes the voice at version (any when 0).
func (s *Store) Delete(ctx context.Context, id string, version int64) error {
	cond := store.IfExists()
	if version != 0 {
		cond = store.IfVersion(version)
	}
	err := s.table.Delete(ctx, pk, id, cond)
	if errors.Is(err, store.ErrConditionFailed) {
		return s.why(ctx, id, version)
	}
	if err != nil {
		return fmt.Errorf("delete voice %s: %w", id, err)
	}
	return s.bump(ctx)
}

// Import creates each absent voice; a voice created meanwhile by another
// process is left to it.
func (s *Store) Import(ctx context.Context, vs []voices.Voice) (int, error) {
	added := 0
	for _, v := range vs {
		_, err := s.Create(ctx, v)
		switch {
		case err == nil:
			added++
		case !errors.Is(err, voices.ErrExists):
			return added, err
		}
	}
	return added, nil
}

// Search runs voices.Search over the whole library.
func (s *Store) Search(ctx context.Context, q voices.Query) (voices.Result, error) {
	lib, err := s.library(ctx)
	if err != nil {
		return voices.Result{}, err
	}
	return lib.Search(q), nil
}

// library is every voice, from the cache while the revision is unchanged.
func (s *Store) library(ctx context.Context) (*voices.Library, error) {
	rev, err := s.revision(ctx)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if rev != "" && rev == s.rev {
		defer s.mu.Unlock()
		return s.cached, nil
	}
	s.mu.Unlock()
	var all []voices.Voice
	q := store.Query{PK: pk}
	for {
		page, err := s.table.Query(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("list voices: %w", err)
		}
		for _, it := range page.Items {
			v, err := decode(it)
			if err != nil {
				return nil, err
			}
			all = append(all, v)
		}
		if page.Next == "" {
			break
		}
		q.Cursor = page.Next
	}
	// Cached under the revision read before listing: a write during the
	// listing changes the revision, so the next search lists again.
	s.mu.Lock()
	lib := voices.NewLibrary(all)
	s.rev, s.cached = rev, lib
	s.mu.Unlock()
	return lib, nil
}

func (s *Store) revision(ctx context.Context) (string, error) {
	it, err := s.table.Get(ctx, revPK, revSK)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("voice library revision: %w", err)
	}
	return string(it.Data), nil
}

// write puts v under cond, then moves the revision on.
func (s *Store) write(ctx context.Context, v voices.Voice, cond store.Condition) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode voice %s: %w", v.ID, err)
	}
	err = s.table.Put(ctx, store.Item{PK: pk, SK: v.ID, Version: v.Version, Data: data}, cond)
	if err != nil {
		if errors.Is(err, store.ErrConditionFailed) {
			return store.ErrConditionFailed
		}
		return fmt.Errorf("write voice %s: %w", v.ID, err)
	}
	return s.bump(ctx)
}

// bump gives the library a new revision, so every process's next search
// lists it again.
func (s *Store) bump(ctx context.Context) error {
	if err := s.table.Put(ctx, store.Item{PK: revPK, SK: revSK, Version: 1, Data: []byte(rand.Text())}, store.Condition{}); err != nil {
		return fmt.Errorf("voice library revision: %w", err)
	}
	return nil
}

// why tells a conditional write that failed: the voice is gone, or it is at
// another version.
func (s *Store) why(ctx context.Context, id string, version int64) error {
	v, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	return fmt.Errorf("%w: %s is at version %d, not %d", voices.ErrStale, id, v.Version, version)
}

func decode(it store.Item) (voices.Voice, error) {
	var v voices.Voice
	if err := json.Unmarshal(it.Data, &v); err != nil {
		return voices.Voice{}, fmt.Errorf("decode voice %s: %w", it.SK, err)
	}
	v.Version = it.Version
	return v, nil
}

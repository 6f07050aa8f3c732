package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lectern/lectern/shared/store"
)

// maxUpdateAttempts bounds read-modify-write retries when updates race.
const maxUpdateAttempts = 5

// Service reads and updates one instance's settings in the table.
type Service struct {
	table    store.Table
	instance string
	keys     Sealer // nil: keys are stored as they are
}

// NewService serves the settings of the named instance with keys stored as
// they are: for a table encrypted at rest by its own service (DynamoDB with
// KMS in AWS mode).
func NewService(table store.Table, instance string) *Service {
	return &Service{table: table, instance: instance}
}

// NewSealedService serves the settings of the named instance with every key
// sealed by keys before it is stored (local mode: the table is a plain file).
func NewSealedService(table store.Table, instance string, keys Sealer) *Service {
	return &Service{table: table, instance: instance, keys: keys}
}

func (s *Service) key() (string, string) { return "SETTINGS", "INSTANCE#" + s.instance }

// Load returns the stored settings, keys included, for server-side use only.
func (s *Service) Load(ctx context.Context) (Settings, error) {
	cur, _, err := s.load(ctx)
	return cur, err
}

func (s *Service) load(ctx context.Context) (Settings, int64, error) {
	pk, sk := s.key()
	item, err := s.table.Get(ctx, pk, sk)
	if errors.Is(err, store.ErrNotFound) {
		return Defaults(s.instance), 0, nil
	}
	if err != nil {
		return Settings{}, 0, fmt.Errorf("load settings %s: %w", s.instance, err)
	}
	var cur Settings
	if err := json.Unmarshal(item.Data, &cur); err != nil {
		return Settings{}, 0, fmt.Errorf("decode settings %s: %w", s.instance, err)
	}
	if cur.EngineAPIKeys == nil {
		cur.EngineAPIKeys = map[string]string{}
	}
	if s.keys != nil {
		cur = openKeys(cur, s.keys, s.instance)
	}
	return cur, item.Version, nil
}

// Get returns the settings as a client may see them.
func (s *Service) Get(ctx context.Context) (View, error) {
	cur, err := s.Load(ctx)
	if err != nil {
		return View{}, err
	}
	return Show(cur), nil
}

// Update validates u, applies it with a conditional write, and returns the new view.
func (s *Service) Update(ctx context.Context, u Update) (View, error) {
	if err := Validate(u); err != nil {
		return View{}, err
	}
	pk, sk := s.key()
	for range maxUpdateAttempts {
		cur, version, err := s.load(ctx)
		if err != nil {
			return View{}, err
		}
		next := Apply(cur, u)
		stored := next
		if s.keys != nil {
			if stored, err = sealKeys(next, s.keys, s.instance); err != nil {
				return View{}, fmt.Errorf("seal keys: %w", err)
			}
		}
		data, err := json.Marshal(stored)
		if err != nil {
			return View{}, fmt.Errorf("encode settings: %w", err)
		}
		cond := store.IfVersion(version)
		if version == 0 {
			cond = store.IfAbsent()
		}
		err = s.table.Put(ctx, store.Item{PK: pk, SK: sk, Version: version + 1, Data: data}, cond)
		if errors.Is(err, store.ErrConditionFailed) {
			continue
		}
		if err != nil {
			return View{}, fmt.Errorf("save settings %s: %w", s.instance, err)
		}
		return Show(next), nil
	}
	return View{}, ErrConflict
}

// SealStored seals keys saved before sealing was turned on. It is a no-op
// without a Sealer or when every key is sealed already.
func (s *Service) SealStored(ctx context.Context) error {
	if s.keys == nil {
		return nil
	}
	pk, sk := s.key()
	item, err := s.table.Get(ctx, pk, sk)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("load settings %s: %w", s.instance, err)
	}
	var raw Settings
	if err := json.Unmarshal(item.Data, &raw); err != nil {
		return fmt.Errorf("decode settings %s: %w", s.instance, err)
	}
	if !hasPlainKeys(raw) {
		return nil
	}
	// An empty update rewrites the record, sealing every key on the way.
	_, err = s.Update(ctx, Update{})
	return err
}

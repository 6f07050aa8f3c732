// Package store owns the table port: one table of items keyed by PK/SK strings,
// each carrying a numeric version for optimistic concurrency. Adapters (bbolt,
// DynamoDB) live in sub-packages and pass the contract suite in storetest.
package store

import (
	"context"
	"encoding/base64"
	"fmt"
)

// MaxTransactWrites is the largest transaction a table accepts (DynamoDB's limit).
const MaxTransactWrites = 100

// MaxQueryLimit caps one page of a query.
const MaxQueryLimit = 1000

// Item is one record. Data is the feature's JSON document; the table never looks inside it.
type Item struct {
	PK      string
	SK      string
	Version int64
	Data    []byte
}

// Key names an item.
type Key struct {
	PK string
	SK string
}

// Key returns the item's key.
func (i Item) Key() Key { return Key{PK: i.PK, SK: i.SK} }

func (k Key) String() string { return k.PK + "/" + k.SK }

// CondKind says what must hold before a write happens.
type CondKind int

const (
	// CondNone writes unconditionally.
	CondNone CondKind = iota
	// CondAbsent requires that no item exists at the key.
	CondAbsent
	// CondVersion requires that the item exists with exactly Condition.Version.
	CondVersion
	// CondExists requires that the item exists, whatever its version.
	CondExists
)

// Condition guards a write. The zero value is unconditional.
type Condition struct {
	Kind    CondKind
	Version int64
}

// IfAbsent guards a create.
func IfAbsent() Condition { return Condition{Kind: CondAbsent} }

// IfVersion guards an update or delete of the version the caller read.
func IfVersion(v int64) Condition { return Condition{Kind: CondVersion, Version: v} }

// IfExists guards a write that must not resurrect a deleted item.
func IfExists() Condition { return Condition{Kind: CondExists} }

// Query selects items of one PK whose SK starts with SKPrefix, ordered by SK.
type Query struct {
	PK         string
	SKPrefix   string
	Descending bool
	// Limit is the page size; 0 means MaxQueryLimit.
	Limit int
	// Cursor continues a previous page (Page.Next); empty starts at the beginning.
	Cursor string
}

// Page is one page of a query. Next is empty when there are no more items.
type Page struct {
	Items []Item
	Next  string
}

// Op is the kind of one transactional write.
type Op int

const (
	// OpPut writes Write.Item.
	OpPut Op = iota + 1
	// OpDelete removes the item at Write.Item's key.
	OpDelete
	// OpCheck only checks Write.Cond at Write.Item's key.
	OpCheck
)

// Write is one member of a transaction. For OpDelete and OpCheck only Item.PK/SK are used.
type Write struct {
	Op   Op
	Item Item
	Cond Condition
}

// Table is the port every feature uses for records.
type Table interface {
	// Get returns the item or an error matching ErrNotFound.
	Get(ctx context.Context, pk, sk string) (Item, error)
	// Put writes the item as given (the caller sets Version) if cond holds,
	// else an error matching ErrConditionFailed.
	Put(ctx context.Context, item Item, cond Condition) error
	// Delete removes the item if cond holds. Deleting an absent item with no
	// condition succeeds.
	Delete(ctx context.Context, pk, sk string, cond Condition) error
	// Query returns one page of items ordered by SK.
	Query(ctx context.Context, q Query) (Page, error)
	// Transact applies up to MaxTransactWrites writes, all or nothing. When a
	// condition fails nothing is written and the error is a *TxConditionError.
	Transact(ctx context.Context, writes []Write) error
}

// TxConditionError reports which write of a transaction failed its condition.
type TxConditionError struct {
	Index int
	Key   Key
}

func (e *TxConditionError) Error() string {
	return fmt.Sprintf("transaction write %d (%s): %v", e.Index, e.Key, ErrConditionFailed)
}

// Unwrap lets errors.Is(err, ErrConditionFailed) hold.
func (e *TxConditionError) Unwrap() error { return ErrConditionFailed }

// ValidateWrites checks a transaction before any adapter touches storage:
// size, ops, and no key written twice (DynamoDB refuses that too).
func ValidateWrites(writes []Write) error {
	if len(writes) == 0 {
		return fmt.Errorf("transaction has no writes: %w", ErrInvalid)
	}
	if len(writes) > MaxTransactWrites {
		return fmt.Errorf("transaction has %d writes, limit %d: %w", len(writes), MaxTransactWrites, ErrInvalid)
	}
	seen := make(map[Key]bool, len(writes))
	for i, w := range writes {
		if w.Op < OpPut || w.Op > OpCheck {
			return fmt.Errorf("transaction write %d has unknown op %d: %w", i, w.Op, ErrInvalid)
		}
		if err := ValidateKey(w.Item.PK, w.Item.SK); err != nil {
			return fmt.Errorf("transaction write %d: %w", i, err)
		}
		if seen[w.Item.Key()] {
			return fmt.Errorf("transaction writes %s twice: %w", w.Item.Key(), ErrInvalid)
		}
		seen[w.Item.Key()] = true
	}
	return nil
}

// ValidateKey refuses empty key parts, which neither adapter can store.
func ValidateKey(pk, sk string) error {
	if pk == "" || sk == "" {
		return fmt.Errorf("empty key part %q/%q: %w", pk, sk, ErrInvalid)
	}
	return nil
}

// EncodeCursor turns the last SK of a page into an opaque cursor.
func EncodeCursor(lastSK string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(lastSK))
}

// DecodeCursor reverses EncodeCursor.
func DecodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) == 0 {
		return "", fmt.Errorf("bad cursor: %w", ErrInvalid)
	}
	return string(b), nil
}

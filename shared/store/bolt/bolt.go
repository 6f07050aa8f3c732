// Package bolt is the embedded table adapter: one bbolt file, one bucket,
// items keyed by PK, a zero byte and SK so a PK's items sit together in SK
// order and a query is a range scan.
package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/lectern/lectern/shared/store"
)

var _ store.Table = (*Table)(nil)

var bucketName = []byte("items")

// Table is a store.Table in a bbolt file.
type Table struct {
	db *bbolt.DB
}

// Open opens (or creates) the table file at path.
func Open(path string) (*Table, error) {
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("open table %s: %w", path, err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketName)
		return err
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("create bucket in %s: %w", path, err)
	}
	return &Table{db: db}, nil
}

// Close releases the file.
func (t *Table) Close() error { return t.db.Close() }

// PK and SK are joined by a zero byte: it sorts below every other byte, so
// "A"+0+sk never interleaves with "AB"+0+sk. Keys may not contain it.
func encodeKey(pk, sk string) []byte {
	k := make([]byte, 0, len(pk)+1+len(sk))
	k = append(k, pk...)
	k = append(k, 0)
	return append(k, sk...)
}

func checkKey(pk, sk string) error {
	if err := store.ValidateKey(pk, sk); err != nil {
		return err
	}
	if strings.ContainsRune(pk, 0) || strings.ContainsRune(sk, 0) {
		return fmt.Errorf("key %q/%q contains a zero byte: %w", pk, sk, store.ErrInvalid)
	}
	return nil
}

// A stored value is the version (8 bytes, big endian) followed by Data.
func encodeValue(version int64, data []byte) []byte {
	v := make([]byte, 8+len(data))
	binary.BigEndian.PutUint64(v, uint64(version))
	copy(v[8:], data)
	return v
}

func decodeItem(key, value []byte) (store.Item, error) {
	i := bytes.IndexByte(key, 0)
	if i < 0 || len(value) < 8 {
		return store.Item{}, fmt.Errorf("corrupt item %q", key)
	}
	data := make([]byte, len(value)-8)
	copy(data, value[8:])
	return store.Item{
		PK:      string(key[:i]),
		SK:      string(key[i+1:]),
		Version: int64(binary.BigEndian.Uint64(value)),
		Data:    data,
	}, nil
}

// Get implements store.Table.
func (t *Table) Get(ctx context.Context, pk, sk string) (store.Item, error) {
	if err := checkKey(pk, sk); err != nil {
		return store.Item{}, err
	}
	var item store.Item
	err := t.db.View(func(tx *bbolt.Tx) error {
		key := encodeKey(pk, sk)
		v := tx.Bucket(bucketName).Get(key)
		if v == nil {
			return fmt.Errorf("get %s/%s: %w", pk, sk, store.ErrNotFound)
		}
		var err error
		item, err = decodeItem(key, v)
		return err
	})
	return item, err
}

// check reports whether cond holds for the item at key in b.
func check(b *bbolt.Bucket, key []byte, cond store.Condition) bool {
	v := b.Get(key)
	switch cond.Kind {
	case store.CondAbsent:
		return v == nil
	case store.CondExists:
		return v != nil
	case store.CondVersion:
		return v != nil && len(v) >= 8 && int64(binary.BigEndian.Uint64(v)) == cond.Version
	}
	return true
}

// Put implements store.Table.
func (t *Table) Put(ctx context.Context, item store.Item, cond store.Condition) error {
	if err := checkKey(item.PK, item.SK); err != nil {
		return err
	}
	return t.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketName)
		key := encodeKey(item.PK, item.SK)
		if !check(b, key, cond) {
			return fmt.Errorf("put %s: %w", item.Key(), store.ErrConditionFailed)
		}
		return b.Put(key, encodeValue(item.Version, item.Data))
	})
}

// Delete implements store.Table.
func (t *Table) Delete(ctx context.Context, pk, sk string, cond store.Condition) error {
	if err := checkKey(pk, sk); err != nil {
		return err
	}
	return t.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketName)
		key := encodeKey(pk, sk)
		if !check(b, key, cond) {
			return fmt.Errorf("delete %s/%s: %w", pk, sk, store.ErrConditionFailed)
		}
		return b.Delete(key)
	})
}

// Query implements store.Table with a cursor range scan over the PK's keys.
func (t *Table) Query(ctx context.Context, q store.Query) (store.Page, error) {
	if q.PK == "" || strings.ContainsRune(q.PK, 0) {
		return store.Page{}, fmt.Errorf("query needs a PK without zero bytes: %w", store.ErrInvalid)
	}
	limit := q.Limit
	if limit <= 0 || limit > store.MaxQueryLimit {
		limit = store.MaxQueryLimit
	}
	after := ""
	if q.Cursor != "" {
		var err error
		if after, err = store.DecodeCursor(q.Cursor); err != nil {
			return store.Page{}, err
		}
	}
	prefix := encodeKey(q.PK, q.SKPrefix)
	var page store.Page
	err := t.db.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketName).Cursor()
		var k, v []byte
		next := c.Next
		switch {
		case !q.Descending && after != "":
			k, v = c.Seek(encodeKey(q.PK, after))
			if k != nil && bytes.Equal(k, encodeKey(q.PK, after)) {
				k, v = c.Next()
			}
		case !q.Descending:
			k, v = c.Seek(prefix)
		default:
			next = c.Prev
			// Walk back from the last key below bound: the cursor's SK, or the
			// first key past every key with the prefix.
			bound := prefixEnd(prefix)
			if after != "" {
				bound = encodeKey(q.PK, after)
			}
			if k, _ = c.Seek(bound); k == nil {
				k, v = c.Last()
			} else {
				k, v = c.Prev()
			}
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, v = next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			if len(page.Items) == limit {
				page.Next = store.EncodeCursor(page.Items[len(page.Items)-1].SK)
				return nil
			}
			item, err := decodeItem(k, v)
			if err != nil {
				return err
			}
			page.Items = append(page.Items, item)
		}
		return nil
	})
	if err != nil {
		return store.Page{}, fmt.Errorf("query %s/%s*: %w", q.PK, q.SKPrefix, err)
	}
	return page, nil
}

// prefixEnd is the smallest key greater than every key starting with p
// (nil when there is none, i.e. p is all 0xff).
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// Transact implements store.Table: every condition is checked, then every
// write applied, inside one bbolt transaction.
func (t *Table) Transact(ctx context.Context, writes []store.Write) error {
	if err := store.ValidateWrites(writes); err != nil {
		return err
	}
	for _, w := range writes {
		if err := checkKey(w.Item.PK, w.Item.SK); err != nil {
			return err
		}
	}
	return t.db.Update(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketName)
		for i, w := range writes {
			if !check(b, encodeKey(w.Item.PK, w.Item.SK), w.Cond) {
				return &store.TxConditionError{Index: i, Key: w.Item.Key()}
			}
		}
		for _, w := range writes {
			key := encodeKey(w.Item.PK, w.Item.SK)
			var err error
			switch w.Op {
			case store.OpPut:
				err = b.Put(key, encodeValue(w.Item.Version, w.Item.Data))
			case store.OpDelete:
				err = b.Delete(key)
			}
			if err != nil {
				return fmt.Errorf("transaction write %s: %w", w.Item.Key(), err)
			}
		}
		return nil
	})
}

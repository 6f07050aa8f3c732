// Package storetest is the store.Table contract: one suite every adapter
// (bbolt, DynamoDB) must pass, so features can rely on the same behaviour in
// both modes.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lectern/lectern/shared/store"
)

// Run runs every contract case; newTable returns an empty table for one case.
func Run(t *testing.T, newTable func(t *testing.T) store.Table) {
	ctx := context.Background()
	cases := []struct {
		name string
		run  func(t *testing.T, tb store.Table)
	}{
		{"get missing is ErrNotFound", func(t *testing.T, tb store.Table) {
			if _, err := tb.Get(ctx, "P", "missing"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("got %v, want ErrNotFound", err)
			}
		}},
		{"put then get round-trips version and binary data", func(t *testing.T, tb store.Table) {
			data := []byte{0, 1, 2, 0xff, '{', '"', 0}
			mustPut(t, tb, store.Item{PK: "P", SK: "A", Version: 7, Data: data}, store.Condition{})
			got := mustGet(t, tb, "P", "A")
			if got.PK != "P" || got.SK != "A" || got.Version != 7 || !bytes.Equal(got.Data, data) {
				t.Fatalf("got %+v", got)
			}
		}},
		{"empty data round-trips", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, store.Item{PK: "P", SK: "E", Version: 1}, store.Condition{})
			if got := mustGet(t, tb, "P", "E"); len(got.Data) != 0 || got.Version != 1 {
				t.Fatalf("got %+v", got)
			}
		}},
		{"put if absent refuses an existing item and keeps it", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, item("P", "A", 1, "first"), store.IfAbsent())
			err := tb.Put(ctx, item("P", "A", 1, "second"), store.IfAbsent())
			if !errors.Is(err, store.ErrConditionFailed) {
				t.Fatalf("got %v, want ErrConditionFailed", err)
			}
			if got := mustGet(t, tb, "P", "A"); string(got.Data) != "first" {
				t.Fatalf("item overwritten: %q", got.Data)
			}
		}},
		{"put if version matches updates", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, item("P", "A", 1, "v1"), store.IfAbsent())
			mustPut(t, tb, item("P", "A", 2, "v2"), store.IfVersion(1))
			if got := mustGet(t, tb, "P", "A"); got.Version != 2 || string(got.Data) != "v2" {
				t.Fatalf("got %+v", got)
			}
		}},
		{"put with stale version refused and nothing written", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, item("P", "A", 2, "v2"), store.Condition{})
			if err := tb.Put(ctx, item("P", "A", 3, "v3"), store.IfVersion(1)); !errors.Is(err, store.ErrConditionFailed) {
				t.Fatalf("got %v", err)
			}
			if got := mustGet(t, tb, "P", "A"); got.Version != 2 || string(got.Data) != "v2" {
				t.Fatalf("got %+v", got)
			}
		}},
		{"put with version on a missing item refused", func(t *testing.T, tb store.Table) {
			if err := tb.Put(ctx, item("P", "A", 1, "x"), store.IfVersion(0)); !errors.Is(err, store.ErrConditionFailed) {
				t.Fatalf("got %v", err)
			}
			if _, err := tb.Get(ctx, "P", "A"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("item created: %v", err)
			}
		}},
		{"put if exists refuses to resurrect", func(t *testing.T, tb store.Table) {
			if err := tb.Put(ctx, item("P", "A", 1, "x"), store.IfExists()); !errors.Is(err, store.ErrConditionFailed) {
				t.Fatalf("got %v", err)
			}
			mustPut(t, tb, item("P", "A", 1, "x"), store.Condition{})
			mustPut(t, tb, item("P", "A", 2, "y"), store.IfExists())
		}},
		{"empty key parts refused", func(t *testing.T, tb store.Table) {
			if err := tb.Put(ctx, item("", "A", 1, "x"), store.Condition{}); !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("empty PK: %v", err)
			}
			if err := tb.Put(ctx, item("P", "", 1, "x"), store.Condition{}); !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("empty SK: %v", err)
			}
			if _, err := tb.Get(ctx, "", "A"); !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("get empty PK: %v", err)
			}
		}},
		{"delete removes; delete missing without condition succeeds", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, item("P", "A", 1, "x"), store.Condition{})
			if err := tb.Delete(ctx, "P", "A", store.Condition{}); err != nil {
				t.Fatal(err)
			}
			if _, err := tb.Get(ctx, "P", "A"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("after delete: %v", err)
			}
			if err := tb.Delete(ctx, "P", "A", store.Condition{}); err != nil {
				t.Fatalf("delete missing: %v", err)
			}
		}},
		{"delete with stale version refused and item kept", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, item("P", "A", 3, "x"), store.Condition{})
			if err := tb.Delete(ctx, "P", "A", store.IfVersion(2)); !errors.Is(err, store.ErrConditionFailed) {
				t.Fatalf("got %v", err)
			}
			mustGet(t, tb, "P", "A")
			if err := tb.Delete(ctx, "P", "A", store.IfVersion(3)); err != nil {
				t.Fatal(err)
			}
		}},
		{"delete missing with exists condition refused", func(t *testing.T, tb store.Table) {
			if err := tb.Delete(ctx, "P", "A", store.IfExists()); !errors.Is(err, store.ErrConditionFailed) {
				t.Fatalf("got %v", err)
			}
		}},
		{"query returns the PK's items with the prefix in SK order", func(t *testing.T, tb store.Table) {
			for _, sk := range []string{"PAGE#0003", "PAGE#0001", "ARTICLE#1", "PAGE#0002", "META"} {
				mustPut(t, tb, item("ISSUE#1", sk, 1, sk), store.Condition{})
			}
			mustPut(t, tb, item("ISSUE#10", "PAGE#0001", 1, "other issue"), store.Condition{})
			mustPut(t, tb, item("ISSUE#", "PAGE#0001", 1, "shorter pk"), store.Condition{})
			page, err := tb.Query(ctx, store.Query{PK: "ISSUE#1", SKPrefix: "PAGE#"})
			if err != nil {
				t.Fatal(err)
			}
			assertSKs(t, page.Items, "PAGE#0001", "PAGE#0002", "PAGE#0003")
			if page.Next != "" {
				t.Fatalf("unexpected next cursor %q", page.Next)
			}
			all, err := tb.Query(ctx, store.Query{PK: "ISSUE#1"})
			if err != nil {
				t.Fatal(err)
			}
			assertSKs(t, all.Items, "ARTICLE#1", "META", "PAGE#0001", "PAGE#0002", "PAGE#0003")
		}},
		{"descending query", func(t *testing.T, tb store.Table) {
			for _, sk := range []string{"S#1", "S#2", "S#3", "T#1"} {
				mustPut(t, tb, item("P", sk, 1, ""), store.Condition{})
			}
			page, err := tb.Query(ctx, store.Query{PK: "P", SKPrefix: "S#", Descending: true})
			if err != nil {
				t.Fatal(err)
			}
			assertSKs(t, page.Items, "S#3", "S#2", "S#1")
		}},
		{"query of an unknown PK is empty", func(t *testing.T, tb store.Table) {
			page, err := tb.Query(ctx, store.Query{PK: "NOBODY"})
			if err != nil || len(page.Items) != 0 || page.Next != "" {
				t.Fatalf("got %+v, %v", page, err)
			}
		}},
		{"query pages in order with cursor, both directions", func(t *testing.T, tb store.Table) {
			var want []string
			for i := range 23 {
				sk := fmt.Sprintf("SEG#%04d", i)
				want = append(want, sk)
				mustPut(t, tb, item("BOOK#1", sk, 1, sk), store.Condition{})
			}
			mustPut(t, tb, item("BOOK#1", "TAIL", 1, ""), store.Condition{})
			for _, desc := range []bool{false, true} {
				var got []string
				cursor, pages := "", 0
				for {
					page, err := tb.Query(ctx, store.Query{PK: "BOOK#1", SKPrefix: "SEG#", Limit: 5, Cursor: cursor, Descending: desc})
					if err != nil {
						t.Fatal(err)
					}
					pages++
					if len(page.Items) > 5 {
						t.Fatalf("page of %d items exceeds limit 5", len(page.Items))
					}
					for _, it := range page.Items {
						got = append(got, it.SK)
					}
					if page.Next == "" {
						break
					}
					cursor = page.Next
					if pages > 10 {
						t.Fatal("paging does not end")
					}
				}
				exp := want
				if desc {
					exp = reversed(want)
				}
				if fmt.Sprint(got) != fmt.Sprint(exp) {
					t.Fatalf("desc=%v paged SKs:\n got %v\nwant %v", desc, got, exp)
				}
			}
		}},
		{"bad cursor refused", func(t *testing.T, tb store.Table) {
			if _, err := tb.Query(ctx, store.Query{PK: "P", Cursor: "%%%"}); !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("got %v", err)
			}
		}},
		{"transaction of 100 writes applies all", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, item("P", "DEL", 1, "x"), store.Condition{})
			writes := []store.Write{{Op: store.OpDelete, Item: store.Item{PK: "P", SK: "DEL"}, Cond: store.IfVersion(1)}}
			for i := range 99 {
				writes = append(writes, store.Write{Op: store.OpPut, Item: item("P", fmt.Sprintf("N#%03d", i), 1, "n"), Cond: store.IfAbsent()})
			}
			if err := tb.Transact(ctx, writes); err != nil {
				t.Fatal(err)
			}
			page, err := tb.Query(ctx, store.Query{PK: "P", SKPrefix: "N#"})
			if err != nil || len(page.Items) != 99 {
				t.Fatalf("got %d items, %v", len(page.Items), err)
			}
			if _, err := tb.Get(ctx, "P", "DEL"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("deleted item still there: %v", err)
			}
		}},
		{"transaction is all or nothing and reports which condition failed", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, item("P", "X", 5, "keep"), store.Condition{})
			writes := []store.Write{}
			for i := range 60 {
				writes = append(writes, store.Write{Op: store.OpPut, Item: item("P", fmt.Sprintf("N#%03d", i), 1, "n"), Cond: store.IfAbsent()})
			}
			writes = append(writes, store.Write{Op: store.OpPut, Item: item("P", "X", 6, "changed"), Cond: store.IfVersion(4)})
			writes = append(writes, store.Write{Op: store.OpDelete, Item: store.Item{PK: "P", SK: "N#000-other"}})
			err := tb.Transact(ctx, writes)
			var txErr *store.TxConditionError
			if !errors.As(err, &txErr) || !errors.Is(err, store.ErrConditionFailed) {
				t.Fatalf("got %v, want *TxConditionError", err)
			}
			if txErr.Index != 60 || txErr.Key != (store.Key{PK: "P", SK: "X"}) {
				t.Fatalf("failed write reported as %d %v, want 60 P/X", txErr.Index, txErr.Key)
			}
			page, err := tb.Query(ctx, store.Query{PK: "P", SKPrefix: "N#"})
			if err != nil || len(page.Items) != 0 {
				t.Fatalf("partial transaction visible: %d items, %v", len(page.Items), err)
			}
			if got := mustGet(t, tb, "P", "X"); got.Version != 5 || string(got.Data) != "keep" {
				t.Fatalf("guarded item changed: %+v", got)
			}
		}},
		{"transaction check op guards without writing", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, item("P", "ARTICLE", 3, "a"), store.Condition{})
			ok := []store.Write{
				{Op: store.OpCheck, Item: store.Item{PK: "P", SK: "ARTICLE"}, Cond: store.IfVersion(3)},
				{Op: store.OpPut, Item: item("P", "PAGE", 1, "p"), Cond: store.IfAbsent()},
			}
			if err := tb.Transact(ctx, ok); err != nil {
				t.Fatal(err)
			}
			if got := mustGet(t, tb, "P", "ARTICLE"); got.Version != 3 || string(got.Data) != "a" {
				t.Fatalf("check op changed the item: %+v", got)
			}
			bad := []store.Write{
				{Op: store.OpPut, Item: item("P", "PAGE2", 1, "p"), Cond: store.IfAbsent()},
				{Op: store.OpCheck, Item: store.Item{PK: "P", SK: "GONE"}, Cond: store.IfExists()},
			}
			var txErr *store.TxConditionError
			if err := tb.Transact(ctx, bad); !errors.As(err, &txErr) || txErr.Index != 1 {
				t.Fatalf("got %v", err)
			}
			if _, err := tb.Get(ctx, "P", "PAGE2"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("write of a failed transaction applied: %v", err)
			}
		}},
		{"101 writes refused before any is applied", func(t *testing.T, tb store.Table) {
			var writes []store.Write
			for i := range 101 {
				writes = append(writes, store.Write{Op: store.OpPut, Item: item("P", fmt.Sprintf("N#%03d", i), 1, "")})
			}
			if err := tb.Transact(ctx, writes); !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("got %v", err)
			}
			if page, _ := tb.Query(ctx, store.Query{PK: "P"}); len(page.Items) != 0 {
				t.Fatalf("%d items written", len(page.Items))
			}
		}},
		{"same key twice in a transaction refused", func(t *testing.T, tb store.Table) {
			writes := []store.Write{
				{Op: store.OpPut, Item: item("P", "A", 1, "")},
				{Op: store.OpDelete, Item: store.Item{PK: "P", SK: "A"}},
			}
			if err := tb.Transact(ctx, writes); !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("got %v", err)
			}
		}},
		{"empty transaction refused", func(t *testing.T, tb store.Table) {
			if err := tb.Transact(ctx, nil); !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("got %v", err)
			}
		}},
		{"concurrent versioned updates lose nothing", func(t *testing.T, tb store.Table) {
			mustPut(t, tb, item("P", "COUNTER", 0, "0"), store.Condition{})
			const workers, each = 8, 10
			var wg sync.WaitGroup
			var conflicts atomic.Int64
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for done := 0; done < each; {
						cur, err := tb.Get(ctx, "P", "COUNTER")
						if err != nil {
							t.Error(err)
							return
						}
						next := item("P", "COUNTER", cur.Version+1, fmt.Sprint(cur.Version+1))
						err = tb.Put(ctx, next, store.IfVersion(cur.Version))
						if errors.Is(err, store.ErrConditionFailed) {
							conflicts.Add(1)
							continue
						}
						if err != nil {
							t.Error(err)
							return
						}
						done++
					}
				}()
			}
			wg.Wait()
			got := mustGet(t, tb, "P", "COUNTER")
			if got.Version != workers*each || string(got.Data) != fmt.Sprint(workers*each) {
				t.Fatalf("counter at version %d (%s), want %d", got.Version, got.Data, workers*each)
			}
			t.Logf("%d updates, %d conflicts retried", workers*each, conflicts.Load())
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, newTable(t)) })
	}
}

func item(pk, sk string, version int64, data string) store.Item {
	return store.Item{PK: pk, SK: sk, Version: version, Data: []byte(data)}
}

func mustPut(t *testing.T, tb store.Table, it store.Item, cond store.Condition) {
	t.Helper()
	if err := tb.Put(context.Background(), it, cond); err != nil {
		t.Fatalf("put %s: %v", it.Key(), err)
	}
}

func mustGet(t *testing.T, tb store.Table, pk, sk string) store.Item {
	t.Helper()
	it, err := tb.Get(context.Background(), pk, sk)
	if err != nil {
		t.Fatalf("get %s/%s: %v", pk, sk, err)
	}
	return it
}

func assertSKs(t *testing.T, items []store.Item, want ...string) {
	t.Helper()
	var got []string
	for _, it := range items {
		got = append(got, it.SK)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("SKs %v, want %v", got, want)
	}
}

func reversed(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

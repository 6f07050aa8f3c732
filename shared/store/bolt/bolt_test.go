package bolt

import (
	"path/filepath"
	"testing"

	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/store/storetest"
)

func TestContract(t *testing.T) {
	t.Run("bolt", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) store.Table {
			tb, err := Open(filepath.Join(t.TempDir(), "table.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { tb.Close() })
			return tb
		})
	})
}

func TestReopenKeepsItems(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.db")
	tb, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Put(t.Context(), store.Item{PK: "P", SK: "S", Version: 4, Data: []byte("kept")}, store.IfAbsent()); err != nil {
		t.Fatal(err)
	}
	tb.Close()
	tb, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	got, err := tb.Get(t.Context(), "P", "S")
	if err != nil || got.Version != 4 || string(got.Data) != "kept" {
		t.Fatalf("after reopen: %+v %v", got, err)
	}
}

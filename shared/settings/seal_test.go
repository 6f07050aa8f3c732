package settings

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/store/bolt"
)

func sealer(t *testing.T, b byte) *AESGCM {
	t.Helper()
	x, err := NewAESGCM(bytes.Repeat([]byte{b}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestSealOpensOnlyWithItsKeyAndLabel(t *testing.T) {
	x := sealer(t, 1)
	sealed, err := x.Seal("sk-live-abc", "default/llm_api_key")
	if err != nil || !strings.HasPrefix(sealed, sealedPrefix) || strings.Contains(sealed, "sk-live") {
		t.Fatalf("sealed %q, %v", sealed, err)
	}
	if again, _ := x.Seal("sk-live-abc", "default/llm_api_key"); again == sealed {
		t.Fatal("two seals of one key are equal: the nonce is not fresh")
	}
	if plain, err := x.Open(sealed, "default/llm_api_key"); err != nil || plain != "sk-live-abc" {
		t.Fatalf("open: %q, %v", plain, err)
	}
	if _, err := x.Open(sealed, "default/engine_api_keys/tts"); err == nil {
		t.Fatal("a key opened under another field's label")
	}
	if _, err := sealer(t, 2).Open(sealed, "default/llm_api_key"); err == nil {
		t.Fatal("a key opened with another key file")
	}
	if _, err := NewAESGCM([]byte("short")); err == nil {
		t.Fatal("a short key was accepted")
	}
}

func TestSealedServiceStoresNoKeyInTheClear(t *testing.T) {
	ctx := context.Background()
	table, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer table.Close()

	// A record saved before sealing existed.
	plain := NewService(table, "default")
	if _, err := plain.Update(ctx, Update{LLMAPIKey: ptr("sk-old-1111"), EngineAPIKeys: map[string]string{"tts": "tts-old-2222"}}); err != nil {
		t.Fatal(err)
	}
	svc := NewSealedService(table, "default", sealer(t, 7))
	if err := svc.SealStored(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Update(ctx, Update{EngineAPIKeys: map[string]string{"ocr": "ocr-new-3333"}}); err != nil {
		t.Fatal(err)
	}
	it, err := table.Get(ctx, "SETTINGS", "INSTANCE#default")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"sk-old-1111", "tts-old-2222", "ocr-new-3333"} {
		if bytes.Contains(it.Data, []byte(k)) {
			t.Errorf("the stored record holds %s in the clear: %s", k, it.Data)
		}
	}
	got, err := svc.Load(ctx)
	if err != nil || got.LLMAPIKey != "sk-old-1111" || got.KeyFor("tts") != "tts-old-2222" || got.KeyFor("ocr") != "ocr-new-3333" {
		t.Fatalf("loaded %+v, %v", got, err)
	}
	// Another key file opens nothing: the keys read as unset, not as garbage.
	other, err := NewSealedService(table, "default", sealer(t, 8)).Load(ctx)
	if err != nil || other.LLMAPIKey != "" || other.KeyFor("tts") != "" {
		t.Fatalf("with another key file: %+v, %v", other, err)
	}
}

package settings

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/store/bolt"
)

func ptr(s string) *string { return &s }

func TestApplyKeyRules(t *testing.T) {
	saved := Settings{
		InstanceName:  "default",
		LLMURL:        "http://llm:8000/v1",
		LLMAPIKey:     "sk-saved",
		EngineAPIKeys: map[string]string{"tts": "tts-saved", "ocr": "ocr-saved"},
	}
	cases := []struct {
		name   string
		update Update
		want   Settings
	}{
		{"empty update keeps everything", Update{}, saved},
		{"configured placeholder keeps the saved key",
			Update{LLMAPIKey: ptr(Configured), EngineAPIKeys: map[string]string{"tts": Configured}}, saved},
		{"empty string clears the key",
			Update{LLMAPIKey: ptr("")},
			Settings{InstanceName: "default", LLMURL: "http://llm:8000/v1", EngineAPIKeys: saved.EngineAPIKeys}},
		{"new value replaces the key",
			Update{LLMAPIKey: ptr("sk-new")},
			Settings{InstanceName: "default", LLMURL: "http://llm:8000/v1", LLMAPIKey: "sk-new", EngineAPIKeys: saved.EngineAPIKeys}},
		{"clearing a card key removes the card entry",
			Update{EngineAPIKeys: map[string]string{"ocr": ""}},
			Settings{InstanceName: "default", LLMURL: "http://llm:8000/v1", LLMAPIKey: "sk-saved", EngineAPIKeys: map[string]string{"tts": "tts-saved"}}},
		{"a new card key is added, others untouched",
			Update{EngineAPIKeys: map[string]string{"image": "img-key"}},
			Settings{InstanceName: "default", LLMURL: "http://llm:8000/v1", LLMAPIKey: "sk-saved",
				EngineAPIKeys: map[string]string{"tts": "tts-saved", "ocr": "ocr-saved", "image": "img-key"}}},
		{"configured for a card never saved stays unset",
			Update{EngineAPIKeys: map[string]string{"ghost": Configured}}, saved},
		{"urls set and cleared",
			Update{LLMURL: ptr(""), VisionOCRURL: ptr("https://ocr.example/v1")},
			Settings{InstanceName: "default", LLMAPIKey: "sk-saved", EngineAPIKeys: saved.EngineAPIKeys, VisionOCRURL: "https://ocr.example/v1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Apply(saved, c.update)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Apply:\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
	if saved.EngineAPIKeys["ocr"] != "ocr-saved" {
		t.Fatal("Apply changed the stored map it was given")
	}
}

func TestShowNeverReturnsAKey(t *testing.T) {
	s := Settings{LLMAPIKey: "sk-secret", EngineAPIKeys: map[string]string{"tts": "tts-secret", "ocr": ""}}
	v := Show(s)
	if v.LLMAPIKey != Configured || v.EngineAPIKeys["tts"] != Configured {
		t.Fatalf("saved keys must show as %s: %+v", Configured, v)
	}
	if v.EngineAPIKeys["ocr"] != "" {
		t.Fatalf("an empty key shows as empty, got %q", v.EngineAPIKeys["ocr"])
	}
	if v2 := Show(Settings{}); v2.LLMAPIKey != "" {
		t.Fatalf("unset key shows as empty, got %q", v2.LLMAPIKey)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		u    Update
		ok   bool
	}{
		{"empty update", Update{}, true},
		{"http url", Update{LLMURL: ptr("http://10.0.0.5:4000/v1")}, true},
		{"empty url clears", Update{VisionOCRURL: ptr("")}, true},
		{"ftp url refused", Update{LLMURL: ptr("ftp://x/v1")}, false},
		{"relative url refused", Update{VisionOCRFallbackURL: ptr("/v1")}, false},
		{"javascript url refused", Update{LLMURL: ptr("javascript:alert(1)")}, false},
		{"url without host refused", Update{LLMURL: ptr("http://")}, false},
		{"oversized url refused", Update{LLMURL: ptr("http://x/" + strings.Repeat("a", MaxURLLength))}, false},
		{"oversized key refused", Update{LLMAPIKey: ptr(strings.Repeat("k", MaxKeyLength+1))}, false},
		{"empty instance name refused", Update{InstanceName: ptr("")}, false},
		{"card name with markup refused", Update{EngineAPIKeys: map[string]string{"<b>": "k"}}, false},
		{"card name ok", Update{EngineAPIKeys: map[string]string{"LLM gateway": "k"}}, true},
		{"allow entries ok", Update{EngineURLAllowlist: []string{"gpu.lan:8000", "10.1.0.0/16", "fd00:1:2::/48", "169.254.169.254"}}, true},
		{"0.0.0.0/0 refused", Update{EngineURLAllowlist: []string{"0.0.0.0/0"}}, false},
		{"an IPv4 /8 refused", Update{EngineURLAllowlist: []string{"10.0.0.0/8"}}, false},
		{"an IPv6 /32 refused", Update{EngineURLAllowlist: []string{"2001:db8::/32"}}, false},
		{"::/0 refused", Update{EngineURLAllowlist: []string{"::/0"}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Validate(c.u)
			if c.ok && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !c.ok && !errors.Is(err, ErrInvalid) {
				t.Fatalf("want ErrInvalid, got %v", err)
			}
		})
	}
	many := map[string]string{}
	for i := range MaxEngineKeys + 1 {
		many["card"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+string(rune('a'+i/26))] = "k"
	}
	if err := Validate(Update{EngineAPIKeys: many}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("more than %d card keys must be refused, got %v", MaxEngineKeys, err)
	}
}

// The ear checks renders unless Settings switch it off: a fresh instance,
// and a record saved before the switch existed, have it on. This fails if
// the default flips.
func TestEarCheckIsOnByDefault(t *testing.T) {
	ctx := t.Context()
	table, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer table.Close()
	svc := NewService(table, "default")
	fresh, err := svc.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !fresh.EarOn() || !Show(fresh).EarCheck {
		t.Fatalf("a fresh instance must check renders with the ear: %+v", fresh)
	}
	// A record saved before the switch: no ear_check in it.
	if err := table.Put(ctx, store.Item{PK: "SETTINGS", SK: "INSTANCE#old", Version: 1, Data: []byte(`{"instance_name":"old","llm_url":"http://llm:8000/v1"}`)}, store.IfAbsent()); err != nil {
		t.Fatal(err)
	}
	if old, err := NewService(table, "old").Get(ctx); err != nil || !old.EarCheck {
		t.Fatalf("a record saved before the switch must have the ear on: %+v %v", old, err)
	}
	off := false
	v, err := svc.Update(ctx, Update{EarCheck: &off})
	if err != nil || v.EarCheck {
		t.Fatalf("switching the ear off: %+v %v", v, err)
	}
	// An update that does not name the switch keeps it.
	if v, err = svc.Update(ctx, Update{LLMModel: ptr("m")}); err != nil || v.EarCheck {
		t.Fatalf("an update without ear_check must keep it off: %+v %v", v, err)
	}
	if s, err := svc.Load(ctx); err != nil || s.EarOn() {
		t.Fatalf("the switch must be stored: %+v %v", s, err)
	}
	on := true
	if v, err = svc.Update(ctx, Update{EarCheck: &on}); err != nil || !v.EarCheck {
		t.Fatalf("switching the ear on again: %+v %v", v, err)
	}
}

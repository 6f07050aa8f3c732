package speech

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func TestListVoices(t *testing.T) {
	for _, tc := range []struct {
		name        string
		status      int
		body        string
		want        []string
		offered     bool
		errContains string
	}{
		{"Kokoro-FastAPI's list of ids", 200, `{"voices": ["af_heart", "am_adam", "af_heart"]}`, []string{"af_heart", "am_adam"}, true, ""},
		{"objects with ids and names", 200, `{"data": [{"id": "v1"}, {"voice_id": "v2"}, {"name": "v3"}, {"other": 1}]}`, []string{"v1", "v2", "v3"}, true, ""},
		{"a bare list", 200, `["b", "a", "", " c "]`, []string{"a", "b", "c"}, true, ""},
		{"no such route", 404, `not found`, nil, false, ""},
		{"method not allowed", 405, ``, nil, false, ""},
		{"not JSON", 200, `<html>`, nil, true, "not a JSON voice list"},
		{"engine error hides the body", 500, `secret-key-echo`, nil, true, "500"},
		{"refused key", 401, `{"error": "bad key sk-123"}`, nil, true, "401"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var auth, path string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				auth, path = r.Header.Get("Authorization"), r.URL.Path
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			got, offered, err := ListVoices(context.Background(), srv.Client(), srv.URL+"/v1/", "sk-123")
			if path != "/v1/audio/voices" || auth != "Bearer sk-123" {
				t.Fatalf("called %s with %q", path, auth)
			}
			if !slices.Equal(got, tc.want) || offered != tc.offered {
				t.Fatalf("got %q offered=%v (%v)", got, offered, err)
			}
			if tc.errContains == "" && err != nil || tc.errContains != "" && (err == nil || !strings.Contains(err.Error(), tc.errContains)) {
				t.Fatalf("error %v, want one saying %q", err, tc.errContains)
			}
			if err != nil && (strings.Contains(err.Error(), "sk-123") || strings.Contains(err.Error(), "secret")) {
				t.Fatalf("error shows the key or body: %v", err)
			}
			if tc.status == 401 && !errors.Is(err, ErrUnauthorized) {
				t.Fatalf("401 is not ErrUnauthorized: %v", err)
			}
		})
	}
}

func TestParseVoiceTableReadsGenderAndName(t *testing.T) {
	out := "Pty Language       Age/Gender VoiceName          File                 Other Languages\n" +
		" 5  en-gb-scotland  --/M      English_(Scotland) gmw/en-GB-scotland   (en 4)\n" +
		" 5  xx              --/F      Test               x/xx\n"
	got, err := parseVoiceTable([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []EspeakVoice{
		{Language: "en-gb-scotland", Gender: "M", Name: "English (Scotland)", File: "gmw/en-GB-scotland"},
		{Language: "xx", Gender: "F", Name: "Test", File: "x/xx"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v", got)
	}
}

func TestEspeakVoiceTableIsReal(t *testing.T) {
	requireEspeak(t)
	got, err := Espeak{}.VoiceTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(got, func(v EspeakVoice) bool { return v.Language == "en-us" })
	if len(got) < 50 || i < 0 || got[i].Name != "English (America)" {
		t.Fatalf("%d voices, en-us: %+v", len(got), got)
	}
}

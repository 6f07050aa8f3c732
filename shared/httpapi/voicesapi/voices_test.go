package voicesapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/blob/localfs"
	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store/bolt"
	"github.com/lectern/lectern/shared/voices"
	"github.com/lectern/lectern/shared/voices/sqlitevoices"
	"github.com/lectern/lectern/shared/voices/voicetest"
)

// rig is the voice API over a real SQLite library, blob folder and engine
// cards, with espeak-ng behind a wrapper that counts its runs and a local
// server speaking the OpenAI speech protocol.
type rig struct {
	base    string
	store   *sqlitevoices.Store
	svc     *voices.Service
	cards   *cards.Service
	keys    *settings.Service
	blobs   blob.Store
	espeaks func() int // espeak-ng runs that spoke (not --voices)
	engine  *fakeEngine
}

func newRig(t *testing.T) *rig {
	t.Helper()
	return newRigOn(t, nil)
}

// newRigOn is newRig over the blob store blobsAt makes (nil: a local
// folder); srvURL is where the rig serves.
func newRigOn(t *testing.T, blobsAt func(srvURL string) blob.Store) *rig {
	t.Helper()
	return newRigWith(t, blobsAt, nil)
}

// newRigWith is newRigOn with piper as the neural voice (nil: none).
func newRigWith(t *testing.T, blobsAt func(srvURL string) blob.Store, piper *speech.Piper) *rig {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Fatal("espeak-ng is not installed: run `make deps` (apt-get install espeak-ng)")
	}
	dir := t.TempDir()
	store, err := sqlitevoices.Open(filepath.Join(dir, "voices.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	table, err := bolt.Open(filepath.Join(dir, "lectern.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })

	var handler http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	local, err := localfs.New(filepath.Join(dir, "blobs"), srv.URL, []byte("0123456789abcdef0123456789abcdef"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { local.Close() })
	var blobs blob.Store = local
	if blobsAt != nil {
		blobs = blobsAt(srv.URL)
	}

	// The wrapper logs each run that speaks, then runs the real espeak-ng.
	runs := filepath.Join(dir, "espeak-runs")
	wrapper := filepath.Join(dir, "espeak-ng")
	script := "#!/bin/sh\ncase \"$*\" in *--voices*) ;; *) echo run >> " + runs + ";; esac\nexec espeak-ng \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	keys := settings.NewService(table, "default")
	cardSvc := cards.NewService(table, keys, cards.Options{Instance: "default"})
	engines := engineSet{cards: cardSvc, espeak: speech.Espeak{Command: wrapper}, piper: piper}
	svc := voices.NewService(store, blobs, engines, time.Now, log)

	mux := http.NewServeMux()
	httpapi.New(mux, "test", log, Operations(svc)...)
	mux.Handle("/blobs/", local.Handler())
	handler = mux
	r := &rig{base: srv.URL, store: store, svc: svc, cards: cardSvc, keys: keys, blobs: blobs, engine: newFakeEngine(t)}
	r.espeaks = func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), "run")
	}
	return r
}

// fakeEngine speaks the OpenAI speech protocol and, when voices is set,
// lists them at GET /v1/audio/voices as Kokoro-FastAPI does.
type fakeEngine struct {
	srv    *httptest.Server
	mu     sync.Mutex
	voices []string // nil: no voice list (404)
	spoken []map[string]any
	calls  atomic.Int32
}

func newFakeEngine(t *testing.T) *fakeEngine {
	f := &fakeEngine{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/audio/voices" && f.voices != nil:
			_ = json.NewEncoder(w).Encode(map[string]any{"voices": f.voices})
		case r.Method == http.MethodPost && r.URL.Path == "/v1/audio/speech":
			f.calls.Add(1)
			var body map[string]any
			_ = json.NewDecoder(r.Body).Decode(&body)
			f.spoken = append(f.spoken, body)
			w.Header().Set("Content-Type", "audio/mpeg")
			_, _ = w.Write([]byte("ID3-fake-mp3-of-" + fmt.Sprint(body["voice"])))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (r *rig) addCard(t *testing.T, name string, kind cards.Kind) {
	t.Helper()
	if _, err := r.cards.Put(context.Background(), cards.Card{Name: name, Spec: cards.Spec{Kind: kind, BaseURL: r.engine.srv.URL + "/v1"}}); err != nil {
		t.Fatal(err)
	}
}

// call sends a request and decodes a JSON answer into out (when not nil).
func (r *rig) call(t *testing.T, method, path string, body any, out any) (int, http.Header) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, r.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, data)
		}
	}
	return resp.StatusCode, resp.Header
}

type problem struct {
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Title  string `json:"title"`
	// Errors are huma's validation findings: where and what.
	Errors []struct {
		Message  string `json:"message"`
		Location string `json:"location"`
	} `json:"errors"`
}

func (r *rig) seed(t *testing.T, vs ...voices.Voice) {
	t.Helper()
	if _, err := r.store.Import(context.Background(), vs); err != nil {
		t.Fatal(err)
	}
}

func TestSearchAnswersPagesInTheConventionsShape(t *testing.T) {
	r := newRig(t)
	var vs []voices.Voice
	for i := range 12 {
		v := voicetest.Voice(fmt.Sprintf("v%02d", i), fmt.Sprintf("Sailor %02d", i))
		if i%2 == 0 {
			v.Language = "fr-fr"
		}
		vs = append(vs, v)
	}
	r.seed(t, vs...)
	var raw map[string]json.RawMessage
	code, _ := r.call(t, "GET", "/api/voices?q=SAILOR&language=en&limit=2&offset=2", nil, &raw)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	for _, k := range []string{"total", "count", "offset", "items", "has_more", "next_offset"} {
		if _, ok := raw[k]; !ok {
			t.Fatalf("answer lacks %q: %v", k, raw)
		}
	}
	var res voices.Result
	r.call(t, "GET", "/api/voices?q=SAILOR&language=en&limit=2&offset=2", nil, &res)
	if res.Total != 6 || res.Count != 2 || res.Offset != 2 || !res.HasMore || *res.NextOffset != 4 ||
		res.Items[0].ID != "v05" || res.Items[1].ID != "v07" {
		t.Fatalf("got %+v", res)
	}
	r.call(t, "GET", "/api/voices?language=en&offset=4&limit=2", nil, &raw)
	if string(raw["next_offset"]) != "null" || string(raw["has_more"]) != "false" {
		t.Fatalf("last page: %s %s", raw["next_offset"], raw["has_more"])
	}
}

func TestBadInputGetsAProblemDocument(t *testing.T) {
	r := newRig(t)
	r.addCard(t, "llm", cards.KindLLM)
	builtin := voicetest.Voice("espeak-ng-en-us-1", "English (America)")
	builtin.Source, builtin.Engine, builtin.EngineVoice = voices.SourceBuiltin, voices.BuiltinEngine, "en-us"
	onLLM := voicetest.Voice("on-llm", "Wrong card")
	onLLM.Engine = "llm"
	r.seed(t, builtin, voicetest.Voice("mine", "Mine"), onLLM)
	spec := map[string]any{"name": "A", "engine": "kokoro", "engine_voice": "af"}
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		detail             string
	}{
		{"limit 0", "GET", "/api/voices?limit=0", nil, 422, "limit"},
		{"limit 101", "GET", "/api/voices?limit=101", nil, 422, "limit"},
		{"negative offset", "GET", "/api/voices?offset=-1", nil, 422, "offset"},
		{"unknown gender", "GET", "/api/voices?gender=robot", nil, 422, "gender"},
		{"unknown source", "GET", "/api/voices?source=stolen", nil, 422, "source"},
		{"text over 200 characters", "GET", "/api/voices?q=" + strings.Repeat("a", 201), nil, 422, "q"},
		{"language not a tag", "GET", "/api/voices?language=english!", nil, 422, "language"},
		{"id with upper case", "GET", "/api/voices/NotAnID", nil, 422, "id"},
		{"missing voice", "GET", "/api/voices/nobody", nil, 404, "nobody"},
		{"edit of a built-in voice", "PUT", "/api/voices/espeak-ng-en-us-1", spec, 409, "read-only"},
		{"delete of a built-in voice", "DELETE", "/api/voices/espeak-ng-en-us-1", nil, 409, "read-only"},
		{"edit with a stale version", "PUT", "/api/voices/mine", map[string]any{"name": "A", "engine": "kokoro", "engine_voice": "af", "version": 7}, 409, "version 1, not 7"},
		{"unknown field", "PUT", "/api/voices/new", map[string]any{"name": "A", "engine": "kokoro", "engine_voice": "af", "colour": "red"}, 422, "colour"},
		{"empty name", "POST", "/api/voices", map[string]any{"name": "", "engine": "kokoro", "engine_voice": "af"}, 422, "name"},
		{"name too long", "POST", "/api/voices", map[string]any{"name": strings.Repeat("n", 101), "engine": "kokoro", "engine_voice": "af"}, 422, "name"},
		{"a clone added by hand", "POST", "/api/voices", map[string]any{"name": "A", "engine": "kokoro", "engine_voice": "af", "source": "clone"}, 422, "source"},
		{"an upper-case tag is lowered, a 33-character one refused", "POST", "/api/voices", map[string]any{"name": "A", "engine": "kokoro", "engine_voice": "af", "tags": []string{"OK", strings.Repeat("t", 33)}}, 422, "tag"},
		{"bad language", "POST", "/api/voices", map[string]any{"name": "A", "engine": "kokoro", "engine_voice": "af", "language": "en_GB"}, 422, "language"},
		{"a voice on a card that does not exist", "POST", "/api/voices", spec, 422, `"kokoro"`},
		{"a voice on a card that is not tts", "PUT", "/api/voices/new", map[string]any{"name": "A", "engine": "llm", "engine_voice": "af"}, 422, "not tts"},
		{"an espeak-ng voice espeak-ng does not have", "POST", "/api/voices", map[string]any{"name": "A", "engine": "espeak-ng", "engine_voice": "en-zz+f2;pitch=40"}, 422, `"en-zz"`},
		{"an espeak-ng variant espeak-ng does not have", "POST", "/api/voices", map[string]any{"name": "A", "engine": "espeak-ng", "engine_voice": "en-us+nosuch"}, 422, `"nosuch"`},
		{"an espeak-ng voice that is not a name", "PUT", "/api/voices/new", map[string]any{"name": "A", "engine": "espeak-ng", "engine_voice": "en-us;pitch=400"}, 422, "pitch"},
		{"an edit moving a voice to a card that does not exist", "PUT", "/api/voices/mine", map[string]any{"name": "A", "engine": "nowhere", "engine_voice": "af"}, 422, `"nowhere"`},
		{"import from a card that does not exist", "POST", "/api/voices/import", map[string]any{"engine": "nowhere"}, 422, `"nowhere"`},
		{"import from a card that is not tts", "POST", "/api/voices/import", map[string]any{"engine": "llm"}, 422, "not tts"},
		{"preview of a voice on a non-tts card", "POST", "/api/voices/on-llm/preview", nil, 422, "not tts"},
		{"preview of a missing voice", "POST", "/api/voices/nobody/preview", nil, 404, "nobody"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p problem
			code, h := r.call(t, tc.method, tc.path, tc.body, &p)
			if code != tc.status || p.Status != tc.status || !strings.Contains(h.Get("Content-Type"), "application/problem+json") {
				t.Fatalf("got %d %q %+v, want %d problem+json", code, h.Get("Content-Type"), p, tc.status)
			}
			if !strings.Contains(p.Detail+fmt.Sprint(p), tc.detail) {
				t.Fatalf("detail %q does not mention %q", p.Detail, tc.detail)
			}
		})
	}
	if v, _ := r.store.Get(context.Background(), "espeak-ng-en-us-1"); v.Name != "English (America)" {
		t.Fatalf("built-in voice changed: %+v", v)
	}
}

func TestAddEditDeleteAVoice(t *testing.T) {
	r := newRig(t)
	r.addCard(t, "kokoro", cards.KindTTS)
	var created voices.Voice
	code, _ := r.call(t, "POST", "/api/voices", map[string]any{
		"name": " Moira ", "engine": "kokoro", "engine_voice": "bf_emma", "language": "EN-GB",
		"gender": "female", "age": "old", "tags": []string{"Warm", "warm", "storyteller"}, "source": "design",
	}, &created)
	if code != 201 || voices.CheckID(created.ID) != nil || created.Name != "Moira" || created.Language != "en-gb" ||
		strings.Join(created.Tags, ",") != "storyteller,warm" || created.Version != 1 || created.Source != voices.SourceDesign {
		t.Fatalf("created %d %+v", code, created)
	}
	var edited voices.Voice
	code, _ = r.call(t, "PUT", "/api/voices/"+created.ID, map[string]any{
		"name": "Moira MacLeod", "engine": "kokoro", "engine_voice": "bf_emma", "accent": "Scottish", "version": 1,
	}, &edited)
	if code != 200 || edited.Version != 2 || edited.Accent != "Scottish" || edited.Source != voices.SourceDesign || !edited.Created.Equal(created.Created) {
		t.Fatalf("edited %d %+v", code, edited)
	}
	var put voices.Voice
	if code, _ := r.call(t, "PUT", "/api/voices/my-narrator", map[string]any{"name": "Narrator", "engine": "kokoro", "engine_voice": "am_adam"}, &put); code != 201 || put.ID != "my-narrator" {
		t.Fatalf("put of a new id: %d %+v", code, put)
	}
	var found voices.Result
	r.call(t, "GET", "/api/voices?q=macleod", nil, &found)
	if found.Total != 1 || found.Items[0].ID != created.ID {
		t.Fatalf("search after edit: %+v", found)
	}
	if code, _ := r.call(t, "DELETE", "/api/voices/"+created.ID+"?version=1", nil, nil); code != 409 {
		t.Fatalf("delete of a stale version: %d", code)
	}
	if code, _ := r.call(t, "DELETE", "/api/voices/"+created.ID, nil, nil); code != 204 {
		t.Fatalf("delete: %d", code)
	}
	if code, _ := r.call(t, "DELETE", "/api/voices/"+created.ID, nil, nil); code != 404 {
		t.Fatalf("second delete: %d", code)
	}
	// espeak-ng voices espeak-ng has, with a variant, pitch and rate.
	for _, name := range []string{"en-gb-scotland", "en-gb-scotland+f2;pitch=40;rate=85", "en-us+Alex"} {
		if code, _ := r.call(t, "POST", "/api/voices", map[string]any{"name": "Mine", "engine": "espeak-ng", "engine_voice": name}, nil); code != 201 {
			t.Errorf("add espeak-ng voice %s: %d", name, code)
		}
	}
}

func TestEspeakVoicesImportOnceAndPreviewForRealThenFromTheCache(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	n, err := r.svc.ImportBuiltin(ctx)
	if err != nil || n < 100 {
		t.Fatalf("imported %d voices (%v); espeak-ng has over 100", n, err)
	}
	if again, err := r.svc.ImportBuiltin(ctx); err != nil || again != 0 {
		t.Fatalf("second import added %d (%v)", again, err)
	}
	var res voices.Result
	r.call(t, "GET", "/api/voices?engine=espeak-ng&q=scotland&source=builtin", nil, &res)
	if res.Total != 1 || res.Items[0].EngineVoice != "en-gb-scotland" || res.Items[0].Accent != "Scotland" {
		t.Fatalf("search for the Scottish voice: %+v", res)
	}
	id := res.Items[0].ID

	var p voices.Preview
	if code, _ := r.call(t, "POST", "/api/voices/"+id+"/preview", nil, &p); code != 200 || p.Cached || p.ContentType != "audio/wav" {
		t.Fatalf("first preview %d %+v", code, p)
	}
	if r.espeaks() != 1 {
		t.Fatalf("espeak-ng spoke %d times", r.espeaks())
	}
	resp, err := http.Get(p.URL)
	if err != nil {
		t.Fatal(err)
	}
	wav, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// 22050 Hz 16-bit mono: a sentence is well over a second of audio.
	if resp.StatusCode != 200 || string(wav[:4]) != "RIFF" || string(wav[8:12]) != "WAVE" || len(wav) < 44100 {
		t.Fatalf("sample: %d, %d bytes %q", resp.StatusCode, len(wav), wav[:min(12, len(wav))])
	}
	var again voices.Preview
	r.call(t, "POST", "/api/voices/"+id+"/preview", nil, &again)
	if !again.Cached || again.Key != p.Key || r.espeaks() != 1 {
		t.Fatalf("second preview %+v made espeak-ng speak %d times", again, r.espeaks())
	}
	if v, _ := r.store.Get(ctx, id); v.Preview != p.Key {
		t.Fatalf("voice records preview %q, want %q", v.Preview, p.Key)
	}
}

func TestCardVoicesImportFromTheEngineListOrOpenAINamesAndPreviewOnce(t *testing.T) {
	r := newRig(t)
	r.addCard(t, "kokoro", cards.KindTTS)
	r.addCard(t, "plain", cards.KindTTS)
	r.engine.voices = []string{"af_heart", "am_adam", "bf_emma"}

	var imp voices.Refresh
	if code, _ := r.call(t, "POST", "/api/voices/import", map[string]any{"engine": "kokoro"}, &imp); code != 200 ||
		!imp.Listed || imp.Voices != 3 || imp.Added != 3 || imp.Removed != 0 {
		t.Fatalf("import %d %+v", code, imp)
	}
	r.call(t, "POST", "/api/voices/import", map[string]any{"engine": "kokoro"}, &imp)
	if imp.Added != 0 || imp.Removed != 0 {
		t.Fatalf("second import %+v", imp)
	}
	// A voice the engine dropped goes; one added by hand on the card stays.
	r.call(t, "PUT", "/api/voices/by-hand", map[string]any{"name": "Mine", "engine": "kokoro", "engine_voice": "custom"}, nil)
	r.engine.mu.Lock()
	r.engine.voices = []string{"af_heart", "bf_emma"}
	r.engine.mu.Unlock()
	r.call(t, "POST", "/api/voices/import", map[string]any{"engine": "kokoro"}, &imp)
	if imp.Added != 0 || imp.Removed != 1 {
		t.Fatalf("import after the engine dropped a voice %+v", imp)
	}
	var res voices.Result
	r.call(t, "GET", "/api/voices?engine=kokoro", nil, &res)
	if res.Total != 3 {
		t.Fatalf("kokoro voices after refresh: %+v", res)
	}

	// The fake engine lists voices for every card it serves; one without a
	// list gets OpenAI's names.
	r.engine.mu.Lock()
	r.engine.voices = nil
	r.engine.mu.Unlock()
	r.call(t, "POST", "/api/voices/import", map[string]any{"engine": "plain"}, &imp)
	if imp.Listed || imp.Added != len(speech.OpenAIVoices) {
		t.Fatalf("import without a voice list %+v", imp)
	}

	id := voices.EngineVoiceID("kokoro", "bf_emma")
	var p voices.Preview
	if code, _ := r.call(t, "POST", "/api/voices/"+id+"/preview", nil, &p); code != 200 || p.Cached || p.ContentType != "audio/mpeg" {
		t.Fatalf("preview %d %+v", code, p)
	}
	r.engine.mu.Lock()
	sent := r.engine.spoken[0]
	r.engine.mu.Unlock()
	if sent["voice"] != "bf_emma" || sent["input"] != voices.SampleSentence("") || sent["response_format"] != "mp3" {
		t.Fatalf("engine was asked %v", sent)
	}
	r.call(t, "POST", "/api/voices/"+id+"/preview", nil, &p)
	if !p.Cached || r.engine.calls.Load() != 1 {
		t.Fatalf("second preview %+v; engine called %d times", p, r.engine.calls.Load())
	}
}

package voicesapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/blob/s3blob"
	"github.com/lectern/lectern/shared/blob/s3blob/s3test"
	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/voices"
)

// voiceServer stands in for the two voice APIs Lectern speaks: the
// Chatterbox TTS API's voice library (POST /v1/voices, then OpenAI speech
// in that voice) and ElevenLabs' (clone, design, speech by voice id, with
// the key in xi-api-key). It records what it was sent.
type voiceServer struct {
	srv      *httptest.Server
	mu       sync.Mutex
	uploads  map[string][]byte // voice name → recording (Chatterbox), or voice id (ElevenLabs)
	forms    []map[string]string
	spoken   []string // voices asked to speak
	designed []string // descriptions
	saved    []string // generated ids saved
	keys     []string // xi-api-key values seen
	deleted  []string // voice names or ids deleted
	// deleteStatus, when set, is what a voice delete answers.
	deleteStatus int
}

func newVoiceServer(t *testing.T) *voiceServer {
	v := &voiceServer{uploads: map[string][]byte{}}
	v.srv = httptest.NewServer(http.HandlerFunc(v.serve))
	t.Cleanup(v.srv.Close)
	return v
}

func (v *voiceServer) calls() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.forms) + len(v.spoken) + len(v.designed) + len(v.saved)
}

func (v *voiceServer) serve(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if k := r.Header.Get("xi-api-key"); k != "" {
		v.keys = append(v.keys, k)
	}
	switch {
	case r.Method == http.MethodDelete && (strings.HasPrefix(r.URL.Path, "/cb/v1/voices/") || strings.HasPrefix(r.URL.Path, "/el/v1/voices/")):
		name := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		if v.deleteStatus != 0 {
			http.Error(w, `{"detail":"busy"}`, v.deleteStatus)
			return
		}
		if _, ok := v.uploads[name]; !ok {
			http.Error(w, `{"detail":"voice not found"}`, http.StatusNotFound)
			return
		}
		delete(v.uploads, name)
		v.deleted = append(v.deleted, name)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": "Voice deleted"})
	case r.Method == http.MethodPost && (r.URL.Path == "/cb/v1/voices" || r.URL.Path == "/el/v1/voices/add"):
		fileField, nameField := "voice_file", "voice_name"
		if strings.HasPrefix(r.URL.Path, "/el/") {
			fileField, nameField = "files", "name"
		}
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			http.Error(w, `{"error":{"message":"not a form"}}`, http.StatusBadRequest)
			return
		}
		f, hdr, err := r.FormFile(fileField)
		if err != nil {
			http.Error(w, `{"error":{"message":"no file"}}`, http.StatusBadRequest)
			return
		}
		data, _ := io.ReadAll(f)
		form := map[string]string{"filename": hdr.Filename, "content_type": hdr.Header.Get("Content-Type")}
		for k := range r.MultipartForm.Value {
			form[k] = r.FormValue(k)
		}
		v.forms = append(v.forms, form)
		name := r.FormValue(nameField)
		if strings.HasPrefix(r.URL.Path, "/el/") {
			id := fmt.Sprintf("el-voice-%d", len(v.forms))
			v.uploads[id] = data
			_ = json.NewEncoder(w).Encode(map[string]any{"voice_id": id, "requires_verification": false})
			return
		}
		v.uploads[name] = data
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": "Voice uploaded", "voice": map[string]any{"name": name}})
	case r.Method == http.MethodPost && r.URL.Path == "/cb/v1/audio/speech":
		var body struct{ Voice string }
		_ = json.NewDecoder(r.Body).Decode(&body)
		v.spoken = append(v.spoken, body.Voice)
		w.Header().Set("Content-Type", "audio/mpeg")
		_, _ = w.Write([]byte("ID3 chatterbox speaking as " + body.Voice))
	case r.Method == http.MethodPost && r.URL.Path == "/el/v1/text-to-voice/design":
		var body struct {
			Description string `json:"voice_description"`
			Text        string `json:"text"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		v.designed = append(v.designed, body.Description)
		var previews []map[string]any
		for i := range 3 {
			previews = append(previews, map[string]any{
				"audio_base_64":      base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("ID3 preview %d of %s", i, body.Description))),
				"generated_voice_id": fmt.Sprintf("gen-%d", i), "media_type": "audio/mpeg", "duration_secs": 6.5,
			})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"previews": previews, "text": body.Text})
	case r.Method == http.MethodPost && r.URL.Path == "/el/v1/text-to-voice":
		var body struct {
			Name        string `json:"voice_name"`
			GeneratedID string `json:"generated_voice_id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		v.saved = append(v.saved, body.GeneratedID)
		_ = json.NewEncoder(w).Encode(map[string]any{"voice_id": "el-designed-" + body.GeneratedID, "name": body.Name})
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/el/v1/text-to-speech/"):
		voice := strings.TrimPrefix(r.URL.Path, "/el/v1/text-to-speech/")
		v.spoken = append(v.spoken, voice)
		w.Header().Set("Content-Type", "audio/mpeg")
		_, _ = w.Write([]byte("ID3 elevenlabs speaking as " + voice))
	default:
		http.NotFound(w, r)
	}
}

// addVoiceCard adds a TTS card speaking api at the voice server.
func (r *rig) addVoiceCard(t *testing.T, name string, api cards.VoiceAPI, base string) {
	t.Helper()
	if _, err := r.cards.Put(context.Background(), cards.Card{Name: name, Spec: cards.Spec{Kind: cards.KindTTS, BaseURL: base, VoiceAPI: api}}); err != nil {
		t.Fatal(err)
	}
}

// tone is seconds of a tone as ext, made by ffmpeg.
func tone(t *testing.T, seconds int, ext string) []byte {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("ffmpeg is not installed: run `make deps`")
	}
	out := filepath.Join(t.TempDir(), "ref."+ext)
	if b, err := exec.Command("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", fmt.Sprintf("sine=frequency=180:duration=%d", seconds), "-ac", "1", out).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// clone posts the multipart clone form.
func (r *rig) clone(t *testing.T, fields map[string]string, filename string, audio []byte, out any) int {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	if audio != nil {
		part, _ := w.CreateFormFile("audio", filename)
		_, _ = part.Write(audio)
	}
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPost, r.base+"/api/voices/clone", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("clone: %d %s", resp.StatusCode, data)
		}
	}
	return resp.StatusCode
}

func TestCloneOnAChatterboxEngineKeepsConsentAndRecordingAndSpeaks(t *testing.T) {
	r := newRig(t)
	vs := newVoiceServer(t)
	r.addVoiceCard(t, "chatterbox", cards.VoiceAPIChatterbox, vs.srv.URL+"/cb/v1")
	ref := tone(t, 8, "wav")

	var v voices.Voice
	code := r.clone(t, map[string]string{
		"engine": "chatterbox", "name": "Grandma Jean", "consent": "true", "consent_by": "Ann (her granddaughter)",
		"transcript": "Once upon a time there was a lighthouse.", "language": "en-gb", "gender": "female", "age": "old", "tags": "family, warm",
	}, "jean.wav", ref, &v)
	if code != http.StatusCreated {
		t.Fatalf("clone: %d %+v", code, v)
	}
	if v.Source != voices.SourceClone || v.Engine != "chatterbox" || v.EngineVoice != v.ID || v.Consent == nil || !v.Consent.Confirmed ||
		v.Consent.Statement != voices.ConsentStatement || v.Consent.By != "Ann (her granddaughter)" || v.Consent.At.IsZero() {
		t.Fatalf("clone record: %+v consent %+v", v, v.Consent)
	}
	if strings.Join(v.Tags, ",") != "clone,family,warm" {
		t.Errorf("tags %v", v.Tags)
	}
	// The engine got the recording, byte for byte, under the voice's id.
	if got := vs.uploads[v.ID]; !bytes.Equal(got, ref) {
		t.Fatalf("engine got %d bytes under %q, want the %d-byte recording (uploads %v)", len(got), v.ID, len(ref), len(vs.uploads))
	}
	if vs.forms[0]["content_type"] != "audio/wav" || vs.forms[0]["filename"] != v.ID+".wav" {
		t.Errorf("upload form: %v", vs.forms[0])
	}
	// The recording is kept with the voice: the consent refers to it.
	rc, _, err := r.blobs.Get(context.Background(), voices.ReferenceKey(v.ID, voices.FormatWAV))
	if err != nil {
		t.Fatalf("recording not kept: %v", err)
	}
	kept, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(kept, ref) {
		t.Error("the kept recording differs")
	}
	// The clone speaks through the engine's OpenAI speech, in its name.
	var p voices.Preview
	if code, _ := r.call(t, "POST", "/api/voices/"+v.ID+"/preview", nil, &p); code != 200 {
		t.Fatalf("preview: %d", code)
	}
	if len(vs.spoken) != 1 || vs.spoken[0] != v.ID {
		t.Errorf("engine spoke as %v, want %s", vs.spoken, v.ID)
	}
}

func TestCloneRefusesBadInputBeforeTheEngineIsCalled(t *testing.T) {
	r := newRig(t)
	vs := newVoiceServer(t)
	r.addVoiceCard(t, "chatterbox", cards.VoiceAPIChatterbox, vs.srv.URL+"/cb/v1")
	r.addVoiceCard(t, "kokoro", cards.VoiceAPIOpenAI, vs.srv.URL+"/kokoro/v1")
	ok := map[string]string{"engine": "chatterbox", "name": "Narrator", "consent": "true"}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for a, b := range ok {
			m[a] = b
		}
		if v == "" {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	wav := tone(t, 8, "wav")
	for _, c := range []struct {
		name     string
		fields   map[string]string
		file     string
		audio    []byte
		status   int
		mentions string
	}{
		{"no consent", with("consent", "false"), "a.wav", wav, 422, "agreed"},
		{"consent left out", with("consent", ""), "a.wav", wav, 422, "consent"},
		{"too short", ok, "a.mp3", tone(t, 3, "mp3"), 422, "5-60 s"},
		{"too long", ok, "a.ogg", tone(t, 65, "ogg"), 422, "5-60 s"},
		{"not audio", ok, "a.wav", []byte("just some text pretending to be a recording, long enough to look like one"), 422, "not WAV, MP3, M4A or OGG"},
		{"too large", ok, "a.wav", append(wav, make([]byte, voices.MaxReferenceBytes)...), 413, "MiB"},
		{"no recording", ok, "", nil, 422, "audio"},
		{"engine cannot clone", with("engine", "kokoro"), "a.wav", wav, 422, "kokoro"},
		{"espeak-ng cannot clone", with("engine", "espeak-ng"), "a.wav", wav, 422, "espeak-ng"},
		{"no such engine", with("engine", "nowhere"), "a.wav", wav, 422, "nowhere"},
		{"bad language", with("language", "English please"), "a.wav", wav, 422, "language"},
	} {
		var p problem
		code := r.clone(t, c.fields, c.file, c.audio, &p)
		text := p.Detail
		for _, e := range p.Errors {
			text += " " + e.Message + " " + e.Location
		}
		if code != c.status || !strings.Contains(text, c.mentions) {
			t.Errorf("%s: %d %q, want %d mentioning %q", c.name, code, text, c.status, c.mentions)
		}
	}
	if n := vs.calls(); n != 0 {
		t.Errorf("the engine was called %d times for refused clones", n)
	}
	var all voices.Result
	r.call(t, "GET", "/api/voices?source=clone", nil, &all)
	if all.Total != 0 {
		t.Errorf("%d clones stored", all.Total)
	}
}

func TestCloneAndDesignOnAnElevenLabsEngine(t *testing.T) {
	r := newRig(t)
	vs := newVoiceServer(t)
	r.addVoiceCard(t, "eleven", cards.VoiceAPIElevenLabs, vs.srv.URL+"/el/v1")
	if _, err := r.keys.Update(context.Background(), settings.Update{EngineAPIKeys: map[string]string{"eleven": "xi-secret-7777"}}); err != nil {
		t.Fatal(err)
	}
	var c voices.Voice
	if code := r.clone(t, map[string]string{"engine": "eleven", "name": "Podcast Host", "consent": "true", "transcript": "Welcome back to the show."}, "host.m4a", tone(t, 12, "m4a"), &c); code != 201 {
		t.Fatalf("clone: %d %+v", code, c)
	}
	if c.EngineVoice != "el-voice-1" || vs.forms[0]["name"] != c.ID || !strings.Contains(vs.forms[0]["description"], "Welcome back") {
		t.Errorf("clone: %+v, form %v", c, vs.forms[0])
	}

	var d voices.Design
	code, _ := r.call(t, "POST", "/api/voices/design", map[string]any{"engine": "eleven", "description": "a warm older woman with a Scottish accent, slow"}, &d)
	if code != 200 || len(d.Previews) != 3 || d.Previews[0].GeneratedID != "gen-0" || d.Text != voices.DesignSampleText {
		t.Fatalf("design: %d %+v", code, d)
	}
	// Each sample plays from the blob store.
	resp, err := http.Get(d.Previews[1].URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "preview 1 of a warm older woman") {
		t.Errorf("sample: %d %q", resp.StatusCode, body)
	}
	var saved voices.Voice
	code, _ = r.call(t, "POST", "/api/voices/design/save", map[string]any{"engine": "eleven", "generated_id": "gen-1", "name": "Morag", "gender": "female", "age": "old", "accent": "Scottish"}, &saved)
	if code != 201 || saved.Source != voices.SourceDesign || saved.EngineVoice != "el-designed-gen-1" || saved.Consent != nil {
		t.Fatalf("save: %d %+v", code, saved)
	}
	// The designed voice speaks by its ElevenLabs voice id.
	if code, _ := r.call(t, "POST", "/api/voices/"+saved.ID+"/preview", nil, nil); code != 200 {
		t.Fatalf("preview: %d", code)
	}
	if vs.spoken[len(vs.spoken)-1] != "el-designed-gen-1" {
		t.Errorf("spoke as %v", vs.spoken)
	}
	// Every call carried the card's key, in ElevenLabs' header.
	if len(vs.keys) != 4 {
		t.Errorf("%d calls carried xi-api-key, want 4", len(vs.keys))
	}
	for _, k := range vs.keys {
		if k != "xi-secret-7777" {
			t.Errorf("key %q", k)
		}
	}
}

func TestDesignOfflineWithEspeakThenSaveAndSpeak(t *testing.T) {
	r := newRig(t)
	var d voices.Design
	code, _ := r.call(t, "POST", "/api/voices/design", map[string]any{"engine": "espeak-ng", "description": "warm older woman, Scottish, slow"}, &d)
	if code != 200 || len(d.Previews) != 3 {
		t.Fatalf("design: %d %+v", code, d)
	}
	first := d.Previews[0]
	if first.GeneratedID != "en-gb-scotland+grandma;pitch=56;rate=85" || first.Gender != voices.GenderFemale || first.Age != voices.AgeOld || first.Language != "en-gb" || first.Accent != "Scottish" {
		t.Errorf("first candidate: %+v", first)
	}
	// Real samples: WAV from espeak-ng, at their URLs.
	resp, err := http.Get(first.URL)
	if err != nil {
		t.Fatal(err)
	}
	wav, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(wav) < 20000 || string(wav[:4]) != "RIFF" {
		t.Fatalf("sample: %d, %d bytes", resp.StatusCode, len(wav))
	}
	// The same description designs the same voices.
	var again voices.Design
	r.call(t, "POST", "/api/voices/design", map[string]any{"engine": "espeak-ng", "description": "warm older woman, Scottish, slow"}, &again)
	for i := range d.Previews {
		if again.Previews[i].GeneratedID != d.Previews[i].GeneratedID {
			t.Errorf("candidate %d: %q then %q", i, d.Previews[i].GeneratedID, again.Previews[i].GeneratedID)
		}
	}

	var v voices.Voice
	code, _ = r.call(t, "POST", "/api/voices/design/save", map[string]any{
		"engine": "espeak-ng", "generated_id": first.GeneratedID, "name": "Morag", "description": "warm older woman, Scottish, slow",
		"language": first.Language, "accent": first.Accent, "gender": first.Gender, "age": first.Age,
	}, &v)
	if code != 201 || v.Source != voices.SourceDesign || v.Engine != "espeak-ng" || v.EngineVoice != first.GeneratedID {
		t.Fatalf("save: %d %+v", code, v)
	}
	var p voices.Preview
	if code, _ := r.call(t, "POST", "/api/voices/"+v.ID+"/preview", nil, &p); code != 200 || p.Cached {
		t.Fatalf("preview of the designed voice: %d %+v", code, p)
	}
	// A generated id that is no espeak-ng voice is refused, nothing stored.
	var bad problem
	code, _ = r.call(t, "POST", "/api/voices/design/save", map[string]any{"engine": "espeak-ng", "generated_id": "en;pitch=500", "name": "Broken"}, &bad)
	if code != 422 || !strings.Contains(bad.Detail, "pitch") {
		t.Errorf("bad generated id: %d %+v", code, bad)
	}
}

func TestDesignRefusesEnginesWithoutADesignCall(t *testing.T) {
	r := newRig(t)
	vs := newVoiceServer(t)
	r.addVoiceCard(t, "chatterbox", cards.VoiceAPIChatterbox, vs.srv.URL+"/cb/v1")
	for _, c := range []struct {
		body     map[string]any
		mentions string
	}{
		{map[string]any{"engine": "chatterbox", "description": "a calm narrator"}, "chatterbox"},
		{map[string]any{"engine": "ghost", "description": "a calm narrator"}, "ghost"},
		{map[string]any{"engine": "espeak-ng", "description": "   "}, "description"},
		{map[string]any{"engine": "espeak-ng", "description": strings.Repeat("very ", 300)}, "description"},
	} {
		var p problem
		code, _ := r.call(t, "POST", "/api/voices/design", c.body, &p)
		text := p.Detail
		for _, e := range p.Errors {
			text += " " + e.Message + " " + e.Location
		}
		if code != 422 || !strings.Contains(text, c.mentions) {
			t.Errorf("%v: %d %q", c.body, code, text)
		}
	}
	if vs.calls() != 0 {
		t.Errorf("engine called %d times", vs.calls())
	}
}

// TestDeletingACloneLeavesNothingOfTheSpeaker (issue 30): deleting a clone
// removes it on the engine that holds it (Chatterbox and ElevenLabs each by
// their own delete call), and its recording and preview from the blob
// store: a local folder, and MinIO with a versioned bucket as the
// template's media bucket is, where no version of either is left. An
// engine that fails the delete keeps everything, so it can be retried.
func TestDeletingACloneLeavesNothingOfTheSpeaker(t *testing.T) {
	s3Client := s3test.Client(t)
	var bucket string // the bucket of the subtest running
	for _, store := range []struct {
		name string
		at   func(string) blob.Store
	}{
		{"local folder", nil},
		{"versioned S3 bucket", func(string) blob.Store {
			bucket = s3test.Bucket(t, s3Client, true)
			return s3blob.New(s3Client, bucket)
		}},
	} {
		for _, engine := range []struct {
			name string
			api  cards.VoiceAPI
			path string
			file string
		}{{"chatterbox", cards.VoiceAPIChatterbox, "/cb/v1", "jean.wav"}, {"eleven", cards.VoiceAPIElevenLabs, "/el/v1", "jean.mp3"}} {
			t.Run(store.name+"/"+engine.name, func(t *testing.T) {
				r := newRigOn(t, store.at)
				vs := newVoiceServer(t)
				r.addVoiceCard(t, engine.name, engine.api, vs.srv.URL+engine.path)
				var v voices.Voice
				ext := filepath.Ext(engine.file)[1:]
				if code := r.clone(t, map[string]string{"engine": engine.name, "name": "Grandma Jean", "consent": "true"}, engine.file, tone(t, 8, ext), &v); code != 201 {
					t.Fatalf("clone: %d %+v", code, v)
				}
				if code, _ := r.call(t, "POST", "/api/voices/"+v.ID+"/preview", nil, nil); code != 200 {
					t.Fatalf("preview: %d", code)
				}
				left := func() []string { // what the blob store holds of voices
					infos, err := r.blobs.List(context.Background(), "voices/")
					if err != nil {
						t.Fatal(err)
					}
					var keys []string
					for _, in := range infos {
						keys = append(keys, in.Key)
					}
					return keys
				}
				if n := len(left()); n != 2 {
					t.Fatalf("before delete the store holds %v, want the recording and the preview", left())
				}

				vs.deleteStatus = http.StatusServiceUnavailable
				if code, _ := r.call(t, "DELETE", "/api/voices/"+v.ID, nil, nil); code != http.StatusBadGateway {
					t.Fatalf("delete while the engine fails: %d, want 502", code)
				}
				if code, _ := r.call(t, "GET", "/api/voices/"+v.ID, nil, nil); code != 200 || len(left()) != 2 {
					t.Fatalf("a failed engine delete lost the voice (%d) or its files (%v)", code, left())
				}

				vs.deleteStatus = 0
				if code, _ := r.call(t, "DELETE", "/api/voices/"+v.ID, nil, nil); code != http.StatusNoContent {
					t.Fatalf("delete: %d", code)
				}
				if len(vs.deleted) != 1 || vs.deleted[0] != v.EngineVoice || len(vs.uploads) != 0 {
					t.Errorf("engine deleted %v (holds %d voices), want %s gone", vs.deleted, len(vs.uploads), v.EngineVoice)
				}
				if keys := left(); len(keys) != 0 {
					t.Errorf("the blob store still holds %v", keys)
				}
				if store.at != nil {
					versions, err := s3Client.ListObjectVersions(context.Background(), &s3.ListObjectVersionsInput{Bucket: &bucket, Prefix: aws.String("voices/")})
					if err != nil {
						t.Fatal(err)
					}
					if n := len(versions.Versions) + len(versions.DeleteMarkers); n != 0 {
						t.Errorf("the bucket keeps %d versions or markers of the speaker", n)
					}
				}
				if code, _ := r.call(t, "GET", "/api/voices/"+v.ID, nil, nil); code != http.StatusNotFound {
					t.Errorf("get after delete: %d", code)
				}
			})
		}
	}
}

// TestEditAClone (issue 30): a clone's name, description, language, tags
// and the rest are edited as any voice's; its engine voice, source and
// consent stay, and a preview in the old language (its sample sentence is
// English, the new one French) is deleted with the change that makes it
// unreachable.
func TestEditAClone(t *testing.T) {
	r := newRig(t)
	vs := newVoiceServer(t)
	r.addVoiceCard(t, "chatterbox", cards.VoiceAPIChatterbox, vs.srv.URL+"/cb/v1")
	var v voices.Voice
	if code := r.clone(t, map[string]string{"engine": "chatterbox", "name": "Grandma Jean", "consent": "true", "consent_by": "Ann"}, "jean.wav", tone(t, 8, "wav"), &v); code != 201 {
		t.Fatalf("clone: %d %+v", code, v)
	}
	var p voices.Preview
	if code, _ := r.call(t, "POST", "/api/voices/"+v.ID+"/preview", nil, &p); code != 200 {
		t.Fatalf("preview: %d", code)
	}
	r.call(t, "GET", "/api/voices/"+v.ID, nil, &v) // the preview was recorded on it
	var edited struct {
		voices.Voice
		Detail string
	}
	code, _ := r.call(t, "PUT", "/api/voices/"+v.ID, map[string]any{
		"name": "Jean MacLeod", "description": "Grandma reading", "language": "fr-fr", "accent": "Parisian",
		"tags": []string{"family"}, "engine": v.Engine, "engine_voice": v.EngineVoice, "version": v.Version,
	}, &edited)
	if code != 200 || edited.Name != "Jean MacLeod" || edited.Language != "fr-fr" || edited.Accent != "Parisian" ||
		edited.Source != voices.SourceClone || edited.EngineVoice != v.EngineVoice || edited.Consent == nil || edited.Consent.By != "Ann" {
		t.Fatalf("edit of a clone: %d %+v", code, edited)
	}
	if _, err := r.blobs.Head(context.Background(), p.Key); !errors.Is(err, blob.ErrNotFound) {
		t.Errorf("the preview in the old language is still stored: %v", err)
	}
	if _, err := r.blobs.Head(context.Background(), voices.ReferenceKey(v.ID, voices.FormatWAV)); err != nil {
		t.Errorf("the recording went with an edit: %v", err)
	}
	var prob problem
	code, _ = r.call(t, "PUT", "/api/voices/"+v.ID, map[string]any{"name": "Jean", "engine": v.Engine, "engine_voice": "someone-else"}, &prob)
	if code != 422 || !strings.Contains(prob.Detail, "cloned as") {
		t.Errorf("moving a clone to another engine voice: %d %+v", code, prob)
	}
}

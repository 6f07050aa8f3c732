package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/characters"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/platform"
	"github.com/lectern/lectern/shared/settings"
)

// imagesStandIn is an OpenAI-compatible engine on 127.0.0.1: the images
// API answering real PNGs (a gateway without /images/edits answers those
// 405), and chat completions with image input answering the description
// of a portrait as a vision model would.
type imagesStandIn struct {
	srv *httptest.Server
	mu  sync.Mutex
	// calls are "generations: <prompt>" and "edits: <prompt>".
	calls   []string
	noEdits bool
	seen    [][]byte // images the vision endpoint was sent
	n       int
}

func newImagesStandIn(t *testing.T, noEdits bool) *imagesStandIn {
	e := &imagesStandIn{noEdits: noEdits}
	e.srv = httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(e.srv.Close)
	return e
}

// standInPNG is a real PNG that differs from call to call.
func standInPNG(n int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 96, 96))
	for y := range 96 {
		for x := range 96 {
			img.Set(x, y, color.RGBA{uint8(x * 2), uint8(y * 2), uint8(40 * n), 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

func (e *imagesStandIn) serve(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/v1/images/generations":
		var req struct {
			Prompt string `json:"prompt"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		e.calls = append(e.calls, "generations: "+req.Prompt)
	case "/v1/images/edits":
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		e.calls = append(e.calls, "edits: "+r.FormValue("prompt"))
		if e.noEdits {
			http.Error(w, `{"error":{"message":"Method Not Allowed"}}`, http.StatusMethodNotAllowed)
			return
		}
	case "/v1/chat/completions":
		var req struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		for _, m := range req.Messages {
			var parts []struct {
				ImageURL struct {
					URL string `json:"url"`
				} `json:"image_url"`
			}
			if json.Unmarshal(m.Content, &parts) == nil {
				for _, p := range parts {
					if _, data, ok := strings.Cut(p.ImageURL.URL, ";base64,"); ok {
						b, _ := base64.StdEncoding.DecodeString(data)
						e.seen = append(e.seen, b)
					}
				}
			}
		}
		answer, _ := json.Marshal(`{"hair": "wild orange", "facial_hair": "none", "eyes": "green"}`)
		fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"v","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%s}}]}`, answer)
		return
	default:
		http.NotFound(w, r)
		return
	}
	e.n++
	fmt.Fprintf(w, `{"created":1,"data":[{"b64_json":%q}]}`, base64.StdEncoding.EncodeToString(standInPNG(e.n)))
}

func (e *imagesStandIn) log() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.calls)
}

// charactersApp is the local app with an image card and a vision engine on
// the stand-in, and the characters of Alice extracted by rules.
func charactersApp(t *testing.T, noEdits bool) (*apiClient, *imagesStandIn, string) {
	t.Helper()
	c := newLocalApp(t)
	eng := newImagesStandIn(t, noEdits)
	if st, _, b := c.do(http.MethodPut, "/api/engines/pictures", []byte(`{"kind":"image","base_url":"`+eng.srv.URL+`/v1"}`)); st != http.StatusOK && st != http.StatusCreated {
		t.Fatalf("image card: %d %s", st, b)
	}
	if st, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"vision_ocr_url":"`+eng.srv.URL+`/v1"}`)); st != http.StatusOK {
		t.Fatalf("settings: %d %s", st, b)
	}
	return c, eng, c.extractAlice()
}

// extractAlice posts PDNC's Alice to POST /api/characters, waits for the
// extraction job to succeed and returns the set's id.
func (c *apiClient) extractAlice() string {
	c.t.Helper()
	body, _ := json.Marshal(map[string]string{"title": "Alice", "text": string(aliceText(c.t))})
	st, _, b := c.do(http.MethodPost, "/api/characters", body)
	started := decode[struct {
		Set   characters.Set `json:"set"`
		JobID string         `json:"job_id"`
	}](c.t, b)
	if st != http.StatusAccepted || started.JobID == "" {
		c.t.Fatalf("extract: %d %s", st, b)
	}
	if v := c.waitJob(started.JobID); v.Status != jobs.StatusSucceeded {
		c.t.Fatalf("extract job: %s %s", v.Status, v.Error)
	}
	return started.Set.ID
}

func (c *apiClient) characterSet(set string) (characters.Set, []characters.Character) {
	c.t.Helper()
	out := decode[struct {
		Set        characters.Set
		Characters []characters.Character
	}](c.t, c.get("/api/characters/"+set))
	return out.Set, out.Characters
}

func (c *apiClient) character(set, id string) characters.Character {
	c.t.Helper()
	return decode[characters.Character](c.t, c.get("/api/characters/"+set+"/"+id))
}

// runJob starts a job and fails unless it succeeded.
func (c *apiClient) runJob(path, body string) {
	c.t.Helper()
	if v := c.waitJob(c.startJob(path, body)); v.Status != jobs.StatusSucceeded {
		c.t.Fatalf("POST %s: job %s: %s", path, v.Status, v.Error)
	}
}

func rabbitOf(t *testing.T, chars []characters.Character) characters.Character {
	t.Helper()
	i := slices.IndexFunc(chars, func(c characters.Character) bool { return strings.Contains(c.Name, "Rabbit") })
	if i < 0 {
		t.Fatalf("no Rabbit among %d characters", len(chars))
	}
	return chars[i]
}

func TestCharactersImagesWithAGatewayWithoutEdits(t *testing.T) {
	c, eng, set := charactersApp(t, true)
	st, chars := c.characterSet(set)
	if st.Status != characters.StatusReady || st.Method != "rules" || len(chars) < 10 || chars[0].Name != "Alice" {
		t.Fatalf("set %+v with %d characters", st, len(chars))
	}
	rabbit := rabbitOf(t, chars)
	base := rabbit.Forms[0]
	if base.ID != "base" || rabbit.ActiveForm != "base" || !strings.HasPrefix(base.ImagePrompt, "head-and-shoulders portrait, "+rabbit.Name) ||
		base.Fingerprint != characters.Fingerprint(rabbit.Inputs(&base)) {
		t.Fatalf("base form %+v", base)
	}
	formPath := "/api/characters/" + set + "/" + rabbit.ID + "/forms/base"

	// The pair: the avatar generated, the concept image an edit with the
	// avatar as reference, which this gateway answers 405: recovered.
	c.runJob(formPath+"/images", `{"kind":"pair"}`)
	rabbit = c.character(set, rabbit.ID)
	f := rabbit.Forms[0]
	if f.Avatar == nil || f.Concept == nil || f.Concept.Pair != f.Avatar.ID || f.PairBroken || f.Stale {
		t.Fatalf("after the pair: %+v", f)
	}
	if !f.Concept.FellBack || !strings.Contains(f.Concept.Note, "405") || f.Avatar.FellBack {
		t.Errorf("the concept image's 405 is not noted: %+v", f.Concept)
	}
	calls := eng.log()
	want := []string{"generations: " + f.Prompts.Avatar, "edits: " + f.Prompts.Concept, "generations: " + f.Prompts.Concept}
	if !slices.Equal(calls, want) {
		t.Errorf("engine calls\n%q\nwant\n%q", calls, want)
	}
	// The stored image is the engine's PNG, served through its link and
	// through the API's redirect.
	avatarPNG := fetch(t, f.Avatar.URL)
	if viaAPI := c.get(formPath + "/images/" + f.Avatar.ID); !bytes.Equal(viaAPI, avatarPNG) {
		t.Errorf("the API serves another image than the link")
	}
	if _, err := png.Decode(bytes.NewReader(avatarPNG)); err != nil {
		t.Fatalf("avatar is not a PNG: %v", err)
	}

	// Review: the pair passes; the vision engine describes the portrait it
	// is sent, and the turnaround prompt is rebuilt from the description.
	before := f.Prompts.Turnaround
	c.runJob(formPath+"/review", "")
	rabbit = c.character(set, rabbit.ID)
	f = rabbit.Forms[0]
	if f.Review == nil || !f.Review.Passed {
		t.Fatalf("review %+v", f.Review)
	}
	if len(eng.seen) != 1 || !bytes.Equal(eng.seen[0], avatarPNG) {
		t.Errorf("the vision engine was sent %d images, not the form's avatar", len(eng.seen))
	}
	if f.Description == nil || f.Description.Hair != "wild orange" || f.Description.Avatar != f.Avatar.ID {
		t.Fatalf("description %+v", f.Description)
	}
	if f.Prompts.Turnaround == before || !strings.Contains(f.Prompts.Turnaround, "wild orange hair") || !strings.Contains(f.Prompts.Turnaround, "green eyes") ||
		strings.Contains(f.Prompts.Turnaround, "pink eyes") || !strings.HasPrefix(f.Prompts.Turnaround, "character turnaround sheet, front, side and back") {
		t.Errorf("turnaround prompt not rebuilt from the description:\n before %s\n after  %s", before, f.Prompts.Turnaround)
	}
	if strings.Contains(f.Prompts.Avatar, "orange") {
		t.Errorf("the portrait prompt took the description: %s", f.Prompts.Avatar)
	}

	// The character sheet is an edit with the avatar: 405, recovered with
	// the rebuilt prompt, and noted.
	c.runJob(formPath+"/images", `{"kind":"turnaround"}`)
	f = c.character(set, rabbit.ID).Forms[0]
	if f.Turnaround == nil || !f.Turnaround.FellBack || !strings.Contains(f.Turnaround.Note, "405") || f.Turnaround.Prompt != f.Prompts.Turnaround {
		t.Fatalf("turnaround %+v", f.Turnaround)
	}
	if last := eng.log()[len(eng.log())-1]; last != "generations: "+f.Prompts.Turnaround {
		t.Errorf("last call %q", last)
	}

	// A story image of a chosen passage: the scene after the framing, the
	// character as the description has it.
	c.runJob(formPath+"/images", `{"kind":"story","passage":"`+rabbit.Passages[0].ID+`"}`)
	f = c.character(set, rabbit.ID).Forms[0]
	words := strings.Fields(rabbit.Passages[0].Text)
	if len(f.Story) != 1 || !strings.HasPrefix(f.Story[0].Prompt, "story illustration, "+strings.Join(words[:min(5, len(words))], " ")) ||
		!strings.Contains(f.Story[0].Prompt, "wild orange hair") || !f.Story[0].FellBack || f.Story[0].Passage != rabbit.Passages[0].Text {
		t.Errorf("story image %+v", f.Story)
	}
}

func TestCharactersFormGoesStaleAfterAnEdit(t *testing.T) {
	c, _, set := charactersApp(t, false)
	_, chars := c.characterSet(set)
	rabbit := rabbitOf(t, chars)
	path := "/api/characters/" + set + "/" + rabbit.ID
	c.runJob(path+"/forms/base/images", `{"kind":"pair"}`)
	rabbit = c.character(set, rabbit.ID)
	f := rabbit.Forms[0]
	if f.Stale || f.Concept == nil || f.Concept.FellBack || f.Concept.Reference != f.Avatar.ID {
		t.Fatalf("fresh pair %+v", f)
	}

	// An edit of the clothing (the active form's) changes the fingerprint
	// and marks the form stale.
	st, h, b := c.do(http.MethodPatch, path, []byte(`{"clothing":"waistcoat with a watch, white kid gloves, a large fan"}`), "If-Match", fmt.Sprintf(`"%d"`, rabbit.Version))
	if st != http.StatusOK {
		t.Fatalf("edit: %d %s", st, b)
	}
	edited := decode[characters.Character](t, b)
	ef := edited.Forms[0]
	if !ef.Stale || ef.Fingerprint == f.Fingerprint || ef.Fingerprint != characters.Fingerprint(edited.Inputs(&ef)) || h.Get("ETag") != fmt.Sprintf(`"%d"`, edited.Version) {
		t.Fatalf("after the edit: stale %v, fingerprint %s (was %s)", ef.Stale, ef.Fingerprint, f.Fingerprint)
	}
	// The browser's preview of the same inputs has the same fingerprint.
	in, _ := json.Marshal(edited.Inputs(&ef))
	pv := decode[struct{ Fingerprint string }](t, mustPost(t, c, "/api/characters/prompts", in))
	if pv.Fingerprint != ef.Fingerprint {
		t.Errorf("preview fingerprint %s, form %s", pv.Fingerprint, ef.Fingerprint)
	}
	// An edit made on the old version is refused.
	if st, _, b := c.do(http.MethodPatch, path, []byte(`{"clothing":"x"}`), "If-Match", fmt.Sprintf(`"%d"`, rabbit.Version)); st != http.StatusConflict {
		t.Errorf("stale If-Match: %d %s", st, b)
	}
	// A visual_* override alone marks it stale too.
	c.runJob(path+"/forms/base/images", `{"kind":"pair"}`)
	if f := c.character(set, rabbit.ID).Forms[0]; f.Stale {
		t.Fatalf("a new pair is still stale")
	}
	if st, _, b := c.do(http.MethodPatch, path, []byte(`{"visual":{"visual_palette":"red and white"}}`)); st != http.StatusOK || !decode[characters.Character](t, b).Forms[0].Stale {
		t.Fatalf("override: %d %s", st, b)
	}

	// An avatar made alone uses the deterministic prompt and flags the
	// pair; the concept image, made before the override, keeps it stale.
	c.runJob(path+"/forms/base/images", `{"kind":"avatar"}`)
	f = c.character(set, rabbit.ID).Forms[0]
	if !f.PairBroken || f.Avatar.Prompt != f.Prompts.Avatar || !strings.Contains(f.Avatar.Note, "pair is broken") ||
		f.Avatar.Fingerprint != f.Fingerprint || !f.Stale {
		t.Fatalf("avatar alone: pair broken %v, stale %v, note %q", f.PairBroken, f.Stale, f.Avatar.Note)
	}
	// The review checks this form's own pair and says it is broken.
	c.runJob(path+"/forms/base/review", "")
	f = c.character(set, rabbit.ID).Forms[0]
	if f.Review == nil || f.Review.Passed || !slices.ContainsFunc(f.Review.Checks, func(ch characters.Check) bool { return ch.Name == "pair" && !ch.OK }) {
		t.Fatalf("review of a broken pair %+v", f.Review)
	}

	// A second form is the active one: edits go to it, the base keeps its own.
	st, _, b = c.do(http.MethodPost, path+"/forms", []byte(`{"name":"tiny"}`))
	withForm := decode[characters.Character](t, b)
	if st != http.StatusCreated || len(withForm.Forms) != 2 || withForm.ActiveForm != withForm.Forms[1].ID {
		t.Fatalf("add form: %d %s", st, b)
	}
	_, _, b = c.do(http.MethodPatch, path, []byte(`{"physical":"three inches high"}`))
	after := decode[characters.Character](t, b)
	if after.Forms[1].Physical != "three inches high" || after.Forms[0].Physical == "three inches high" || after.Forms[1].Stale {
		t.Fatalf("edit of the active form: %+v", after.Forms)
	}
}

func fetch(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return b
}

func mustPost(t *testing.T, c *apiClient, path string, body []byte) []byte {
	t.Helper()
	st, _, b := c.do(http.MethodPost, path, body)
	if st != http.StatusOK {
		t.Fatalf("POST %s: %d %s", path, st, b)
	}
	return b
}

func TestCharactersRefusals(t *testing.T) {
	c := newLocalApp(t)
	for _, tc := range []struct {
		method, path, body string
		want               int
	}{
		{http.MethodPost, "/api/characters", `{"text":"   "}`, http.StatusUnprocessableEntity},
		{http.MethodGet, "/api/characters/0123456789abcdef", "", http.StatusNotFound},
		{http.MethodPost, "/api/characters/0123456789abcdef/alice/forms/base/images", `{"kind":"poster"}`, http.StatusUnprocessableEntity},
		{http.MethodPost, "/api/characters/0123456789abcdef/alice/forms/base/images", `{"kind":"avatar"}`, http.StatusNotFound},
		{http.MethodPost, "/api/characters", `{"book_id":"nosuchbook"}`, http.StatusNotFound},
	} {
		var body []byte
		if tc.body != "" {
			body = []byte(tc.body)
		}
		if st, _, b := c.do(tc.method, tc.path, body); st != tc.want {
			t.Errorf("%s %s %s = %d %s, want %d", tc.method, tc.path, tc.body, st, b, tc.want)
		}
	}

	// Without an image card the image job fails saying what to add.
	st, _, b := c.do(http.MethodPost, "/api/characters", []byte(`{"title":"Knave","text":"The Knave of Hearts, in a crimson tabard, stood in chains. \"I did not,\" said the Knave of Hearts. \"You did,\" said the Queen."}`))
	started := decode[struct {
		Set   characters.Set `json:"set"`
		JobID string         `json:"job_id"`
	}](t, b)
	if st != http.StatusAccepted || c.waitJob(started.JobID).Status != jobs.StatusSucceeded {
		t.Fatalf("extract: %d %s", st, b)
	}
	_, chars := c.characterSet(started.Set.ID)
	if len(chars) == 0 {
		t.Fatal("no characters")
	}
	v := c.waitJob(c.startJob("/api/characters/"+started.Set.ID+"/"+chars[0].ID+"/forms/base/images", `{"kind":"avatar"}`))
	if v.Status != jobs.StatusFailed || !strings.Contains(v.Error, "engine card of kind image") {
		t.Errorf("avatar without an image card: %s %q", v.Status, v.Error)
	}
	// A card of another kind is refused by name.
	if st, _, b := c.do(http.MethodPut, "/api/engines/speaker", []byte(`{"kind":"tts","base_url":"http://127.0.0.1:9/v1"}`)); st != http.StatusOK && st != http.StatusCreated {
		t.Fatalf("tts card: %d %s", st, b)
	}
	v = c.waitJob(c.startJob("/api/characters/"+started.Set.ID+"/"+chars[0].ID+"/forms/base/images", `{"kind":"avatar","card":"speaker"}`))
	if v.Status != jobs.StatusFailed || !strings.Contains(v.Error, `"speaker" is a tts card, not image`) {
		t.Errorf("avatar with a tts card: %s %q", v.Status, v.Error)
	}
}

// quietReporter drops progress, for running a job handler directly.
type quietReporter struct{}

func (quietReporter) Progress(context.Context, float64, string) error { return nil }

// characterPayloads are TestWorkerRunsEveryRegisteredKind's payloads of the
// Characters jobs: a set of pasted text extracted by rules (the LLM
// cleared from Settings), an avatar through an image card on the
// stand-in, and a review.
func characterPayloads(ctx context.Context, d *platform.Deps, cardSvc *cards.Service) map[string]func(t *testing.T) json.RawMessage {
	svc := characters.NewService(d.Table, d.Blobs, d.Jobs, nil, characters.Engines{}, d.Clock)
	text := "Chapter 1\n\nThe Knave of Hearts, a thin young man in a crimson tabard, stood in chains. \"I did not,\" said the Knave of Hearts. " +
		"\"You did,\" said the Queen.\n\n\"Off with his head!\" said the Queen. \"Never,\" said the Knave of Hearts.\n"
	rulesOnly := func(t *testing.T) {
		empty := ""
		if _, err := d.Settings.Update(ctx, settings.Update{LLMURL: &empty}); err != nil {
			t.Fatal(err)
		}
	}
	// character is the first character of a set extracted in-process.
	character := func(t *testing.T) (string, string) {
		rulesOnly(t)
		set, job, err := svc.StartExtract(ctx, characters.ExtractRequest{Title: "Knave", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.ExtractJob(ctx, job.Payload, quietReporter{}); err != nil {
			t.Fatal(err)
		}
		_, chars, err := svc.Get(ctx, set.ID)
		if err != nil || len(chars) == 0 {
			t.Fatalf("extracted %d characters: %v", len(chars), err)
		}
		return set.ID, chars[0].ID
	}
	return map[string]func(t *testing.T) json.RawMessage{
		characters.ExtractJobKind: func(t *testing.T) json.RawMessage {
			rulesOnly(t)
			_, job, err := svc.StartExtract(ctx, characters.ExtractRequest{Title: "Knave", Text: text})
			if err != nil {
				t.Fatal(err)
			}
			return job.Payload
		},
		characters.ImageJobKind: func(t *testing.T) json.RawMessage {
			eng := newImagesStandIn(t, false)
			if _, err := cardSvc.Put(ctx, cards.Card{Name: "pictures", Spec: cards.Spec{Kind: cards.KindImage, BaseURL: eng.srv.URL + "/v1"}}); err != nil {
				t.Fatal(err)
			}
			set, char := character(t)
			job, err := svc.StartImage(ctx, set, char, "", characters.ImageRequest{Kind: "avatar"})
			if err != nil {
				t.Fatal(err)
			}
			return job.Payload
		},
		characters.ReviewJobKind: func(t *testing.T) json.RawMessage {
			set, char := character(t)
			job, err := svc.StartReview(ctx, set, char, "base")
			if err != nil {
				t.Fatal(err)
			}
			return job.Payload
		},
	}
}

// TestCharactersExtractedWithAnLLM: with an LLM in Settings (a stand-in on
// 127.0.0.1 answering chat completions by the schema asked for), the cast
// is refined and the facts are the LLM's, each citing a passage; the
// image_prompt it volunteers is never used.
func TestCharactersExtractedWithAnLLM(t *testing.T) {
	c := newLocalApp(t)
	var mu sync.Mutex
	asked := map[string]int{}
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
			ResponseFormat struct {
				JSONSchema struct {
					Name string `json:"name"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 {
			http.Error(w, "not a chat completion", http.StatusBadRequest)
			return
		}
		name := req.ResponseFormat.JSONSchema.Name
		mu.Lock()
		asked[name]++
		mu.Unlock()
		switch name {
		case "cast":
			writeChatAnswer(w, `{"characters":[],"not_characters":[]}`)
		case "character_facts":
			// Facts for the Queen when she is asked about, citing her first passage.
			user := req.Messages[1].Content
			if !strings.Contains(user, "Character id the-queen") {
				writeChatAnswer(w, `{"characters":[]}`)
				return
			}
			writeChatAnswer(w, `{"characters":[{"id":"the-queen","image_prompt":"an epic queen in golden armour",`+
				`"physical":[{"text":"a stout woman with a round red face","passages":["p1"]}],"clothing":[{"text":"a crimson gown with hearts","passages":["p1"]}],"age":[]}]}`)
		default:
			http.Error(w, "unknown schema "+name, http.StatusBadRequest)
		}
	}))
	t.Cleanup(llm.Close)
	if st, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"llm_url":"`+llm.URL+`/v1"}`)); st != http.StatusOK {
		t.Fatalf("settings: %d %s", st, b)
	}
	set, chars := c.characterSet(c.extractAlice())
	if set.Method != "llm" || asked["cast"] != 1 || asked["character_facts"] < 2 {
		t.Fatalf("method %q, asked %v", set.Method, asked)
	}
	i := slices.IndexFunc(chars, func(ch characters.Character) bool { return ch.ID == "the-queen" })
	if i < 0 {
		t.Fatal("no Queen")
	}
	q := chars[i]
	f := q.Forms[0]
	if len(q.Facts.Physical) != 1 || q.Facts.Physical[0].Passages[0] != "p1" || f.Clothing != "a crimson gown with hearts" {
		t.Fatalf("queen's facts %+v, form %+v", q.Facts, f)
	}
	if strings.Contains(f.ImagePrompt, "armour") || !strings.HasPrefix(f.ImagePrompt, "head-and-shoulders portrait, The Queen, a stout woman with a round red face, a crimson gown with hearts") {
		t.Errorf("the portrait prompt is not the deterministic one: %s", f.ImagePrompt)
	}
}

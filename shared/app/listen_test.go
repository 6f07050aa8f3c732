package app

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/readaloud"
	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/voices"
)

func needSpeechTools(t *testing.T) {
	t.Helper()
	for _, c := range []string{"espeak-ng", "ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("%s is not installed (make deps-system)", c)
		}
	}
}

// newArticle groups regions into an article with a title and returns its id.
func (c *apiClient) newArticle(id, title string, refs ...magazine.RegionRef) string {
	c.t.Helper()
	body, err := json.Marshal(map[string]any{"title": title, "regions": refs})
	if err != nil {
		c.t.Fatal(err)
	}
	status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/articles", body)
	if status != http.StatusCreated {
		c.t.Fatalf("create article: %d %s", status, b)
	}
	return decode[struct{ Article magazine.Article }](c.t, b).Article.ID
}

func refOn(page int, r magazine.Region) magazine.RegionRef {
	return magazine.RegionRef{Page: page, Region: r.ID}
}

// startRender posts to an operation that answers a render and returns it,
// failing unless it answered 202 with the render's status URL.
func (c *apiClient) startRender(path, body string) render.Status {
	c.t.Helper()
	status, h, b := c.do(http.MethodPost, path, []byte(body))
	st := decode[render.Status](c.t, b)
	if status != http.StatusAccepted || st.ID == "" || h.Get("Location") != "/api/speech/renders/"+st.ID {
		c.t.Fatalf("POST %s = %d %s (Location %q), want 202 with a render", path, status, b, h.Get("Location"))
	}
	return st
}

// waitRender follows a render until it succeeded.
func (c *apiClient) waitRender(id string) render.Status {
	c.t.Helper()
	var st render.Status
	for deadline := time.Now().Add(slowBound); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		st = decode[render.Status](c.t, c.get("/api/speech/renders/"+id))
		if st.Status.Final() {
			break
		}
	}
	if st.Status != jobs.StatusSucceeded || st.Timings == nil {
		c.t.Fatalf("render %s ended %s: %s", id, st.Status, st.Error)
	}
	return st
}

// sentences lists a finished render's sentences in order.
func sentences(st render.Status) []render.SentenceTiming {
	var out []render.SentenceTiming
	for _, ch := range st.Timings.Chapters {
		out = append(out, ch.Sentences...)
	}
	return out
}

func spokenText(st render.Status) string {
	var texts []string
	for _, s := range sentences(st) {
		texts = append(texts, s.Text)
	}
	return strings.Join(texts, " | ")
}

// ffprobe downloads a finished render's audio and reads what ffprobe says
// of it (JSON) with the given arguments.
func (c *apiClient) ffprobe(id string, args ...string) []byte {
	c.t.Helper()
	resp, err := http.Get(c.base + "/api/speech/renders/" + id + "/audio")
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	audio, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		c.t.Fatalf("audio of %s: %d %v", id, resp.StatusCode, err)
	}
	file := filepath.Join(c.t.TempDir(), "audio")
	if err := os.WriteFile(file, audio, 0o600); err != nil {
		c.t.Fatal(err)
	}
	out, err := exec.Command("ffprobe", append(append([]string{"-v", "error"}, args...), "-of", "json", file)...).Output()
	if err != nil {
		c.t.Fatalf("ffprobe %v: %v", args, err)
	}
	return out
}

// TestListenOverHTTP narrates approved articles with espeak-ng through the
// local app: one article (title first, description only on request, title
// and byline in the file), refusals of articles that are not approved, and
// the whole issue as an M4B with a chapter per approved article in print
// order.
func TestListenOverHTTP(t *testing.T) {
	needSpeechTools(t)
	c := newLocalApp(t)
	id := ingestSample(t, c)
	doc := "/api/magazine/" + id
	voice := voices.EngineVoiceID(voices.BuiltinEngine, "en-us")
	p1, p2, p3 := c.page(id, 1), c.page(id, 2), c.page(id, 3)
	pic := picture(t, p1)
	const description = "A wooden pier in the morning light."
	if status, _, b := c.do(http.MethodPatch, doc+"/images/"+imageID(1, pic), []byte(`{"description":"`+description+`"}`)); status != http.StatusOK {
		t.Fatalf("describe by hand: %d %s", status, b)
	}
	// Created out of print order, so the issue's order is not the ids'.
	storm := c.newArticle(id, "Storm Season Ahead", refOn(2, regionByText(t, p2, "Storm Season")), refOn(2, regionByText(t, p2, "By Mary")), refOn(2, regionByText(t, p2, "Left column 2")))
	c.newArticle(id, "The Lighthouse Keepers", refOn(3, regionByText(t, p3, "The Lighthouse")), refOn(3, regionByText(t, p3, "Left column 3")))
	harbour := c.newArticle(id, "Harbour Reborn", refOn(1, regionByText(t, p1, "Harbour Reborn")), refOn(1, regionByText(t, p1, "By Ada")), refOn(1, pic), refOn(1, regionByText(t, p1, "Left column 1")))
	listen := func(art string) string { return doc + "/articles/" + art + "/listen" }

	t.Run("nothing approved: the issue and an article are refused with 409", func(t *testing.T) {
		before := c.issueState(id)
		status, _, b := c.do(http.MethodPost, doc+"/listen", []byte(`{"voice_id":"`+voice+`"}`))
		c.refused(id, before, status, http.StatusConflict, b, "issue listen without an approved article")
		if !strings.Contains(string(b), "no approved or proposed article") {
			t.Errorf("issue listen: %s does not say there is no approved article", b)
		}
		status, _, b = c.do(http.MethodPost, listen(harbour), []byte(`{"voice_id":"`+voice+`"}`))
		c.refused(id, before, status, http.StatusConflict, b, "listen to an unapproved article")
		if !strings.Contains(string(b), "not approved") {
			t.Errorf("listen: %s does not say the article is not approved", b)
		}
	})

	c.approve(id, harbour)
	c.approve(id, storm)

	t.Run("an approved article is read title first, with its description only when asked", func(t *testing.T) {
		with := c.waitRender(c.startRender(listen(harbour), `{"voice_id":"`+voice+`","descriptions":true}`).ID)
		said := spokenText(with)
		if s := sentences(with); len(s) == 0 || s[0].Text != "Harbour Reborn." || strings.Count(said, "Harbour Reborn") != 1 {
			t.Fatalf("the title is not the first sentence, said once: %s", said)
		}
		d, l := strings.Index(said, description), strings.Index(said, "Left column 1")
		if d < 0 || l < 0 || d > l || !strings.Contains(said, "Ada Lovelace") {
			t.Fatalf("with descriptions the figure's description is not read before the column: %s", said)
		}
		if with.Format != render.FormatMP3 {
			t.Errorf("format %q, want the default mp3", with.Format)
		}
		var probed struct {
			Format struct {
				Tags map[string]string `json:"tags"`
			} `json:"format"`
		}
		if err := json.Unmarshal(c.ffprobe(with.ID, "-show_entries", "format_tags=title,artist"), &probed); err != nil {
			t.Fatal(err)
		}
		if tags := probed.Format.Tags; tags["title"] != "Harbour Reborn" || tags["artist"] != "Ada Lovelace" {
			t.Errorf("the file's tags are %v, want the title and the byline", tags)
		}

		without := c.waitRender(c.startRender(listen(harbour), `{"voice_id":"`+voice+`"}`).ID)
		if said := spokenText(without); strings.Contains(said, "wooden pier") || !strings.Contains(said, "Left column 1") {
			t.Fatalf("without descriptions: %s", said)
		}
		text := func(q string) string {
			return decode[struct{ Text string }](t, c.get(doc+"/articles/"+harbour+"/text?descriptions="+q)).Text
		}
		if !strings.Contains(text("1"), description) || strings.Contains(text("0"), description) {
			t.Errorf("article text: descriptions=1 %q, =0 %q", text("1"), text("0"))
		}
	})

	t.Run("the issue is one M4B with a chapter per approved article in print order", func(t *testing.T) {
		st := c.waitRender(c.startRender(doc+"/listen", `{"voice_id":"`+voice+`"}`).ID)
		if st.Format != render.FormatM4B {
			t.Errorf("format %q, want the default m4b", st.Format)
		}
		var probed struct {
			Chapters []struct {
				Tags struct {
					Title string `json:"title"`
				} `json:"tags"`
			} `json:"chapters"`
		}
		if err := json.Unmarshal(c.ffprobe(st.ID, "-show_chapters"), &probed); err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, ch := range probed.Chapters {
			titles = append(titles, ch.Tags.Title)
		}
		if want := []string{"Harbour Reborn", "Storm Season Ahead"}; !slices.Equal(titles, want) {
			t.Fatalf("chapters %q, want %q (the unapproved article left out)", titles, want)
		}
		if said := spokenText(st); strings.Contains(said, "Lighthouse") || !strings.Contains(said, "Left column 2") {
			t.Errorf("the issue reads: %s", said)
		}
	})

	t.Run("an article changed since approval, an unknown article or issue and a bad voice are refused", func(t *testing.T) {
		if status, _, b := c.do(http.MethodPatch, doc+"/articles/"+storm, []byte(`{"title":"Storm Season"}`)); status != http.StatusOK {
			t.Fatalf("rename: %d %s", status, b)
		}
		before := c.issueState(id)
		for _, tc := range []struct {
			name, path, body string
			want             int
			mention          string
		}{
			{"changed since approval", listen(storm), `{"voice_id":"` + voice + `"}`, 409, "changed since it was approved"},
			{"an unknown article", listen("nosuch"), `{"voice_id":"` + voice + `"}`, 404, "nosuch"},
			{"an unknown issue", "/api/magazine/nosuchissue1/articles/" + harbour + "/listen", `{"voice_id":"` + voice + `"}`, 404, "nosuchissue1"},
			{"an unknown voice", listen(harbour), `{"voice_id":"nope"}`, 422, "nope"},
			{"an unknown format", listen(harbour), `{"voice_id":"` + voice + `","format":"wav"}`, 422, "format"},
			{"no voice", listen(harbour), `{}`, 422, "voice_id"},
		} {
			status, _, b := c.do(http.MethodPost, tc.path, []byte(tc.body))
			c.refused(id, before, status, tc.want, b, tc.name)
			if !strings.Contains(string(b), tc.mention) {
				t.Errorf("%s: %s does not mention %q", tc.name, b, tc.mention)
			}
		}
	})
}

// llmStandIn is an OpenAI-compatible chat engine on 127.0.0.1 for podcast
// scripts: it records the user message of every call and answers what
// answer says for the call's number (1-based since the last reset).
type llmStandIn struct {
	url    string
	mu     sync.Mutex
	users  []string
	answer func(n int) string
	// hold, while set, makes each call wait until it is closed.
	hold chan struct{}
}

func newLLMStandIn(t *testing.T) *llmStandIn {
	t.Helper()
	e := &llmStandIn{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 || req.Messages[1].Role != "user" {
			http.Error(w, "not a chat completion with a system and a user message", http.StatusBadRequest)
			return
		}
		e.mu.Lock()
		e.users = append(e.users, req.Messages[1].Content)
		n, answer, hold := len(e.users), e.answer, e.hold
		e.mu.Unlock()
		if hold != nil {
			<-hold
		}
		writeChatAnswer(w, answer(n))
	}))
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the stand-in LLM listens on %s, not on 127.0.0.1", srv.URL)
	}
	e.url = srv.URL + "/v1"
	return e
}

// answers resets the call count and answers each call with answer(n).
func (e *llmStandIn) answers(answer func(n int) string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.users, e.answer = nil, answer
}

// holdCalls makes calls wait until the returned func is called.
func (e *llmStandIn) holdCalls() (release func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	hold := make(chan struct{})
	e.hold = hold
	return func() {
		e.mu.Lock()
		e.hold = nil
		e.mu.Unlock()
		close(hold)
	}
}

func (e *llmStandIn) calls() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.users)
}

// Scripts the stand-in LLM writes about page 1's article (Harbour Reborn,
// by Ada Lovelace, about the bay): one grounded, one with a number the
// article does not have.
const (
	groundedScript = `{"turns":[{"host":0,"text":"Welcome to Harbour Reborn by Ada Lovelace."},{"host":1,"text":"It is about the bay."},{"host":0,"text":"Thanks for listening."}]}`
	inventedScript = "```json\n" + `{"turns":[{"host":0,"text":"Welcome to Harbour Reborn."},{"host":1,"text":"The harbour now holds 42 boats."},{"host":0,"text":"Thanks for listening."}]}` + "\n```"
)

// TestPodcastOverHTTP writes podcast scripts through the local app: with a
// stand-in LLM (grounded at once, grounded on the second call, never
// grounded, down, answering garbage), without an LLM (deterministic), edits
// with If-Match, and voicing with two espeak-ng voices.
func TestPodcastOverHTTP(t *testing.T) {
	needSpeechTools(t)
	c := newLocalApp(t)
	id := ingestSample(t, c)
	doc := "/api/magazine/" + id
	p1 := c.page(id, 1)
	art := c.newArticle(id, "Harbour Reborn", refOn(1, regionByText(t, p1, "Harbour Reborn")), refOn(1, regionByText(t, p1, "By Ada")),
		refOn(1, regionByText(t, p1, "Left column 1")), refOn(1, regionByText(t, p1, "Right column 1")))
	path := doc + "/articles/" + art + "/podcast"
	us, gb := voices.EngineVoiceID(voices.BuiltinEngine, "en-us"), voices.EngineVoiceID(voices.BuiltinEngine, "en-gb")
	hosts := fmt.Sprintf(`"hosts":[{"name":"Alice","voice_id":%q},{"name":"Bob","voice_id":%q}]`, us, gb)
	llm := newLLMStandIn(t)
	setLLM := func(url string) {
		t.Helper()
		if status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"llm_url":"`+url+`"}`)); status != http.StatusOK {
			t.Fatalf("settings: %d %s", status, b)
		}
	}
	record := func() (readaloud.Record, string) {
		t.Helper()
		status, h, b := c.do(http.MethodGet, path, nil)
		if status != http.StatusOK {
			t.Fatalf("GET podcast: %d %s", status, b)
		}
		return decode[readaloud.Record](t, b), h.Get("ETag")
	}
	script := func(body string) (jobs.Status, string) {
		t.Helper()
		v := c.waitJob(c.startJob(path, "{"+hosts+body+"}"))
		return v.Status, v.Error
	}

	t.Run("an unapproved article has no podcast and gets none", func(t *testing.T) {
		before := c.issueState(id)
		status, _, b := c.do(http.MethodGet, path, nil)
		c.refused(id, before, status, http.StatusNotFound, b, "GET a podcast never written")
		status, _, b = c.do(http.MethodPost, path, []byte("{"+hosts+"}"))
		c.refused(id, before, status, http.StatusConflict, b, "a podcast of an unapproved article")
	})
	c.approve(id, art)
	setLLM(llm.url)

	t.Run("a grounded script from the LLM is stored ok at the first call", func(t *testing.T) {
		llm.answers(func(int) string { return groundedScript })
		if status, msg := script(`,"minutes":2`); status != jobs.StatusSucceeded {
			t.Fatalf("job %s: %s", status, msg)
		}
		rec, etag := record()
		if rec.Status != readaloud.StatusOK || rec.Source != readaloud.SourceLLM || len(rec.Violations) != 0 || rec.Attempts != 1 || rec.Minutes != 2 ||
			rec.Script == nil || len(rec.Script.Turns) != 3 || rec.Script.Hosts[1].Name != "Bob" || etag != fmt.Sprintf("%q", fmt.Sprint(rec.Version)) {
			t.Fatalf("record %+v (ETag %s)", rec, etag)
		}
		calls := llm.calls()
		if len(calls) != 1 || !strings.Contains(calls[0], "Left column 1") || !strings.Contains(calls[0], "Ada Lovelace") {
			t.Fatalf("the LLM was asked %d times, first with %q", len(calls), calls)
		}
	})

	t.Run("an invented number is asked for again, naming it, and the grounded answer is kept", func(t *testing.T) {
		llm.answers(func(n int) string {
			if n == 1 {
				return inventedScript
			}
			return groundedScript
		})
		if status, msg := script(""); status != jobs.StatusSucceeded {
			t.Fatalf("job %s: %s", status, msg)
		}
		rec, _ := record()
		calls := llm.calls()
		if len(calls) != 2 || rec.Status != readaloud.StatusOK || len(rec.Violations) != 0 || rec.Attempts != 2 || rec.Minutes != readaloud.DefaultMinutes {
			t.Fatalf("%d calls, record %+v", len(calls), rec)
		}
		if !strings.Contains(calls[1], `the number "42"`) || strings.Contains(calls[0], "42") {
			t.Errorf("the second call does not name the invented number:\n%s", calls[1])
		}
	})

	t.Run("a model that always invents gives a flagged script after three calls", func(t *testing.T) {
		llm.answers(func(int) string { return inventedScript })
		if status, msg := script(""); status != jobs.StatusSucceeded {
			t.Fatalf("job %s: %s", status, msg)
		}
		rec, _ := record()
		want := readaloud.Violation{Turn: 1, Kind: "number", Text: "42"}
		if n := len(llm.calls()); n != readaloud.MaxAttempts || rec.Status != readaloud.StatusFlagged || !slices.Contains(rec.Violations, want) || rec.Script.Turns[1].Text != "The harbour now holds 42 boats." {
			t.Fatalf("%d calls, record %+v", n, rec)
		}
	})

	t.Run("a script more than 15% over its minutes is cut at a turn boundary, keeping its closing", func(t *testing.T) {
		text := decode[struct{ Text string }](t, c.get(doc+"/articles/"+art+"/text")).Text
		columns := strings.Split(text, "\n\n")[2:] // about 80 words, 32 seconds each
		var turns []map[string]any
		for i := range 6 {
			turns = append(turns, map[string]any{"host": i % 2, "text": columns[i%2]})
		}
		turns = append(turns, map[string]any{"host": 0, "text": "Thanks for listening."})
		long, err := json.Marshal(map[string]any{"turns": turns})
		if err != nil {
			t.Fatal(err)
		}
		llm.answers(func(int) string { return string(long) })
		if status, msg := script(`,"minutes":1`); status != jobs.StatusSucceeded {
			t.Fatalf("job %s: %s", status, msg)
		}
		rec, _ := record()
		last := rec.Script.Turns[len(rec.Script.Turns)-1]
		if !rec.Trimmed || rec.EstimatedSeconds > 60 || len(rec.Script.Turns) < 2 || len(rec.Script.Turns) >= len(turns) || last.Text != "Thanks for listening." || rec.Status != readaloud.StatusOK {
			t.Fatalf("a %d-turn script for one minute was stored as %+v", len(turns), rec)
		}
	})

	t.Run("an LLM that is down or answers garbage fails the job, recorded, keeping the script", func(t *testing.T) {
		kept, _ := record()
		down, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		downURL := "http://" + down.Addr().String() + "/v1"
		down.Close()
		setLLM(downURL)
		status, msg := script("")
		rec, _ := record()
		if status != jobs.StatusFailed || !strings.Contains(msg, down.Addr().String()) || rec.Error != msg {
			t.Fatalf("job %s (%s), record error %q", status, msg, rec.Error)
		}
		if rec.Status != kept.Status || rec.Script == nil || !reflect.DeepEqual(rec.Script.Turns, kept.Script.Turns) {
			t.Fatalf("the failure lost the script: %+v", rec)
		}

		setLLM(llm.url)
		llm.answers(func(int) string { return "I would rather not." })
		status, msg = script("")
		if rec, _ = record(); status != jobs.StatusFailed || !strings.Contains(msg, "not a script") || rec.Error != msg || rec.Script == nil {
			t.Fatalf("garbage: job %s (%s), record %+v", status, msg, rec)
		}
	})

	t.Run("without an LLM the hosts read every paragraph exactly once", func(t *testing.T) {
		setLLM("")
		before := c.issueState(id)
		status, _, b := c.do(http.MethodPost, path, []byte("{"+hosts+`,"mode":"llm"}`))
		c.refused(id, before, status, http.StatusUnprocessableEntity, b, "mode llm without an LLM")
		calls := len(llm.calls())
		if status, msg := script(""); status != jobs.StatusSucceeded {
			t.Fatalf("job %s: %s", status, msg)
		}
		rec, _ := record()
		text := decode[struct{ Text string }](t, c.get(doc+"/articles/"+art+"/text")).Text
		var paragraphs []string
		for _, p := range strings.Split(text, "\n\n")[2:] { // after the headline (the title) and the byline
			paragraphs = append(paragraphs, p)
		}
		var read []string
		for _, turn := range rec.Script.Turns[1 : len(rec.Script.Turns)-1] {
			read = append(read, turn.Text)
		}
		if rec.Source != readaloud.SourceDeterministic || rec.Status != readaloud.StatusOK || rec.Error != "" || len(paragraphs) != 2 || !slices.Equal(read, paragraphs) {
			t.Fatalf("record %+v\nread %q\nwant %q", rec, read, paragraphs)
		}
		if len(llm.calls()) != calls {
			t.Errorf("the deterministic script called the LLM")
		}
	})

	t.Run("an edit needs the current ETag; its violations are flagged, not refused", func(t *testing.T) {
		rec, etag := record()
		edit := `{"turns":[{"host":0,"text":"Welcome to Harbour Reborn."},{"host":1,"text":"The bay has 99 gulls."},{"host":0,"text":"Goodbye."}]}`
		status, h, b := c.do(http.MethodPut, path, []byte(edit), "If-Match", etag)
		edited := decode[readaloud.Record](t, b)
		want := readaloud.Violation{Turn: 1, Kind: "number", Text: "99"}
		if status != http.StatusOK || edited.Source != readaloud.SourceEdited || edited.Status != readaloud.StatusFlagged || !slices.Equal(edited.Violations, []readaloud.Violation{want}) ||
			edited.Version != rec.Version+1 || h.Get("ETag") != fmt.Sprintf("%q", fmt.Sprint(edited.Version)) || len(edited.Script.Turns) != 3 {
			t.Fatalf("edit: %d %s", status, b)
		}
		after, _ := record()
		for _, tc := range []struct {
			name, body, ifMatch string
			want                int
			mention             string
		}{
			{"a stale If-Match", edit, etag, 409, "version"},
			{"no If-Match", edit, "", 422, "If-Match"},
			{"a host 2", `{"turns":[{"host":2,"text":"Hi."}]}`, h.Get("ETag"), 422, "host"},
			{"an empty turn", `{"turns":[{"host":0,"text":"   "}]}`, h.Get("ETag"), 422, "no text"},
			{"no turns", `{"turns":[]}`, h.Get("ETag"), 422, "turns"},
			{"too many turns", `{"turns":[` + strings.Repeat(`{"host":0,"text":"Hi."},`, 400) + `{"host":1,"text":"Bye."}]}`, h.Get("ETag"), 422, "turns"},
			{"a turn too long", `{"turns":[{"host":0,"text":"` + strings.Repeat("word ", 1000) + `"}]}`, h.Get("ETag"), 422, "text"},
		} {
			var header []string
			if tc.ifMatch != "" {
				header = []string{"If-Match", tc.ifMatch}
			}
			status, _, b := c.do(http.MethodPut, path, []byte(tc.body), header...)
			if status != tc.want || !strings.Contains(string(b), tc.mention) {
				t.Errorf("%s: %d %s, want %d mentioning %q", tc.name, status, b, tc.want, tc.mention)
			}
			if now, _ := record(); now.Version != after.Version {
				t.Errorf("%s was refused but changed the record", tc.name)
			}
		}
	})

	t.Run("voicing speaks each turn in its host's voice", func(t *testing.T) {
		st := c.waitRender(c.startRender(path+"/voice", `{}`).ID)
		var spoken []string
		for _, s := range sentences(st) {
			spoken = append(spoken, s.VoiceID+" "+s.Text)
		}
		want := []string{us + " Welcome to Harbour Reborn.", gb + " The bay has 99 gulls.", us + " Goodbye."}
		if !slices.Equal(spoken, want) || st.Format != render.FormatMP3 {
			t.Fatalf("voiced as %s:\n%q\nwant\n%q", st.Format, spoken, want)
		}
	})

	t.Run("an edit made while a script is written is kept, and the job says so", func(t *testing.T) {
		setLLM(llm.url)
		llm.answers(func(int) string { return groundedScript })
		release := llm.holdCalls()
		job := c.startJob(path, "{"+hosts+"}")
		// The edit is made while the script is written: once the LLM has been asked.
		waitUntil(t, "the job asks the LLM", func() bool { return len(llm.calls()) > 0 })
		_, etag := record()
		edit := `{"turns":[{"host":1,"text":"Welcome to Harbour Reborn."},{"host":0,"text":"Goodbye."}]}`
		status, _, b := c.do(http.MethodPut, path, []byte(edit), "If-Match", etag)
		release()
		if status != http.StatusOK {
			t.Fatalf("edit while the job ran: %d %s", status, b)
		}
		v := c.waitJob(job)
		rec, _ := record()
		if v.Status != jobs.StatusFailed || !strings.Contains(v.Error, "edit is kept") || rec.Source != readaloud.SourceEdited || len(rec.Script.Turns) != 2 || rec.Error != v.Error {
			t.Fatalf("job %s (%s), record %+v", v.Status, v.Error, rec)
		}
	})
}

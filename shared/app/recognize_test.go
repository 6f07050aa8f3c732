package app

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
)

// visionStandIn is an OpenAI-compatible vision engine on 127.0.0.1: it
// answers chat completions with the regions in answer, or fails with a 500
// that echoes the request's Authorization header (a careless engine), and
// it remembers the keys it was sent.
type visionStandIn struct {
	url   string
	calls atomic.Int32
	mu    sync.Mutex
	fail  bool
	keys  []string
}

const standInAnswer = "```json\n" + `{"regions":[` +
	`{"bbox":[150,90,900,70],"kind":"title","text":"Harbour Reborn Read Again"},` +
	`{"bbox":[150,260,480,200],"kind":"text","text":"The stand-in engine read this column."}]}` + "\n```"

func newVisionStandIn(t *testing.T) *visionStandIn {
	t.Helper()
	v := &visionStandIn{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		v.calls.Add(1)
		v.mu.Lock()
		v.keys = append(v.keys, r.Header.Get("Authorization"))
		fail := v.fail
		v.mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		if fail {
			writeChatFailure(w, http.StatusInternalServerError, "model crashed; request had "+r.Header.Get("Authorization"))
			return
		}
		writeChatAnswer(w, standInAnswer)
	}))
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the stand-in engine listens on %s, not on 127.0.0.1", srv.URL)
	}
	v.url = srv.URL + "/v1"
	return v
}

// writeChatAnswer answers a chat completion with content, as an
// OpenAI-compatible engine does.
func writeChatAnswer(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "c", "object": "chat.completion", "created": 1, "model": "vision",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
	})
}

// writeChatFailure answers a chat completion with an engine error the
// client may retry at once.
func writeChatFailure(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After-Ms", "1")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": message}})
}

func (v *visionStandIn) failing(fail bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.fail = fail
}

// recognize posts a recognize request for page n with the page's version
// as If-Match (0: none sent).
func (c *apiClient) recognize(id string, n int, version int64, body string) (int, []byte) {
	c.t.Helper()
	var header []string
	if version > 0 {
		header = []string{"If-Match", fmt.Sprint(version)}
	}
	status, _, b := c.do(http.MethodPost, fmt.Sprintf("/api/magazine/%s/pages/%d/recognize", id, n), []byte(body), header...)
	return status, b
}

func regionsJSON(t *testing.T, rs []magazine.Region) string {
	t.Helper()
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReviewRecognizeOverHTTP: a page or one region read again with a
// chosen engine, undone, and every refusal leaving the issue as it was.
func TestReviewRecognizeOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	vision := newVisionStandIn(t)
	const key = "sk-vision-7f3a9c2e51"
	status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"vision_ocr_url":"`+vision.url+`","engine_api_keys":{"vision-ocr":"`+key+`"}}`))
	if status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, b)
	}
	p1 := c.page(id, 1)
	head := regionByText(t, p1, "Harbour Reborn")
	left := regionByText(t, p1, "Left column 1")
	body := fmt.Sprintf(`{"title":"Harbour","regions":[{"page":1,"region":%q},{"page":1,"region":%q}]}`, head.ID, left.ID)
	if status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/articles", []byte(body)); status != http.StatusCreated {
		t.Fatalf("create article: %d %s", status, b)
	}

	t.Run("tesseract reads the page again; undo restores the regions", func(t *testing.T) {
		before := c.page(id, 2)
		status, b := c.recognize(id, 2, before.Version, `{"engine":"tesseract"}`)
		if status != http.StatusOK {
			t.Fatalf("recognize: %d %s", status, b)
		}
		tok := decode[outcome](t, b).UndoToken
		after := c.page(id, 2)
		if after.Engine != "tesseract" || after.OCRDPI != 300 || after.Version <= before.Version || tok == "" {
			t.Fatalf("after tesseract: engine %q, OCR DPI %d, version %d → %d, token %q", after.Engine, after.OCRDPI, before.Version, after.Version, tok)
		}
		var text strings.Builder
		pictures := 0
		for _, r := range after.Regions {
			text.WriteString(r.Text + " ")
			if magazine.IsVisual(r.Kind) {
				pictures++
				if r.CropKey == "" {
					t.Errorf("picture %s has no crop", r.ID)
				}
			}
		}
		if !strings.Contains(text.String(), "Storm Season") || pictures != 1 || len(after.Order) != len(after.Regions) {
			t.Fatalf("tesseract page: %d pictures, order %v, text %q", pictures, after.Order, text.String())
		}
		if vision.calls.Load() != 0 {
			t.Errorf("the vision engine was called %d times for a tesseract read", vision.calls.Load())
		}
		if status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/undo", []byte(`{"token":"`+tok+`"}`)); status != http.StatusOK {
			t.Fatalf("undo: %d %s", status, b)
		}
		undone := c.page(id, 2)
		if regionsJSON(t, undone.Regions) != regionsJSON(t, before.Regions) || undone.Engine != before.Engine || undone.OCRDPI != before.OCRDPI {
			t.Fatalf("undo did not restore the page:\nbefore %s\nafter  %s", regionsJSON(t, before.Regions), regionsJSON(t, undone.Regions))
		}
	})

	t.Run("the vision engine reads the page again with the server's key; articles follow; undo restores", func(t *testing.T) {
		before := c.page(id, 1)
		articlesBefore := string(c.get("/api/magazine/" + id + "/articles"))
		status, b := c.recognize(id, 1, before.Version, `{"engine":"vision-primary"}`)
		if status != http.StatusOK {
			t.Fatalf("recognize: %d %s", status, b)
		}
		answer := decode[struct {
			Engine string        `json:"engine"`
			Page   magazine.Page `json:"page"`
			outcome
		}](t, b)
		after := c.page(id, 1)
		if answer.Engine != "vision-primary" || after.Engine != "vision-primary" || answer.UndoToken == "" {
			t.Fatalf("answer engine %q, page engine %q, token %q", answer.Engine, after.Engine, answer.UndoToken)
		}
		read := regionByText(t, after, "The stand-in engine read this column.")
		if read.OriginalText != read.Text {
			t.Errorf("a region read again has original text %q", read.OriginalText)
		}
		if got := vision.calls.Load(); got != 1 {
			t.Errorf("the vision engine was called %d times, want 1", got)
		}
		vision.mu.Lock()
		if len(vision.keys) == 0 || vision.keys[len(vision.keys)-1] != "Bearer "+key {
			t.Errorf("the engine was sent %v, want the configured key", vision.keys)
		}
		vision.mu.Unlock()
		// The article keeps only regions that still exist as they were.
		var arts struct{ Articles []magazine.Article }
		if err := json.Unmarshal(c.get("/api/magazine/"+id+"/articles"), &arts); err != nil {
			t.Fatal(err)
		}
		for _, ref := range arts.Articles[0].Regions {
			if ref.Page == 1 {
				t.Errorf("the article still holds %s of page 1, whose regions were all replaced: %+v", ref.Region, arts.Articles[0])
			}
		}
		if status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/undo", []byte(`{"token":"`+answer.UndoToken+`"}`)); status != http.StatusOK {
			t.Fatalf("undo: %d %s", status, b)
		}
		if got := c.page(id, 1); regionsJSON(t, got.Regions) != regionsJSON(t, before.Regions) || got.Engine != "text-layer" {
			t.Fatalf("undo did not restore page 1:\nbefore %s\nafter  %s", regionsJSON(t, before.Regions), regionsJSON(t, got.Regions))
		}
		if got := string(c.get("/api/magazine/" + id + "/articles")); got != articlesBefore {
			t.Fatalf("undo did not restore the article:\nbefore %s\nafter  %s", articlesBefore, got)
		}
	})

	t.Run("one region read again with the vision engine", func(t *testing.T) {
		before := c.page(id, 3)
		r := regionByText(t, before, "Right column 3")
		status, b := c.recognize(id, 3, before.Version, `{"engine":"vision-primary","region_id":"`+r.ID+`"}`)
		if status != http.StatusOK {
			t.Fatalf("reread: %d %s", status, b)
		}
		after := c.page(id, 3)
		var got magazine.Region
		for _, x := range after.Regions {
			if x.ID == r.ID {
				got = x
			}
		}
		if got.Text != "Harbour Reborn Read Again The stand-in engine read this column." || got.OriginalText != r.OriginalText || got.BBox != r.BBox {
			t.Fatalf("region after reread: %+v (was %+v)", got, r)
		}
		if len(after.Regions) != len(before.Regions) || after.Engine != before.Engine {
			t.Errorf("reading one region changed the page: %d → %d regions, engine %q → %q", len(before.Regions), len(after.Regions), before.Engine, after.Engine)
		}
	})

	t.Run("refusals change nothing", func(t *testing.T) {
		p := c.page(id, 1)
		pic := ""
		for _, r := range p.Regions {
			if magazine.IsVisual(r.Kind) {
				pic = r.ID
			}
		}
		text := regionByText(t, p, "Left column 1").ID
		cases := []struct {
			name    string
			page    int
			version int64
			body    string
			status  int
			say     string
			fail    bool
		}{
			{"an unknown engine", 1, p.Version, `{"engine":"paddle-ocr"}`, http.StatusUnprocessableEntity, `"location":"body.engine"`, false},
			{"an unknown field", 1, p.Version, `{"engine":"tesseract","dpi":600}`, http.StatusUnprocessableEntity, "dpi", false},
			{"an engine that is not configured", 1, p.Version, `{"engine":"vision-fallback"}`, http.StatusUnprocessableEntity, "vision_ocr_fallback_url", false},
			{"a stale If-Match", 1, p.Version - 1, `{"engine":"vision-primary"}`, http.StatusConflict, "version", false},
			{"a stale If-Match on a region", 1, p.Version - 1, `{"engine":"vision-primary","region_id":"` + text + `"}`, http.StatusConflict, "version", false},
			{"a failing engine", 1, p.Version, `{"engine":"vision-primary"}`, http.StatusBadGateway, "answered 500: Internal Server Error", true},
			{"a failing engine on a region", 1, p.Version, `{"engine":"vision-primary","region_id":"` + text + `"}`, http.StatusBadGateway, "answered 500: Internal Server Error", true},
			{"a picture region", 1, p.Version, `{"engine":"tesseract","region_id":"` + pic + `"}`, http.StatusUnprocessableEntity, "picture", false},
			{"an unknown region", 1, p.Version, `{"engine":"tesseract","region_id":"gone9"}`, http.StatusNotFound, "gone9", false},
			{"an unknown page", 9, 0, `{"engine":"tesseract"}`, http.StatusNotFound, "page 9", false},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				vision.failing(tc.fail)
				defer vision.failing(false)
				calls := vision.calls.Load()
				before := c.issueState(id)
				status, b := c.recognize(id, tc.page, tc.version, tc.body)
				c.refused(id, before, status, tc.status, b, tc.name)
				t.Logf("%d %s", status, b)
				if !strings.Contains(string(b), tc.say) {
					t.Errorf("%s answered %s, want it to say %q", tc.name, b, tc.say)
				}
				if strings.Contains(string(b), key) {
					t.Errorf("%s answered the engine key: %s", tc.name, b)
				}
				if !tc.fail && vision.calls.Load() != calls {
					t.Errorf("%s called the engine", tc.name)
				}
			})
		}
		if pic == "" {
			t.Error("page 1 has no picture region to refuse")
		}
	})

	for _, b := range c.bodies {
		if strings.Contains(string(b), key) {
			t.Fatalf("a response carried the engine key: %s", b)
		}
	}
}

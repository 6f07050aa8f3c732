package app

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
)

// dotsStandIn is vLLM serving dots.ocr on 127.0.0.1: it answers chat
// completions with dots.ocr's recorded answer and keeps what it was asked.
type dotsStandIn struct {
	url           string
	mu            sync.Mutex
	model, prompt string
}

func newDotsStandIn(t *testing.T) *dotsStandIn {
	t.Helper()
	answer, err := os.ReadFile("../magazine/testdata/engines/dots-ocr-batchnorm-p2.json")
	if err != nil {
		t.Fatal(err)
	}
	d := &dotsStandIn{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			} `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		d.mu.Lock()
		d.model = req.Model
		for _, m := range req.Messages {
			for _, c := range m.Content {
				if c.Type == "text" {
					d.prompt = c.Text
				}
			}
		}
		d.mu.Unlock()
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		writeChatAnswer(w, string(answer))
	}))
	t.Cleanup(srv.Close)
	d.url = srv.URL + "/v1"
	return d
}

// TestVisionOCRCardPresetOverHTTP: an engine card names dots.ocr as its
// preset; the page read again by the vision engine at the card's URL gets
// dots.ocr's prompt and the card's model, and dots.ocr's recorded answer
// becomes the page's regions, preview and spoken text.
func TestVisionOCRCardPresetOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	dots := newDotsStandIn(t)
	if status, _, b := c.do(http.MethodPut, "/api/engines/layout", []byte(`{"kind":"tts","ocr_preset":"dots-ocr"}`)); status != http.StatusUnprocessableEntity {
		t.Fatalf("a preset on a TTS card: %d %s", status, b)
	}
	if status, _, b := c.do(http.MethodPut, "/api/engines/layout", []byte(`{"kind":"vision-ocr","ocr_preset":"paddle"}`)); status != http.StatusUnprocessableEntity {
		t.Fatalf("an unknown preset: %d %s", status, b)
	}
	card := `{"kind":"vision-ocr","base_url":"` + dots.url + `","model":"rednote-hilab/dots.ocr","ocr_preset":"dots-ocr"}`
	if status, _, b := c.do(http.MethodPut, "/api/engines/layout", []byte(card)); status != http.StatusOK && status != http.StatusCreated {
		t.Fatalf("card: %d %s", status, b)
	}
	if status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"vision_ocr_url":"`+dots.url+`"}`)); status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, b)
	}
	before := c.page(id, 1)
	if status, b := c.recognize(id, 1, before.Version, `{"engine":"vision-primary"}`); status != http.StatusOK {
		t.Fatalf("recognize: %d %s", status, b)
	}
	dots.mu.Lock()
	model, prompt := dots.model, dots.prompt
	dots.mu.Unlock()
	if model != "rednote-hilab/dots.ocr" || !strings.HasPrefix(prompt, "Please output the layout information from the PDF image") {
		t.Errorf("the engine was asked for model %q with %q", model, prompt)
	}
	after := c.page(id, 1)
	if after.Engine != "vision-primary" {
		t.Fatalf("page engine %q", after.Engine)
	}
	sub := regionByText(t, after, "2 Towards Reducing Internal Covariate Shift")
	// [649, 70, 1138, 139] of the 1288x1652 image dots.ocr sees of the
	// 150 DPI render of a letter page.
	if b := sub.BBox; sub.Kind != magazine.KindSubhead || b[0] < 308 || b[0] > 309 || b[1] < 33 || b[1] > 34 {
		t.Errorf("subhead %s at %v, want subhead at x 308.4, y 33.6", sub.Kind, b)
	}
	html := magazine.PreviewHTML(after.Page, 0)
	if !strings.Contains(html, ">2 Towards Reducing Internal Covariate Shift</h3>") {
		t.Errorf("preview = %s", html)
	}
	var spoken strings.Builder
	for _, r := range after.Regions {
		spoken.WriteString(magazine.Spoken(r, false) + "\n")
	}
	if !strings.Contains(spoken.String(), "the network always produces activations") {
		t.Errorf("spoken text = %q", spoken.String())
	}
}

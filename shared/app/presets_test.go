package app

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/cards"
	"github.com/lectern/lectern/shared/engines/enginetest"
	"github.com/lectern/lectern/shared/magazine"
)

// TestVisionOCRCardPresetOverHTTP: an engine card names dots.ocr as its
// preset; the page read again by the vision engine at the card's URL gets
// dots.ocr's prompt and the card's model, and dots.ocr's recorded answer
// becomes the page's regions, preview and spoken text.
func TestVisionOCRCardPresetOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	dots := enginetest.NewChat(t, recorded(t, "dots-ocr-batchnorm-p2.json"))
	if status, _, b := c.do(http.MethodPut, "/api/engines/layout", []byte(`{"kind":"tts","ocr_preset":"dots-ocr"}`)); status != http.StatusUnprocessableEntity {
		t.Fatalf("a preset on a TTS card: %d %s", status, b)
	}
	if status, _, b := c.do(http.MethodPut, "/api/engines/layout", []byte(`{"kind":"vision-ocr","ocr_preset":"paddle"}`)); status != http.StatusUnprocessableEntity {
		t.Fatalf("an unknown preset: %d %s", status, b)
	}
	card := `{"kind":"vision-ocr","base_url":"` + dots.URL + `","model":"rednote-hilab/dots.ocr","ocr_preset":"dots-ocr"}`
	if status, _, b := c.do(http.MethodPut, "/api/engines/layout", []byte(card)); status != http.StatusOK && status != http.StatusCreated {
		t.Fatalf("card: %d %s", status, b)
	}
	// The card shows the prompt its preset sends; docling-serve takes none.
	if v := c.card("layout"); !strings.HasPrefix(v.OCRPrompt, "Please output the layout information from the PDF image") {
		t.Errorf("card's ocr_prompt = %q, want dots.ocr's prompt_layout_all_en", v.OCRPrompt)
	}
	if status, _, b := c.do(http.MethodPut, "/api/engines/docling", []byte(`{"kind":"vision-ocr-fallback","ocr_preset":"docling"}`)); status != http.StatusCreated && status != http.StatusOK {
		t.Fatalf("docling card: %d %s", status, b)
	}
	if v := c.card("docling"); v.OCRPrompt != "" || v.OCRPreset != "docling" {
		t.Errorf("docling card: preset %q, prompt %q", v.OCRPreset, v.OCRPrompt)
	}
	if status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"vision_ocr_url":"`+dots.URL+`"}`)); status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, b)
	}
	before := c.page(id, 1)
	if status, b := c.recognize(id, 1, before.Version, `{"engine":"vision-primary"}`); status != http.StatusOK {
		t.Fatalf("recognize: %d %s", status, b)
	}
	model, prompt, _ := dots.Asked()
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

// card is the listed view of the engine card name.
func (c *apiClient) card(name string) cards.View {
	c.t.Helper()
	for _, v := range decode[struct{ Cards []cards.View }](c.t, c.get("/api/engines")).Cards {
		if v.Name == name {
			return v
		}
	}
	c.t.Fatalf("no card %s listed", name)
	return cards.View{}
}

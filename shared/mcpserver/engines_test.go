package mcpserver

import (
	"strings"
	"testing"
)

// An agent sees which engine family reads pages for a vision OCR card.
func TestEngineListShowsTheOCRPreset(t *testing.T) {
	l := cardList{Page[card]{Total: 2, Count: 2, Items: []card{
		{Name: "dots", Kind: "vision-ocr", URL: "http://gpu:8000/v1", URLSource: "card", Model: "rednote-hilab/dots.ocr", OCRPreset: "dots-ocr"},
		{Name: "gateway", Kind: "llm", URL: "http://gpu:4000/v1", URLSource: "card"},
	}}}
	md := l.Markdown()
	if !strings.Contains(md, "- **dots** (vision-ocr): http://gpu:8000/v1 (URL from card), model rednote-hilab/dots.ocr, reads as dots-ocr, no key of its own\n") {
		t.Errorf("markdown = %s", md)
	}
	_, gateway, _ := strings.Cut(md, "**gateway**")
	if gateway, _, _ = strings.Cut(gateway, "\n"); gateway == "" || strings.Contains(gateway, "reads as") {
		t.Errorf("the LLM card's line = %q", gateway)
	}
}

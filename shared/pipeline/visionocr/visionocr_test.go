package visionocr

import (
	"testing"

	"github.com/lectern/lectern/shared/cards/cardrec"
	"github.com/lectern/lectern/shared/engines"
	"github.com/lectern/lectern/shared/magazine"
)

func TestPresetComesFromTheCardOfTheURL(t *testing.T) {
	cards := []cardrec.Record{
		{Name: "gateway", Kind: "llm", BaseURL: "http://10.0.0.5:8000/v1", OCRPreset: ""},
		{Name: "dots", Kind: "vision-ocr", BaseURL: "http://10.0.0.5:8000/", Model: "rednote-hilab/dots.ocr", OCRPreset: "dots-ocr"},
		{Name: "docling", Kind: "vision-ocr-fallback", BaseURL: "http://10.0.0.6:5001", OCRPreset: "docling"},
		{Name: "plain", Kind: "vision-ocr", BaseURL: "http://10.0.0.7:8000/v1"},
	}
	for _, c := range []struct {
		setting   string
		preset    magazine.VisionPreset
		cardModel string
	}{
		{"http://10.0.0.5:8000/v1", magazine.PresetDotsOCR, "rednote-hilab/dots.ocr"},
		{"http://10.0.0.6:5001/v1/", magazine.PresetDocling, ""},
		{"http://10.0.0.7:8000", magazine.PresetLectern, ""},
		{"http://10.0.0.9:8000/v1", magazine.PresetLectern, ""}, // no card names it
	} {
		base, err := engines.NormalizeLLMURL(c.setting)
		if err != nil {
			t.Fatal(err)
		}
		if p, m := Preset(cards, base); p != c.preset || m != c.cardModel {
			t.Errorf("Preset(%s) = %s, %q; want %s, %q", c.setting, p, m, c.preset, c.cardModel)
		}
	}
}

package characters

import (
	"encoding/json"
	"os"
	"testing"
)

// vectorFile is shared with the browser's test (frontend/test/fingerprint.test.ts).
const vectorFile = "testdata/fingerprint-vectors.json"

type vectorDoc struct {
	Schema  string `json:"schema"`
	Vectors []struct {
		Name        string `json:"name"`
		Inputs      Inputs `json:"inputs"`
		Canonical   string `json:"canonical"`
		Fingerprint string `json:"fingerprint"`
	} `json:"vectors"`
}

func TestFingerprintVectors(t *testing.T) {
	data, err := os.ReadFile(vectorFile)
	if err != nil {
		t.Fatal(err)
	}
	var doc vectorDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != FingerprintSchema || len(doc.Vectors) < 8 {
		t.Fatalf("vector file: schema %q, %d vectors", doc.Schema, len(doc.Vectors))
	}
	for _, v := range doc.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			if got := Canonical(v.Inputs); got != v.Canonical {
				t.Errorf("canonical\n got %s\nwant %s", got, v.Canonical)
			}
			if got := Fingerprint(v.Inputs); got != v.Fingerprint {
				t.Errorf("fingerprint %s, want %s", got, v.Fingerprint)
			}
		})
	}
}

func TestFingerprintCoversEveryInput(t *testing.T) {
	base := Inputs{Name: "Alice", Age: "seven", Form: "base", Physical: "long fair hair", Clothing: "blue dress, white apron",
		Visual: Visual{Style: "ink", Hair: "blonde", Eyes: "blue", Skin: "fair", Build: "slight", Palette: "blue, white"}}
	seen := map[string]string{Fingerprint(base): "base"}
	for name, change := range map[string]func(*Inputs){
		"name": func(in *Inputs) { in.Name = "Alice L." }, "age": func(in *Inputs) { in.Age = "eight" },
		"form": func(in *Inputs) { in.Form = "tall" }, "physical": func(in *Inputs) { in.Physical = "short fair hair" },
		"clothing": func(in *Inputs) { in.Clothing = "red dress" }, "visual_style": func(in *Inputs) { in.Style = "oil" },
		"visual_hair": func(in *Inputs) { in.Hair = "golden" }, "visual_eyes": func(in *Inputs) { in.Eyes = "grey" },
		"visual_skin": func(in *Inputs) { in.Skin = "pale" }, "visual_build": func(in *Inputs) { in.Build = "tall" },
		"visual_palette": func(in *Inputs) { in.Palette = "red" },
		// A value moved to another field is another input, not the same text.
		"value moved between fields": func(in *Inputs) { in.Hair, in.Eyes = in.Eyes, in.Hair },
	} {
		in := base
		change(&in)
		fp := Fingerprint(in)
		if other, dup := seen[fp]; dup {
			t.Errorf("changing %s gives the fingerprint of %s", name, other)
		}
		seen[fp] = name
	}
}

func TestStaleAfterAnEdit(t *testing.T) {
	c := Finish(Character{ID: "rabbit", Name: "The White Rabbit", Forms: []Form{{ID: "base", Name: "base", Physical: "pink eyes", Clothing: "waistcoat"}}})
	f := &c.Forms[0]
	f.Avatar = &Image{ID: "a1", Kind: KindAvatar, Fingerprint: f.Fingerprint, Pair: "a1"}
	f.Concept = &Image{ID: "c1", Kind: KindConcept, Fingerprint: f.Fingerprint, Pair: "a1"}
	c.Refresh()
	if f.Stale || f.PairBroken {
		t.Fatalf("fresh pair: stale %v, pair broken %v", f.Stale, f.PairBroken)
	}
	c.Visual.Palette = "red and white"
	c.Refresh()
	if !c.Forms[0].Stale {
		t.Fatal("a visual_* override changed, but the form is not stale")
	}
	c.Visual.Palette = ""
	c.Refresh()
	if c.Forms[0].Stale {
		t.Fatal("the inputs are back to the images' own, but the form is still stale")
	}
	c.Forms[0].Clothing = "waistcoat, white kid gloves"
	c.Refresh()
	if !c.Forms[0].Stale {
		t.Fatal("the clothing changed, but the form is not stale")
	}
	c.Forms[0].Avatar = &Image{ID: "a2", Kind: KindAvatar, Fingerprint: c.Forms[0].Fingerprint, Pair: "a2"}
	c.Refresh()
	if !c.Forms[0].PairBroken {
		t.Fatal("an avatar made alone after the pair: the pair is not flagged")
	}
}

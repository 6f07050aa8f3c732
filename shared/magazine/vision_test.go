package magazine

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseVisionRegions(t *testing.T) {
	// A 612x792 pt page rendered at 150 DPI is 1275x1650 px: scale 0.48.
	const pw, ph, iw, ih = 612.0, 792.0, 1275, 1650
	tests := []struct {
		name      string
		content   string
		wantKinds []Kind
		wantBoxes []BBox
		wantTexts []string
	}{
		{
			name:      "regions object with pixel xywh boxes is scaled to points",
			content:   `{"regions":[{"bbox":[100,200,500,100],"kind":"title","text":"Big News"}]}`,
			wantKinds: []Kind{KindHeadline},
			wantBoxes: []BBox{{48, 96, 240, 48}},
			wantTexts: []string{"Big News"},
		},
		{
			name:      "json fence with prose around it is read",
			content:   "Here are the regions:\n```json\n[{\"bbox\":[0,0,1275,165],\"type\":\"header\",\"text\":\"The Monthly\"}]\n```\nHope this helps!",
			wantKinds: []Kind{KindFurniture},
			wantBoxes: []BBox{{0, 0, 612, 79.2}},
		},
		{
			name:      "a subhead that is only a web address is a paragraph",
			content:   `[{"bbox":[0,0,100,20],"kind":"subheading","text":"www.themonthly.com"},{"bbox":[0,40,100,20],"kind":"subheading","text":"What next"}]`,
			wantKinds: []Kind{KindParagraph, KindSubhead},
		},
		{
			name:      "bare array after prose without fences is read",
			content:   `Sure [see below]: [{"bbox":[0,0,10,10],"kind":"text","text":"Hello"}] done.`,
			wantKinds: []Kind{KindParagraph},
			wantBoxes: []BBox{{0, 0, 4.8, 4.8}},
		},
		{
			name:      "normalised coordinates are scaled by the page size",
			content:   `{"regions":[{"bbox":[0.1,0.5,0.5,0.25],"kind":"photo"}]}`,
			wantKinds: []Kind{KindImage},
			wantBoxes: []BBox{{61.2, 396, 306, 198}},
		},
		{
			name:      "bbox_xyxy is read as corners",
			content:   `{"regions":[{"bbox_xyxy":[100,100,300,200],"kind":"chart"}]}`,
			wantKinds: []Kind{KindChart},
			wantBoxes: []BBox{{48, 48, 96, 48}},
		},
		{
			name:      "object box with width and height is read",
			content:   `{"regions":[{"bbox":{"x":100,"y":100,"width":200,"height":100},"label":"Body_Text","text":"x"}]}`,
			wantKinds: []Kind{KindParagraph},
			wantBoxes: []BBox{{48, 48, 96, 48}},
		},
		{
			name:      "xywh boxes that overflow but fit as corners are read as corners",
			content:   `[{"bbox":[1000,1000,1200,1600],"kind":"text","text":"a"},{"bbox":[10,10,500,400],"kind":"text","text":"b"}]`,
			wantKinds: []Kind{KindParagraph, KindParagraph},
			wantBoxes: []BBox{{480, 480, 96, 288}, {4.8, 4.8, 235.2, 187.2}},
		},
		{
			name:      "boxes are clamped to the page",
			content:   `[{"bbox":[-50,-50,150,150],"kind":"text","text":"a"},{"bbox":[1200,1600,500,500],"kind":"text","text":"b"}]`,
			wantKinds: []Kind{KindParagraph, KindParagraph},
			wantBoxes: []BBox{{0, 0, 48, 48}, {576, 768, 36, 24}},
		},
		{
			name:      "zero-area and boxless regions are dropped and ids stay dense",
			content:   `[{"bbox":[10,10,0,50],"text":"gone"},{"text":"no box"},{"bbox":[10,10,20,20],"kind":"caption","text":"kept"}]`,
			wantKinds: []Kind{KindCaption},
			wantTexts: []string{"kept"},
		},
		{
			name:      "unknown and cleanup kinds become paragraph",
			content:   `[{"bbox":[1,1,20,20],"kind":"poster","text":"a"},{"bbox":[1,30,20,20],"kind":"noise","text":"b"}]`,
			wantKinds: []Kind{KindParagraph, KindParagraph},
		},
		{
			name:      "synonyms map to kinds",
			content:   `[{"bbox":[1,1,9,9],"kind":"Section-Header"},{"bbox":[1,1,9,9],"kind":"page_footer"},{"bbox":[1,1,9,9],"kind":"pullquote"},{"bbox":[1,1,9,9],"kind":"advertisement"},{"bbox":[1,1,9,9],"kind":"page number"},{"bbox":[1,1,9,9],"kind":"Picture"},{"bbox":[1,1,9,9],"kind":"list_item"},{"bbox":[1,1,9,9],"kind":"byline"}]`,
			wantKinds: []Kind{KindSubhead, KindFurniture, KindPullQuote, KindAd, KindPageNumber, KindImage, KindList, KindByline},
		},
		{
			name:      "text given as a list of lines is joined",
			content:   `[{"bbox":[1,1,9,9],"kind":"text","content":["line one","line two"]}]`,
			wantKinds: []Kind{KindParagraph},
			wantTexts: []string{"line one\nline two"},
		},
		{
			name:      "escaped newlines in text are not a loop",
			content:   `[{"bbox":[1,1,9,9],"kind":"text","text":"a\n\n\n\n\n\n\n\n\n\n\n\nb"}]`,
			wantKinds: []Kind{KindParagraph},
			wantTexts: []string{"a\n\n\n\n\n\n\n\n\n\n\n\nb"},
		},
		{
			name:      "string coordinates are accepted",
			content:   `[{"bbox":["100","100","200","100"],"kind":"table"}]`,
			wantKinds: []Kind{KindTable},
			wantBoxes: []BBox{{48, 48, 96, 48}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseVisionRegions(tc.content, pw, ph, iw, ih)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if len(got) != len(tc.wantKinds) {
				t.Fatalf("got %d regions, want %d: %+v", len(got), len(tc.wantKinds), got)
			}
			for i, r := range got {
				if want := "r" + string(rune('1'+i)); r.ID != want {
					t.Errorf("region %d id %q, want %q", i, r.ID, want)
				}
				if r.Kind != tc.wantKinds[i] {
					t.Errorf("region %d kind %q, want %q", i, r.Kind, tc.wantKinds[i])
				}
				if r.OriginalText != r.Text {
					t.Errorf("region %d original text %q differs from text %q", i, r.OriginalText, r.Text)
				}
				if tc.wantBoxes != nil && !boxNear(r.BBox, tc.wantBoxes[i]) {
					t.Errorf("region %d box %v, want %v", i, r.BBox, tc.wantBoxes[i])
				}
				if tc.wantTexts != nil && r.Text != tc.wantTexts[i] {
					t.Errorf("region %d text %q, want %q", i, r.Text, tc.wantTexts[i])
				}
			}
		})
	}
}

func TestParseVisionRegionsFailures(t *testing.T) {
	loop := strings.Repeat("I cannot read this. ", 12)
	tests := []struct {
		name    string
		content string
		want    error
	}{
		{"blank answer is empty", "  \n ", ErrEmptyAnswer},
		{"prose without json is unparsable", "I could not find any text on this page.", ErrUnparsable},
		{"truncated json is unparsable", `{"regions":[{"bbox":[1,2,3,4],"kind":"te`, ErrUnparsable},
		{"json without regions is unparsable", `{"answer": 42}`, ErrUnparsable},
		{"empty region list is no regions", `{"regions":[]}`, ErrNoRegions},
		{"only zero-area boxes is no regions", `[{"bbox":[5,5,0,0],"kind":"text"}]`, ErrNoRegions},
		{"loop inside a region's text", `[{"bbox":[1,1,9,9],"kind":"text","text":"` + loop + `"}]`, ErrRepetitionLoop},
		{"loop in a truncated answer", `{"regions":[{"bbox":[1,1,9,9],"text":"` + loop, ErrRepetitionLoop},
		{"loop in the prose around the json", loop + `[{"bbox":[1,1,9,9],"kind":"text","text":"ok"}]`, ErrRepetitionLoop},
		{"eight identical regions back to back", "[" + strings.TrimSuffix(strings.Repeat(`{"bbox":[1,1,9,9],"kind":"text","text":"Hi"},`, 8), ",") + "]", ErrRepetitionLoop},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseVisionRegions(tc.content, 612, 792, 1275, 1650)
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
	if !errors.Is(ErrNoRegions, ErrEmptyAnswer) {
		t.Error("ErrNoRegions must be an ErrEmptyAnswer")
	}
	if _, err := ParseVisionRegions(`[{"bbox":[1,1,9,9]}]`, 0, 792, 10, 10); !errors.Is(err, ErrBadPageSize) {
		t.Errorf("zero page width: %v, want ErrBadPageSize", err)
	}
}

func TestParseVisionRegionsWithoutImageSizeUsesPoints(t *testing.T) {
	got, err := ParseVisionRegions(`[{"bbox":[10,20,30,40],"kind":"text","text":"a"}]`, 612, 792, 0, 0)
	if err != nil || !boxNear(got[0].BBox, BBox{10, 20, 30, 40}) {
		t.Fatalf("got %v, %v", got, err)
	}
}

func boxNear(a, b BBox) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 0.01 {
			return false
		}
	}
	return true
}

func FuzzParseVisionRegions(f *testing.F) {
	for _, s := range []string{
		`{"regions":[{"bbox":[100,200,500,100],"kind":"title","text":"Big News"}]}`,
		"```json\n[{\"bbox\":[0.1,0.1,0.2,0.2],\"type\":\"photo\"}]\n```",
		`[{"bbox_xyxy":[1,2,3,4]}]`, `{"bbox":{"x0":1,"y0":1,"x1":5,"y1":5}}`, "", "{", "[[[[",
	} {
		f.Add(s, 612.0, 792.0, 1275, 1650)
	}
	f.Fuzz(func(t *testing.T, content string, pw, ph float64, iw, ih int) {
		regions, err := ParseVisionRegions(content, pw, ph, iw, ih)
		checkParsed(t, "lectern", regions, err, pw, ph, true)
	})
}

// checkParsed holds for any answer a parser read: an error and no regions,
// or regions inside the page with unique ids, known kinds and their text
// as first read (free of loops when loopFree).
func checkParsed(t *testing.T, what string, regions []Region, err error, pw, ph float64, loopFree bool) {
	t.Helper()
	if err != nil {
		if regions != nil {
			t.Fatalf("%s: regions returned with an error", what)
		}
		return
	}
	if len(regions) == 0 {
		t.Fatalf("%s: no regions and no error", what)
	}
	seen := map[string]bool{}
	for _, r := range regions {
		if seen[r.ID] {
			t.Fatalf("%s: duplicate id %q", what, r.ID)
		}
		seen[r.ID] = true
		b := r.BBox
		if !(b[2] > 0 && b[3] > 0) || b[0] < 0 || b[1] < 0 || b[0]+b[2] > pw*(1+1e-9) || b[1]+b[3] > ph*(1+1e-9) {
			t.Fatalf("%s: box %v outside page %gx%g", what, b, pw, ph)
		}
		if _, ok := Info(r.Kind); !ok || r.Text != r.OriginalText || (loopFree && HasRepetitionLoop(r.Text)) {
			t.Fatalf("%s: bad region %+v", what, r)
		}
	}
}

// The prompt names every kind an engine may answer with, each of which the
// parser keeps as is, and none that only cleanup assigns.
func TestVisionPromptNamesEveryKind(t *testing.T) {
	prompt := VisionPrompt()
	_, after, ok := strings.Cut(prompt, "kind is one of: ")
	if !ok {
		t.Fatalf("the prompt lists no kinds:\n%s", prompt)
	}
	listed, _, _ := strings.Cut(after, ".")
	_, pics, _ := strings.Cut(prompt, "picture regions (")
	pics, _, _ = strings.Cut(pics, ")")
	named := map[string]bool{}
	for k := range strings.SplitSeq(listed, ", ") {
		named[k] = true
	}
	pictures := map[string]bool{}
	for k := range strings.SplitSeq(pics, ", ") {
		pictures[k] = true
	}
	for _, info := range Kinds {
		k := string(info.Kind)
		if named[k] == info.Cleanup {
			t.Errorf("kind %q: named in the prompt = %v, want %v (cleanup kinds are never asked for)", k, named[k], !info.Cleanup)
		}
		if pictures[k] != (info.Visual && !info.Cleanup) {
			t.Errorf("kind %q: named as a picture = %v, want %v", k, pictures[k], info.Visual)
		}
		if named[k] && visionKind(k) != info.Kind {
			t.Errorf("the parser reads the prompt's kind %q as %q", k, visionKind(k))
		}
	}
	for k := range named {
		if _, ok := Info(Kind(k)); !ok {
			t.Errorf("the prompt names %q, which is not a kind", k)
		}
	}
}

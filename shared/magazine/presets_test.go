package magazine

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// The recorded answers (testdata/engines/SOURCES.md says where each is from).
func recorded(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/engines/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// qwenSpotting is the Qwen VL cookbooks' text-spotting example answer.
const qwenSpotting = "```json\n[\n    {\"bbox_2d\": [108, 175, 496, 230], \"text_content\": \"AuntieAnne's\"},\n    {\"bbox_2d\": [49, 429, 252, 450], \"text_content\": \"CINNAMON SUGAR\"}\n]\n```"

func nearPt(a, b float64) bool { return math.Abs(a-b) < 0.6 }

func wantBox(t *testing.T, r Region, x0, y0, x1, y1 float64) {
	t.Helper()
	b := r.BBox
	if !nearPt(b[0], x0) || !nearPt(b[1], y0) || !nearPt(b[0]+b[2], x1) || !nearPt(b[1]+b[3], y1) {
		t.Errorf("%s %q box = [%.1f %.1f %.1f %.1f] (corners), want [%.1f %.1f %.1f %.1f]", r.ID, trunc(r.Text), b[0], b[1], b[0]+b[2], b[1]+b[3], x0, y0, x1, y1)
	}
}

func trunc(s string) string {
	if len(s) > 30 {
		return s[:30] + "…"
	}
	return s
}

func TestSmartResizeIsQwenProcessors(t *testing.T) {
	cases := []struct{ w, h, max, wantW, wantH float64 }{
		{1224, 1584, 11289600, 1232, 1596}, // a letter page at 144 DPI: rounded to 28s
		{1275, 1650, 12845056, 1288, 1652}, // Lectern's 150 DPI render
		{3000, 4000, 11289600, 2884, 3864}, // over dots.ocr's pixel bound: scaled down, floored
		{20, 30, 11289600, 56, 84},         // under 3136 pixels: scaled up, ceiled
	}
	for _, c := range cases {
		w, h := smartResize(c.w, c.h, 28, 3136, c.max)
		if w != c.wantW || h != c.wantH {
			t.Errorf("smartResize(%g, %g) = %gx%g, want %gx%g", c.w, c.h, w, h, c.wantW, c.wantH)
		}
	}
}

// A letter page rendered at 144 DPI, as the recorded dots.ocr page was sent.
var batchnormPage = PageGeom{W: 612, H: 792, ImgW: 1224, ImgH: 1584}

func TestDotsOCRRecordedAnswerBecomesRegions(t *testing.T) {
	regions, err := ParsePresetAnswer(PresetDotsOCR, recorded(t, "dots-ocr-batchnorm-p2.json"), batchnormPage, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind Kind
		text string
		box  [4]float64 // corners in the smart-resized image (1232x1596)
	}{
		{KindParagraph, "not have to readjust to compensate for the change in the distribution of x.", [4]float64{147, 75, 636, 127}},
		{KindParagraph, "In Sec. 4.2, we apply Batch Normalization", [4]float64{147, 1308, 638, 1510}},
		{KindSubhead, "2 Towards Reducing Internal Covariate Shift", [4]float64{649, 70, 1138, 139}},
		{KindParagraph, "the network always produces activations", [4]float64{649, 1283, 1138, 1510}},
	}
	if len(regions) != len(want) {
		t.Fatalf("%d regions, want %d: %+v", len(regions), len(want), regions)
	}
	sx, sy := 612.0/1232, 792.0/1596
	for i, w := range want {
		r := regions[i]
		if r.Kind != w.kind || !strings.Contains(r.Text, w.text) || r.OriginalText != r.Text {
			t.Errorf("region %d = %s %q, want %s containing %q", i, r.Kind, trunc(r.Text), w.kind, w.text)
		}
		wantBox(t, r, w.box[0]*sx, w.box[1]*sy, w.box[2]*sx, w.box[3]*sy)
	}
	if strings.Contains(regions[2].Text, "#") || strings.Contains(regions[3].Text, "*always*") {
		t.Errorf("Markdown marks left in the text: %q / %q", regions[2].Text, regions[3].Text)
	}
}

func TestDotsOCRCategoriesMapOntoKinds(t *testing.T) {
	answer := `[{"bbox":[10,10,500,40],"category":"Page-header","text":"J. Graph Theory"},
{"bbox":[10,50,800,90],"category":"Title","text":"# Spectral Sparsifiers"},
{"bbox":[10,100,800,130],"category":"Section-header","text":"## 1 Introduction"},
{"bbox":[10,140,800,200],"category":"Text","text":"Let **G** be a graph."},
{"bbox":[10,210,800,240],"category":"List-item","text":"- a vertex"},
{"bbox":[200,250,600,290],"category":"Formula","text":"$$L = D - A$$"},
{"bbox":[100,300,700,600],"category":"Picture"},
{"bbox":[100,610,700,640],"category":"Caption","text":"Figure 1: A graph."},
{"bbox":[100,650,700,800],"category":"Table","text":"<table><thead><tr><th>Nodes</th><th>Edges</th></tr></thead><tbody><tr><td>4</td><td>6 &amp; more</td></tr></tbody></table>"},
{"bbox":[10,900,700,930],"category":"Footnote","text":"1 A footnote."},
{"bbox":[10,1000,100,1030],"category":"Page-footer","text":"12"}]`
	regions, err := ParsePresetAnswer(PresetDotsOCR, answer, PageGeom{W: 560, H: 560, ImgW: 1120, ImgH: 1120}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind, visual Kind
		text         string
	}{
		{KindFurniture, "", "J. Graph Theory"}, {KindHeadline, "", "Spectral Sparsifiers"},
		{KindSubhead, "", "1 Introduction"}, {KindParagraph, "", "Let G be a graph."},
		{KindList, "", "- a vertex"}, {KindFigure, KindFigure, "$$L = D - A$$"},
		{KindFigure, KindFigure, ""}, {KindCaption, "", "Figure 1: A graph."},
		{KindTable, KindTable, "Nodes\tEdges\n4\t6 & more"}, {KindFootnote, "", "1 A footnote."},
		{KindFurniture, "", "12"},
	}
	if len(regions) != len(want) {
		t.Fatalf("%d regions, want %d", len(regions), len(want))
	}
	for i, w := range want {
		if r := regions[i]; r.Kind != w.kind || r.VisualKind != w.visual || r.Text != w.text {
			t.Errorf("region %d = %s/%s %q, want %s/%s %q", i, r.Kind, r.VisualKind, r.Text, w.kind, w.visual, w.text)
		}
	}
	wantBox(t, regions[0], 5, 5, 250, 20) // 1120 px is already a multiple of 28: half scale
}

func TestPresetAnswersThatFail(t *testing.T) {
	dots := recorded(t, "dots-ocr-batchnorm-p2.json")
	cases := []struct {
		name   string
		preset VisionPreset
		answer string
		want   error
		says   string
	}{
		{"dots.ocr cut off by its token limit", PresetDotsOCR, dots[:len(dots)-200], ErrTruncated, "cut off"},
		{"dots.ocr cut off inside a fence", PresetDotsOCR, "```json\n" + dots[:700], ErrTruncated, "cut off"},
		{"dots.ocr box past the image", PresetDotsOCR, `[{"bbox":[100,100,1900,300],"category":"Text","text":"wide"}]`, ErrBoxOutside, "outside the image"},
		{"dots.ocr empty", PresetDotsOCR, " \n", ErrEmptyAnswer, "empty"},
		{"dots.ocr prose", PresetDotsOCR, "I cannot read this page.", ErrUnparsable, "not parsable"},
		{"dots.ocr looping", PresetDotsOCR, `[{"bbox":[1,1,100,100],"category":"Text","text":"` + strings.Repeat("la la ", 12) + `"}]`, ErrRepetitionLoop, "repetition"},
		{"qwen2.5-vl box past the resized image", PresetQwen25VL, `[{"bbox_2d":[100,100,1500,1700],"text_content":"x"}]`, ErrBoxOutside, "outside"},
		{"olmocr empty body", PresetOlmOCR, "---\nprimary_language: null\nis_rotation_valid: True\nrotation_correction: 0\nis_table: False\nis_diagram: False\n---\n", ErrEmptyAnswer, "empty"},
		{"olmocr rotated page", PresetOlmOCR, "---\nprimary_language: en\nis_rotation_valid: False\nrotation_correction: 90\nis_table: False\nis_diagram: False\n---\nsideways text", ErrRotated, "rotated by 90"},
		{"olmocr front matter cut off", PresetOlmOCR, "---\nprimary_language: en\nis_rota", ErrTruncated, "cut off"},
		{"olmocr text matching no word on the page", PresetOlmOCR, "---\nprimary_language: en\n---\nQuite different words entirely here.", ErrUnplaced, "could not be placed"},
		{"docling cut off", PresetDocling, recorded(t, "docling-2305.03393v1-pg9.json")[:900], ErrTruncated, "cut off"},
		{"docling box past the page", PresetDocling, `{"schema_name":"DoclingDocument","body":{"children":[{"$ref":"#/texts/0"}]},"texts":[{"self_ref":"#/texts/0","label":"text","text":"x","prov":[{"page_no":1,"bbox":{"l":10,"t":900,"r":100,"b":880,"coord_origin":"BOTTOMLEFT"}}]}],"pages":{"1":{"size":{"width":612,"height":792},"page_no":1}}}`, ErrBoxOutside, "outside"},
		{"docling with no items", PresetDocling, `{"schema_name":"DoclingDocument","body":{"children":[]},"texts":[],"pages":{"1":{"size":{"width":612,"height":792},"page_no":1}}}`, ErrNoRegions, "no regions"},
		{"docling response without json", PresetDocling, `{"document":{"md_content":"# x","json_content":null},"status":"success"}`, ErrEmptyAnswer, "to_formats=json"},
	}
	anchors := []TextBlock{{BBox: BBox{72, 72, 300, 24}, Text: "The harbour board met on Tuesday", LineCount: 1}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePresetAnswer(c.preset, c.answer, PageGeom{W: 612, H: 792, ImgW: 1224, ImgH: 1584}, anchors)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want %v saying %q", err, c.want, c.says)
			}
		})
	}
}

func TestDoclingRecordedDocumentBecomesRegions(t *testing.T) {
	// docling-serve answers for the page image it was sent; its page size is
	// that image's, so a 150 DPI render (1275x1650) is scaled to the page.
	regions, err := ParsePresetAnswer(PresetDocling, recorded(t, "docling-2305.03393v1-pg9.json"), PageGeom{W: 612, H: 792, ImgW: 1275, ImgH: 1650}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind Kind
		text string
		l, t float64 // page points from the top-left corner
		r, b float64
	}{
		{KindFurniture, "Optimized Table Tokenization for Table Structure Recognition", 194.48, 792 - 698.34, 447.55, 792 - 689.96},
		{KindFurniture, "9", 475.98, 792 - 698.34, 480.59, 792 - 689.96},
		{KindParagraph, "order to compute the TED score.", 134.76, 792 - 673.13, 480.6, 792 - 639.92},
		{KindSubhead, "5.1 Hyper Parameter Optimization", 134.76, 792 - 622.84, 318.45, 792 - 613.62},
		{KindParagraph, "We have chosen the PubTabNet data set", 134.76, 792 - 606.47, 480.6, 792 - 536.93},
		{KindTable, "# enc-la y ers\t# dec-la y ers\tLanguage\tTEDs\tmAP\tInference\nsimple\tcomplex\tall\t(0.75)\ttime (secs)\n6\t6\tOTSL HTML\t0.965 0.969\t0.934 0.927\t0.955 0.955\t0.88 0.857\t2.73 5.39", 139.67, 792 - 454.45, 475.01, 792 - 322.51},
		{KindCaption, "Table 1. HPO performed in OTSL", 134.76, 792 - 518.26, 480.6, 792 - 464.76},
		{KindSubhead, "5.2 Quantitative Results", 134.76, 792 - 283.88, 264.41, 792 - 274.65},
		{KindParagraph, "We picked the model parameter configuration", 134.76, 792 - 267.51, 480.72, 792 - 174.53},
		{KindParagraph, "Additionally, the results show", 134.76, 792 - 171.87, 480.6, 792 - 126.71},
	}
	if len(regions) != len(want) {
		t.Fatalf("%d regions, want %d", len(regions), len(want))
	}
	for i, w := range want {
		r := regions[i]
		if r.Kind != w.kind || !strings.HasPrefix(r.Text, w.text) {
			t.Errorf("region %d = %s %q, want %s %q", i, r.Kind, trunc(r.Text), w.kind, w.text)
		}
		wantBox(t, r, w.l, w.t, w.r, w.b)
	}
}

func TestQwenTextSpottingBoxesByModel(t *testing.T) {
	// 644x868 is already a multiple of 28: Qwen2.5-VL's pixels are the image's.
	g := PageGeom{W: 322, H: 434, ImgW: 644, ImgH: 868}
	r25, err := ParsePresetAnswer(PresetQwen25VL, qwenSpotting, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r25) != 2 || r25[0].Text != "AuntieAnne's" || r25[1].Text != "CINNAMON SUGAR" {
		t.Fatalf("regions = %+v", r25)
	}
	wantBox(t, r25[0], 54, 87.5, 248, 115)
	// Qwen3-VL gives the same numbers on a 0..1000 scale.
	r3, err := ParsePresetAnswer(PresetQwen3VL, qwenSpotting, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantBox(t, r3[0], 108*0.322, 175*0.434, 496*0.322, 230*0.434)
	// Unlabelled lines are typed as Tesseract's are: the tall name is a headline.
	if r25[0].Kind != KindHeadline {
		t.Errorf("kind of the tall line = %s, want headline", r25[0].Kind)
	}
}

func TestOlmOCRBlocksAndPlacement(t *testing.T) {
	answer := "---\nprimary_language: en\nis_rotation_valid: True\nrotation_correction: 0\nis_table: False\nis_diagram: False\n---\n" +
		"# Harbour News\n\nThe harbour board met on Tuesday to discuss the new pier and agreed that the work should begin.\n\n" +
		"- first item here\n- second item\n\n![A map of the pier](page_100_400_200_100.png)\n\n" +
		"<table><tr><th>Year</th><th>Boats</th></tr><tr><td>1990</td><td>12</td></tr></table>"
	anchors := []TextBlock{
		{BBox: BBox{72, 60, 200, 30}, Text: "Harbour News", LineCount: 1},
		{BBox: BBox{72, 100, 400, 30}, Text: "The harbour board met on Tuesday to discuss the new pier and agreed that the work should begin.", LineCount: 2},
		{BBox: BBox{72, 140, 200, 30}, Text: "first item here second item", LineCount: 2},
		{BBox: BBox{72, 300, 200, 30}, Text: "Year Boats 1990 12", LineCount: 2},
		{BBox: BBox{500, 760, 20, 10}, Text: "9", LineCount: 1}, // a folio olmOCR leaves out
	}
	g := PageGeom{W: 612, H: 792, ImgW: 1288, ImgH: 1652}
	regions, err := ParsePresetAnswer(PresetOlmOCR, answer, g, anchors)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind Kind
		text string
		box  [4]float64
	}{
		{KindHeadline, "Harbour News", [4]float64{72, 60, 272, 90}},
		{KindParagraph, "The harbour board met on Tuesday", [4]float64{72, 100, 472, 130}},
		{KindList, "- first item here\n- second item", [4]float64{72, 140, 272, 170}},
		{KindFigure, "", [4]float64{100 * 612.0 / 1288, 400 * 792.0 / 1652, 300 * 612.0 / 1288, 500 * 792.0 / 1652}},
		{KindTable, "Year\tBoats\n1990\t12", [4]float64{72, 300, 272, 330}},
	}
	if len(regions) != len(want) {
		t.Fatalf("%d regions, want %d: %+v", len(regions), len(want), regions)
	}
	for i, w := range want {
		r := regions[i]
		if r.Kind != w.kind || !strings.HasPrefix(r.Text, w.text) {
			t.Errorf("region %d = %s %q, want %s %q", i, r.Kind, r.Text, w.kind, w.text)
		}
		wantBox(t, r, w.box[0], w.box[1], w.box[2], w.box[3])
	}
	// olmOCR's HTML table keeps its cells, <th> as headings.
	if tb := regions[4].Table; tb == nil || tb.HeaderRows() != 1 || fmt.Sprint(tb.Matrix()) != "[[Year Boats] [1990 12]]" {
		t.Errorf("olmOCR table cells = %+v", regions[4].Table)
	}
}

func FuzzParsePresetAnswer(f *testing.F) {
	for _, name := range []string{"dots-ocr-batchnorm-p2.json", "olmocr-plos-p20.md", "docling-2305.03393v1-pg9.json"} {
		b, err := os.ReadFile("testdata/engines/" + name)
		if err != nil {
			f.Fatal(err)
		}
		// Whole answers and their first 1,500 bytes (small seeds fuzz faster).
		for p := range VisionPresets {
			f.Add(string(b), uint8(p), 612.0, 792.0, 1275, 1650)
			f.Add(string(b[:min(len(b), 1500)]), uint8(p), 612.0, 792.0, 1275, 1650)
		}
	}
	f.Add(qwenSpotting, uint8(4), 612.0, 792.0, 1288, 1652)
	f.Add("---\nrotation_correction: 0\n---\n# T\n\n![x](page_1_2_3_4.png)\n\n<table><tr><td>a", uint8(2), 612.0, 792.0, 0, 0)
	f.Add(`[{"bbox":[1,1,90,90],"category":"Table","text":"<table><thead><tr><th rowspan=\"900\" colspan=\"2\">h</th><td colspan=\"99\">x</td></tr></thead><tr><td>1</td></tr></table>"}]`, uint8(1), 612.0, 792.0, 1275, 1650)
	anchors := []TextBlock{
		{BBox: BBox{72, 60, 400, 40}, Text: "Fig 2B) stimulus duration at the moment of updating", LineCount: 2},
		{BBox: BBox{72, 700, 20, 10}, Text: "9", LineCount: 1},
	}
	f.Fuzz(func(t *testing.T, answer string, preset uint8, pw, ph float64, iw, ih int) {
		p := VisionPresets[int(preset)%len(VisionPresets)]
		// Real pages: PDF user space ends at 14,400 points; renders are bounded.
		if !(pw >= 1 && pw <= 14400 && ph >= 1 && ph <= 14400) || iw > 40000 || ih > 40000 {
			return
		}
		regions, err := ParsePresetAnswer(p, answer, PageGeom{W: pw, H: ph, ImgW: iw, ImgH: ih}, anchors)
		checkParsed(t, string(p), regions, err, pw, ph, false)
		for _, r := range regions {
			if r.Table == nil {
				continue
			}
			// A table's cells are one review can edit, and its text is theirs.
			if err := r.Table.Check(); err != nil || r.Kind != KindTable || r.Text != r.Table.Text() {
				t.Fatalf("%s region with cells: %v; text %q, cells' %q", r.Kind, err, r.Text, r.Table.Text())
			}
		}
	})
}

// An engine's HTML table (dots.ocr and olmOCR answer tables so) keeps its
// cells: headings from <thead>/<th>, spans, the caption.
func TestHTMLTableKeepsCells(t *testing.T) {
	answer := `[{"bbox":[100,100,1100,400],"category":"Table","text":"<table><caption>Table 2. Results</caption><thead><tr><th rowspan=\"2\">Model</th><th colspan=\"2\">TEDs</th></tr><tr><th>simple</th><th>complex</th></tr></thead><tbody><tr><td>OTSL</td><td>0.965</td><td>0.934</td></tr><tr><td>HTML</td><td>0.969</td><td>0.927</td></tr></tbody></table>"}]`
	regions, err := ParsePresetAnswer(PresetDotsOCR, answer, PageGeom{W: 612, H: 792, ImgW: 1275, ImgH: 1650}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := regions[0]
	if r.Kind != KindTable || r.Table == nil {
		t.Fatalf("region %s with table %v", r.Kind, r.Table)
	}
	if got := r.Table.Matrix(); fmt.Sprint(got) != "[[Model TEDs ] [ simple complex] [OTSL 0.965 0.934] [HTML 0.969 0.927]]" || r.Table.HeaderRows() != 2 || r.Table.Caption != "Table 2. Results" {
		t.Errorf("matrix %q, %d heading rows, caption %q", got, r.Table.HeaderRows(), r.Table.Caption)
	}
	if r.Text != r.Table.Text() {
		t.Errorf("text %q is not the cells' text %q", r.Text, r.Table.Text())
	}
	if s := SpokenAs(r, Reading{}); !strings.Contains(s, "Model: OTSL, TEDs simple: 0.965, TEDs complex: 0.934.") {
		t.Errorf("spoken = %q", s)
	}
	if !strings.Contains(r.Table.Markdown(), "| OTSL | 0.965 | 0.934 |") {
		t.Errorf("markdown = %q", r.Table.Markdown())
	}
	// Not a table of two columns: the region keeps its text, no cells.
	one, err := ParsePresetAnswer(PresetDotsOCR, `[{"bbox":[1,1,100,100],"category":"Table","text":"<table><tr><td>alone</td></tr></table>"}]`, PageGeom{W: 612, H: 792, ImgW: 1275, ImgH: 1650}, nil)
	if err != nil || one[0].Table != nil || one[0].Text != "alone" {
		t.Errorf("one-cell table: %+v, %v", one, err)
	}
}

package app

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/engines/enginetest"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// These tests ingest a scanned page (a PDF page that is one picture, so no
// text layer is read) through the local runner while a vision OCR card
// points at an engine on 127.0.0.1 speaking that engine's real protocol
// and answering its real recorded answer (magazine/testdata/engines/
// SOURCES.md); the answer must become the page's regions in review and the
// read-aloud text of an approved article.

func recorded(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../magazine/testdata/engines/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// printed is a block of text on a scanned page: left and top in points,
// wrapped to width.
type printed struct {
	x, top, width, size float64
	text                string
}

// scanOf is a one-page scan (a 200 DPI picture of the page) of blocks.
func scanOf(t *testing.T, blocks ...printed) []byte {
	t.Helper()
	return picturesOf(t, 1, func(p *pdftest.Page, _ int) {
		for _, b := range blocks {
			for i, line := range b.lines() {
				p.Text(b.x, b.top+float64(i)*b.size*1.3, b.size, false, line)
			}
		}
	})
}

// readWithCard makes a vision OCR card of kind vision-ocr with the preset
// for the engine at url, names it in the settings, ingests scan and answers
// its page 1 as review shows it.
func (c *apiClient) readWithCard(url, preset, model string, scan []byte) (string, magazineapi.PageView) {
	c.t.Helper()
	card := fmt.Sprintf(`{"kind":"vision-ocr","base_url":%q,"model":%q,"ocr_preset":%q}`, url, model, preset)
	if status, _, b := c.do(http.MethodPut, "/api/engines/page-reader", []byte(card)); status != http.StatusOK && status != http.StatusCreated {
		c.t.Fatalf("card: %d %s", status, b)
	}
	if status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"vision_ocr_url":"`+url+`"}`)); status != http.StatusOK {
		c.t.Fatalf("settings: %d %s", status, b)
	}
	id := c.ingestReady("scan.pdf", scan)
	return id, c.page(id, 1)
}

// preview is the live preview's HTML of page 1.
func (c *apiClient) preview(id string) string {
	c.t.Helper()
	return decode[struct{ HTML string }](c.t, c.get("/api/magazine/"+id+"/pages/1/preview")).HTML
}

// approvedText groups every region of page 1 (in reading order) into an
// article, approves it and answers its read-aloud text.
func (c *apiClient) approvedText(id string, p magazineapi.PageView) string {
	c.t.Helper()
	for _, a := range decode[struct{ Articles []magazine.Article }](c.t, c.get("/api/magazine/"+id+"/articles")).Articles {
		if status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/articles/"+a.ID+"/proposal", []byte(`{"action":"dissolve"}`)); status != http.StatusOK {
			c.t.Fatalf("dissolve %s: %d %s", a.Title, status, b)
		}
	}
	refs := make([]magazine.RegionRef, len(p.Order))
	for i, r := range p.Order {
		refs[i] = magazine.RegionRef{Page: 1, Region: r}
	}
	art := c.newArticle(id, "Read by a vision engine", refs...)
	c.approve(id, art)
	return decode[struct{ Text string }](c.t, c.get("/api/magazine/"+id+"/articles/"+art+"/text")).Text
}

// within fails unless each side of box b is within tol points of want
// (left, top, right, bottom).
func within(t *testing.T, what string, b magazine.BBox, want [4]float64, tol float64) {
	t.Helper()
	got := [4]float64{b[0], b[1], b[0] + b[2], b[1] + b[3]}
	for i := range got {
		if got[i] < want[i]-tol || got[i] > want[i]+tol {
			t.Errorf("%s box (l t r b) = %.1f, want %.1f ± %g", what, got, want, tol)
			return
		}
	}
}

// dotsPt is a dots.ocr box of the 1288×1652 image it sees of the 150 DPI
// render of a letter page (Qwen2-VL's smart resize), in points.
func dotsPt(x0, y0, x1, y1 float64) [4]float64 {
	return [4]float64{x0 * 612 / 1288, y0 * 792 / 1652, x1 * 612 / 1288, y1 * 792 / 1652}
}

func TestDotsOCRIngestedThroughTheWholePipeline(t *testing.T) {
	c := newLocalApp(t)
	dots := enginetest.NewChat(t, recorded(t, "dots-ocr-batchnorm-p2.json"))
	// The page as the recorded answer places it.
	scan := scanOf(t,
		printed{70, 36, 232, 9, "not have to readjust to compensate for the change in the distribution of x."},
		printed{308, 34, 232, 12, "2 Towards Reducing Internal Covariate Shift"},
		printed{70, 627, 232, 9, "In Sec. 4.2, we apply Batch Normalization to the best-performing ImageNet classification network."},
		printed{308, 615, 232, 9, "The issue with the above approach is that the gradient descent optimization does not take into account the fact that the normalization takes place."},
	)
	id, p := c.readWithCard(dots.URL, "dots-ocr", "rednote-hilab/dots.ocr", scan)
	model, prompt, img := dots.Asked()
	if model != "rednote-hilab/dots.ocr" || !strings.HasPrefix(prompt, "Please output the layout information from the PDF image") {
		t.Errorf("dots.ocr was asked for model %q with %q", model, prompt)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(img)); err != nil || cfg.Width != 1275 || cfg.Height != 1650 {
		t.Errorf("image sent: %+v %v, want the 150 DPI render (1275×1650)", cfg, err)
	}
	if p.Engine != "vision-primary" || p.EngineNote != "" {
		t.Fatalf("page read by %q (%q), want the vision engine", p.Engine, p.EngineNote)
	}
	sub := regionByText(t, p, "2 Towards Reducing Internal Covariate Shift")
	if sub.Kind != magazine.KindSubhead || sub.Text != "2 Towards Reducing Internal Covariate Shift" {
		t.Errorf("section header read as %s %q", sub.Kind, sub.Text)
	}
	within(t, "section header", sub.BBox, dotsPt(649, 70, 1138, 139), 0.5)
	last := regionByText(t, p, "The issue with the above approach")
	if last.Kind != magazine.KindParagraph || !strings.Contains(last.Text, "the network always produces activations") || !strings.Contains(last.Text, `$\Theta$`) {
		t.Errorf("last paragraph %s %q: want its Markdown emphasis gone and its LaTeX kept", last.Kind, last.Text)
	}
	within(t, "last paragraph", last.BBox, dotsPt(649, 1283, 1138, 1510), 0.5)
	if html := c.preview(id); !strings.Contains(html, ">2 Towards Reducing Internal Covariate Shift</h3>") || !strings.Contains(html, "In Sec. 4.2, we apply Batch Normalization") {
		t.Errorf("preview = %s", html)
	}
	text := c.approvedText(id, p)
	for _, want := range []string{"not have to readjust", "2 Towards Reducing Internal Covariate Shift", "In Sec. 4.2, we apply Batch Normalization", "the network always produces activations"} {
		if !strings.Contains(text, want) {
			t.Errorf("read-aloud text lacks %q: %q", want, text)
		}
	}
	if strings.Contains(text, "##") || strings.Contains(text, "*always*") {
		t.Errorf("Markdown marks are read aloud: %q", text)
	}
}

func TestOlmOCRIngestedThroughTheWholePipeline(t *testing.T) {
	c := newLocalApp(t)
	answer := recorded(t, "olmocr-plos-p20.md")
	olm := enginetest.NewChat(t, answer)
	// The page as printed: each paragraph of the answer, 10 pt on a 468 pt
	// measure from the top (olmOCR gives no boxes: Tesseract's reading of
	// this scan places them).
	_, body, _ := strings.Cut(strings.TrimPrefix(answer, "---"), "\n---\n")
	ascii := strings.NewReplacer("—", "-", "“", `"`, "”", `"`, "’", "'", `\(`, "", `\)`, "", `\[`, "", `\]`, "", "**", "", "*", "")
	var blocks []printed
	var tops []float64
	y := 60.0
	for _, para := range strings.Split(strings.TrimSpace(body), "\n\n") {
		b := printed{72, y, 468, 10, ascii.Replace(para)}
		blocks = append(blocks, b)
		tops = append(tops, y)
		y += float64(len(b.lines()))*13 + 10
	}
	id, p := c.readWithCard(olm.URL, "olmocr", "allenai/olmOCR-2-7B-1025-FP8", scanOf(t, blocks...))
	_, prompt, img := olm.Asked()
	if !strings.HasPrefix(prompt, "Attached is one page of a document that you must process.") {
		t.Errorf("olmOCR was asked %q", prompt)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(img)); err != nil || max(cfg.Width, cfg.Height) != 1288 {
		t.Errorf("image sent: %+v %v, want its longest side 1288 pixels", cfg, err)
	}
	if p.Engine != "vision-primary" {
		t.Fatalf("page read by %q (%q), want the vision engine", p.Engine, p.EngineNote)
	}
	for i, start := range map[int]string{0: "Fig 2B) stimulus duration", 1: "With the learned generative model", 5: "Boundary-updating. After having experienced"} {
		r := regionByText(t, p, start)
		if r.Kind != magazine.KindParagraph || r.BBox[1] < tops[i]-4 || r.BBox[1] > tops[i]+4 || r.BBox[0] < 68 || r.BBox[0] > 76 {
			t.Errorf("%q: %s at %.1f, want a paragraph at left 72, top %.1f (where it is printed)", start, r.Kind, r.BBox, tops[i])
		}
	}
	if html := c.preview(id); !strings.Contains(html, "Fig 2B) stimulus duration") || strings.Contains(html, "primary_language") {
		t.Errorf("preview = %s", html)
	}
	text := c.approvedText(id, p)
	for _, want := range []string{"Fig 2B) stimulus duration", "working memory system", "Decision-making. As for decision-making", "Boundary-updating. After having experienced"} {
		if !strings.Contains(text, want) {
			t.Errorf("read-aloud text lacks %q: %q", want, text)
		}
	}
	if strings.Contains(text, "primary_language") || strings.Contains(text, "**") {
		t.Errorf("front matter or Markdown read aloud: %q", text)
	}
}

// lines is b's text wrapped to its width.
func (b printed) lines() []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(b.text) {
		if line != "" && pdftest.TextWidth(b.size, line+" "+w) > b.width {
			out = append(out, line)
			line = ""
		}
		line = strings.TrimSpace(line + " " + w)
	}
	return append(out, line)
}

func TestDoclingServeIngestedThroughTheWholePipeline(t *testing.T) {
	c := newLocalApp(t)
	docling := enginetest.NewDocling(t, "/v1/convert/file", enginetest.DoclingReply(recorded(t, "docling-2305.03393v1-pg9.json")))
	// The page as docling's boxes place it (from the bottom: top = 792 - t).
	scan := scanOf(t,
		printed{194.48, 93.66, 260, 9, "Optimized Table Tokenization for Table Structure Recognition"},
		printed{475.98, 93.66, 10, 9, "9"},
		printed{134.76, 118.87, 346, 10, "order to compute the TED score. Inference timing results for all experiments"},
		printed{134.76, 169.16, 200, 12, "5.1 Hyper Parameter Optimization"},
		printed{134.76, 185.53, 346, 10, "We have chosen the PubTabNet data set to perform HPO, since it includes a highly diverse set of tables."},
		printed{134.76, 273.74, 346, 9, "Table 1. HPO performed in OTSL and HTML representation on the same transformer-based TableFormer architecture."},
		printed{134.76, 508.12, 200, 12, "5.2 Quantitative Results"},
	)
	id, p := c.readWithCard(docling.URL, "docling", "", scan)
	if f := docling.File(); !bytes.HasPrefix(f, []byte("\x89PNG")) {
		t.Errorf("docling-serve was sent %d bytes that are not a PNG", len(f))
	}
	if p.Engine != "vision-primary" {
		t.Fatalf("page read by %q (%q), want the vision engine", p.Engine, p.EngineNote)
	}
	head := regionByText(t, p, "Optimized Table Tokenization")
	sub := regionByText(t, p, "5.1 Hyper Parameter Optimization")
	caption := regionByText(t, p, "Table 1. HPO performed")
	if head.Kind != magazine.KindFurniture || sub.Kind != magazine.KindSubhead || caption.Kind != magazine.KindCaption {
		t.Errorf("kinds: running head %s, section header %s, caption %s", head.Kind, sub.Kind, caption.Kind)
	}
	// l 134.76, t 622.84, r 318.45, b 613.62 from the bottom of the page.
	within(t, "section header", sub.BBox, [4]float64{134.76, 792 - 622.84, 318.45, 792 - 613.62}, 0.05)
	var table *magazine.Region
	for i := range p.Regions {
		if p.Regions[i].Kind == magazine.KindTable {
			table = &p.Regions[i]
		}
	}
	if table == nil {
		t.Fatalf("no table region: %+v", p.Regions)
	}
	within(t, "table", table.BBox, [4]float64{139.67, 792 - 454.45, 475.01, 792 - 322.51}, 0.05)
	// docling's table_cells become the region's cells: two heading rows,
	// TEDs over three columns, the data row under them.
	if tb := table.Table; tb == nil || tb.HeaderRows() != 2 || tb.Width() != 8 || fmt.Sprint(tb.Matrix()[0][3:6]) != "[TEDs  ]" || fmt.Sprint(tb.Matrix()[2][:3]) != "[6 6 OTSL HTML]" {
		t.Errorf("table cells = %+v", table.Table)
	}
	if s := magazine.SpokenAs(*table, magazine.Reading{}); !strings.HasPrefix(s, "# enc-la y ers: 6, # dec-la y ers: 6, Language: OTSL HTML, TEDs simple: 0.965 0.969") {
		t.Errorf("the table is listened to as %q", s)
	}
	html := c.preview(id)
	for _, want := range []string{`class="muted" data-region="` + head.ID + `">Optimized Table Tokenization for Table Structure Recognition</p>`, `<h3 data-region="` + sub.ID + `">5.1 Hyper Parameter Optimization</h3>`, `ph-table" data-region="` + table.ID + `"`} {
		if !strings.Contains(html, want) {
			t.Errorf("preview lacks %s: %s", want, html)
		}
	}
	text := c.approvedText(id, p)
	for _, want := range []string{"5.1 Hyper Parameter Optimization", "We have chosen the PubTabNet data set", "6\t6\tOTSL HTML\t0.965 0.969", "5.2 Quantitative Results", "Additionally, the results show that OTSL"} {
		if !strings.Contains(text, want) {
			t.Errorf("read-aloud text lacks %q: %q", want, text)
		}
	}
	if strings.Contains(text, "Optimized Table Tokenization for Table Structure Recognition") {
		t.Errorf("the running head is read aloud: %q", text)
	}
}

func TestQwenVLIngestedThroughTheWholePipeline(t *testing.T) {
	// The Qwen VL cookbooks' text-spotting example answer (SOURCES.md).
	answer := "```json\n[\n    {\"bbox_2d\": [108, 175, 496, 230], \"text_content\": \"AuntieAnne's\"},\n    {\"bbox_2d\": [49, 429, 252, 450], \"text_content\": \"CINNAMON SUGAR\"}\n]\n```"
	for _, tc := range []struct {
		preset string
		w, h   float64 // the space of the boxes
	}{{"qwen2.5-vl", 1288, 1652}, {"qwen3-vl", 1000, 1000}} {
		t.Run(tc.preset, func(t *testing.T) {
			c := newLocalApp(t)
			qwen := enginetest.NewChat(t, answer)
			pt := func(x0, y0, x1, y1 float64) [4]float64 {
				return [4]float64{x0 * 612 / tc.w, y0 * 792 / tc.h, x1 * 612 / tc.w, y1 * 792 / tc.h}
			}
			brand, flavour := pt(108, 175, 496, 230), pt(49, 429, 252, 450)
			scan := scanOf(t, printed{brand[0], brand[1], 400, (brand[3] - brand[1]) * 0.8, "AuntieAnne's"},
				printed{flavour[0], flavour[1], 300, (flavour[3] - flavour[1]) * 0.8, "CINNAMON SUGAR"})
			id, p := c.readWithCard(qwen.URL, tc.preset, "Qwen/"+tc.preset, scan)
			if _, prompt, _ := qwen.Asked(); prompt != "Spotting all the text in the image with line-level, and output in JSON format." {
				t.Errorf("asked %q", prompt)
			}
			if p.Engine != "vision-primary" || len(p.Regions) != 2 {
				t.Fatalf("page read by %q (%q): %+v", p.Engine, p.EngineNote, p.Regions)
			}
			within(t, "first line", regionByText(t, p, "AuntieAnne's").BBox, brand, 0.5)
			within(t, "second line", regionByText(t, p, "CINNAMON SUGAR").BBox, flavour, 0.5)
			if html := c.preview(id); !strings.Contains(html, "AuntieAnne&#39;s") || !strings.Contains(html, "CINNAMON SUGAR") {
				t.Errorf("preview = %s", html)
			}
			text := c.approvedText(id, p)
			if !strings.Contains(text, "AuntieAnne's") || !strings.Contains(text, "CINNAMON SUGAR") {
				t.Errorf("read-aloud text = %q", text)
			}
		})
	}
}

// TestBadVisionAnswersFallBackOnIngest: a preset engine's malformed, empty
// or looping answer is a failed call; Tesseract reads the scan and the
// page in review says why the engine's answer was not used.
func TestBadVisionAnswersFallBackOnIngest(t *testing.T) {
	dots := recorded(t, "dots-ocr-batchnorm-p2.json")
	c := newLocalApp(t)
	for _, tc := range []struct{ name, answer, says string }{
		{"malformed JSON", dots[:len(dots)-120], "vision answer is not parsable JSON regions: the JSON is cut off"},
		{"empty", "", "empty content"},
		{"repetition loop", `[{"bbox":[1,1,100,100],"category":"Text","text":"` + strings.Repeat("the end ", 12) + `"}]`, "vision answer has a repetition loop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			engine := enginetest.NewChat(t, tc.answer)
			_, p := c.readWithCard(engine.URL, "dots-ocr", "rednote-hilab/dots.ocr", scannedPage(t, false, nil))
			if engine.Calls() != 1 {
				t.Errorf("the engine was called %d times, want once", engine.Calls())
			}
			if p.Engine != "tesseract" || !strings.HasPrefix(p.EngineNote, "read by tesseract after vision-primary: ") || !strings.Contains(p.EngineNote, tc.says) {
				t.Fatalf("page read by %q with note %q, want tesseract and a note saying %q", p.Engine, p.EngineNote, tc.says)
			}
			if r := regionByText(t, p, "The harbour board met"); !strings.Contains(r.Text, "winter storms") {
				t.Errorf("tesseract's reading = %q", r.Text)
			}
		})
	}
}

package pipeline

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/engines/docling"
	"github.com/lectern/lectern/shared/engines/enginetest"
	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// These tests send pages to local servers speaking each engine's real
// protocol (OpenAI-compatible chat completions as vLLM serves dots.ocr,
// olmOCR and Qwen; docling-serve's /v1/convert/file) that answer with the
// engine's real recorded answer (magazine/testdata/engines/SOURCES.md).

func recordedAnswer(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../magazine/testdata/engines/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// vllmEngine is vLLM's chat completions on 127.0.0.1 (enginetest.Chat)
// answering every call with one answer, and a client for it.
type vllmEngine struct {
	*enginetest.Chat
	c *oaichat.Client
}

func newVLLM(t *testing.T, answer string) *vllmEngine {
	t.Helper()
	e := enginetest.NewChat(t, answer)
	return &vllmEngine{e, oaichat.New(oaichat.Config{BaseURL: e.URL, Model: "served", Timeout: 5 * time.Second, MaxRetries: -1})}
}

func (e *vllmEngine) client(*testing.T) *oaichat.Client { return e.c }

func (e *vllmEngine) lastPrompt() string {
	_, p, _ := e.Asked()
	return p
}

func (e *vllmEngine) sentImage() []byte {
	_, _, img := e.Asked()
	return img
}

// renderPage draws a one-page PDF at dpi as PNG.
func renderPage(t *testing.T, data []byte, dpi int) PageImage {
	t.Helper()
	img, err := pdf.Render(context.Background(), data, 1, dpi, pdf.DefaultLimits(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return PageImage{PNG: buf.Bytes(), Width: img.Bounds().Dx(), Height: img.Bounds().Dy(), DPI: dpi}
}

func previewOf(regions []magazine.Region) string {
	return magazine.PreviewHTML(magazine.Page{Width: 612, Height: 792, Regions: regions}, 0)
}

func TestDotsOCRThroughTheChain(t *testing.T) {
	e := newVLLM(t, recordedAnswer(t, "dots-ocr-batchnorm-p2.json"))
	in := page()
	in.Render = PageImage{PNG: []byte("page png"), Width: 1224, Height: 1584, DPI: 144}
	rec, err := OCRChain{Primary: e.client(t), PrimaryPreset: magazine.PresetDotsOCR}.Recognize(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Engine != EngineVisionPrimary || len(rec.Attempts) != 0 {
		t.Fatalf("engine %s, attempts %v", rec.Engine, rec.Attempts)
	}
	if p := e.lastPrompt(); !strings.HasPrefix(p, "Please output the layout information from the PDF image") {
		t.Errorf("prompt sent = %q, want dots.ocr's prompt_layout_all_en", p)
	}
	if img := e.sentImage(); string(img) != "page png" {
		t.Errorf("image sent = %q, want the page render", img)
	}
	// The section header sits at [649, 70, 1138, 139] of the 1232x1596 image
	// the model saw: the right column's top on a letter page.
	sub := rec.Regions[2]
	if sub.Kind != magazine.KindSubhead || sub.Text != "2 Towards Reducing Internal Covariate Shift" {
		t.Fatalf("region 3 = %s %q", sub.Kind, sub.Text)
	}
	if b := sub.BBox; b[0] < 322 || b[0] > 323 || b[1] < 34.5 || b[1] > 35 || b[0]+b[2] < 565 || b[0]+b[2] > 566 {
		t.Errorf("subhead box = %v, want x 322.4..565.3, top 34.7 (points)", b)
	}
	html := previewOf(rec.Regions)
	if !strings.Contains(html, `<h3 data-region="r3">2 Towards Reducing Internal Covariate Shift</h3>`) || !strings.Contains(html, "In Sec. 4.2, we apply Batch Normalization") {
		t.Errorf("preview = %s", html)
	}
	if spoken := magazine.Spoken(rec.Regions[3], false); !strings.Contains(spoken, "the network always produces activations") {
		t.Errorf("read aloud = %q", spoken)
	}
}

// A preset engine's bad answer is a failed call: the fallback engine reads
// the page and the page records why the primary failed.
func TestPresetBadAnswersFallBack(t *testing.T) {
	dots := recordedAnswer(t, "dots-ocr-batchnorm-p2.json")
	cases := []struct {
		name, answer string
		says         string
	}{
		{"truncated JSON", dots[:len(dots)-120], "vision answer is not parsable JSON regions: the JSON is cut off"},
		{"a box outside the page", `[{"bbox":[100,100,1300,200],"category":"Text","text":"too wide"}]`, "vision answer has a box outside the image: [100, 100, 1300, 200] in an image of 1232x1596"},
		{"an empty answer", "", "answered 200: engine answered with empty content"},
		{"a repetition loop", `[{"bbox":[1,1,100,100],"category":"Text","text":"` + strings.Repeat("the end ", 12) + `"}]`, "repetition loop"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			primary := newVLLM(t, c.answer)
			fallback := newVLLM(t, goodAnswer)
			in := page()
			in.Render = PageImage{PNG: []byte("png"), Width: 1224, Height: 1584, DPI: 144}
			chain := OCRChain{Primary: primary.client(t), PrimaryPreset: magazine.PresetDotsOCR, Fallback: fallback.client(t)}
			rec, err := chain.Recognize(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Engine != EngineVisionFallback || rec.Regions[0].Text != "City Budget Passes" {
				t.Fatalf("engine %s, regions %+v", rec.Engine, rec.Regions)
			}
			// The error is the engine's own, not a timeout it never had.
			if len(rec.Attempts) != 1 || rec.Attempts[0].Engine != EngineVisionPrimary || !strings.Contains(rec.Attempts[0].Error, c.says) || strings.Contains(rec.Attempts[0].Error, "no answer within") {
				t.Fatalf("attempts = %+v, want the primary's error saying %q", rec.Attempts, c.says)
			}
			if !strings.Contains(fallback.lastPrompt(), `{"regions":[{"bbox":[x,y,w,h]`) {
				t.Errorf("the fallback (Lectern preset) was asked %q", fallback.lastPrompt())
			}
		})
	}
}

// doclingServe is docling-serve at path on 127.0.0.1 (enginetest.Docling)
// and a client for it.
func doclingServe(t *testing.T, at string, answer func(w http.ResponseWriter)) (*docling.Client, *enginetest.Docling) {
	t.Helper()
	d := enginetest.NewDocling(t, at, answer)
	return docling.New(docling.Config{BaseURL: d.URL, Timeout: 5 * time.Second}), d
}

func TestDoclingServeThroughTheChain(t *testing.T) {
	doc := recordedAnswer(t, "docling-2305.03393v1-pg9.json")
	for _, at := range []string{"/v1/convert/file", "/v1alpha/convert/file"} {
		t.Run(at, func(t *testing.T) {
			engine, served := doclingServe(t, at, enginetest.DoclingReply(doc))
			rec, err := OCRChain{Primary: engine, PrimaryPreset: magazine.PresetDocling}.Recognize(context.Background(), page())
			if err != nil {
				t.Fatal(err)
			}
			if rec.Engine != EngineVisionPrimary || len(rec.Regions) != 10 {
				t.Fatalf("engine %s, %d regions", rec.Engine, len(rec.Regions))
			}
			if want := map[string]int{"/v1/convert/file": 1, "/v1alpha/convert/file": 2}[at]; served.Calls() != want {
				t.Errorf("%d calls, want %d", served.Calls(), want)
			}
			head, sub, table := rec.Regions[0], rec.Regions[3], rec.Regions[5]
			if head.Kind != magazine.KindFurniture || sub.Kind != magazine.KindSubhead || table.Kind != magazine.KindTable {
				t.Fatalf("kinds %s %s %s", head.Kind, sub.Kind, table.Kind)
			}
			// "5.1 Hyper Parameter Optimization": l 134.76, t 622.84, b 613.62
			// from the bottom of a 792 pt page.
			if b := sub.BBox; b[0] != 134.76 || b[1] < 169.15 || b[1] > 169.17 || b[1]+b[3] < 178.37 || b[1]+b[3] > 178.39 {
				t.Errorf("subhead box = %v, want [134.76 169.16 … 178.38]", b)
			}
			html := previewOf(rec.Regions)
			for _, want := range []string{`<p class="muted" data-region="r1">Optimized Table Tokenization for Table Structure Recognition</p>`, `<h3 data-region="r4">5.1 Hyper Parameter Optimization</h3>`, `<div class="ph ph-table" data-region="r6">[table]</div>`} {
				if !strings.Contains(html, want) {
					t.Errorf("preview lacks %s: %s", want, html)
				}
			}
			if spoken := magazine.Spoken(table, false); !strings.HasPrefix(spoken, "# enc-la y ers\t# dec-la y ers\tLanguage\tTEDs") {
				t.Errorf("table read aloud = %q", spoken)
			}
			if spoken := magazine.Spoken(head, false); spoken != "" {
				t.Errorf("the running head is read aloud: %q", spoken)
			}
		})
	}
}

func TestDoclingServeFailuresFallBack(t *testing.T) {
	cases := []struct {
		name   string
		answer func(w http.ResponseWriter)
		says   string
	}{
		{"conversion failure", func(w http.ResponseWriter) {
			io.WriteString(w, `{"document":{"json_content":null},"status":"failure","errors":[{"component_type":"pipeline","module_name":"ocr","error_message":"no OCR engine"}]}`)
		}, "docling-serve conversion failure: no OCR engine"},
		{"no json asked back", func(w http.ResponseWriter) {
			io.WriteString(w, `{"document":{"md_content":"# x","json_content":null},"status":"success","errors":[]}`)
		}, "vision answer is empty"},
		{"cut-off document", enginetest.DoclingReply(`{"schema_name":"DoclingDocument","texts":[`), "docling-serve answer is not its convert response"},
		{"server error", func(w http.ResponseWriter) { http.Error(w, `{"detail":"boom"}`, http.StatusInternalServerError) }, "answered 500"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			engine, _ := doclingServe(t, "/v1/convert/file", c.answer)
			tess := &fakeTesseract{blocks: []tesseract.Block{{BBox: [4]float64{72, 72, 300, 14}, Text: "Scanned words here", Lines: 1, LineHeight: 10}}}
			rec, err := OCRChain{Primary: engine, PrimaryPreset: magazine.PresetDocling, Tesseract: tess}.Recognize(context.Background(), page())
			if err != nil {
				t.Fatal(err)
			}
			if rec.Engine != EngineTesseract || len(rec.Attempts) != 1 || !strings.Contains(rec.Attempts[0].Error, c.says) {
				t.Fatalf("engine %s, attempts %+v, want tesseract after an error saying %q", rec.Engine, rec.Attempts, c.says)
			}
		})
	}
}

func TestQwenTextSpottingThroughTheChain(t *testing.T) {
	answer := "```json\n[\n    {\"bbox_2d\": [108, 175, 496, 230], \"text_content\": \"AuntieAnne's\"},\n    {\"bbox_2d\": [49, 429, 252, 450], \"text_content\": \"CINNAMON SUGAR\"}\n]\n```"
	for _, preset := range []magazine.VisionPreset{magazine.PresetQwen25VL, magazine.PresetQwen3VL} {
		t.Run(string(preset), func(t *testing.T) {
			e := newVLLM(t, answer)
			in := page()
			in.Render = PageImage{PNG: []byte("png"), Width: 1288, Height: 1652, DPI: 150} // multiples of 28
			rec, err := OCRChain{Primary: e.client(t), PrimaryPreset: preset}.Recognize(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if e.lastPrompt() != "Spotting all the text in the image with line-level, and output in JSON format." {
				t.Errorf("prompt = %q", e.lastPrompt())
			}
			if len(rec.Regions) != 2 || rec.Regions[1].Text != "CINNAMON SUGAR" {
				t.Fatalf("regions = %+v", rec.Regions)
			}
			x0 := rec.Regions[0].BBox[0]
			want := map[magazine.VisionPreset]float64{magazine.PresetQwen25VL: 108 * 612.0 / 1288, magazine.PresetQwen3VL: 108 * 612.0 / 1000}[preset]
			if x0 < want-0.01 || x0 > want+0.01 {
				t.Errorf("x0 = %g, want %g", x0, want)
			}
		})
	}
}

// olmOCRScan is the recorded olmOCR page set as a scan would show it: each
// paragraph of the answer in Helvetica, wrapped to the measure. It returns
// the PDF and each paragraph's top and bottom (points).
func olmOCRScan(t *testing.T, paragraphs []string) ([]byte, [][2]float64) {
	t.Helper()
	ascii := strings.NewReplacer("—", "-", "“", `"`, "”", `"`, "’", "'", `\(`, "", `\)`, "", `\[`, "", `\]`, "", "**", "", "*", "")
	const left, measure, size, leading = 72.0, 468.0, 10.0, 13.0
	d := &pdftest.Doc{}
	p := d.AddPage(612, 792)
	y := 60.0
	var spans [][2]float64
	for _, para := range paragraphs {
		words := strings.Fields(ascii.Replace(para))
		top := y
		line := ""
		for _, w := range words {
			if line != "" && pdftest.TextWidth(size, line+" "+w) > measure {
				p.Text(left, y, size, false, line)
				y += leading
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		p.Text(left, y, size, false, line)
		spans = append(spans, [2]float64{top, y + size})
		y += leading + 10
	}
	return d.Bytes(), spans
}

func TestOlmOCRPlacedOnTesseractsWords(t *testing.T) {
	answer := recordedAnswer(t, "olmocr-plos-p20.md")
	_, body, _ := strings.Cut(strings.TrimPrefix(answer, "---"), "\n---\n")
	paragraphs := strings.Split(strings.TrimSpace(body), "\n\n")
	data, spans := olmOCRScan(t, paragraphs)
	in := PageInput{
		Width: 612, Height: 792,
		Render: renderPage(t, data, 150),
		HighRes: func(context.Context) (PageImage, error) {
			return renderPage(t, data, tesseract.RecommendedDPI), nil
		},
	}
	e := newVLLM(t, answer)
	tess := &countingTesseract{}
	rec, err := OCRChain{Primary: e.client(t), PrimaryPreset: magazine.PresetOlmOCR, Anchors: tess, Tesseract: tess}.Recognize(context.Background(), in)
	if errors.Is(err, tesseract.ErrNotInstalled) {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if rec.Engine != EngineVisionPrimary || tess.calls.Load() != 1 {
		t.Fatalf("engine %s (attempts %+v), tesseract ran %d times", rec.Engine, rec.Attempts, tess.calls.Load())
	}
	if !strings.HasPrefix(e.lastPrompt(), "Attached is one page of a document that you must process.") {
		t.Errorf("prompt = %q", e.lastPrompt())
	}
	// olmOCR is sent the page at the 1,288 pixels it was trained on.
	sent := e.sentImage()
	if cfg, err := png.DecodeConfig(bytes.NewReader(sent)); err != nil || max(cfg.Width, cfg.Height) != 1288 {
		t.Errorf("image sent: %+v, %v; want its longest side 1288", cfg, err)
	}
	// Every prose paragraph (all but the display formula, 3) lies where it
	// was drawn.
	starts := map[int]string{0: "Fig 2B) stimulus duration", 1: "With the learned generative model", 2: "Decision-making. As for decision-making", 4: "where the finite limit", 5: "Boundary-updating. After having experienced"}
	for i, start := range starts {
		var got *magazine.Region
		for j := range rec.Regions {
			if strings.HasPrefix(rec.Regions[j].Text, start) {
				got = &rec.Regions[j]
			}
		}
		if got == nil {
			t.Errorf("no region starts %q", start)
			continue
		}
		b, s := got.BBox, spans[i]
		if got.Kind != magazine.KindParagraph || b[1] < s[0]-4 || b[1] > s[0]+4 || b[1]+b[3] < s[1]-4 || b[1]+b[3] > s[1]+6 || b[0] < 68 || b[0] > 76 {
			t.Errorf("%q: %s box top %.1f bottom %.1f left %.1f, drawn top %.1f bottom %.1f left 72", start, got.Kind, b[1], b[1]+b[3], b[0], s[0], s[1])
		}
	}
	if spoken := magazine.Spoken(rec.Regions[0], false); !strings.Contains(spoken, "working memory system") {
		t.Errorf("read aloud = %q", spoken)
	}
}

// An engine that runs out of its share of the step's time says so on the page.
func TestTimedOutEngineSaysSo(t *testing.T) {
	slowEngine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	}))
	defer slowEngine.Close()
	fallback := newVLLM(t, goodAnswer)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	chain := OCRChain{Primary: oaichat.New(oaichat.Config{BaseURL: slowEngine.URL + "/v1", Model: "m", Timeout: 10 * time.Second, MaxRetries: -1}), Fallback: fallback.client(t)}
	rec, err := chain.Recognize(ctx, page())
	if err != nil {
		t.Fatal(err)
	}
	if rec.Engine != EngineVisionFallback || len(rec.Attempts) != 1 || !strings.Contains(rec.Attempts[0].Error, "no answer within its share of the step's time") {
		t.Fatalf("engine %s, attempts %+v", rec.Engine, rec.Attempts)
	}
}

// Reading a page again in review with olmOCR places its blocks on
// Tesseract's words, as ingest does (the review's read made no words, so
// every olmOCR answer failed there as unplaceable).
func TestRecognizePageWithOlmOCRPlacesItsBlocks(t *testing.T) {
	f := newStepsFixture(t)
	_, before := f.ingested(t)
	olm := newVLLM(t, "---\nprimary_language: en\nis_rotation_valid: True\nrotation_correction: 0\nis_table: False\nis_diagram: False\n---\nWords Tesseract read")
	tess := scannedWords()
	chain := OCRChain{Primary: olm.client(t), PrimaryPreset: magazine.PresetOlmOCR, Tesseract: tess, Anchors: tess}
	f.steps.Pages.OCR = func(context.Context) (OCRChain, error) { return chain, nil }
	got, err := f.steps.Pages.RecognizePage(t.Context(), before, EngineVisionPrimary)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := regionWithText(got, "Words Tesseract read")
	if got.Engine != EngineVisionPrimary || !ok || olm.Calls() != 1 || tess.calls.Load() != 1 {
		t.Fatalf("engine %q, region found %v, olmOCR called %d times, tesseract %d; regions %+v", got.Engine, ok, olm.Calls(), tess.calls.Load(), got.Regions)
	}
	if r.BBox[0] != 72 || r.BBox[1] != 72 || r.BBox[2] != 300 {
		t.Errorf("block placed at %v, want Tesseract's line [72 72 300 14]", r.BBox)
	}
}

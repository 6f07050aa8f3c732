package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// engineSet is a chain of stand-ins whose calls are counted, so a test can
// tell that only the chosen engine ran.
type engineSet struct {
	primary, fallback *atomic.Int32
	tess              *fakeTesseract
}

func (e engineSet) calls() [3]int32 {
	return [3]int32{e.primary.Load(), e.fallback.Load(), e.tess.calls.Load()}
}

// withEngines gives the fixture's pages a chain of the given behaviours;
// a nil behaviour leaves that vision engine unconfigured.
func (f *stepsFixture) withEngines(t *testing.T, primary, fallback func(int, http.ResponseWriter), tess *fakeTesseract) engineSet {
	t.Helper()
	set := engineSet{primary: &atomic.Int32{}, fallback: &atomic.Int32{}, tess: tess}
	chain := OCRChain{Tesseract: tess}
	if primary != nil {
		c, calls := chatEngine(t, primary)
		chain.Primary, set.primary = c, calls
	}
	if fallback != nil {
		c, calls := chatEngine(t, fallback)
		chain.Fallback, set.fallback = c, calls
	}
	f.steps.Pages.OCR = func(context.Context) (OCRChain, error) { return chain, nil }
	return set
}

// ingested runs every page step on page 1 of the harbour sample with the
// text layer, as ingest leaves it.
func (f *stepsFixture) ingested(t *testing.T) (string, magazine.Page) {
	t.Helper()
	id := f.prepared(t, f.steps.Render, f.steps.Recognize, f.steps.RefineFigures, f.steps.Cleanup, f.steps.Order)
	return id, f.page(t, id, 1)
}

const fallbackAnswer = `{"regions":[{"bbox":[100,100,1000,80],"kind":"title","text":"Read By The Fallback"}]}`

func scannedWords() *fakeTesseract {
	return &fakeTesseract{blocks: []tesseract.Block{{BBox: [4]float64{72, 72, 300, 14}, Text: "Words Tesseract read", Lines: 1, LineHeight: 14, Confidence: 90}}}
}

func pageJSON(t *testing.T, p magazine.Page) string {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRecognizePageRunsOnlyTheChosenEngine(t *testing.T) {
	cases := []struct {
		engine    string
		wantText  string
		wantCalls [3]int32 // primary, fallback, tesseract
		wantDPI   int
	}{
		{EngineTextLayer, "Harbour Reborn", [3]int32{0, 0, 0}, 0},
		{EngineVisionPrimary, "City Budget Passes", [3]int32{1, 0, 0}, 0},
		{EngineVisionFallback, "Read By The Fallback", [3]int32{0, 1, 0}, 0},
		{EngineTesseract, "Words Tesseract read", [3]int32{0, 0, 1}, TesseractDPI},
	}
	for _, tc := range cases {
		t.Run(tc.engine, func(t *testing.T) {
			f := newStepsFixture(t)
			id, before := f.ingested(t)
			engines := f.withEngines(t, good, func(_ int, w http.ResponseWriter) { reply(w, fallbackAnswer) }, scannedWords())
			stored := pageJSON(t, before)

			got, err := f.steps.Pages.RecognizePage(t.Context(), before, tc.engine)
			if err != nil {
				t.Fatal(err)
			}
			if calls := engines.calls(); calls != tc.wantCalls {
				t.Errorf("engine calls (primary, fallback, tesseract) = %v, want %v", calls, tc.wantCalls)
			}
			if got.Engine != tc.engine || got.OCRDPI != tc.wantDPI {
				t.Errorf("page records engine %q at OCR DPI %d, want %q at %d", got.Engine, got.OCRDPI, tc.engine, tc.wantDPI)
			}
			if tc.wantDPI > 0 && int(engines.tess.dpi.Load()) != tc.wantDPI {
				t.Errorf("tesseract read at %d DPI, want %d", engines.tess.dpi.Load(), tc.wantDPI)
			}
			r, ok := regionWithText(got, tc.wantText)
			if !ok || r.OriginalText != r.Text {
				t.Fatalf("no region %q with its original text in %+v", tc.wantText, got.Regions)
			}
			// The follow-up: the picture kept and refined, every region ordered.
			pics := slices.DeleteFunc(slices.Clone(got.Regions), func(r magazine.Region) bool { return !magazine.IsVisual(r.Kind) })
			if len(pics) == 0 {
				t.Errorf("the photo was not kept: %+v", got.Regions)
			}
			for _, p := range pics {
				if p.CropKey != "" {
					t.Errorf("picture %s has crop %q: crops are cut when the page is stored", p.ID, p.CropKey)
				}
			}
			if got.HandOrdered || len(got.Order) != len(got.Regions) {
				t.Errorf("order %v of %d regions (hand ordered %v)", got.Order, len(got.Regions), got.HandOrdered)
			}
			if after := pageJSON(t, f.page(t, id, 1)); after != stored {
				t.Errorf("RecognizePage stored something:\nbefore %s\nafter  %s", stored, after)
			}
		})
	}
}

// TestRecognizePageTextLayerMatchesIngest: reading a page again with the
// engine it was ingested with gives the regions ingest gave.
func TestRecognizePageTextLayerMatchesIngest(t *testing.T) {
	f := newStepsFixture(t)
	_, before := f.ingested(t)
	got, err := f.steps.Pages.RecognizePage(t.Context(), before, EngineTextLayer)
	if err != nil {
		t.Fatal(err)
	}
	strip := func(p magazine.Page) string {
		rs := slices.Clone(p.Regions)
		for i := range rs {
			rs[i].CropKey = ""
		}
		b, _ := json.Marshal(struct {
			R []magazine.Region
			O []string
		}{rs, p.Order})
		return string(b)
	}
	if strip(got) != strip(before) {
		t.Errorf("text layer again:\n%s\ningest:\n%s", strip(got), strip(before))
	}
}

func TestRecognizePageRefusals(t *testing.T) {
	noText := &fakeTesseract{}
	cases := []struct {
		name     string
		engine   string
		primary  func(int, http.ResponseWriter)
		tess     *fakeTesseract
		scan     bool
		want     error
		wantKind fault.Kind
		say      string
	}{
		{"an unknown engine", "paddle", good, scannedWords(), false, ErrUnknownEngine, fault.Invalid, "text-layer, vision-primary"},
		{"an engine without a URL", EngineVisionFallback, good, scannedWords(), false, ErrEngineNotConfigured, fault.Invalid, "vision_ocr_fallback_url"},
		// The error names the status, never the engine's body ("boom"), which may echo a key.
		{"a failing engine", EngineVisionPrimary, serverError, scannedWords(), false, ErrEngineFailed, fault.Upstream, "answered 500"},
		{"a looping answer", EngineVisionPrimary, looping, scannedWords(), false, ErrEngineFailed, fault.Upstream, "repetition"},
		{"an empty answer", EngineVisionPrimary, empty, scannedWords(), false, ErrEngineFailed, fault.Upstream, "vision-primary"},
		{"tesseract finding no text", EngineTesseract, good, noText, false, ErrNothingRead, fault.Invalid, "no text"},
		{"the text layer of a scan", EngineTextLayer, good, scannedWords(), true, ErrNothingRead, fault.Invalid, "no text layer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newStepsFixture(t)
			var page magazine.Page
			if tc.scan {
				page = f.renderRecognize(t, scanPDF(612, 792), scannedWords())
			} else {
				_, page = f.ingested(t)
			}
			f.withEngines(t, tc.primary, nil, tc.tess)
			_, err := f.steps.Pages.RecognizePage(t.Context(), page, tc.engine)
			if !errors.Is(err, tc.want) || fault.KindOf(err) != tc.wantKind || !strings.Contains(err.Error(), tc.say) || strings.Contains(fmt.Sprint(err), "boom") {
				t.Errorf("err = %v (%s), want %v (%s) saying %q", err, fault.KindOf(err), tc.want, tc.wantKind, tc.say)
			}
		})
	}
}

func TestReadAreaWithOneEngine(t *testing.T) {
	const areaAnswer = `{"regions":[{"bbox":[0,0,1,1],"kind":"text","text":"Vision read the box"}]}`
	headline := magazine.BBox{60, 50, 400, 40}
	cases := []struct {
		name      string
		engine    string
		box       magazine.BBox
		primary   func(int, http.ResponseWriter)
		tess      *fakeTesseract
		want      string
		wantErr   error
		wantCalls [3]int32
	}{
		{"the text layer", EngineTextLayer, headline, nil, scannedWords(), "Harbour Reborn", nil, [3]int32{0, 0, 0}},
		{"the primary vision engine", EngineVisionPrimary, headline, func(_ int, w http.ResponseWriter) { reply(w, areaAnswer) }, scannedWords(), "Vision read the box", nil, [3]int32{1, 0, 0}},
		{"tesseract", EngineTesseract, headline, nil, scannedWords(), "Words Tesseract read", nil, [3]int32{0, 0, 1}},
		{"the text layer where it has no text", EngineTextLayer, magazine.BBox{400, 700, 100, 50}, nil, scannedWords(), "", ErrNothingRead, [3]int32{0, 0, 0}},
		{"tesseract finding nothing", EngineTesseract, headline, nil, &fakeTesseract{}, "", ErrNothingRead, [3]int32{0, 0, 1}},
		{"a failing engine", EngineVisionPrimary, headline, serverError, scannedWords(), "", ErrEngineFailed, [3]int32{2, 0, 0}},
		{"an unconfigured engine", EngineVisionPrimary, headline, nil, scannedWords(), "", ErrEngineNotConfigured, [3]int32{0, 0, 0}},
		{"an unknown engine", "ocrmypdf", headline, nil, scannedWords(), "", ErrUnknownEngine, [3]int32{0, 0, 0}},
		{"a box off the page", EngineTesseract, magazine.BBox{5000, 5000, 10, 10}, nil, scannedWords(), "", ErrNothingRead, [3]int32{0, 0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newStepsFixture(t)
			id := f.prepared(t, f.steps.Render)
			engines := f.withEngines(t, tc.primary, nil, tc.tess)
			text, err := f.steps.Pages.ReadAreaWith(t.Context(), f.page(t, id, 1), tc.box, tc.engine)
			if text != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Errorf("read = %q, %v; want %q, %v", text, err, tc.want, tc.wantErr)
			}
			if calls := engines.calls(); calls != tc.wantCalls {
				t.Errorf("engine calls (primary, fallback, tesseract) = %v, want %v", calls, tc.wantCalls)
			}
		})
	}
}

// TestOnlyKeepsOneEngine: the cut-down chain holds the chosen engine and
// nothing else, so a failure never falls through to another.
func TestOnlyKeepsOneEngine(t *testing.T) {
	p, _ := chatEngine(t, good)
	fb, _ := chatEngine(t, good)
	tess := scannedWords()
	full := OCRChain{Primary: p, Fallback: fb, Tesseract: tess}
	for engine, want := range map[string]OCRChain{
		EngineTextLayer:      {},
		EngineVisionPrimary:  {Primary: p},
		EngineVisionFallback: {Fallback: fb},
		EngineTesseract:      {Tesseract: tess},
	} {
		got, err := full.Only(engine)
		if err != nil || got != want {
			t.Errorf("Only(%s) = %+v, %v; want %+v", engine, got, err, want)
		}
	}
	if _, err := (OCRChain{}).Only(EngineTesseract); !errors.Is(err, ErrEngineNotConfigured) {
		t.Errorf("Only(tesseract) of an empty chain = %v, want not configured", err)
	}
	// Every engine a page can record is one a reviewer can choose.
	for _, e := range []string{EngineTextLayer, EngineVisionPrimary, EngineVisionFallback, EngineTesseract} {
		if !slices.Contains(Engines, e) {
			t.Errorf("Engines lacks %s", e)
		}
	}
}

// TestRecognizePageTextLayerByChoice: a text layer ingest sets aside as
// poor is still read when the reviewer chooses it, and the page says so.
func TestRecognizePageTextLayerByChoice(t *testing.T) {
	// A scan with a misread OCR layer laid over it.
	d := &pdftest.Doc{}
	scan := image.NewRGBA(image.Rect(0, 0, 40, 50))
	for i := range scan.Pix {
		scan.Pix[i] = 230
	}
	p := d.AddPage(612, 792).Image(0, 0, 612, 792, scan)
	for i, l := range pdftest.MisreadBody {
		p.Invisible(72, 100+float64(i)*16, 12, l)
	}
	f := newStepsFixture(t)
	page := f.renderRecognize(t, d.Bytes(), scannedWords())
	if !strings.Contains(page.EngineNote, "text layer") {
		t.Fatalf("ingest found the misread layer fine (engine %q, note %q); the test wants it judged poor", page.Engine, page.EngineNote)
	}
	got, err := f.steps.Pages.RecognizePage(t.Context(), page, EngineTextLayer)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := regionWithText(got, "Tne harbonr"); !ok || got.Engine != EngineTextLayer || !strings.Contains(got.EngineNote, "chosen in review though") {
		t.Errorf("engine %q, note %q, regions %+v", got.Engine, got.EngineNote, got.Regions)
	}
	again, err := f.steps.Pages.RecognizePage(t.Context(), got, EngineTesseract)
	if err != nil || again.EngineNote != "" || again.Engine != EngineTesseract {
		t.Errorf("tesseract again: engine %q, note %q, %v", again.Engine, again.EngineNote, err)
	}
}

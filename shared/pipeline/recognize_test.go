package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/engines/oaichat"
	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/magazine"
)

// chatEngine is an httptest server speaking chat completions; behave decides
// each call's answer. It returns an oaichat client pointed at it.
func chatEngine(t *testing.T, behave func(n int, w http.ResponseWriter)) (*oaichat.Client, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		behave(int(calls.Add(1)), w)
	}))
	t.Cleanup(srv.Close)
	return oaichat.New(oaichat.Config{BaseURL: srv.URL + "/v1", Model: "ocr", Timeout: 300 * time.Millisecond, MaxRetries: 1}), &calls
}

func reply(w http.ResponseWriter, content string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "c", "object": "chat.completion", "created": 1, "model": "ocr",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
	})
}

const goodAnswer = "```json\n{\"regions\":[{\"bbox\":[100,100,1000,80],\"kind\":\"title\",\"text\":\"City Budget Passes\"}," +
	"{\"bbox\":[100,220,500,600],\"kind\":\"text\",\"text\":\"The council voted on Tuesday.\"}]}\n```"

func good(_ int, w http.ResponseWriter) { reply(w, goodAnswer) }
func looping(_ int, w http.ResponseWriter) {
	reply(w, `{"regions":[{"bbox":[0,0,10,10],"kind":"text","text":"`+strings.Repeat("the end ", 12)+`"}]}`)
}
func empty(_ int, w http.ResponseWriter) { reply(w, "") }
func unparsable(_ int, w http.ResponseWriter) {
	reply(w, "I am sorry, I cannot read this page.")
}
func serverError(_ int, w http.ResponseWriter) {
	w.Header().Set("Retry-After-Ms", "1")
	http.Error(w, `{"error":{"message":"boom"}}`, http.StatusInternalServerError)
}
func rateLimitedOnce(n int, w http.ResponseWriter) {
	if n == 1 {
		w.Header().Set("Retry-After-Ms", "20")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"error":{"message":"slow down"}}`)
		return
	}
	reply(w, goodAnswer)
}
func slow(_ int, w http.ResponseWriter) {
	time.Sleep(time.Second)
	reply(w, goodAnswer)
}

// fakeTesseract stands in for the command, whose real run is tested in
// engines/tesseract; here only the chain's order matters.
type fakeTesseract struct {
	calls  atomic.Int32
	dpi    atomic.Int32 // of the last call
	blocks []tesseract.Block
}

func (f *fakeTesseract) Recognize(_ context.Context, _ []byte, dpi int) ([]tesseract.Block, error) {
	f.calls.Add(1)
	f.dpi.Store(int32(dpi))
	return f.blocks, nil
}

func page() PageInput {
	return PageInput{
		Width: 612, Height: 792,
		Render: PageImage{PNG: []byte("png"), Width: 1275, Height: 1650, DPI: 150},
		HighRes: func(context.Context) (PageImage, error) {
			return PageImage{PNG: []byte("png300"), Width: 2550, Height: 3300, DPI: 300}, nil
		},
	}
}

func TestOCRChainOrder(t *testing.T) {
	tessBlocks := []tesseract.Block{{BBox: [4]float64{72, 72, 300, 14}, Text: "Scanned words here", Lines: 1, LineHeight: 10}}
	cases := []struct {
		name             string
		primary          func(int, http.ResponseWriter)
		fallback         func(int, http.ResponseWriter)
		wantEngine       string
		wantFailed       []string
		wantTesseractRun bool
	}{
		{"primary answers", good, good, EngineVisionPrimary, nil, false},
		{"repetition loop moves on to the fallback", looping, good, EngineVisionFallback, []string{EngineVisionPrimary}, false},
		{"empty answer moves on", empty, good, EngineVisionFallback, []string{EngineVisionPrimary}, false},
		{"unparsable answer moves on", unparsable, good, EngineVisionFallback, []string{EngineVisionPrimary}, false},
		{"server errors move on after retries", serverError, good, EngineVisionFallback, []string{EngineVisionPrimary}, false},
		{"429 with Retry-After is retried on the same engine", rateLimitedOnce, good, EngineVisionPrimary, nil, false},
		{"slow engine times out and moves on", slow, good, EngineVisionFallback, []string{EngineVisionPrimary}, false},
		{"both vision engines fail: tesseract reads it", looping, serverError, EngineTesseract, []string{EngineVisionPrimary, EngineVisionFallback}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			primary, _ := chatEngine(t, c.primary)
			fallback, _ := chatEngine(t, c.fallback)
			tess := &fakeTesseract{blocks: tessBlocks}
			got, err := OCRChain{Primary: primary, Fallback: fallback, Tesseract: tess}.Recognize(context.Background(), page())
			if err != nil {
				t.Fatal(err)
			}
			if got.Engine != c.wantEngine {
				t.Fatalf("engine %s, want %s (attempts %+v)", got.Engine, c.wantEngine, got.Attempts)
			}
			var failed []string
			for _, a := range got.Attempts {
				failed = append(failed, a.Engine)
			}
			if strings.Join(failed, ",") != strings.Join(c.wantFailed, ",") {
				t.Fatalf("failed engines %v, want %v", failed, c.wantFailed)
			}
			if (tess.calls.Load() > 0) != c.wantTesseractRun {
				t.Fatalf("tesseract ran %d times", tess.calls.Load())
			}
			if len(got.Regions) == 0 {
				t.Fatal("no regions")
			}
			if c.wantEngine != EngineTesseract {
				r := got.Regions[0]
				// 100 px at 1275 px across a 612 pt page is 48 pt.
				if r.Kind != magazine.KindHeadline || r.Text != "City Budget Passes" || r.OriginalText != r.Text || r.BBox[0] < 47.9 || r.BBox[0] > 48.1 {
					t.Fatalf("first region %+v", r)
				}
			}
		})
	}
}

func TestOCRChainPrefersTheTextLayer(t *testing.T) {
	primary, calls := chatEngine(t, good)
	layer := []magazine.Region{{ID: "r1", Kind: magazine.KindParagraph, Text: "exact text", OriginalText: "exact text"}}
	in := page()
	in.TextLayer = layer
	got, err := OCRChain{Primary: primary}.Recognize(context.Background(), in)
	if err != nil || got.Engine != EngineTextLayer || got.Regions[0].Text != "exact text" || calls.Load() != 0 {
		t.Fatalf("got %+v, %v after %d engine calls", got, err, calls.Load())
	}
}

func TestOCRChainReportsEveryFailure(t *testing.T) {
	primary, _ := chatEngine(t, empty)
	tess := &fakeTesseract{} // finds nothing
	_, err := OCRChain{Primary: primary, Tesseract: tess}.Recognize(context.Background(), page())
	var ocrErr *OCRError
	if !errors.As(err, &ocrErr) || len(ocrErr.Attempts) != 2 || !strings.Contains(err.Error(), "tesseract found no text") {
		t.Fatalf("got %v", err)
	}
	if _, err := (OCRChain{}).Recognize(context.Background(), page()); !strings.Contains(errText(err), "no OCR engine is configured") {
		t.Fatalf("unconfigured chain: %v", err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

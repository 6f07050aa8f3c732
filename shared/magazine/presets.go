package magazine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// VisionPreset names a vision OCR engine family: the prompt its model was
// trained on and the adapter that reads its real answer into regions.
type VisionPreset string

// The presets an engine card can name.
const (
	// PresetLectern: any OpenAI-compatible vision model asked for Lectern's
	// own JSON regions (VisionPrompt, ParseVisionRegions).
	PresetLectern VisionPreset = "lectern"
	// PresetDotsOCR: rednote-hilab/dots.ocr served by vLLM: a JSON list of
	// {bbox [x1,y1,x2,y2], category, text} in the pixels of the image the
	// model saw (the render after Qwen2-VL's smart resize).
	PresetDotsOCR VisionPreset = "dots-ocr"
	// PresetOlmOCR: allenai/olmOCR-2 served by vLLM: YAML front matter then
	// Markdown, with no boxes; blocks are placed by aligning their words to
	// Tesseract's reading of the page.
	PresetOlmOCR VisionPreset = "olmocr"
	// PresetDocling: docling-serve's REST API (not chat): a DoclingDocument
	// with labels and page boxes, often from the bottom-left corner.
	PresetDocling VisionPreset = "docling"
	// PresetQwen25VL: Qwen2.5-VL text spotting: [{bbox_2d, text_content}] in
	// absolute pixels of the smart-resized image.
	PresetQwen25VL VisionPreset = "qwen2.5-vl"
	// PresetQwen3VL: Qwen3-VL text spotting: the same answer with boxes on a
	// 0..1000 scale of the image.
	PresetQwen3VL VisionPreset = "qwen3-vl"
)

// VisionPresets lists every preset, the default first.
var VisionPresets = []VisionPreset{PresetLectern, PresetDotsOCR, PresetOlmOCR, PresetDocling, PresetQwen25VL, PresetQwen3VL}

// ParseVisionPreset reads a card's preset; "" is PresetLectern.
func ParseVisionPreset(s string) (VisionPreset, bool) {
	if s == "" {
		return PresetLectern, true
	}
	for _, p := range VisionPresets {
		if string(p) == s {
			return p, true
		}
	}
	return "", false
}

// Answers a preset's adapter refuses; each is a failed call (the chain
// moves on).
var (
	// ErrTruncated: the JSON stops before it closes (the engine ran out of tokens).
	ErrTruncated = fmt.Errorf("%w: the JSON is cut off", ErrUnparsable)
	// ErrBoxOutside: a box lies outside the image the engine was given, so
	// the answer's coordinates cannot be trusted.
	ErrBoxOutside = errors.New("vision answer has a box outside the image")
	// ErrUnplaced: a boxless answer (olmOCR) matched none of the page's words.
	ErrUnplaced = errors.New("vision answer could not be placed on the page")
	// ErrRotated: the engine says the page must be turned before it is read.
	ErrRotated = errors.New("vision engine says the page is rotated")
)

// Prompts the models were trained on, verbatim.
const (
	// dots.ocr's prompt_layout_all_en (dots_ocr/utils/prompts.py).
	dotsPrompt = `Please output the layout information from the PDF image, including each layout element's bbox, its category, and the corresponding text content within the bbox.

1. Bbox format: [x1, y1, x2, y2]

2. Layout Categories: The possible categories are ['Caption', 'Footnote', 'Formula', 'List-item', 'Page-footer', 'Page-header', 'Picture', 'Section-header', 'Table', 'Text', 'Title'].

3. Text Extraction & Formatting Rules:
    - Picture: For the 'Picture' category, the text field should be omitted.
    - Formula: Format its text as LaTeX.
    - Table: Format its text as HTML.
    - All Others (Text, Title, etc.): Format their text as Markdown.

4. Constraints:
    - The output text must be the original text from the image, with no translation.
    - All layout elements must be sorted according to human reading order.

5. Final Output: The entire output must be a single JSON object.
`
	// olmOCR's build_no_anchoring_v4_yaml_prompt (olmocr/prompts/prompts.py),
	// the prompt olmOCR-2-7B-1025 was trained with ("LateX" is theirs).
	olmOCRPrompt = "Attached is one page of a document that you must process. " +
		"Just return the plain text representation of this document as if you were reading it naturally. Convert equations to LateX and tables to HTML.\n" +
		"If there are any figures or charts, label them with the following markdown syntax ![Alt text describing the contents of the figure](page_startx_starty_width_height.png)\n" +
		"Return your output as markdown, with a front matter section on top specifying values for the primary_language, is_rotation_valid, rotation_correction, is_table, and is_diagram parameters."
	// The text-spotting prompt of the Qwen2.5-VL and Qwen3-VL OCR cookbooks.
	qwenSpottingPrompt = "Spotting all the text in the image with line-level, and output in JSON format."
)

// Prompt is what the preset's engine is asked with the page image.
// docling-serve takes no prompt (its answer does not depend on one).
func (p VisionPreset) Prompt() string {
	switch p {
	case PresetDotsOCR:
		return dotsPrompt
	case PresetOlmOCR:
		return olmOCRPrompt
	case PresetQwen25VL, PresetQwen3VL:
		return qwenSpottingPrompt
	case PresetDocling:
		return ""
	}
	return VisionPrompt()
}

// NeedsAnchors reports whether the preset's answer has no boxes, so its
// blocks are placed on words read by another engine.
func (p VisionPreset) NeedsAnchors() bool { return p == PresetOlmOCR }

// LongestSide is the longest image side the preset's model was trained on
// (olmOCR renders pages at 1,288 pixels); 0: the render as it is.
func (p VisionPreset) LongestSide() int {
	if p == PresetOlmOCR {
		return 1288
	}
	return 0
}

// PageGeom is the page (points) and the render the engine was sent (pixels).
type PageGeom struct {
	W, H       float64
	ImgW, ImgH int
}

// ParsePresetAnswer reads an engine's answer by its preset. anchors are the
// page's words as Tesseract read them (blocks in points), used only by
// presets without boxes. The spec's checks apply to every preset: an empty
// answer, a repetition loop, or nothing usable is an error, so the chain
// moves on.
func ParsePresetAnswer(p VisionPreset, answer string, g PageGeom, anchors []TextBlock) ([]Region, error) {
	if !(g.W > 0 && g.H > 0) || math.IsInf(g.W, 0) || math.IsInf(g.H, 0) {
		return nil, fmt.Errorf("%w: %gx%g", ErrBadPageSize, g.W, g.H)
	}
	if strings.TrimSpace(answer) == "" {
		return nil, ErrEmptyAnswer
	}
	iw, ih := float64(g.ImgW), float64(g.ImgH)
	if g.ImgW <= 0 || g.ImgH <= 0 {
		iw, ih = g.W, g.H
	}
	switch p {
	case PresetDotsOCR:
		// dots.ocr's processor: patch 14, merge 2, 3136..11289600 pixels.
		sw, sh := smartResize(iw, ih, 28, 3136, 11289600)
		return parseLayoutJSON(answer, g, sw, sh, dotsKind)
	case PresetQwen25VL:
		// Qwen2.5-VL's processor: patch 14, merge 2, 3136..12845056 pixels.
		sw, sh := smartResize(iw, ih, 28, 3136, 12845056)
		return parseLayoutJSON(answer, g, sw, sh, visionKind)
	case PresetQwen3VL:
		return parseLayoutJSON(answer, g, 1000, 1000, visionKind)
	case PresetOlmOCR:
		sw, sh := smartResize(iw, ih, 28, 3136, 12845056)
		return parseOlmOCR(answer, g, sw, sh, anchors)
	case PresetDocling:
		return parseDocling(answer, g)
	}
	return ParseVisionRegions(answer, g.W, g.H, g.ImgW, g.ImgH)
}

// smartResize is the Qwen2-VL image processor's smart_resize: the size the
// model really sees, each side a multiple of factor and the area within
// [minPixels, maxPixels]. Boxes an engine gives are in this space.
func smartResize(w, h float64, factor, minPixels, maxPixels float64) (float64, float64) {
	hBar := math.Max(factor, math.RoundToEven(h/factor)*factor)
	wBar := math.Max(factor, math.RoundToEven(w/factor)*factor)
	switch {
	case hBar*wBar > maxPixels:
		beta := math.Sqrt(h * w / maxPixels)
		hBar = math.Max(factor, math.Floor(h/beta/factor)*factor)
		wBar = math.Max(factor, math.Floor(w/beta/factor)*factor)
	case hBar*wBar < minPixels:
		beta := math.Sqrt(minPixels / (h * w))
		hBar = math.Ceil(h*beta/factor) * factor
		wBar = math.Ceil(w*beta/factor) * factor
	}
	return wBar, hBar
}

// dotsKinds maps dots.ocr's eleven categories onto Lectern's kinds.
var dotsKinds = map[string]Kind{
	"Caption": KindCaption, "Footnote": KindFootnote, "Formula": KindFigure,
	"List-item": KindList, "Page-footer": KindFurniture, "Page-header": KindFurniture,
	"Picture": KindFigure, "Section-header": KindSubhead, "Table": KindTable,
	"Text": KindParagraph, "Title": KindHeadline,
}

func dotsKind(category string) Kind {
	if k, ok := dotsKinds[strings.TrimSpace(category)]; ok {
		return k
	}
	return visionKind(category)
}

// parseLayoutJSON reads a JSON list of regions whose boxes are
// [x1, y1, x2, y2] in a known space of spaceW×spaceH, so no convention is
// guessed: a box outside the space is an error, not clamped, and the answer
// must be whole (a cut-off list is not read as its first element).
func parseLayoutJSON(answer string, g PageGeom, spaceW, spaceH float64, kindOf func(string) Kind) ([]Region, error) {
	body := stripFence(strings.TrimSpace(answer))
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		switch {
		case HasRepetitionLoop(answer):
			return nil, ErrRepetitionLoop
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("%w after %d characters", ErrTruncated, len(body))
		}
		return nil, fmt.Errorf("%w: %v", ErrUnparsable, err)
	}
	if rest := body[dec.InputOffset():]; HasRepetitionLoop(rest) {
		return nil, ErrRepetitionLoop
	}
	items, ok := regionItems(v)
	if !ok {
		return nil, ErrUnparsable
	}
	cands, err := readCands(items, kindOf)
	if err != nil {
		return nil, err
	}
	labelled := false
	for _, c := range cands {
		labelled = labelled || c.labelled
	}
	sx, sy := g.W/spaceW, g.H/spaceH
	var out []Region
	for _, c := range cands {
		b := c.box // always corners here
		if b[0] < -1 || b[1] < -1 || b[2] > spaceW*1.02 || b[3] > spaceH*1.02 {
			return nil, fmt.Errorf("%w: [%g, %g, %g, %g] in an image of %gx%g", ErrBoxOutside, b[0], b[1], b[2], b[3], spaceW, spaceH)
		}
		x0, y0 := clamp(b[0]*sx, 0, g.W), clamp(b[1]*sy, 0, g.H)
		x1, y1 := clamp(b[2]*sx, 0, g.W), clamp(b[3]*sy, 0, g.H)
		if !(x1 > x0 && y1 > y0) {
			continue
		}
		out = append(out, presetRegion(len(out), c.kind, BBox{x0, y0, x1 - x0, y1 - y0}, c.text, true))
	}
	if len(out) == 0 {
		return nil, ErrNoRegions
	}
	if !labelled {
		out = classifyLines(out, g)
	}
	return out, nil
}

// classifyLines gives unlabelled text lines (Qwen's text spotting) their
// kinds as Tesseract's blocks get theirs: a line's height stands in for its
// font size.
func classifyLines(regions []Region, g PageGeom) []Region {
	blocks := make([]TextBlock, len(regions))
	for i, r := range regions {
		blocks[i] = TextBlock{BBox: r.BBox, Text: r.Text, FontSize: r.BBox[3], LineCount: 1}
	}
	return ClassifyPages([]TextPage{{Width: g.W, Height: g.H, Blocks: blocks}})[0]
}

// presetRegion is region number i (0-based) of an adapter's answer, its
// text cleaned for its kind (Markdown read as plain text when md).
func presetRegion(i int, k Kind, box BBox, text string, md bool) Region {
	var table *Table
	switch k {
	case KindTable:
		table = htmlTable(text)
		text = htmlTableText(text)
	case KindFigure, KindImage, KindChart:
		if strings.HasPrefix(strings.TrimSpace(text), "<") {
			text = htmlTableText(text) // an engine's HTML around a picture's words
		}
	default:
		if md {
			text = markdownText(text)
		}
	}
	text = strings.TrimSpace(text)
	r := withTable(Region{ID: "r" + strconv.Itoa(i+1), Kind: k, BBox: box, Text: text, OriginalText: text}, table)
	if k == KindSubhead && isURLOnly(text) {
		r.Kind = KindParagraph
	}
	switch r.Kind {
	case KindFigure, KindChart, KindTable, KindCode, KindImage:
		if r.Kind != KindImage {
			r.VisualKind = r.Kind
		}
	}
	return r
}

// stripFence removes a Markdown code fence around an answer (the closing
// fence may be missing when the answer was cut off).
func stripFence(s string) string {
	if !strings.HasPrefix(s, "```") {
		return s
	}
	if nl := strings.IndexByte(s, '\n'); nl >= 0 {
		s = s[nl+1:]
	} else {
		return ""
	}
	if i := strings.LastIndex(s, "```"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

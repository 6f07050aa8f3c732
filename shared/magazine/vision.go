package magazine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Vision answers that the OCR chain treats as a failed call: the next engine
// is tried.
var (
	// ErrEmptyAnswer: the engine answered nothing usable.
	ErrEmptyAnswer = errors.New("vision answer is empty")
	// ErrNoRegions: the answer parsed but held no region with a usable box.
	ErrNoRegions = fmt.Errorf("%w: no regions", ErrEmptyAnswer)
	// ErrUnparsable: no JSON regions could be read from the answer.
	ErrUnparsable = errors.New("vision answer is not parsable JSON regions")
	// ErrRepetitionLoop: the answer holds a repetition loop (see HasRepetitionLoop).
	ErrRepetitionLoop = errors.New("vision answer has a repetition loop")
	// ErrBadPageSize: the page or image size given to the parser is unusable.
	ErrBadPageSize = errors.New("page size must be positive")
)

// maxJSONStarts bounds how many '{' / '[' positions are tried as the start of
// the JSON value when it is wrapped in prose.
const maxJSONStarts = 32

// ParseVisionRegions reads the regions from an OpenAI-compatible vision
// engine's answer. It is defensive about shape:
//
//   - the JSON may be inside ```json fences or surrounded by prose;
//   - it may be {"regions": [...]} (also "blocks", "elements", "items",
//     "layout"), a bare array, or a single region object;
//   - a region's box is "bbox"/"box"/"bounding_box" as [x, y, w, h] or as an
//     object {x, y, w|width, h|height} or {x0, y0, x1, y1}
//     (also left/top/right/bottom); "bbox_xyxy" and "bbox_2d" (Qwen) are
//     [x0, y0, x1, y1]. If any [x, y, w, h] box overflows the image while every
//     array box fits as [x0, y0, x1, y1] with x1 > x0 and y1 > y0, the whole
//     answer is read as corner pairs (engines that ignore the prompt);
//   - coordinates are image pixels, or normalised 0..1 when every coordinate
//     of the answer is within [0, 1]. Per-mille (0..1000) answers are not
//     detected: they are indistinguishable from pixels. With imgW/imgH ≤ 0 the
//     image is taken to be the page size (pixels = points);
//   - kind/type/label/category, with synonyms mapped (see visionKind);
//     unknown kinds become paragraph; a subhead that is only a web address
//     becomes paragraph; text/content as a string or list of lines.
//
// Boxes are converted to PDF points, clamped to the page; zero-area and
// non-finite boxes are dropped. OriginalText = Text; ids are "r1".."rN" in
// answer order after drops, so the same answer always yields the same ids.
//
// Errors: blank answer → ErrEmptyAnswer; no regions → ErrNoRegions (which is
// an ErrEmptyAnswer); no JSON → ErrUnparsable, or ErrRepetitionLoop when the
// raw answer loops (a truncated looping answer is usually unparsable); a loop
// in any region's text, in the prose around the JSON, or LoopRepeats
// identical regions back to back → ErrRepetitionLoop. The loop check runs on
// decoded text, not raw JSON, so escapes like "\n\n\n" are not mistaken for a
// looping "n".
func ParseVisionRegions(content string, pageW, pageH float64, imgW, imgH int) ([]Region, error) {
	if !(pageW > 0 && pageH > 0) || math.IsInf(pageW, 0) || math.IsInf(pageH, 0) {
		return nil, fmt.Errorf("%w: %gx%g", ErrBadPageSize, pageW, pageH)
	}
	if strings.TrimSpace(content) == "" {
		return nil, ErrEmptyAnswer
	}
	raw, prose, ok := extractJSON(content)
	if !ok {
		if HasRepetitionLoop(content) {
			return nil, ErrRepetitionLoop
		}
		return nil, ErrUnparsable
	}
	if HasRepetitionLoop(prose) {
		return nil, ErrRepetitionLoop
	}
	items, ok := regionItems(raw)
	if !ok {
		return nil, ErrUnparsable
	}
	cands, err := readCands(items, visionKind)
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		return nil, ErrNoRegions
	}

	// Decide the box convention and scale for the whole answer.
	iw, ih := float64(imgW), float64(imgH)
	if imgW <= 0 || imgH <= 0 {
		iw, ih = pageW, pageH
	}
	normalised := true
	for _, c := range cands {
		for _, v := range c.box {
			if v < 0 || v > 1 {
				normalised = false
			}
		}
	}
	limW, limH := iw, ih
	if normalised {
		limW, limH = 1, 1
	}
	asCorners := false
	overflow, allFitCorners := false, true
	for _, c := range cands {
		if c.form != boxXYWH {
			continue
		}
		b := c.box
		if b[0]+b[2] > limW*1.02 || b[1]+b[3] > limH*1.02 {
			overflow = true
		}
		if !(b[2] > b[0] && b[3] > b[1] && b[2] <= limW*1.02 && b[3] <= limH*1.02) {
			allFitCorners = false
		}
	}
	if overflow && allFitCorners {
		asCorners = true
	}
	sx, sy := pageW/limW, pageH/limH

	var out []Region
	for _, c := range cands {
		b := c.box
		x0, y0, x1, y1 := b[0], b[1], b[0]+b[2], b[1]+b[3]
		if c.form == boxXYXY || (c.form == boxXYWH && asCorners) {
			x0, y0, x1, y1 = b[0], b[1], b[2], b[3]
		}
		x0, x1 = clamp(x0*sx, 0, pageW), clamp(x1*sx, 0, pageW)
		y0, y1 = clamp(y0*sy, 0, pageH), clamp(y1*sy, 0, pageH)
		if !(x1 > x0 && y1 > y0) {
			continue
		}
		r := Region{
			ID:           "r" + strconv.Itoa(len(out)+1),
			Kind:         c.kind,
			BBox:         BBox{x0, y0, x1 - x0, y1 - y0},
			Text:         c.text,
			OriginalText: c.text,
		}
		switch c.kind {
		case KindFigure, KindChart, KindTable, KindCode:
			r.VisualKind = c.kind
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, ErrNoRegions
	}
	return out, nil
}

type boxForm int

const (
	boxXYWH boxForm = iota
	boxXYXY
)

type visionCand struct {
	box  [4]float64
	form boxForm
	kind Kind
	text string
	// labelled: the engine gave the region a kind (Qwen's text spotting does not).
	labelled bool
}

// readCands reads an answer's region objects (skipping what is not one);
// a region whose text loops, or LoopRepeats identical regions back to back,
// is ErrRepetitionLoop.
func readCands(items []any, kindOf func(string) Kind) ([]visionCand, error) {
	cands := make([]visionCand, 0, len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		c, ok := readCand(m, kindOf)
		if !ok {
			continue
		}
		if HasRepetitionLoop(c.text) {
			return nil, ErrRepetitionLoop
		}
		cands = append(cands, c)
	}
	if repeatedRegions(cands) {
		return nil, ErrRepetitionLoop
	}
	return cands, nil
}

// extractJSON finds the first JSON value that holds regions: fenced blocks
// first, then each '{' or '[' in the text (bounded). prose is the answer with
// that value removed.
func extractJSON(content string) (v any, prose string, ok bool) {
	try := func(s string) (any, int, bool) {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, 0, false
		}
		if _, ok := regionItems(v); !ok {
			return nil, 0, false
		}
		return v, int(dec.InputOffset()), true
	}
	// Fenced blocks: ```json ... ``` or ``` ... ```.
	rest, off := content, 0
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			break
		}
		body := rest[i+3:]
		j := strings.Index(body, "```")
		if j < 0 {
			break
		}
		inner := body[:j]
		if nl := strings.IndexByte(inner, '\n'); nl >= 0 && !strings.ContainsAny(inner[:nl], "{[") {
			inner = inner[nl+1:] // language tag line
		}
		if v, _, ok := try(strings.TrimSpace(inner)); ok {
			start := off + i
			end := start + 3 + j + 3
			return v, content[:start] + " " + content[end:], true
		}
		rest = body[j+3:]
		off += i + 3 + j + 3
	}
	tries := 0
	for i := 0; i < len(content) && tries < maxJSONStarts; i++ {
		if content[i] != '{' && content[i] != '[' {
			continue
		}
		tries++
		if v, n, ok := try(content[i:]); ok {
			return v, content[:i] + " " + content[i+n:], true
		}
	}
	return nil, "", false
}

// regionItems returns the list of region values in a decoded answer.
func regionItems(v any) ([]any, bool) {
	switch t := v.(type) {
	case []any:
		// A bare array is a region list only when empty or holding objects:
		// "[1,2,3,4]" inside a truncated answer is a box, not the answer.
		for _, e := range t {
			if _, ok := e.(map[string]any); ok {
				return t, true
			}
		}
		return t, len(t) == 0
	case map[string]any:
		for _, key := range []string{"regions", "blocks", "elements", "items", "layout"} {
			if list, ok := t[key].([]any); ok {
				return list, true
			}
		}
		if _, _, ok := readBox(t); ok {
			return []any{t}, true
		}
	}
	return nil, false
}

// readCand reads one region object; kindOf maps the engine's label.
func readCand(m map[string]any, kindOf func(string) Kind) (visionCand, bool) {
	box, form, ok := readBox(m)
	if !ok {
		return visionCand{}, false
	}
	var kind string
	labelled := false
	for _, k := range []string{"kind", "type", "label", "category", "class"} {
		if s, ok := m[k].(string); ok {
			kind, labelled = s, true
			break
		}
	}
	var text string
	for _, k := range []string{"text", "content", "text_content", "ocr", "value"} {
		switch t := m[k].(type) {
		case string:
			text = t
		case []any:
			lines := make([]string, 0, len(t))
			for _, l := range t {
				if s, ok := l.(string); ok {
					lines = append(lines, s)
				}
			}
			text = strings.Join(lines, "\n")
		default:
			continue
		}
		break
	}
	text = strings.TrimSpace(text)
	k := kindOf(kind)
	if k == KindSubhead && isURLOnly(text) {
		k = KindParagraph // a web address on its own line is never a subhead
	}
	return visionCand{box: box, form: form, kind: k, text: text, labelled: labelled}, true
}

func readBox(m map[string]any) ([4]float64, boxForm, bool) {
	for _, k := range []string{"bbox_xyxy", "bbox_2d"} {
		if b, ok := numbers4(m[k]); ok {
			return b, boxXYXY, true
		}
	}
	for _, k := range []string{"bbox", "box", "bounding_box", "boundingBox", "rect"} {
		switch t := m[k].(type) {
		case []any:
			if b, ok := numbers4(t); ok {
				return b, boxXYWH, true
			}
		case map[string]any:
			if b, form, ok := boxObject(t); ok {
				return b, form, true
			}
		}
	}
	return [4]float64{}, 0, false
}

func boxObject(o map[string]any) ([4]float64, boxForm, bool) {
	get := func(names ...string) (float64, bool) {
		for _, n := range names {
			if f, ok := number(o[n]); ok {
				return f, true
			}
		}
		return 0, false
	}
	x, okx := get("x", "left")
	y, oky := get("y", "top")
	w, okw := get("w", "width")
	h, okh := get("h", "height")
	if okx && oky && okw && okh {
		return [4]float64{x, y, w, h}, boxXYWH, true
	}
	x0, ok0 := get("x0", "x1", "left", "xmin")
	y0, ok1 := get("y0", "y1", "top", "ymin")
	// x1/y1 double as the first corner in some schemas; only read them as
	// the far corner when x0/y0 exist.
	if _, has := o["x0"]; has {
		x1, ok2 := get("x1", "right", "xmax")
		y1, ok3 := get("y1", "bottom", "ymax")
		if ok0 && ok1 && ok2 && ok3 {
			return [4]float64{x0, y0, x1, y1}, boxXYXY, true
		}
	}
	x1, ok2 := get("x2", "right", "xmax")
	y1, ok3 := get("y2", "bottom", "ymax")
	if ok0 && ok1 && ok2 && ok3 {
		return [4]float64{x0, y0, x1, y1}, boxXYXY, true
	}
	return [4]float64{}, 0, false
}

func numbers4(v any) ([4]float64, bool) {
	list, ok := v.([]any)
	if !ok || len(list) != 4 {
		return [4]float64{}, false
	}
	var b [4]float64
	for i, e := range list {
		f, ok := number(e)
		if !ok {
			return [4]float64{}, false
		}
		b[i] = f
	}
	return b, true
}

func number(v any) (float64, bool) {
	var f float64
	switch t := v.(type) {
	case json.Number:
		var err error
		if f, err = t.Float64(); err != nil {
			return 0, false
		}
	case float64:
		f = t
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(t), 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// VisionPrompt asks a vision OCR engine for labelled regions as JSON. The
// kinds it names come from Kinds: every kind but the cleanup ones (an
// engine's cleanup kind becomes paragraph, see visionKind), and the picture
// kinds are the Visual ones.
func VisionPrompt() string {
	var kinds, pictures []string
	for _, info := range Kinds {
		if info.Cleanup {
			continue
		}
		kinds = append(kinds, string(info.Kind))
		if info.Visual {
			pictures = append(pictures, string(info.Kind))
		}
	}
	return `You are a layout OCR engine for magazine pages. Return only JSON:
{"regions":[{"bbox":[x,y,w,h],"kind":"...","text":"..."}]}
bbox is in pixels of this image from its top-left corner. kind is one of: ` + strings.Join(kinds, ", ") + `.
Give the exact text of every text region in reading order; give picture regions (` + strings.Join(pictures, ", ") + `) without text.`
}

// visionKindSynonyms maps engine labels (lower-case, '_' and ' ' as '-') to kinds.
var visionKindSynonyms = map[string]Kind{
	"title": KindHeadline, "heading": KindHeadline, "headline": KindHeadline, "h1": KindHeadline,
	"subtitle": KindDeck, "standfirst": KindDeck, "dek": KindDeck, "lede": KindDeck, "strapline": KindDeck, "summary": KindDeck,
	"subheading": KindSubhead, "section-header": KindSubhead, "section-heading": KindSubhead, "section-title": KindSubhead, "h2": KindSubhead, "h3": KindSubhead, "crosshead": KindSubhead,
	"text": KindParagraph, "body": KindParagraph, "body-text": KindParagraph, "plain-text": KindParagraph, "p": KindParagraph, "paragraph": KindParagraph,
	"author": KindByline, "authors": KindByline,
	"figure-caption": KindCaption, "table-caption": KindCaption, "legend": KindCaption,
	"pagenumber": KindPageNumber, "page-num": KindPageNumber, "folio": KindPageNumber,
	"credit": KindSource, "credits": KindSource, "photo-credit": KindSource,
	"advertisement": KindAd, "advert": KindAd, "ads": KindAd,
	"header": KindFurniture, "footer": KindFurniture, "page-header": KindFurniture, "page-footer": KindFurniture, "running-header": KindFurniture, "running-footer": KindFurniture,
	"box": KindSidebar, "aside": KindSidebar, "callout": KindSidebar,
	"pullquote": KindPullQuote, "quote": KindPullQuote, "blockquote": KindPullQuote,
	"list-item": KindList, "bullet": KindList, "bullets": KindList,
	"picture": KindImage, "photo": KindImage, "photograph": KindImage, "illustration": KindImage, "logo": KindImage, "graphic": KindImage, "img": KindImage,
	"diagram": KindFigure, "drawing": KindFigure, "formula": KindFigure, "equation": KindFigure, "map": KindFigure,
	"graph": KindChart, "plot": KindChart,
	"tabular":    KindTable,
	"code-block": KindCode, "listing": KindCode,
	"note": KindFootnote, "endnote": KindFootnote,
}

// visionKind maps an engine's label to a kind: synonyms first, then the kind
// names themselves; cleanup kinds and anything unknown become paragraph so
// that only cleanup (reversibly) assigns the non-read kinds.
func visionKind(label string) Kind {
	l := strings.ToLower(strings.TrimSpace(label))
	l = strings.NewReplacer("_", "-", " ", "-").Replace(l)
	if k, ok := visionKindSynonyms[l]; ok {
		return k
	}
	if info, ok := Info(Kind(l)); ok && !info.Cleanup {
		return info.Kind
	}
	return KindParagraph
}

// repeatedRegions reports LoopRepeats identical regions back to back.
func repeatedRegions(cands []visionCand) bool {
	run := 1
	for i := 1; i < len(cands); i++ {
		if cands[i] == cands[i-1] {
			run++
			if run >= LoopRepeats {
				return true
			}
		} else {
			run = 1
		}
	}
	return false
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

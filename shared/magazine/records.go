package magazine

import "time"

// BBox is [x, y, w, h] in PDF points (1/72 in) from the page's top-left corner.
type BBox [4]float64

// Area is the box's area in square points (0 for an empty box).
func (b BBox) Area() float64 { return max(b[2], 0) * max(b[3], 0) }

// Overlap is the area the two boxes share.
func (b BBox) Overlap(o BBox) float64 {
	w := min(b[0]+b[2], o[0]+o[2]) - max(b[0], o[0])
	h := min(b[1]+b[3], o[1]+o[3]) - max(b[1], o[1])
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// Union is the smallest box holding both.
func (b BBox) Union(o BBox) BBox {
	x0, y0 := min(b[0], o[0]), min(b[1], o[1])
	x1, y1 := max(b[0]+b[2], o[0]+o[2]), max(b[1]+b[3], o[1]+o[3])
	return BBox{x0, y0, x1 - x0, y1 - y0}
}

// Near: the boxes touch or lie within gap points of each other.
func (b BBox) Near(o BBox, gap float64) bool {
	return b[0]-gap <= o[0]+o[2] && o[0]-gap <= b[0]+b[2] && b[1]-gap <= o[1]+o[3] && o[1]-gap <= b[1]+b[3]
}

// Region is one labelled box on a page.
type Region struct {
	ID           string `json:"id"`
	Kind         Kind   `json:"kind"`
	BBox         BBox   `json:"bbox"`
	Text         string `json:"text,omitempty"`
	OriginalText string `json:"original_text,omitempty"` // as first recognised; kept by every rebuild
	ArticleID    string `json:"article_id,omitempty"`
	Description  string `json:"description,omitempty"` // picture regions
	VisualKind   Kind   `json:"visual_kind,omitempty"` // figure, chart, table or code
	CropKey      string `json:"crop_key,omitempty"`    // blob key of the exact render crop
	// HandPlaced: the user drew or moved this box; refining figures leaves it
	// where it is.
	HandPlaced bool `json:"hand_placed,omitempty" doc:"the box was drawn, moved or resized by hand; figure refinement never moves it"`
	// Font facts from a PDF text layer, used by classification.
	FontSize float64 `json:"font_size,omitempty"`
	Bold     bool    `json:"bold,omitempty"`
	// CleanedFrom records a cleanup re-type so it can be reversed.
	CleanedFrom *Cleaned `json:"cleaned_from,omitempty"`
	// Table: a table region's cells, recovered from the words' positions;
	// its Text is then the cells' text (Table.Text) and edits go to the cells.
	Table *Table `json:"table,omitempty"`
}

// Cleaned is what a cleanup rule changed on a region.
type Cleaned struct {
	Kind Kind   `json:"kind"` // the kind before the rule
	Rule string `json:"rule"`
}

// Page is one page of an issue with its regions and reading order.
type Page struct {
	IssueID     string   `json:"issue_id"`
	Number      int      `json:"number"` // 1-based
	Width       float64  `json:"width"`  // points
	Height      float64  `json:"height"` // points
	DPI         int      `json:"dpi"`
	RenderKey   string   `json:"render_key,omitempty"`
	ThumbKey    string   `json:"thumb_key,omitempty"`
	Regions     []Region `json:"regions"`
	Order       []string `json:"order"` // region ids in reading order
	HandOrdered bool     `json:"hand_ordered"`
	Engine      string   `json:"engine,omitempty"`  // text-layer, vision-primary, vision-fallback, tesseract; none on a blank page
	OCRDPI      int      `json:"ocr_dpi,omitempty"` // the DPI Tesseract read the page at (below 300 for a huge page)
	// EngineNote says why the page was not read by the first engine that
	// could (a text layer set aside as too poor, or kept over a worse OCR).
	EngineNote string    `json:"engine_note,omitempty"`
	Step       string    `json:"step,omitempty"` // the pipeline step the page is in
	Error      string    `json:"error,omitempty"`
	Updated    time.Time `json:"updated"`
}

// IssueStatus is where an issue is in ingest.
type IssueStatus string

const (
	IssueUploading  IssueStatus = "uploading" // waiting for the browser's PUT to S3
	IssueProcessing IssueStatus = "processing"
	IssueReady      IssueStatus = "ready"
	IssueFailed     IssueStatus = "failed"
)

// PageError is a page that failed in the pipeline while the issue finished.
type PageError struct {
	Page  int    `json:"page"`
	Step  string `json:"step"`
	Error string `json:"error"`
}

// Issue is an ingested magazine PDF.
type Issue struct {
	ID         string      `json:"id"`
	Title      string      `json:"title"`
	Status     IssueStatus `json:"status"`
	SourceKey  string      `json:"source_key"`
	PageCount  int         `json:"page_count"`
	PagesDone  int         `json:"pages_done"`
	Step       string      `json:"step,omitempty"`
	Revision   int64       `json:"revision"`
	Error      string      `json:"error,omitempty"`       // why the whole issue failed, for the user
	ErrorCause string      `json:"error_cause,omitempty"` // its technical cause, when Error is a sentence apart
	PageErrors []PageError `json:"page_errors,omitempty"`
	Created    time.Time   `json:"created"`
	Updated    time.Time   `json:"updated"`
}

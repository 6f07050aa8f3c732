package mcpserver

import (
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// The API's records as lectern_mcp reads them (the fields it shows; the
// OpenAPI document at /api/openapi.json has them all).

type pageError struct {
	Page  int    `json:"page"`
	Step  string `json:"step"`
	Error string `json:"error"`
}

type pageStep struct {
	Page   int    `json:"page"`
	Step   string `json:"step"`
	Done   bool   `json:"done"`
	Engine string `json:"engine,omitempty"`
	Error  string `json:"error,omitempty"`
}

type issue struct {
	ID         string      `json:"id"`
	Title      string      `json:"title"`
	Status     string      `json:"status"`
	Step       string      `json:"step,omitempty"`
	Error      string      `json:"error,omitempty"`
	PageCount  int         `json:"page_count"`
	PagesDone  int         `json:"pages_done"`
	Revision   int64       `json:"revision"`
	PageErrors []pageError `json:"page_errors,omitempty"`
	Pages      []pageStep  `json:"pages,omitempty"`
	Created    time.Time   `json:"created"`
	Updated    time.Time   `json:"updated"`
}

type region struct {
	ID           string    `json:"id"`
	Kind         string    `json:"kind"`
	BBox         []float64 `json:"bbox"`
	Text         string    `json:"text,omitempty"`
	OriginalText string    `json:"original_text,omitempty"`
	Description  string    `json:"description,omitempty"`
	VisualKind   string    `json:"visual_kind,omitempty"`
	ArticleID    string    `json:"article_id,omitempty"`
}

type page struct {
	IssueID     string   `json:"issue_id"`
	Number      int      `json:"number"`
	Version     int64    `json:"version"`
	Width       float64  `json:"width"`
	Height      float64  `json:"height"`
	Regions     []region `json:"regions"`
	Order       []string `json:"order"`
	HandOrdered bool     `json:"hand_ordered"`
	Engine      string   `json:"engine,omitempty"`
	Step        string   `json:"step,omitempty"`
	Error       string   `json:"error,omitempty"`
}

type regionRef struct {
	Page   int    `json:"page"`
	Region string `json:"region"`
}

type article struct {
	ID                   string      `json:"id"`
	IssueID              string      `json:"issue_id"`
	Title                string      `json:"title"`
	Regions              []regionRef `json:"regions"`
	Images               []regionRef `json:"images"`
	Approved             bool        `json:"approved"`
	ChangedSinceApproval bool        `json:"changed_since_approval"`
	Proposed             bool        `json:"proposed,omitempty"`
	Author               string      `json:"author,omitempty"`
}

// outcome is what every review edit answers beside its own record.
type outcome struct {
	Revision    int64  `json:"revision"`
	UndoToken   string `json:"undo_token,omitempty"`
	UndoCleared bool   `json:"undo_cleared,omitempty"`
}

func (o outcome) markdown() string {
	s := fmt.Sprintf("Issue revision %d.", o.Revision)
	if o.UndoToken != "" {
		s += fmt.Sprintf(" Undo token (for lectern_undo_change): `%s`", o.UndoToken)
	} else if o.UndoCleared {
		s += " The stored undo point was cleared."
	}
	return s + "\n"
}

type job struct {
	ID       string  `json:"id"`
	Kind     string  `json:"kind"`
	Status   string  `json:"status"`
	Progress float64 `json:"progress"`
	Message  string  `json:"message,omitempty"`
	Error    string  `json:"error,omitempty"`
	Result   any     `json:"result,omitempty"`
}

type jobStarted struct {
	JobID  string `json:"job_id"`
	Status string `json:"status"`
}

// The API's own limits on ids and sizes, so a bad id is refused before a
// call (the OpenAPI document's patterns).
const (
	issueIDPattern   = "^[a-z0-9]{8,40}$"
	articleIDPattern = "^[a-z0-9]{4,40}$"
	regionIDPattern  = "^[A-Za-z0-9_.-]{1,64}$"
	voiceIDPattern   = "^[a-z0-9][a-z0-9._-]{0,99}$"
	cardNamePattern  = "^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$"
	bookIDPattern    = "^[a-z0-9]{8,40}$"
	segmentIDPattern = "^c[0-9]{2,4}-[sk][0-9]{4,6}$"
	maxPage          = 100000
)

// regionKinds are the kinds a region may have.
func regionKinds() []string {
	return []string{"headline", "deck", "subhead", "byline", "paragraph", "list", "caption", "pull-quote", "sidebar",
		"footnote", "source", "page-number", "furniture", "ad", "image", "figure", "chart", "table", "code", "noise", "duplicate", "text-in-image"}
}

// idRules gives the id fields their API patterns wherever an input has them.
func idRules(s *jsonschema.Schema) {
	for name, rules := range map[string][]rule{
		"issue_id":      {pattern(issueIDPattern)},
		"article_id":    {pattern(articleIDPattern)},
		"region_id":     {pattern(regionIDPattern)},
		"page":          {between(1, maxPage)},
		"page_version":  {atLeast(1)},
		"voice_id":      {pattern(voiceIDPattern)},
		"engine":        {pattern(cardNamePattern)},
		"book_id":       {pattern(bookIDPattern)},
		"segment_id":    {pattern(segmentIDPattern)},
		"book_revision": {atLeast(1)},
		"set_id":        {pattern(setIDPattern)},
		"character_id":  {pattern(characterIDPattern)},
	} {
		if _, ok := s.Properties[name]; ok {
			set(s, name, rules...)
		}
	}
}

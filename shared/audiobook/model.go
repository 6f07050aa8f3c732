package audiobook

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// Limits of a book.
const (
	// MaxUploadBytes bounds an uploaded file: a long novel as TXT (War and
	// Peace is 3.2 MB) or EPUB, within what the API function in AWS takes
	// in one request (6 MB, base64 included).
	MaxUploadBytes = 4 << 20
	// SegmentsPerItem is how many segments one SEG# item holds: about
	// 100 KB of JSON, a quarter of DynamoDB's 400 KB item limit.
	SegmentsPerItem = 500
	// MaxSegmentItems keeps every segment write of a book (all its SEG#
	// items, its META and, at import, its listing entry) within one
	// transaction of store.MaxTransactWrites.
	MaxSegmentItems = 98
	// MaxSegments is the most segments a book may have.
	MaxSegments = SegmentsPerItem * MaxSegmentItems
	// MaxCharacters bounds a book's cast.
	MaxCharacters = 500
)

// Modes of the cast job (the browser's ab-span-mode: 0 is classic).
const (
	ModeSpan    = "span"
	ModeClassic = "classic"
)

// Segment kinds.
const (
	KindNarration = "narration"
	KindDialogue  = "dialogue"
)

// Sources of a segment's speaker beyond cast.Source's (explicit, pronoun,
// paragraph, turn, llm, none).
const (
	// SourceHand: set by hand; no later pass replaces it.
	SourceHand = "hand"
	// SourceClassic: named by the LLM while it segmented the text itself.
	SourceClassic = "classic"
)

// Book is a book's record.
type Book struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Author   string `json:"author"`
	Filename string `json:"filename"`
	Format   string `json:"format" enum:"txt,epub" doc:"what was uploaded"`
	// Status is importing while the import job parses, splits and casts
	// the upload, then ready, or failed with Error.
	Status    string    `json:"status" enum:"importing,ready,failed" doc:"importing until the import job has made the book ready, or failed (see error)"`
	Error     string    `json:"error,omitempty" doc:"why the import failed"`
	ImportJob string    `json:"import_job,omitempty" doc:"the import job's id"`
	Bytes     int       `json:"bytes" doc:"bytes of the book's text"`
	Chapters  []Chapter `json:"chapters"`
	Counts    Counts    `json:"counts"`
	// Mode is how the segments were made: span (spans from the quotation
	// marks) or classic (the LLM's segments aligned to the text).
	Mode          string `json:"mode" enum:"span,classic"`
	NarratorVoice string `json:"narrator_voice,omitempty" doc:"the narrator's voice id; empty until set"`
	CastJob       string `json:"cast_job,omitempty" doc:"the last cast job's id"`
	RenderJob     string `json:"render_job,omitempty" doc:"the last render job's id"`
	// Revision increases with every change of the segments; send it as
	// If-Match to set a speaker.
	Revision int64     `json:"revision" doc:"increases with every change of the segments; send it as If-Match to set a speaker"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	// TextKey is the blob of the book's text.
	TextKey string `json:"-"`
	// RenderRun names the last render's outputs (its job's handler does
	// not know its job's id).
	RenderRun string `json:"-"`
	// CastClaimed and RenderClaimed are set by the conditional write that
	// starts a job, until its id is recorded: a second start sees them and
	// is refused (see claim).
	CastClaimed   time.Time `json:"-"`
	RenderClaimed time.Time `json:"-"`
	// version is the META item's: every write bumps it (a job started,
	// a voice set), while Revision moves only with the segments.
	version int64
}

// Chapter is a chapter of a book with its segments' place and counts.
type Chapter struct {
	Index int    `json:"index"`
	Title string `json:"title"`
	Start int    `json:"start" doc:"byte offset of the chapter in the book's text"`
	End   int    `json:"end"`
	// First is the global index of the chapter's first segment.
	First  int    `json:"first_segment"`
	Counts Counts `json:"counts"`
}

// Counts count segments.
type Counts struct {
	Segments  int `json:"segments"`
	Dialogue  int `json:"dialogue"`
	Speaker   int `json:"with_speaker" doc:"dialogue lines with a speaker"`
	Unknown   int `json:"unknown" doc:"dialogue lines without a speaker"`
	LLM       int `json:"llm" doc:"dialogue lines the LLM named"`
	Hand      int `json:"hand" doc:"dialogue lines set by hand"`
	Agreed    int `json:"agreed"`
	Disputed  int `json:"disputed"`
	Unclosed  int `json:"unclosed" doc:"quotations that never closed"`
	Narration int `json:"narration"`
}

// Segment is a stretch of a chapter: narration, or a line one character
// speaks. Offsets are bytes into the book's text.
type Segment struct {
	ID string `json:"id" doc:"the segment's id: its span id in span mode (c03-s0042), c03-k0007 in classic mode"`
	// SpanID is carried by every segment a span-mode cast made.
	SpanID     string  `json:"spanId,omitempty" doc:"the span the segment is (span mode)"`
	Chapter    int     `json:"chapter"`
	Start      int     `json:"start"`
	End        int     `json:"end"`
	Kind       string  `json:"kind" enum:"narration,dialogue"`
	Unclosed   bool    `json:"unclosed,omitempty" doc:"a quotation that never closed"`
	Continues  bool    `json:"continues,omitempty" doc:"the quotation goes on in the next dialogue segment"`
	Speaker    string  `json:"speaker,omitempty" doc:"the speaker's name (a cast name); empty for narration or unknown"`
	Source     string  `json:"source,omitempty" doc:"how the speaker was found: explicit, pronoun, paragraph, turn, llm, classic, hand or none"`
	Mark       string  `json:"mark,omitempty" enum:"agreed,disputed," doc:"the verify pass's verification mark"`
	Other      string  `json:"other_answer,omitempty" doc:"the verify pass's answer on a disputed line"`
	Confidence float64 `json:"confidence,omitempty" doc:"derived from the mark: 0.83 agreed, 0.485 disputed, 0.95 explicit tag"`
	Text       string  `json:"text,omitempty" doc:"the segment's text (answers only; not stored)"`
}

// Character is one speaker of the book.
type Character struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Aliases  []string `json:"aliases"`
	Gender   string   `json:"gender" enum:"female,male," doc:"empty when unknown"`
	Mentions int      `json:"mentions"`
	Narrator bool     `json:"narrator" doc:"the first-person narrator (\"said I\")"`
	Lines    int      `json:"lines" doc:"dialogue lines spoken"`
	VoiceID  string   `json:"voice_id,omitempty" doc:"the voice of the library the character speaks in; empty speaks in the narrator's"`
	// VoiceAssigned: the import gave VoiceID, not the user, so a merge
	// prefers a member's voice chosen by hand, and a character the LLM
	// drops is not kept for it.
	VoiceAssigned bool  `json:"voice_assigned,omitempty" doc:"the voice was assigned at import by gender, not chosen by hand"`
	Version       int64 `json:"version"`
}

// handVoice reports whether the user chose the character's voice.
func (c Character) handVoice() bool { return c.VoiceID != "" && !c.VoiceAssigned }

// segmentID matches segment ids: "c<chapter>-s<n>" (span) or
// "c<chapter>-k<n>" (classic).
var segmentID = regexp.MustCompile(`^c([0-9]{2,4})-([sk])([0-9]{4,6})$`)

// parseSegmentID reads a segment id's chapter and position in it.
func parseSegmentID(id string) (chapter, n int, err error) {
	m := segmentID.FindStringSubmatch(id)
	if m == nil {
		return 0, 0, fmt.Errorf("%w: %q is not a segment id", ErrInvalid, id)
	}
	chapter, _ = strconv.Atoi(m[1])
	n, _ = strconv.Atoi(m[3])
	return chapter, n, nil
}

// classicID is the id of the n-th classic segment of chapter ch.
func classicID(ch, n int) string { return fmt.Sprintf("c%02d-k%04d", ch, n) }

// count counts segs.
func count(segs []Segment) Counts {
	var c Counts
	for _, s := range segs {
		c.Segments++
		if s.Kind != KindDialogue {
			c.Narration++
			continue
		}
		c.Dialogue++
		if s.Speaker == "" {
			c.Unknown++
		} else {
			c.Speaker++
		}
		switch s.Source {
		case "llm", SourceClassic:
			c.LLM++
		case SourceHand:
			c.Hand++
		}
		switch s.Mark {
		case "agreed":
			c.Agreed++
		case "disputed":
			c.Disputed++
		}
		if s.Unclosed {
			c.Unclosed++
		}
	}
	return c
}

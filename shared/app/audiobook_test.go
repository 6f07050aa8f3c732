package app

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/audiobook/cast"
	"github.com/lectern/lectern/shared/httpapi/audiobookapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/voices"
)

// aliceText reads PDNC's Alice from the team's sample data
// (LECTERN_SAMPLE_DATA, else ../shared/data beside the repository).
func aliceText(t *testing.T) []byte {
	t.Helper()
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "data")
	}
	b, err := os.ReadFile(filepath.Join(dir, "books", "AlicesAdventuresInWonderland", "novel_text.txt"))
	if err != nil {
		t.Fatalf("the sample book: %v (set LECTERN_SAMPLE_DATA)", err)
	}
	return b
}

// uploadBook posts a file to POST /api/audiobook/books.
func (c *apiClient) uploadBook(name, contentType string, data []byte) (int, []byte) {
	c.t.Helper()
	body, formType := bookForm(c.t, name, contentType, data)
	status, _, b := c.do(http.MethodPost, "/api/audiobook/books", body, "Content-Type", formType)
	return status, b
}

// bookForm is the multipart form of an upload.
func bookForm(t *testing.T, name, contentType string, data []byte) ([]byte, string) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+name+`"`)
	h.Set("Content-Type", contentType)
	part, err := w.CreatePart(h)
	if err == nil {
		_, err = part.Write(data)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return body.Bytes(), w.FormDataContentType()
}

func (c *apiClient) book(id string) audiobookapi.BookView {
	c.t.Helper()
	return decode[audiobookapi.BookView](c.t, c.get("/api/audiobook/books/"+id))
}

// segments reads every segment of a book the query selects, page by page.
func (c *apiClient) segments(id, query string) []audiobook.Segment {
	c.t.Helper()
	var all []audiobook.Segment
	for offset := 0; ; {
		page := decode[audiobook.SegmentPage](c.t, c.get(fmt.Sprintf("/api/audiobook/books/%s/segments?limit=500&offset=%d%s", id, offset, query)))
		all = append(all, page.Items...)
		if page.NextOffset == nil {
			if len(all) != page.Total {
				c.t.Fatalf("pages gave %d segments of %d", len(all), page.Total)
			}
			return all
		}
		offset = *page.NextOffset
	}
}

// assertProblem checks an answer is a problem document with status.
func assertProblem(t *testing.T, what string, status int, b []byte, want int) {
	t.Helper()
	p := decode[problem](t, b)
	if status != want || p.Status != want || p.Detail == "" {
		t.Fatalf("%s = %d %s, want a %d problem", what, status, b, want)
	}
}

var askedSpan = regexp.MustCompile(`\[\[(c[0-9]+-[sk][0-9]+)\]\]`)

// speakersAnswer answers a span-mode prompt as the schema asks: every
// marked span is said by name.
func speakersAnswer(prompt, name string) string {
	type pick struct {
		Span    string `json:"span"`
		Speaker string `json:"speaker"`
	}
	var out struct {
		Speakers []pick `json:"speakers"`
	}
	out.Speakers = []pick{}
	for _, m := range askedSpan.FindAllStringSubmatch(prompt, -1) {
		out.Speakers = append(out.Speakers, pick{m[1], name})
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// TestAudiobookOverHTTP casts PDNC's Alice through the local app: refused
// uploads store nothing; the import names speakers by rules; span mode
// asks a stand-in LLM only about the lines the rules left, at most 40 a
// request, and never replaces an explicit tag; verify marks lines agreed
// or disputed without changing a speaker; a speaker set by hand needs the
// current revision and survives a later cast; unknown books, segments,
// speakers and voices are problems that change nothing.
func TestAudiobookOverHTTP(t *testing.T) {
	c := newLocalApp(t)

	t.Run("uploads that are not books are refused and nothing is stored", func(t *testing.T) {
		status, b := c.uploadBook("empty.txt", "text/plain", nil)
		assertProblem(t, "empty upload", status, b, http.StatusUnprocessableEntity)
		bin := make([]byte, 4096)
		for i := range bin {
			bin[i] = byte(i * 7)
		}
		status, b = c.uploadBook("image.txt", "application/octet-stream", bin)
		assertProblem(t, "binary upload", status, b, http.StatusUnprocessableEntity)
		status, b = c.uploadBook("broken.epub", "application/epub+zip", []byte("PK\x03\x04 not a zip at all"))
		assertProblem(t, "broken EPUB", status, b, http.StatusUnprocessableEntity)
		big := bytes.Repeat([]byte("All work and no play makes Jack a dull boy. "), audiobook.MaxUploadBytes/44+1)
		status, b = c.uploadBook("big.txt", "text/plain", big)
		assertProblem(t, "an upload over the limit", status, b, http.StatusRequestEntityTooLarge)
		list := decode[struct{ Books []audiobook.Summary }](t, c.get("/api/audiobook/books"))
		if len(list.Books) != 0 {
			t.Fatalf("refused uploads left books: %+v", list.Books)
		}
	})

	alice := c.importBook("novel_text.txt", "text/plain", aliceText(t))
	id := alice.ID
	if len(alice.Chapters) != 12 || alice.Counts.Dialogue == 0 || alice.Revision != 1 || alice.Mode != audiobook.ModeSpan {
		t.Fatalf("Alice imported as %d chapters, counts %+v, revision %d, mode %q", len(alice.Chapters), alice.Counts, alice.Revision, alice.Mode)
	}
	imported := c.segments(id, "")
	bySource := map[string]int{}
	for _, sg := range imported {
		if sg.Kind == audiobook.KindDialogue {
			bySource[sg.Source]++
			if sg.SpanID != sg.ID || sg.Text == "" {
				t.Fatalf("a span-mode segment without its span or text: %+v", sg)
			}
		}
	}
	t.Logf("Alice: %d segments, %d dialogue; rules at import: %v", len(imported), alice.Counts.Dialogue, bySource)
	if bySource["explicit"] == 0 || bySource["none"] == 0 || bySource["llm"] != 0 || bySource["none"] != alice.Counts.Unknown {
		t.Fatalf("rules attribution at import: %v, counts %+v", bySource, alice.Counts)
	}

	t.Run("segments come in pages, by chapter", func(t *testing.T) {
		page := decode[audiobook.SegmentPage](t, c.get("/api/audiobook/books/"+id+"/segments?limit=3&offset=2"))
		if page.Count != 3 || page.Offset != 2 || !page.HasMore || *page.NextOffset != 5 || page.Items[0].ID != imported[2].ID {
			t.Fatalf("page = %+v", page)
		}
		ch3 := c.segments(id, "&chapter=3")
		if len(ch3) != alice.Chapters[3].Counts.Segments || ch3[0].Chapter != 3 || !strings.Contains(ch3[0].Text, alice.Chapters[3].Title[:7]) {
			t.Fatalf("chapter 3: %d segments (want %d), first %+v", len(ch3), alice.Chapters[3].Counts.Segments, ch3[0])
		}
	})

	t.Run("a Latin-1 text is read as such", func(t *testing.T) {
		latin1 := bytes.ReplaceAll([]byte(smallBook), []byte("roses"), []byte("ros\xe9s caf\xe9"))
		id := c.importBook("garden.txt", "text/plain", latin1).ID
		var text strings.Builder
		for _, sg := range c.segments(id, "") {
			text.WriteString(sg.Text)
		}
		if !strings.Contains(text.String(), "rosés café") {
			t.Fatalf("Latin-1 text read as %q", text.String())
		}
		if status, _, b := c.do(http.MethodDelete, "/api/audiobook/books/"+id, nil); status != http.StatusNoContent {
			t.Fatalf("delete = %d %s", status, b)
		}
		status, _, b := c.do(http.MethodDelete, "/api/audiobook/books/"+id, nil)
		assertProblem(t, "a second delete", status, b, http.StatusNotFound)
	})

	t.Run("an EPUB is read with the chapters of its table of contents", func(t *testing.T) {
		v := c.importBook("garden.epub", "application/epub+zip", gardenEPUB(t))
		if v.Format != "epub" || v.Title != "The Garden Door" || len(v.Chapters) != 2 || v.Chapters[1].Title != "II. The Key" || v.Counts.Dialogue != 4 {
			t.Fatalf("EPUB imported as %+v", v.Book)
		}
		if status, _, b := c.do(http.MethodDelete, "/api/audiobook/books/"+v.ID, nil); status != http.StatusNoContent {
			t.Fatalf("delete = %d %s", status, b)
		}
	})

	t.Run("a cast without an LLM is refused", func(t *testing.T) {
		status, _, b := c.do(http.MethodPost, "/api/attribute-spans", []byte(`{"book_id":"`+id+`"}`))
		assertProblem(t, "attribute without llm_url", status, b, http.StatusConflict)
	})

	llm := newLLMStandIn(t)
	if status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"llm_url":"`+llm.url+`"}`)); status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, b)
	}
	// The stand-in names Alice for every line it is asked about, in both
	// passes: the verify pass then agrees with Alice's lines and disputes
	// the others.
	llm.answers(func(n int) string { return speakersAnswer(llm.calls()[n-1], "Alice") })

	explicit := map[string]string{}
	for _, sg := range imported {
		if sg.Source == "explicit" {
			explicit[sg.ID] = sg.Speaker
		}
	}
	var disputed []audiobook.Segment
	t.Run("span mode asks only about the lines the rules left, at most 40 a request, and verify marks every line", func(t *testing.T) {
		v := c.waitJob(c.startJob("/api/attribute-spans", `{"book_id":"`+id+`","mode":"span","verify":true}`))
		if v.Status != jobs.StatusSucceeded {
			t.Fatalf("cast job: %+v", v)
		}
		res := decode[audiobook.CastResult](t, v.Result)
		// The pass asks about the dialogue lines the rules left blank or
		// rated below cast.LowConfidence (cast.Asks), as imported.
		asked := 0
		for _, sg := range imported {
			if sg.Kind == "dialogue" && cast.Asks(cast.Attribution{Speaker: sg.Speaker, Source: cast.Source(sg.Source), Confidence: sg.Confidence}) {
				asked++
			}
		}
		maxRequests := (asked + 39) / 40
		t.Logf("cast: %d requests for %d asked spans (%.1f prompt tokens a span), verify %d requests; %d agreed, %d disputed",
			res.Requests, res.AskedSpans, float64(res.PromptTokens)/float64(res.AskedSpans), res.VerifyRequests, res.Agreed, res.Disputed)
		if res.AskedSpans != asked || res.Requests > maxRequests || res.PromptTokens > 150*res.AskedSpans || res.Repair != nil {
			t.Fatalf("attribution asked %d spans in %d requests (%d tokens), want %d spans in at most %d; repair %+v", res.AskedSpans, res.Requests, res.PromptTokens, asked, maxRequests, res.Repair)
		}
		if got := len(llm.calls()); res.Refine == nil || got != res.Refine.Requests+res.Requests+res.VerifyRequests {
			t.Fatalf("the LLM got %d calls, the job counts %d (refine %+v)", got, res.Requests+res.VerifyRequests, res.Refine)
		}
		after := c.segments(id, "")
		for _, sg := range after {
			if want, ok := explicit[sg.ID]; ok && (sg.Speaker != want || sg.Source != "explicit" || sg.Mark != "agreed") {
				t.Fatalf("an explicit tag changed or went unmarked: %+v, was %q", sg, want)
			}
			if sg.Kind == audiobook.KindDialogue && sg.Source == "llm" && sg.Speaker != "Alice" {
				t.Fatalf("an LLM line names %q", sg.Speaker)
			}
			if sg.Kind == audiobook.KindDialogue && sg.Mark == "" {
				t.Fatalf("a line the verify pass left unmarked: %+v", sg)
			}
		}
		disputed = c.segments(id, "&disputed=1")
		if len(disputed) == 0 || len(disputed) != res.Disputed || res.Agreed == 0 {
			t.Fatalf("disputed filter gave %d lines, the job %d disputed and %d agreed", len(disputed), res.Disputed, res.Agreed)
		}
		for _, sg := range disputed {
			if sg.Mark != "disputed" || sg.Other != "Alice" || sg.Speaker == "Alice" || sg.Confidence != 0.485 {
				t.Fatalf("a disputed line: %+v", sg)
			}
		}
	})

	t.Run("a speaker set by hand needs the current revision and survives a recast", func(t *testing.T) {
		b := c.book(id)
		target := disputed[0]
		path := "/api/audiobook/books/" + id + "/segments/" + target.ID + "/speaker"
		status, _, body := c.do(http.MethodPut, path, []byte(`{"speaker":"the Hatter"}`), "If-Match", strconv.Quote(strconv.FormatInt(b.Revision-1, 10)))
		assertProblem(t, "a stale If-Match", status, body, http.StatusConflict)
		status, _, body = c.do(http.MethodPut, path, []byte(`{"speaker":"nobody in the book"}`), "If-Match", strconv.Quote(strconv.FormatInt(b.Revision, 10)))
		assertProblem(t, "an unknown speaker", status, body, http.StatusUnprocessableEntity)
		if after := c.book(id); after.Revision != b.Revision {
			t.Fatalf("refused changes moved the revision from %d to %d", b.Revision, after.Revision)
		}
		hatter := slices.IndexFunc(b.Cast, func(ch audiobook.Character) bool { return ch.Name == "Hatter" || ch.Name == "The Hatter" })
		if hatter < 0 {
			t.Fatalf("no Hatter in the cast %+v", b.Cast)
		}
		status, h, body := c.do(http.MethodPut, path, []byte(`{"speaker":"`+b.Cast[hatter].ID+`"}`), "If-Match", strconv.Quote(strconv.FormatInt(b.Revision, 10)))
		set := decode[struct {
			Segment  audiobook.Segment
			Revision int64
		}](t, body)
		if status != http.StatusOK || set.Segment.Speaker != b.Cast[hatter].Name || set.Segment.Source != "hand" || set.Revision != b.Revision+1 || h.Get("ETag") != strconv.Quote(strconv.FormatInt(b.Revision+1, 10)) {
			t.Fatalf("set speaker = %d %s", status, body)
		}
		v := c.waitJob(c.startJob("/api/attribute-spans", `{"book_id":"`+id+`","verify":true}`))
		res := decode[audiobook.CastResult](t, v.Result)
		if v.Status != jobs.StatusSucceeded || res.Kept != 1 {
			t.Fatalf("recast: %+v", v)
		}
		got := c.segments(id, "&chapter="+strconv.Itoa(target.Chapter))
		i := slices.IndexFunc(got, func(sg audiobook.Segment) bool { return sg.ID == target.ID })
		if got[i].Speaker != b.Cast[hatter].Name || got[i].Source != "hand" {
			t.Fatalf("the hand-set speaker after a recast: %+v", got[i])
		}
	})

	t.Run("unknown books, segments and voices are problems", func(t *testing.T) {
		status, _, b := c.do(http.MethodGet, "/api/audiobook/books/nosuchbook0", nil)
		assertProblem(t, "unknown book", status, b, http.StatusNotFound)
		status, _, b = c.do(http.MethodPost, "/api/attribute-spans", []byte(`{"book_id":"nosuchbook0"}`))
		assertProblem(t, "cast of an unknown book", status, b, http.StatusNotFound)
		status, _, b = c.do(http.MethodPost, "/api/attribute-spans", []byte(`{"book_id":"`+id+`","mode":"fancy"}`))
		assertProblem(t, "an unknown mode", status, b, http.StatusUnprocessableEntity)
		status, _, b = c.do(http.MethodPost, "/api/attribute-spans", []byte(`{"book_id":"`+id+`","colour":"red"}`))
		assertProblem(t, "an unknown field", status, b, http.StatusUnprocessableEntity)
		rev := strconv.Quote(strconv.FormatInt(c.book(id).Revision, 10))
		status, _, b = c.do(http.MethodPut, "/api/audiobook/books/"+id+"/segments/c99-s0001/speaker", []byte(`{"speaker":"Alice"}`), "If-Match", rev)
		assertProblem(t, "an unknown segment", status, b, http.StatusNotFound)
		status, _, b = c.do(http.MethodPut, "/api/audiobook/books/"+id+"/narrator", []byte(`{"voice_id":"no-such-voice"}`))
		assertProblem(t, "an unknown narrator voice", status, b, http.StatusUnprocessableEntity)
		status, _, b = c.do(http.MethodPut, "/api/audiobook/books/"+id+"/cast/alice/voice", []byte(`{"voice_id":"no-such-voice"}`))
		assertProblem(t, "an unknown character voice", status, b, http.StatusUnprocessableEntity)
		// The import gave the book the default narrator; a refused voice
		// leaves it.
		if v := c.book(id); v.NarratorVoice != voices.DefaultVoiceID || v.Book.RenderJob != "" {
			t.Fatalf("refused voices were kept: %+v", v.Book)
		}
	})
}

// smallBook is a three-chapter book for rendering: a few lines each.
const smallBook = `THE GARDEN DOOR

CHAPTER I. The Door

Alice stood before the little door in the garden wall and looked at it for a long while.

"Open it," said Alice.

The Queen looked down at her. "Never!" cried the Queen. "Not today, and not tomorrow."

CHAPTER II. The Key

The key lay on the glass table, far too high for anyone to reach without a chair.

"Where is the key?" asked Alice.

"On the table," said the Queen, and she laughed at her.

CHAPTER III. The Garden

At last the door swung open, and the garden was full of roses painted red by careful hands.

"How lovely," said Alice.

"They are mine," said the Queen.
`

// gardenEPUB is an EPUB 3 of two chapters with a nav table of contents.
func gardenEPUB(t *testing.T) []byte {
	t.Helper()
	page := func(body string) string {
		return `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head><body>` + body + `</body></html>`
	}
	files := []struct{ name, body string }{
		{"META-INF/container.xml", `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`},
		{"OEBPS/content.opf", `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Garden Door</dc:title></metadata>
<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="book" href="book.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="book"/></spine></package>`},
		{"OEBPS/nav.xhtml", page(`<nav epub:type="toc"><ol><li><a href="book.xhtml#c1">I. The Door</a></li><li><a href="book.xhtml#c2">II. The Key</a></li></ol></nav>`)},
		{"OEBPS/book.xhtml", page(`<section id="c1"><h1>I. The Door</h1><p>“Open it,” said Alice.</p><p>“Never!” cried the Queen.</p></section>
<section id="c2"><h1>II. The Key</h1><p>“Where is the key?” asked Alice.</p><p>“On the table,” said the Queen.</p></section>`)},
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store})
	if err == nil {
		_, err = w.Write([]byte("application/epub+zip"))
	}
	for _, f := range files {
		if err != nil {
			break
		}
		if w, err = zw.Create(f.name); err == nil {
			_, err = w.Write([]byte(f.body))
		}
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// classicAnswer answers a classic-mode prompt: the chunk's quotations as
// the Queen's or Alice's lines (by the tag after them), the rest as the
// narrator's, leaving out the chunk's first narration (for auto-repair
// to find).
func classicAnswer(prompt string) string {
	i := strings.Index(prompt, "\nText:\n")
	text := prompt[i+len("\nText:\n"):]
	quote := regexp.MustCompile(`"[^"]*"`)
	type seg struct {
		Speaker string `json:"speaker"`
		Text    string `json:"text"`
	}
	var segs []seg
	pos, dropped := 0, false
	for _, m := range quote.FindAllStringIndex(text, -1) {
		if narr := strings.TrimSpace(text[pos:m[0]]); narr != "" {
			if dropped {
				segs = append(segs, seg{"narrator", narr})
			}
			dropped = true
		}
		who := "Alice"
		if strings.Contains(text[m[1]:min(len(text), m[1]+30)], "Queen") {
			who = "the Queen"
		}
		segs = append(segs, seg{who, text[m[0]:m[1]]})
		pos = m[1]
	}
	if narr := strings.TrimSpace(text[pos:]); narr != "" {
		segs = append(segs, seg{"narrator", narr})
	}
	b, _ := json.Marshal(map[string]any{"segments": segs})
	return string(b)
}

// TestAudiobookVoicedOverHTTP casts a small book in classic mode (the
// LLM's segments aligned to the text, what it dropped reported and read by
// the narrator) and back in span mode, assigns voices from the library's
// suggestions and renders it with espeak-ng: an M4B whose chapters are the
// book's and an MP3 per chapter, the MP3s speaking nothing the M4B spoke.
func TestAudiobookVoicedOverHTTP(t *testing.T) {
	needSpeechTools(t)
	c := newLocalApp(t)
	book := c.importBook("garden.txt", "text/plain", []byte(smallBook))
	id := book.ID
	titles := []string{"CHAPTER I. The Door", "CHAPTER II. The Key", "CHAPTER III. The Garden"}
	var got []string
	for _, ch := range book.Chapters {
		got = append(got, ch.Title)
	}
	if !slices.Equal(got, titles) {
		t.Fatalf("chapters %q, want %q", got, titles)
	}

	llm := newLLMStandIn(t)
	if status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"llm_url":"`+llm.url+`"}`)); status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, b)
	}
	// A line set by hand before the classic cast keeps its speaker there.
	first := c.segments(id, "&chapter=0")
	hand := first[slices.IndexFunc(first, func(sg audiobook.Segment) bool { return sg.Kind == audiobook.KindDialogue })]
	queen := slices.IndexFunc(book.Cast, func(ch audiobook.Character) bool { return strings.Contains(ch.Name, "Queen") })
	if queen < 0 {
		t.Fatalf("no Queen in the cast %+v", book.Cast)
	}
	if status, _, b := c.do(http.MethodPut, "/api/audiobook/books/"+id+"/segments/"+hand.ID+"/speaker", []byte(`{"speaker":"`+book.Cast[queen].Name+`"}`), "If-Match", `"1"`); status != http.StatusOK {
		t.Fatalf("set speaker: %d %s", status, b)
	}
	t.Run("classic mode aligns the LLM's segments and reports what it dropped; verify marks its lines", func(t *testing.T) {
		llm.answers(func(n int) string {
			prompt := llm.calls()[n-1]
			if askedSpan.MatchString(prompt) {
				return speakersAnswer(prompt, "Alice")
			}
			return classicAnswer(prompt)
		})
		v := c.waitJob(c.startJob("/api/attribute-spans", `{"book_id":"`+id+`","mode":"classic","verify":true}`))
		res := decode[audiobook.CastResult](t, v.Result)
		if v.Status != jobs.StatusSucceeded || res.Repair == nil || res.RepairTotals.Dropped != 3 || len(res.Repair.Invented) != 0 || res.Requests != 3 || res.VerifyRequests == 0 || res.Kept != 1 {
			t.Fatalf("classic cast: %+v %s", v, v.Result)
		}
		segs := c.segments(id, "")
		var text strings.Builder
		for _, sg := range segs {
			text.WriteString(sg.Text)
			if sg.SpanID != "" || !strings.Contains(sg.ID, "-k") {
				t.Fatalf("a classic segment %+v", sg)
			}
			if sg.Start == hand.Start && sg.End == hand.End {
				if sg.Speaker != book.Cast[queen].Name || sg.Source != audiobook.SourceHand {
					t.Fatalf("the hand-set line after a classic cast: %+v", sg)
				}
				continue
			}
			if sg.Kind == audiobook.KindDialogue && (sg.Source != audiobook.SourceClassic || sg.Mark != "agreed" && sg.Mark != "disputed" || sg.Mark == "disputed" && sg.Other != "Alice") {
				t.Fatalf("a classic line the verify pass left unmarked: %+v", sg)
			}
		}
		if !strings.Contains(smallBook, text.String()) || c.book(id).Mode != audiobook.ModeClassic {
			t.Fatalf("classic segments do not read the chapters as written: %q", text.String())
		}
		for _, d := range res.Repair.Dropped {
			i := slices.IndexFunc(segs, func(sg audiobook.Segment) bool { return sg.Start <= d.Start && d.End <= sg.End })
			if i < 0 || segs[i].Kind != audiobook.KindNarration {
				t.Fatalf("dropped %+v is not narration", d)
			}
		}
	})
	t.Run("span mode again: auto-repair does not run", func(t *testing.T) {
		llm.answers(func(n int) string { return speakersAnswer(llm.calls()[n-1], "Alice") })
		v := c.waitJob(c.startJob("/api/attribute-spans", `{"book_id":"`+id+`"}`))
		res := decode[audiobook.CastResult](t, v.Result)
		if v.Status != jobs.StatusSucceeded || res.Repair != nil || c.book(id).Mode != audiobook.ModeSpan {
			t.Fatalf("span cast: %+v", v)
		}
	})

	// Voices: the narrator and each character from the suggestions.
	sugg := decode[audiobook.Suggestions](t, c.get("/api/audiobook/books/"+id+"/voice-suggestions"))
	if len(sugg.Narrator) == 0 || len(sugg.Characters) == 0 {
		t.Fatalf("suggestions: %+v", sugg)
	}
	narrator := voices.EngineVoiceID(voices.BuiltinEngine, "en-us")
	if status, _, b := c.do(http.MethodPut, "/api/audiobook/books/"+id+"/narrator", []byte(`{"voice_id":"`+narrator+`"}`)); status != http.StatusOK {
		t.Fatalf("narrator: %d %s", status, b)
	}
	used := map[string]bool{}
	for _, cs := range sugg.Characters {
		if len(cs.Voices) == 0 {
			t.Fatalf("no voice suggested for %s", cs.Name)
		}
		voice := cs.Voices[0].VoiceID
		used[voice] = true
		status, _, b := c.do(http.MethodPut, "/api/audiobook/books/"+id+"/cast/"+cs.ID+"/voice", []byte(`{"voice_id":"`+voice+`"}`))
		if ch := decode[audiobook.Character](t, b); status != http.StatusOK || ch.VoiceID != voice {
			t.Fatalf("voice of %s: %d %s", cs.ID, status, b)
		}
	}
	if len(used) != len(sugg.Characters) {
		t.Fatalf("the characters' first suggestions are not distinct: %+v", sugg.Characters)
	}

	job := c.startJob("/api/audiobook/books/"+id+"/render", `{}`)
	status, _, b := c.do(http.MethodGet, "/api/audiobook/books/"+id+"/render/audio", nil)
	if status == http.StatusFound {
		t.Fatalf("the M4B before the render: %d %s", status, b)
	}
	if v := c.waitJob(job); v.Status != jobs.StatusSucceeded {
		t.Fatalf("render: %+v", v)
	}
	r := decode[audiobookapi.RenderView](t, c.get("/api/audiobook/books/"+id+"/render"))
	if r.Book == nil || r.BookURL == "" || len(r.ChapterURLs) != 3 || r.Book.EngineCalls == 0 {
		t.Fatalf("render view: %+v", r)
	}
	for _, ch := range r.Chapters {
		if ch.EngineCalls != 0 || ch.Cached != ch.Chunks {
			t.Fatalf("chapter %d's MP3 spoke again: %+v", ch.Chapter, ch)
		}
	}
	if got = chapterTitles(t, c.ffprobeURL(r.BookURL, "-show_chapters")); !slices.Equal(got, titles) {
		t.Fatalf("the M4B's chapters are %q, want %q", got, titles)
	}
	type format struct {
		Format struct {
			Name string            `json:"format_name"`
			Tags map[string]string `json:"tags"`
		} `json:"format"`
	}
	// The book is titled by its title page, not its file name (garden.txt).
	_, _, m4b := c.do(http.MethodGet, r.BookURL, nil)
	if tags := decode[format](t, ffprobeBytes(t, m4b, "-show_format")).Format.Tags; tags["title"] != "The Garden Door" || tags["album"] != "The Garden Door" {
		t.Fatalf("the M4B's tags: %v", tags)
	}
	onLoudnessTarget(t, "the M4B", m4b)
	for i, cu := range r.ChapterURLs {
		_, _, mp3 := c.do(http.MethodGet, cu.URL, nil)
		f := decode[format](t, ffprobeBytes(t, mp3, "-show_format"))
		tags := f.Format.Tags
		if f.Format.Name != "mp3" || cu.Title != titles[i] || tags["title"] != titles[i] || tags["album"] != "The Garden Door" || tags["track"] != fmt.Sprintf("%d/3", i+1) {
			t.Fatalf("chapter %d: %+v, tags %v", i, cu, tags)
		}
		onLoudnessTarget(t, "chapter "+strconv.Itoa(i)+"'s MP3", mp3)
	}
}

// onLoudnessTarget checks the README's promise on a rendered file, as
// ffmpeg's ebur128 measures it: -16 LUFS ±1 LU, true peak at most -1 dBTP.
func onLoudnessTarget(t *testing.T, what string, audio []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "audio")
	if err := os.WriteFile(file, audio, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffmpeg", "-nostdin", "-nostats", "-i", file, "-af", "ebur128=peak=true", "-f", "null", "-").CombinedOutput()
	m := regexp.MustCompile(`(?s)Summary:.*\sI:\s+(\S+) LUFS.*True peak:\s+Peak:\s+(\S+) dBFS`).FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("ffmpeg ebur128 of %s: %v: %s", what, err, out[max(0, len(out)-500):])
	}
	lufs, _ := strconv.ParseFloat(string(m[1]), 64)
	peak, _ := strconv.ParseFloat(string(m[2]), 64)
	if lufs < -17 || lufs > -15 || peak > -1 {
		t.Fatalf("%s at %.1f LUFS, true peak %.1f dBTP; want -16 ±1 LUFS, at most -1 dBTP", what, lufs, peak)
	}
	t.Logf("%s: %.1f LUFS, true peak %.1f dBTP", what, lufs, peak)
}

// chapterTitles reads the chapter titles of ffprobe's -show_chapters.
func chapterTitles(t *testing.T, probe []byte) []string {
	t.Helper()
	chapters := decode[struct {
		Chapters []struct {
			Tags struct {
				Title string `json:"title"`
			} `json:"tags"`
		} `json:"chapters"`
	}](t, probe)
	var out []string
	for _, ch := range chapters.Chapters {
		out = append(out, ch.Tags.Title)
	}
	return out
}

// ffprobeURL downloads path (following its redirect) and reads what
// ffprobe says of it.
func (c *apiClient) ffprobeURL(path string, args ...string) []byte {
	c.t.Helper()
	status, _, audio := c.do(http.MethodGet, path, nil)
	if status != http.StatusOK || len(audio) == 0 {
		c.t.Fatalf("GET %s: %d", path, status)
	}
	return ffprobeBytes(c.t, audio, args...)
}

// ffprobeBytes reads what ffprobe says (JSON) of audio.
func ffprobeBytes(t *testing.T, audio []byte, args ...string) []byte {
	t.Helper()
	file := filepath.Join(t.TempDir(), "audio")
	if err := os.WriteFile(file, audio, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffprobe", append(append([]string{"-v", "error"}, args...), "-of", "json", file)...).Output()
	if err != nil {
		t.Fatalf("ffprobe %v: %v", args, err)
	}
	return out
}

// crashAfter stops a run as a crash would once progress passes a share.
type crashAfter struct {
	share  float64
	cancel context.CancelFunc
	mu     sync.Mutex
	last   float64
}

func (r *crashAfter) Progress(_ context.Context, f float64, _ string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = f
	if f >= r.share {
		r.cancel()
	}
	return nil
}

// queued records a job instead of running it, so the test runs the
// handler itself.
type queued struct {
	jobs.Queue
	payload json.RawMessage
}

func (q *queued) Enqueue(_ context.Context, kind string, payload json.RawMessage) (jobs.Job, error) {
	q.payload = payload
	return jobs.Job{ID: "crashtest" + strings.ReplaceAll(kind, ".", ""), Kind: kind, Status: jobs.StatusQueued}, nil
}

// TestAudiobookRenderResumesAfterACrash: a render stopped while it speaks
// the M4B resumes in a second run that speaks only the chunks the first
// left unspoken, and makes the chapter MP3s from the cache.
func TestAudiobookRenderResumesAfterACrash(t *testing.T) {
	needSpeechTools(t)
	ctx := context.Background()
	q := &queued{}
	svc, _, b := voicedBook(t, q, smallBook)
	if _, err := svc.StartRender(ctx, b.ID, audiobook.RenderRequest{}); err != nil {
		t.Fatal(err)
	}
	crashed, cancel := context.WithCancel(ctx)
	first := &crashAfter{share: 0.4, cancel: cancel}
	if _, err := svc.RenderJob(crashed, q.payload, first); err == nil {
		t.Fatal("the crashed render succeeded")
	}
	second := &crashAfter{share: 2, cancel: func() {}}
	raw, err := svc.RenderJob(ctx, q.payload, second)
	if err != nil {
		t.Fatal(err)
	}
	res := decode[audiobook.RenderResult](t, raw)
	t.Logf("after the crash at %.0f%%: M4B %d chunks, %d cached, %d engine calls", 100*first.last, res.Book.Chunks, res.Book.Cached, res.Book.EngineCalls)
	if res.Book.Cached == 0 || res.Book.EngineCalls == 0 || res.Book.Cached+res.Book.EngineCalls > res.Book.Chunks+2 || len(res.Chapters) != 3 {
		t.Fatalf("the second run: %+v", res)
	}
	for _, ch := range res.Chapters {
		if ch.EngineCalls != 0 {
			t.Fatalf("chapter %d spoke again: %+v", ch.Chapter, ch)
		}
	}
}

package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// maxBook is the API's book upload limit (4 MiB).
const maxBook = 4 << 20

// audiobookTools are the audiobook toolset: import a book, cast it, read
// and correct its segments, render it.
func audiobookTools(d deps) []Tool {
	return []Tool{listBooks(d), importBook(d), castBook(d), getSegments(d), setSpeaker(d), editCast(d), renderBook(d)}
}

type bookCounts struct {
	Segments    int `json:"segments"`
	Dialogue    int `json:"dialogue"`
	Narration   int `json:"narration"`
	WithSpeaker int `json:"with_speaker"`
	Unknown     int `json:"unknown"`
	LLM         int `json:"llm"`
	Hand        int `json:"hand"`
	Agreed      int `json:"agreed"`
	Disputed    int `json:"disputed"`
	Unclosed    int `json:"unclosed"`
}

type bookCharacter struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Aliases  []string `json:"aliases"`
	Gender   string   `json:"gender,omitempty"`
	Narrator bool     `json:"narrator,omitempty"`
	Lines    int      `json:"lines"`
	VoiceID  string   `json:"voice_id,omitempty"`
}

type bookChapter struct {
	Index  int        `json:"index"`
	Title  string     `json:"title"`
	Counts bookCounts `json:"counts"`
}

type book struct {
	ID            string          `json:"id"`
	Title         string          `json:"title"`
	Author        string          `json:"author"`
	Format        string          `json:"format,omitempty"`
	Mode          string          `json:"mode,omitempty"`
	Status        string          `json:"status,omitempty"`
	Error         string          `json:"error,omitempty"`
	ImportJob     string          `json:"import_job,omitempty"`
	Revision      int64           `json:"revision"`
	NarratorVoice string          `json:"narrator_voice,omitempty"`
	Counts        bookCounts      `json:"counts"`
	Chapters      []bookChapter   `json:"chapters"`
	Cast          []bookCharacter `json:"cast"`
}

func (b book) Markdown() string {
	var s strings.Builder
	fmt.Fprintf(&s, "# %s", orNone(b.Title))
	if b.Author != "" {
		fmt.Fprintf(&s, " by %s", b.Author)
	}
	c := b.Counts
	switch b.Status {
	case "importing":
		fmt.Fprintf(&s, " (%s)\n\nStill importing: its segments and cast come when the import job %s ends; lectern_list_books shows its status.\n", b.ID, b.ImportJob)
		return s.String()
	case "failed":
		fmt.Fprintf(&s, " (%s)\n\nThe import failed: %s\n", b.ID, b.Error)
		return s.String()
	}
	fmt.Fprintf(&s, " (%s)\n\n- Revision: %d (pass as book_revision to set a speaker)\n- Chapters: %d\n- Segments: %d, of which %d dialogue lines: %d with a speaker (%d by the LLM, %d by hand), %d unknown, %d disputed\n- Narrator voice: %s\n",
		b.ID, b.Revision, len(b.Chapters), c.Segments, c.Dialogue, c.WithSpeaker, c.LLM, c.Hand, c.Unknown, c.Disputed, orNone(b.NarratorVoice))
	if len(b.Cast) > 0 {
		s.WriteString("\n## Cast\n")
		for _, ch := range b.Cast {
			fmt.Fprintf(&s, "- **%s** (%s): %d lines", ch.Name, ch.ID, ch.Lines)
			if len(ch.Aliases) > 0 {
				fmt.Fprintf(&s, ", also %s", strings.Join(ch.Aliases, ", "))
			}
			if ch.Gender != "" {
				fmt.Fprintf(&s, ", %s", ch.Gender)
			}
			if ch.Narrator {
				s.WriteString(", the first-person narrator")
			}
			if ch.VoiceID != "" {
				fmt.Fprintf(&s, ", voice %s", ch.VoiceID)
			}
			s.WriteString("\n")
		}
	}
	return s.String()
}

func bookPath(id string) string { return "/api/audiobook/books/" + seg(id) }

type bookIn struct {
	BookID string `json:"book_id" jsonschema:"the book id, as lectern_list_books shows it"`
}

// --- lectern_list_books

type listBooksIn struct {
	Paging
	Format
}

type bookSummary struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Author  string `json:"author"`
	Created string `json:"created"`
	Status  string `json:"status,omitempty"`
	Error   string `json:"error,omitempty"`
}

type bookList struct{ Page[bookSummary] }

func (l bookList) Markdown() string {
	var b strings.Builder
	b.WriteString("# Books\n\n")
	if l.Total == 0 {
		b.WriteString("No books yet. Import one with lectern_import_book.\n")
	}
	for _, bk := range l.Items {
		fmt.Fprintf(&b, "- **%s** (%s)", orNone(bk.Title), bk.ID)
		if bk.Author != "" {
			fmt.Fprintf(&b, " by %s", bk.Author)
		}
		if bk.Status != "" && bk.Status != "ready" {
			fmt.Fprintf(&b, ": %s", bk.Status)
			if bk.Error != "" {
				fmt.Fprintf(&b, " (%s)", bk.Error)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString(more(l.Total, l.Count, l.Offset, l.NextOffset))
	return b.String()
}

func listBooks(d deps) Tool {
	return newTool(ToolsetAudiobook, spec{
		name: "lectern_list_books", title: "List books",
		doc: doc{
			purpose: "List the books imported for audiobooks, newest first.",
			notDo:   "show a book's segments or cast (use lectern_get_segments, or lectern_import_book's answer).",
			returns: "a page of books (id, title, author, created, status: importing, ready or failed with its error).",
			use:     "to find a book's id.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in listBooksIn) (any, error) {
		var out struct {
			Books []bookSummary `json:"books"`
		}
		if err := d.api.get(ctx, "/api/audiobook/books", nil, &out); err != nil {
			return nil, err
		}
		return bookList{paginate(out.Books, in.Paging)}, nil
	})
}

// --- lectern_import_book

type importBookIn struct {
	Path string `json:"path,omitempty" jsonschema:"a TXT (UTF-8 or Latin-1) or EPUB file on the machine lectern_mcp runs on, inside a folder it was given with --files; give path or url"`
	URL  string `json:"url,omitempty" jsonschema:"an http(s) URL of a TXT or EPUB book to fetch from a public address; give path or url"`
	Format
}

func (in importBookIn) check() error {
	if (in.Path == "") == (in.URL == "") {
		return fmt.Errorf("%w: give exactly one of path or url", ErrInvalid)
	}
	return nil
}

func importBook(d deps) Tool {
	return newTool(ToolsetAudiobook, spec{
		name: "lectern_import_book", title: "Import a book",
		doc: doc{
			purpose: "Import a book (TXT or EPUB, at most 4 MiB) from a file path or a URL: Lectern splits it into chapters, narration " +
				"and dialogue, finds its cast and names the speakers its text shows, by rules (no LLM).",
			notDo: "ask the LLM about speakers (use lectern_cast_book) or make audio (lectern_render_book); read a path outside the folders " +
				"given with --files, or fetch a URL on this machine or a private network unless --fetch-allow names it.",
			returns: "the book once its import job has made it ready (waits for it, reporting progress): id, title, author, revision, chapters, " +
				"segment counts and the cast; a book still importing when the wait runs out is returned with status importing.",
			use: "to start an audiobook. Each call adds a new book.",
			errors: "invalid input when the file is missing or over 4 MiB; 422 or 413 at once when it is not a book or unpacks past the limits; " +
				"the job fails when a limit is found only while reading (the book is then kept as failed, with its error, until deleted); " +
				"refused when the path or URL is not allowed.",
		},
		hints: hints{openWorld: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "path", length(1, 4096))
		set(s, "url", length(1, 2048), pattern("^https?://"))
	}, func(ctx context.Context, c *call, in importBookIn) (any, error) {
		name, data, err := readSource(ctx, c, d, in.Path, in.URL, maxBook)
		if err != nil {
			return nil, err
		}
		ctype := "text/plain"
		if strings.EqualFold(filepath.Ext(name), ".epub") {
			ctype = "application/epub+zip"
		}
		c.progress(ctx, 0.5, fmt.Sprintf("importing %s (%d bytes)", name, len(data)))
		body, formType, err := multipartBody(nil, "file", name, ctype, data)
		if err != nil {
			return nil, fmt.Errorf("book form: %w", err)
		}
		var b book
		if err := d.api.do(ctx, request{method: http.MethodPost, path: "/api/audiobook/books", raw: body, contentType: formType, timeout: transferTimeout}, &b); err != nil {
			return nil, err
		}
		// The import runs as a job: wait for it, within the tools' bound.
		if _, err := followJob(ctx, c, d, b.ImportJob); err != nil {
			if !errors.Is(err, ErrTimeout) {
				return nil, fmt.Errorf("book %s: %w", b.ID, err)
			}
		}
		if err := d.api.get(ctx, bookPath(b.ID), nil, &b); err != nil {
			return nil, err
		}
		if b.Status == "ready" {
			c.info(ctx, "book imported", "book", b.ID, "segments", b.Counts.Segments)
		}
		return b, nil
	})
}

// --- lectern_cast_book

type castIn struct {
	bookIn
	Mode   string `json:"mode,omitempty" jsonschema:"span (the default): the LLM names the speaker of each line the rules left; classic: the LLM segments the text itself"`
	Verify bool   `json:"verify,omitempty" jsonschema:"run a second pass that marks each line agreed or disputed (it changes no speaker)"`
	Format
}

func castBook(d deps) Tool {
	return newTool(ToolsetAudiobook, spec{
		name: "lectern_cast_book", title: "Cast a book",
		doc: doc{
			purpose: "Cast a book with the LLM set in Lectern's settings: it names the speaker of each dialogue line the rules left " +
				"(explicit tags and speakers set by hand are kept), optionally with a verify pass; waits for the job, reporting its progress.",
			notDo:   "set voices or render audio.",
			returns: "the book afterwards: revision, segment counts (with speaker, by the LLM, unknown, disputed) and the cast.",
			use:     "after lectern_import_book, when lines have no speaker; then review disputed lines with lectern_get_segments.",
			errors:  "409 when no LLM is configured or a cast of the book is running; the job fails when the LLM does.",
		},
		hints: hints{destructive: true, openWorld: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "mode", oneOf("span", "classic"), defaultTo("span"))
	}, func(ctx context.Context, c *call, in castIn) (any, error) {
		var started jobStarted
		err := d.api.do(ctx, request{method: http.MethodPost, path: "/api/attribute-spans",
			body: map[string]any{"book_id": in.BookID, "mode": in.Mode, "verify": in.Verify}}, &started)
		if err != nil {
			return nil, err
		}
		if _, err := followJob(ctx, c, d, started.JobID); err != nil {
			return nil, err
		}
		var b book
		if err := d.api.get(ctx, bookPath(in.BookID), nil, &b); err != nil {
			return nil, err
		}
		return b, nil
	})
}

// --- lectern_get_segments

type segmentsIn struct {
	bookIn
	Chapter  int  `json:"chapter,omitempty" jsonschema:"only this chapter's segments (its index, from 0); -1 (the default): every chapter"`
	Disputed bool `json:"disputed,omitempty" jsonschema:"only the lines the verify pass disputed"`
	// LeastCertain is the review order of GET …/segments?sort=confidence.
	LeastCertain bool `json:"least_certain_first,omitempty" jsonschema:"only dialogue lines, those without a speaker first, then the lowest confidence first"`
	Paging
	Format
}

type segment struct {
	ID          string  `json:"id"`
	Chapter     int     `json:"chapter"`
	Kind        string  `json:"kind"`
	Speaker     string  `json:"speaker,omitempty"`
	Source      string  `json:"source,omitempty"`
	Mark        string  `json:"mark,omitempty"`
	OtherAnswer string  `json:"other_answer,omitempty"`
	Confidence  float64 `json:"confidence,omitempty"`
	Unclosed    bool    `json:"unclosed,omitempty"`
	Text        string  `json:"text,omitempty"`
}

func (s segment) line() string {
	who := s.Kind
	if s.Kind == "dialogue" {
		who = "dialogue, " + orNone(s.Speaker)
		if s.Source != "" {
			who += " (" + s.Source + ")"
		}
	}
	if s.Mark == "disputed" {
		who += ", disputed: the other answer is " + orNone(s.OtherAnswer)
	}
	return fmt.Sprintf("- **%s** %s: %s\n", s.ID, who, oneLine(s.Text, 200))
}

type segmentPage struct {
	BookID   string `json:"book_id"`
	Revision int64  `json:"revision"`
	Page[segment]
}

func (p segmentPage) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Segments of book %s (revision %d)\n\n", p.BookID, p.Revision)
	if p.Total == 0 {
		b.WriteString("No segments match.\n")
	}
	for _, s := range p.Items {
		b.WriteString(s.line())
	}
	b.WriteString(more(p.Total, p.Count, p.Offset, p.NextOffset))
	return b.String()
}

func getSegments(d deps) Tool {
	return newTool(ToolsetAudiobook, spec{
		name: "lectern_get_segments", title: "Get a book's segments",
		doc: doc{
			purpose: "Get a page of a book's segments in text order: narration and dialogue with their text, speaker, how the speaker was " +
				"found, and the verify pass's mark; filter by chapter or to disputed lines.",
			notDo: "change speakers (use lectern_set_speaker).",
			returns: "book_id, the book's revision (send it as book_revision to set a speaker) and a page of segments " +
				"(id, chapter, kind, speaker, source, mark, other_answer, confidence, unclosed, text).",
			use: "to review who speaks each line, above all the disputed ones after a cast with verify.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "chapter", between(-1, 499), defaultTo(-1))
	}, func(ctx context.Context, c *call, in segmentsIn) (any, error) {
		q := url.Values{"chapter": {strconv.Itoa(in.Chapter)}, "limit": {strconv.Itoa(in.Limit)}, "offset": {strconv.Itoa(in.Offset)}}
		if in.Disputed {
			q.Set("disputed", "true")
		}
		if in.LeastCertain {
			q.Set("sort", "confidence")
		}
		var out struct {
			Revision int64 `json:"revision"`
			Page[segment]
		}
		if err := d.api.get(ctx, bookPath(in.BookID)+"/segments", q, &out); err != nil {
			return nil, err
		}
		out.Items = nonNil(out.Items)
		return segmentPage{BookID: in.BookID, Revision: out.Revision, Page: out.Page}, nil
	})
}

// --- lectern_set_speaker

type speakerIn struct {
	bookIn
	SegmentID    string `json:"segment_id" jsonschema:"the dialogue segment's id, as lectern_get_segments shows it (c03-s0042)"`
	Speaker      string `json:"speaker" jsonschema:"who speaks the line: a cast member's name, alias or id"`
	BookRevision int64  `json:"book_revision" jsonschema:"the book revision lectern_get_segments showed; the change fails with 409 if the book changed since"`
	Format
}

type speakerSet struct {
	Segment  segment `json:"segment"`
	Revision int64   `json:"revision"`
}

func (x speakerSet) Markdown() string {
	return fmt.Sprintf("%s\nThe book is now at revision %d.\n", strings.TrimPrefix(x.Segment.line(), "- "), x.Revision)
}

func setSpeaker(d deps) Tool {
	return newTool(ToolsetAudiobook, spec{
		name: "lectern_set_speaker", title: "Set a line's speaker",
		doc: doc{
			purpose: "Set who speaks one dialogue line, by hand; later casts keep it and the verify pass never overrules it.",
			notDo:   "add characters to the cast, set voices, or change narration.",
			returns: "the segment as saved and the book's new revision.",
			use:     "to correct a wrong or disputed speaker found with lectern_get_segments.",
			errors:  "409 when the book changed since book_revision (read the segments again); 422 when the speaker is not in the cast or the segment is narration.",
		},
		hints: hints{destructive: true, idempotent: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "speaker", length(1, 200))
	}, func(ctx context.Context, c *call, in speakerIn) (any, error) {
		var out speakerSet
		err := d.api.do(ctx, request{method: http.MethodPut, path: bookPath(in.BookID) + "/segments/" + seg(in.SegmentID) + "/speaker",
			body: map[string]string{"speaker": in.Speaker}, ifMatch: in.BookRevision}, &out)
		if err != nil {
			return nil, err
		}
		c.info(ctx, "speaker set", "book", in.BookID, "segment", in.SegmentID)
		return out, nil
	})
}

// --- lectern_edit_cast

type castEditIn struct {
	bookIn
	Action       string `json:"action" jsonschema:"merge (from_character_id into character_id), split (alias off character_id as a character of its own), rename (character_id to name) or set_gender (of character_id)"`
	CharacterID  string `json:"character_id" jsonschema:"the character edited (merge: the one kept), an id from the book's cast"`
	FromID       string `json:"from_character_id,omitempty" jsonschema:"merge only: the character merged into character_id; it leaves the cast"`
	Alias        string `json:"alias,omitempty" jsonschema:"split only: one of the character's aliases"`
	Name         string `json:"name,omitempty" jsonschema:"rename only: the new name; the old one stays an alias"`
	Gender       string `json:"gender,omitempty" jsonschema:"set_gender only: female, male, or empty for unknown"`
	BookRevision int64  `json:"book_revision" jsonschema:"the book revision last read; the edit fails with 409 if the book changed since"`
	Format
}

type castEdited struct {
	book
	ChangedLines int `json:"changed_lines"`
}

func (e castEdited) Markdown() string {
	return fmt.Sprintf("%d dialogue lines changed speaker.\n\n%s", e.ChangedLines, e.book.Markdown())
}

func editCast(d deps) Tool {
	return newTool(ToolsetAudiobook, spec{
		name: "lectern_edit_cast", title: "Edit a book's cast",
		doc: doc{
			purpose: "Edit a book's characters and attribute its lines again by rules: merge two characters (one person under two names), " +
				"split an alias off as a character of its own (two people under one name), rename one, or set a gender (pronoun tags are resolved again). " +
				"Lines set by hand keep their speaker; LLM answers stay while their speaker is in the cast and no explicit tag names another.",
			notDo:   "set voices, run the LLM, or change one line (use lectern_set_speaker).",
			returns: "the book as saved (new revision, counts, cast with aliases, gender and narrator) and how many lines changed speaker.",
			use:     "when the cast list lumps two people together or splits one, as lectern_import_book or lectern_get_segments shows.",
			errors: "409 when the book changed since book_revision or a cast job runs; 404 for an unknown character; " +
				"422 for an alias the character lacks, a name another character holds, a merge into itself or a missing field of the action.",
		},
		hints: hints{destructive: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "action", oneOf("merge", "split", "rename", "set_gender"))
		set(s, "character_id", pattern("^[a-z0-9][a-z0-9-]{0,99}$"))
		set(s, "from_character_id", pattern("^([a-z0-9][a-z0-9-]{0,99})?$"))
		set(s, "alias", length(0, 200))
		set(s, "name", length(0, 200))
		set(s, "gender", oneOf("", "female", "male"))
	}, func(ctx context.Context, c *call, in castEditIn) (any, error) {
		path := bookPath(in.BookID) + "/cast/" + seg(in.CharacterID)
		var r request
		switch in.Action {
		case "merge":
			r = request{method: http.MethodPost, path: path + "/merge", body: map[string]string{"from": in.FromID}}
		case "split":
			r = request{method: http.MethodPost, path: path + "/split", body: map[string]string{"alias": in.Alias}}
		case "rename":
			r = request{method: http.MethodPut, path: path + "/name", body: map[string]string{"name": in.Name}}
		default:
			r = request{method: http.MethodPut, path: path + "/gender", body: map[string]string{"gender": in.Gender}}
		}
		r.ifMatch = in.BookRevision
		var out castEdited
		if err := d.api.do(ctx, r, &out); err != nil {
			return nil, err
		}
		out.Cast = nonNil(out.Cast)
		c.info(ctx, "cast edited", "book", in.BookID, "action", in.Action, "character", in.CharacterID)
		return out, nil
	})
}

// --- lectern_render_book

type renderIn struct {
	bookIn
	Speed float64 `json:"speed,omitempty" jsonschema:"speaking rate as a multiple of the normal one, 0.25 to 4 (default 1)"`
	Format
}

type chapterAudio struct {
	Chapter int    `json:"chapter"`
	Title   string `json:"title"`
	URL     string `json:"url"`
}

type rendered struct {
	BookID   string         `json:"book_id"`
	Status   string         `json:"status"`
	BookURL  string         `json:"book_url,omitempty"`
	Chapters []chapterAudio `json:"chapters"`
}

func (r rendered) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Audiobook of %s: %s\n\n", r.BookID, r.Status)
	if r.BookURL != "" {
		fmt.Fprintf(&b, "- Whole book (M4B with chapters): %s\n", r.BookURL)
	}
	for _, ch := range r.Chapters {
		fmt.Fprintf(&b, "- Chapter %d, %s (MP3): %s\n", ch.Chapter, orNone(ch.Title), ch.URL)
	}
	return b.String()
}

func renderBook(d deps) Tool {
	return newTool(ToolsetAudiobook, spec{
		name: "lectern_render_book", title: "Render a book",
		doc: doc{
			purpose: "Voice a book: one M4B with a chapter per book chapter, then an MP3 per chapter, each line in its speaker's voice and " +
				"narration in the narrator's; waits for the job, reporting its progress.",
			notDo:   "choose voices (the narrator's voice must be set in Lectern first) or cast the book.",
			returns: "book_id, status and the download links of the M4B and each chapter's MP3 (they redirect to short-lived URLs).",
			use:     "once the speakers are right and the voices chosen. A new render replaces the book's last one.",
			errors:  "422 when the book has no narrator voice; the job fails when a voice's engine does.",
		},
		hints: hints{destructive: true, openWorld: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "speed", between(0.25, 4))
	}, func(ctx context.Context, c *call, in renderIn) (any, error) {
		body := map[string]any{}
		if in.Speed > 0 {
			body["speed"] = in.Speed
		}
		var started jobStarted
		if err := d.api.do(ctx, request{method: http.MethodPost, path: bookPath(in.BookID) + "/render", body: body}, &started); err != nil {
			return nil, err
		}
		if _, err := followJob(ctx, c, d, started.JobID); err != nil {
			return nil, err
		}
		var view struct {
			Status      string         `json:"status"`
			BookURL     string         `json:"book_url"`
			ChapterURLs []chapterAudio `json:"chapter_urls"`
		}
		if err := d.api.get(ctx, bookPath(in.BookID)+"/render", nil, &view); err != nil {
			return nil, err
		}
		out := rendered{BookID: in.BookID, Status: view.Status, Chapters: nonNil(view.ChapterURLs)}
		if view.BookURL != "" {
			out.BookURL = d.api.absolute(view.BookURL)
		}
		for i := range out.Chapters {
			out.Chapters[i].URL = d.api.absolute(out.Chapters[i].URL)
		}
		c.info(ctx, "book rendered", "book", in.BookID, "chapters", len(out.Chapters))
		return out, nil
	})
}

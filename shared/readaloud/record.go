package readaloud

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/podcast"
	"github.com/lectern/lectern/shared/store"
)

// Where a script came from.
const (
	SourceLLM           = "llm"
	SourceDeterministic = "deterministic"
	SourceEdited        = "edited"
)

// States of a podcast record.
const (
	// StatusOK: a script with no grounding violation.
	StatusOK = "ok"
	// StatusFlagged: a script with violations, kept for the user to edit.
	StatusFlagged = "flagged"
	// StatusFailed: no script yet; the last generation failed (Error).
	StatusFailed = "failed"
)

// Record is an article's podcast: its script and how it stands. It is kept
// beside the article (PK ISSUE#<issue>, SK PODCAST#<article>), so deleting
// the issue deletes it too.
type Record struct {
	Issue            string      `json:"issue"`
	Article          string      `json:"article"`
	Status           string      `json:"status" enum:"ok,flagged,failed" doc:"ok: a script with no grounding violation; flagged: a script with violations, kept for review; failed: no script, the last generation failed (see error)"`
	Script           *Script     `json:"script,omitempty" doc:"absent until a generation succeeded"`
	Source           string      `json:"source,omitempty" enum:"llm,deterministic,edited" doc:"who wrote the script"`
	Violations       []Violation `json:"violations" doc:"what the script says that the article does not (numbers, names, quotations)"`
	Minutes          int         `json:"minutes" doc:"the length asked for"`
	EstimatedSeconds float64     `json:"estimated_seconds" doc:"the script's length at 150 words a minute"`
	Attempts         int         `json:"attempts,omitempty" doc:"LLM calls the last generation made (at most 3)"`
	Trimmed          bool        `json:"trimmed,omitempty" doc:"the LLM's script ran more than 15% over the minutes and was cut at a turn boundary, keeping its closing"`
	Error            string      `json:"error,omitempty" doc:"why the last generation failed; the script before it, if any, is kept"`
	Version          int64       `json:"version" doc:"send as If-Match with an edit"`
	UpdatedAt        time.Time   `json:"updated_at"`
}

// Script is a podcast script as stored and shown.
type Script struct {
	Title string `json:"title"`
	Hosts []Host `json:"hosts" minItems:"2" maxItems:"2"`
	Turns []Turn `json:"turns"`
}

// Host is one of the two voices.
type Host struct {
	Name    string `json:"name" minLength:"1" maxLength:"60"`
	VoiceID string `json:"voice_id" pattern:"^[a-z0-9][a-z0-9._-]{0,99}$" doc:"a voice of the library"`
}

// Turn is what one host says.
type Turn struct {
	Host   int    `json:"host" minimum:"0" maximum:"1" doc:"0 or 1: an index into hosts"`
	Text   string `json:"text" minLength:"1" maxLength:"4000"`
	Source []int  `json:"source,omitempty" doc:"the article paragraphs it reads (deterministic scripts)"`
}

// Violation is one thing a turn says that the article does not.
type Violation struct {
	Turn int    `json:"turn"`
	Kind string `json:"kind" enum:"number,name,quote"`
	Text string `json:"text"`
}

func scriptOf(s podcast.Script) *Script {
	out := &Script{Title: s.Title, Turns: make([]Turn, len(s.Turns))}
	for _, h := range s.Hosts {
		out.Hosts = append(out.Hosts, Host{Name: h.Name, VoiceID: h.VoiceID})
	}
	for i, t := range s.Turns {
		out.Turns[i] = Turn{Host: t.Host, Text: t.Text, Source: t.Source}
	}
	return out
}

func (s Script) domain() podcast.Script {
	out := podcast.Script{Title: s.Title, Turns: make([]podcast.Turn, len(s.Turns))}
	for i := range min(len(s.Hosts), 2) {
		out.Hosts[i] = podcast.Host{Name: s.Hosts[i].Name, VoiceID: s.Hosts[i].VoiceID}
	}
	for i, t := range s.Turns {
		out.Turns[i] = podcast.Turn{Host: t.Host, Text: t.Text, Source: t.Source}
	}
	return out
}

func violationsOf(vs []podcast.Violation) []Violation {
	out := make([]Violation, len(vs))
	for i, v := range vs {
		out[i] = Violation{Turn: v.Turn, Kind: v.Kind, Text: v.Text}
	}
	return out
}

// setScript stores a script with its grounding and length.
func (r *Record) setScript(s podcast.Script, violations []podcast.Violation, source string) {
	r.Script, r.Source, r.Violations = scriptOf(s), source, violationsOf(violations)
	r.EstimatedSeconds = s.EstimatedSeconds()
	r.Status = StatusOK
	if len(violations) > 0 {
		r.Status = StatusFlagged
	}
	r.Error = ""
}

// RecordSK is the sort key of an article's podcast record.
func RecordSK(article string) string { return "PODCAST#" + article }

// records keeps podcast records in the issue table.
type records struct {
	table store.Table
	clock func() time.Time
}

// get reads a record; none is ErrNotFound.
func (rs records) get(ctx context.Context, issue, article string) (Record, error) {
	it, err := rs.table.Get(ctx, issues.PK(issue), RecordSK(article))
	if errors.Is(err, store.ErrNotFound) {
		return Record{}, fmt.Errorf("%w: article %s has no podcast script yet", ErrNotFound, article)
	}
	if err != nil {
		return Record{}, err
	}
	var r Record
	if err := json.Unmarshal(it.Data, &r); err != nil {
		return Record{}, fmt.Errorf("podcast record %s/%s: %w", issue, article, err)
	}
	r.Version = it.Version
	if r.Violations == nil {
		r.Violations = []Violation{}
	}
	return r, nil
}

// maxWriteAttempts bounds retries of a record write that raced another.
const maxWriteAttempts = 10

// update applies change to the stored record (a zero Record when there is
// none) with a conditional write. With ifMatch set, a record at another
// version is ErrStale; otherwise a race reads and applies again.
func (rs records) update(ctx context.Context, issue, article string, ifMatch int64, change func(*Record) error) (Record, error) {
	for range maxWriteAttempts {
		r, err := rs.get(ctx, issue, article)
		if errors.Is(err, ErrNotFound) {
			r, err = Record{Issue: issue, Article: article, Violations: []Violation{}}, nil
		}
		if err != nil {
			return Record{}, err
		}
		if ifMatch != 0 && r.Version != ifMatch {
			return Record{}, staleError(r.Version, ifMatch)
		}
		if err := change(&r); err != nil {
			return Record{}, err
		}
		cond := store.IfVersion(r.Version)
		if r.Version == 0 {
			cond = store.IfAbsent()
		}
		r.UpdatedAt = rs.clock()
		stored := r
		stored.Version = 0 // the item's version is the record's
		data, err := json.Marshal(stored)
		if err != nil {
			return Record{}, err
		}
		err = rs.table.Put(ctx, store.Item{PK: issues.PK(issue), SK: RecordSK(article), Version: r.Version + 1, Data: data}, cond)
		if errors.Is(err, store.ErrConditionFailed) {
			if ifMatch != 0 {
				return Record{}, staleError(0, ifMatch)
			}
			continue
		}
		if err != nil {
			return Record{}, err
		}
		r.Version++
		return r, nil
	}
	return Record{}, fmt.Errorf("%w: the podcast record of article %s kept changing", ErrStale, article)
}

func staleError(stored, edited int64) error {
	if stored == 0 {
		return fmt.Errorf("%w: the podcast script changed while this edit was saved (the edit was made on version %d); reload it", ErrStale, edited)
	}
	return fmt.Errorf("%w: the podcast script is at version %d, the edit was made on version %d; reload it", ErrStale, stored, edited)
}

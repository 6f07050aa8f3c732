package readaloud

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/podcast"
	"github.com/lectern/lectern/shared/store"
)

// ScriptJobKind is the background job that writes an article's podcast script.
const ScriptJobKind = "magazine.podcast_script"

// Script generation modes.
const (
	ModeLLM           = "llm"
	ModeDeterministic = "deterministic"
)

// Limits of a podcast script.
const (
	MinMinutes     = 1
	MaxMinutes     = 30
	DefaultMinutes = 5
	// MaxAttempts is how many times the LLM is asked for one script: the
	// first answer and at most two more after grounding violations.
	MaxAttempts = 3
	// MaxTurns and MaxScriptBytes bound a script (an edit, or what an LLM
	// wrote), which is stored in one table item (DynamoDB's limit is 400 KB).
	MaxTurns       = 400
	MaxTurnBytes   = 4000
	MaxScriptBytes = 200_000
)

// Chat is an OpenAI-compatible chat engine answering in JSON (oaichat.Client).
type Chat interface {
	ChatJSON(ctx context.Context, system, user string) (string, error)
}

// Podcasts writes, keeps and voices articles' podcast scripts.
type Podcasts struct {
	listen  *Service
	records records
	queue   jobs.Queue
	// llm is the LLM from the current Settings; ErrNoLLM when none is set.
	llm func(ctx context.Context) (Chat, error)
}

// NewPodcasts returns the podcast service.
func NewPodcasts(listen *Service, table store.Table, queue jobs.Queue, llm func(context.Context) (Chat, error), clock func() time.Time) *Podcasts {
	return &Podcasts{listen: listen, records: records{table: table, clock: clock}, queue: queue, llm: llm}
}

// ScriptRequest asks for a script.
type ScriptRequest struct {
	Hosts   [2]podcast.Host
	Minutes int    // 0: DefaultMinutes
	Mode    string // "": the LLM when Settings have one, else deterministic
}

// scriptJob is a script job's payload.
type scriptJob struct {
	Issue   string          `json:"issue"`
	Article string          `json:"article"`
	Hosts   [2]podcast.Host `json:"hosts"`
	Minutes int             `json:"minutes"`
	Mode    string          `json:"mode"`
	// BaseVersion is the record's version when the job was asked for: an
	// edit stored after it is the user's newer work, which the job keeps.
	BaseVersion int64 `json:"base_version"`
}

// ScriptResult is a script job's result.
type ScriptResult struct {
	Status           string  `json:"status" enum:"ok,flagged"`
	Source           string  `json:"source" enum:"llm,deterministic"`
	Attempts         int     `json:"attempts"`
	Violations       int     `json:"violations"`
	Trimmed          bool    `json:"trimmed,omitempty"`
	EstimatedSeconds float64 `json:"estimated_seconds"`
	Note             string  `json:"note,omitempty" doc:"why the LLM was not asked again"`
}

func checkHosts(hosts [2]podcast.Host) ([2]podcast.Host, error) {
	for i := range hosts {
		hosts[i].Name = strings.Join(strings.Fields(hosts[i].Name), " ")
		if hosts[i].Name == "" {
			return hosts, fmt.Errorf("%w: host %d has no name", ErrInvalid, i)
		}
		if hosts[i].VoiceID == "" {
			return hosts, fmt.Errorf("%w: host %d (%s) has no voice_id", ErrInvalid, i, hosts[i].Name)
		}
	}
	if strings.EqualFold(hosts[0].Name, hosts[1].Name) {
		return hosts, fmt.Errorf("%w: the two hosts are both called %q; give them different names", ErrInvalid, hosts[0].Name)
	}
	return hosts, nil
}

// StartScript checks the request and queues a script job for an approved
// article. The mode is settled now: asking for the LLM without one in
// Settings is refused.
func (p *Podcasts) StartScript(ctx context.Context, issue, article string, req ScriptRequest) (jobs.Job, error) {
	hosts, err := checkHosts(req.Hosts)
	if err != nil {
		return jobs.Job{}, err
	}
	if req.Minutes == 0 {
		req.Minutes = DefaultMinutes
	}
	if req.Minutes < MinMinutes || req.Minutes > MaxMinutes {
		return jobs.Job{}, fmt.Errorf("%w: minutes %d is outside %d..%d", ErrInvalid, req.Minutes, MinMinutes, MaxMinutes)
	}
	r, err := p.listen.Approved(ctx, issue, article, false)
	if err != nil {
		return jobs.Job{}, err
	}
	if len(PodcastArticle(r.Article.Title, r.Parts).Paragraphs) == 0 {
		return jobs.Job{}, fmt.Errorf("%w: article %s has no text for the hosts to talk about", ErrInvalid, article)
	}
	mode := req.Mode
	switch mode {
	case "", ModeLLM:
		_, err := p.llm(ctx)
		switch {
		case errors.Is(err, ErrNoLLM) && mode == "":
			mode = ModeDeterministic
		case errors.Is(err, ErrNoLLM):
			return jobs.Job{}, fmt.Errorf("%w: mode llm needs an LLM; set llm_url in Settings or ask for mode deterministic", ErrNoLLM)
		case err != nil:
			return jobs.Job{}, err
		default:
			mode = ModeLLM
		}
	case ModeDeterministic:
	default:
		return jobs.Job{}, fmt.Errorf("%w: mode %q is not llm or deterministic", ErrInvalid, mode)
	}
	base := int64(0)
	if rec, err := p.records.get(ctx, issue, article); err == nil {
		base = rec.Version
	} else if !errors.Is(err, ErrNotFound) {
		return jobs.Job{}, err
	}
	payload, err := json.Marshal(scriptJob{Issue: issue, Article: article, Hosts: hosts, Minutes: req.Minutes, Mode: mode, BaseVersion: base})
	if err != nil {
		return jobs.Job{}, err
	}
	return p.queue.Enqueue(ctx, ScriptJobKind, payload)
}

// ScriptJob is the script job's handler: it writes the script and stores
// it on the article's podcast record. With the LLM, a script with grounding
// violations is asked for again (telling the model what was not in the
// article) up to MaxAttempts calls; the one with the fewest violations is
// kept, flagged when it still has some. A failure is recorded on the
// record (its script, if any, kept) and fails the job. Running it again
// writes a new script, so a redelivered job is harmless.
func (p *Podcasts) ScriptJob(ctx context.Context, raw json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var job scriptJob
	if err := json.Unmarshal(raw, &job); err != nil {
		return nil, fmt.Errorf("%w: payload: %v", ErrInvalid, err)
	}
	res, err := p.writeScript(ctx, job, progress)
	// A job that lost its run, or an article or issue deleted meanwhile,
	// has nowhere to record a failure.
	if errors.Is(err, jobs.ErrSuperseded) || fault.KindOf(err) == fault.NotFound {
		return nil, err
	}
	if err != nil {
		if _, rerr := p.records.update(ctx, job.Issue, job.Article, 0, func(r *Record) error {
			r.Error = err.Error()
			if r.Script == nil {
				r.Status, r.Minutes = StatusFailed, job.Minutes
			}
			return nil
		}); rerr != nil {
			// The store is failing: another run may record both.
			return nil, jobs.Transient(fmt.Errorf("%v; recording it failed too: %w", err, rerr))
		}
		return nil, err
	}
	return json.Marshal(res)
}

func (p *Podcasts) writeScript(ctx context.Context, job scriptJob, progress jobs.Reporter) (ScriptResult, error) {
	r, err := p.listen.Approved(ctx, job.Issue, job.Article, false)
	if err != nil {
		return ScriptResult{}, err
	}
	art := PodcastArticle(r.Article.Title, r.Parts)
	res := ScriptResult{Source: job.Mode}
	var script podcast.Script
	var violations []podcast.Violation
	if job.Mode == ModeDeterministic {
		if script, err = podcast.DeterministicScript(art, job.Hosts); err != nil {
			return ScriptResult{}, err
		}
		violations = podcast.CheckGrounding(art, script)
	} else {
		var trimmed bool
		if script, violations, trimmed, err = p.askLLM(ctx, job, art, progress, &res); err != nil {
			return ScriptResult{}, err
		}
		res.Trimmed = trimmed
	}
	rec, err := p.records.update(ctx, job.Issue, job.Article, 0, func(rec *Record) error {
		if rec.Source == SourceEdited && rec.Version > job.BaseVersion {
			return fmt.Errorf("%w: the script was edited (version %d) while this one was being written; the edit is kept, write a new script to replace it", ErrStale, rec.Version)
		}
		rec.setScript(script, violations, job.Mode)
		rec.Minutes, rec.Attempts, rec.Trimmed = job.Minutes, res.Attempts, res.Trimmed
		return nil
	})
	if errors.Is(err, ErrStale) {
		return ScriptResult{}, err
	}
	if err != nil {
		return ScriptResult{}, jobs.Transient(err)
	}
	res.Status, res.Violations, res.EstimatedSeconds = rec.Status, len(rec.Violations), rec.EstimatedSeconds
	return res, nil
}

// askLLM asks for the script up to MaxAttempts times and returns the one
// with the fewest violations. An engine failure or an unusable answer
// before any usable script is an error; after one, it ends the asking and
// the best script so far is kept (res.Note says why).
func (p *Podcasts) askLLM(ctx context.Context, job scriptJob, art podcast.Article, progress jobs.Reporter, res *ScriptResult) (podcast.Script, []podcast.Violation, bool, error) {
	chat, err := p.llm(ctx)
	if err != nil {
		return podcast.Script{}, nil, false, fmt.Errorf("the LLM from Settings cannot be used: %w", err)
	}
	system, user := podcast.BuildPrompt(art, job.Hosts, float64(job.Minutes))
	var best podcast.Script
	var bestViolations []podcast.Violation
	var bestTrimmed, have bool
	feedback := ""
	for attempt := 1; attempt <= MaxAttempts; attempt++ {
		if err := progress.Progress(ctx, float64(attempt-1)/MaxAttempts, fmt.Sprintf("asking the LLM for the script (attempt %d of %d)", attempt, MaxAttempts)); err != nil {
			return podcast.Script{}, nil, false, err
		}
		res.Attempts = attempt
		script, err := p.ask(ctx, chat, system, user+feedback, art.Title, job.Hosts)
		if err != nil {
			if !have {
				return podcast.Script{}, nil, false, err
			}
			res.Note = fmt.Sprintf("attempt %d failed, the best earlier script is kept: %v", attempt, err)
			break
		}
		script, trimmed := BoundLength(script, float64(job.Minutes))
		violations := podcast.CheckGrounding(art, script)
		if !have || len(violations) < len(bestViolations) {
			best, bestViolations, bestTrimmed, have = script, violations, trimmed, true
		}
		if len(violations) == 0 {
			break
		}
		feedback = GroundingFeedback(violations)
	}
	return best, bestViolations, bestTrimmed, nil
}

// ask makes one call and reads its script, bounded for storage.
func (p *Podcasts) ask(ctx context.Context, chat Chat, system, user, title string, hosts [2]podcast.Host) (podcast.Script, error) {
	answer, err := chat.ChatJSON(ctx, system, user)
	if err != nil {
		return podcast.Script{}, fmt.Errorf("%w: %v", ErrLLM, err)
	}
	turns, err := podcast.ParseScript(answer)
	if err != nil {
		return podcast.Script{}, fmt.Errorf("%w: the LLM's answer is not a script: %v", ErrLLM, err)
	}
	script := podcast.Script{Title: title, Hosts: hosts, Turns: turns}
	if err := checkBounds(scriptOf(script).Turns); err != nil {
		return podcast.Script{}, fmt.Errorf("%w: the LLM's script is too large: %v", ErrLLM, err)
	}
	return script, nil
}

// GroundingFeedback tells the model what its last script said that the
// article does not, for the next attempt.
func GroundingFeedback(violations []podcast.Violation) string {
	var b strings.Builder
	b.WriteString("\n\nYour previous script was refused because it said things the article does not contain:\n")
	for _, v := range violations {
		switch v.Kind {
		case podcast.KindNumber:
			fmt.Fprintf(&b, "- turn %d: the number %q is not in the article\n", v.Turn, v.Text)
		case podcast.KindQuote:
			fmt.Fprintf(&b, "- turn %d: the quotation %q is not in the article word for word\n", v.Turn, v.Text)
		default:
			fmt.Fprintf(&b, "- turn %d: the name %q is not in the article\n", v.Turn, v.Text)
		}
	}
	b.WriteString("Write the whole script again. Use only names, numbers and quotations that appear in the article, copied exactly; leave out anything else. Answer with the JSON only.")
	return b.String()
}

// checkBounds refuses a script too large to keep.
func checkBounds(turns []Turn) error {
	if len(turns) == 0 {
		return fmt.Errorf("%w: the script has no turns", ErrInvalid)
	}
	if len(turns) > MaxTurns {
		return fmt.Errorf("%w: %d turns, at most %d", ErrInvalid, len(turns), MaxTurns)
	}
	total := 0
	for i, t := range turns {
		if t.Host != 0 && t.Host != 1 {
			return fmt.Errorf("%w: turn %d: host must be 0 or 1", ErrInvalid, i)
		}
		if strings.TrimSpace(t.Text) == "" {
			return fmt.Errorf("%w: turn %d has no text", ErrInvalid, i)
		}
		if len(t.Text) > MaxTurnBytes {
			return fmt.Errorf("%w: turn %d has %d bytes, at most %d", ErrInvalid, i, len(t.Text), MaxTurnBytes)
		}
		total += len(t.Text)
	}
	if total > MaxScriptBytes {
		return fmt.Errorf("%w: the script has %d bytes, at most %d", ErrInvalid, total, MaxScriptBytes)
	}
	return nil
}

// Script reads an article's podcast record.
func (p *Podcasts) Script(ctx context.Context, issue, article string) (Record, error) {
	if _, err := p.listen.Article(ctx, issue, article, false); err != nil {
		return Record{}, err
	}
	return p.records.get(ctx, issue, article)
}

// Edit is a user's change of a script.
type Edit struct {
	Turns []Turn
	// Hosts, when set, replaces the hosts (names and voices).
	Hosts []Host
}

// EditScript replaces the script's turns (and hosts) with the user's, made
// on version ifMatch (another stored version is ErrStale). The grounding
// check runs again against the article as it is now and its violations
// are stored: an edit is the user's choice, so it is flagged, never
// refused. The source becomes "edited".
func (p *Podcasts) EditScript(ctx context.Context, issue, article string, ifMatch int64, edit Edit) (Record, error) {
	turns := make([]Turn, len(edit.Turns))
	for i, t := range edit.Turns {
		turns[i] = Turn{Host: t.Host, Text: strings.TrimSpace(t.Text)}
	}
	if err := checkBounds(turns); err != nil {
		return Record{}, err
	}
	r, err := p.listen.Article(ctx, issue, article, false)
	if err != nil {
		return Record{}, err
	}
	art := PodcastArticle(r.Article.Title, r.Parts)
	return p.records.update(ctx, issue, article, ifMatch, func(rec *Record) error {
		if rec.Version == 0 {
			return fmt.Errorf("%w: article %s has no podcast script to edit; write one first", ErrNotFound, article)
		}
		var hosts [2]podcast.Host
		switch {
		case edit.Hosts != nil:
			if len(edit.Hosts) != 2 {
				return fmt.Errorf("%w: give two hosts, not %d", ErrInvalid, len(edit.Hosts))
			}
			for i, h := range edit.Hosts {
				hosts[i] = podcast.Host{Name: h.Name, VoiceID: h.VoiceID}
			}
			var err error
			if hosts, err = checkHosts(hosts); err != nil {
				return err
			}
		case rec.Script != nil:
			hosts = rec.Script.domain().Hosts
		default:
			return fmt.Errorf("%w: article %s has no script yet, so the edit must give the two hosts", ErrInvalid, article)
		}
		script := podcast.Script{Title: art.Title, Hosts: hosts, Turns: Script{Turns: turns}.domain().Turns}
		rec.setScript(script, podcast.CheckGrounding(art, script), SourceEdited)
		rec.Attempts, rec.Trimmed = 0, false
		return nil
	})
}

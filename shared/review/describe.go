package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/store"
)

// DescribeJobKind is the background job that writes figure descriptions.
const DescribeJobKind = "magazine.describe"

// VisionEngine is an OpenAI-compatible chat engine with image input. An
// engine that answers with no content answers "" without an error.
type VisionEngine interface {
	Vision(ctx context.Context, prompt string, image []byte, mimeType string) (string, error)
}

// NamedEngine is one engine of the describe chain, named as results report it.
type NamedEngine struct {
	Name   string
	Engine VisionEngine
}

// Crops reads the stored crop of a picture region (a PNG).
type Crops interface {
	ReadCrop(ctx context.Context, key string) ([]byte, error)
}

// Describer writes figure descriptions: by hand, or as a background job
// that sends a picture's stored crop to the vision engines (primary, then
// fallback) with the prompt of its visual kind. Every description is
// stored through Change, so it bumps the revision and loses no concurrent edit.
type Describer struct {
	ed    *Editor
	queue jobs.Queue
	crops Crops
	// engines are the vision engines in the order they are tried, from the
	// current settings.
	engines func(ctx context.Context) ([]NamedEngine, error)
}

// NewDescriber returns a Describer.
func NewDescriber(ed *Editor, queue jobs.Queue, crops Crops, engines func(ctx context.Context) ([]NamedEngine, error)) *Describer {
	return &Describer{ed: ed, queue: queue, crops: crops, engines: engines}
}

// describeRequest is a describe job's payload: one image, an article's
// images or the whole issue's.
type describeRequest struct {
	Issue   string              `json:"issue"`
	Image   *magazine.RegionRef `json:"image,omitempty"`
	Article string              `json:"article,omitempty"`
	// Redo describes pictures that already have a description too.
	Redo bool `json:"redo,omitempty"`
}

// Outcomes of describing one picture.
const (
	Described = "described" // a description was stored
	NoContent = "empty"     // the engines had nothing to say; nothing was stored
	Kept      = "kept"      // someone changed the picture meanwhile; their change was kept
	Failed    = "failed"    // every engine failed
)

// ImageOutcome is what describing one picture came to.
type ImageOutcome struct {
	Image       string `json:"image" doc:"the image id, <page>-<region id>"`
	Outcome     string `json:"outcome" enum:"described,empty,kept,failed"`
	Description string `json:"description,omitempty"`
	Engine      string `json:"engine,omitempty" doc:"the engine whose answer was stored"`
	Reason      string `json:"reason,omitempty" doc:"why nothing was stored"`
}

// DescribeResult is a describe job's result.
type DescribeResult struct {
	Images    []ImageOutcome `json:"images"`
	Described int            `json:"described"`
	Total     int            `json:"total" doc:"pictures the job set out to describe"`
}

// pictureAt finds a picture region for a describe or hand edit: a missing
// region is ErrNotFound, a region that is not a picture ErrInvalid.
func pictureAt(p magazine.Page, ref magazine.RegionRef) (magazine.Region, error) {
	r, ok := region(p, ref.Region)
	if !ok {
		return magazine.Region{}, fmt.Errorf("image %s: page %d has no region %s: %w", magazine.ImageID(ref), ref.Page, ref.Region, ErrNotFound)
	}
	if !magazine.IsVisual(r.Kind) {
		return magazine.Region{}, fmt.Errorf("region %s on page %d is a %s region: only picture regions (image, figure, chart, table, code) have a description: %w",
			ref.Region, ref.Page, r.Kind, ErrInvalid)
	}
	return r, nil
}

// DescribeImage starts a job that describes one picture, replacing any
// description it has.
func (d *Describer) DescribeImage(ctx context.Context, issue string, ref magazine.RegionRef) (jobs.Job, error) {
	p, err := d.ed.pageAt(ctx, issue, ref.Page, 0)
	if err != nil {
		return jobs.Job{}, err
	}
	r, err := pictureAt(p, ref)
	if err != nil {
		return jobs.Job{}, err
	}
	if r.CropKey == "" {
		return jobs.Job{}, fmt.Errorf("image %s has no crop to describe (its box lies off the page render); move or redraw it: %w", magazine.ImageID(ref), ErrInvalid)
	}
	return d.enqueue(ctx, describeRequest{Issue: issue, Image: &ref, Redo: true})
}

// DescribeArticle starts a job that describes the article's pictures
// (those without a description, or all with redo).
func (d *Describer) DescribeArticle(ctx context.Context, issue, articleID string, redo bool) (jobs.Job, error) {
	if _, err := article(newState(d.ed.Service, ctx, issue), articleID); err != nil {
		return jobs.Job{}, err
	}
	return d.enqueue(ctx, describeRequest{Issue: issue, Article: articleID, Redo: redo})
}

// DescribeIssue starts a job that describes every picture of the issue
// (those without a description, or all with redo).
func (d *Describer) DescribeIssue(ctx context.Context, issue string, redo bool) (jobs.Job, error) {
	if _, err := d.ed.issue(ctx, issue); err != nil {
		return jobs.Job{}, err
	}
	return d.enqueue(ctx, describeRequest{Issue: issue, Redo: redo})
}

// issue reads an issue's record; a missing one is ErrNotFound.
func (s *Service) issue(ctx context.Context, id string) (magazine.Issue, error) {
	st := newState(s, ctx, id)
	it, err := st.get(store.Key{PK: issues.PK(id), SK: issues.MetaSK})
	if err != nil {
		return magazine.Issue{}, err
	}
	if it.version == 0 {
		return magazine.Issue{}, fmt.Errorf("issue %s: %w", id, ErrNotFound)
	}
	var is magazine.Issue
	return is, json.Unmarshal(it.before, &is)
}

func (d *Describer) enqueue(ctx context.Context, req describeRequest) (jobs.Job, error) {
	payload, err := json.Marshal(req)
	if err != nil {
		return jobs.Job{}, err
	}
	return d.queue.Enqueue(ctx, DescribeJobKind, payload)
}

// Job is the describe job's handler. One picture that cannot be described
// fails the job with the reason; in a describe-all each picture's outcome
// is recorded in the result and the others go on.
func (d *Describer) Job(ctx context.Context, payload json.RawMessage, progress jobs.Reporter) (json.RawMessage, error) {
	var req describeRequest
	if err := json.Unmarshal(payload, &req); err != nil {
		return nil, fmt.Errorf("describe job payload: %w", err)
	}
	engines, err := d.engines(ctx)
	if err != nil {
		return nil, err
	}
	if len(engines) == 0 {
		return nil, errors.New("no vision engine is configured: set vision_ocr_url (and optionally vision_ocr_fallback_url) in Settings")
	}
	refs, err := d.pictures(ctx, req)
	if err != nil {
		return nil, err
	}
	res := DescribeResult{Images: []ImageOutcome{}, Total: len(refs)}
	for i, ref := range refs {
		if err := progress.Progress(ctx, float64(i)/float64(max(len(refs), 1)), fmt.Sprintf("describing %d of %d: image %s", i+1, len(refs), magazine.ImageID(ref))); err != nil {
			return nil, err
		}
		out, err := d.describe(ctx, engines, req.Issue, ref)
		if err != nil && req.Image != nil {
			return nil, err // one picture: its failure is the job's
		}
		if err != nil {
			out = ImageOutcome{Image: magazine.ImageID(ref), Outcome: Failed, Reason: err.Error()}
		}
		if out.Outcome == Described {
			res.Described++
		}
		res.Images = append(res.Images, out)
	}
	summary := fmt.Sprintf("described %d of %d", res.Described, res.Total)
	if req.Image != nil && res.Described == 0 && len(res.Images) == 1 {
		summary = "no description stored: " + res.Images[0].Reason
	}
	if err := progress.Progress(ctx, 1, summary); err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// pictures are the pictures a request covers, in reading order: the one
// image; an article's regions and image list; or every page's pictures.
// Without redo, pictures that have a description are left out.
func (d *Describer) pictures(ctx context.Context, req describeRequest) ([]magazine.RegionRef, error) {
	if req.Image != nil {
		return []magazine.RegionRef{*req.Image}, nil
	}
	st := newState(d.ed.Service, ctx, req.Issue)
	var candidates []magazine.RegionRef
	if req.Article != "" {
		a, err := article(st, req.Article)
		if err != nil {
			return nil, err
		}
		candidates = append(slices.Clone(a.Regions), a.Images...)
	} else {
		is, err := d.ed.issue(ctx, req.Issue)
		if err != nil {
			return nil, err
		}
		for n := 1; n <= is.PageCount; n++ {
			p, _, err := st.Page(n)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			for _, id := range p.Order {
				candidates = append(candidates, magazine.RegionRef{Page: n, Region: id})
			}
		}
	}
	var out []magazine.RegionRef
	for _, ref := range candidates {
		p, _, err := st.Page(ref.Page)
		if err != nil {
			continue // a page that is gone has nothing to describe
		}
		r, ok := region(p, ref.Region)
		if !ok || !magazine.IsVisual(r.Kind) || slices.Contains(out, ref) || (!req.Redo && strings.TrimSpace(r.Description) != "") {
			continue
		}
		out = append(out, ref)
	}
	return out, nil
}

// describe asks the engines about one picture and stores the answer. An
// error means every engine failed (or the picture cannot be described).
func (d *Describer) describe(ctx context.Context, engines []NamedEngine, issue string, ref magazine.RegionRef) (ImageOutcome, error) {
	out := ImageOutcome{Image: magazine.ImageID(ref)}
	p, err := d.ed.pageAt(ctx, issue, ref.Page, 0)
	if err != nil {
		return out, err
	}
	seen, err := pictureAt(p, ref)
	if err != nil {
		return out, err
	}
	if seen.CropKey == "" {
		return out, fmt.Errorf("image %s has no crop to describe", out.Image)
	}
	crop, err := d.crops.ReadCrop(ctx, seen.CropKey)
	if err != nil {
		return out, fmt.Errorf("image %s: reading its crop: %w", out.Image, err)
	}
	text, engine, err := ask(ctx, engines, magazine.DescribePrompt(magazine.DescribeKind(seen)), crop)
	if errors.Is(err, errNoContent) {
		out.Outcome, out.Reason = NoContent, err.Error()
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("image %s: %w", out.Image, err)
	}
	err = d.store(ctx, issue, ref, seen, text)
	if errors.Is(err, errChangedMeanwhile) {
		out.Outcome, out.Reason = Kept, err.Error()
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("image %s: storing its description: %w", out.Image, err)
	}
	out.Outcome, out.Description, out.Engine = Described, text, engine
	return out, nil
}

// errNoContent: the engines answered, but with nothing to store.
var errNoContent = errors.New("the vision engine returned empty content")

// ask tries each engine in turn. A failed call, an answer with a
// repetition loop or an empty answer moves on to the next engine; when none
// gives a description the error lists why each did not (errNoContent when
// one of them answered empty).
func ask(ctx context.Context, engines []NamedEngine, prompt string, crop []byte) (string, string, error) {
	var why []string
	empty := false
	for _, e := range engines {
		answer, err := e.Engine.Vision(ctx, prompt, crop, "image/png")
		switch {
		case err != nil:
			why = append(why, e.Name+": "+err.Error())
		case magazine.HasRepetitionLoop(answer):
			why = append(why, e.Name+": the answer repeats itself (a repetition loop)")
		default:
			if text := magazine.CleanDescription(answer); text != "" {
				return text, e.Name, nil
			}
			empty = true
			why = append(why, e.Name+": empty answer")
		}
		if ctx.Err() != nil {
			break
		}
	}
	if empty {
		return "", "", fmt.Errorf("%w; no description stored (%s)", errNoContent, strings.Join(why, "; "))
	}
	return "", "", fmt.Errorf("no vision engine could describe it (%s)", strings.Join(why, "; "))
}

// errChangedMeanwhile: the picture was edited while the engine was asked.
var errChangedMeanwhile = errors.New("changed meanwhile")

// store writes a described picture's description, unless the picture was
// re-cut, re-typed or given a description by hand since it was read: the
// answer describes the old picture, and a person's edit wins.
func (d *Describer) store(ctx context.Context, issue string, ref magazine.RegionRef, seen magazine.Region, text string) error {
	_, err := d.ed.Change(ctx, issue, Options{}, func(st *state) error {
		p, _, err := st.Page(ref.Page)
		if err != nil {
			return err
		}
		r, err := pictureAt(p, ref)
		if err != nil {
			return err
		}
		switch {
		case r.CropKey != seen.CropKey || magazine.DescribeKind(r) != magazine.DescribeKind(seen):
			return fmt.Errorf("the picture was moved or re-typed while it was described; describe it again: %w", errChangedMeanwhile)
		case r.Description != seen.Description:
			return fmt.Errorf("its description was edited while it was described; the edit is kept: %w", errChangedMeanwhile)
		}
		st.PutPage(withDescription(p, ref.Region, text))
		return nil
	})
	return err
}

// SetDescription sets a picture's description by hand ("" clears it): one
// or two sentences, on a picture region only.
func (e *Editor) SetDescription(ctx context.Context, issue string, ref magazine.RegionRef, text string, ifMatch int64) (magazine.Region, Outcome, error) {
	text = strings.TrimSpace(text)
	if err := magazine.CheckDescription(text); err != nil {
		return magazine.Region{}, Outcome{}, err
	}
	var result magazine.Region
	out, err := e.Change(ctx, issue, e.opts(ref.Page, ifMatch, false), func(st *state) error {
		p, _, err := st.Page(ref.Page)
		if err != nil {
			return err
		}
		if _, err := pictureAt(p, ref); err != nil {
			return err
		}
		p = withDescription(p, ref.Region, text)
		st.PutPage(p)
		result, _ = region(p, ref.Region)
		return nil
	})
	return result, out, err
}

func withDescription(p magazine.Page, id, text string) magazine.Page {
	p.Regions = slices.Clone(p.Regions)
	i := slices.IndexFunc(p.Regions, func(r magazine.Region) bool { return r.ID == id })
	p.Regions[i].Description = text
	return p
}

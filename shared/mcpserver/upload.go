package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lectern/lectern/shared/engines/urlsafe"
)

// maxPDF is the API's upload limit (200 MiB); a larger file is refused
// before it is read or sent.
const maxPDF = 200 << 20

// transferTimeout bounds sending or fetching one PDF, which may take
// longer than an ordinary call.
const transferTimeout = 10 * time.Minute

// --- lectern_upload_issue

type uploadIn struct {
	Path  string `json:"path,omitempty" jsonschema:"a PDF file on the machine lectern_mcp runs on, inside a folder it was given with --files; give path or url"`
	URL   string `json:"url,omitempty" jsonschema:"an http(s) URL of a PDF to fetch from a public address; give path or url"`
	Title string `json:"title,omitempty" jsonschema:"the issue title (default: the file name)"`
	Format
}

func (in uploadIn) check() error {
	if (in.Path == "") == (in.URL == "") {
		return fmt.Errorf("%w: give exactly one of path or url", ErrInvalid)
	}
	return nil
}

func uploadIssue(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_upload_issue", title: "Upload a magazine PDF",
		doc: doc{
			purpose: "Upload a magazine PDF from a file path or a URL and follow its ingest (render, recognize, order, articles) to the end, " +
				"reporting progress as pages finish.",
			notDo: "review the result or create articles; read a path outside the folders given with --files (a hosted server reads none), " +
				"or fetch a URL on this machine or a private network unless --fetch-allow names it.",
			returns: "the issue once ingest finished (id, title, status ready or failed, pages, page errors), or as it stands when the wait " +
				"ran out (then follow it with lectern_get_issue_status).",
			use:    "to add an issue. Each call adds a new issue, even for the same file.",
			errors: "invalid input when the file is missing, not a PDF or over 200 MiB, or the URL cannot be fetched; refused when the path or URL is not allowed.",
		},
		hints: hints{openWorld: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "path", length(1, 4096))
		set(s, "url", length(1, 2048), pattern("^https?://"))
		set(s, "title", length(0, 200))
	}, func(ctx context.Context, c *call, in uploadIn) (any, error) {
		name, data, err := readPDF(ctx, c, d, in)
		if err != nil {
			return nil, err
		}
		title := in.Title
		if title == "" {
			title = strings.TrimSuffix(name, filepath.Ext(name))
		}
		c.progress(ctx, 0.05, fmt.Sprintf("uploading %s (%.1f MB)", name, float64(len(data))/1e6))
		is, err := sendPDF(ctx, d, name, title, data)
		if err != nil {
			return nil, err
		}
		c.info(ctx, "issue uploaded", "issue", is.ID, "bytes", len(data))
		return followIngest(ctx, c, d, is)
	})
}

// readPDF reads the PDF at in.Path or in.URL, refusing anything over the
// limit or not a PDF.
func readPDF(ctx context.Context, c *call, d deps, in uploadIn) (string, []byte, error) {
	name, data, err := readSource(ctx, c, d, in.Path, in.URL, maxPDF)
	if err != nil {
		return "", nil, err
	}
	if !bytes.HasPrefix(data, []byte("%PDF-")) {
		return "", nil, fmt.Errorf("%w: %s is not a PDF (it does not start with %%PDF-)", ErrInvalid, name)
	}
	return name, data, nil
}

// readSource reads a local file beneath the folders this server may read,
// or fetches rawURL from an address the fetch policy allows, refusing more
// than limit bytes; it answers the file's name.
func readSource(ctx context.Context, c *call, d deps, file, rawURL string, limit int64) (string, []byte, error) {
	var name string
	var data []byte
	var err error
	if file != "" {
		c.progress(ctx, 0, "reading "+file)
		if data, err = d.opts.files.read(file, limit); err != nil {
			return "", nil, err
		}
		name = filepath.Base(file)
	} else {
		c.progress(ctx, 0, "downloading "+rawURL)
		if data, err = download(ctx, d.opts.fetchPolicy, d.opts.fetch, rawURL, limit); err != nil {
			return "", nil, err
		}
		u, _ := url.Parse(rawURL) // download parsed it
		name = path.Base(u.Path)
		if name == "." || name == "/" || name == "" {
			name = u.Host
		}
	}
	if int64(len(data)) > limit {
		return "", nil, fmt.Errorf("%w: the file has more than %d bytes", ErrInvalid, limit)
	}
	return name, data, nil
}

// sendPDF creates the issue the way the API says it takes uploads: a form
// to the API (local), or a presigned form straight to storage (AWS).
func sendPDF(ctx context.Context, d deps, name, title string, data []byte) (issue, error) {
	var mode struct {
		Upload string `json:"upload"`
	}
	if err := d.api.get(ctx, "/api/magazine", nil, &mode); err != nil {
		return issue{}, err
	}
	if mode.Upload == "presigned" {
		return sendPresigned(ctx, d, name, title, data)
	}
	body, ctype, err := multipartBody([][2]string{{"title", title}}, "file", name, "application/pdf", data)
	if err != nil {
		return issue{}, fmt.Errorf("upload form: %w", err)
	}
	var is issue
	err = d.api.do(ctx, request{method: http.MethodPost, path: "/api/magazine", raw: body, contentType: ctype, timeout: transferTimeout}, &is)
	return is, err
}

func sendPresigned(ctx context.Context, d deps, name, title string, data []byte) (issue, error) {
	var form struct {
		Issue     issue             `json:"issue"`
		UploadURL string            `json:"upload_url"`
		Fields    map[string]string `json:"fields"`
	}
	err := d.api.do(ctx, request{method: http.MethodPost, path: "/api/magazine/uploads",
		body: map[string]any{"filename": name, "size": len(data), "title": title}}, &form)
	if err != nil {
		return issue{}, err
	}
	var fields [][2]string
	for k, v := range form.Fields {
		fields = append(fields, [2]string{k, v})
	}
	body, ctype, err := multipartBody(fields, "file", name, "application/pdf", data)
	if err != nil {
		return issue{}, fmt.Errorf("upload form: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, transferTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, form.UploadURL, bytes.NewReader(body))
	if err != nil {
		return issue{}, fmt.Errorf("upload: %w", err)
	}
	req.Header.Set("Content-Type", ctype)
	resp, err := d.opts.storage.Do(req)
	if errors.Is(err, urlsafe.ErrUnsafeURL) {
		return issue{}, fmt.Errorf("%w: the API's upload form points at an address this server may not call: %v", ErrForbidden, err)
	}
	if err != nil {
		return issue{}, fmt.Errorf("upload: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
		return issue{}, &StatusError{Method: http.MethodPost, Path: "(upload form)", Status: resp.StatusCode, Detail: strings.TrimSpace(string(msg))}
	}
	return form.Issue, nil
}

// followIngest polls the issue until ingest ends or the wait runs out,
// reporting pages done of total as progress from 0.1 to 1.
func followIngest(ctx context.Context, c *call, d deps, is issue) (any, error) {
	deadline := time.Now().Add(d.opts.Wait)
	last := ""
	for {
		if is.Status == "ready" || is.Status == "failed" {
			c.progress(ctx, 1, "ingest "+is.Status)
			if is.Status == "failed" {
				c.error(ctx, "ingest failed", "issue", is.ID, "error", is.Error)
			} else {
				c.info(ctx, "ingest finished", "issue", is.ID, "pages", is.PageCount)
			}
			return issueStatus{is}, nil
		}
		if time.Now().After(deadline) {
			return stillRunning{issueStatus{is}}, nil
		}
		msg := fmt.Sprintf("%s: %d of %d pages done", orNone(is.Step), is.PagesDone, is.PageCount)
		if msg != last {
			frac := 0.1
			if is.PageCount > 0 {
				frac += 0.9 * float64(is.PagesDone) / float64(is.PageCount)
			}
			c.progress(ctx, frac, msg)
			c.debug(ctx, "ingest progress", "issue", is.ID, "pages_done", is.PagesDone, "page_count", is.PageCount)
			last = msg
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(d.opts.PollInterval):
		}
		if err := d.api.get(ctx, issuePath(is.ID), nil, &is); err != nil {
			return nil, err
		}
	}
}

// stillRunning is an issue whose ingest outlived the wait.
type stillRunning struct{ issueStatus }

func (s stillRunning) Markdown() string {
	return s.issueStatus.Markdown() + "\nIngest is still running; follow it with lectern_get_issue_status.\n"
}

func (s stillRunning) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		issue
		StillRunning bool `json:"still_running"`
	}{s.issue, true})
}

// --- lectern_describe_figure

type describeIn struct {
	pageIn
	RegionID string `json:"region_id" jsonschema:"the picture region's id, as lectern_get_page_regions shows it"`
	Format
}

type described struct {
	Image       string `json:"image"`
	Outcome     string `json:"outcome"`
	Description string `json:"description,omitempty"`
	Engine      string `json:"engine,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

func (x described) Markdown() string {
	switch x.Outcome {
	case "described":
		return fmt.Sprintf("Picture %s described by %s:\n\n%s\n", x.Image, orNone(x.Engine), x.Description)
	default:
		return fmt.Sprintf("Picture %s: %s. %s\n", x.Image, x.Outcome, x.Reason)
	}
}

func describeFigure(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_describe_figure", title: "Describe a figure",
		doc: doc{
			purpose: "Describe one picture region (image, figure, chart, table, code) with the vision engine, replacing its description with " +
				"one or two sentences, and wait for the job, reporting its progress.",
			notDo:   "describe text regions or whole articles, or set a description by hand (use lectern_edit_region with description).",
			returns: "the outcome: described (with the description and engine), empty (the engine gave nothing), kept (the picture was edited meanwhile) or failed (why).",
			use:     "when a picture has no description, or a poor one, before listening to its article with descriptions.",
			errors:  "invalid input (400/422) when the region is not a picture; the job fails when every vision engine fails.",
		},
		hints: hints{destructive: true, openWorld: true},
	}, d.log, nil, func(ctx context.Context, c *call, in describeIn) (any, error) {
		image := fmt.Sprintf("%d-%s", in.Page, in.RegionID)
		var started jobStarted
		err := d.api.do(ctx, request{method: http.MethodPost, path: issuePath(in.IssueID) + "/images/" + seg(image) + "/describe"}, &started)
		if err != nil {
			return nil, err
		}
		j, err := followJob(ctx, c, d, started.JobID)
		if err != nil {
			return nil, err
		}
		var res struct {
			Images []described `json:"images"`
		}
		b, _ := json.Marshal(j.Result) // decoded from JSON a moment ago
		if err := json.Unmarshal(b, &res); err != nil || len(res.Images) == 0 {
			return described{Image: image, Outcome: "failed", Reason: "the job answered no outcome"}, nil
		}
		return res.Images[0], nil
	})
}

// followJob polls a background job until it ends or the wait runs out,
// passing its progress and message on.
func followJob(ctx context.Context, c *call, d deps, id string) (job, error) {
	deadline := time.Now().Add(d.opts.Wait)
	for {
		var j job
		if err := d.api.get(ctx, "/api/jobs/"+seg(id), nil, &j); err != nil {
			return job{}, err
		}
		msg := j.Message
		if msg == "" {
			msg = j.Kind + " " + j.Status
		}
		c.progress(ctx, j.Progress, msg)
		switch j.Status {
		case "succeeded":
			c.info(ctx, "job finished", "job", id, "kind", j.Kind)
			return j, nil
		case "failed":
			return job{}, fmt.Errorf("%w: job %s (%s): %s", ErrJobFailed, id, j.Kind, j.Error)
		}
		if time.Now().After(deadline) {
			return job{}, fmt.Errorf("%w: job %s still %s after %s; GET /api/jobs/%s follows it", ErrTimeout, id, j.Status, d.opts.Wait, id)
		}
		select {
		case <-ctx.Done():
			return job{}, ctx.Err()
		case <-time.After(d.opts.PollInterval):
		}
	}
}

package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// magazineTools are the magazine toolset: issues, pages and their regions,
// articles, upload and figure descriptions.
func magazineTools(d deps) []Tool {
	return []Tool{
		listIssues(d), getIssueStatus(d), getPageRegions(d), editRegion(d), deleteRegion(d), splitRegion(d),
		mergeRegions(d), retypeRegions(d), undoChange(d), setReadingOrder(d), listArticles(d), getArticleText(d),
		approveArticle(d), reviewProposal(d), uploadIssue(d), describeFigure(d),
	}
}

// The inputs' shared parts.

type issueIn struct {
	IssueID string `json:"issue_id" jsonschema:"the issue id, as lectern_list_issues shows it"`
}

type pageIn struct {
	issueIn
	Page int `json:"page" jsonschema:"page number, from 1"`
}

// editIn names a region to edit; page_version makes a stale edit fail.
type editIn struct {
	pageIn
	RegionID    string `json:"region_id" jsonschema:"the region id, as lectern_get_page_regions shows it"`
	PageVersion int64  `json:"page_version,omitempty" jsonschema:"the page version lectern_get_page_regions showed; when given, the edit fails with 409 if the page changed since"`
}

func issuePath(id string) string { return "/api/magazine/" + seg(id) }

func pagePath(id string, n int) string { return fmt.Sprintf("%s/pages/%d", issuePath(id), n) }

func regionPath(in editIn) string {
	return pagePath(in.IssueID, in.Page) + "/regions/" + seg(in.RegionID)
}

const magazineErrors = "409 when the page changed since page_version, or the region cannot take the change (the API says why)."

// --- lectern_list_issues

type listIssuesIn struct {
	Paging
	Format
}

type issueList struct{ Page[issue] }

func (l issueList) Markdown() string {
	var b strings.Builder
	b.WriteString("# Magazine issues\n\n")
	if l.Total == 0 {
		b.WriteString("No issues yet. Upload one with lectern_upload_issue.\n")
		return b.String()
	}
	for _, is := range l.Items {
		fmt.Fprintf(&b, "- **%s** (%s): %s, %d of %d pages done, added %s\n", is.Title, is.ID, is.Status, is.PagesDone, is.PageCount, when(is.Created))
	}
	b.WriteString(more(l.Total, l.Count, l.Offset, l.NextOffset))
	return b.String()
}

func listIssues(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_list_issues", title: "List magazine issues",
		doc: doc{
			purpose: "List the magazine issues in Lectern, newest first, one page at a time.",
			notDo:   "show pages, regions or articles (use lectern_get_issue_status, lectern_get_page_regions, lectern_list_articles).",
			returns: "a page of issues (id, title, status, page_count, pages_done, created): JSON total, count, offset, items, has_more, next_offset.",
			use:     "to find an issue's id. Not for following one ingest: use lectern_get_issue_status.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in listIssuesIn) (any, error) {
		var out struct {
			Issues []issue `json:"issues"`
		}
		if err := d.api.get(ctx, "/api/magazine", nil, &out); err != nil {
			return nil, err
		}
		return issueList{paginate(out.Issues, in.Paging)}, nil
	})
}

// --- lectern_get_issue_status

type issueStatusIn struct {
	issueIn
	Format
}

type issueStatus struct{ issue }

func (s issueStatus) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s)\n\n- Status: %s", s.Title, s.ID, s.Status)
	if s.Step != "" {
		fmt.Fprintf(&b, " (step: %s)", s.Step)
	}
	fmt.Fprintf(&b, "\n- Pages: %d of %d done\n- Revision: %d\n- Updated: %s\n", s.PagesDone, s.PageCount, s.Revision, when(s.Updated))
	if s.Error != "" {
		fmt.Fprintf(&b, "- Error: %s\n", s.Error)
	}
	if len(s.PageErrors) > 0 {
		b.WriteString("\n## Page errors\n")
		for _, e := range s.PageErrors {
			fmt.Fprintf(&b, "- Page %d, %s: %s\n", e.Page, e.Step, e.Error)
		}
	}
	return b.String()
}

func getIssueStatus(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_get_issue_status", title: "Get an issue's status",
		doc: doc{
			purpose: "Get one issue's ingest status: processing, ready or failed, pages done of total, the current step and each failed page's error.",
			notDo:   "list the page's regions or the issue's articles.",
			returns: "the issue (id, title, status, step, page_count, pages_done, revision, page_errors, pages: each page's last step).",
			use:     "after an upload, or to see why pages failed. Not to list issues: use lectern_list_issues.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in issueStatusIn) (any, error) {
		var is issue
		if err := d.api.get(ctx, issuePath(in.IssueID), nil, &is); err != nil {
			return nil, err
		}
		return issueStatus{is}, nil
	})
}

// --- lectern_get_page_regions

type pageRegionsIn struct {
	pageIn
	Paging
	Format
}

type pageRegions struct {
	IssueID     string       `json:"issue_id"`
	Page        int          `json:"page"`
	Version     int64        `json:"version"`
	Width       float64      `json:"width"`
	Height      float64      `json:"height"`
	HandOrdered bool         `json:"hand_ordered"`
	Engine      string       `json:"engine,omitempty"`
	Error       string       `json:"error,omitempty"`
	Order       []string     `json:"order"`
	Regions     Page[region] `json:"regions"`
}

func (p pageRegions) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Page %d of issue %s\n\n- Version: %d (pass as page_version to edit)\n- Size: %.0f × %.0f pt\n- Read by: %s\n- Reading order: %s\n",
		p.Page, p.IssueID, p.Version, p.Width, p.Height, orNone(p.Engine), orderWord(p.HandOrdered))
	if p.Error != "" {
		fmt.Fprintf(&b, "- Error: %s\n", p.Error)
	}
	b.WriteString("\n## Regions (in reading order)\n")
	for _, r := range p.Regions.Items {
		fmt.Fprintf(&b, "- **%s** (%s) at [%.0f, %.0f, %.0f, %.0f]", r.Kind, r.ID, at(r.BBox, 0), at(r.BBox, 1), at(r.BBox, 2), at(r.BBox, 3))
		if r.ArticleID != "" {
			fmt.Fprintf(&b, ", article %s", r.ArticleID)
		}
		if r.Text != "" {
			fmt.Fprintf(&b, ": %s", oneLine(r.Text, 160))
		}
		if r.Description != "" {
			fmt.Fprintf(&b, " — description: %s", oneLine(r.Description, 160))
		}
		b.WriteString("\n")
	}
	b.WriteString(more(p.Regions.Total, p.Regions.Count, p.Regions.Offset, p.Regions.NextOffset))
	return b.String()
}

func getPageRegions(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_get_page_regions", title: "Get a page's regions",
		doc: doc{
			purpose: "Get one page's regions (id, kind, box [x, y, w, h] in points from the top-left, text, description, article) in reading order, with the page version.",
			notDo:   "return the page image, or change anything.",
			returns: "the page (issue_id, page, version, width, height, hand_ordered, order) and a page of its regions (total, count, offset, items, has_more, next_offset).",
			use:     "before editing, splitting, merging, retyping or ordering regions: it gives the ids and the page_version to send.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in pageRegionsIn) (any, error) {
		var p page
		if err := d.api.get(ctx, pagePath(in.IssueID, in.Page), nil, &p); err != nil {
			return nil, err
		}
		return pageRegions{IssueID: p.IssueID, Page: p.Number, Version: p.Version, Width: p.Width, Height: p.Height,
			HandOrdered: p.HandOrdered, Engine: p.Engine, Error: p.Error, Order: p.Order,
			Regions: paginate(inReadingOrder(p), in.Paging)}, nil
	})
}

// inReadingOrder lists a page's regions in its reading order, then any the
// order leaves out.
func inReadingOrder(p page) []region {
	out := make([]region, 0, len(p.Regions))
	seen := map[string]bool{}
	for _, id := range p.Order {
		if i := slices.IndexFunc(p.Regions, func(r region) bool { return r.ID == id }); i >= 0 && !seen[id] {
			out = append(out, p.Regions[i])
			seen[id] = true
		}
	}
	for _, r := range p.Regions {
		if !seen[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// --- lectern_edit_region

type editRegionIn struct {
	editIn
	Text        *string   `json:"text,omitempty" jsonschema:"the corrected text (text regions)"`
	Kind        string    `json:"kind,omitempty" jsonschema:"the region's new kind"`
	BBox        []float64 `json:"bbox,omitempty" jsonschema:"new box [x, y, w, h] in points from the page's top-left (move or resize)"`
	Description *string   `json:"description,omitempty" jsonschema:"a picture's description, one or two sentences; empty clears it"`
	Reread      bool      `json:"reread,omitempty" jsonschema:"read the text again from the corrected box (text regions); nothing readable keeps the old text"`
	Format
}

func (in editRegionIn) check() error {
	if in.Text == nil && in.Kind == "" && in.BBox == nil && in.Description == nil && !in.Reread {
		return fmt.Errorf("%w: give at least one of text, kind, bbox, description or reread", ErrInvalid)
	}
	return nil
}

type regionEdited struct {
	Region region `json:"region"`
	outcome
}

func (r regionEdited) Markdown() string {
	return fmt.Sprintf("Region %s is now a %s region: %s\n\n%s", r.Region.ID, r.Region.Kind, orNone(oneLine(r.Region.Text, 300)), r.outcome.markdown())
}

func editRegion(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_edit_region", title: "Edit a region",
		doc: doc{
			purpose: "Edit one region of a page: correct its text, change its kind, move or resize its box (optionally reading the text again), or set a picture's description.",
			notDo:   "split, merge or delete regions, or change several regions at once (use lectern_split_region, lectern_merge_regions, lectern_delete_region, lectern_retype_regions).",
			returns: "the region as saved, the issue revision and an undo token.",
			use:     "to fix one region after reading it with lectern_get_page_regions.",
			errors:  magazineErrors,
		},
		hints: hints{destructive: true, idempotent: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "text", length(0, 100000))
		set(s, "kind", oneOf(regionKinds()...))
		set(s, "bbox", items(4, 4, atLeast(0)))
		set(s, "description", length(0, 2000))
	}, func(ctx context.Context, c *call, in editRegionIn) (any, error) {
		body := map[string]any{}
		if in.Text != nil {
			body["text"] = *in.Text
		}
		if in.Kind != "" {
			body["kind"] = in.Kind
		}
		if in.BBox != nil {
			body["bbox"] = in.BBox
		}
		if in.Description != nil {
			body["description"] = *in.Description
		}
		if in.Reread {
			body["reread"] = true
		}
		var out regionEdited
		err := d.api.do(ctx, request{method: http.MethodPatch, path: regionPath(in.editIn), body: body, ifMatch: in.PageVersion}, &out)
		if err != nil {
			return nil, err
		}
		c.info(ctx, "region edited", "issue", in.IssueID, "page", in.Page, "region", in.RegionID)
		return out, nil
	})
}

// --- lectern_delete_region

type regionEditIn struct {
	editIn
	Format
}

type changed struct {
	What string `json:"changed"`
	outcome
}

func (c changed) Markdown() string { return c.What + "\n\n" + c.outcome.markdown() }

func deleteRegion(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_delete_region", title: "Delete a region",
		doc: doc{
			purpose: "Delete one region from a page, and its membership in every article.",
			notDo:   "delete pages, articles or issues; it cannot be repeated (a second delete answers not found).",
			returns: "the issue revision and an undo token that restores the region (lectern_undo_change).",
			use:     "to drop noise, duplicates or furniture a reader should not hear. To hide a region from reading but keep it, retype it instead.",
			errors:  magazineErrors,
		},
		hints: hints{destructive: true},
	}, d.log, nil, func(ctx context.Context, c *call, in regionEditIn) (any, error) {
		var out outcome
		if err := d.api.do(ctx, request{method: http.MethodDelete, path: regionPath(in.editIn), ifMatch: in.PageVersion}, &out); err != nil {
			return nil, err
		}
		c.info(ctx, "region deleted", "issue", in.IssueID, "page", in.Page, "region", in.RegionID)
		return changed{fmt.Sprintf("Deleted region %s from page %d.", in.RegionID, in.Page), out}, nil
	})
}

// --- lectern_split_region

type splitRegionIn struct {
	editIn
	SplitAt int `json:"split_at" jsonschema:"the character offset in the region's text where the second region starts (the cursor)"`
	Format
}

type regionsChanged struct {
	Regions []region `json:"regions"`
	Removed string   `json:"removed,omitempty"`
	outcome
}

func (r regionsChanged) Markdown() string {
	var b strings.Builder
	if r.Removed != "" {
		fmt.Fprintf(&b, "Region %s was merged in and removed.\n", r.Removed)
	}
	for _, g := range r.Regions {
		fmt.Fprintf(&b, "- **%s** (%s): %s\n", g.Kind, g.ID, oneLine(g.Text, 200))
	}
	return b.String() + "\n" + r.outcome.markdown()
}

func splitRegion(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_split_region", title: "Split a region",
		doc: doc{
			purpose: "Split a text region in two at a character offset; article membership follows both halves.",
			notDo:   "split pictures, or split at more than one place per call.",
			returns: "the two regions, the issue revision and an undo token.",
			use:     "when one box holds two paragraphs, or a headline run into its text.",
			errors:  magazineErrors + " An offset at either end of the text is refused.",
		},
		hints: hints{destructive: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "split_at", between(1, 100000))
	}, func(ctx context.Context, c *call, in splitRegionIn) (any, error) {
		var out regionsChanged
		err := d.api.do(ctx, request{method: http.MethodPost, path: regionPath(in.editIn) + "/split", body: map[string]int{"offset": in.SplitAt}, ifMatch: in.PageVersion}, &out)
		if err != nil {
			return nil, err
		}
		c.info(ctx, "region split", "issue", in.IssueID, "page", in.Page, "region", in.RegionID)
		return out, nil
	})
}

// --- lectern_merge_regions

func mergeRegions(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_merge_regions", title: "Merge a region with the next",
		doc: doc{
			purpose: "Merge the region read next (in the page's reading order) into this one: its text is appended and its box joined.",
			notDo:   "merge regions that are not next to each other in reading order, or across pages.",
			returns: "the merged region, the id of the region removed, the issue revision and an undo token.",
			use:     "when a paragraph was cut into two boxes. Fix the reading order first if the wrong region comes next.",
			errors:  magazineErrors + " The last region in reading order has nothing to merge.",
		},
		hints: hints{destructive: true},
	}, d.log, nil, func(ctx context.Context, c *call, in regionEditIn) (any, error) {
		var out struct {
			Region  region `json:"region"`
			Removed string `json:"removed"`
			outcome
		}
		err := d.api.do(ctx, request{method: http.MethodPost, path: regionPath(in.editIn) + "/merge-next", ifMatch: in.PageVersion}, &out)
		if err != nil {
			return nil, err
		}
		c.info(ctx, "regions merged", "issue", in.IssueID, "page", in.Page, "region", in.RegionID, "removed", out.Removed)
		return regionsChanged{Regions: []region{out.Region}, Removed: out.Removed, outcome: out.outcome}, nil
	})
}

// --- lectern_retype_regions

type retypeIn struct {
	pageIn
	RegionIDs   []string `json:"region_ids" jsonschema:"the regions to retype"`
	Kind        string   `json:"kind" jsonschema:"the kind they all get (noise, furniture, ad and duplicate are not read aloud)"`
	PageVersion int64    `json:"page_version,omitempty" jsonschema:"the page version lectern_get_page_regions showed; when given, the change fails with 409 if the page changed since"`
	Format
}

func retypeRegions(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_retype_regions", title: "Retype regions",
		doc: doc{
			purpose: "Give one or more regions of a page a new kind (headline, paragraph, caption, noise, …) under one undo token.",
			notDo:   "change text or boxes (use lectern_edit_region).",
			returns: "the issue revision and an undo token.",
			use:     "to mark headlines, captions or furniture that ingest classified wrongly.",
			errors:  magazineErrors,
		},
		hints: hints{destructive: true, idempotent: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "region_ids", items(1, 1000, pattern(regionIDPattern)))
		set(s, "kind", oneOf(regionKinds()...))
	}, func(ctx context.Context, c *call, in retypeIn) (any, error) {
		var out outcome
		err := d.api.do(ctx, request{method: http.MethodPost, path: pagePath(in.IssueID, in.Page) + "/regions/bulk",
			body: map[string]any{"action": "set-kind", "ids": in.RegionIDs, "kind": in.Kind}, ifMatch: in.PageVersion}, &out)
		if err != nil {
			return nil, err
		}
		c.info(ctx, "regions retyped", "issue", in.IssueID, "page", in.Page, "count", len(in.RegionIDs), "kind", in.Kind)
		return changed{fmt.Sprintf("%d regions on page %d are now %s.", len(in.RegionIDs), in.Page, in.Kind), out}, nil
	})
}

// --- lectern_undo_change

type undoIn struct {
	issueIn
	UndoToken string `json:"undo_token" jsonschema:"the undo token the last change answered"`
	Format
}

func undoChange(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_undo_change", title: "Undo the last change",
		doc: doc{
			purpose: "Undo the issue's last change with the undo token it answered (one level).",
			notDo:   "undo older changes, or a change made after the token's (anything else changed since answers 409).",
			returns: "the issue revision after the undo.",
			use:     "right after a change that was wrong.",
			errors:  "409 when the issue changed since the token's change, or the token was used.",
		},
		hints: hints{destructive: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "undo_token", length(1, 512))
	}, func(ctx context.Context, c *call, in undoIn) (any, error) {
		var out outcome
		if err := d.api.do(ctx, request{method: http.MethodPost, path: issuePath(in.IssueID) + "/undo", body: map[string]string{"token": in.UndoToken}}, &out); err != nil {
			return nil, err
		}
		c.info(ctx, "change undone", "issue", in.IssueID)
		return changed{"The last change was undone.", out}, nil
	})
}

// --- lectern_set_reading_order

type orderIn struct {
	pageIn
	RegionIDs   []string `json:"region_ids" jsonschema:"the page's region ids in the order they are read; regions left out are not read"`
	PageVersion int64    `json:"page_version,omitempty" jsonschema:"the page version lectern_get_page_regions showed; when given, the change fails with 409 if the page changed since"`
	Format
}

func setReadingOrder(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_set_reading_order", title: "Set a page's reading order",
		doc: doc{
			purpose: "Set a page's reading order by hand; the page is then hand-ordered and automatic reordering leaves it alone.",
			notDo:   "move regions between pages or change their text.",
			returns: "the page's new order, the issue revision and an undo token.",
			use:     "when columns or sidebars are read in the wrong order.",
			errors:  magazineErrors + " An id not on the page is refused.",
		},
		hints: hints{destructive: true, idempotent: true},
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "region_ids", items(1, 5000, pattern(regionIDPattern)))
	}, func(ctx context.Context, c *call, in orderIn) (any, error) {
		var out struct {
			Page page `json:"page"`
			outcome
		}
		err := d.api.do(ctx, request{method: http.MethodPut, path: pagePath(in.IssueID, in.Page) + "/order",
			body: map[string]any{"ids": in.RegionIDs}, ifMatch: in.PageVersion}, &out)
		if err != nil {
			return nil, err
		}
		c.info(ctx, "reading order set", "issue", in.IssueID, "page", in.Page)
		return changed{fmt.Sprintf("Page %d is read in this order: %s.", in.Page, strings.Join(out.Page.Order, ", ")), out.outcome}, nil
	})
}

// --- lectern_list_articles

type listArticlesIn struct {
	issueIn
	Paging
	Format
}

type articleList struct{ Page[article] }

func (l articleList) Markdown() string {
	var b strings.Builder
	b.WriteString("# Articles\n\n")
	if l.Total == 0 {
		b.WriteString("The issue has no articles yet.\n")
	}
	for _, a := range l.Items {
		state := "not approved"
		switch {
		case a.Proposed:
			state = "proposed (not yet accepted; it can be listened to)"
		case a.Approved:
			state = "approved"
		case a.ChangedSinceApproval:
			state = "changed since approval"
		}
		fmt.Fprintf(&b, "- **%s** (%s): %d regions, %d pictures, %s\n", orNone(a.Title), a.ID, len(a.Regions), len(a.Images), state)
	}
	b.WriteString(more(l.Total, l.Count, l.Offset, l.NextOffset))
	return b.String()
}

func listArticles(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_list_articles", title: "List an issue's articles",
		doc: doc{
			purpose: "List an issue's articles with their regions, pictures and approval.",
			notDo:   "return article text (use lectern_get_article_text).",
			returns: "a page of articles (id, title, author, regions and images as {page, region}, approved, changed_since_approval, proposed).",
			use:     "to find an article's id before reading, approving or describing it.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in listArticlesIn) (any, error) {
		arts, err := articles(ctx, d.api, in.IssueID)
		if err != nil {
			return nil, err
		}
		return articleList{paginate(arts, in.Paging)}, nil
	})
}

func articles(ctx context.Context, api *Client, issueID string) ([]article, error) {
	var out struct {
		Articles []article `json:"articles"`
	}
	if err := api.get(ctx, issuePath(issueID)+"/articles", nil, &out); err != nil {
		return nil, err
	}
	return out.Articles, nil
}

// --- lectern_get_article_text

type articleTextIn struct {
	issueIn
	ArticleID    string `json:"article_id" jsonschema:"the article id, as lectern_list_articles shows it"`
	Descriptions bool   `json:"descriptions,omitempty" jsonschema:"true: each picture's description is read where the picture occurs; false (default): pictures are left out"`
	Format
}

type articleText struct {
	IssueID   string `json:"issue_id"`
	ArticleID string `json:"article_id"`
	Text      string `json:"text"`
}

func (a articleText) Markdown() string { return a.Text }

func fetchArticleText(ctx context.Context, api *Client, issueID, articleID string, descriptions bool) (articleText, error) {
	q := url.Values{}
	if descriptions {
		q.Set("descriptions", "1")
	}
	var out struct {
		Text string `json:"text"`
	}
	if err := api.get(ctx, issuePath(issueID)+"/articles/"+seg(articleID)+"/text", q, &out); err != nil {
		return articleText{}, err
	}
	return articleText{IssueID: issueID, ArticleID: articleID, Text: out.Text}, nil
}

func getArticleText(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_get_article_text", title: "Get an article's text",
		doc: doc{
			purpose: "Get an article's text in reading order, as it is read aloud; optionally with each picture's description where the picture occurs.",
			notDo:   "approve the article or change its text.",
			returns: "the text (markdown: the text itself; json: issue_id, article_id, text).",
			use:     "to read or check an article before approving it.",
		},
		hints: hints{readOnly: true, idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in articleTextIn) (any, error) {
		return fetchArticleText(ctx, d.api, in.IssueID, in.ArticleID, in.Descriptions)
	})
}

// --- lectern_approve_article

type approveIn struct {
	issueIn
	ArticleID string `json:"article_id" jsonschema:"the article id, as lectern_list_articles shows it"`
	Format
}

type approved struct {
	Article article `json:"article"`
	outcome
}

func (a approved) Markdown() string {
	return fmt.Sprintf("Approved **%s** (%s): %d regions, %d pictures.\n\n%s", orNone(a.Article.Title), a.Article.ID, len(a.Article.Regions), len(a.Article.Images), a.outcome.markdown())
}

func approveArticle(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_approve_article", title: "Approve an article",
		doc: doc{
			purpose: "Approve an article as it is now (its current regions and pictures), so it can be listened to and narrated.",
			notDo:   "edit the article; any later change withdraws the approval.",
			returns: "the approved article, the issue revision.",
			use:     "after reading the article with lectern_get_article_text and finding it right.",
			errors:  "409 when the article changed between reading it and approving it (read it again).",
		},
		hints: hints{idempotent: true},
	}, d.log, nil, func(ctx context.Context, c *call, in approveIn) (any, error) {
		arts, err := articles(ctx, d.api, in.IssueID)
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(arts, func(a article) bool { return a.ID == in.ArticleID })
		if i < 0 {
			return nil, &StatusError{Method: http.MethodGet, Path: issuePath(in.IssueID) + "/articles", Status: http.StatusNotFound,
				Detail: fmt.Sprintf("issue %s has no article %s", in.IssueID, in.ArticleID)}
		}
		a := arts[i]
		body := map[string]any{"regions": nonNil(a.Regions), "images": nonNil(a.Images)}
		var out approved
		if err := d.api.do(ctx, request{method: http.MethodPost, path: issuePath(in.IssueID) + "/articles/" + seg(in.ArticleID) + "/approve", body: body}, &out); err != nil {
			return nil, err
		}
		c.info(ctx, "article approved", "issue", in.IssueID, "article", in.ArticleID)
		return out, nil
	})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// --- lectern_review_proposal

type reviewProposalIn struct {
	issueIn
	ArticleID string `json:"article_id" jsonschema:"the proposed article's id, as lectern_list_articles shows it"`
	Action    string `json:"action" jsonschema:"accept, split, merge or dissolve"`
	Page      int    `json:"page,omitempty" jsonschema:"split: the page of the region the second part starts with"`
	RegionID  string `json:"region_id,omitempty" jsonschema:"split: the region the second part starts with, as lectern_list_articles shows it"`
	With      string `json:"with,omitempty" jsonschema:"merge: the id of the proposal right after this one in the issue"`
	Format
}

type proposalReviewed struct {
	Action   string    `json:"action"`
	Articles []article `json:"articles"`
	outcome
}

func (p proposalReviewed) Markdown() string {
	var b strings.Builder
	if len(p.Articles) == 0 {
		fmt.Fprintf(&b, "Proposal dissolved: its regions are in no article now.\n\n")
	}
	for _, a := range p.Articles {
		state := "proposed"
		if a.Approved {
			state = "approved"
		}
		fmt.Fprintf(&b, "- **%s** (%s): %d regions, %d pictures, %s\n", orNone(a.Title), a.ID, len(a.Regions), len(a.Images), state)
	}
	b.WriteString("\n" + p.outcome.markdown())
	return b.String()
}

func reviewProposal(d deps) Tool {
	return newTool(ToolsetMagazine, spec{
		name: "lectern_review_proposal", title: "Accept, split, merge or dissolve a proposed article",
		doc: doc{
			purpose: "Decide on an article Lectern proposed from the issue's headlines: accept approves it as it stands; split cuts it in two before a region; merge joins it with the proposal right after it; dissolve removes it (its regions stay in no article).",
			notDo:   "edit hand-made or accepted articles (409), or propose the articles again.",
			returns: "the articles the action left (none after dissolve), the issue revision.",
			use:     "after reading a proposal with lectern_get_article_text.",
			errors:  "400 for a split at the proposal's first region or a region outside it, or a merge with a proposal that does not follow it; 409 when the article is not a proposal.",
		},
		hints: hints{destructive: true}, // dissolve removes the proposal
	}, d.log, func(s *jsonschema.Schema) {
		set(s, "action", oneOf("accept", "split", "merge", "dissolve"))
		set(s, "with", pattern(articleIDPattern))
	}, func(ctx context.Context, c *call, in reviewProposalIn) (any, error) {
		body := map[string]any{"action": in.Action}
		if in.RegionID != "" {
			body["at"] = regionRef{Page: in.Page, Region: in.RegionID}
		}
		if in.With != "" {
			body["with"] = in.With
		}
		var out proposalReviewed
		if err := d.api.do(ctx, request{method: http.MethodPost, path: issuePath(in.IssueID) + "/articles/" + seg(in.ArticleID) + "/proposal", body: body}, &out); err != nil {
			return nil, err
		}
		out.Action = in.Action
		c.info(ctx, "proposal reviewed", "issue", in.IssueID, "article", in.ArticleID, "action", in.Action)
		return out, nil
	})
}

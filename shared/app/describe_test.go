package app

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/httpapi/jobsapi"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/review"
)

// describeStandIn is an OpenAI-compatible vision engine on 127.0.0.1 for
// figure descriptions: it records the prompt and image of every chat
// completion and answers with what answer says for that prompt (a status
// other than 200 is an engine failure). While hold is set, each call waits
// for it to close.
type describeStandIn struct {
	url     string
	mu      sync.Mutex
	prompts []string
	images  [][]byte
	answer  func(prompt string) (int, string)
	hold    chan struct{}
}

func newDescribeStandIn(t *testing.T) *describeStandIn {
	t.Helper()
	e := &describeStandIn{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Messages []struct {
				Content []struct {
					Type     string `json:"type"`
					Text     string `json:"text"`
					ImageURL struct {
						URL string `json:"url"`
					} `json:"image_url"`
				} `json:"content"`
			} `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) != 1 {
			http.Error(w, "not a chat completion with image input", http.StatusBadRequest)
			return
		}
		var prompt string
		var img []byte
		for _, part := range req.Messages[0].Content {
			switch part.Type {
			case "text":
				prompt = part.Text
			case "image_url":
				img, _ = base64.StdEncoding.DecodeString(strings.TrimPrefix(part.ImageURL.URL, "data:image/png;base64,"))
			}
		}
		e.mu.Lock()
		e.prompts, e.images = append(e.prompts, prompt), append(e.images, img)
		answer, hold := e.answer, e.hold
		e.mu.Unlock()
		if hold != nil {
			<-hold
		}
		if status, content := answer(prompt); status != http.StatusOK {
			writeChatFailure(w, status, "model crashed")
		} else {
			writeChatAnswer(w, content)
		}
	}))
	t.Cleanup(srv.Close)
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the stand-in engine listens on %s, not on 127.0.0.1", srv.URL)
	}
	e.url = srv.URL + "/v1"
	e.answers(http.StatusOK, "")
	return e
}

// answers makes every call answer the same.
func (e *describeStandIn) answers(status int, content string) {
	e.answerWith(func(string) (int, string) { return status, content })
}

func (e *describeStandIn) answerWith(f func(prompt string) (int, string)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.answer = f
}

// holdCalls makes calls wait until the returned func is called.
func (e *describeStandIn) holdCalls() (release func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.hold = make(chan struct{})
	ch := e.hold
	return func() {
		e.mu.Lock()
		e.hold = nil
		e.mu.Unlock()
		close(ch)
	}
}

// last is the prompt and image of the latest call; calls counts them.
func (e *describeStandIn) last() (string, []byte) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.prompts) == 0 {
		return "", nil
	}
	return e.prompts[len(e.prompts)-1], e.images[len(e.images)-1]
}

func (e *describeStandIn) calls() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.prompts)
}

// startJob posts to a describe operation and answers the job id, failing
// unless it answered 202 with the job's status URL.
func (c *apiClient) startJob(path, body string) string {
	c.t.Helper()
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	status, h, resp := c.do(http.MethodPost, path, b)
	started := decode[struct {
		JobID     string `json:"job_id"`
		StatusURL string `json:"status_url"`
	}](c.t, resp)
	if status != http.StatusAccepted || started.JobID == "" || started.StatusURL != "/api/jobs/"+started.JobID || h.Get("Location") != started.StatusURL {
		c.t.Fatalf("POST %s = %d %s (Location %q), want 202 with a job and its status URL", path, status, resp, h.Get("Location"))
	}
	return started.JobID
}

// waitJob polls a job's status URL until the job is final.
func (c *apiClient) waitJob(id string) jobsapi.View {
	c.t.Helper()
	var v jobsapi.View
	for deadline := time.Now().Add(slowBound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		v = decode[jobsapi.View](c.t, c.get("/api/jobs/"+id))
		if v.Status.Final() {
			return v
		}
	}
	c.t.Fatalf("job %s not finished: %+v", id, v)
	return v
}

func describeResult(t *testing.T, v jobsapi.View) review.DescribeResult {
	t.Helper()
	if v.Status != jobs.StatusSucceeded {
		t.Fatalf("job %s: %s (%s), want succeeded", v.ID, v.Status, v.Error)
	}
	return decode[review.DescribeResult](t, v.Result)
}

func imageID(page int, r magazine.Region) string {
	return magazine.ImageID(magazine.RegionRef{Page: page, Region: r.ID})
}

// TestFigureDescriptionsOverHTTP: describe jobs against stand-in vision
// engines (the prompt by visual kind, the exact crop, cutting, the
// repetition-loop and empty-answer rules, engine failure), descriptions by
// hand with every refusal, the article text with and without them, and
// describe-all with its progress.
func TestFigureDescriptionsOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	id := ingestSample(t, c)
	primary, fallback := newDescribeStandIn(t), newDescribeStandIn(t)
	status, _, b := c.do(http.MethodPut, "/api/settings", []byte(`{"vision_ocr_url":"`+primary.url+`","vision_ocr_fallback_url":"`+fallback.url+`"}`))
	if status != http.StatusOK {
		t.Fatalf("settings: %d %s", status, b)
	}
	doc := "/api/magazine/" + id
	pics := map[int]magazine.Region{}
	for n := 1; n <= 3; n++ {
		pics[n] = picture(t, c.page(id, n))
	}
	setKind := func(n int, kind magazine.Kind) {
		t.Helper()
		status, _, b := c.do(http.MethodPatch, fmt.Sprintf("%s/pages/%d/regions/%s", doc, n, pics[n].ID), []byte(`{"kind":"`+string(kind)+`"}`))
		if status != http.StatusOK {
			t.Fatalf("make page %d's picture a %s: %d %s", n, kind, status, b)
		}
	}
	description := func(n int) string {
		t.Helper()
		for _, r := range c.page(id, n).Regions {
			if r.ID == pics[n].ID {
				return r.Description
			}
		}
		t.Fatalf("page %d lost its picture", n)
		return ""
	}
	setKind(1, magazine.KindChart)
	setKind(2, magazine.KindTable)

	t.Run("a chart is described from its exact crop with the chart prompt, cut to two sentences", func(t *testing.T) {
		primary.answers(http.StatusOK, "Description: \"The chart measures rainfall in millimetres from 2010 to 2020. It rises every year. It peaks in 2019. Sources vary.\"")
		beforeRev, beforePage := c.revision(id), c.page(id, 1).Version
		v := c.waitJob(c.startJob(doc+"/images/"+imageID(1, pics[1])+"/describe", ""))
		res := describeResult(t, v)
		const want = "The chart measures rainfall in millimetres from 2010 to 2020. It rises every year."
		if got := description(1); got != want {
			t.Fatalf("description %q, want %q (job %+v)", got, want, v)
		}
		if len(res.Images) != 1 || res.Images[0].Outcome != review.Described || res.Images[0].Engine != "vision-primary" || res.Images[0].Description != want {
			t.Fatalf("result %+v", res)
		}
		prompt, img := primary.last()
		for _, w := range []string{"chart", "measures", "trend", "one or two short sentences"} {
			if !strings.Contains(prompt, w) {
				t.Errorf("chart prompt %q lacks %q", prompt, w)
			}
		}
		_, _, crop := c.do(http.MethodGet, fmt.Sprintf("%s/pages/1/crops/%s", doc, pics[1].ID), nil)
		if len(crop) < 100 || !bytes.Equal(img, crop) {
			t.Errorf("the engine got %d bytes, not the region's stored crop (%d bytes)", len(img), len(crop))
		}
		if c.revision(id) <= beforeRev || c.page(id, 1).Version <= beforePage {
			t.Errorf("storing the description did not bump the revision and page version")
		}
	})

	t.Run("a table gets the table prompt; a looping answer from the primary falls through to the fallback", func(t *testing.T) {
		primary.answers(http.StatusOK, "Month Month "+strings.Repeat("catch ", 40))
		fallback.answers(http.StatusOK, "A table of catches by month and harbour. March stands out with the largest catch.")
		res := describeResult(t, c.waitJob(c.startJob(doc+"/images/"+imageID(2, pics[2])+"/describe", "")))
		if got := description(2); got != "A table of catches by month and harbour. March stands out with the largest catch." {
			t.Fatalf("description %q", got)
		}
		if res.Images[0].Engine != "vision-fallback" {
			t.Errorf("stored answer came from %q, want the fallback", res.Images[0].Engine)
		}
		prompt, _ := primary.last()
		for _, w := range []string{"table", "headings", "stands out"} {
			if !strings.Contains(prompt, w) {
				t.Errorf("table prompt %q lacks %q", prompt, w)
			}
		}
	})

	t.Run("an empty answer stores nothing and the job says why", func(t *testing.T) {
		primary.answers(http.StatusOK, "")
		fallback.answers(http.StatusOK, "```\n```")
		before := c.issueState(id)
		v := c.waitJob(c.startJob(doc+"/images/"+imageID(3, pics[3])+"/describe", ""))
		res := describeResult(t, v)
		if res.Images[0].Outcome != review.NoContent || !strings.Contains(v.Message, "no description stored") || !strings.Contains(v.Message, "empty") {
			t.Fatalf("job %+v, result %+v", v, res)
		}
		if after := c.issueState(id); after != before {
			t.Errorf("an empty answer changed the issue:\nbefore %s\nafter  %s", before, after)
		}
		if prompt, _ := primary.last(); !strings.Contains(prompt, "figure") {
			t.Errorf("a plain image got prompt %q, want the figure prompt", prompt)
		}
	})

	t.Run("every engine failing fails the job with the reason and leaves the picture alone", func(t *testing.T) {
		primary.answers(http.StatusInternalServerError, "")
		fallback.answers(http.StatusServiceUnavailable, "")
		before := c.issueState(id)
		v := c.waitJob(c.startJob(doc+"/images/"+imageID(1, pics[1])+"/describe", ""))
		if v.Status != jobs.StatusFailed || !strings.Contains(v.Error, "vision-primary") || !strings.Contains(v.Error, "vision-fallback") || !strings.Contains(v.Error, "500") {
			t.Fatalf("job %+v, want failed naming both engines", v)
		}
		if after := c.issueState(id); after != before {
			t.Errorf("a failed describe changed the issue:\nbefore %s\nafter  %s", before, after)
		}
	})

	head := regionByText(t, c.page(id, 1), "Harbour Reborn")
	left := regionByText(t, c.page(id, 1), "Left column 1")

	t.Run("describe refuses a text region, an unknown image and a malformed id", func(t *testing.T) {
		before := c.issueState(id)
		calls := primary.calls()
		for _, tc := range []struct {
			name, image string
			want        int
			mention     string
		}{
			{"a text region", imageID(1, head), 422, head.ID},
			{"an unknown region", "1-nosuch", 404, "nosuch"},
			{"a page the issue lacks", "9-" + pics[1].ID, 404, "page 9"},
			{"an id without its page", pics[1].ID, 422, ""},
		} {
			status, _, b := c.do(http.MethodPost, doc+"/images/"+tc.image+"/describe", nil)
			c.refused(id, before, status, tc.want, b, tc.name)
			if !strings.Contains(string(b), tc.mention) {
				t.Errorf("%s: %s does not name %q", tc.name, b, tc.mention)
			}
		}
		status, _, b := c.do(http.MethodPost, "/api/magazine/nosuchissue1/describe", nil)
		c.refused(id, before, status, 404, b, "describe-all of an unknown issue")
		status, _, b = c.do(http.MethodPost, doc+"/articles/nosuch/describe", nil)
		c.refused(id, before, status, 404, b, "describe-all of an unknown article")
		if primary.calls() != calls {
			t.Errorf("a refused describe called the engine")
		}
	})

	t.Run("a description set by hand: one or two sentences on a picture, If-Match, empty clears", func(t *testing.T) {
		path := doc + "/images/" + imageID(3, pics[3])
		p3 := c.page(id, 3)
		status, _, b := c.do(http.MethodPatch, path, []byte(`{"description":"  The lamp room at night. Its lens glows.  "}`), "If-Match", fmt.Sprint(p3.Version))
		out := decode[struct {
			Image  string          `json:"image"`
			Region magazine.Region `json:"region"`
		}](t, b)
		if status != http.StatusOK || out.Region.Description != "The lamp room at night. Its lens glows." || out.Image != imageID(3, pics[3]) {
			t.Fatalf("patch: %d %s", status, b)
		}
		if description(3) != "The lamp room at night. Its lens glows." || c.page(id, 3).Version <= p3.Version {
			t.Fatalf("the description was not stored with a new page version")
		}
		before := c.issueState(id)
		for _, tc := range []struct {
			name, path, body string
			header           []string
			want             int
			mention          string
		}{
			{"three sentences", path, `{"description":"A lamp. A lens. A keeper."}`, nil, 422, "two sentences"},
			{"a text region", doc + "/images/" + imageID(1, left), `{"description":"A pier."}`, nil, 422, left.ID},
			{"clearing a text region's", doc + "/images/" + imageID(1, left), `{"description":""}`, nil, 422, "picture"},
			{"an unknown image", doc + "/images/3-nosuch", `{"description":"A pier."}`, nil, 404, "nosuch"},
			{"a stale page version", path, `{"description":"A lamp."}`, []string{"If-Match", fmt.Sprint(p3.Version)}, 409, "changed"},
			{"an unknown field", path, `{"description":"A lamp.","text":"x"}`, nil, 422, "text"},
			{"no description", path, `{}`, nil, 422, "description"},
		} {
			status, _, b := c.do(http.MethodPatch, tc.path, []byte(tc.body), tc.header...)
			c.refused(id, before, status, tc.want, b, tc.name)
			if !strings.Contains(string(b), tc.mention) {
				t.Errorf("%s: %s does not mention %q", tc.name, b, tc.mention)
			}
		}
		status, _, b = c.do(http.MethodPatch, path, []byte(`{"description":""}`))
		if status != http.StatusOK || description(3) != "" {
			t.Fatalf("clear: %d %s", status, b)
		}
	})

	art := c.createArticle(id, head.ID, pics[1].ID, left.ID)

	t.Run("the article text reads each description where its figure occurs only with descriptions=1", func(t *testing.T) {
		text := func(q string) string {
			return decode[struct{ Text string }](t, c.get(doc+"/articles/"+art+"/text"+q)).Text
		}
		chart := description(1)
		plain, spoken := text(""), text("?descriptions=1")
		if text("?descriptions=0") != plain || strings.Contains(plain, chart) || !strings.Contains(plain, "Harbour Reborn") {
			t.Fatalf("without descriptions: %q", plain)
		}
		h, d, l := strings.Index(spoken, "Harbour Reborn"), strings.Index(spoken, chart), strings.Index(spoken, "Left column 1")
		if h < 0 || d < 0 || l < 0 || !(h < d && d < l) {
			t.Fatalf("with descriptions the chart's description is not between the headline and the column:\n%s", spoken)
		}
		if spoken != strings.Replace(plain, "Harbour Reborn\n\n", "Harbour Reborn\n\n"+chart+"\n\n", 1) {
			t.Errorf("descriptions=1 changed more than the figure's place:\n%q\n%q", plain, spoken)
		}
		status, _, b := c.do(http.MethodGet, doc+"/articles/"+art+"/text?descriptions=2", nil)
		if status != http.StatusUnprocessableEntity {
			t.Errorf("descriptions=2: %d %s", status, b)
		}

		// A picture in the image list only is read where the page reads it:
		// below the columns, so after the left column.
		patch := func(regions, images []magazine.Region) {
			t.Helper()
			refs := func(rs []magazine.Region) []magazine.RegionRef {
				out := []magazine.RegionRef{}
				for _, r := range rs {
					out = append(out, magazine.RegionRef{Page: 1, Region: r.ID})
				}
				return out
			}
			body, _ := json.Marshal(map[string]any{"regions": refs(regions), "images": refs(images)})
			if status, _, b := c.do(http.MethodPatch, doc+"/articles/"+art, body); status != http.StatusOK {
				t.Fatalf("update article: %d %s", status, b)
			}
		}
		patch([]magazine.Region{head, left}, []magazine.Region{pics[1]})
		if got, want := text("?descriptions=1"), plain+"\n\n"+chart; got != want {
			t.Errorf("a listed picture is not read where it occurs:\n%q\nwant\n%q", got, want)
		}
		patch([]magazine.Region{head, pics[1], left}, nil)
	})

	t.Run("describe-all reports n of m and records a failing figure without stopping the others", func(t *testing.T) {
		fallback.answers(http.StatusInternalServerError, "")
		primary.answerWith(func(prompt string) (int, string) {
			if strings.Contains(prompt, "is a table") {
				return http.StatusInternalServerError, ""
			}
			return http.StatusOK, "A picture of the harbour. Boats are moored."
		})
		release := primary.holdCalls()
		job := c.startJob(doc+"/describe", `{"redo":true}`)
		var seen jobsapi.View
		waitUntil(t, "the describe-all job reports its progress", func() bool {
			seen = decode[jobsapi.View](t, c.get("/api/jobs/"+job))
			return seen.Message != ""
		})
		release()
		if seen.Status != jobs.StatusRunning || !strings.Contains(seen.Message, "1 of 3") || seen.Progress != 0 {
			t.Errorf("while the first picture is described the job shows %+v, want running, 1 of 3", seen)
		}
		v := c.waitJob(job)
		res := describeResult(t, v)
		if res.Total != 3 || res.Described != 2 || len(res.Images) != 3 || v.Message != "described 2 of 3" || v.Progress != 1 {
			t.Fatalf("job %+v, result %+v", v, res)
		}
		for i, n := range []int{1, 2, 3} {
			o := res.Images[i]
			wantOutcome := review.Described
			if n == 2 {
				wantOutcome = review.Failed
			}
			if o.Image != imageID(n, pics[n]) || o.Outcome != wantOutcome || (n == 2) != (o.Reason != "") {
				t.Errorf("picture %d: %+v, want %s", n, o, wantOutcome)
			}
		}
		if description(3) != "A picture of the harbour. Boats are moored." || description(2) != "A table of catches by month and harbour. March stands out with the largest catch." {
			t.Errorf("after describe-all: page 2 %q, page 3 %q", description(2), description(3))
		}
	})

	t.Run("an article's describe-all takes only its pictures without a description unless redo", func(t *testing.T) {
		primary.answers(http.StatusOK, "Rainfall by year. It rises.")
		res := describeResult(t, c.waitJob(c.startJob(doc+"/articles/"+art+"/describe", "")))
		if res.Total != 0 {
			t.Fatalf("an article whose picture has a description: %+v", res)
		}
		res = describeResult(t, c.waitJob(c.startJob(doc+"/articles/"+art+"/describe", `{"redo":true}`)))
		if res.Total != 1 || res.Described != 1 || res.Images[0].Image != imageID(1, pics[1]) || description(1) != "Rainfall by year. It rises." {
			t.Fatalf("redo: %+v, description %q", res, description(1))
		}
	})

	t.Run("edits made while a picture is described are kept", func(t *testing.T) {
		primary.answers(http.StatusOK, "A lighthouse lamp. It turns slowly.")
		release := primary.holdCalls()
		calls := primary.calls()
		job := c.startJob(doc+"/images/"+imageID(3, pics[3])+"/describe", "")
		// The edits are made while the engine describes the picture: once it has been asked.
		waitUntil(t, "the job asks the vision engine", func() bool { return primary.calls() > calls })
		// Another region of the page, and the picture's own description.
		status, _, b := c.do(http.MethodPatch, fmt.Sprintf("%s/pages/3/regions/%s", doc, regionByText(t, c.page(id, 3), "The Lighthouse").ID), []byte(`{"text":"The Lighthouse Keepers!"}`))
		if status != http.StatusOK {
			t.Fatalf("text edit: %d %s", status, b)
		}
		status, _, b = c.do(http.MethodPatch, doc+"/images/"+imageID(3, pics[3]), []byte(`{"description":"Typed by hand."}`))
		if status != http.StatusOK {
			t.Fatalf("hand description: %d %s", status, b)
		}
		release()
		res := describeResult(t, c.waitJob(job))
		if res.Images[0].Outcome != review.Kept || description(3) != "Typed by hand." {
			t.Fatalf("result %+v, description %q: the hand edit was not kept", res, description(3))
		}
		regionByText(t, c.page(id, 3), "The Lighthouse Keepers!")

		// A text edit elsewhere on the page does not stop the description.
		release = primary.holdCalls()
		calls = primary.calls()
		job = c.startJob(doc+"/images/"+imageID(3, pics[3])+"/describe", "")
		// The edits are made while the engine describes the picture: once it has been asked.
		waitUntil(t, "the job asks the vision engine", func() bool { return primary.calls() > calls })
		status, _, b = c.do(http.MethodPatch, fmt.Sprintf("%s/pages/3/regions/%s", doc, regionByText(t, c.page(id, 3), "The Lighthouse").ID), []byte(`{"text":"The Lighthouse Keepers"}`))
		if status != http.StatusOK {
			t.Fatalf("text edit: %d %s", status, b)
		}
		release()
		if res := describeResult(t, c.waitJob(job)); res.Images[0].Outcome != review.Described || description(3) != "A lighthouse lamp. It turns slowly." {
			t.Fatalf("result %+v, description %q", res, description(3))
		}
		if r := regionByText(t, c.page(id, 3), "The Lighthouse Keepers"); r.Text != "The Lighthouse Keepers" {
			t.Fatalf("the text edit made during the describe was lost: %q", r.Text)
		}
	})

	t.Run("a job's status answers 304 while unchanged and 404 when unknown", func(t *testing.T) {
		job := c.waitJob(c.startJob(doc+"/articles/"+art+"/describe", ""))
		status, h, b := c.do(http.MethodGet, "/api/jobs/"+job.ID, nil)
		if status != http.StatusOK || h.Get("ETag") == "" {
			t.Fatalf("GET job: %d ETag %q %s", status, h.Get("ETag"), b)
		}
		if status, _, b := c.do(http.MethodGet, "/api/jobs/"+job.ID, nil, "If-None-Match", h.Get("ETag")); status != http.StatusNotModified {
			t.Errorf("GET a finished job with its ETag: %d %s", status, b)
		}
		if status, _, b := c.do(http.MethodGet, "/api/jobs/nosuchjob", nil); status != http.StatusNotFound {
			t.Errorf("GET unknown job: %d %s", status, b)
		}
	})
}

package mcpserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lectern/lectern/shared/app"
	"github.com/lectern/lectern/shared/features"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/pdf/pdftest"
	"github.com/lectern/lectern/shared/platform"
)

const serveToken = "mcp-e2e-token-0123456789"

// lecternServe runs what `lectern serve` runs (every feature, the local
// platform in a temporary folder, the token check) on 127.0.0.1 and
// answers its base URL.
func lecternServe(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg := platform.Config{Mode: platform.ModeLocal, Instance: "default", DataDir: t.TempDir(), Workers: 2, Token: serveToken}
	local, err := app.OpenLocal(context.Background(), cfg, base, log, features.All()...)
	if err != nil {
		t.Fatal(err)
	}
	access := httpapi.Access{Bound: ln.Addr().String()}
	handler := app.LocalHandler("0.0.0-test", serveToken, log,
		app.SiteParts{Blobs: local.BlobHandler, Static: fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}, Access: access}, local.Operations()...)
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		local.Close()
	})
	return base
}

// harbourPDF is a three-page issue with a text layer, a picture per page
// and a caption under it.
func harbourPDF() []byte {
	d := &pdftest.Doc{}
	photo := image.NewRGBA(image.Rect(0, 0, 60, 40))
	for i := range photo.Pix {
		photo.Pix[i] = uint8(40 + i%90)
	}
	heads := []string{"", "Harbour Reborn", "Storm Season Ahead", "The Lighthouse Keepers"}
	for n := 1; n <= 3; n++ {
		p := d.AddPage(612, 792)
		num := string(rune('0' + n))
		p.Text(72, 30, 8, false, "THE HARBOUR GAZETTE")
		p.Text(72, 60, 26, true, heads[n])
		p.Text(72, 100, 10, false, "By Ada Lovelace")
		for i := range 8 {
			p.Text(72, 130+float64(i)*12, 10, false, "Left column "+num+" on the boats of the bay, line "+string(rune('a'+i)))
			p.Text(330, 130+float64(i)*12, 10, false, "Right column "+num+" on the nets at the quay, line "+string(rune('a'+i)))
		}
		p.Image(72, 300, 240, 160, photo)
		p.Text(72, 470, 8, false, "Figure "+num+" The rebuilt pier at dawn")
		p.Text(300, 760, 9, false, "Page "+num)
	}
	return d.Bytes()
}

// engineStandIn speaks the OpenAI-compatible parts Lectern calls (models,
// chat completions for picture descriptions) and the Docker Engine API's
// container inspect, and records every Authorization header it was sent.
type engineStandIn struct {
	key  string
	auth atomic.Value // last Authorization header
}

func (e *engineStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.URL.Path == "/_ping":
		w.Header().Set("Api-Version", "1.47")
		io.WriteString(w, "OK")
	case strings.HasSuffix(r.URL.Path, "/containers/llm-box/json"):
		json.NewEncoder(w).Encode(map[string]any{"Id": "4f1b", "Name": "/llm-box", "State": map[string]any{"Status": "running", "Running": true}})
	case r.URL.Path == "/v1/models":
		e.auth.Store(r.Header.Get("Authorization"))
		io.WriteString(w, `{"object":"list","data":[{"id":"harbour-chat"},{"id":"harbour-vision"}]}`)
	case r.URL.Path == "/v1/chat/completions":
		var req struct {
			Messages []struct {
				Content any `json:"content"`
			} `json:"messages"`
			ResponseFormat struct {
				JSONSchema struct {
					Name string `json:"name"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		content := "A wooden pier at dawn with boats moored alongside."
		if req.ResponseFormat.JSONSchema.Name == "speakers" && len(req.Messages) > 1 {
			// The cast's LLM pass: Bob speaks every line it is asked about.
			user, _ := req.Messages[len(req.Messages)-1].Content.(string)
			var items []string
			for _, m := range regexp.MustCompile(`\[\[(c\d+-s\d+)\]\]`).FindAllStringSubmatch(user, -1) {
				items = append(items, fmt.Sprintf(`{"span":%q,"speaker":"Bob"}`, m[1]))
			}
			content = `{"speakers":[` + strings.Join(items, ",") + `]}`
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "c1", "object": "chat.completion", "created": 1, "model": "harbour-chat",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}}})
	case r.URL.Path == "/v1/images/generations" || r.URL.Path == "/v1/images/edits":
		img := image.NewRGBA(image.Rect(0, 0, 64, 64))
		for i := range img.Pix {
			img.Pix[i] = uint8(i % 251)
		}
		var buf bytes.Buffer
		png.Encode(&buf, img)
		fmt.Fprintf(w, `{"created":1,"data":[{"b64_json":%q}]}`, base64.StdEncoding.EncodeToString(buf.Bytes()))
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"message":"no such path"}}`)
	}
}

// apiPut is a plain API call, as the web app makes it (the user's side).
func apiPut(t *testing.T, base, path, body string) {
	t.Helper()
	apiDo(t, http.MethodPut, base, path, body)
}

func apiDo(t *testing.T, method, base, path, body string) []byte {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+serveToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s = %d %s", method, path, resp.StatusCode, b)
	}
	return b
}

func jsonOf[T any](t *testing.T, text string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("not JSON (%v): %s", err, text)
	}
	return v
}

// TestEveryToolAgainstLecternServe calls every tool through the SDK's
// in-memory transport against a real local Lectern: upload and ingest a
// PDF, review its regions, approve an article, describe a picture, search
// and preview voices, and drive an engine card, then read the resources.
func TestEveryToolAgainstLecternServe(t *testing.T) {
	base := lecternServe(t)
	engine := &engineStandIn{key: "sk-harbour-engine-key-5550199"}
	eng := httptest.NewServer(engine)
	t.Cleanup(eng.Close)
	api, err := NewClient(base, serveToken, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var keyPrompts []*mcp.ElicitParams
	files := t.TempDir() // the folder given with --files
	s := connect(t, api, Options{FileRoots: []string{files}, PollInterval: 100 * time.Millisecond, Wait: 5 * time.Minute},
		func(ctx context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			keyPrompts = append(keyPrompts, r.Params)
			// The user opens the page and saves the key there, outside MCP.
			apiPut(t, base, "/api/settings", `{"engine_api_keys":{"harbour":"`+engine.key+`"}}`)
			return &mcp.ElicitResult{Action: "accept"}, nil
		})
	// The user extracts characters from a text in the web app; with no LLM
	// set yet, rules read it (in the background while the magazine runs).
	body, _ := json.Marshal(map[string]string{"text": harbourBook(), "title": "Harbour Tales"})
	extracted := jsonOf[struct {
		Set characterSet `json:"set"`
	}](t, string(apiDo(t, http.MethodPost, base, "/api/characters", string(body))))
	tools, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	called := map[string]bool{}
	var transcript bytes.Buffer // every argument and answer, searched for the key at the end
	call := func(name string, args map[string]any) string {
		t.Helper()
		called[name] = true
		text := s.ok(name, args)
		b, _ := json.Marshal(args)
		transcript.Write(b)
		transcript.WriteString(text)
		return text
	}

	if text := call("lectern_list_issues", nil); !strings.Contains(text, "No issues yet") {
		t.Errorf("empty list = %q", text)
	}
	pdfPath := filepath.Join(files, "harbour-gazette.pdf")
	if err := os.WriteFile(pdfPath, harbourPDF(), 0o600); err != nil {
		t.Fatal(err)
	}
	up := jsonOf[issue](t, call("lectern_upload_issue", map[string]any{"path": pdfPath, "response_format": "json"}))
	if up.Status != "ready" || up.PageCount != 3 || up.Title != "harbour-gazette" {
		t.Fatalf("upload = %+v", up)
	}
	// Notifications are delivered beside the result, so the last may come
	// just after it.
	prog := s.waitProgress("lectern_upload_issue", 1)
	if len(prog) < 3 {
		t.Errorf("upload progress = %d notifications, want reading, uploading, pages and the end", len(prog))
	}
	for i, p := range prog {
		if p.Progress < 0 || p.Progress > 1 || p.Total != 1 || p.Message == "" {
			t.Errorf("progress %d = %+v: want a 0-1 fraction with a message", i, p)
		}
	}
	id := up.ID

	list := jsonOf[Page[issue]](t, call("lectern_list_issues", map[string]any{"response_format": "json", "limit": 1}))
	if list.Total != 1 || list.Count != 1 || list.Items[0].ID != id || list.HasMore || list.NextOffset != nil {
		t.Errorf("issue list = %+v", list)
	}
	if text := call("lectern_get_issue_status", map[string]any{"issue_id": id}); !strings.Contains(text, "Status: ready") || !strings.Contains(text, "3 of 3 done") {
		t.Errorf("status = %q", text)
	}

	pg := jsonOf[pageRegions](t, call("lectern_get_page_regions", map[string]any{"issue_id": id, "page": 1, "limit": 100, "response_format": "json"}))
	var head, picture, para region
	for _, r := range pg.Regions.Items {
		switch {
		case r.Kind == "headline":
			head = r
		case r.Kind == "image" || r.Kind == "figure":
			picture = r
		case para.ID == "" && strings.Contains(r.Text, "Left column"):
			para = r
		}
	}
	if head.ID == "" || picture.ID == "" || para.ID == "" || pg.Version < 1 {
		t.Fatalf("page 1 lacks a headline, a picture or a paragraph: %+v", pg)
	}
	md := call("lectern_get_page_regions", map[string]any{"issue_id": id, "page": 1})
	if !strings.Contains(md, "**headline** ("+head.ID+")") || !strings.Contains(md, "Harbour Reborn") {
		t.Errorf("markdown regions = %q", md)
	}

	edited := jsonOf[regionEdited](t, call("lectern_edit_region", map[string]any{
		"issue_id": id, "page": 1, "region_id": head.ID, "text": "Harbour Reborn at Last", "page_version": pg.Version, "response_format": "json"}))
	if edited.Region.Text != "Harbour Reborn at Last" || edited.Region.OriginalText != "Harbour Reborn" {
		t.Fatalf("edit = %+v", edited)
	}
	// The page changed: an edit made on the version read before is refused.
	s.fails("lectern_edit_region", map[string]any{"issue_id": id, "page": 1, "region_id": head.ID, "kind": "deck", "page_version": pg.Version},
		"Error: API request failed with status 409.")
	call("lectern_retype_regions", map[string]any{"issue_id": id, "page": 1, "region_ids": []string{head.ID}, "kind": "subhead"})
	split := jsonOf[regionsChanged](t, call("lectern_split_region", map[string]any{"issue_id": id, "page": 1, "region_id": para.ID, "split_at": 10, "response_format": "json"}))
	if len(split.Regions) != 2 {
		t.Fatalf("split = %+v", split)
	}
	merged := jsonOf[regionsChanged](t, call("lectern_merge_regions", map[string]any{"issue_id": id, "page": 1, "region_id": split.Regions[0].ID, "response_format": "json"}))
	if merged.Removed != split.Regions[1].ID {
		t.Errorf("merge = %+v, want %s merged in", merged, split.Regions[1].ID)
	}
	pg = jsonOf[pageRegions](t, call("lectern_get_page_regions", map[string]any{"issue_id": id, "page": 1, "limit": 100, "response_format": "json"}))
	order := append([]string{}, pg.Order...)
	for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	if text := call("lectern_set_reading_order", map[string]any{"issue_id": id, "page": 1, "region_ids": order}); !strings.Contains(text, strings.Join(order, ", ")) {
		t.Errorf("order = %q", text)
	}
	var noise string
	for _, r := range pg.Regions.Items {
		if r.Kind == "page-number" || strings.HasPrefix(r.Text, "Page 1") {
			noise = r.ID
		}
	}
	if noise == "" {
		t.Fatalf("page 1 has no page number region: %+v", pg.Regions.Items)
	}
	del := jsonOf[changed](t, call("lectern_delete_region", map[string]any{"issue_id": id, "page": 1, "region_id": noise, "response_format": "json"}))
	if del.UndoToken == "" {
		t.Fatalf("delete gave no undo token: %+v", del)
	}
	if text := call("lectern_get_page_regions", map[string]any{"issue_id": id, "page": 1, "limit": 100}); strings.Contains(text, "("+noise+")") {
		t.Errorf("the deleted region is still listed: %q", text)
	}
	call("lectern_undo_change", map[string]any{"issue_id": id, "undo_token": del.UndoToken})
	if text := call("lectern_get_page_regions", map[string]any{"issue_id": id, "page": 1, "limit": 100}); !strings.Contains(text, "("+noise+")") {
		t.Errorf("undo did not bring the region back: %q", text)
	}
	s.fails("lectern_undo_change", map[string]any{"issue_id": id, "undo_token": del.UndoToken}, "Error: API request failed with status 409.")
	call("lectern_delete_region", map[string]any{"issue_id": id, "page": 1, "region_id": noise})
	s.fails("lectern_delete_region", map[string]any{"issue_id": id, "page": 1, "region_id": noise}, "Error: Resource not found.")

	// Ingest proposed articles from the headlines: the first is accepted
	// (approved), the rest dissolved, and a dissolved one is gone.
	proposed := jsonOf[Page[article]](t, call("lectern_list_articles", map[string]any{"issue_id": id, "response_format": "json"}))
	if proposed.Total == 0 || !proposed.Items[0].Proposed || proposed.Items[0].Title == "" {
		t.Fatalf("ingest proposed no articles: %+v", proposed)
	}
	for i, a := range proposed.Items {
		if i == 0 {
			acc := jsonOf[proposalReviewed](t, call("lectern_review_proposal", map[string]any{"issue_id": id, "article_id": a.ID, "action": "accept", "response_format": "json"}))
			if len(acc.Articles) != 1 || !acc.Articles[0].Approved || acc.Articles[0].Proposed {
				t.Errorf("accept = %+v", acc)
			}
			continue
		}
		call("lectern_review_proposal", map[string]any{"issue_id": id, "article_id": a.ID, "action": "dissolve"})
	}
	if len(proposed.Items) > 1 {
		s.fails("lectern_review_proposal", map[string]any{"issue_id": id, "article_id": proposed.Items[1].ID, "action": "dissolve"}, "Error: Resource not found.")
	}
	s.fails("lectern_review_proposal", map[string]any{"issue_id": id, "article_id": proposed.Items[0].ID, "action": "dissolve"}, "Error: ")

	// The user groups page 2's text into an article in the web app.
	p2 := jsonOf[pageRegions](t, call("lectern_get_page_regions", map[string]any{"issue_id": id, "page": 2, "limit": 100, "response_format": "json"}))
	var refs []regionRef
	for _, r := range p2.Regions.Items {
		if r.Kind == "headline" || r.Kind == "paragraph" || r.Kind == "byline" {
			refs = append(refs, regionRef{Page: 2, Region: r.ID})
		}
	}
	body, _ = json.Marshal(map[string]any{"title": "Storm Season Ahead", "regions": refs})
	apiDo(t, http.MethodPost, base, "/api/magazine/"+id+"/articles", string(body))
	arts := jsonOf[Page[article]](t, call("lectern_list_articles", map[string]any{"issue_id": id, "response_format": "json"}))
	if arts.Total == 0 {
		t.Fatal("ingest made no articles")
	}
	art := arts.Items[0]
	for _, a := range arts.Items {
		if a.Title == "Storm Season Ahead" {
			art = a
		}
	}
	text := call("lectern_get_article_text", map[string]any{"issue_id": id, "article_id": art.ID})
	if !strings.Contains(text, "column") {
		t.Errorf("article text = %q", text)
	}
	ap := jsonOf[approved](t, call("lectern_approve_article", map[string]any{"issue_id": id, "article_id": art.ID, "response_format": "json"}))
	if !ap.Article.Approved {
		t.Errorf("approve = %+v", ap)
	}
	s.fails("lectern_approve_article", map[string]any{"issue_id": id, "article_id": "zzzz9999"}, "Error: Resource not found.")

	// With no vision engine, the describe job fails and says why.
	if failed := s.fails("lectern_describe_figure", map[string]any{"issue_id": id, "page": 2, "region_id": pictureOn(t, s, id, 2)},
		"Error: The job failed: job "); !strings.Contains(failed, "(magazine.describe): no vision engine is configured") {
		t.Errorf("describe without a vision engine = %q", failed)
	}
	// Pictures are described by the vision engine the settings name.
	apiPut(t, base, "/api/settings", `{"vision_ocr_url":"`+eng.URL+`/v1","vision_ocr_model":"harbour-vision"}`)
	desc := jsonOf[described](t, call("lectern_describe_figure", map[string]any{"issue_id": id, "page": 2, "region_id": pictureOn(t, s, id, 2), "response_format": "json"}))
	if desc.Outcome != "described" || !strings.Contains(desc.Description, "wooden pier") {
		t.Errorf("describe = %+v", desc)
	}
	if len(s.progressFor("lectern_describe_figure")) == 0 {
		t.Error("describe reported no progress")
	}
	if text := call("lectern_get_article_text", map[string]any{"issue_id": id, "article_id": art.ID, "descriptions": true}); text == "" {
		t.Error("article text with descriptions is empty")
	}

	voices := jsonOf[voiceSearch](t, call("lectern_search_voices", map[string]any{"language": "en", "limit": 2, "response_format": "json"}))
	if voices.Total < 2 || voices.Count != 2 || len(voices.Voices) != 2 || !voices.HasMore || voices.NextOffset == nil || *voices.NextOffset != 2 {
		t.Fatalf("voice search = %+v", voices)
	}
	if text := call("lectern_search_voices", map[string]any{"query": "no such voice anywhere"}); text != "No voices found matching 'no such voice anywhere'" {
		t.Errorf("no match = %q", text)
	}
	pv := jsonOf[preview](t, call("lectern_preview_voice", map[string]any{"voice_id": voices.Voices[0].ID, "response_format": "json"}))
	if !strings.HasPrefix(pv.URL, base+"/") || pv.Text == "" {
		t.Errorf("preview = %+v", pv)
	}

	apiPut(t, base, "/api/engines/harbour", `{"kind":"llm","base_url":"`+eng.URL+`/v1","container":"llm-box","docker_host":"`+eng.URL+`"}`)
	cards := jsonOf[Page[card]](t, call("lectern_list_engines", map[string]any{"response_format": "json"}))
	if cards.Total != 1 || cards.Items[0].Name != "harbour" || cards.Items[0].KeyConfigured {
		t.Fatalf("cards = %+v", cards)
	}
	if text := call("lectern_get_engine_status", map[string]any{"engine": "harbour"}); text != "Engine **harbour**: running\n" {
		t.Errorf("status = %q", text)
	}
	key := jsonOf[keyRequest](t, call("lectern_set_engine_key", map[string]any{"engine": "harbour", "response_format": "json"}))
	if key.Action != "accept" || !key.KeyConfigured || len(keyPrompts) != 1 {
		t.Fatalf("set key = %+v after %d prompts", key, len(keyPrompts))
	}
	if p := keyPrompts[0]; p.Mode != "url" || p.URL != base+"/#/engines" || p.ElicitationID == "" || p.RequestedSchema != nil {
		t.Errorf("the key was asked for with %+v, want URL mode to the Engines page", p)
	}
	conn := jsonOf[connected](t, call("lectern_connect_engine", map[string]any{"engine": "harbour", "response_format": "json"}))
	if conn.Models.Total != 2 || engine.auth.Load() != "Bearer "+engine.key {
		t.Errorf("connect = %+v with %v", conn, engine.auth.Load())
	}
	llm := jsonOf[llmChosen](t, call("lectern_use_engine_as_llm", map[string]any{"engine": "harbour", "response_format": "json"}))
	if llm.LLMURL != eng.URL+"/v1" || llm.Model != "harbour-chat" {
		t.Errorf("use as LLM = %+v", llm)
	}
	driveAudiobook(t, s, call, base, voices.Voices[0].ID, files)
	apiPut(t, base, "/api/engines/pictures", `{"kind":"image","base_url":"`+eng.URL+`/v1","model":"harbour-image"}`)
	driveCharacters(t, call, base, extracted.Set.ID)

	if strings.Contains(transcript.String(), engine.key) {
		t.Error("the engine key appeared in a tool argument or answer")
	}

	for _, tool := range tools.Tools {
		if !called[tool.Name] {
			t.Errorf("%s was not called", tool.Name)
		}
	}
	levels := s.logLevels()
	if levels["info"] == 0 || levels["debug"] == 0 || levels["error"] == 0 {
		t.Errorf("log notifications by level = %v, want info, error (the refused calls) and debug", levels)
	}

	readResources(t, s, id, art.ID, voices.Voices[0].ID)
}

// pictureOn is the id of a picture region on a page.
func pictureOn(t *testing.T, s *session, id string, n int) string {
	t.Helper()
	pg := jsonOf[pageRegions](t, s.ok("lectern_get_page_regions", map[string]any{"issue_id": id, "page": n, "limit": 100, "response_format": "json"}))
	for _, r := range pg.Regions.Items {
		if r.Kind == "image" || r.Kind == "figure" {
			return r.ID
		}
	}
	t.Fatalf("page %d has no picture: %+v", n, pg.Regions.Items)
	return ""
}

func readResources(t *testing.T, s *session, issueID, articleID, voiceID string) {
	t.Helper()
	ctx := context.Background()
	templates, err := s.cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, tpl := range templates.ResourceTemplates {
		uris = append(uris, tpl.URITemplate)
	}
	if want := "lectern://issues/{id} lectern://issues/{id}/articles/{article}/text lectern://voices/{id}"; strings.Join(uris, " ") != want {
		t.Errorf("resource templates = %v", uris)
	}
	for uri, want := range map[string]*regexp.Regexp{
		"lectern://issues/" + issueID:                                      regexp.MustCompile(`"status": "ready"`),
		"lectern://issues/" + issueID + "/articles/" + articleID + "/text": regexp.MustCompile(`column`),
		"lectern://voices/" + voiceID:                                      regexp.MustCompile(`"id": "` + regexp.QuoteMeta(voiceID) + `"`),
	} {
		res, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("read %s: %v", uri, err)
			continue
		}
		if len(res.Contents) != 1 || !want.MatchString(res.Contents[0].Text) {
			t.Errorf("read %s = %+v", uri, res.Contents)
		}
	}
	if _, err := s.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "lectern://issues/zzzz99999999"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("a missing issue read = %v, want not found", err)
	}

	// The templates' arguments complete by prefix.
	for _, tc := range []struct {
		uri, arg, value string
		context         map[string]string
		want            string
	}{
		{"lectern://issues/{id}", "id", issueID[:3], nil, issueID},
		{"lectern://issues/{id}/articles/{article}/text", "article", "", map[string]string{"id": issueID}, articleID},
		{"lectern://voices/{id}", "id", voiceID[:len(voiceID)-2], nil, voiceID},
		{"lectern://issues/{id}", "id", "zzz", nil, ""},
	} {
		params := &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: tc.uri}, Argument: mcp.CompleteParamsArgument{Name: tc.arg, Value: tc.value}}
		if tc.context != nil {
			params.Context = &mcp.CompleteContext{Arguments: tc.context}
		}
		res, err := s.cs.Complete(ctx, params)
		if err != nil {
			t.Errorf("complete %s %s=%q: %v", tc.uri, tc.arg, tc.value, err)
			continue
		}
		if got := strings.Join(res.Completion.Values, " "); (tc.want == "" && got != "") || !strings.Contains(got, tc.want) {
			t.Errorf("complete %s %s=%q = %q, want %q", tc.uri, tc.arg, tc.value, got, tc.want)
		}
	}
}

// harbourBook is a short novel whose middle line has no tag and sits
// between long narration, so the rules leave its speaker to the LLM.
func harbourBook() string {
	para := strings.Repeat("The wind rose over the moor and the lamps were lit one by one along the road. ", 5)
	return "CHAPTER I\n\n" + para + "\n\n\"We sail at dawn,\" said Alice.\n\n" + para +
		"\n\n\"The nets are torn and the wind is wrong for it, and the tide will not wait for any of us.\"\n\n" + para +
		"\n\n\"Then we mend them tonight,\" said Bob.\n\n" + para + "\n"
}

// driveAudiobook drives a book from import to render: the LLM (the
// engine stand-in, chosen by lectern_use_engine_as_llm) names the untagged
// line's speaker, a hand correction follows, then espeak-ng voices it.
func driveAudiobook(t *testing.T, s *session, call func(string, map[string]any) string, base, voiceID, files string) {
	t.Helper()
	if text := call("lectern_list_books", nil); !strings.Contains(text, "No books yet") {
		t.Errorf("empty book list = %q", text)
	}
	path := filepath.Join(files, "harbour-tales.txt")
	if err := os.WriteFile(path, []byte(harbourBook()), 0o600); err != nil {
		t.Fatal(err)
	}
	bk := jsonOf[book](t, call("lectern_import_book", map[string]any{"path": path, "response_format": "json"}))
	if bk.ID == "" || bk.Counts.Dialogue != 3 || bk.Counts.Unknown != 1 {
		t.Fatalf("imported %+v", bk)
	}
	if list := jsonOf[Page[bookSummary]](t, call("lectern_list_books", map[string]any{"response_format": "json"})); list.Total != 1 || list.Items[0].ID != bk.ID {
		t.Errorf("book list = %+v", list)
	}
	cast := jsonOf[book](t, call("lectern_cast_book", map[string]any{"book_id": bk.ID, "response_format": "json"}))
	if cast.Counts.Unknown != 0 || cast.Counts.LLM != 1 {
		t.Errorf("after the cast: %+v", cast.Counts)
	}
	segs := jsonOf[segmentPage](t, call("lectern_get_segments", map[string]any{"book_id": bk.ID, "response_format": "json"}))
	var untagged segment
	for _, sg := range segs.Items {
		if sg.Kind == "dialogue" && sg.Source == "llm" {
			untagged = sg
		}
	}
	if untagged.Speaker != "Bob" || segs.Total != bk.Counts.Segments || segs.Revision < 1 {
		t.Fatalf("segments after the cast = %+v", segs)
	}
	if text := call("lectern_get_segments", map[string]any{"book_id": bk.ID, "disputed": true}); !strings.Contains(text, "No segments match.") {
		t.Errorf("disputed lines of a cast without verify = %q", text)
	}
	set := jsonOf[speakerSet](t, call("lectern_set_speaker", map[string]any{"book_id": bk.ID, "segment_id": untagged.ID, "speaker": "Alice",
		"book_revision": segs.Revision, "response_format": "json"}))
	if set.Segment.Speaker != "Alice" || set.Segment.Source != "hand" || set.Revision <= segs.Revision {
		t.Errorf("set speaker = %+v", set)
	}
	s.fails("lectern_set_speaker", map[string]any{"book_id": bk.ID, "segment_id": untagged.ID, "speaker": "Bob", "book_revision": segs.Revision},
		"Error: API request failed with status 409.")
	// A rename through lectern_edit_cast: Bob's tagged line follows, the
	// old name stays an alias, a stale revision is refused.
	ed := jsonOf[castEdited](t, call("lectern_edit_cast", map[string]any{"book_id": bk.ID, "action": "rename", "character_id": "bob", "name": "Captain Bob",
		"book_revision": set.Revision, "response_format": "json"}))
	i := slices.IndexFunc(ed.Cast, func(c bookCharacter) bool { return c.ID == "bob" })
	if ed.ChangedLines != 1 || ed.Revision != set.Revision+1 || i < 0 || ed.Cast[i].Name != "Captain Bob" || !slices.Contains(ed.Cast[i].Aliases, "Bob") {
		t.Errorf("rename = %+v", ed)
	}
	s.fails("lectern_edit_cast", map[string]any{"book_id": bk.ID, "action": "set_gender", "character_id": "bob", "gender": "male", "book_revision": set.Revision},
		"Error: API request failed with status 409.")

	// The user picks the narrator's voice in the web app.
	apiPut(t, base, "/api/audiobook/books/"+bk.ID+"/narrator", `{"voice_id":"`+voiceID+`"}`)
	r := jsonOf[rendered](t, call("lectern_render_book", map[string]any{"book_id": bk.ID, "speed": 1.5, "response_format": "json"}))
	if r.Status != "succeeded" || !strings.HasPrefix(r.BookURL, base+"/") || len(r.Chapters) == 0 {
		t.Errorf("render = %+v", r)
	}
	if len(s.progressFor("lectern_render_book")) == 0 {
		t.Error("render reported no progress")
	}
}

// driveCharacters waits for the extraction, then lists, reads and draws a
// character through the image engine card on the stand-in.
func driveCharacters(t *testing.T, call func(string, map[string]any) string, base, setID string) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		sets := jsonOf[Page[characterSet]](t, call("lectern_list_character_sets", map[string]any{"response_format": "json"}))
		if sets.Total != 1 || sets.Items[0].ID != setID {
			t.Fatalf("character sets = %+v", sets)
		}
		if sets.Items[0].Status == "ready" {
			break
		}
		if sets.Items[0].Status == "failed" || time.Now().After(deadline) {
			t.Fatalf("extraction did not finish: %+v", sets.Items[0])
		}
	}
	chars := jsonOf[characterList](t, call("lectern_list_characters", map[string]any{"set_id": setID, "response_format": "json"}))
	var alice character
	for _, c := range chars.Items {
		if c.Name == "Alice" {
			alice = c
		}
	}
	if alice.ID == "" || chars.Set.ID != setID {
		t.Fatalf("characters = %+v", chars)
	}
	if text := call("lectern_get_character", map[string]any{"set_id": setID, "character_id": alice.ID}); !strings.Contains(text, "# Alice ("+alice.ID+")") || !strings.Contains(text, "## Form") {
		t.Errorf("character = %q", text)
	}
	img := jsonOf[generated](t, call("lectern_generate_character_image", map[string]any{"set_id": setID, "character_id": alice.ID, "kind": "avatar", "response_format": "json"}))
	if len(img.Images) != 1 || img.Images[0].Kind != "avatar" || img.Images[0].Card != "pictures" || !strings.HasPrefix(img.Images[0].URL, base+"/") {
		t.Errorf("avatar = %+v", img)
	}
}

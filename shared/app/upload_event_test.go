package app

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pipeline"
)

// TestS3UploadEventStartsIngest walks the AWS start path with local parts:
// POST /api/magazine/uploads (AWS mode) → POST of the presigned form → the S3
// "Object Created" EventBridge event, turned into the state machine's input
// by the InputTransformer written in template.yaml → the real definition.
func TestS3UploadEventStartsIngest(t *testing.T) {
	var mag *magazineapi.Parts
	c, _ := newLocalAppWith(t, func(l *Local) []httpapi.Operation {
		mag = magazineOf(t, l)
		mag.Issues.Start = nil // as in AWS: the upload event starts ingest, not the API
		return magazineapi.Operations(mag.Issues)
	})

	pdfBytes := samplePDF()
	status, _, b := c.do(http.MethodPost, "/api/magazine/uploads", []byte(`{"filename":"harbour.pdf","size":`+strconv.Itoa(len(pdfBytes))+`}`))
	if status != http.StatusCreated {
		t.Fatalf("uploads = %d %s", status, b)
	}
	grant := decode[struct {
		Issue     magazine.Issue    `json:"issue"`
		UploadURL string            `json:"upload_url"`
		Method    string            `json:"method"`
		Fields    map[string]string `json:"fields"`
	}](t, b)
	if grant.Issue.Status != magazine.IssueUploading || grant.Method != http.MethodPost {
		t.Errorf("grant before upload: %+v", grant)
	}
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	for k, v := range grant.Fields {
		if err := mw.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := mw.CreateFormFile("file", "harbour.pdf")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(pdfBytes)
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(grant.UploadURL, mw.FormDataContentType(), &form)
	if err != nil || resp.StatusCode/100 != 2 {
		t.Fatalf("POST of the presigned form: %v %v", err, resp)
	}
	resp.Body.Close()

	// The event S3 sends through EventBridge for that object.
	raw, err := os.ReadFile("../../statemachines/testdata/s3-object-created.json")
	if err != nil {
		t.Fatal(err)
	}
	event := strings.ReplaceAll(string(raw), "ISSUE_ID", grant.Issue.ID)
	input := transformUploadEvent(t, event)

	var start pipeline.PrepareInput
	if err := json.Unmarshal(input, &start); err != nil {
		t.Fatalf("transformed input %s: %v", input, err)
	}
	if _, err := mag.Ingest.Run(context.Background(), start, nil); err != nil {
		t.Fatal(err)
	}
	view := c.waitReady(grant.Issue.ID)
	if view.Status != magazine.IssueReady || view.PagesDone != 3 || view.Title != "harbour" {
		t.Fatalf("issue = %+v", view.Issue)
	}
}

// transformUploadEvent applies the template's event pattern and input
// transformer, read from template.yaml, to an EventBridge event.
func transformUploadEvent(t *testing.T, event string) []byte {
	t.Helper()
	tpl, err := os.ReadFile("../../template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	paths := regexp.MustCompile(`InputPathsMap:\n\s+key: (\S+)`).FindSubmatch(tpl)
	template := regexp.MustCompile(`InputTemplate: '(.*)'`).FindSubmatch(tpl)
	prefix := regexp.MustCompile(`key: \[\{prefix: (\S+)\}\]`).FindSubmatch(tpl)
	if paths == nil || template == nil || prefix == nil {
		t.Fatal("template.yaml has no upload rule with an input transformer")
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(event), &ev); err != nil {
		t.Fatal(err)
	}
	if ev["source"] != "aws.s3" || ev["detail-type"] != "Object Created" {
		t.Fatalf("the rule would not match %v / %v", ev["source"], ev["detail-type"])
	}
	var v any = ev
	for _, part := range strings.Split(strings.TrimPrefix(string(paths[1]), "$."), ".") {
		v = v.(map[string]any)[part]
	}
	key, ok := v.(string)
	if !ok || !strings.HasPrefix(key, string(prefix[1])) {
		t.Fatalf("the rule would not match key %v", v)
	}
	quoted, err := json.Marshal(key) // EventBridge inserts a string value quoted
	if err != nil {
		t.Fatal(err)
	}
	return []byte(strings.ReplaceAll(string(template[1]), "<key>", string(quoted)))
}

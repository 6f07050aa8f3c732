package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/blob/localfs"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/pdf/pdftest"
	"github.com/lectern/lectern/shared/pipeline/asl"
	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/store/bolt"
	"github.com/lectern/lectern/statemachines"
)

// invalidInput is the step error for input the pipeline refuses, matched by
// its type name in the definition's Catch.
type invalidInput = StepError

// isInvalidInput reports whether err is (or wraps) a refusal that retrying
// cannot mend: the pipeline's own step error, or a refused PDF.
func isInvalidInput(err error) bool {
	var step *StepError
	var refused *pdf.InvalidInputError
	return errors.As(err, &step) || errors.As(err, &refused)
}

// stepErrorName is the name Step Functions (and the local runner) give an
// error of this type: its Go type name.
func stepErrorName(err error) string {
	t := reflect.TypeOf(err)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

func TestLambdaAdapterRoundTrip(t *testing.T) {
	var got []PageRef
	h := Lambda(func(_ context.Context, in PageRef) (PageOutput, error) {
		got = append(got, in)
		return PageOutput{Page: in.Page, Step: "seen " + in.IssueID, Regions: 3}, nil
	})
	out, err := h(t.Context(), json.RawMessage(`{"issue_id":"abc12345","page":7,"render":{"image":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []PageRef{{IssueID: "abc12345", Page: 7}}; !reflect.DeepEqual(got, want) {
		t.Errorf("step got %+v, want %+v", got, want)
	}
	if string(out) != `{"page":7,"step":"seen abc12345","regions":3}` {
		t.Errorf("output %s", out)
	}

	for _, bad := range []string{`{"issue_id":"abc12345","page":"seven"}`, `not json`, `[1,2]`} {
		_, err := h(t.Context(), json.RawMessage(bad))
		if !isInvalidInput(err) {
			t.Errorf("input %s: err = %#v, want the invalid-input step error", bad, err)
		}
	}
	if len(got) != 1 {
		t.Errorf("the step ran on bad input: %+v", got)
	}
}

// TestStepErrorsPassThroughUnwrapped: the adapter hands back the step's own
// error value, so the Lambda runtime reports its type name and Retry/Catch
// in the definition match it; the local runner names it the same way.
func TestStepErrorsPassThroughUnwrapped(t *testing.T) {
	for _, stepErr := range []error{
		&TransientError{Err: errors.New("table busy")},
		&invalidInput{Reason: "encrypted", Detail: "password protected"},
		&OCRError{Attempts: []Attempt{{Engine: EngineTesseract, Error: "no text"}}},
	} {
		name := stepErrorName(stepErr)
		t.Run(name, func(t *testing.T) {
			h := Lambda(func(context.Context, PageRef) (PageOutput, error) { return PageOutput{}, stepErr })
			_, err := h(t.Context(), json.RawMessage(`{"issue_id":"abc12345","page":1}`))
			if err != stepErr {
				t.Fatalf("adapter returned %#v, want the step's own error %#v", err, stepErr)
			}
			target := reflect.New(reflect.TypeOf(stepErr))
			if !errors.As(err, target.Interface()) {
				t.Errorf("errors.As does not find %T", stepErr)
			}

			def, err := asl.Parse([]byte(`{"StartAt":"T","States":{
				"T":{"Type":"Task","Resource":"${Fn}","Catch":[
					{"ErrorEquals":["` + name + `"],"ResultPath":"$.err","Next":"ByName"},
					{"ErrorEquals":["States.ALL"],"ResultPath":"$.err","Next":"Other"}],"End":true},
				"ByName":{"Type":"Pass","Result":"by name","ResultPath":"$.caught","End":true},
				"Other":{"Type":"Pass","Result":"other","ResultPath":"$.caught","End":true}}}`))
			if err != nil {
				t.Fatal(err)
			}
			out, err := asl.Run(t.Context(), def, json.RawMessage(`{"issue_id":"abc12345","page":1}`), asl.Options{Handlers: map[string]asl.Handler{"Fn": h}})
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Caught string
				Err    struct{ Error, Cause string }
			}
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatal(err)
			}
			if res.Caught != "by name" || res.Err.Error != name || res.Err.Cause != stepErr.Error() {
				t.Errorf("caught %q as %q (%q), want by name as %q (%q)", res.Caught, res.Err.Error, res.Err.Cause, name, stepErr.Error())
			}
		})
	}
}

func TestTransientClassification(t *testing.T) {
	storeErr := fmt.Errorf("put ISSUE#x/META: %w", store.ErrConditionFailed)
	blobErr := errors.New("s3: connection reset by peer")
	inv := &invalidInput{Reason: "missing-upload", Detail: "gone"}
	wrappedInv := fmt.Errorf("page 3: %w", inv)
	canceled := fmt.Errorf("render: %w", context.Canceled)
	tests := []struct {
		name          string
		in            error
		wantTransient bool // else: returned as it is
	}{
		{"nil stays nil", nil, false},
		{"a store error is transient", storeErr, true},
		{"a blob error is transient", blobErr, true},
		{"invalid input stays as it is", inv, false},
		{"wrapped invalid input stays as it is", wrappedInv, false},
		{"context.Canceled stays as it is", context.Canceled, false},
		{"wrapped context.Canceled stays as it is", canceled, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := transient(tc.in)
			// Step Functions names an error by its outermost type only.
			te, isTransient := got.(*TransientError)
			switch {
			case tc.wantTransient:
				if !isTransient || te.Err != tc.in || got.Error() != tc.in.Error() {
					t.Errorf("transient(%v) = %#v, want a *TransientError wrapping it", tc.in, got)
				}
			case got != tc.in:
				t.Errorf("transient(%v) = %#v, want it unchanged", tc.in, got)
			}
		})
	}
}

// ---- the steps against a real bbolt table and a blob folder ----

type stepsFixture struct {
	steps *Steps
	repo  *issues.Repo
	table *bolt.Table
	blobs *localfs.Store
}

func newStepsFixture(t testing.TB) *stepsFixture {
	t.Helper()
	dir := t.TempDir()
	table, err := bolt.Open(filepath.Join(dir, "pipeline.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })
	blobs, err := localfs.New(filepath.Join(dir, "blobs"), "http://127.0.0.1", bytes.Repeat([]byte("k"), 32), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Close() })
	repo := issues.NewRepo(table, time.Now)
	return &stepsFixture{
		steps: &Steps{Repo: repo, Pages: &Pages{Blobs: blobs, Sources: blobs, Splits: repo, Limits: pdf.DefaultLimits(), DPI: DefaultDPI, LendRenders: true}},
		repo:  repo, table: table, blobs: blobs,
	}
}

const noticeText = "Subscribe to the Harbour Gazette today"

// harbourPDF is two small pages with a real text layer: a headline, a body
// column, a photo with its caption and, on page 1, the same notice twice.
func harbourPDF() []byte {
	d := &pdftest.Doc{}
	photo := image.NewRGBA(image.Rect(0, 0, 60, 40))
	for i := range photo.Pix {
		photo.Pix[i] = uint8(30 + i%97)
	}
	for n, head := range []string{"Harbour Reborn", "Storm Season Ahead"} {
		p := d.AddPage(612, 792)
		p.Text(72, 60, 24, true, head)
		for i := range 6 {
			p.Text(72, 110+float64(i)*12, 10, false, fmt.Sprintf("The rebuilt pier opened on page %d, line %c of the story.", n+1, 'a'+i))
		}
		p.Image(72, 300, 240, 160, photo)
		p.Text(72, 470, 8, false, fmt.Sprintf("Figure %d The pier at dawn", n+1))
		if n == 0 {
			p.Text(330, 110, 10, false, noticeText)
			p.Text(330, 600, 10, false, noticeText+".")
		}
	}
	return d.Bytes()
}

// upload stores data as an issue's uploaded PDF and returns the issue id.
func (f *stepsFixture) upload(t testing.TB, data []byte) string {
	t.Helper()
	id := issues.NewID(time.Now())
	if err := f.blobs.Put(t.Context(), issues.SourceKey(id), bytes.NewReader(data), "application/pdf"); err != nil {
		t.Fatal(err)
	}
	return id
}

type stepFunc = func(context.Context, PageRef) (PageOutput, error)

// prepared uploads the sample, prepares it and runs steps on page 1 in
// turn; it returns the issue id.
func (f *stepsFixture) prepared(t *testing.T, steps ...stepFunc) string {
	t.Helper()
	id := f.upload(t, harbourPDF())
	if _, err := f.steps.Prepare(t.Context(), PrepareInput{SourceKey: issues.SourceKey(id)}); err != nil {
		t.Fatal(err)
	}
	for _, step := range steps {
		if _, err := step(t.Context(), PageRef{IssueID: id, Page: 1}); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// stored returns what a versioned read of the repo gave, failing the test
// on its error.
func stored[T any](t *testing.T) func(T, int64, error) T {
	return func(v T, _ int64, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func (f *stepsFixture) page(t *testing.T, id string, n int) magazine.Page {
	return stored[magazine.Page](t)(f.repo.Page(t.Context(), id, n))
}

func (f *stepsFixture) issue(t *testing.T, id string) magazine.Issue {
	return stored[magazine.Issue](t)(f.repo.Get(t.Context(), id))
}

func (f *stepsFixture) pngSize(t *testing.T, key string) image.Point {
	t.Helper()
	rc, _, err := f.blobs.Get(t.Context(), key)
	if err != nil {
		t.Fatalf("blob %s: %v", key, err)
	}
	defer rc.Close()
	cfg, err := png.DecodeConfig(rc)
	if err != nil {
		t.Fatalf("blob %s: %v", key, err)
	}
	return image.Pt(cfg.Width, cfg.Height)
}

func regionWithText(p magazine.Page, prefix string) (magazine.Region, bool) {
	i := slices.IndexFunc(p.Regions, func(r magazine.Region) bool { return strings.HasPrefix(r.Text, prefix) })
	if i < 0 {
		return magazine.Region{}, false
	}
	return p.Regions[i], true
}

func (f *stepsFixture) stepOf(t *testing.T, id string, n int) issues.Step {
	t.Helper()
	steps, err := f.repo.Steps(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if s.Page == n {
			return s
		}
	}
	t.Fatalf("page %d has no step record in %+v", n, steps)
	return issues.Step{}
}

func TestStepsOverOnePage(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	id := f.upload(t, harbourPDF())

	prep, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id), Title: "Harbour"})
	if err != nil {
		t.Fatal(err)
	}
	if prep.IssueID != id || prep.PageCount != 2 || !slices.Equal(prep.Pages, []int{1, 2}) {
		t.Fatalf("prepare = %+v", prep)
	}
	if is := f.issue(t, id); is.Title != "Harbour" || is.Status != magazine.IssueProcessing || is.PageCount != 2 {
		t.Fatalf("issue after prepare = %+v", is)
	}
	if p := f.page(t, id, 2); p.Step != "queued" || p.Width != 612 || p.Height != 792 || p.DPI != DefaultDPI {
		t.Fatalf("page 2 after prepare = %+v", p)
	}
	// Prepare again (a retry) keeps the issue and its pages.
	if again, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id)}); err != nil || !reflect.DeepEqual(again, prep) {
		t.Fatalf("prepare again = %+v, %v", again, err)
	}

	ref := PageRef{IssueID: id, Page: 1}
	out, err := f.steps.Render(ctx, ref)
	if err != nil || out.Step != "render" || out.Page != 1 {
		t.Fatalf("render = %+v, %v", out, err)
	}
	p := f.page(t, id, 1)
	if p.RenderKey != issues.RenderKey(id, 1) || p.ThumbKey != issues.ThumbKey(id, 1) || p.Step != "render" {
		t.Fatalf("page after render = %+v", p)
	}
	if size := f.pngSize(t, p.RenderKey); size != image.Pt(1275, 1650) {
		t.Errorf("render is %v, want 1275x1650 (612x792 pt at 150 DPI)", size)
	}
	if size := f.pngSize(t, p.ThumbKey); size.X != ThumbWidth {
		t.Errorf("thumbnail is %v, want %d wide", size, ThumbWidth)
	}

	out, err = f.steps.Recognize(ctx, ref)
	if err != nil || out.Engine != EngineTextLayer || out.Regions == 0 {
		t.Fatalf("recognize = %+v, %v", out, err)
	}
	p = f.page(t, id, 1)
	head, ok := regionWithText(p, "Harbour Reborn")
	if !ok || head.Kind != magazine.KindHeadline || p.Engine != EngineTextLayer || p.Step != "recognize" {
		t.Fatalf("page after recognize: engine %q step %q headline %+v in %+v", p.Engine, p.Step, head, p.Regions)
	}
	for _, r := range p.Regions {
		if r.Text != "" && r.OriginalText != r.Text {
			t.Errorf("region %s: original text %q, text %q", r.ID, r.OriginalText, r.Text)
		}
	}
	pictures := slices.DeleteFunc(slices.Clone(p.Regions), func(r magazine.Region) bool { return !magazine.IsVisual(r.Kind) })
	if len(pictures) != 1 {
		t.Fatalf("recognize found pictures %+v, want the one photo", pictures)
	}

	if out, err = f.steps.RefineFigures(ctx, ref); err != nil || out.Step != "figures" {
		t.Fatalf("refine figures = %+v, %v", out, err)
	}
	p = f.page(t, id, 1)
	i := slices.IndexFunc(p.Regions, func(r magazine.Region) bool { return magazine.IsVisual(r.Kind) })
	if i < 0 || p.Regions[i].CropKey != issues.CropKey(id, 1, p.Regions[i].ID, 0) {
		t.Fatalf("the picture after refine = %+v", p.Regions)
	}
	photo := p.Regions[i]
	want := magazine.PixelRect(photo.BBox, float64(DefaultDPI)/72, image.Rect(0, 0, 1275, 1650)).Size()
	if size := f.pngSize(t, photo.CropKey); size != want || size.X == 0 {
		t.Errorf("crop is %v, want %v", size, want)
	}

	if out, err = f.steps.Cleanup(ctx, ref); err != nil || out.Step != "cleanup" {
		t.Fatalf("cleanup = %+v, %v", out, err)
	}
	p = f.page(t, id, 1)
	duplicates := 0
	for _, r := range p.Regions {
		if strings.HasPrefix(r.Text, noticeText) && r.Kind == magazine.KindDuplicate {
			duplicates++
		}
	}
	if duplicates != 1 {
		t.Errorf("after cleanup %d of the two notices are duplicates, want 1: %+v", duplicates, p.Regions)
	}

	if out, err = f.steps.Order(ctx, ref); err != nil || out.Step != "order" {
		t.Fatalf("order = %+v, %v", out, err)
	}
	p = f.page(t, id, 1)
	if p.Step != "done" || len(p.Order) != len(p.Regions) || p.Order[0] != head.ID {
		t.Fatalf("page after order: step %q order %v (headline %s)", p.Step, p.Order, head.ID)
	}
	if s := f.stepOf(t, id, 1); s.Step != "order" || !s.Done || s.Engine != EngineTextLayer {
		t.Errorf("page 1 step record = %+v", s)
	}
	// A step run again on a finished page keeps it done.
	if _, err := f.steps.Cleanup(ctx, ref); err != nil || f.page(t, id, 1).Step != "done" {
		t.Errorf("cleanup again: %v, step %q", err, f.page(t, id, 1).Step)
	}
}

func TestPictureOperationsForReview(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	id := f.prepared(t, f.steps.Render)
	p := f.page(t, id, 1)
	box := magazine.BBox{72, 300, 120, 80}
	key, err := f.steps.Pages.Crop(ctx, p, magazine.Region{ID: "p1", BBox: box}, 4)
	if err != nil || !strings.HasSuffix(key, "/p1-r4.png") {
		t.Fatalf("crop = %q, %v", key, err)
	}
	if size := f.pngSize(t, key); size != image.Pt(250, 167) {
		t.Errorf("crop is %v, want 250x167", size)
	}
	if _, err := f.steps.Pages.Crop(ctx, p, magazine.Region{ID: "p2", BBox: magazine.BBox{5000, 5000, 10, 10}}, 4); !isInvalidInput(err) {
		t.Errorf("crop outside the page = %v, want the invalid-input step error", err)
	}
	text, err := f.steps.Pages.ReadArea(ctx, p, magazine.BBox{60, 50, 400, 40})
	if err != nil || text != "Harbour Reborn" {
		t.Errorf("read area = %q, %v", text, err)
	}
	for _, step := range []stepFunc{f.steps.Recognize, f.steps.RefineFigures} {
		if _, err := step(ctx, PageRef{IssueID: id, Page: 1}); err != nil {
			t.Fatal(err)
		}
	}
	refined := f.page(t, id, 1)
	boxes, err := f.steps.Pages.RefineBoxes(ctx, refined)
	if err != nil || !reflect.DeepEqual(boxes, refined.Regions) {
		t.Errorf("refine boxes = %v, %v; the figures were refined already: want the regions as stored", boxes, err)
	}
}

// TestRefineBoxesLeavesAPageWithoutRegionsAlone: a rendered page with no
// regions (nothing recognised yet, or a page that failed) has nothing to
// refine, and its regions stay a list (a JSON [] when stored, never null).
func TestRefineBoxesLeavesAPageWithoutRegionsAlone(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	id := f.prepared(t, f.steps.Render)
	before, _, err := f.repo.PageJSON(ctx, id, 1)
	if err != nil || !bytes.Contains(before, []byte(`"regions":[]`)) {
		t.Fatalf("page before refine: %s, %v", before, err)
	}
	boxes, err := f.steps.Pages.RefineBoxes(ctx, f.page(t, id, 1))
	if err != nil || boxes == nil || len(boxes) != 0 {
		t.Errorf("refine boxes = %#v, %v; want an empty list", boxes, err)
	}
}

// recordPageFailure sends the fail-issue function what the definition's
// RecordPageFailure sends it when a page step throws name with message.
func recordPageFailure(t *testing.T, f *stepsFixture, id string, page int, step, name, message string) {
	t.Helper()
	cause, err := json.Marshal(map[string]string{"errorType": name, "errorMessage": message})
	if err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(map[string]any{"issue_id": id, "failure": map[string]any{"page": page, "step": step, "error": name, "cause": string(cause)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.steps.Handlers()["FailIssueFunctionArn"](t.Context(), in); err != nil {
		t.Fatalf("record the failure of page %d: %v", page, err)
	}
}

func TestFinalizeRecordsAFailedPage(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	id := f.prepared(t, f.steps.Render, f.steps.Recognize, f.steps.RefineFigures, f.steps.Cleanup, f.steps.Order)
	recordPageFailure(t, f, id, 2, "Recognize", "OCRError", "no engine could read the page")
	out, err := f.steps.Finalize(ctx, FinalizeInput{IssueID: id})
	if err != nil {
		t.Fatal(err)
	}
	if want := (FinalizeOutput{IssueID: id, Status: string(magazine.IssueReady), PagesDone: 1, PagesFailed: 1}); out != want {
		t.Errorf("finalize = %+v, want %+v", out, want)
	}
	is := f.issue(t, id)
	wantErrs := []magazine.PageError{{Page: 2, Step: "Recognize", Error: "no engine could read the page"}}
	if is.Status != magazine.IssueReady || is.PagesDone != 1 || !reflect.DeepEqual(is.PageErrors, wantErrs) {
		t.Errorf("issue after finalize = %+v", is)
	}
	if p := f.page(t, id, 2); p.Step != "failed" || p.Error != "no engine could read the page" {
		t.Errorf("page 2 after finalize: step %q error %q", p.Step, p.Error)
	}
	if s := f.stepOf(t, id, 2); s.Step != "failed" || !s.Done || s.Error == "" {
		t.Errorf("page 2 step record = %+v", s)
	}
	if p := f.page(t, id, 1); p.Step != "done" || p.Error != "" {
		t.Errorf("page 1 after finalize: step %q error %q", p.Step, p.Error)
	}

	// Every page failed: the issue fails.
	recordPageFailure(t, f, id, 1, "Render", "InvalidInputError", "broken page")
	recordPageFailure(t, f, id, 2, "Render", "InvalidInputError", "broken page")
	out, err = f.steps.Finalize(ctx, FinalizeInput{IssueID: id})
	if err != nil || out.Status != string(magazine.IssueFailed) || out.PagesFailed != 2 {
		t.Errorf("finalize with every page failed = %+v, %v", out, err)
	}
	if is := f.issue(t, id); is.Status != magazine.IssueFailed || is.Error == "" {
		t.Errorf("issue with every page failed = %+v", is)
	}
}

func TestFailIssue(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	id := f.upload(t, []byte("not a PDF at all"))
	_, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(id), Title: "Locked"})
	if !isInvalidInput(err) {
		t.Fatalf("prepare of a non-PDF = %v, want the invalid-input step error", err)
	}
	if pages, err := f.repo.Pages(ctx, id); err != nil || len(pages) != 0 {
		t.Errorf("a refused PDF got pages: %d, %v", len(pages), err)
	}
	var in FailIssueInput
	in.SourceKey = issues.SourceKey(id)
	in.Error.Error, in.Error.Cause = stepErrorName(err), err.Error()
	out, err := f.steps.FailIssue(ctx, in)
	// The refusal is stored as the sentence a user acts on, its text as the cause.
	want := (&pdf.InvalidInputError{Reason: pdf.ReasonNotPDF}).Explanation()
	if err != nil || out["issue_id"] != id || out["error"] != want {
		t.Fatalf("fail issue = %v, %v", out, err)
	}
	if is := f.issue(t, id); is.Status != magazine.IssueFailed || is.Error != want || is.ErrorCause != in.Error.Cause || is.Title != "Locked" {
		t.Errorf("issue after fail = %+v", is)
	}

	// After Prepare, the issue id comes from its output; a cause without a
	// message leaves the error name.
	in = FailIssueInput{SourceKey: "uploads/elsewhere.pdf", Prepared: &struct {
		IssueID string `json:"issue_id"`
	}{IssueID: id}}
	in.Error.Error = "States.Timeout"
	if out, err := f.steps.FailIssue(ctx, in); err != nil || out["issue_id"] != id || f.issue(t, id).Error != "States.Timeout" {
		t.Errorf("fail issue by prepared id = %v, %v", out, err)
	}

	in = FailIssueInput{SourceKey: "somewhere/else.pdf"}
	if _, err := f.steps.FailIssue(ctx, in); !isInvalidInput(err) {
		t.Errorf("fail issue with a bad key = %v, want the invalid-input step error", err)
	}
}

func TestPrepareRefusesBadSources(t *testing.T) {
	f := newStepsFixture(t)
	ctx := t.Context()
	for _, tc := range []struct {
		name string
		key  string
	}{
		{"a key outside uploads/", "elsewhere/abc12345.pdf"},
		{"an upload that is not there", issues.SourceKey(issues.NewID(time.Now()))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: tc.key})
			if !isInvalidInput(err) {
				t.Errorf("prepare %s = %v, want the invalid-input step error", tc.key, err)
			}
		})
	}
}

// failingTable answers every read with err, as a table that is down.
type failingTable struct {
	store.Table
	err error
}

func (t failingTable) Get(context.Context, string, string) (store.Item, error) {
	return store.Item{}, t.err
}

// failingBlobs answers every read with err.
type failingBlobs struct {
	blob.Store
	err error
}

func (b failingBlobs) Get(context.Context, string) (io.ReadCloser, blob.Info, error) {
	return nil, blob.Info{}, b.err
}

// TestStepsClassifyStorageFailuresAsTransient: a storage hiccup reaches the
// state machine as TransientError (retried), not as a bad input.
func TestStepsClassifyStorageFailuresAsTransient(t *testing.T) {
	f := newStepsFixture(t)
	down := errors.New("connection reset by peer")
	broken := &Steps{Repo: issues.NewRepo(failingTable{f.table, down}, time.Now), Pages: &Pages{Blobs: failingBlobs{f.blobs, down}, Sources: failingBlobs{f.blobs, down}, Limits: pdf.DefaultLimits()}}
	ref := PageRef{IssueID: issues.NewID(time.Now()), Page: 1}
	for name, step := range map[string]stepFunc{
		"Render": broken.Render, "Recognize": broken.Recognize, "RefineFigures": broken.RefineFigures,
		"Cleanup": broken.Cleanup, "Order": broken.Order,
	} {
		_, err := step(t.Context(), ref)
		var te *TransientError
		if !errors.As(err, &te) || !errors.Is(err, down) || stepErrorName(err) != "TransientError" {
			t.Errorf("%s with storage down = %#v, want a TransientError wrapping the cause", name, err)
		}
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	canceled := &Steps{Repo: issues.NewRepo(failingTable{f.table, ctx.Err()}, time.Now), Pages: &Pages{Limits: pdf.DefaultLimits()}}
	if _, err := canceled.Cleanup(ctx, ref); !errors.Is(err, context.Canceled) || stepErrorName(err) == "TransientError" {
		t.Errorf("cleanup after cancel = %#v, want context.Canceled as it is", err)
	}
}

// reporter records job progress.
type reporter struct {
	mu    sync.Mutex
	steps []string
}

func (r *reporter) Progress(_ context.Context, fraction float64, message string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = append(r.steps, fmt.Sprintf("%.0f %s", fraction, message))
	return nil
}

// TestIngestRunsTheDefinitionOverTheSteps walks the real definition in
// process, as the local job does, over the real steps.
func TestIngestRunsTheDefinitionOverTheSteps(t *testing.T) {
	f := newStepsFixture(t)
	ingest, err := NewIngest(statemachines.Ingest(), f.steps)
	if err != nil {
		t.Fatal(err)
	}
	if ingest.Steps() != f.steps {
		t.Error("Steps() is not the steps the ingest runs")
	}
	ingest.MaxConcurrency = 2
	id := f.upload(t, harbourPDF())
	payload, err := json.Marshal(PrepareInput{SourceKey: issues.SourceKey(id), Title: "Harbour"})
	if err != nil {
		t.Fatal(err)
	}
	rep := &reporter{}
	out, err := ingest.Job(t.Context(), payload, rep)
	if err != nil {
		t.Fatal(err)
	}
	var fin FinalizeOutput
	if err := json.Unmarshal(out, &fin); err != nil {
		t.Fatalf("ingest output %s: %v", out, err)
	}
	if want := (FinalizeOutput{IssueID: id, Status: string(magazine.IssueReady), PagesDone: 2}); fin != want {
		t.Errorf("ingest = %+v, want %+v", fin, want)
	}
	if want := []string{"0 preparing", "1 done"}; !reflect.DeepEqual(rep.steps, want) {
		t.Errorf("progress %v, want %v", rep.steps, want)
	}
	for n := 1; n <= 2; n++ {
		if p := f.page(t, id, n); p.Step != "done" || p.Engine != EngineTextLayer || len(p.Order) == 0 {
			t.Errorf("page %d: step %q engine %q order %v", n, p.Step, p.Engine, p.Order)
		}
	}
	if _, err := ingest.Job(t.Context(), json.RawMessage(`{"source_key":`), rep); err == nil {
		t.Error("a malformed job payload ran")
	}
	if _, err := NewIngest([]byte(`{"StartAt":`), f.steps); err == nil {
		t.Error("NewIngest accepted a broken definition")
	}
}

// streamingBlobs reads objects as S3 does: a stream that cannot seek.
type streamingBlobs struct{ blob.Store }

func (b streamingBlobs) Get(ctx context.Context, key string) (io.ReadCloser, blob.Info, error) {
	rc, info, err := b.Store.Get(ctx, key)
	if err != nil {
		return nil, info, err
	}
	return struct {
		io.Reader
		io.Closer
	}{rc, rc}, info, nil
}

// Prepare reads an upload it cannot seek (S3's) from a copy on disk, cuts
// the same pages as from the store's own file, and removes the copy; one
// over the size limit is refused by its size, as the upload would have been.
func TestPrepareReadsAStreamedUploadFromACopyOnDisk(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	f := newStepsFixture(t)
	ctx := t.Context()
	seekable := f.upload(t, harbourPDF())
	if _, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(seekable)}); err != nil {
		t.Fatal(err)
	}
	f.steps.Pages.Sources = streamingBlobs{f.blobs}
	streamed := f.upload(t, harbourPDF())
	prep, err := f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(streamed)})
	if err != nil || prep.PageCount != 2 {
		t.Fatalf("prepare of a streamed upload = %+v, %v", prep, err)
	}
	for _, id := range []string{seekable, streamed} {
		if split, err := f.repo.Split(ctx, id); err != nil || split.Pages != 2 || len(split.Whole) != 0 {
			t.Errorf("split of %s = %+v, %v; want both pages cut", id, split, err)
		}
	}
	for n := 1; n <= 2; n++ {
		// pdfcpu stamps each page PDF with the time: the pages are compared
		// by what they hold.
		a, errA := f.steps.Pages.read(ctx, f.blobs, issues.PagePDFKey(seekable, n), 1<<20)
		b, errB := f.steps.Pages.read(ctx, f.blobs, issues.PagePDFKey(streamed, n), 1<<20)
		if errA != nil || errB != nil {
			t.Fatalf("page %d: %v, %v", n, errA, errB)
		}
		ta, errA := pdf.TextLayer(ctx, a, 1, pdf.DefaultLimits())
		tb, errB := pdf.TextLayer(ctx, b, 1, pdf.DefaultLimits())
		if errA != nil || errB != nil || len(ta.Blocks) == 0 || !reflect.DeepEqual(ta, tb) {
			t.Errorf("page %d: text %+v (%v) cut from the file, %+v (%v) from the stream", n, ta, errA, tb, errB)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary folder: %v", left)
	}

	f.steps.Pages.Limits.MaxBytes = 1000
	big := f.upload(t, harbourPDF())
	_, err = f.steps.Prepare(ctx, PrepareInput{SourceKey: issues.SourceKey(big)})
	var inv *pdf.InvalidInputError
	if !errors.As(err, &inv) || inv.Reason != pdf.ReasonTooLarge {
		t.Errorf("prepare over the size limit = %v, want too-large", err)
	}
}

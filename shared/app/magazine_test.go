package app

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/httpapi"
	"github.com/lectern/lectern/shared/httpapi/magazineapi"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
	"github.com/lectern/lectern/shared/store"
)

// newLocalApp runs the whole local app (bbolt, blob folder, job pool, the
// real ingest definition) behind a real HTTP server.
func newLocalApp(t *testing.T) *apiClient {
	t.Helper()
	c, _ := newLocalAppWith(t, (*Local).Operations)
	return c
}

// newLocalAppWith serves the operations that pick chooses from the local app.
func newLocalAppWith(t *testing.T, pick func(*Local) []httpapi.Operation) (*apiClient, *Local) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	local := openTestLocal(t, base, 2)
	srv.Config.Handler = LocalHandler(lectern.Version(), "", log, SiteParts{Blobs: local.BlobHandler, Static: fstest.MapFS{}}, pick(local)...)
	srv.Start()
	t.Cleanup(srv.Close)
	return &apiClient{t: t, base: base}, local
}

func (c *apiClient) upload(name string, data []byte, title string) (int, []byte) {
	c.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{`form-data; name="file"; filename="` + name + `"`}
	h["Content-Type"] = []string{"application/pdf"}
	part, err := w.CreatePart(h)
	if err == nil {
		_, err = part.Write(data)
	}
	if err == nil && title != "" {
		err = w.WriteField("title", title)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		c.t.Fatal(err)
	}
	status, _, b := c.do(http.MethodPost, "/api/magazine", body.Bytes(), "Content-Type", w.FormDataContentType())
	return status, b
}

// waitReady polls the issue with If-None-Match, as the web app does.
// ingestReady uploads a PDF and waits until its issue is ready; it answers
// the issue's id.
func (c *apiClient) ingestReady(name string, pdf []byte) string {
	c.t.Helper()
	status, b := c.upload(name, pdf, "")
	if status != http.StatusAccepted {
		c.t.Fatalf("upload = %d %s", status, b)
	}
	id := decode[magazine.Issue](c.t, b).ID
	if v := c.waitReady(id); v.Status != magazine.IssueReady {
		c.t.Fatalf("ingest: %+v", v.Issue)
	}
	return id
}

func (c *apiClient) waitReady(id string) magazineapi.IssueView {
	c.t.Helper()
	etag := ""
	var view magazineapi.IssueView
	unchanged := 0
	for deadline := time.Now().Add(slowBound); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		status, h, b := c.do(http.MethodGet, "/api/magazine/"+id, nil, "If-None-Match", etag)
		switch status {
		case http.StatusNotModified:
			unchanged++
			continue
		case http.StatusOK:
		default:
			c.t.Fatalf("GET issue: %d %s", status, b)
		}
		view = decode[magazineapi.IssueView](c.t, b)
		etag = h.Get("ETag")
		if view.Status == magazine.IssueReady || view.Status == magazine.IssueFailed {
			status, _, _ := c.do(http.MethodGet, "/api/magazine/"+id, nil, "If-None-Match", etag)
			if status != http.StatusNotModified {
				c.t.Errorf("polling a finished issue with its ETag = %d, want 304", status)
			}
			return view
		}
	}
	c.t.Fatalf("issue %s not finished: %+v", id, view)
	return view
}

func samplePDF() []byte {
	d := &pdftest.Doc{}
	photo := image.NewRGBA(image.Rect(0, 0, 60, 40))
	for i := range photo.Pix {
		photo.Pix[i] = uint8(40 + i%90)
	}
	words := []string{"boats", "nets", "gulls", "tides", "ropes", "sails"}
	heads := []string{"", "Harbour Reborn", "Storm Season Ahead", "The Lighthouse Keepers"}
	authors := []string{"", "By Ada Lovelace", "By Mary Somerville", "By Caroline Herschel"}
	captions := []string{"", "Figure 1 The rebuilt pier at dawn", "Figure 2 Waves over the wall", "Figure 3 The lamp room"}
	for n := 1; n <= 3; n++ {
		p := d.AddPage(612, 792)
		num := string(rune('0' + n))
		p.Text(72, 30, 8, false, "THE HARBOUR GAZETTE")
		p.Text(72, 60, 26, true, heads[n])
		p.Text(72, 100, 10, false, authors[n])
		for i := range 8 {
			w := words[(i+n)%len(words)]
			p.Text(72, 130+float64(i)*12, 10, false, "Left column "+num+" on the "+w+" of the bay, line "+string(rune('a'+i)))
			p.Text(330, 130+float64(i)*12, 10, false, "Right column "+num+" on the "+w+" at the quay, line "+string(rune('a'+i)))
		}
		p.Image(72, 300, 240, 160, photo)
		p.Text(72, 470, 8, false, captions[n])
		p.Text(330, 300, 10, false, "A note "+num+" with <script>alert(1)</script> for the preview.")
		p.Text(300, 760, 9, false, "Page "+num)
	}
	return d.Bytes()
}

func TestMagazineIngestEndToEnd(t *testing.T) {
	c := newLocalApp(t)
	status, b := c.upload("harbour.pdf", samplePDF(), "")
	if status != http.StatusAccepted {
		t.Fatalf("upload = %d %s", status, b)
	}
	created := decode[magazine.Issue](t, b)
	if created.Title != "harbour" {
		t.Errorf("title from filename = %q", created.Title)
	}
	view := c.waitReady(created.ID)
	if view.Status != magazine.IssueReady || view.PageCount != 3 || view.PagesDone != 3 || len(view.PageErrors) != 0 {
		t.Fatalf("issue = %+v", view.Issue)
	}

	status, _, b = c.do(http.MethodGet, "/api/magazine/"+created.ID+"/pages/1", nil)
	if status != http.StatusOK {
		t.Fatalf("GET page: %d %s", status, b)
	}
	page := decode[magazineapi.PageView](t, b)
	if page.Engine != "text-layer" || page.Step != "done" {
		t.Errorf("page engine %q step %q", page.Engine, page.Step)
	}
	if len(page.Regions) == 0 {
		t.Fatal("page 1 has no regions")
	}
	kinds := map[string]magazine.Kind{}
	for _, r := range page.Regions {
		kinds[r.Text] = r.Kind
		if r.OriginalText != r.Text && r.CleanedFrom == nil {
			t.Errorf("region %s lost its original text: %q vs %q", r.ID, r.OriginalText, r.Text)
		}
	}
	for text, want := range map[string]magazine.Kind{
		"Harbour Reborn":                    magazine.KindHeadline,
		"By Ada Lovelace":                   magazine.KindByline,
		"THE HARBOUR GAZETTE":               magazine.KindFurniture,
		"Figure 1 The rebuilt pier at dawn": magazine.KindCaption,
		"Page 1":                            magazine.KindPageNumber,
	} {
		if kinds[text] != want {
			t.Errorf("%q is %q, want %q (all: %v)", text, kinds[text], want, kinds)
		}
	}
	// Reading order: headline before byline before the left column before the right.
	pos := map[string]int{}
	for i, id := range page.Order {
		for _, r := range page.Regions {
			if r.ID == id {
				pos[r.Text[:min(len(r.Text), 10)]] = i
			}
		}
	}
	if !(pos["Harbour Re"] < pos["By Ada Lov"] && pos["By Ada Lov"] < pos["Left colum"] && pos["Left colum"] < pos["Right colu"]) {
		t.Errorf("reading order = %v", pos)
	}

	// The picture region has an exact crop served through a short-lived URL.
	var picture *magazine.Region
	for i, r := range page.Regions {
		if magazine.IsVisual(r.Kind) {
			picture = &page.Regions[i]
		}
	}
	if picture == nil || picture.CropKey == "" {
		t.Fatalf("no cropped picture region in %+v", page.Regions)
	}
	render := fetchPNG(t, c, "/api/magazine/"+created.ID+"/pages/1/image")
	crop := fetchPNG(t, c, "/api/magazine/"+created.ID+"/pages/1/crops/"+picture.ID)
	rect := magazine.PixelRect(picture.BBox, float64(page.DPI)/72, render.Bounds())
	if rect.Empty() || crop.Bounds().Dx() != rect.Dx() || crop.Bounds().Dy() != rect.Dy() {
		t.Fatalf("crop %v, box %v", crop.Bounds(), rect)
	}
	for y := 0; y < rect.Dy(); y += 7 {
		for x := 0; x < rect.Dx(); x += 7 {
			if color.RGBAModel.Convert(crop.At(x, y)) != color.RGBAModel.Convert(render.At(rect.Min.X+x, rect.Min.Y+y)) {
				t.Fatalf("crop pixel %d,%d differs from the render", x, y)
			}
		}
	}
	thumb := fetchPNG(t, c, "/api/magazine/"+created.ID+"/pages/1/thumbnail")
	if thumb.Bounds().Dx() != 200 {
		t.Errorf("thumbnail width %d", thumb.Bounds().Dx())
	}

	// The preview is escaped and polled with ETags.
	status, h, b := c.do(http.MethodGet, "/api/magazine/"+created.ID+"/pages/1/preview", nil)
	if status != http.StatusOK {
		t.Fatalf("preview: %d %s", status, b)
	}
	preview := decode[struct{ HTML string }](t, b)
	if strings.Contains(preview.HTML, "<script>") || !strings.Contains(preview.HTML, "&lt;script&gt;") {
		t.Errorf("preview not escaped: %s", preview.HTML)
	}
	if status, _, _ := c.do(http.MethodGet, "/api/magazine/"+created.ID+"/pages/1/preview", nil, "If-None-Match", h.Get("ETag")); status != http.StatusNotModified {
		t.Errorf("preview with its ETag = %d, want 304", status)
	}

	// Figures can be re-derived without OCR; a second pass changes nothing.
	// It runs as a job, reporting page by page.
	refined := c.waitJob(c.startJob("/api/magazine/"+created.ID+"/figures/refine", ""))
	if refined.Status != jobs.StatusSucceeded || !strings.Contains(string(refined.Result), `"pages_changed":0`) || refined.Progress != 1 {
		t.Errorf("refine job = %+v (result %s)", refined, refined.Result)
	}
	status, _, b = c.do(http.MethodPost, "/api/magazine/nosuchissue1/figures/refine", nil)
	if status != http.StatusNotFound || !strings.Contains(string(b), `"detail"`) {
		t.Errorf("refine of an unknown issue = %d %s, want 404 with a problem", status, b)
	}
	status, _, b = c.do(http.MethodGet, "/api/magazine", nil)
	if status != http.StatusOK || !strings.Contains(string(b), created.ID) {
		t.Errorf("list = %d %s", status, b)
	}
}

func fetchPNG(t *testing.T, c *apiClient, path string) image.Image {
	t.Helper()
	resp, err := http.Get(c.base + path) // follows the redirect to the signed blob URL
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, err := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %d %s %v", path, resp.StatusCode, b, err)
	}
	img, err := png.Decode(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return img
}

// assertNothingKept fails if the local app holds any issue record or any
// stored file (upload, render, crop).
func assertNothingKept(t *testing.T, c *apiClient, local *Local, after string) {
	t.Helper()
	ctx := context.Background()
	if status, _, b := c.do(http.MethodGet, "/api/magazine", nil); status != http.StatusOK || !strings.Contains(string(b), `"issues":[]`) {
		t.Errorf("%s: the issue list is %d %s", after, status, b)
	}
	index, err := local.Table.Query(ctx, store.Query{PK: "ISSUES"})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range index.Items {
		t.Errorf("%s: the table keeps issue %s", after, it.SK)
		if rest, err := local.Table.Query(ctx, store.Query{PK: issues.PK(it.SK)}); err == nil && len(rest.Items) > 0 {
			t.Errorf("%s: issue %s keeps %d records", after, it.SK, len(rest.Items))
		}
	}
	stores := []blob.Store{local.Blobs}
	if local.Uploads != local.Blobs {
		stores = append(stores, local.Uploads)
	}
	for _, st := range stores {
		files, err := st.List(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			t.Errorf("%s: the blob store keeps %s (%d bytes)", after, f.Key, f.Size)
		}
	}
}

func TestMagazineBadUploadsAreRefusedAndNothingIsKept(t *testing.T) {
	c, local := newLocalAppWith(t, (*Local).Operations)
	good := samplePDF()
	enc := &pdftest.Doc{Encrypted: true}
	enc.AddPage(612, 792).Text(72, 72, 12, false, "secret")
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"not a PDF", []byte("just some text, no PDF here"), "not-a-pdf"},
		{"corrupt", good[:len(good)/3], "corrupt"},
		{"encrypted", enc.Bytes(), "encrypted"},
		{"no pages", (&pdftest.Doc{}).Bytes(), "no-pages"},
	} {
		status, b := c.upload("bad.pdf", tc.data, "")
		if status != http.StatusUnprocessableEntity || !strings.Contains(string(b), tc.want) || !strings.Contains(string(b), `"detail"`) {
			t.Errorf("%s: %d %s", tc.name, status, b)
		}
		assertNothingKept(t, c, local, "after the refused "+tc.name+" upload")
	}
}

func TestMagazineBrokenPageFailsAloneOthersFinish(t *testing.T) {
	c := newLocalApp(t)
	d := &pdftest.Doc{}
	d.AddPage(612, 792).Text(72, 72, 12, false, "A perfectly good first page with some words on it.")
	d.AddPage(612, 792).BrokenContent = true
	d.AddPage(612, 792).Bomb(40000)
	d.AddPage(612, 792).Text(72, 72, 12, false, "A perfectly good last page with some words on it.")
	status, b := c.upload("hostile.pdf", d.Bytes(), "Hostile")
	if status != http.StatusAccepted {
		t.Fatalf("upload = %d %s", status, b)
	}
	view := c.waitReady(decode[magazine.Issue](t, b).ID)
	if view.Status != magazine.IssueReady || view.PagesDone != 2 || len(view.PageErrors) != 2 {
		t.Fatalf("issue = %+v", view.Issue)
	}
	for i, want := range map[int]string{0: "broken-page", 1: "image-over-budget"} {
		pe := view.PageErrors[i]
		if pe.Page != i+2 || pe.Step != "Render" || !strings.Contains(pe.Error, want) {
			t.Errorf("page error %d = %+v, want page %d %s", i, pe, i+2, want)
		}
	}
	if len(view.Pages) != 4 {
		t.Fatalf("issue lists %d page steps, want 4", len(view.Pages))
	}
	for _, s := range view.Pages {
		wantFailed := s.Page == 2 || s.Page == 3
		if (s.Step == "failed") != wantFailed || !s.Done {
			t.Errorf("page %d step %q done %v", s.Page, s.Step, s.Done)
		}
	}
}

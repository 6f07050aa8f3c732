package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/lectern/lectern/shared/blob"
	"github.com/lectern/lectern/shared/engines/tesseract"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/magazine/lexicon"
	"github.com/lectern/lectern/shared/pdf"
	"golang.org/x/sync/semaphore"
)

// Pages is the page media that ingest and review share: the uploaded PDF
// and the pages cut out of it, its renders and thumbnails (with a cache of
// decoded renders), picture crops and reading an area again.
type Pages struct {
	Blobs   blob.Store // page PDFs, renders, thumbnails, crops
	Sources blob.Store // uploaded PDFs
	// Splits says which pages Prepare stored as PDFs of their own; nil
	// reads every page from the uploaded PDF.
	Splits SplitRecords
	Limits pdf.Limits
	DPI    int
	// OCR builds the chain for a page from the current settings; nil means
	// text layer and Tesseract only.
	OCR func(ctx context.Context) (OCRChain, error)

	// TextWithRender has Draw read each page's text layer in the pass that
	// renders it and keep it for Recognize: locally Recognize runs next in
	// the same process, so the page is loaded and its fonts read once. In
	// AWS each step is a Lambda of its own, and Draw renders only.
	TextWithRender bool
	// LendRenders has Draw lend each render to the page's later steps in
	// this process (FindPictures, the figure pass) and draw later pages
	// into its pixels once Refine is done with it (drawnRenders). In AWS
	// those steps are Lambdas of their own, and a render kept would only
	// hold the Render Lambda's memory.
	LendRenders bool
	// RenderMemory bounds the pixels of the renders being drawn and worked
	// on at once, across every ingest and review edit in the process: a
	// page waits for room rather than take the process past it. 0 means
	// DefaultRenderMemory.
	RenderMemory int64

	renders recent[image.Image]       // decoded from stored PNGs
	drawn   drawnRenders              // drawn by Draw, until Refine
	texts   recent[magazine.TextPage] // by issue and page; deep copies out
	words   lexicon.Lazy              // loaded the first time a text layer is judged

	inflightOnce sync.Once
	inflight     *semaphore.Weighted
	inflightCap  int64
}

// DefaultRenderMemory lets about eighteen letter-size pages at 150 DPI (four
// at Tesseract's 300) be drawn at once.
const DefaultRenderMemory = 256 << 20

// renderBytes is what drawing a page at dpi holds at its peak: the RGBA
// image MuPDF draws into (4 bytes a pixel) and its PNG (at worst the 3
// bytes of RGB it does not compress). The pixel box is MuPDF's
// (fz_round_rect): a page of 612 points at 150 DPI is 1275 pixels wide, not
// 1276. A page of unknown size counts as US Letter.
func renderBytes(page magazine.Page, dpi int) int64 {
	w, h := page.Width, page.Height
	if w <= 0 || h <= 0 {
		w, h = 612, 792
	}
	scale := float64(dpi) / 72
	px := func(points float64) int64 { return int64(math.Ceil(points*scale - 0.001)) }
	return px(w) * px(h) * (4 + 3)
}

// reserve waits until n more bytes of renders fit in RenderMemory (a render
// bigger than all of it waits for it all) and returns what gives them back.
func (m *Pages) reserve(ctx context.Context, n int64) (release func(), err error) {
	m.inflightOnce.Do(func() {
		m.inflightCap = m.RenderMemory
		if m.inflightCap <= 0 {
			m.inflightCap = DefaultRenderMemory
		}
		m.inflight = semaphore.NewWeighted(m.inflightCap)
	})
	n = min(max(n, 1), m.inflightCap)
	if err := m.inflight.Acquire(ctx, n); err != nil {
		return nil, err
	}
	return sync.OnceFunc(func() { m.inflight.Release(n) }), nil
}

// Source reads an issue's uploaded PDF.
func (m *Pages) Source(ctx context.Context, id string) ([]byte, error) {
	return m.read(ctx, m.Sources, issues.SourceKey(id), m.Limits.MaxBytes)
}

// sourceFile is an issue's uploaded PDF open for reading where it lies: the
// local store's file itself, or (from S3) a temporary copy on disk, so a
// long issue is read as it is needed rather than held in memory whole.
type sourceFile struct {
	io.ReadSeeker
	size  int64
	close func()
}

// openSource opens an issue's uploaded PDF (sourceFile); Close it when done.
func (m *Pages) openSource(ctx context.Context, id string) (*sourceFile, error) {
	rc, info, err := m.get(ctx, m.Sources, issues.SourceKey(id))
	if err != nil {
		return nil, err
	}
	if err := pdf.CheckSize(info.Size, m.Limits); err != nil {
		rc.Close()
		return nil, err
	}
	file, size, done, err := blob.Seekable(rc, m.Limits.MaxBytes)
	if err != nil {
		rc.Close()
		if errors.Is(err, blob.ErrTooLarge) {
			return nil, pdf.TooLarge(-1, m.Limits)
		}
		return nil, transient(err)
	}
	if any(file) != any(rc) {
		rc.Close() // copied: the stream is done with
		return &sourceFile{ReadSeeker: file, size: size, close: done}, nil
	}
	// The store's own file is read where it lies, and stays open until Close.
	return &sourceFile{ReadSeeker: file, size: size, close: func() { rc.Close() }}, nil
}

// Close lets go of the file (and removes a temporary copy).
func (f *sourceFile) Close() { f.close() }

// Draw renders a page of an issue at the configured DPI, or lower when a
// huge page would be over the pixel budget (pdf.FitDPI), and stores the PNG
// and its thumbnail under the page's keys. It returns the DPI used.
func (m *Pages) Draw(ctx context.Context, page magazine.Page) (int, error) {
	pdfs, err := m.openPDFs(ctx, page.IssueID)
	if err != nil {
		return 0, err
	}
	dpi := pdf.FitDPI(page.Width, page.Height, m.dpi(), m.Limits.MaxRenderPixels)
	img, release, err := pdfs.draw(ctx, page, dpi, m.TextWithRender, m.drawn.pixels)
	if err != nil {
		return 0, err
	}
	defer release()
	full, err := pdf.EncodePNG(img)
	if err != nil {
		return 0, err
	}
	thumb, err := pdf.EncodePNG(pdf.Thumbnail(img, ThumbWidth))
	if err != nil {
		return 0, err
	}
	key := issues.RenderKey(page.IssueID, page.Number)
	if err := m.put(ctx, key, full); err != nil {
		return 0, err
	}
	// The figure pass reads this render next; keeping the pixels spares it
	// decoding the PNG (lossless, and an opaque RGBA decodes to the same
	// *image.RGBA).
	if m.LendRenders {
		m.drawn.put(key, img)
	}
	return dpi, m.put(ctx, issues.ThumbKey(page.IssueID, page.Number), thumb)
}

// Refine runs the figure pass on a page and cuts each picture's crop from the
// render's own pixels. It is the ingest's last reader of the render Draw
// lent, so it retires it (its pixels go to a later page) and the cache lets
// go of any decoded copy.
func (m *Pages) Refine(ctx context.Context, page magazine.Page) (magazine.Page, error) {
	defer m.renders.drop(page.RenderKey)
	defer m.drawn.retire(page.RenderKey)
	scale := float64(page.DPI) / 72
	if page.RenderKey != "" && !slices.ContainsFunc(page.Regions, func(r magazine.Region) bool { return magazine.IsVisual(r.Kind) }) {
		// No picture to refine or crop: RefineFigures only copies the
		// regions, so the render is not read or decoded.
		page.Regions, _ = magazine.RefineFigures(nil, scale, page.Regions)
		return page, nil
	}
	img, done, err := m.renderImage(ctx, page)
	if err != nil {
		return page, err
	}
	defer done()
	page.Regions, _ = magazine.RefineFigures(img, scale, page.Regions)
	for i, r := range page.Regions {
		if !magazine.IsVisual(r.Kind) {
			continue
		}
		key, err := m.cut(ctx, img, page, r, 0)
		var off *StepError
		if errors.As(err, &off) {
			continue // a box outside the page has nothing to crop
		}
		if err != nil {
			return page, err
		}
		page.Regions[i].CropKey = key
	}
	return page, nil
}

// RefineBoxes runs the figure pass on a page and cuts no crops: a review
// change cuts them under its own revision once it is sure to be stored.
func (m *Pages) RefineBoxes(ctx context.Context, page magazine.Page) ([]magazine.Region, error) {
	img, done, err := m.renderImage(ctx, page)
	if err != nil {
		return nil, err
	}
	defer done()
	regions, _ := magazine.RefineFigures(img, float64(page.DPI)/72, page.Regions)
	return regions, nil
}

// FindPictures finds the pictures of a scanned page on its render, around
// the given text boxes (magazine.FindPictures), as image regions p1..pN.
func (m *Pages) FindPictures(ctx context.Context, page magazine.Page, text []magazine.BBox) ([]magazine.Region, error) {
	img, done, err := m.renderImage(ctx, page)
	if err != nil {
		return nil, err
	}
	defer done()
	out := []magazine.Region{}
	for i, b := range magazine.FindPictures(img, float64(page.DPI)/72, text) {
		out = append(out, magazine.Region{ID: fmt.Sprintf("p%d", i+1), Kind: magazine.KindImage, BBox: b})
	}
	return out, nil
}

// Crop stores the render's exact pixels at the region's box. The key carries
// the issue revision, so an undo that restores an older box also restores
// the crop that was cut for it.
func (m *Pages) Crop(ctx context.Context, page magazine.Page, r magazine.Region, rev int64) (string, error) {
	img, done, err := m.renderImage(ctx, page)
	if err != nil {
		return "", err
	}
	defer done()
	return m.cut(ctx, img, page, r, rev)
}

// maxCropBytes bounds a crop read back: a whole page render at the
// highest DPI the pixel budget allows stays well under it.
const maxCropBytes = 64 << 20

// ReadCrop reads a picture's stored crop, as Crop cut it (a PNG).
func (m *Pages) ReadCrop(ctx context.Context, key string) ([]byte, error) {
	return m.read(ctx, m.Blobs, key, maxCropBytes)
}

func (m *Pages) cut(ctx context.Context, img image.Image, page magazine.Page, r magazine.Region, rev int64) (string, error) {
	crop, err := magazine.CropView(img, magazine.PixelRect(r.BBox, float64(page.DPI)/72, img.Bounds()))
	if err != nil {
		return "", &StepError{Reason: "bad-box", Page: page.Number, Detail: err.Error()}
	}
	b, err := pdf.EncodePNG(crop)
	if err != nil {
		return "", err
	}
	key := issues.CropKey(page.IssueID, page.Number, r.ID, rev)
	return key, m.put(ctx, key, b)
}

// ReadArea reads the text inside a box of a page: the PDF's own text layer
// when it has text there, else the OCR chain on the area rendered at
// TesseractDPI. "" means nothing readable.
func (m *Pages) ReadArea(ctx context.Context, page magazine.Page, box magazine.BBox) (string, error) {
	pdfs, err := m.openPDFs(ctx, page.IssueID)
	if err != nil {
		return "", err
	}
	tp, err := pdfs.text(ctx, page.Number)
	if err != nil {
		return "", err
	}
	if text, ok := textInside(tp.Blocks, box); ok {
		return text, nil
	}
	chain, err := m.chain(ctx)
	if err != nil {
		return "", err
	}
	img, ok, err := m.areaImage(ctx, pdfs, page, box)
	if err != nil || !ok {
		return "", err // a box outside the page has nothing to read
	}
	rec, err := chain.Recognize(ctx, areaInput(box, img))
	if err != nil {
		return "", nil // no engine could read it: nothing readable
	}
	return regionsText(rec.Regions), nil
}

// textInside joins, top to bottom, the text-layer blocks whose centre lies
// in box; false when there is none.
func textInside(blocks []magazine.TextBlock, box magazine.BBox) (string, bool) {
	var inside []magazine.TextBlock
	for _, b := range blocks {
		cx, cy := b.BBox[0]+b.BBox[2]/2, b.BBox[1]+b.BBox[3]/2
		if cx >= box[0] && cx <= box[0]+box[2] && cy >= box[1] && cy <= box[1]+box[3] {
			inside = append(inside, b)
		}
	}
	if len(inside) == 0 {
		return "", false
	}
	sort.SliceStable(inside, func(i, j int) bool { return inside[i].BBox[1] < inside[j].BBox[1] })
	parts := make([]string, len(inside))
	for i, b := range inside {
		parts[i] = b.Text
	}
	return strings.Join(parts, " "), true
}

// areaImage is a box of the page rendered at the page's OCR DPI; false when
// the box lies outside the page.
func (m *Pages) areaImage(ctx context.Context, pdfs *pagePDFs, page magazine.Page, box magazine.BBox) (PageImage, bool, error) {
	dpi := m.ocrDPI(page)
	full, release, err := pdfs.render(ctx, page, dpi)
	if err != nil {
		return PageImage{}, false, err
	}
	defer release()
	crop, err := magazine.CropView(full, magazine.PixelRect(box, float64(dpi)/72, full.Bounds()))
	if err != nil {
		return PageImage{}, false, nil
	}
	b, err := pdf.EncodePNG(crop)
	if err != nil {
		return PageImage{}, false, err
	}
	return PageImage{PNG: b, Width: crop.Bounds().Dx(), Height: crop.Bounds().Dy(), DPI: dpi}, true, nil
}

// areaInput gives the OCR chain an area as if it were a page of its own:
// the same image for vision engines and for Tesseract.
func areaInput(box magazine.BBox, img PageImage) PageInput {
	return PageInput{
		Width: box[2], Height: box[3], Render: img,
		HighRes: func(context.Context) (PageImage, error) { return img, nil },
	}
}

// regionsText joins the non-empty texts of regions read from an area.
func regionsText(regions []magazine.Region) string {
	var parts []string
	for _, r := range regions {
		if t := strings.TrimSpace(r.Text); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// chain is the OCR chain for this page from the current settings.
func (m *Pages) chain(ctx context.Context) (OCRChain, error) {
	if m.OCR == nil {
		return OCRChain{Tesseract: tesseract.Engine{}}, nil
	}
	return m.OCR(ctx)
}

// Render reads a page's stored render.
func (m *Pages) Render(ctx context.Context, page magazine.Page) (PageImage, error) {
	if page.RenderKey == "" {
		return PageImage{}, &StepError{Reason: "not-rendered", Page: page.Number, Detail: "the page has no render"}
	}
	b, err := m.read(ctx, m.Blobs, page.RenderKey, 256<<20)
	if err != nil {
		return PageImage{}, err
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return PageImage{}, fmt.Errorf("page %d render: %w", page.Number, err)
	}
	return PageImage{PNG: b, Width: cfg.Width, Height: cfg.Height, DPI: page.DPI}, nil
}

// Blank reports whether the page's render has no ink (magazine.Blank).
func (m *Pages) Blank(ctx context.Context, page magazine.Page) (bool, error) {
	img, done, err := m.renderImage(ctx, page)
	if err != nil {
		return false, err
	}
	defer done()
	return magazine.Blank(img), nil
}

// renderImage is the page's render: the one Draw made, while the ingest
// still has it, else the stored PNG decoded (from the cache when it is
// there). done gives it back; the pixels must not be used after it.
func (m *Pages) renderImage(ctx context.Context, page magazine.Page) (img image.Image, done func(), err error) {
	if img, done, ok := m.drawn.borrow(page.RenderKey); ok {
		return img, done, nil
	}
	if img, ok := m.renders.get(page.RenderKey); ok {
		return img, func() {}, nil
	}
	pi, err := m.Render(ctx, page)
	if err != nil {
		return nil, nil, err
	}
	decoded, err := png.Decode(bytes.NewReader(pi.PNG))
	if err != nil {
		return nil, nil, err
	}
	m.renders.put(page.RenderKey, decoded, renderCacheSize)
	return decoded, func() {}, nil
}

// get opens an object; a missing one is a bad input (the upload or page
// the step was given is not there), any other failure transient.
func (m *Pages) get(ctx context.Context, store blob.Store, key string) (io.ReadCloser, blob.Info, error) {
	rc, info, err := store.Get(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, info, &StepError{Reason: "missing-upload", Detail: fmt.Sprintf("%s is not in the blob store", key)}
	}
	if err != nil {
		return nil, info, transient(err)
	}
	return rc, info, nil
}

func (m *Pages) read(ctx context.Context, store blob.Store, key string, limit int64) ([]byte, error) {
	rc, info, err := m.get(ctx, store, key)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	if limit > 0 && info.Size > limit {
		return nil, &StepError{Reason: string(pdf.ReasonTooLarge), Detail: fmt.Sprintf("%s is %d bytes; the limit is %d", key, info.Size, limit)}
	}
	data, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, transient(err)
	}
	return data, nil
}

func (m *Pages) put(ctx context.Context, key string, data []byte) error {
	if err := m.Blobs.Put(ctx, key, bytes.NewReader(data), "image/png"); err != nil {
		return transient(err)
	}
	return nil
}

// ocrDPI is the resolution a page is rendered at for OCR: TesseractDPI, or
// the finest the pixel budget allows for a huge scan.
func (m *Pages) ocrDPI(page magazine.Page) int {
	return pdf.FitDPI(page.Width, page.Height, TesseractDPI, m.Limits.MaxRenderPixels)
}

func (m *Pages) dpi() int {
	if m.DPI > 0 {
		return m.DPI
	}
	return DefaultDPI
}

// recent keeps the last few values under their keys, most recent last.
// Renders: review edits crop the same page again and again, and a render
// never changes under its key.
// Text layers: Recognize reads each page's neighbours too, and a page's PDF
// never changes within an issue.
type recent[T any] struct {
	mu      sync.Mutex
	entries []recentEntry[T]
}

type recentEntry[T any] struct {
	key string
	val T
}

// renderCacheSize is how many decoded renders stay (about 8 MiB each at 150
// DPI); textCacheSize how many text layers (a text page is tens of KiB), enough
// for the windows of the pages the Map runs at once.
const (
	renderCacheSize = 4
	textCacheSize   = 24
)

func (c *recent[T]) get(key string) (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == key {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			return e.val, true
		}
	}
	var zero T
	return zero, false
}

// drop forgets key's value, if it is there.
func (c *recent[T]) drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = slices.DeleteFunc(c.entries, func(e recentEntry[T]) bool { return e.key == key })
}

func (c *recent[T]) put(key string, val T, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// A value stored again replaces its entry, so get never finds the old one.
	c.entries = slices.DeleteFunc(c.entries, func(e recentEntry[T]) bool { return e.key == key })
	c.entries = append(c.entries, recentEntry[T]{key, val})
	if len(c.entries) > size {
		c.entries = c.entries[len(c.entries)-size:]
	}
}

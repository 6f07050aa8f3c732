package pdf

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/pdf/pdftest"
)

func build(f func(d *pdftest.Doc)) []byte {
	d := &pdftest.Doc{}
	f(d)
	return d.Bytes()
}

func article(d *pdftest.Doc) {
	p := d.AddPage(612, 792)
	p.Text(72, 60, 28, true, "The Harbour Reborn")
	p.Text(72, 110, 10, false, "By Ada Lovelace")
	p.Text(72, 140, 10, false, "The old harbour has been rebuilt with new-")
	p.Text(72, 152, 10, false, "found purpose and a great deal of care.")
	p.Rect(330, 140, 200, 150, 0.3)
	p.Text(330, 300, 8, false, "Figure 1 The rebuilt pier")
}

func TestInspect(t *testing.T) {
	lim := DefaultLimits()
	good := build(func(d *pdftest.Doc) { article(d); d.AddPage(300, 400) })
	tests := []struct {
		name   string
		data   []byte
		lim    Limits
		reason Reason
	}{
		{"a text file is not a PDF", []byte("hello, this is plain text and no PDF at all"), lim, ReasonNotPDF},
		{"an empty file is not a PDF", nil, lim, ReasonNotPDF},
		{"a truncated PDF is corrupt", good[:len(good)/2], lim, ReasonCorrupt},
		{"an encrypted PDF is refused", build(func(d *pdftest.Doc) { d.Encrypted = true; article(d) }), lim, ReasonEncrypted},
		{"a PDF without pages is refused", build(func(d *pdftest.Doc) {}), lim, ReasonNoPages},
		{"more pages than the limit are refused", good, Limits{MaxBytes: lim.MaxBytes, MaxPages: 1}, ReasonTooManyPages},
		{"a file over the size limit is refused", good, Limits{MaxBytes: 100, MaxPages: 10}, ReasonTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Inspect(tc.data, tc.lim)
			var inv *InvalidInputError
			if !errors.As(err, &inv) || inv.Reason != tc.reason {
				t.Fatalf("Inspect = %v, want reason %s", err, tc.reason)
			}
			if inv.Detail == "" {
				t.Error("the error gives no detail")
			}
		})
	}
	t.Run("a valid PDF gives its page boxes", func(t *testing.T) {
		info, err := Inspect(good, lim)
		if err != nil {
			t.Fatal(err)
		}
		if len(info.Pages) != 2 || info.Pages[0] != (PageBox{612, 792}) || info.Pages[1] != (PageBox{300, 400}) {
			t.Fatalf("pages = %+v", info.Pages)
		}
	})
}

func TestRender(t *testing.T) {
	data := build(article)
	img, err := Render(context.Background(), data, 1, 150, DefaultLimits(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 1275 || img.Bounds().Dy() != 1650 {
		t.Fatalf("150 DPI letter page = %v, want 1275×1650", img.Bounds())
	}
	// The grey box drawn at (330,140) points is at (687.5,291.7) pixels.
	inside := img.RGBAAt(700+100, 300+100)
	if inside.R > 100 || inside.R < 60 {
		t.Errorf("pixel inside the grey box = %v, want about 77", inside)
	}
	if c := img.RGBAAt(20, 20); c != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("margin pixel = %v, want white", c)
	}
	thumb := Thumbnail(img, 200)
	if thumb.Bounds().Dx() != 200 || thumb.Bounds().Dy() != 258 {
		t.Errorf("thumbnail = %v, want 200×258", thumb.Bounds())
	}
	png, err := EncodePNG(thumb)
	if err != nil || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Errorf("EncodePNG = %d bytes, %v", len(png), err)
	}
}

// One pass for both gives what a render and a text layer apart give.
func TestRenderWithTextIsRenderAndTextLayer(t *testing.T) {
	data := build(article)
	lim := DefaultLimits()
	drawn, err := RenderWithText(t.Context(), data, 1, 150, lim, nil)
	if err != nil || drawn.TextErr != nil {
		t.Fatalf("RenderWithText: %v, text: %v", err, drawn.TextErr)
	}
	img, err := Render(t.Context(), data, 1, 150, lim, nil)
	if err != nil {
		t.Fatal(err)
	}
	if drawn.Image.Rect != img.Rect || !bytes.Equal(drawn.Image.Pix, img.Pix) {
		t.Error("the render differs from Render's")
	}
	tp, err := TextLayer(t.Context(), data, 1, lim)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(drawn.Text, tp) || len(tp.Blocks) == 0 {
		t.Errorf("text layer = %+v\nwant TextLayer's %+v", drawn.Text, tp)
	}
	// A page over the render budget is refused whole, as Render refuses it.
	lim.MaxRenderPixels = 1000
	if _, err := RenderWithText(t.Context(), data, 1, 150, lim, nil); err == nil {
		t.Error("a render over the pixel budget was drawn")
	}
}

func TestTextLayer(t *testing.T) {
	tp, err := TextLayer(context.Background(), build(article), 1, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	if tp.Width != 612 || tp.Height != 792 || Alphanumerics(tp) < MinRealTextChars {
		t.Fatalf("page %vx%v letters and digits %d", tp.Width, tp.Height, Alphanumerics(tp))
	}
	want := []struct {
		text string
		size float64
		bold bool
	}{
		{"The Harbour Reborn", 28, true},
		{"By Ada Lovelace", 10, false},
		{"The old harbour has been rebuilt with newfound purpose and a great deal of care.", 10, false},
		{"Figure 1 The rebuilt pier", 8, false},
	}
	if len(tp.Blocks) != len(want) {
		t.Fatalf("blocks = %+v", tp.Blocks)
	}
	for i, w := range want {
		b := tp.Blocks[i]
		if b.Text != w.text || b.FontSize != w.size || b.Bold != w.bold {
			t.Errorf("block %d = %q size %v bold %v, want %q %v %v", i, b.Text, b.FontSize, b.Bold, w.text, w.size, w.bold)
		}
	}
	// The headline's box starts where it was drawn and is as wide as the text.
	h := tp.Blocks[0].BBox
	if h[0] != 72 || h[2] < 200 || h[2] > 300 || h[1] < 50 || h[1] > 70 {
		t.Errorf("headline box = %v", h)
	}
	if tp.Blocks[2].LineCount != 2 {
		t.Errorf("paragraph lines = %d, want 2", tp.Blocks[2].LineCount)
	}

	t.Run("a run-in heading in italics is its own block", func(t *testing.T) {
		tp, err := TextLayer(context.Background(), build(func(d *pdftest.Doc) {
			d.AddPage(612, 792).Italic(72, 100, 10, "Elastic Stop Nut").
				Text(72, 112, 10, false, "The elastic stop nut is a standard nut with the height").
				Text(72, 124, 10, false, "increased to accommodate a fiber locking collar.")
		}), 1, DefaultLimits())
		if err != nil || len(tp.Blocks) != 2 || tp.Blocks[0].Text != "Elastic Stop Nut" || !tp.Blocks[0].Italic || tp.Blocks[1].Italic || tp.Blocks[1].LineCount != 2 {
			t.Fatalf("blocks = %+v, err %v", tp.Blocks, err)
		}
	})
	t.Run("a page with only a label is short of text", func(t *testing.T) {
		tp, err := TextLayer(context.Background(), build(func(d *pdftest.Doc) { d.AddPage(612, 792).Rect(10, 10, 100, 100, 0).Text(300, 300, 10, false, "p. 4") }), 1, DefaultLimits())
		if err != nil || Alphanumerics(tp) >= MinRealTextChars {
			t.Fatalf("letters and digits %d, err %v", Alphanumerics(tp), err)
		}
	})
	t.Run("picture boxes are reported", func(t *testing.T) {
		img := image.NewRGBA(image.Rect(0, 0, 20, 10))
		tp, err := TextLayer(context.Background(), build(func(d *pdftest.Doc) { d.AddPage(612, 792).Image(100, 200, 300, 150, img) }), 1, DefaultLimits())
		if err != nil || len(tp.Pictures) != 1 || tp.Pictures[0] != [4]float64{100, 200, 300, 150} {
			t.Fatalf("pictures = %v, err %v", tp.Pictures, err)
		}
	})
}

func TestHostilePages(t *testing.T) {
	lim := DefaultLimits()
	data := build(func(d *pdftest.Doc) {
		d.AddPage(612, 792).Text(72, 72, 12, false, "A perfectly good first page of text.")
		d.AddPage(612, 792).BrokenContent = true
		d.AddPage(612, 792).Bomb(40000)
		d.AddPage(612, 792).Text(72, 72, 12, false, "A perfectly good last page of text.")
		d.AddPage(14400, 14400) // 200 inches square: 900 million pixels at 150 DPI
	})
	if _, err := Inspect(data, lim); err != nil {
		t.Fatalf("the file as a whole is valid: %v", err)
	}
	tests := []struct {
		page   int
		reason Reason
	}{
		{2, ReasonBrokenPage},
		{3, ReasonImageBudget},
		{5, ReasonRenderBudget},
	}
	for _, tc := range tests {
		_, err := Render(context.Background(), data, tc.page, 150, lim, nil)
		var inv *InvalidInputError
		if !errors.As(err, &inv) || inv.Reason != tc.reason || inv.Page != tc.page {
			t.Errorf("page %d: Render = %v, want %s", tc.page, err, tc.reason)
		}
	}
	for _, page := range []int{1, 4} {
		if _, err := Render(context.Background(), data, page, 150, lim, nil); err != nil {
			t.Errorf("good page %d beside hostile ones: %v", page, err)
		}
		if tp, err := TextLayer(context.Background(), data, page, lim); err != nil || Alphanumerics(tp) < MinRealTextChars {
			t.Errorf("good page %d text: %v", page, err)
		}
	}
}

func TestContentBomb(t *testing.T) {
	// Drawing instructions that inflate past the limit are refused before
	// MuPDF or pdfcpu hold them in memory.
	big := strings.Repeat("0 0 m 1 1 l S\n", 200_000) // 2.8 MB of instructions
	d := &pdftest.Doc{}
	d.AddPage(612, 792).Raw(big)
	lim := DefaultLimits()
	lim.MaxContentBytes = 1 << 20
	_, err := Render(context.Background(), d.Bytes(), 1, 72, lim, nil)
	var inv *InvalidInputError
	if !errors.As(err, &inv) || inv.Reason != ReasonContentSize {
		t.Fatalf("Render = %v, want %s", err, ReasonContentSize)
	}
}

func TestTimeoutAbortsMuPDF(t *testing.T) {
	// Many thousand overlapping transparent shapes at high resolution keep
	// MuPDF busy far longer than the timeout allows.
	var ops strings.Builder
	for range 20000 {
		ops.WriteString("q /GS1 gs 0.5 g 0 0 612 792 re f Q\n")
	}
	d := &pdftest.Doc{}
	d.AddPage(612, 792).Raw(ops.String()).Transparent()
	lim := DefaultLimits()
	lim.PageTimeout = 100 * time.Millisecond
	start := time.Now()
	_, err := Render(context.Background(), d.Bytes(), 1, 300, lim, nil)
	elapsed := time.Since(start)
	var inv *InvalidInputError
	if !errors.As(err, &inv) || inv.Reason != ReasonTimeout {
		t.Fatalf("Render = %v after %v, want %s", err, elapsed, ReasonTimeout)
	}
	if elapsed > 5*time.Second {
		t.Errorf("MuPDF stopped only after %v", elapsed)
	}
}

func TestCallerCancellationIsNotAPageError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Render(ctx, build(article), 1, 150, DefaultLimits(), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Render with a cancelled context = %v, want context.Canceled", err)
	}
}

// A CJK font named but not embedded: the static MuPDF has no CJK font of
// its own, and without a stand-in the codes came out as Latin-1 mojibake.
func TestTextLayerDecodesUnembeddedCJKFont(t *testing.T) {
	var d pdftest.Doc
	d.AddPage(595, 842).Chinese(100, 100, 16, "关于浙江菲达环保科技股份有限公司").Text(100, 140, 10, false, "Hangzhou, China")
	tp, err := TextLayer(context.Background(), d.Bytes(), 1, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, b := range tp.Blocks {
		texts = append(texts, b.Text)
	}
	if !slices.Contains(texts, "关于浙江菲达环保科技股份有限公司") || !slices.Contains(texts, "Hangzhou, China") {
		t.Errorf("blocks %q, want the Chinese line decoded and the Latin line", texts)
	}
	// The page still renders (the stand-in font draws, or leaves blank).
	if _, err := Render(context.Background(), d.Bytes(), 1, 72, DefaultLimits(), nil); err != nil {
		t.Errorf("render: %v", err)
	}
}

// A part of a page drawn alone is that part of the whole page drawn at the
// same resolution, pixel for pixel, and costs only its own pixels.
func TestRenderAreaIsThatPartOfThePage(t *testing.T) {
	data := build(article)
	ctx := context.Background()
	part, err := RenderArea(ctx, data, 1, 300, [4]float64{320, 130, 100, 100}, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	// 320..420 × 130..230 points at 300 DPI: pixels 1333.3..1750 × 541.7..958.3, rounded out.
	if part.Bounds().Dx() != 417 || part.Bounds().Dy() != 418 {
		t.Fatalf("100×100 points at 300 DPI = %v, want 417×418", part.Bounds())
	}
	if c := part.RGBAAt(10, 10); c != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("left of the grey box = %v, want white", c)
	}
	if c := part.RGBAAt(200, 200); c.R > 100 || c.R < 60 {
		t.Errorf("inside the grey box = %v, want about 77", c)
	}
	whole, err := Render(ctx, data, 1, 300, DefaultLimits(), nil)
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for y := 0; y < 418; y++ {
		for x := 0; x < 417; x++ {
			if part.RGBAAt(x, y) != whole.RGBAAt(1333+x, 541+y) {
				differ++
			}
		}
	}
	if differ > 417*418/1000 {
		t.Errorf("%d of %d pixels differ from the whole page's", differ, 417*418)
	}
	// An area that reaches past the page is cut to it.
	edge, err := RenderArea(ctx, data, 1, 72, [4]float64{600, 780, 100, 100}, DefaultLimits())
	if err != nil || edge.Bounds().Dx() != 12 || edge.Bounds().Dy() != 12 {
		t.Errorf("area past the corner = %v, %v; want 12×12", edge.Bounds(), err)
	}
	// The render budget counts the area's pixels: a page too big to draw whole at 600 DPI is drawn in part.
	lim := DefaultLimits()
	lim.MaxRenderPixels = 1_000_000
	if _, err := RenderArea(ctx, data, 1, 600, [4]float64{0, 0, 100, 100}, lim); err != nil {
		t.Errorf("833×833 pixels under a 1M budget: %v", err)
	}
	var inv *InvalidInputError
	if _, err := RenderArea(ctx, data, 1, 600, [4]float64{0, 0, 200, 200}, lim); !errors.As(err, &inv) || inv.Reason != ReasonRenderBudget {
		t.Errorf("1667×1667 pixels over a 1M budget = %v, want %s", err, ReasonRenderBudget)
	}
}

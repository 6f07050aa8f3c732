package pdf

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// noisyRGBA is an opaque picture with flat areas, gradients and noise, so
// every filter difference and deflate path is exercised.
func noisyRGBA(w, h int, seed uint64) *image.RGBA {
	rng := rand.New(rand.NewPCG(seed, 1))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{uint8(x * 7), uint8(y * 3), uint8(x ^ y), 0xff}
			if x > w/2 {
				c = color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 0xff}
			}
			if y < h/4 {
				c = color.RGBA{0xff, 0xff, 0xff, 0xff}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// samePixels reports the first pixel where got differs from want, compared
// in want's own coordinates against got's from its origin.
func samePixels(t *testing.T, got image.Image, want image.Image) {
	t.Helper()
	wb := want.Bounds()
	if got.Bounds().Dx() != wb.Dx() || got.Bounds().Dy() != wb.Dy() {
		t.Fatalf("decoded %v, want the size of %v", got.Bounds(), wb)
	}
	gb := got.Bounds()
	for y := 0; y < wb.Dy(); y++ {
		for x := 0; x < wb.Dx(); x++ {
			r1, g1, b1, a1 := got.At(gb.Min.X+x, gb.Min.Y+y).RGBA()
			r2, g2, b2, a2 := want.At(wb.Min.X+x, wb.Min.Y+y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Fatalf("pixel (%d,%d) = %v, want %v", x, y, got.At(gb.Min.X+x, gb.Min.Y+y), want.At(wb.Min.X+x, wb.Min.Y+y))
			}
		}
	}
}

func TestEncodePNGRoundTripsOpaqueRenders(t *testing.T) {
	full := noisyRGBA(203, 97, 7)
	for name, img := range map[string]*image.RGBA{
		"whole":       full,
		"one pixel":   noisyRGBA(1, 1, 2),
		"one row":     noisyRGBA(300, 1, 3),
		"one column":  noisyRGBA(1, 300, 4),
		"cut (crop)":  full.SubImage(image.Rect(31, 17, 180, 90)).(*image.RGBA),
		"cut at edge": full.SubImage(image.Rect(202, 96, 203, 97)).(*image.RGBA),
	} {
		t.Run(name, func(t *testing.T) {
			b, err := EncodePNG(img)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.ColorModel != color.RGBAModel {
				t.Errorf("colour model %v: an opaque render is written as 8-bit RGB (decoded as RGBA)", cfg.ColorModel)
			}
			got, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			samePixels(t, got, img)
		})
	}
}

func TestEncodePNGKeepsTransparencyAndOtherModels(t *testing.T) {
	clear := noisyRGBA(40, 30, 9)
	// One pixel half transparent (premultiplied white, which round-trips
	// exactly through PNG's straight alpha): not the fast path.
	copy(clear.Pix, []uint8{0x80, 0x80, 0x80, 0x80})
	gray := image.NewGray(image.Rect(0, 0, 25, 25))
	for i := range gray.Pix {
		gray.Pix[i] = uint8(i)
	}
	for name, img := range map[string]image.Image{"translucent RGBA": clear, "grey": gray} {
		b, err := EncodePNG(img)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		samePixels(t, got, img)
	}
}

func TestEncodePNGRefusesAnEmptyImage(t *testing.T) {
	if _, err := EncodePNG(image.NewRGBA(image.Rect(0, 0, 0, 5))); err == nil {
		t.Error("an image without pixels was encoded")
	}
}

// BenchmarkEncodePNG: the render encoder against image/png at BestSpeed on
// the same 150 DPI letter-size page, as a ratio.
func BenchmarkEncodePNG(b *testing.B) {
	page := noisyRGBA(1275, 1650, 11)
	std := func() {
		var buf bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, page); err != nil {
			b.Fatal(err)
		}
	}
	ours := func() {
		if _, err := EncodePNG(page); err != nil {
			b.Fatal(err)
		}
	}
	var tStd, tOurs float64
	for b.Loop() {
		tStd += timed(std)
		tOurs += timed(ours)
	}
	b.ReportMetric(tOurs/tStd, "x_image/png")
}

func timed(f func()) float64 {
	start := time.Now()
	f()
	return time.Since(start).Seconds()
}

// MuPDF draws into the RGBA image itself, over opaque paper; blending (the
// Federal Register sample's first page has a transparency group) can round
// the paper's alpha down to 254, which a PNG would keep as a see-through
// page. Renders come out opaque.
func TestRendersAreOpaque(t *testing.T) {
	for _, path := range splitPDFs(t) {
		if !strings.Contains(path, "magazines") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		info, err := Inspect(data, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		for page := 1; page <= min(2, len(info.Pages)); page++ {
			img, err := Render(t.Context(), data, page, 150, DefaultLimits(), nil)
			if err != nil {
				t.Fatalf("%s page %d: %v", path, page, err)
			}
			if !img.Opaque() {
				t.Errorf("%s page %d: the render is not opaque", filepath.Base(path), page)
			}
		}
	}
}

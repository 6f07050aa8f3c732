package magazine

import (
	"image"
	"image/color"
	"math/rand"
	"testing"
)

// The bit planes answer exactly what scanning the pixels answers: every
// strip of every row and column, across word boundaries, with areas painted
// over as paper, on a render whose origin is not 0,0.
func TestInkBitsMatchThePixels(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, size := range []image.Point{{1, 1}, {63, 5}, {64, 64}, {65, 130}, {200, 77}} {
		bounds := image.Rectangle{Min: image.Pt(7, -3), Max: image.Pt(7+size.X, -3+size.Y)}
		img := image.NewRGBA(bounds)
		for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
			for x := bounds.Min.X; x < bounds.Max.X; x++ {
				v := uint8(255)
				if rng.Intn(9) == 0 {
					v = uint8(rng.Intn(256))
				}
				img.SetRGBA(x, y, color.RGBA{v, v, v, 255})
			}
		}
		k := newInkBits(img)
		var paper []image.Rectangle
		for range 3 {
			x0, y0 := rng.Intn(size.X), rng.Intn(size.Y)
			paper = append(paper, image.Rect(x0, y0, x0+rng.Intn(size.X-x0)+1, y0+rng.Intn(size.Y-y0)+1))
		}
		var masked inkBits
		masked.copyFrom(&k)
		for _, r := range paper {
			masked.clear(r)
		}
		ink := func(x, y int) bool {
			for _, r := range paper {
				if image.Pt(x, y).In(r) {
					return false
				}
			}
			return color.GrayModel.Convert(img.At(bounds.Min.X+x, bounds.Min.Y+y)).(color.Gray).Y < InkLuminance
		}
		for range 2000 {
			a, b := rng.Intn(size.X+1), rng.Intn(size.X+1)
			y := rng.Intn(size.Y)
			want := false
			for x := min(a, b); x < max(a, b); x++ {
				want = want || ink(x, y)
			}
			if got := masked.rowInk(y, min(a, b), max(a, b)); got != want {
				t.Fatalf("%v: row %d [%d,%d): got %v, want %v", size, y, min(a, b), max(a, b), got, want)
			}
			c, d := rng.Intn(size.Y+1), rng.Intn(size.Y+1)
			x := rng.Intn(size.X)
			want = false
			for y := min(c, d); y < max(c, d); y++ {
				want = want || ink(x, y)
			}
			if got := masked.colInk(x, min(c, d), max(c, d)); got != want {
				t.Fatalf("%v: column %d [%d,%d): got %v, want %v", size, x, min(c, d), max(c, d), got, want)
			}
		}
	}
}

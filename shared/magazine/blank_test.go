package magazine

import (
	"image"
	"image/color"
	"image/draw"
	"testing"
)

func TestBlank(t *testing.T) {
	page := func(bg color.Color) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, 300, 400))
		draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
		return img
	}
	white, tinted := page(color.White), page(color.RGBA{200, 220, 240, 255})
	dot := page(color.White)
	dot.Set(150, 390, color.Black) // one full stop near the foot of the page
	pale := page(color.White)
	pale.Set(10, 10, color.Gray{Y: 230}) // a faint anti-aliased glyph edge
	nearly := page(color.White)
	nearly.Set(10, 10, color.Gray{Y: 250}) // rounding in the paper colour
	gray := image.NewGray(image.Rect(0, 0, 10, 10))
	for _, tc := range []struct {
		name string
		img  image.Image
		want bool
	}{
		{"a white page is blank", white, true},
		{"a tinted page with nothing on it is blank", tinted, true},
		{"a single dark pixel is ink", dot, false},
		{"a faint pixel is ink", pale, false},
		{"paper noise within the tolerance is not ink", nearly, true},
		{"a black grey image is blank", gray, true},
	} {
		if got := Blank(tc.img); got != tc.want {
			t.Errorf("%s: Blank = %v, want %v", tc.name, got, tc.want)
		}
	}
}

package magazine

import "image"

// BlankTolerance (0–255) is how far from the page's background colour a
// pixel's luminance may be and still be paper: an anti-aliased glyph edge
// or a pale watermark is further, a flat tint or a rounding step is not.
const BlankTolerance = 12

// Blank reports whether a render has no ink: every pixel within
// BlankTolerance of the first one (the page's background, whatever its
// colour). An OCR engine can read nothing there, so none is run on it.
func Blank(img image.Image) bool {
	b := img.Bounds()
	if b.Empty() {
		return true
	}
	luma := make([]uint8, b.Dx())
	lumaRow(luma, img, b.Min.Y)
	paper := int(luma[0])
	for y := b.Min.Y; y < b.Max.Y; y++ {
		lumaRow(luma, img, y)
		for _, v := range luma {
			if d := int(v) - paper; d > BlankTolerance || d < -BlankTolerance {
				return false
			}
		}
	}
	return true
}

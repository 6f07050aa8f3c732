package magazine

import "image"

// inkBits marks a render's ink (pixels darker than InkLuminance) one bit a
// pixel, twice over: row by row, so a horizontal strip is a run of bits in
// one row, and column by column, so a vertical strip is one too. Coordinates
// are relative to the render's origin.
type inkBits struct {
	w, h     int
	rowWords int      // words a row takes: ceil(w/64)
	colWords int      // words a column takes: ceil(h/64)
	rows     []uint64 // h rows of rowWords
	cols     []uint64 // w columns of colWords
}

func newInkBits(img image.Image) inkBits {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	k := inkBits{w: w, h: h, rowWords: (w + 63) / 64, colWords: (h + 63) / 64}
	k.rows = make([]uint64, h*k.rowWords)
	k.cols = make([]uint64, w*k.colWords)
	luma := make([]uint8, w)
	for y := range h {
		lumaRow(luma, img, b.Min.Y+y)
		row := k.rows[y*k.rowWords : (y+1)*k.rowWords]
		colBit, colWord := uint64(1)<<(y&63), y>>6
		for x, v := range luma {
			if v < InkLuminance {
				row[x>>6] |= 1 << (x & 63)
				k.cols[x*k.colWords+colWord] |= colBit
			}
		}
	}
	return k
}

// copyFrom makes k a copy of src, reusing k's storage when it is big enough.
func (k *inkBits) copyFrom(src *inkBits) {
	rows, cols := k.rows, k.cols
	*k = *src
	k.rows = append(rows[:0], src.rows...)
	k.cols = append(cols[:0], src.cols...)
}

// clear paints r (inside the bits' bounds) as paper.
func (k *inkBits) clear(r image.Rectangle) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		clearBits(k.rows[y*k.rowWords:(y+1)*k.rowWords], r.Min.X, r.Max.X)
	}
	for x := r.Min.X; x < r.Max.X; x++ {
		clearBits(k.cols[x*k.colWords:(x+1)*k.colWords], r.Min.Y, r.Max.Y)
	}
}

// rowInk says whether row y has ink in [x0, x1).
func (k *inkBits) rowInk(y, x0, x1 int) bool {
	return anyBits(k.rows[y*k.rowWords:(y+1)*k.rowWords], x0, x1)
}

// colInk says whether column x has ink in [y0, y1).
func (k *inkBits) colInk(x, y0, y1 int) bool {
	return anyBits(k.cols[x*k.colWords:(x+1)*k.colWords], y0, y1)
}

// spanMasks are the bits of [lo, hi) in its first and last words (lo < hi).
func spanMasks(lo, hi int) (first, last uint64) {
	return ^uint64(0) << (lo & 63), ^uint64(0) >> (63 - (hi-1)&63)
}

// anyBits says whether any bit in [lo, hi) is set.
func anyBits(words []uint64, lo, hi int) bool {
	if lo >= hi {
		return false
	}
	a, z := lo>>6, (hi-1)>>6
	first, last := spanMasks(lo, hi)
	if a == z {
		return words[a]&first&last != 0
	}
	if words[a]&first != 0 || words[z]&last != 0 {
		return true
	}
	for _, w := range words[a+1 : z] {
		if w != 0 {
			return true
		}
	}
	return false
}

// clearBits clears the bits in [lo, hi).
func clearBits(words []uint64, lo, hi int) {
	if lo >= hi {
		return
	}
	a, z := lo>>6, (hi-1)>>6
	first, last := spanMasks(lo, hi)
	if a == z {
		words[a] &^= first & last
		return
	}
	words[a] &^= first
	words[z] &^= last
	clear(words[a+1 : z])
}

package magazine

import (
	"cmp"
	"image"
	"math"
	"slices"
)

// Picture finding on a scanned page, where the PDF's only picture is the scan
// itself. Sizes in points scale with the render's DPI.
const (
	// scanCellPoints: the render is judged in square cells this wide.
	scanCellPoints = 4.0
	// scanDarkCell: a cell this much darker than the paper on average is
	// picture (halftone, engraving, photo), not type: text covers a cell's
	// paper too thinly to darken it this much, and large type is masked by
	// its text box.
	scanDarkCell = 45
	// scanPictureMinSide: a picture is at least this big on both sides
	// (smaller dark marks are rules, ornaments, bold initials).
	scanPictureMinSide = 48.0
	// scanPictureFill: a picture's box is at least this share dark cells; a
	// scanner's black border around the page is a frame, nearly empty inside.
	scanPictureFill = 0.45
	// scanPictureMaxText: at most this share of a picture's box lies under
	// text boxes.
	scanPictureMaxText = 0.35
	// scanTextPad: text boxes are widened by this many points before masking.
	scanTextPad = 1.0
)

// FindPictures finds the pictures on a page render (scale = render pixels per
// point) that the text layer cannot name because the page is one scanned
// image: connected areas of cells well darker than the paper that no text
// box covers, big and dense enough to be a photograph, drawing or
// engraving. Boxes are in points, top to bottom.
func FindPictures(render image.Image, scale float64, text []BBox) []BBox {
	b := render.Bounds()
	cell := max(int(math.Round(scanCellPoints*scale)), 1)
	cw, ch := (b.Dx()+cell-1)/cell, (b.Dy()+cell-1)/cell
	if cw == 0 || ch == 0 {
		return nil
	}
	luma := lumaPlane(render)
	paper := paperLevel(luma)
	sums := make([]int, cw*ch)
	areas := make([]int, cw*ch)
	for y := range b.Dy() {
		row := luma[y*b.Dx() : (y+1)*b.Dx()]
		for x, v := range row {
			k := (y/cell)*cw + x/cell
			sums[k] += int(v)
			areas[k]++
		}
	}
	masked := make([]bool, cw*ch)
	for _, t := range text {
		r := PixelRect(BBox{t[0] - scanTextPad, t[1] - scanTextPad, t[2] + 2*scanTextPad, t[3] + 2*scanTextPad}, scale, b)
		for cy := (r.Min.Y - b.Min.Y) / cell; cy*cell < r.Max.Y-b.Min.Y && cy < ch; cy++ {
			for cx := (r.Min.X - b.Min.X) / cell; cx*cell < r.Max.X-b.Min.X && cx < cw; cx++ {
				masked[cy*cw+cx] = true
			}
		}
	}
	dark := make([]bool, cw*ch)
	for k := range dark {
		dark[k] = !masked[k] && areas[k] > 0 && paper-sums[k]/areas[k] >= scanDarkCell
	}
	var out []BBox
	seen := make([]bool, cw*ch)
	for start := range dark {
		if !dark[start] || seen[start] {
			continue
		}
		comp := component(dark, seen, cw, ch, start)
		x0, y0, x1, y1 := cw, ch, 0, 0
		for _, k := range comp {
			x0, y0 = min(x0, k%cw), min(y0, k/cw)
			x1, y1 = max(x1, k%cw+1), max(y1, k/cw+1)
		}
		boxCells := (x1 - x0) * (y1 - y0)
		texty := 0
		for cy := y0; cy < y1; cy++ {
			for cx := x0; cx < x1; cx++ {
				if masked[cy*cw+cx] {
					texty++
				}
			}
		}
		box := toPoints(image.Rect(b.Min.X+x0*cell, b.Min.Y+y0*cell, min(b.Min.X+x1*cell, b.Max.X), min(b.Min.Y+y1*cell, b.Max.Y)), scale)
		if box[2] < scanPictureMinSide || box[3] < scanPictureMinSide ||
			float64(len(comp)) < scanPictureFill*float64(boxCells) || float64(texty) > scanPictureMaxText*float64(boxCells) {
			continue
		}
		out = append(out, box)
	}
	slices.SortFunc(out, func(a, b BBox) int { return cmp.Compare(a[1], b[1]) })
	return out
}

// component collects the dark cells joined to start, bridging a gap of one
// cell (the light dots of a halftone, a thin white line in an engraving).
func component(dark, seen []bool, cw, ch, start int) []int {
	var comp []int
	stack := []int{start}
	seen[start] = true
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		comp = append(comp, k)
		x, y := k%cw, k/cw
		for dy := -2; dy <= 2; dy++ {
			for dx := -2; dx <= 2; dx++ {
				nx, ny := x+dx, y+dy
				if nx < 0 || ny < 0 || nx >= cw || ny >= ch {
					continue
				}
				if n := ny*cw + nx; dark[n] && !seen[n] {
					seen[n] = true
					stack = append(stack, n)
				}
			}
		}
	}
	return comp
}

// paperLevel is the luminance of the page's paper: the most common level
// among the light ones (over a window of 9 levels, as scans are noisy), so a
// yellowed or grey scan is judged against its own paper.
func paperLevel(luma []uint8) int {
	var hist [256]int
	for _, v := range luma {
		hist[v]++
	}
	best, level := -1, 255
	for v := 96; v < 256; v++ {
		n := 0
		for d := max(v-4, 0); d <= min(v+4, 255); d++ {
			n += hist[d]
		}
		if n > best {
			best, level = n, v
		}
	}
	return level
}

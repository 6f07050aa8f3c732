package magazine

import (
	"errors"
	"image"
	"image/draw"
	"math"
)

// Figure boundary rules (spec: Figure boundaries). All sizes are in render
// pixels unless named otherwise.
const (
	// FigureRounds bounds how often adjacent figures are re-seeded from each
	// other's results.
	FigureRounds = 3
	// InkLuminance: a pixel darker than this (0–255) is a mark; paper and
	// near-white tints are background.
	InkLuminance = 235
	// SolidShare: a candidate must have ink on at least this share of its
	// rows and of its columns (filled, or crossed by a frame).
	SolidShare = 0.9
	// ShrinkFloor: a candidate smaller than this share of the original box's
	// area is refused.
	ShrinkFloor = 0.30
	// SharedGraphic: two figures whose refined boxes overlap by this share of
	// the smaller one landed on the same graphic.
	SharedGraphic = 0.5
	// gutterPoints: marks this close (in points) belong to one figure: card
	// grids, chart bars and their axis labels.
	gutterPoints = 8.0
	// searchShare / searchMinPoints: how far beyond the original box a figure
	// may grow, as a share of the box's size, at least searchMinPoints.
	searchShare     = 1.0
	searchMinPoints = 12.0
	// textPad: pixels added around each text box before it is excluded.
	textPad = 3
	// maxGrowSteps bounds the gutter-joining loop.
	maxGrowSteps = 64
)

// Outcomes of the figure pass, one per visual region.
const (
	OutcomeRefined       = "refined"
	OutcomeKept          = "kept" // already exact, or nothing to refine
	OutcomeSharedGraphic = "reverted-shared-graphic"
	OutcomeShrink        = "reverted-shrink"
	OutcomeNotSolid      = "reverted-not-solid"
	OutcomeUnstable      = "reverted-unstable"
)

// FigureChange says what happened to one visual region.
type FigureChange struct {
	ID       string
	From, To BBox
	Outcome  string
}

// RefineFigures returns the regions with each visual region's box re-derived
// from the render (scale = render pixels per point). Text regions are left
// as they are and their areas are not ink, so a figure never takes in a
// neighbouring column. Regions are never added, removed or reordered.
func RefineFigures(render image.Image, scale float64, regions []Region) ([]Region, []FigureChange) {
	out := append([]Region(nil), regions...)
	bounds := render.Bounds()
	gray := toGray(render)
	var text []image.Rectangle
	var figs []int
	for i, r := range out {
		if IsVisual(r.Kind) {
			figs = append(figs, i)
		} else if r.Kind != KindTextInFigure {
			// Text boxes are padded a little: OCR boxes often end a pixel
			// or two inside the glyphs they hold.
			text = append(text, PixelRect(r.BBox, scale, bounds).Inset(-textPad))
		}
	}
	orig := make([]image.Rectangle, len(figs))
	cur := make([]image.Rectangle, len(figs))
	outcome := make([]string, len(figs))
	for k, i := range figs {
		orig[k] = PixelRect(out[i].BBox, scale, bounds)
		cur[k] = orig[k]
	}
	gutter := int(math.Ceil(gutterPoints * scale))
	// First each figure on its own: two that land on the same graphic are
	// both reverted and take no further part.
	frozen := make([]bool, len(figs))
	for k := range figs {
		// Where two OCR boxes overlap, neither may claim the shared strip
		// as its seed: the white margins of two pictures often overlap.
		exclude := append([]image.Rectangle(nil), text...)
		for j := range figs {
			if j != k {
				if shared := orig[k].Intersect(orig[j]); !shared.Empty() {
					exclude = append(exclude, shared)
				}
			}
		}
		cur[k], outcome[k] = refineOne(gray, orig[k], exclude, gutter, scale)
	}
	for a := range figs {
		for b := a + 1; b < len(figs); b++ {
			if overlapShare(cur[a], cur[b]) >= SharedGraphic && (cur[a] != orig[a] || cur[b] != orig[b]) {
				frozen[a], frozen[b] = true, true
			}
		}
	}
	for k := range figs {
		if frozen[k] {
			cur[k], outcome[k] = orig[k], OutcomeSharedGraphic
		}
	}
	// Then adjacent figures are re-seeded from each other's results: each
	// sees the others' latest boxes as off limits, until nothing moves.
	for range FigureRounds {
		changed := false
		for k := range figs {
			if frozen[k] {
				continue
			}
			exclude := append([]image.Rectangle(nil), text...)
			for j := range figs {
				if j != k {
					exclude = append(exclude, cur[j])
				}
			}
			next, why := refineOne(gray, orig[k], exclude, gutter, scale)
			if next != cur[k] || why != outcome[k] {
				changed = true
			}
			cur[k], outcome[k] = next, why
		}
		if !changed {
			break
		}
	}
	changes := make([]FigureChange, len(figs))
	for k, i := range figs {
		from := out[i].BBox
		if cur[k] != orig[k] {
			out[i].BBox = toPoints(cur[k], scale)
		}
		changes[k] = FigureChange{ID: out[i].ID, From: from, To: out[i].BBox, Outcome: outcome[k]}
	}
	return out, changes
}

// refineOne derives one figure's box and checks it (rules 1–4): joined
// through gutters, solid or framed, not shrunk below the floor, and a fixed
// point of the same rules.
func refineOne(gray *image.Gray, box image.Rectangle, exclude []image.Rectangle, gutter int, scale float64) (image.Rectangle, string) {
	margin := int(math.Max(searchMinPoints*scale, searchShare*float64(max(box.Dx(), box.Dy()))))
	window := box.Inset(-margin).Intersect(gray.Bounds())
	ink := newInkMap(gray, window, exclude)
	cand := ink.grow(box, gutter)
	if cand.Empty() {
		return box, OutcomeKept
	}
	if area(toPoints(cand, 1)) < ShrinkFloor*area(toPoints(box, 1)) {
		return box, OutcomeShrink
	}
	if !ink.solid(cand) {
		return box, OutcomeNotSolid
	}
	if again := ink.grow(cand, gutter); !near(again, cand, 1) {
		return box, OutcomeUnstable
	}
	if cand == box {
		return box, OutcomeKept
	}
	return cand, OutcomeRefined
}

// inkMap is a summed-area table of ink pixels over a window.
type inkMap struct {
	win image.Rectangle
	sum []int32 // (w+1)*(h+1)
	w   int
}

func newInkMap(gray *image.Gray, win image.Rectangle, exclude []image.Rectangle) *inkMap {
	w, h := win.Dx(), win.Dy()
	m := &inkMap{win: win, sum: make([]int32, (w+1)*(h+1)), w: w}
	// Excluded areas are painted once, so a page of a thousand text boxes
	// costs their area, not boxes × pixels.
	off := make([]bool, w*h)
	for _, r := range exclude {
		r = r.Intersect(win)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			row := off[(y-win.Min.Y)*w:]
			for x := r.Min.X; x < r.Max.X; x++ {
				row[x-win.Min.X] = true
			}
		}
	}
	for y := 0; y < h; y++ {
		var row int32
		py := win.Min.Y + y
		for x := 0; x < w; x++ {
			px := win.Min.X + x
			if gray.Pix[gray.PixOffset(px, py)] < InkLuminance && !off[y*w+x] {
				row++
			}
			m.sum[(y+1)*(w+1)+x+1] = m.sum[y*(w+1)+x+1] + row
		}
	}
	return m
}

// count returns the ink pixels inside r (clipped to the window).
func (m *inkMap) count(r image.Rectangle) int {
	r = r.Intersect(m.win)
	if r.Empty() {
		return 0
	}
	x0, y0 := r.Min.X-m.win.Min.X, r.Min.Y-m.win.Min.Y
	x1, y1 := r.Max.X-m.win.Min.X, r.Max.Y-m.win.Min.Y
	s := m.sum
	return int(s[y1*(m.w+1)+x1] - s[y0*(m.w+1)+x1] - s[y1*(m.w+1)+x0] + s[y0*(m.w+1)+x0])
}

// bboxIn is the bounding box of the ink inside r.
func (m *inkMap) bboxIn(r image.Rectangle) image.Rectangle {
	r = r.Intersect(m.win)
	if m.count(r) == 0 {
		return image.Rectangle{}
	}
	for r.Min.Y < r.Max.Y && m.count(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1)) == 0 {
		r.Min.Y++
	}
	for r.Max.Y > r.Min.Y && m.count(image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y)) == 0 {
		r.Max.Y--
	}
	for r.Min.X < r.Max.X && m.count(image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y)) == 0 {
		r.Min.X++
	}
	for r.Max.X > r.Min.X && m.count(image.Rect(r.Max.X-1, r.Min.Y, r.Max.X, r.Max.Y)) == 0 {
		r.Max.X--
	}
	return r
}

// grow starts from the ink inside seed and takes in every mark within a
// gutter of the box until nothing more joins (rule 2).
func (m *inkMap) grow(seed image.Rectangle, gutter int) image.Rectangle {
	box := m.bboxIn(seed)
	if box.Empty() {
		return box
	}
	for range maxGrowSteps {
		next := m.bboxIn(box.Inset(-gutter)).Union(box)
		if next == box {
			break
		}
		box = next
	}
	return box
}

// solid: nearly every row and every column of r has ink (rule 3).
func (m *inkMap) solid(r image.Rectangle) bool {
	rows, cols := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		if m.count(image.Rect(r.Min.X, y, r.Max.X, y+1)) > 0 {
			rows++
		}
	}
	for x := r.Min.X; x < r.Max.X; x++ {
		if m.count(image.Rect(x, r.Min.Y, x+1, r.Max.Y)) > 0 {
			cols++
		}
	}
	return float64(rows) >= SolidShare*float64(r.Dy()) && float64(cols) >= SolidShare*float64(r.Dx())
}

// PixelRect converts a box in points to the render's pixel rectangle at
// scale, rounding outward and clipping to bounds.
func PixelRect(b BBox, scale float64, bounds image.Rectangle) image.Rectangle {
	r := image.Rect(
		int(math.Floor(b[0]*scale)), int(math.Floor(b[1]*scale)),
		int(math.Ceil((b[0]+b[2])*scale)), int(math.Ceil((b[1]+b[3])*scale)),
	)
	return r.Intersect(bounds)
}

// CropPixels copies exactly the render's pixels inside r.
func CropPixels(render image.Image, r image.Rectangle) (*image.RGBA, error) {
	r = r.Intersect(render.Bounds())
	if r.Empty() {
		return nil, errors.New("crop: the box is outside the render")
	}
	dst := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(dst, dst.Bounds(), render, r.Min, draw.Src)
	return dst, nil
}

func toPoints(r image.Rectangle, scale float64) BBox {
	return BBox{float64(r.Min.X) / scale, float64(r.Min.Y) / scale, float64(r.Dx()) / scale, float64(r.Dy()) / scale}
}

func toGray(img image.Image) *image.Gray {
	if g, ok := img.(*image.Gray); ok {
		return g
	}
	g := image.NewGray(img.Bounds())
	draw.Draw(g, g.Bounds(), img, img.Bounds().Min, draw.Src)
	return g
}

func overlapShare(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	if in.Empty() {
		return 0
	}
	small := min(a.Dx()*a.Dy(), b.Dx()*b.Dy())
	return float64(in.Dx()*in.Dy()) / float64(max(small, 1))
}

func near(a, b image.Rectangle, tol int) bool {
	d := func(x, y int) bool { return x-y <= tol && y-x <= tol }
	return d(a.Min.X, b.Min.X) && d(a.Min.Y, b.Min.Y) && d(a.Max.X, b.Max.X) && d(a.Max.Y, b.Max.Y)
}

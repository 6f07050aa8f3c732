package magazine

import (
	"errors"
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
)

// Figure boundary rules (spec: Figure boundaries). Sizes are in render pixels
// unless named otherwise; the ones in points scale with the render's DPI so a
// 300 DPI re-render gives the same boxes as a 150 DPI one.
const (
	// FigureRounds bounds how often adjacent figures are re-seeded from each
	// other's results. Two neighbours settle in two rounds (each sees the
	// other's box once); the third is a spare so one more neighbour can
	// settle, and anything still moving after it oscillates and is reverted
	// rather than left to whichever round happened to run last.
	FigureRounds = 3
	// InkLuminance (0–255): darker pixels are marks. Below paper white so
	// scanner noise, paper tint and JPEG ringing around text (240–254) stay
	// background, yet pale chart fills and hairline gridlines still count.
	InkLuminance = 235
	// SolidShare: a real picture has ink on nearly all of its rows and
	// columns (filled, or crossed by a frame); the 10% slack absorbs a pale
	// band or an anti-aliased edge. Two unrelated marks joined into one box
	// fail it, because the box is mostly empty rows or columns.
	SolidShare = 0.9
	// ShrinkFloor: an OCR box is rarely that wrong, so a candidate under
	// this share of its area has more likely found a fragment (a logo, an
	// icon) than the picture.
	ShrinkFloor = 0.30
	// SharedGraphic: two figures whose refined boxes overlap by this share
	// of the smaller one have grown onto the same graphic; neither can be
	// trusted to own it.
	SharedGraphic = 0.5

	// gutterPoints: marks this close belong to one figure. It spans card
	// grid gutters and the gap between chart bars and their axis labels,
	// yet stays under a typical column gap (about 12 pt).
	gutterPoints = 8.0
	// searchShare / searchMinPoints bound the work and the damage: a figure
	// may grow at most its own longer side (or 12 pt for slivers) beyond the
	// OCR box on every side. Anything larger than that is not the picture
	// the engine saw.
	searchShare     = 1.0
	searchMinPoints = 12.0
	// textPad: OCR text boxes often end a pixel or two inside their glyphs;
	// without the pad those fringes would join a figure to its column.
	textPad = 3
	// stablePixels: the tolerance of the fixed-point rule. Rounding a box
	// to points and back may move an edge by one pixel.
	stablePixels = 1
	// roundingSlack absorbs float error in points→pixels: x/scale*scale
	// can land a hair off the integer x, and floor/ceil would then
	// move a whole pixel.
	roundingSlack = 1e-6
)

// Outcomes of the figure pass, one per visual region.
const (
	OutcomeRefined       = "refined"
	OutcomeKept          = "kept" // already exact (within a pixel), or no ink to fit
	OutcomeSharedGraphic = "reverted-shared-graphic"
	OutcomeShrink        = "reverted-shrink"
	OutcomeNotSolid      = "reverted-not-solid"
	OutcomeUnstable      = "reverted-unstable"
	OutcomeHandPlaced    = "kept-hand-placed" // the user placed the box; it is not the pass's to move
)

// FigureChange says what the figure pass did to one visual region.
type FigureChange struct {
	ID       string
	From, To BBox
	Outcome  string
}

// RefineFigures returns the regions with each visual region's box re-derived
// from the render (scale = render pixels per point, dpi/72), plus one change
// per visual region in slice order. Regions are never added, removed or
// reordered, and non-visual regions come back exactly as given. A box the
// user placed by hand (HandPlaced) is kept as it is and fences the others
// off, like a refined neighbour.
func RefineFigures(render image.Image, scale float64, regions []Region) ([]Region, []FigureChange) {
	// A copy that is never nil: a page without regions stays [] when stored,
	// not null.
	out := append(make([]Region, 0, len(regions)), regions...)
	var figs []int
	for i, r := range out {
		if IsVisual(r.Kind) {
			figs = append(figs, i)
		}
	}
	changes := make([]FigureChange, len(figs))
	if len(figs) == 0 {
		return out, changes
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		// Without a usable scale no box can be mapped to pixels; keeping
		// every box is the only answer that cannot damage a crop.
		for k, i := range figs {
			changes[k] = FigureChange{ID: out[i].ID, From: out[i].BBox, To: out[i].BBox, Outcome: OutcomeKept}
		}
		return out, changes
	}
	p := newFigurePass(render, scale)
	var text []image.Rectangle
	for _, r := range out {
		// Labels cleanup moved into a picture (axis values, callouts) are
		// its own marks; fencing them off would trim the picture's edges.
		if !IsVisual(r.Kind) && r.Kind != KindTextInFigure {
			text = append(text, PixelRect(r.BBox, scale, p.bounds).Inset(-textPad).Intersect(p.bounds))
		}
	}
	n := len(figs)
	orig := make([]image.Rectangle, n)
	cur := make([]image.Rectangle, n)
	outcome := make([]string, n)
	for k, i := range figs {
		orig[k] = PixelRect(out[i].BBox, scale, p.bounds)
	}

	// Where two OCR boxes overlap, neither may seed from the shared strip:
	// the white margins of neighbouring pictures often overlap, and a seed
	// that starts on the other picture's ink swallows it. The strip is only
	// barred from seeding; growth may still cross it, so a picture whose
	// edge lies inside the strip is not cut short.
	strips := make([][]image.Rectangle, n)
	for k := range n {
		for j := range n {
			if j != k {
				if s := orig[k].Intersect(orig[j]); !s.Empty() {
					strips[k] = append(strips[k], s)
				}
			}
		}
	}
	// Alone first, so two figures that find the same graphic are caught
	// before either can fence the other off it.
	frozen := make([]bool, n)
	for k, i := range figs {
		if out[i].HandPlaced {
			cur[k], outcome[k], frozen[k] = orig[k], OutcomeHandPlaced, true
			continue
		}
		cur[k], outcome[k] = p.refine(orig[k], text, strips[k])
	}
	p.revertShared(orig, cur, outcome, frozen)

	// Then re-seeded from each other: each figure sees the others' latest
	// boxes as off limits, so neighbours split the ink between them instead
	// of both claiming it. A figure whose off-limits set did not change
	// would get the same answer, so it is not recomputed.
	seen := make([][]image.Rectangle, n)
	moved := make([]bool, n)
	settled := false
	for range FigureRounds {
		clear(moved)
		anyMoved := false
		for k := range n {
			if frozen[k] {
				continue
			}
			others := make([]image.Rectangle, 0, n-1)
			for j := range n {
				if j != k {
					others = append(others, cur[j])
				}
			}
			if seen[k] != nil && slices.Equal(seen[k], others) {
				continue
			}
			seen[k] = others
			next, why := p.refine(orig[k], append(slices.Clone(text), others...), strips[k])
			if next != cur[k] {
				moved[k], anyMoved = true, true
			}
			cur[k], outcome[k] = next, why
		}
		if !anyMoved {
			settled = true
			break
		}
	}
	if !settled {
		// Still moving after the last round: no fixed point was reached, so
		// the rule says the old box stays.
		for k := range n {
			if moved[k] {
				cur[k], outcome[k] = orig[k], OutcomeUnstable
			}
		}
	}
	// Fences only cover the others' boxes; a figure can still grow around a
	// small neighbour and end up holding it.
	p.revertShared(orig, cur, outcome, frozen)

	for k, i := range figs {
		from := out[i].BBox
		if cur[k] != orig[k] {
			out[i].BBox = toPoints(cur[k], scale)
		}
		changes[k] = FigureChange{ID: out[i].ID, From: from, To: out[i].BBox, Outcome: outcome[k]}
	}
	return out, changes
}

// figurePass holds what every figure on one page shares, so the render is
// read once however many figures and rounds there are.
type figurePass struct {
	bounds image.Rectangle
	ink    inkBits // the render's marks
	scale  float64
	gutter int
	masked inkBits // scratch: ink with a window's exclusions cleared, reused across figures
}

func newFigurePass(render image.Image, scale float64) *figurePass {
	return &figurePass{
		bounds: render.Bounds(),
		ink:    newInkBits(render),
		scale:  scale,
		gutter: int(math.Ceil(gutterPoints * scale)),
	}
}

// revertShared applies the shared-graphic rule: a pair counts only when at
// least one of them moved, since two OCR boxes that already overlapped and
// stayed put have found nothing new.
func (p *figurePass) revertShared(orig, cur []image.Rectangle, outcome []string, frozen []bool) {
	hit := make([]bool, len(cur))
	for a := range cur {
		for b := a + 1; b < len(cur); b++ {
			if frozen[a] || frozen[b] {
				continue
			}
			if overlapShare(cur[a], cur[b]) >= SharedGraphic && (cur[a] != orig[a] || cur[b] != orig[b]) {
				hit[a], hit[b] = true, true
			}
		}
	}
	for k := range cur {
		if hit[k] {
			frozen[k] = true
			cur[k], outcome[k] = orig[k], OutcomeSharedGraphic
		}
	}
}

// refine is the whole per-figure rule set (rules 1–4). fence is never ink
// (text, other figures); noSeed may be grown through but not started from.
// A candidate is only accepted if deriving again from it gives it back. The
// second derivation gets a search window of its own because that is what a
// later run on the stored box would see; re-checking inside the first
// window would bless a box that only stopped at the window's edge.
func (p *figurePass) refine(seed image.Rectangle, fence, noSeed []image.Rectangle) (image.Rectangle, string) {
	cand, why := p.derive(seed, fence, noSeed)
	if why != OutcomeRefined {
		return cand, why
	}
	if _, again := p.derive(cand, fence, noSeed); again != OutcomeKept {
		return seed, OutcomeUnstable
	}
	return cand, OutcomeRefined
}

// derive fits one seed to the ink around it and applies the acceptance
// rules; a refused candidate returns the seed.
func (p *figurePass) derive(seed image.Rectangle, fence, noSeed []image.Rectangle) (image.Rectangle, string) {
	if seed.Empty() {
		return seed, OutcomeKept
	}
	margin := max(
		int(math.Ceil(searchMinPoints*p.scale)),
		int(math.Ceil(searchShare*float64(max(seed.Dx(), seed.Dy())))),
	)
	win := seed.Inset(-margin).Intersect(p.bounds)
	start := seed
	if len(noSeed) > 0 {
		// The start is read from its own table because the scratch buffers
		// are shared; the growth table below replaces it.
		start = p.inkMap(win, append(slices.Clone(fence), noSeed...)).bboxIn(seed)
		if start.Empty() {
			return seed, OutcomeKept
		}
	}
	m := p.inkMap(win, fence)
	cand := m.grow(start, p.gutter)
	switch {
	case cand.Empty():
		return seed, OutcomeKept
	case pixelArea(cand) < ShrinkFloor*pixelArea(seed):
		return seed, OutcomeShrink
	case !m.solid(cand):
		return seed, OutcomeNotSolid
	case near(cand, seed, stablePixels):
		// A one-pixel move is rounding, not a finding; keeping the stored
		// box exactly is what makes a second run a no-op.
		return seed, OutcomeKept
	}
	return cand, OutcomeRefined
}

// inkMap is the page's ink seen through a search window, with some areas
// painted over as paper. The pass only ever asks whether a one-pixel strip
// holds ink, so a bit a pixel (kept row by row and column by column) is
// enough: a strip of a page is a few dozen words, and the page's planes
// take a sixteenth of the bytes one plane of counts would.
type inkMap struct {
	win  image.Rectangle // in render pixels
	at   image.Point     // the render's origin
	bits *inkBits
}

// inkMap paints the excluded areas over a copy of the page's ink; outside
// win counts as paper because the search may not look there.
func (p *figurePass) inkMap(win image.Rectangle, exclude []image.Rectangle) *inkMap {
	p.masked.copyFrom(&p.ink)
	for _, r := range exclude {
		r = r.Intersect(win)
		if !r.Empty() {
			p.masked.clear(r.Sub(p.bounds.Min))
		}
	}
	return &inkMap{win: win, at: p.bounds.Min, bits: &p.masked}
}

// rowInk says whether row y holds ink between x0 and x1 (inside the window).
func (m *inkMap) rowInk(y, x0, x1 int) bool {
	if y < m.win.Min.Y || y >= m.win.Max.Y {
		return false
	}
	x0, x1 = max(x0, m.win.Min.X), min(x1, m.win.Max.X)
	return m.bits.rowInk(y-m.at.Y, x0-m.at.X, x1-m.at.X)
}

// colInk says whether column x holds ink between y0 and y1 (inside the window).
func (m *inkMap) colInk(x, y0, y1 int) bool {
	if x < m.win.Min.X || x >= m.win.Max.X {
		return false
	}
	y0, y1 = max(y0, m.win.Min.Y), min(y1, m.win.Max.Y)
	return m.bits.colInk(x-m.at.X, y0-m.at.Y, y1-m.at.Y)
}

// bboxIn trims r to its ink, so white margins in an OCR box never survive;
// a box without ink trims to nothing.
func (m *inkMap) bboxIn(r image.Rectangle) image.Rectangle {
	r = r.Intersect(m.win)
	for !r.Empty() && !m.rowInk(r.Min.Y, r.Min.X, r.Max.X) {
		r.Min.Y++
	}
	if r.Empty() {
		return image.Rectangle{}
	}
	// The top row holds ink, so none of these trims runs past it.
	for !m.rowInk(r.Max.Y-1, r.Min.X, r.Max.X) {
		r.Max.Y--
	}
	for !m.colInk(r.Min.X, r.Min.Y, r.Max.Y) {
		r.Min.X++
	}
	for !m.colInk(r.Max.X-1, r.Min.Y, r.Max.Y) {
		r.Max.X--
	}
	return r
}

// grow starts from the ink inside seed and takes in every mark within a
// gutter of the box until nothing more joins (rule 2): that one rule both
// bridges the white gutters of a card grid and walks from bar to bar
// through a sparse chart. No step cap is needed: every step that does not
// stop widens the box, and the box cannot leave the window.
func (m *inkMap) grow(seed image.Rectangle, gutter int) image.Rectangle {
	box := m.bboxIn(seed)
	if box.Empty() {
		return box
	}
	for {
		next := m.bboxIn(box.Inset(-gutter)).Union(box)
		if next == box {
			return box
		}
		box = next
	}
}

// solid applies rule 3's shape test: nearly every row and every column of r
// holds ink, which filled pictures and framed charts pass and a box joining
// two far-apart marks does not.
func (m *inkMap) solid(r image.Rectangle) bool {
	rows, cols := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		if m.rowInk(y, r.Min.X, r.Max.X) {
			rows++
		}
	}
	for x := r.Min.X; x < r.Max.X; x++ {
		if m.colInk(x, r.Min.Y, r.Max.Y) {
			cols++
		}
	}
	return float64(rows) >= SolidShare*float64(r.Dy()) && float64(cols) >= SolidShare*float64(r.Dx())
}

// PixelRect converts a box in points to the render's pixel rectangle at
// scale, rounding outward (so a crop never loses an edge pixel) and
// clipping to bounds.
func PixelRect(b BBox, scale float64, bounds image.Rectangle) image.Rectangle {
	r := image.Rect(
		int(math.Floor(b[0]*scale+roundingSlack)), int(math.Floor(b[1]*scale+roundingSlack)),
		int(math.Ceil((b[0]+b[2])*scale-roundingSlack)), int(math.Ceil((b[1]+b[3])*scale-roundingSlack)),
	)
	return r.Intersect(bounds)
}

// CropPixels copies exactly the render's pixels inside r into a new image
// with its origin at 0,0, so the crop never aliases the render's buffer.
func CropPixels(render image.Image, r image.Rectangle) (*image.RGBA, error) {
	r, err := cropRect(render, r)
	if err != nil {
		return nil, err
	}
	dst := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(dst, dst.Bounds(), render, r.Min, draw.Src)
	return dst, nil
}

// CropView is the render's pixels inside r without copying them, in the
// render's own coordinates, for a reader such as an encoder: the view
// shares the render's buffer. A render that cannot be viewed in part is
// copied (CropPixels).
func CropView(render image.Image, r image.Rectangle) (image.Image, error) {
	sub, ok := render.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		return CropPixels(render, r)
	}
	r, err := cropRect(render, r)
	if err != nil {
		return nil, err
	}
	return sub.SubImage(r), nil
}

// cropRect clips r to the render; a box outside it has nothing to crop.
func cropRect(render image.Image, r image.Rectangle) (image.Rectangle, error) {
	r = r.Intersect(render.Bounds())
	if r.Empty() {
		return r, errors.New("crop: the box is outside the render")
	}
	return r, nil
}

// lumaPlane is the image's luminance (0–255), row by row.
func lumaPlane(img image.Image) []uint8 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	luma := make([]uint8, w*h)
	for y := range h {
		lumaRow(luma[y*w:(y+1)*w], img, b.Min.Y+y)
	}
	return luma
}

// lumaRow fills dst with the luminance of the image's row y. Renders decode
// as RGBA or Gray, so those skip the per-pixel interface call that would
// otherwise dominate a 2-megapixel page; luminance follows color.GrayModel
// so every image type draws the line in the same place.
func lumaRow(dst []uint8, img image.Image, y int) {
	b := img.Bounds()
	w := b.Dx()
	switch src := img.(type) {
	case *image.Gray:
		copy(dst, src.Pix[src.PixOffset(b.Min.X, y):][:w])
	case *image.RGBA:
		row := src.Pix[src.PixOffset(b.Min.X, y):][:4*w]
		for x := range w {
			r, g, bl := uint32(row[4*x])*0x101, uint32(row[4*x+1])*0x101, uint32(row[4*x+2])*0x101
			dst[x] = uint8(((19595*r + 38470*g + 7471*bl + 1<<15) >> 16) >> 8)
		}
	default:
		for x := range w {
			g := color.Gray16Model.Convert(img.At(b.Min.X+x, y)).(color.Gray16)
			dst[x] = uint8(g.Y >> 8)
		}
	}
}

func toPoints(r image.Rectangle, scale float64) BBox {
	return BBox{float64(r.Min.X) / scale, float64(r.Min.Y) / scale, float64(r.Dx()) / scale, float64(r.Dy()) / scale}
}

func pixelArea(r image.Rectangle) float64 { return float64(r.Dx()) * float64(r.Dy()) }

// overlapShare is measured against the smaller box so a small figure lying
// inside a big one counts as sharing it.
func overlapShare(a, b image.Rectangle) float64 {
	in := a.Intersect(b)
	if in.Empty() {
		return 0
	}
	return pixelArea(in) / math.Max(math.Min(pixelArea(a), pixelArea(b)), 1)
}

func near(a, b image.Rectangle, tol int) bool {
	d := func(x, y int) bool { return x-y <= tol && y-x <= tol }
	return d(a.Min.X, b.Min.X) && d(a.Min.Y, b.Min.Y) && d(a.Max.X, b.Max.X) && d(a.Max.Y, b.Max.Y)
}

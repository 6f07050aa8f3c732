package magazine

import (
	"image"
	"image/color"
	"image/draw"
	"testing"
)

// A synthetic 150 DPI page: scale 150/72, so 1 point ≈ 2.08 px.
const figScale = 150.0 / 72

func blankPage() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, 1275, 1650))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	return img
}

func fill(img *image.RGBA, r image.Rectangle, c uint8) {
	draw.Draw(img, r, image.NewUniform(color.RGBA{c, c, c, 255}), image.Point{}, draw.Src)
}

func pts(r image.Rectangle) BBox { return toPoints(r, figScale) }

func refineOneFigure(t *testing.T, img image.Image, seed image.Rectangle, others ...Region) (image.Rectangle, string) {
	t.Helper()
	regions := append([]Region{{ID: "f", Kind: KindFigure, BBox: pts(seed)}}, others...)
	out, changes := RefineFigures(img, figScale, regions)
	if len(out) != len(regions) {
		t.Fatalf("RefineFigures returned %d regions for %d", len(out), len(regions))
	}
	return PixelRect(out[0].BBox, figScale, img.Bounds()), changes[0].Outcome
}

func TestRefineFigures(t *testing.T) {
	photo := image.Rect(300, 400, 700, 700)
	t.Run("a loose OCR box shrinks to the photo's edges", func(t *testing.T) {
		img := blankPage()
		fill(img, photo, 60)
		got, why := refineOneFigure(t, img, photo.Inset(-30))
		if !near(got, photo, 1) || why != OutcomeRefined {
			t.Fatalf("got %v (%s), want %v", got, why, photo)
		}
	})
	t.Run("a tight OCR box grows to the photo's edges", func(t *testing.T) {
		img := blankPage()
		fill(img, photo, 60)
		got, why := refineOneFigure(t, img, photo.Inset(40))
		if !near(got, photo, 1) || why != OutcomeRefined {
			t.Fatalf("got %v (%s), want %v", got, why, photo)
		}
	})
	t.Run("a neighbouring text column is not taken in", func(t *testing.T) {
		img := blankPage()
		fill(img, photo, 60)
		column := image.Rect(710, 400, 900, 700)
		for y := column.Min.Y; y+8 <= column.Max.Y; y += 14 { // lines of text
			fill(img, image.Rect(column.Min.X, y, column.Max.X, y+8), 20)
		}
		text := Region{ID: "t", Kind: KindParagraph, BBox: pts(column)}
		got, _ := refineOneFigure(t, img, image.Rect(300, 400, 760, 700), text)
		if got.Max.X > column.Min.X {
			t.Fatalf("figure %v runs into the text column at x=%d", got, column.Min.X)
		}
		if !near(got, photo, 1) {
			t.Fatalf("got %v, want %v", got, photo)
		}
	})
	t.Run("a card grid a gutter apart is one figure", func(t *testing.T) {
		img := blankPage()
		grid := image.Rect(200, 300, 200+2*150+6, 300+2*100+6)
		for _, c := range []image.Point{{0, 0}, {156, 0}, {0, 106}, {156, 106}} {
			fill(img, image.Rect(200+c.X, 300+c.Y, 200+c.X+150, 300+c.Y+100), 80)
		}
		got, why := refineOneFigure(t, img, image.Rect(200, 300, 356, 400)) // OCR saw the top row
		if !near(got, grid, 1) || why != OutcomeRefined {
			t.Fatalf("got %v (%s), want the whole grid %v", got, why, grid)
		}
	})
	t.Run("a sparse chart is grown through its marks", func(t *testing.T) {
		img := blankPage()
		chart := image.Rect(200, 300, 700, 600)
		fill(img, image.Rect(200, 300, 202, 600), 0)   // y axis
		fill(img, image.Rect(200, 598, 700, 600), 0)   // x axis
		fill(img, image.Rect(200, 300, 700, 301), 150) // top gridline (frame)
		fill(img, image.Rect(698, 300, 700, 600), 150) // right frame
		for x := 230; x < 680; x += 60 {
			fill(img, image.Rect(x, 450, x+30, 598), 90) // bars
		}
		got, why := refineOneFigure(t, img, image.Rect(240, 460, 500, 598))
		if !near(got, chart, 1) || why != OutcomeRefined {
			t.Fatalf("got %v (%s), want %v", got, why, chart)
		}
	})
	t.Run("a result below the shrink floor is reverted", func(t *testing.T) {
		img := blankPage()
		fill(img, image.Rect(400, 500, 440, 540), 60) // a small mark in a big box
		seed := image.Rect(300, 400, 700, 700)
		got, why := refineOneFigure(t, img, seed)
		if why != OutcomeShrink || !near(got, seed, 1) {
			t.Fatalf("got %v (%s), want the old box reverted", got, why)
		}
	})
	t.Run("a result that is neither solid nor framed is reverted", func(t *testing.T) {
		img := blankPage()
		// Two marks at opposite corners: their bounding box is mostly empty.
		fill(img, image.Rect(300, 400, 420, 480), 60)
		fill(img, image.Rect(600, 620, 700, 700), 60)
		seed := image.Rect(300, 400, 700, 700)
		got, why := refineOneFigure(t, img, seed)
		if why != OutcomeNotSolid || !near(got, seed, 1) {
			t.Fatalf("got %v (%s), want reverted as not solid", got, why)
		}
	})
	t.Run("two figures on one graphic are both reverted", func(t *testing.T) {
		img := blankPage()
		fill(img, photo, 60)
		a, b := image.Rect(300, 400, 500, 700), image.Rect(500, 400, 700, 700)
		regions := []Region{{ID: "a", Kind: KindFigure, BBox: pts(a.Inset(20))}, {ID: "b", Kind: KindImage, BBox: pts(b.Inset(20))}}
		out, changes := RefineFigures(img, figScale, regions)
		for i := range regions {
			if out[i].BBox != regions[i].BBox || changes[i].Outcome != OutcomeSharedGraphic {
				t.Errorf("%s moved to %v (%s)", regions[i].ID, out[i].BBox, changes[i].Outcome)
			}
		}
	})
	t.Run("adjacent figures each keep their own graphic", func(t *testing.T) {
		img := blankPage()
		left, right := image.Rect(200, 400, 480, 700), image.Rect(500, 400, 800, 700) // 20 px apart
		fill(img, left, 60)
		fill(img, right, 100)
		regions := []Region{{ID: "l", Kind: KindFigure, BBox: pts(left.Inset(15))}, {ID: "r", Kind: KindFigure, BBox: pts(right.Inset(15))}}
		out, _ := RefineFigures(img, figScale, regions)
		gl, gr := PixelRect(out[0].BBox, figScale, img.Bounds()), PixelRect(out[1].BBox, figScale, img.Bounds())
		if gl.Overlaps(gr) {
			t.Fatalf("the two figures overlap: %v %v", gl, gr)
		}
	})
	t.Run("an empty area keeps its box", func(t *testing.T) {
		seed := image.Rect(300, 400, 700, 700)
		got, why := refineOneFigure(t, blankPage(), seed)
		if why != OutcomeKept || !near(got, seed, 1) {
			t.Fatalf("got %v (%s)", got, why)
		}
	})
	t.Run("the result is a fixed point", func(t *testing.T) {
		img := blankPage()
		fill(img, photo, 60)
		once, _ := RefineFigures(img, figScale, []Region{{ID: "f", Kind: KindFigure, BBox: pts(photo.Inset(-25))}})
		twice, changes := RefineFigures(img, figScale, once)
		if twice[0].BBox != once[0].BBox || changes[0].Outcome != OutcomeKept {
			t.Fatalf("second pass moved %v to %v (%s)", once[0].BBox, twice[0].BBox, changes[0].Outcome)
		}
	})
	t.Run("text regions are untouched and order is kept", func(t *testing.T) {
		img := blankPage()
		fill(img, photo, 60)
		in := []Region{
			{ID: "h", Kind: KindHeadline, BBox: BBox{10, 10, 200, 30}, Text: "Title"},
			{ID: "f", Kind: KindFigure, BBox: pts(photo.Inset(-20))},
			{ID: "p", Kind: KindParagraph, BBox: BBox{10, 500, 200, 100}, Text: "Body"},
		}
		out, _ := RefineFigures(img, figScale, in)
		if len(out) != 3 || out[0] != in[0] || out[2] != in[2] || out[1].ID != "f" {
			t.Fatalf("regions changed: %+v", out)
		}
		if in[1].BBox == out[1].BBox {
			t.Fatal("the input slice was modified or the figure not refined")
		}
	})
}

func TestPixelRectAndCrop(t *testing.T) {
	bounds := image.Rect(0, 0, 100, 100)
	if got := PixelRect(BBox{1.2, 2.5, 3.1, 4}, 2, bounds); got != image.Rect(2, 5, 9, 13) {
		t.Errorf("PixelRect rounds outward: got %v", got)
	}
	if got := PixelRect(BBox{40, 40, 100, 100}, 2, bounds); got != image.Rect(80, 80, 100, 100) {
		t.Errorf("PixelRect clips: got %v", got)
	}
	img := image.NewRGBA(bounds)
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	r := image.Rect(10, 20, 30, 35)
	crop, err := CropPixels(img, r)
	if err != nil {
		t.Fatal(err)
	}
	if crop.Bounds() != image.Rect(0, 0, 20, 15) {
		t.Fatalf("crop bounds %v", crop.Bounds())
	}
	for y := 0; y < 15; y++ {
		for x := 0; x < 20; x++ {
			if crop.RGBAAt(x, y) != img.RGBAAt(x+10, y+20) {
				t.Fatalf("pixel %d,%d differs", x, y)
			}
		}
	}
	if _, err := CropPixels(img, image.Rect(200, 200, 210, 210)); err == nil {
		t.Error("a crop outside the render must fail")
	}
}

func BenchmarkRefineFigures(b *testing.B) {
	img := blankPage()
	var regions []Region
	for i, r := range []image.Rectangle{image.Rect(100, 100, 500, 400), image.Rect(600, 100, 1100, 500), image.Rect(100, 900, 1100, 1500)} {
		fill(img, r, 70)
		regions = append(regions, Region{ID: string(rune('a' + i)), Kind: KindFigure, BBox: pts(r.Inset(-20))})
	}
	b.ResetTimer()
	for b.Loop() {
		RefineFigures(img, figScale, regions)
	}
}

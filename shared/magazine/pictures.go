package magazine

import "fmt"

// ParagraphBoxes are the text blocks of more than one line: picture pieces
// are never joined across them (two figures in two columns stay two).
func ParagraphBoxes(blocks []TextBlock) []BBox {
	var out []BBox
	for _, b := range blocks {
		if b.LineCount > 1 {
			out = append(out, b.BBox)
		}
	}
	return out
}

// Pictures in a text layer: pieces closer than pictureJoinGap points are one
// picture (a figure drawn as many small images), and pictures smaller than
// pictureMinSide points on a side (rules, bullets, logos) are left out.
const (
	pictureJoinGap = 8.0
	pictureMinSide = 24.0
)

// PictureRegions turns a text layer's picture boxes into image regions:
// pieces are joined unless the join would take in a paragraph (barriers);
// the figure pass then fits them to the render.
func PictureRegions(boxes, barriers []BBox) []Region {
	merged := append([]BBox(nil), boxes...)
	for joined := true; joined; {
		joined = false
		for i := 0; i < len(merged) && !joined; i++ {
			for j := i + 1; j < len(merged); j++ {
				if merged[i].Near(merged[j], pictureJoinGap) && !coversAny(merged[i].Union(merged[j]), barriers) {
					merged[i] = merged[i].Union(merged[j])
					merged = append(merged[:j], merged[j+1:]...)
					joined = true
					break
				}
			}
		}
	}
	var out []Region
	for _, b := range merged {
		if b[2] < pictureMinSide || b[3] < pictureMinSide {
			continue
		}
		out = append(out, Region{ID: fmt.Sprintf("p%d", len(out)+1), Kind: KindImage, BBox: b})
	}
	return out
}

// coversAny: the box takes in a real share (a quarter) of some barrier.
func coversAny(box BBox, barriers []BBox) bool {
	for _, b := range barriers {
		if overlap := box.Overlap(b); overlap > 0 && overlap >= 0.25*b.Area() {
			return true
		}
	}
	return false
}

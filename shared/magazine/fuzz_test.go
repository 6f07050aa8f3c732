package magazine

import (
	"math"
	"strings"
	"testing"
)

// FuzzRegionEdits: the values a region edit body carries (a box, a text, a
// split offset, a kind, an order) are applied or refused, never a panic;
// an applied edit leaves the order a permutation of the regions and every
// box on the page (within CheckBox's point of slack).
func FuzzRegionEdits(f *testing.F) {
	f.Add(10.0, 20.0, 100.0, 50.0, "new text", 3, "paragraph", "r2,r1")
	f.Add(-1.0, 0.0, 1e308, math.NaN(), "\xff", -5, "image", "r1,r1")
	f.Fuzz(func(t *testing.T, x, y, w, h float64, text string, offset int, kind, order string) {
		page := Page{Number: 1, Width: 612, Height: 792, Regions: []Region{
			{ID: "r1", Kind: KindParagraph, BBox: BBox{72, 72, 200, 40}, Text: "First paragraph here"},
			{ID: "r2", Kind: KindHeadline, BBox: BBox{72, 20, 300, 30}, Text: "Headline"},
		}, Order: []string{"r2", "r1"}}
		check := func(op string, p Page, err error) {
			if err != nil {
				return
			}
			seen := map[string]bool{}
			for _, id := range p.Order {
				seen[id] = true
			}
			if len(seen) != len(p.Order) || len(p.Order) != len(p.Regions) {
				t.Fatalf("%s: order %v over %d regions", op, p.Order, len(p.Regions))
			}
			for _, r := range p.Regions {
				if !seen[r.ID] {
					t.Fatalf("%s: region %s missing from order %v", op, r.ID, p.Order)
				}
				b := r.BBox
				if !(b[0] >= 0 && b[1] >= 0 && b[2] > 0 && b[3] > 0 && b[0]+b[2] <= p.Width+1 && b[1]+b[3] <= p.Height+1) {
					t.Fatalf("%s: region %s box %v off the page", op, r.ID, b)
				}
			}
		}
		box := BBox{x, y, w, h}
		p, err := MoveRegion(page, "r1", box)
		check("move", p, err)
		p, _, err = AddRegion(page, box, Kind(kind), text)
		check("add", p, err)
		p, err = SetText(page, "r1", text)
		check("text", p, err)
		p, _, _, err = Split(page, "r1", offset)
		check("split", p, err)
		p, _, err = SetKind(page, []string{"r1"}, Kind(kind))
		check("kind", p, err)
		p, err = SetOrder(page, strings.Split(order, ","))
		check("order", p, err)
	})
}

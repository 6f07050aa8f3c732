package magazine

import (
	"strconv"
	"testing"
)

func TestRepeatedFurniture(t *testing.T) {
	page := func(n int, engine string) Page {
		num := strconv.Itoa(n)
		p := Page{Number: n, Width: 612, Height: 792, Engine: engine, Regions: []Region{
			{ID: "r1", Kind: KindParagraph, BBox: BBox{200, 20, 200, 10}, Text: "THE HARBOUR GAZETTE — Volume 3"},
			{ID: "r2", Kind: KindParagraph, BBox: BBox{72, 100, 468, 300}, Text: "Body text of page " + num + " that runs on for a while."},
			{ID: "r3", Kind: KindParagraph, BBox: BBox{72, 420, 300, 12}, Text: "Continued on the next page"},
			{ID: "r4", Kind: KindParagraph, BBox: BBox{280, 760, 60, 10}, Text: "Printed by Smith & Sons, " + num + " May 1901"},
			{ID: "p1", Kind: KindImage, BBox: BBox{72, 450, 200, 200}},
		}}
		return ApplyOrder(p)
	}
	pages := []Page{page(1, "tesseract"), page(2, "tesseract"), page(3, "text-layer"), page(4, "tesseract")}
	ocr := func(p Page) bool { return p.Engine == "tesseract" }
	out, changed := RepeatedFurniture(pages, ocr)
	for i, p := range out {
		kinds := map[string]Kind{}
		for _, r := range p.Regions {
			kinds[r.ID] = r.Kind
		}
		if p.Engine == "text-layer" {
			if changed[i] || kinds["r1"] != KindParagraph {
				t.Errorf("page %d (text layer, classified with its neighbours) changed: %v", p.Number, kinds)
			}
			continue
		}
		if !changed[i] || kinds["r1"] != KindFurniture || kinds["r4"] != KindFurniture {
			t.Errorf("page %d: running head %q and footer %q, want furniture", p.Number, kinds["r1"], kinds["r4"])
		}
		if kinds["r2"] != KindParagraph || kinds["r3"] != KindParagraph || kinds["p1"] != KindImage {
			t.Errorf("page %d: body, a repeated line mid-page or the picture was retyped: %v", p.Number, kinds)
		}
		if len(p.Order) != len(p.Regions) || p.Order[len(p.Order)-1] != "r4" || p.Order[0] == "r1" {
			t.Errorf("page %d: order %v, want furniture read last", p.Number, p.Order)
		}
	}
	if pages[0].Regions[0].Kind != KindParagraph {
		t.Error("the input pages were changed")
	}
	if _, changed := RepeatedFurniture(pages[:1], ocr); changed[0] {
		t.Error("one page alone is no repetition")
	}
}

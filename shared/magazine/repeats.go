package magazine

// RepeatedFurniture types as furniture the short regions of OCR-read pages
// that lie wholly in the top or bottom FurnitureBand at about the same place on at
// least half the pages (and two): running heads and footers of a
// scanned document. A page read from its text layer was classified with
// its neighbours, but an OCR engine reads each page alone, so a scan's
// running head had only single-page evidence. It returns the pages and
// whether each changed; a changed page gets its reading order again (unless
// hand-ordered).
func RepeatedFurniture(pages []Page, ocr func(Page) bool) ([]Page, []bool) {
	changed := make([]bool, len(pages))
	text := make([]TextPage, len(pages))
	index := make([][]int, len(pages)) // text block → region index
	for pi, p := range pages {
		text[pi] = TextPage{Width: p.Width, Height: p.Height}
		for ri, r := range p.Regions {
			if r.Text == "" || IsVisual(r.Kind) {
				continue
			}
			text[pi].Blocks = append(text[pi].Blocks, TextBlock{BBox: r.BBox, Text: r.Text})
			index[pi] = append(index[pi], ri)
		}
	}
	repeats, need := furnitureBlocks(text)
	out := make([]Page, len(pages))
	for pi, p := range pages {
		out[pi] = p
		if !ocr(p) {
			continue
		}
		for bi, b := range text[pi].Blocks {
			ri := index[pi][bi]
			r := p.Regions[ri]
			if repeats[pi][bi] < need || !inEdgeBand(text[pi], b.BBox) || !repeatable(r.Kind) {
				continue
			}
			if !changed[pi] {
				out[pi].Regions = append([]Region(nil), p.Regions...)
				changed[pi] = true
			}
			out[pi].Regions[ri].Kind = KindFurniture
		}
		if changed[pi] {
			out[pi] = ApplyOrder(out[pi])
		}
	}
	return out, changed
}

// repeatable: kinds an engine may give a running head or footer.
func repeatable(k Kind) bool {
	switch k {
	case KindParagraph, KindHeadline, KindSubhead, KindDeck, KindByline, KindCaption:
		return true
	}
	return false
}

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
	text := make([]TextPage, len(pages))
	index := make([][]int, len(pages))
	for pi, p := range pages {
		text[pi], index[pi] = FurnitureText(p)
	}
	marks := FurnitureMarks(text)
	out := make([]Page, len(pages))
	changed := make([]bool, len(pages))
	for pi, p := range pages {
		out[pi] = p
		if ocr(p) {
			out[pi], changed[pi] = MarkFurniture(p, text[pi], index[pi], marks[pi])
		}
	}
	return out, changed
}

// FurnitureText is what RepeatedFurniture reads of a page: its text regions
// as text blocks, with the index of the region each came from. An issue's
// pages can be read one at a time into these, rather than held whole.
func FurnitureText(p Page) (TextPage, []int) {
	text := TextPage{Width: p.Width, Height: p.Height}
	var index []int
	for ri, r := range p.Regions {
		if r.Text == "" || IsVisual(r.Kind) {
			continue
		}
		text.Blocks = append(text.Blocks, TextBlock{BBox: r.BBox, Text: r.Text})
		index = append(index, ri)
	}
	return text, index
}

// FurnitureMarks says, for each block of each page's FurnitureText, whether
// it repeats at about the same place in an edge band on enough pages.
func FurnitureMarks(text []TextPage) [][]bool {
	repeats, need := furnitureBlocks(text)
	marks := make([][]bool, len(text))
	for pi, t := range text {
		marks[pi] = make([]bool, len(t.Blocks))
		for bi, b := range t.Blocks {
			marks[pi][bi] = repeats[pi][bi] >= need && inEdgeBand(t, b.BBox)
		}
	}
	return marks
}

// MarkFurniture types as furniture the regions of an OCR-read page whose
// blocks (FurnitureText's text and index) are marked, when an engine may
// have given them another kind; a changed page gets its reading order again
// (unless hand-ordered).
func MarkFurniture(p Page, text TextPage, index []int, marks []bool) (Page, bool) {
	changed := false
	for bi := range text.Blocks {
		ri := index[bi]
		if !marks[bi] || !repeatable(p.Regions[ri].Kind) {
			continue
		}
		if !changed {
			p.Regions = append([]Region(nil), p.Regions...)
			changed = true
		}
		p.Regions[ri].Kind = KindFurniture
	}
	if changed {
		p = ApplyOrder(p)
	}
	return p, changed
}

// repeatable: kinds an engine may give a running head or footer.
func repeatable(k Kind) bool {
	switch k {
	case KindParagraph, KindHeadline, KindSubhead, KindDeck, KindByline, KindCaption:
		return true
	}
	return false
}

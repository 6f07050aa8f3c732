package magazine

import (
	"math"
	"slices"
	"sort"
)

// Reading-order constants.
const (
	// ColumnWidthSpread: a paragraph is column-width when its width is within
	// this factor of the median paragraph width (either way).
	ColumnWidthSpread = 1.4
	// ColumnStartTolerance: left edges closer than this share of the median
	// column width (at least MinColumnTolerance points) start the same column.
	ColumnStartTolerance = 0.25
	MinColumnTolerance   = 8.0
)

// trailingKinds are placed after everything else on the page, top to bottom:
// they are not part of the article's flow (never deleted from the order, so
// every id stays present and review can still step through them).
var trailingKinds = map[Kind]bool{
	KindFurniture: true, KindPageNumber: true, KindAd: true, KindFootnote: true,
	KindNoise: true, KindDuplicate: true, KindTextInFigure: true,
}

// ReadingOrder returns every region id of the page exactly once, in reading
// order (spec: Reading order 1–3):
//
//  1. Columns are found from where column-width text starts: paragraphs (and
//     lists) whose width is near the median paragraph width have their left
//     edges clustered (ColumnStartTolerance); each cluster is a column start.
//     Whitespace between columns is never measured. Every other region
//     belongs to the column whose start is the last one at or left of its
//     left edge (plus tolerance).
//  2. Headlines, decks and subheads whose box crosses into a further column
//     (or is centred over a gutter) are band breakers: the page is cut into
//     horizontal bands at their tops, and each breaker is read before the
//     columns of the band below it. A region only falls under a breaker
//     that spans one of its columns.
//     Within a band: column by column, left to right, each top to bottom.
//     A headline inside one column stays in that column's flow.
//  3. Pull-quotes are read after the flow, top to bottom; then the trailing
//     kinds (furniture, page numbers, ads, footnotes, cleanup kinds).
//
// Pictures, captions, sources and sidebars stay in the flow where they sit.
func ReadingOrder(page Page) []string {
	var flow, pulls, trailing []Region
	for _, r := range page.Regions {
		switch {
		case r.Kind == KindPullQuote:
			pulls = append(pulls, r)
		case trailingKinds[r.Kind]:
			trailing = append(trailing, r)
		default:
			flow = append(flow, r)
		}
	}
	starts, tol := columnStarts(flow)
	// column is the column a region starts in: the last start at or left of
	// its left edge (plus tolerance), unless its left edge lies before that
	// start and its centre does too (a centred line over the gutter starts
	// in the column on the left).
	column := func(r Region) int {
		c := 0
		for i, s := range starts {
			if r.BBox[0]+tol >= s {
				c = i
			}
		}
		if c > 0 && r.BBox[0] < starts[c] && r.BBox[0]+r.BBox[2]/2 < starts[c] {
			c--
		}
		return c
	}
	// lastColumn is the last column a region reaches into: well past the
	// column's start, or across the gutter with its centre near it (a
	// title, author or date line centred over two columns).
	lastColumn := func(r Region) int {
		c := column(r)
		left, right := r.BBox[0], r.BBox[0]+r.BBox[2]
		for c+1 < len(starts) {
			next := starts[c+1]
			if right > next+tol || left < next && right > next && math.Abs(left+r.BBox[2]/2-next) <= tol {
				c++
				continue
			}
			break
		}
		return c
	}
	var breakers, rest []Region
	for _, r := range flow {
		if (r.Kind == KindHeadline || r.Kind == KindDeck || r.Kind == KindSubhead) && lastColumn(r) > column(r) {
			breakers = append(breakers, r)
		} else {
			rest = append(rest, r)
		}
	}
	sortTopLeft(breakers)

	order := make([]string, 0, len(page.Regions))
	// A region belongs to the band under the last breaker that is above it
	// and spans one of its columns, so a column running down beside a
	// headline (the end of the previous article) is read before it, and a
	// title block of stacked lines (title, authors, date) is read whole
	// before the columns under it.
	bandOf := func(r Region) int {
		b := 0
		for i, br := range breakers {
			if r.BBox[1] >= br.BBox[1] && column(r) <= lastColumn(br) && lastColumn(r) >= column(br) {
				b = i + 1
			}
		}
		return b
	}
	bands := make([][]Region, len(breakers)+1)
	for _, r := range rest {
		b := bandOf(r)
		bands[b] = append(bands[b], r)
	}
	for b, members := range bands {
		if b > 0 {
			order = append(order, breakers[b-1].ID)
		}
		sort.SliceStable(members, func(i, j int) bool {
			ci, cj := column(members[i]), column(members[j])
			if ci != cj {
				return ci < cj
			}
			if members[i].BBox[1] != members[j].BBox[1] {
				return members[i].BBox[1] < members[j].BBox[1]
			}
			return members[i].BBox[0] < members[j].BBox[0]
		})
		for start := 0; start < len(members); {
			end := start + 1
			for end < len(members) && column(members[end]) == column(members[start]) {
				end++
			}
			for _, r := range byRows(members[start:end]) {
				order = append(order, r.ID)
			}
			start = end
		}
	}
	sortTopLeft(pulls)
	sortTopLeft(trailing)
	for _, r := range pulls {
		order = append(order, r.ID)
	}
	for _, r := range trailing {
		order = append(order, r.ID)
	}
	return order
}

// ApplyOrder sets the page's reading order unless the page is hand-ordered,
// in which case the page is returned untouched.
func ApplyOrder(page Page) Page {
	if page.HandOrdered {
		return page
	}
	page.Order = ReadingOrder(page)
	return page
}

// columnStarts clusters the left edges of column-width paragraphs.
func columnStarts(flow []Region) (starts []float64, tol float64) {
	var widths []float64
	for _, r := range flow {
		if isColumnText(r) {
			widths = append(widths, r.BBox[2])
		}
	}
	if len(widths) == 0 {
		return []float64{math.Inf(-1)}, MinColumnTolerance
	}
	slices.Sort(widths)
	median := widths[len(widths)/2]
	tol = math.Max(MinColumnTolerance, ColumnStartTolerance*median)
	var lefts []float64
	for _, r := range flow {
		w := r.BBox[2]
		if isColumnText(r) && w >= median/ColumnWidthSpread && w <= median*ColumnWidthSpread {
			lefts = append(lefts, r.BBox[0])
		}
	}
	slices.Sort(lefts)
	clusterStart, sum, n := lefts[0], 0.0, 0
	for _, x := range lefts {
		if n > 0 && x-clusterStart > tol {
			starts = append(starts, sum/float64(n))
			clusterStart, sum, n = x, 0, 0
		}
		sum += x
		n++
	}
	starts = append(starts, sum/float64(n))
	// Anything left of the first column belongs to it.
	starts[0] = math.Min(starts[0], lefts[0])
	return starts, tol
}

func isBodyKind(k Kind) bool { return k == KindParagraph || k == KindList }

// ColumnTextMinLines: body text at least this many lines tall shows where a
// column runs. One-line paragraphs (table cells, form labels, a date line)
// say nothing of columns: counting them made every cell a column start.
const ColumnTextMinLines = 1.6

// isColumnText: a paragraph or list of more than one line (or of unknown
// font size, as vision engines give), which marks a column.
func isColumnText(r Region) bool {
	return isBodyKind(r.Kind) && r.BBox[2] > 0 && (r.FontSize <= 0 || r.BBox[3] >= ColumnTextMinLines*r.FontSize)
}

// RowToleranceEms: regions of one column whose tops are within this many
// font sizes sit on one row (the cells of a table row, a label and its
// value) and are read left to right.
const RowToleranceEms = 0.5

// byRows reads a column's regions (sorted top to bottom) row by row: a run
// of regions whose tops lie within RowToleranceEms of the run's first is
// one row, read left to right, so a cell a fraction of a point higher than
// its row's first cell does not jump ahead of it.
func byRows(col []Region) []Region {
	out := make([]Region, 0, len(col))
	for start := 0; start < len(col); {
		em := col[start].FontSize
		if em <= 0 {
			em = MinColumnTolerance
		}
		end := start + 1
		for end < len(col) && col[end].BBox[1]-col[start].BBox[1] <= RowToleranceEms*em {
			end++
		}
		row := slices.Clone(col[start:end])
		sort.SliceStable(row, func(i, j int) bool { return row[i].BBox[0] < row[j].BBox[0] })
		out = append(out, row...)
		start = end
	}
	return out
}

func sortTopLeft(rs []Region) {
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].BBox[1] != rs[j].BBox[1] {
			return rs[i].BBox[1] < rs[j].BBox[1]
		}
		return rs[i].BBox[0] < rs[j].BBox[0]
	})
}

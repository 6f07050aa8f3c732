package magazine

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Table detection thresholds.
const (
	// TableMinRows: a table has at least this many rows, counting the
	// stacked lines of a row whose number cells MuPDF set as one block each.
	TableMinRows = 3
	// TableMinColumns: every row after the first shares at least this many
	// columns with the rows above it.
	TableMinColumns = 2
	// TableCellMaxLines: a cell is at most this many lines.
	TableCellMaxLines = 4
	// TableCellMaxWords: a cell has at most this many words a line besides figures.
	TableCellMaxWords = 5
	// TableAlignEms: edges or centres within this many font sizes align.
	TableAlignEms = 0.5
	// TableRowGapEms: a row starts at most this many font sizes under the one above.
	TableRowGapEms = 2.0
	// TablePitchRatio: below the header, the widest row pitch is at most
	// this many times the narrowest.
	TablePitchRatio = 2.5
	// TableInsideShare: a short block this much inside a table's box is one of its cells.
	TableInsideShare = 0.5
)

// listMarkerRe: a bullet or list number standing alone; a column of them is
// a list, not a table.
var listMarkerRe = regexp.MustCompile(`^(?:[•·▪◦‣∙○●■□*–—-]|\(?[0-9]{1,3}[.)]|\(?[a-zA-Z][.)])$`)

// cell is a block that may sit in a table.
type cell struct {
	i     int // region index
	box   BBox
	em    float64
	lines int
	// stacked: a number on every line, so its lines are rows of their own.
	stacked bool
	text    string
}

func (c cell) top() float64     { return c.box[1] }
func (c cell) bottom() float64  { return c.box[1] + c.box[3] }
func (c cell) centreY() float64 { return c.box[1] + c.box[3]/2 }

// tables merges each grid of short blocks on the page into one table region
// (Kind and VisualKind table) whose box is their union and whose text is
// the rows top to bottom, one a line, cells left to right joined by a tab
// (whitespace, so never spoken as a symbol), dot leaders dropped.
// A table is read aloud row by row (its text), after its description when
// descriptions are asked for; the tab between cells is for the speech step
// to pause on.
//
// A grid: rows of at least two short blocks (paragraph, subhead or footnote
// so far; at most TableCellMaxLines lines; digits, or at most
// TableCellMaxWords words a line; not a lone bullet) whose tops or centres
// align; consecutive rows no more than TableRowGapEms apart, each sharing at
// least TableMinColumns columns (left edges, right edges or centres within
// TableAlignEms) with the rows above; at least TableMinRows rows and two
// block rows; below the first (header) row a regular pitch (TablePitchRatio).
// Short blocks mostly inside the grid's box (a row label that spans two
// lines) join it. Region ids are renumbered r1..rN; a table takes the place
// of its first cell.
func tables(blocks []TextBlock, regions []Region, body float64) []Region {
	var cells []cell
	for i, r := range regions {
		if lines, ok := lineCells(i, blocks[i], r, body); ok {
			cells = append(cells, lines...)
		} else if c, ok := tableCell(i, blocks[i], r, body); ok {
			cells = append(cells, c)
		}
	}
	grids := findTables(cells)
	if len(grids) == 0 {
		return regions
	}
	// A cell the furniture rules took (a table continued over several
	// pages repeats its dates and counts at the same places) is a cell
	// when it lies inside a table: a running head or footer never does.
	inside := slices.Clone(cells)
	for i, r := range regions {
		if r.Kind != KindFurniture && r.Kind != KindPageNumber {
			continue
		}
		as := r
		as.Kind = KindParagraph
		if c, ok := tableCell(i, blocks[i], as, body); ok {
			inside = append(inside, c)
		}
	}
	member := map[int]int{} // region index → grid
	for g, grid := range grids {
		for _, c := range grid {
			member[c.i] = g
		}
	}
	// Short blocks inside a grid's box join it.
	for g, grid := range grids {
		box := grid[0].box
		for _, c := range grid[1:] {
			box = box.Union(c.box)
		}
		for _, c := range inside {
			if _, in := member[c.i]; !in && c.box.Overlap(box) >= TableInsideShare*c.box.Area() {
				member[c.i] = g
			}
		}
	}
	// A table holds every cell of its blocks: a block read line by line
	// brings all its lines, also those outside the grid's rows.
	members := make([][]cell, len(grids))
	for _, c := range inside {
		if g, in := member[c.i]; in {
			members[g] = append(members[g], c)
		}
	}
	out := make([]Region, 0, len(regions))
	done := map[int]bool{}
	for i, r := range regions {
		g, in := member[i]
		switch {
		case !in:
			out = append(out, r)
		case !done[g]:
			done[g] = true
			out = append(out, tableRegion(members[g], regions))
		}
	}
	for i := range out {
		out[i].ID = "r" + strconv.Itoa(i+1)
	}
	return out
}

// tableCell: the block may be a table cell.
func tableCell(i int, b TextBlock, r Region, body float64) (cell, bool) {
	switch r.Kind {
	case KindParagraph, KindSubhead, KindFootnote:
	default:
		return cell{}, false
	}
	lines := max(b.LineCount, 1)
	if r.Text == "" || lines > TableCellMaxLines || listMarkerRe.MatchString(r.Text) {
		return cell{}, false
	}
	words, numbers := 0, 0
	for _, w := range strings.Fields(r.Text) {
		switch {
		case strings.IndexFunc(w, unicode.IsDigit) >= 0:
			numbers++
			words++
		case strings.IndexFunc(w, unicode.IsLetter) >= 0:
			words++
		}
	}
	// Words other than figures: a line of prose that happens to hold a
	// number ("column 1 on the nets of the bay") is not a cell.
	if words-numbers > TableCellMaxWords*lines {
		return cell{}, false
	}
	em := b.FontSize
	if em <= 0 {
		em = body
	}
	return cell{i: i, box: r.BBox, em: math.Max(em, 4), lines: lines, stacked: lines > 1 && numbers >= lines, text: r.Text}, true
}

// TableProseStarts: a block whose lines start lower case this often
// (after its first) is running prose, not a column of cells.
const TableProseStarts = 0.2

// lineCells splits a block that is a column of cells (the PDF set a whole
// table column as one block: names, or figures, one a line) into one cell a
// line, so the table reads row by row. Each line must be a cell on its own
// (at most TableCellMaxWords words besides figures; not a lone bullet), and few
// lines may start lower case: prose continues its sentences on the next
// line, a column of cells does not.
func lineCells(i int, b TextBlock, r Region, body float64) ([]cell, bool) {
	switch r.Kind {
	case KindParagraph, KindSubhead, KindFootnote:
	default:
		return nil, false
	}
	if len(b.Lines) < 2 {
		return nil, false
	}
	em := b.FontSize
	if em <= 0 {
		em = body
	}
	em = math.Max(em, 4)
	lower := 0
	out := make([]cell, 0, len(b.Lines))
	for k, l := range b.Lines {
		text := NormalizeText(strings.TrimSpace(l.Text))
		words := strings.Fields(text)
		if len(words) == 0 || listMarkerRe.MatchString(text) || len(words)-countNumbers(words) > TableCellMaxWords {
			return nil, false
		}
		if k > 0 && startsLower(text) {
			lower++
		}
		out = append(out, cell{i: i, box: l.BBox, em: em, lines: 1, text: text})
	}
	if float64(lower) > TableProseStarts*float64(len(b.Lines)-1) {
		return nil, false
	}
	return out, true
}

// countNumbers counts the words that hold a digit.
func countNumbers(words []string) int {
	n := 0
	for _, w := range words {
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			n++
		}
	}
	return n
}

// findTables groups cells into rows and rows into grids that pass the rules.
func findTables(cells []cell) [][]cell {
	var rows [][]cell
	for _, row := range groupRows(cells) {
		if len(row) >= 2 {
			rows = append(rows, row)
		}
	}
	var grids [][]cell
	var cur [][]cell  // rows of the grid being built
	var cols [][]cell // its columns
	flush := func() {
		if isTable(cur) {
			grids = append(grids, slices.Concat(cur...))
		}
		cur, cols = nil, nil
	}
	for _, row := range rows {
		if cur != nil {
			if next, ok := joinRow(cur, cols, row); ok {
				cur, cols = append(cur, row), next
				continue
			}
			flush()
		}
		cur = [][]cell{row}
		for _, c := range row {
			cols = append(cols, []cell{c})
		}
	}
	flush()
	return grids
}

// groupRows puts cells whose tops or centres align, and that do not
// overlap across, in one row; rows top to bottom, cells left to right.
func groupRows(cells []cell) [][]cell {
	sorted := slices.Clone(cells)
	slices.SortStableFunc(sorted, func(a, b cell) int {
		return cmp.Or(cmp.Compare(a.top(), b.top()), cmp.Compare(a.box[0], b.box[0]))
	})
	used := make([]bool, len(sorted))
	var rows [][]cell
	for s, seed := range sorted {
		if used[s] {
			continue
		}
		used[s] = true
		row := []cell{seed}
		for j := s + 1; j < len(sorted); j++ {
			c := sorted[j]
			tol := TableAlignEms * math.Max(seed.em, c.em)
			if c.top() > seed.bottom()+tol {
				break
			}
			if used[j] || !(math.Abs(c.top()-seed.top()) <= tol || math.Abs(c.centreY()-seed.centreY()) <= tol) {
				continue
			}
			if slices.ContainsFunc(row, func(o cell) bool { return overlapX(o.box, c.box) > 0 }) {
				continue
			}
			used[j] = true
			row = append(row, c)
		}
		slices.SortFunc(row, func(a, b cell) int { return cmp.Compare(a.box[0], b.box[0]) })
		rows = append(rows, row)
	}
	return rows
}

// joinRow: the row continues the grid when it starts close under it and
// shares TableMinColumns columns; the columns come back with its cells.
func joinRow(grid [][]cell, cols [][]cell, row []cell) ([][]cell, bool) {
	bottom, em := 0.0, 0.0
	for _, c := range slices.Concat(grid...) {
		bottom = math.Max(bottom, c.bottom())
	}
	for _, c := range row {
		em = math.Max(em, c.em)
	}
	if gap := rowTop(row) - bottom; gap > TableRowGapEms*em || gap < -TableAlignEms*em {
		return nil, false
	}
	next := slices.Clone(cols)
	taken := make([]bool, len(cols))
	shared := 0
	for _, c := range row {
		k := slices.IndexFunc(cols, func(col []cell) bool {
			return slices.ContainsFunc(col, func(o cell) bool { return alignedX(o, c) })
		})
		if k >= 0 && !taken[k] {
			taken[k] = true
			shared++
			next[k] = append(slices.Clone(next[k]), c)
			continue
		}
		next = append(next, []cell{c})
	}
	return next, shared >= TableMinColumns
}

// isTable: enough rows at a regular pitch below the header.
func isTable(rows [][]cell) bool {
	if len(rows) < 2 {
		return false
	}
	n := 0
	var pitches []float64
	for i, row := range rows {
		lines := rowLines(row)
		n += lines
		if i > 0 && i+1 < len(rows) {
			pitches = append(pitches, (rowTop(rows[i+1])-rowTop(row))/float64(lines))
		}
		if i > 0 && lines > 1 {
			for range lines - 1 {
				pitches = append(pitches, rowHeight(row)/float64(lines))
			}
		}
	}
	if n < TableMinRows {
		return false
	}
	if len(pitches) >= 2 {
		lo, hi := slices.Min(pitches), slices.Max(pitches)
		if lo <= 0 || hi > TablePitchRatio*lo {
			return false
		}
	}
	return true
}

// rowLines: a row counts as k rows when at least two of its cells are
// stacked number columns of k lines (MuPDF set a column of figures as one
// block), else as one.
func rowLines(row []cell) int {
	count := map[int]int{}
	best := 1
	for _, c := range row {
		if c.stacked {
			count[c.lines]++
			if count[c.lines] >= 2 && c.lines > best {
				best = c.lines
			}
		}
	}
	return best
}

func rowTop(row []cell) float64 {
	top := math.Inf(1)
	for _, c := range row {
		top = math.Min(top, c.top())
	}
	return top
}

func rowHeight(row []cell) float64 {
	h := 0.0
	for _, c := range row {
		h = math.Max(h, c.box[3])
	}
	return h
}

// alignedX: left edges, right edges or centres within TableAlignEms.
func alignedX(a, b cell) bool {
	tol := TableAlignEms * math.Max(a.em, b.em)
	l := math.Abs(a.box[0] - b.box[0])
	r := math.Abs(a.box[0] + a.box[2] - b.box[0] - b.box[2])
	c := math.Abs(a.box[0] + a.box[2]/2 - b.box[0] - b.box[2]/2)
	return l <= tol || r <= tol || c <= tol
}

// tableRegion is the one region of a grid's cells.
func tableRegion(grid []cell, regions []Region) Region {
	first := slices.MinFunc(grid, func(a, b cell) int { return a.i - b.i })
	box := regions[grid[0].i].BBox // the union of its blocks
	for _, c := range grid[1:] {
		box = box.Union(regions[c.i].BBox)
	}
	t := gridTable(groupRows(grid))
	text := t.Text()
	return Region{
		Kind: KindTable, VisualKind: KindTable, BBox: box, Text: text, OriginalText: text,
		FontSize: regions[first.i].FontSize, Bold: regions[first.i].Bold, Table: &t,
	}
}

// TableMaxHeadRows: at most this many rows are headings.
const TableMaxHeadRows = 3

// TableSpanShare: a cell spans the columns it overlaps by at least this
// share of the narrower of the two.
const TableSpanShare = 0.2

// gridTable lays a grid's rows of cells on columns. The columns are those
// of the rows with the most cells (their cells' extents, united down the
// table); a cell of another row takes the columns it overlaps (a heading
// over two columns spans them) or, overlapping none, the nearest. The
// heading rows are the first row and the rows under group headings.
func gridTable(rows [][]cell) Table {
	widest := 0
	for _, row := range rows {
		widest = max(widest, len(row))
	}
	cols := make([][2]float64, widest)
	for k := range cols {
		cols[k] = [2]float64{math.Inf(1), math.Inf(-1)}
	}
	for _, row := range rows {
		if len(row) != widest {
			continue
		}
		for k, c := range row {
			cols[k] = [2]float64{math.Min(cols[k][0], c.box[0]), math.Max(cols[k][1], c.box[0]+c.box[2])}
		}
	}
	var t Table
	for _, row := range rows {
		slots := make([]Cell, 0, widest)
		next := 0 // first column still free in this row
		for _, c := range row {
			first, last := -1, -1
			for k, col := range cols {
				over := math.Min(col[1], c.box[0]+c.box[2]) - math.Max(col[0], c.box[0])
				if over > 0 && over >= TableSpanShare*math.Min(col[1]-col[0], c.box[2]) {
					if first < 0 {
						first = k
					}
					last = k
				}
			}
			if first < 0 {
				first = nearestColumn(cols, c.box[0]+c.box[2]/2)
				last = first
			}
			first, last = max(first, next), max(last, next)
			text := strings.Join(strings.Fields(dotLeaderRe.ReplaceAllString(c.text, " ")), " ")
			if first >= widest { // no column left: the words join the last cell
				if n := len(slots); n > 0 {
					slots[n-1].Text = strings.TrimSpace(slots[n-1].Text + " " + text)
				}
				continue
			}
			for ; next < first; next++ {
				slots = append(slots, Cell{})
			}
			cell := Cell{Text: text}
			if last > first {
				cell.ColSpan = last - first + 1
			}
			slots = append(slots, cell)
			next = last + 1
		}
		for ; next < widest; next++ {
			slots = append(slots, Cell{})
		}
		t.Rows = append(t.Rows, slots)
	}
	// Heading rows: the first row, and below a row of group headings
	// (its first cell empty: they head columns, not a row) the next, up
	// to the first row that holds a figure. A row with a label first is
	// a row of the table (a table may be laid on its side).
	figures := func(row []Cell) bool { return slices.ContainsFunc(row, func(c Cell) bool { return isFigure(c.Text) }) }
	first := slices.IndexFunc(t.Rows, figures)
	if first < 0 {
		first = len(t.Rows)
	}
	head := 0
	for head < min(first, TableMaxHeadRows) && (head == 0 || t.Rows[head-1][0].Text == "") {
		head++
	}
	if len(t.Rows) > head && head > 0 {
		for r := range head {
			for k := range t.Rows[r] {
				t.Rows[r][k].Header = true
			}
		}
	}
	return t
}

// nearestColumn is the column whose centre is nearest x.
func nearestColumn(cols [][2]float64, x float64) int {
	best, dist := 0, math.Inf(1)
	for k, col := range cols {
		if d := math.Abs((col[0]+col[1])/2 - x); d < dist {
			best, dist = k, d
		}
	}
	return best
}

// isFigure: a cell that is mostly digits (an amount, a count, a date).
func isFigure(s string) bool {
	digits, letters := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
		}
	}
	return digits > 0 && digits >= letters
}

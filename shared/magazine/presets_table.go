package magazine

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// htmlTable reads an engine's HTML table (dots.ocr's and olmOCR's tables)
// as a table's cells: <th> cells and the cells of <thead> are headings,
// rowspan and colspan are kept, a <caption> is the caption. nil when the
// text holds no table of at least two columns, or one past the bounds a
// table may have.
func htmlTable(s string) *Table {
	if !strings.Contains(s, "<") {
		return nil
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var t Table
	var row []Cell
	var text, caption strings.Builder
	var cur *Cell
	inHead, inCaption, sawTable := false, false, false
	endCell := func() {
		if cur != nil {
			cur.Text = oneLine(text.String())
			row = append(row, *cur)
			cur = nil
			text.Reset()
		}
	}
	endRow := func() {
		endCell()
		if len(row) > 0 {
			t.Rows = append(t.Rows, row)
		}
		row = nil
	}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		name, hasAttr := z.TagName()
		switch tag := string(name); tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			switch tag {
			case "table":
				sawTable = true
			case "thead":
				inHead = true
			case "tbody", "tfoot":
				inHead = false
			case "caption":
				inCaption = true
			case "tr":
				endRow()
			case "td", "th":
				endCell()
				cur = &Cell{Header: tag == "th" || inHead}
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					n, err := strconv.Atoi(strings.TrimSpace(string(v)))
					if err != nil || n < 2 {
						continue
					}
					switch string(k) {
					case "rowspan":
						cur.RowSpan = min(n, TableMaxRows)
					case "colspan":
						cur.ColSpan = min(n, TableMaxColumns)
					}
				}
			case "br":
				text.WriteByte(' ')
			}
		case html.EndTagToken:
			switch tag {
			case "td", "th":
				endCell()
			case "tr", "table":
				endRow()
			case "thead":
				inHead = false
			case "caption":
				inCaption = false
			}
		case html.TextToken:
			switch {
			case cur != nil:
				text.Write(z.Text())
			case inCaption:
				caption.Write(z.Text())
			}
		}
	}
	endRow()
	if !sawTable || tooLarge(t.Rows) {
		return nil
	}
	return checkedTable(t.layout().table(oneLine(caption.String())))
}

// gridCell is a cell an engine places on the table's grid itself
// (docling's table_cells).
type gridCell struct {
	row, col, rowSpan, colSpan int
	text                       string
	header                     bool
}

// cellsTable places cells on their grid; a slot two cells claim goes to
// the first, and a slot none claims is an empty cell.
func cellsTable(cells []gridCell) *Table {
	rows, cols := 0, 0
	for _, c := range cells {
		if c.row < 0 || c.col < 0 || c.row >= TableMaxRows || c.col >= TableMaxColumns {
			return nil
		}
		rows = max(rows, c.row+max(c.rowSpan, 1))
		cols = max(cols, c.col+max(c.colSpan, 1))
	}
	area := 0
	for _, c := range cells {
		area += max(c.rowSpan, 1) * max(c.colSpan, 1)
	}
	if area > TableMaxRows*TableMaxColumns {
		return nil
	}
	rows, cols = min(rows, TableMaxRows), min(cols, TableMaxColumns)
	d := dense{owner: make([][]int, rows)}
	for r := range d.owner {
		d.owner[r] = make([]int, cols)
		for c := range d.owner[r] {
			d.owner[r][c] = -1
		}
	}
	for _, c := range cells {
		k := len(d.cells)
		d.cells = append(d.cells, Cell{Text: oneLine(c.text), Header: c.header})
		for r := c.row; r < min(c.row+max(c.rowSpan, 1), rows); r++ {
			for col := c.col; col < min(c.col+max(c.colSpan, 1), cols); col++ {
				if d.owner[r][col] < 0 {
					d.owner[r][col] = k
				}
			}
		}
	}
	return checkedTable(d.table(""))
}

// tooLarge reports cells whose spans cover more slots than the largest
// table may have: laying them out would only waste time on an answer no
// review could edit.
func tooLarge(rows [][]Cell) bool {
	area := 0
	for _, row := range rows {
		for _, c := range row {
			area += c.rows() * c.cols()
		}
	}
	return area > TableMaxRows*TableMaxColumns
}

// checkedTable is t when it is a table of two columns or more within the
// bounds review can edit; nil otherwise (the region keeps its text).
func checkedTable(t Table) *Table {
	if len(t.Rows) == 0 || t.Width() < 2 || t.Check() != nil {
		return nil
	}
	return &t
}

// withTable gives a table region its cells: its text is then the cells'
// text, as for a table read from the words' positions.
func withTable(r Region, t *Table) Region {
	if t == nil || r.Kind != KindTable {
		return r
	}
	r.Table = t
	r.Text = t.Text()
	r.OriginalText = r.Text
	return r
}

package magazine

import (
	"fmt"
	"html"
	"strings"
)

// Table bounds: a table the review edits may grow to.
const (
	TableMaxRows    = 500
	TableMaxColumns = 50
	TableMaxCell    = 2000 // characters of one cell
)

// Table is a table region's cells, as HTML lays them out: each row lists
// the cells that start in it, left to right; a cell spanning rows or
// columns covers the slots to its right and below, which the rows below
// do not list again.
type Table struct {
	Rows    [][]Cell `json:"rows"`
	Caption string   `json:"caption,omitempty"`
}

// Cell is one cell of a table.
type Cell struct {
	Text    string `json:"text"`
	RowSpan int    `json:"row_span,omitempty" doc:"rows the cell covers; 0 or 1 is one"`
	ColSpan int    `json:"col_span,omitempty" doc:"columns the cell covers; 0 or 1 is one"`
	Header  bool   `json:"header,omitempty" doc:"a heading cell (of a header row)"`
}

func (c Cell) rows() int { return max(c.RowSpan, 1) }
func (c Cell) cols() int { return max(c.ColSpan, 1) }

// dense is a table laid out on its rectangular grid: owner[r][c] indexes
// the cell covering slot (r, c), -1 for a slot no cell covers.
type dense struct {
	cells []Cell
	owner [][]int
}

// layout places the table's cells on the grid, as a browser places an
// HTML table's: each cell at the first free slot of its row.
func (t Table) layout() dense {
	width := 0
	var d dense
	taken := map[[2]int]bool{}
	for r, row := range t.Rows {
		c := 0
		for _, cell := range row {
			for taken[[2]int{r, c}] {
				c++
			}
			k := len(d.cells)
			d.cells = append(d.cells, cell)
			for dr := range cell.rows() {
				if r+dr >= len(t.Rows) {
					break // a span past the last row is cut there
				}
				for dc := range cell.cols() {
					taken[[2]int{r + dr, c + dc}] = true
					for len(d.owner) <= r+dr {
						d.owner = append(d.owner, nil)
					}
					for len(d.owner[r+dr]) <= c+dc {
						d.owner[r+dr] = append(d.owner[r+dr], -1)
					}
					d.owner[r+dr][c+dc] = k
				}
			}
			c += cell.cols()
			width = max(width, c)
		}
	}
	for len(d.owner) < len(t.Rows) {
		d.owner = append(d.owner, nil)
	}
	for r := range d.owner {
		for len(d.owner[r]) < width {
			d.owner[r] = append(d.owner[r], -1)
		}
	}
	return d
}

// table collapses the grid back to rows of cells, giving each cell the
// rectangle its slots cover; an uncovered slot becomes an empty cell.
func (d dense) table(caption string) Table {
	t := Table{Caption: caption, Rows: make([][]Cell, len(d.owner))}
	seen := map[int]bool{}
	for r, row := range d.owner {
		t.Rows[r] = []Cell{}
		for c, k := range row {
			if k < 0 {
				t.Rows[r] = append(t.Rows[r], Cell{})
				continue
			}
			if seen[k] {
				continue
			}
			seen[k] = true
			rs, cs := 1, 1
			for r+rs < len(d.owner) && d.owner[r+rs][c] == k {
				rs++
			}
			for c+cs < len(row) && row[c+cs] == k {
				cs++
			}
			cell := d.cells[k]
			cell.RowSpan, cell.ColSpan = 0, 0
			if rs > 1 {
				cell.RowSpan = rs
			}
			if cs > 1 {
				cell.ColSpan = cs
			}
			t.Rows[r] = append(t.Rows[r], cell)
		}
	}
	return t
}

// Width is the number of columns of the table's grid.
func (t Table) Width() int {
	d := t.layout()
	if len(d.owner) == 0 {
		return 0
	}
	return len(d.owner[0])
}

// Matrix is the table as a rectangle of texts: a spanning cell's text in
// its first slot, "" in the slots it covers (as olmOCR-bench reads a
// Markdown table).
func (t Table) Matrix() [][]string {
	d := t.layout()
	seen := map[int]bool{}
	out := make([][]string, len(d.owner))
	for r, row := range d.owner {
		out[r] = make([]string, len(row))
		for c, k := range row {
			if k >= 0 && !seen[k] {
				seen[k] = true
				out[r][c] = d.cells[k].Text
			}
		}
	}
	return out
}

// HeaderRows is the number of leading rows whose cells are all headings.
func (t Table) HeaderRows() int {
	n := 0
	for _, row := range t.Rows {
		if len(row) == 0 {
			return n
		}
		for _, c := range row {
			if !c.Header {
				return n
			}
		}
		n++
	}
	return n
}

// Text is the table as Lectern's plain table text: one row a line, its
// cells' texts (not empty) joined by a tab.
func (t Table) Text() string {
	lines := make([]string, 0, len(t.Rows))
	for _, row := range t.Rows {
		var cells []string
		for _, c := range row {
			if s := oneLine(c.Text); s != "" {
				cells = append(cells, s)
			}
		}
		if len(cells) > 0 {
			lines = append(lines, strings.Join(cells, "\t"))
		}
	}
	return strings.Join(lines, "\n")
}

// oneLine collapses a cell's whitespace: a cell is one line in every form.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// TableFromText reads Lectern's table text (rows a line, cells a tab
// apart) as a table without headings; nil when it is not two columns.
func TableFromText(text string) *Table {
	var t Table
	width := 0
	for line := range strings.SplitSeq(strings.TrimSpace(text), "\n") {
		var row []Cell
		for cell := range strings.SplitSeq(line, "\t") {
			row = append(row, Cell{Text: oneLine(cell)})
		}
		width = max(width, len(row))
		t.Rows = append(t.Rows, row)
	}
	if width < 2 {
		return nil
	}
	for r := range t.Rows {
		for len(t.Rows[r]) < width {
			t.Rows[r] = append(t.Rows[r], Cell{})
		}
	}
	return &t
}

// Markdown is the table as a GitHub pipe table, its caption first. Its
// heading row holds each column's headings (several heading rows, which a
// pipe table cannot show, joined top to bottom); a table without heading
// rows has an empty one, so no data row is read as headings.
func (t Table) Markdown() string {
	m := t.Matrix()
	if len(m) == 0 || len(m[0]) == 0 {
		return ""
	}
	var b strings.Builder
	if c := oneLine(t.Caption); c != "" {
		b.WriteString(markdownCell(c) + "\n\n")
	}
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + markdownCell(c) + " |")
		}
		b.WriteString("\n")
	}
	body := m
	if h := t.headings(); h != nil {
		line(h)
		body = m[min(t.HeaderRows(), len(m)):]
	} else {
		line(make([]string, len(m[0])))
	}
	rule := make([]string, len(m[0]))
	for i := range rule {
		rule[i] = "---"
	}
	b.WriteString("|" + strings.Join(rule, "|") + "|\n")
	for _, row := range body {
		line(row)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// markdownCell escapes what would end a cell or start markup.
var markdownCell = func() func(string) string {
	r := strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;")
	return func(s string) string { return r.Replace(oneLine(s)) }
}()

// HTML is the table as an HTML table, every text escaped: heading rows in
// thead with th cells, spans as rowspan and colspan.
func (t Table) HTML() string {
	var b strings.Builder
	b.WriteString("<table>")
	if c := oneLine(t.Caption); c != "" {
		b.WriteString("<caption>" + html.EscapeString(c) + "</caption>")
	}
	head := t.HeaderRows()
	for r, row := range t.Rows {
		switch r {
		case 0:
			if head > 0 {
				b.WriteString("<thead>")
			} else {
				b.WriteString("<tbody>")
			}
		case head:
			b.WriteString("</thead><tbody>")
		}
		b.WriteString("<tr>")
		for _, c := range row {
			tag := "td"
			if c.Header {
				tag = "th"
			}
			b.WriteString("<" + tag)
			if c.RowSpan > 1 {
				fmt.Fprintf(&b, ` rowspan="%d"`, c.RowSpan)
			}
			if c.ColSpan > 1 {
				fmt.Fprintf(&b, ` colspan="%d"`, c.ColSpan)
			}
			b.WriteString(">" + html.EscapeString(oneLine(c.Text)) + "</" + tag + ">")
		}
		b.WriteString("</tr>")
	}
	if len(t.Rows) > 0 {
		if head >= len(t.Rows) {
			b.WriteString("</thead>")
		} else {
			b.WriteString("</tbody>")
		}
	}
	b.WriteString("</table>")
	return b.String()
}

// headings is each column's heading: the texts of every heading cell over
// it, top to bottom, a spanning one included (it names each column under
// it); nil for a table without heading rows.
func (t Table) headings() []string {
	head := t.HeaderRows()
	d := t.layout()
	if head == 0 || len(d.owner) == 0 {
		return nil
	}
	headings := make([]string, len(d.owner[0]))
	for c := range headings {
		last := -1
		for r := range head {
			if k := d.owner[r][c]; k >= 0 && k != last {
				last = k
				if s := oneLine(d.cells[k].Text); s != "" {
					headings[c] = strings.TrimSpace(headings[c] + " " + s)
				}
			}
		}
	}
	return headings
}

// Spoken is the table in a form to listen to: its caption, then each row
// below the headings as "heading: value" pairs, a sentence a row. A table
// without heading rows reads its cells in order, a row a sentence.
func (t Table) Spoken() string {
	m := t.Matrix()
	head := min(t.HeaderRows(), len(m))
	headings := t.headings()
	var sentences []string
	if c := oneLine(t.Caption); c != "" {
		sentences = append(sentences, sentence(c))
	}
	for _, row := range m[head:] {
		var parts []string
		for c, s := range row {
			if s = oneLine(s); s == "" {
				continue
			}
			if headings != nil && headings[c] != "" && headings[c] != s {
				s = headings[c] + ": " + s
			}
			parts = append(parts, s)
		}
		if len(parts) > 0 {
			sentences = append(sentences, sentence(strings.Join(parts, ", ")))
		}
	}
	return strings.Join(sentences, "\n")
}

// sentence ends s with a full stop unless it ends with punctuation.
func sentence(s string) string {
	if strings.ContainsAny(s[len(s)-1:], ".!?:;") {
		return s
	}
	return s + "."
}

// Check refuses a table a review edit may not store: no cells, too many
// rows, columns or characters, or a span that is not positive.
func (t Table) Check() error {
	if len(t.Rows) == 0 || len(t.Rows) > TableMaxRows {
		return fmt.Errorf("a table has 1 to %d rows, not %d: %w", TableMaxRows, len(t.Rows), ErrBadEdit)
	}
	if w := t.Width(); w == 0 || w > TableMaxColumns {
		return fmt.Errorf("a table has 1 to %d columns, not %d: %w", TableMaxColumns, w, ErrBadEdit)
	}
	for r, row := range t.Rows {
		for c, cell := range row {
			if cell.RowSpan < 0 || cell.ColSpan < 0 {
				return fmt.Errorf("cell %d of row %d has a negative span: %w", c+1, r+1, ErrBadEdit)
			}
			if len(cell.Text) > TableMaxCell {
				return fmt.Errorf("cell %d of row %d is longer than %d characters: %w", c+1, r+1, TableMaxCell, ErrBadEdit)
			}
		}
	}
	if len(t.Caption) > TableMaxCell {
		return fmt.Errorf("the caption is longer than %d characters: %w", TableMaxCell, ErrBadEdit)
	}
	return nil
}

// Table edit operations.
const (
	TableSetCell    = "set_cell"    // Text into the cell covering (Row, Col)
	TableInsertRow  = "insert_row"  // an empty row before Row (Row = rows appends)
	TableDeleteRow  = "delete_row"  // row Row
	TableInsertCol  = "insert_col"  // an empty column before Col (Col = columns appends)
	TableDeleteCol  = "delete_col"  // column Col
	TableHeaderRows = "header_rows" // the first Count rows are headings, the rest not
	TableCaption    = "caption"     // Text is the caption
)

// TableEdit is one change to a table's grid; Row and Col are 0-based
// positions on the grid (a spanning cell covers several).
type TableEdit struct {
	Op    string `json:"op" enum:"set_cell,insert_row,delete_row,insert_col,delete_col,header_rows,caption" doc:"what to change"`
	Row   int    `json:"row,omitempty" minimum:"0" doc:"grid row, 0-based (set_cell, insert_row, delete_row)"`
	Col   int    `json:"col,omitempty" minimum:"0" doc:"grid column, 0-based (set_cell, insert_col, delete_col)"`
	Text  string `json:"text,omitempty" maxLength:"2000" doc:"the cell's text (set_cell) or the caption (caption)"`
	Count int    `json:"count,omitempty" minimum:"0" doc:"how many leading rows are headings (header_rows)"`
}

// Apply returns the table with the edit made; the grid's spans stay
// rectangles: a row or column inserted inside a span widens it, one
// deleted under a span narrows it.
func (t Table) Apply(e TableEdit) (Table, error) {
	d := t.layout()
	rows := len(d.owner)
	cols := 0
	if rows > 0 {
		cols = len(d.owner[0])
	}
	at := func(n, limit int, what string) error {
		if n < 0 || n >= limit {
			return fmt.Errorf("%s %d is outside the table's %d: %w", what, n, limit, ErrBadEdit)
		}
		return nil
	}
	fresh := func(header bool) int {
		d.cells = append(d.cells, Cell{Header: header})
		return len(d.cells) - 1
	}
	switch e.Op {
	case TableSetCell:
		if err := errorsOr(at(e.Row, rows, "row"), at(e.Col, cols, "column")); err != nil {
			return Table{}, err
		}
		k := d.owner[e.Row][e.Col]
		if k < 0 {
			k = fresh(false)
			d.owner[e.Row][e.Col] = k
		}
		d.cells[k].Text = oneLine(e.Text)
	case TableInsertRow:
		if err := at(e.Row, rows+1, "row"); err != nil {
			return Table{}, err
		}
		row := make([]int, cols)
		inHead := e.Row > 0 && e.Row < t.HeaderRows() // a row inserted among the headings is one
		for c := range row {
			// Inside a span (the same cell above and below): the span grows.
			if e.Row > 0 && e.Row < rows && d.owner[e.Row-1][c] == d.owner[e.Row][c] && d.owner[e.Row][c] >= 0 {
				row[c] = d.owner[e.Row][c]
			} else {
				row[c] = fresh(inHead)
			}
		}
		d.owner = append(d.owner[:e.Row], append([][]int{row}, d.owner[e.Row:]...)...)
	case TableDeleteRow:
		if err := at(e.Row, rows, "row"); err != nil {
			return Table{}, err
		}
		if rows == 1 {
			return Table{}, fmt.Errorf("a table keeps at least one row; delete the region instead: %w", ErrBadEdit)
		}
		d.owner = append(d.owner[:e.Row], d.owner[e.Row+1:]...)
	case TableInsertCol:
		if err := at(e.Col, cols+1, "column"); err != nil {
			return Table{}, err
		}
		for r, row := range d.owner {
			k := -1
			if e.Col > 0 && e.Col < cols && row[e.Col-1] == row[e.Col] && row[e.Col] >= 0 {
				k = row[e.Col]
			} else {
				k = fresh(r < t.HeaderRows())
			}
			d.owner[r] = append(row[:e.Col:e.Col], append([]int{k}, row[e.Col:]...)...)
		}
	case TableDeleteCol:
		if err := at(e.Col, cols, "column"); err != nil {
			return Table{}, err
		}
		if cols == 1 {
			return Table{}, fmt.Errorf("a table keeps at least one column; delete the region instead: %w", ErrBadEdit)
		}
		for r, row := range d.owner {
			d.owner[r] = append(row[:e.Col:e.Col], row[e.Col+1:]...)
		}
	case TableHeaderRows:
		if err := at(e.Count, rows+1, "header row count"); err != nil {
			return Table{}, err
		}
		for r, row := range d.owner {
			for _, k := range row {
				if k >= 0 {
					d.cells[k].Header = r < e.Count
				}
			}
		}
		// A cell starting in the headings is one; set by its first row.
		for r := range min(e.Count, rows) {
			for _, k := range d.owner[r] {
				if k >= 0 {
					d.cells[k].Header = true
				}
			}
		}
	case TableCaption:
		t.Caption = oneLine(e.Text)
	default:
		return Table{}, fmt.Errorf("table edit %q: %w", e.Op, ErrBadEdit)
	}
	out := d.table(t.Caption)
	return out, out.Check()
}

func errorsOr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// EditTable applies a table edit to a table region and rewrites its text
// from the cells, so everything that reads the text reads the grid. A
// table region without cells starts from its text, a row a line.
func EditTable(p Page, id string, e TableEdit) (Page, error) {
	p = p.clone()
	i, err := p.index(id)
	if err != nil {
		return Page{}, err
	}
	r := p.Regions[i]
	if r.Kind != KindTable {
		return Page{}, fmt.Errorf("region %s is a %s, not a table: %w", id, r.Kind, ErrBadEdit)
	}
	var t Table
	switch {
	case r.Table != nil:
		t = *r.Table
	case TableFromText(r.Text) != nil:
		t = *TableFromText(r.Text)
	default:
		for line := range strings.SplitSeq(strings.TrimSpace(r.Text), "\n") {
			t.Rows = append(t.Rows, []Cell{{Text: oneLine(line)}})
		}
	}
	t, err = t.Apply(e)
	if err != nil {
		return Page{}, err
	}
	if r.OriginalText == "" {
		r.OriginalText = r.Text
	}
	r.Table, r.Text = &t, t.Text()
	p.Regions[i] = r
	return p, nil
}

package magazine

import (
	"errors"
	"strings"
	"testing"
)

// prices is a table with a heading row and a heading spanning two columns.
func prices() Table {
	return Table{Caption: "Table 2. Prices", Rows: [][]Cell{
		{{Text: "Item", Header: true, RowSpan: 2}, {Text: "Cost", Header: true, ColSpan: 2}},
		{{Text: "1900", Header: true}, {Text: "1910", Header: true}},
		{{Text: "Bread"}, {Text: "$1"}, {Text: "$2"}},
		{{Text: "Milk | cream"}, {Text: "<b>3</b>"}, {Text: "4"}},
	}}
}

func TestTableMatrixAndSpans(t *testing.T) {
	tb := prices()
	if w := tb.Width(); w != 3 {
		t.Fatalf("width %d, want 3", w)
	}
	m := tb.Matrix()
	want := [][]string{{"Item", "Cost", ""}, {"", "1900", "1910"}, {"Bread", "$1", "$2"}, {"Milk | cream", "<b>3</b>", "4"}}
	for r := range want {
		if strings.Join(m[r], ",") != strings.Join(want[r], ",") {
			t.Errorf("row %d: %q, want %q", r, m[r], want[r])
		}
	}
	if n := tb.HeaderRows(); n != 2 {
		t.Errorf("header rows %d, want 2", n)
	}
	// Laid out and collapsed again, the table is the same.
	back := tb.layout().table(tb.Caption)
	if back.HTML() != tb.HTML() {
		t.Errorf("round trip changed the table:\n%s\n%s", back.HTML(), tb.HTML())
	}
}

func TestTableMarkdownAndHTMLEscape(t *testing.T) {
	tb := prices()
	md := tb.Markdown()
	for _, want := range []string{"Table 2. Prices\n\n| Item | Cost 1900 | Cost 1910 |\n|---|---|---|\n| Bread | $1 | $2 |\n", `| Milk \| cream | &lt;b&gt;3&lt;/b&gt; | 4 |`} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	h := tb.HTML()
	for _, want := range []string{`<caption>Table 2. Prices</caption>`, `<thead><tr><th rowspan="2">Item</th><th colspan="2">Cost</th></tr>`, `</thead><tbody><tr><td>Bread</td>`, `<td>&lt;b&gt;3&lt;/b&gt;</td>`} {
		if !strings.Contains(h, want) {
			t.Errorf("html lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, "<b>") {
		t.Errorf("html carries a cell's markup unescaped: %s", h)
	}
	// Without heading rows the Markdown heading row is empty: no data row
	// is passed off as headings.
	plain := Table{Rows: [][]Cell{{{Text: "a"}, {Text: "b"}}, {{Text: "c"}, {Text: "d"}}}}
	if md := plain.Markdown(); !strings.HasPrefix(md, "|  |  |\n|---|---|\n| a | b |") {
		t.Errorf("markdown of a table without headings:\n%s", md)
	}
}

func TestTableSpoken(t *testing.T) {
	got := prices().Spoken()
	want := "Table 2. Prices.\nItem: Bread, Cost 1900: $1, Cost 1910: $2.\nItem: Milk | cream, Cost 1900: <b>3</b>, Cost 1910: 4."
	if got != want {
		t.Errorf("spoken\n%q\nwant\n%q", got, want)
	}
	r := Region{Kind: KindTable, Text: "Item\tCost", Table: &Table{Rows: [][]Cell{{{Text: "Item", Header: true}, {Text: "Cost", Header: true}}, {{Text: "Tea"}, {Text: "2"}}}}}
	if s := SpokenAs(r, Reading{}); s != "Item: Tea, Cost: 2." {
		t.Errorf("listened: %q", s)
	}
	if s := SpokenAs(r, Reading{SkipTables: true}); s != "" {
		t.Errorf("skip_tables still says %q", s)
	}
	if s := Spoken(r, false); s != "Item\tCost" {
		t.Errorf("article text of a table is its rows: %q", s)
	}
}

func TestTableEdits(t *testing.T) {
	tests := []struct {
		name string
		edit TableEdit
		want string // the grid after the edit: rows split by ";", cells by ","
		head int    // heading rows after the edit
	}{
		{"set a cell under a span sets the spanning cell", TableEdit{Op: TableSetCell, Row: 0, Col: 2, Text: "Price"},
			"Item,Price,;,1900,1910;Bread,$1,$2;Milk | cream,<b>3</b>,4", 2},
		{"a row inserted inside a row span widens it and is a heading row", TableEdit{Op: TableInsertRow, Row: 1},
			"Item,Cost,;,,;,1900,1910;Bread,$1,$2;Milk | cream,<b>3</b>,4", 3},
		{"a row appended", TableEdit{Op: TableInsertRow, Row: 4},
			"Item,Cost,;,1900,1910;Bread,$1,$2;Milk | cream,<b>3</b>,4;,,", 2},
		{"deleting the first heading row moves the spanning heading down", TableEdit{Op: TableDeleteRow, Row: 0},
			"Item,1900,1910;Bread,$1,$2;Milk | cream,<b>3</b>,4", 1},
		{"a column deleted under a column span narrows it", TableEdit{Op: TableDeleteCol, Col: 1},
			"Item,Cost;,1910;Bread,$2;Milk | cream,4", 2},
		{"a column appended", TableEdit{Op: TableInsertCol, Col: 3},
			"Item,Cost,,;,1900,1910,;Bread,$1,$2,;Milk | cream,<b>3</b>,4,", 2},
		{"no heading rows", TableEdit{Op: TableHeaderRows, Count: 0},
			"Item,Cost,;,1900,1910;Bread,$1,$2;Milk | cream,<b>3</b>,4", 0},
		{"three heading rows", TableEdit{Op: TableHeaderRows, Count: 3},
			"Item,Cost,;,1900,1910;Bread,$1,$2;Milk | cream,<b>3</b>,4", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := prices().Apply(tt.edit)
			if err != nil {
				t.Fatal(err)
			}
			var rows []string
			for _, row := range got.Matrix() {
				rows = append(rows, strings.Join(row, ","))
			}
			if g := strings.Join(rows, ";"); g != tt.want {
				t.Errorf("grid\n%s\nwant\n%s", g, tt.want)
			}
			if h := got.HeaderRows(); h != tt.head {
				t.Errorf("%d heading rows, want %d", h, tt.head)
			}
		})
	}
	for _, bad := range []TableEdit{
		{Op: TableSetCell, Row: 4, Col: 0}, {Op: TableSetCell, Row: 0, Col: 3}, {Op: TableDeleteRow, Row: -1},
		{Op: TableInsertCol, Col: 5}, {Op: TableHeaderRows, Count: 9}, {Op: "explode"},
	} {
		if _, err := prices().Apply(bad); !errors.Is(err, ErrBadEdit) {
			t.Errorf("%+v: error %v, want ErrBadEdit", bad, err)
		}
	}
	one := Table{Rows: [][]Cell{{{Text: "a"}}}}
	if _, err := one.Apply(TableEdit{Op: TableDeleteRow}); !errors.Is(err, ErrBadEdit) {
		t.Errorf("deleting the last row: %v", err)
	}
}

func TestEditTableKeepsTextInStep(t *testing.T) {
	p := Page{Number: 1, Width: 600, Height: 800, Regions: []Region{
		{ID: "r1", Kind: KindTable, BBox: BBox{10, 10, 200, 100}, Text: "A\tB\n1\t2"},
		{ID: "r2", Kind: KindParagraph, BBox: BBox{10, 200, 200, 100}, Text: "prose"},
	}}
	p, err := EditTable(p, "r1", TableEdit{Op: TableSetCell, Row: 1, Col: 1, Text: " 3 "})
	if err != nil {
		t.Fatal(err)
	}
	r := p.Regions[0]
	if r.Table == nil || r.Text != "A\tB\n1\t3" || r.OriginalText != "A\tB\n1\t2" {
		t.Fatalf("after the edit: text %q original %q table %+v", r.Text, r.OriginalText, r.Table)
	}
	if _, err := SetText(p, "r1", "free text"); !errors.Is(err, ErrBadEdit) {
		t.Errorf("a text edit of a table with cells: %v, want ErrBadEdit", err)
	}
	if _, err := EditTable(p, "r2", TableEdit{Op: TableInsertRow}); !errors.Is(err, ErrBadEdit) {
		t.Errorf("a table edit of a paragraph: %v, want ErrBadEdit", err)
	}
}

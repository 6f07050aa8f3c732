package magazine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// doclingKinds maps DoclingDocument labels (DocItemLabel) onto Lectern's kinds.
var doclingKinds = map[string]Kind{
	"title": KindHeadline, "section_header": KindSubhead, "subtitle_level_1": KindSubhead,
	"text": KindParagraph, "paragraph": KindParagraph, "reference": KindParagraph, "handwritten_text": KindParagraph,
	"list_item": KindList, "caption": KindCaption, "footnote": KindFootnote,
	"page_header": KindFurniture, "page_footer": KindFurniture,
	"picture": KindFigure, "chart": KindChart, "formula": KindFigure,
	"table": KindTable, "document_index": KindTable, "code": KindCode,
}

type doclingRef struct {
	Ref string `json:"$ref"`
}

type doclingBox struct {
	L, T, R, B  float64
	CoordOrigin string `json:"coord_origin"`
}

type doclingItem struct {
	SelfRef  string       `json:"self_ref"`
	Children []doclingRef `json:"children"`
	Label    string       `json:"label"`
	Prov     []struct {
		PageNo int        `json:"page_no"`
		BBox   doclingBox `json:"bbox"`
	} `json:"prov"`
	Text string `json:"text"`
	Data *struct {
		TableCells []struct {
			Text         string `json:"text"`
			StartRow     int    `json:"start_row_offset_idx"`
			StartCol     int    `json:"start_col_offset_idx"`
			RowSpan      int    `json:"row_span"`
			ColSpan      int    `json:"col_span"`
			ColumnHeader bool   `json:"column_header"`
		} `json:"table_cells"`
	} `json:"data"`
}

type doclingDoc struct {
	SchemaName string        `json:"schema_name"`
	Body       doclingItem   `json:"body"`
	Furniture  doclingItem   `json:"furniture"`
	Texts      []doclingItem `json:"texts"`
	Tables     []doclingItem `json:"tables"`
	Pictures   []doclingItem `json:"pictures"`
	Groups     []doclingItem `json:"groups"`
	Pages      map[string]struct {
		Size struct {
			Width, Height float64
		} `json:"size"`
		PageNo int `json:"page_no"`
	} `json:"pages"`
}

// parseDocling reads a DoclingDocument (docling-serve's json_content, or its
// whole convert response) for the one page it was sent. Items come in the
// document's reading order (the body tree, then the furniture tree);
// boxes are scaled from the document's page size to the page, and a
// bottom-left origin is turned to top-left.
func parseDocling(answer string, g PageGeom) ([]Region, error) {
	dec := json.NewDecoder(strings.NewReader(answer))
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w after %d characters", ErrTruncated, len(answer))
		}
		return nil, fmt.Errorf("%w: %v", ErrUnparsable, err)
	}
	if d, ok := raw["document"]; ok { // the whole /v1/convert response
		var wrap struct {
			JSONContent json.RawMessage `json:"json_content"`
		}
		if err := json.Unmarshal(d, &wrap); err != nil || len(wrap.JSONContent) == 0 || string(wrap.JSONContent) == "null" {
			return nil, fmt.Errorf("%w: the response has no json_content (ask for to_formats=json)", ErrEmptyAnswer)
		}
		return parseDocling(string(wrap.JSONContent), g)
	}
	var doc doclingDoc
	if err := json.Unmarshal([]byte(answer), &doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnparsable, err)
	}
	if doc.SchemaName != "" && doc.SchemaName != "DoclingDocument" {
		return nil, fmt.Errorf("%w: schema %q is not a DoclingDocument", ErrUnparsable, doc.SchemaName)
	}
	pageNo, pw, ph := 0, 0.0, 0.0
	for _, p := range doc.Pages {
		if pageNo == 0 || p.PageNo < pageNo {
			pageNo, pw, ph = p.PageNo, p.Size.Width, p.Size.Height
		}
	}
	if !(pw > 0 && ph > 0) {
		return nil, fmt.Errorf("%w: the document gives no page size", ErrNoRegions)
	}

	lists := map[string][]doclingItem{"texts": doc.Texts, "tables": doc.Tables, "pictures": doc.Pictures, "groups": doc.Groups}
	resolve := func(ref string) (*doclingItem, bool) {
		parts := strings.Split(strings.TrimPrefix(ref, "#/"), "/")
		if len(parts) != 2 {
			return nil, false
		}
		i, err := strconv.Atoi(parts[1])
		list := lists[parts[0]]
		if err != nil || i < 0 || i >= len(list) {
			return nil, false
		}
		return &list[i], true
	}
	var order []*doclingItem
	seen := map[string]bool{}
	var walk func(children []doclingRef)
	walk = func(children []doclingRef) {
		for _, c := range children {
			it, ok := resolve(c.Ref)
			if !ok || seen[c.Ref] {
				continue
			}
			seen[c.Ref] = true
			order = append(order, it)
			walk(it.Children)
		}
	}
	walk(doc.Body.Children)
	walk(doc.Furniture.Children)
	for _, name := range []string{"texts", "tables", "pictures"} { // items no tree reaches
		for i := range lists[name] {
			ref := "#/" + name + "/" + strconv.Itoa(i)
			if !seen[ref] {
				seen[ref] = true
				order = append(order, &lists[name][i])
			}
		}
	}

	sx, sy := g.W/pw, g.H/ph
	var cands []Region
	for _, it := range order {
		k, ok := doclingKinds[it.Label]
		if !ok {
			if it.Label == "" || strings.HasPrefix(it.SelfRef, "#/groups/") {
				continue // groups hold items; they are not regions
			}
			k = KindParagraph
		}
		for _, p := range it.Prov {
			if p.PageNo != pageNo {
				continue
			}
			b := p.BBox
			top, bottom := b.T, b.B
			if strings.EqualFold(b.CoordOrigin, "BOTTOMLEFT") {
				top, bottom = ph-b.T, ph-b.B
			}
			if b.L < -1 || b.R > pw*1.02 || top < -1 || bottom > ph*1.02 {
				return nil, fmt.Errorf("%w: %s [l %g, t %g, r %g, b %g] on a page of %gx%g", ErrBoxOutside, it.SelfRef, b.L, b.T, b.R, b.B, pw, ph)
			}
			x0, x1 := clamp(b.L*sx, 0, g.W), clamp(b.R*sx, 0, g.W)
			y0, y1 := clamp(top*sy, 0, g.H), clamp(bottom*sy, 0, g.H)
			if !(x1 > x0 && y1 > y0) {
				continue
			}
			text := it.Text
			if k == KindTable && it.Data != nil {
				text = doclingTableText(it)
			}
			if HasRepetitionLoop(text) {
				return nil, ErrRepetitionLoop
			}
			r := presetRegion(len(cands), k, BBox{x0, y0, x1 - x0, y1 - y0}, text, false)
			if k == KindTable && it.Data != nil {
				r = withTable(r, doclingTable(it))
			}
			cands = append(cands, r)
			break // one region per item: its first box on the page
		}
	}
	if len(cands) == 0 {
		return nil, ErrNoRegions
	}
	return cands, nil
}

// doclingTable is a table's cells on their grid, column headers as
// headings.
func doclingTable(it *doclingItem) *Table {
	cells := make([]gridCell, len(it.Data.TableCells))
	for i, c := range it.Data.TableCells {
		cells[i] = gridCell{row: c.StartRow, col: c.StartCol, rowSpan: c.RowSpan, colSpan: c.ColSpan, text: c.Text, header: c.ColumnHeader}
	}
	return cellsTable(cells)
}

// doclingTableText is a table's cells as Lectern's table text; a spanning
// cell is written once, in its first row and column.
func doclingTableText(it *doclingItem) string {
	rows := map[int]map[int]string{}
	for _, c := range it.Data.TableCells {
		if rows[c.StartRow] == nil {
			rows[c.StartRow] = map[int]string{}
		}
		rows[c.StartRow][c.StartCol] = strings.Join(strings.Fields(c.Text), " ")
	}
	var rowIdx []int
	for r := range rows {
		rowIdx = append(rowIdx, r)
	}
	sort.Ints(rowIdx)
	lines := make([]string, 0, len(rowIdx))
	for _, r := range rowIdx {
		var cols []int
		for c := range rows[r] {
			cols = append(cols, c)
		}
		sort.Ints(cols)
		cells := make([]string, len(cols))
		for i, c := range cols {
			cells[i] = rows[r][c]
		}
		lines = append(lines, strings.Join(cells, "\t"))
	}
	return strings.Join(lines, "\n")
}

package app

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf/pdftest"
	"github.com/lectern/lectern/shared/voices"
)

// tablePDF is a page with a headline, a sentence and a price table of a
// heading row and four rows.
func tablePDF() []byte {
	d := &pdftest.Doc{}
	p := d.AddPage(612, 792)
	p.Text(72, 60, 24, true, "What a Refit Costs")
	p.Text(72, 110, 10, false, "The yard sent its prices for the spring refit of the harbour launch.")
	rows := [][]string{{"Item", "Cost", "Change"}, {"Labor", "$85", "+3%"}, {"Parts", "$1,200", "-1.5%"}, {"Paint", "$40", "0%"}, {"Total", "$1,325", "+1%"}}
	for r, row := range rows {
		for k, text := range row {
			p.Text([]float64{72, 250, 400}[k], 160+float64(r)*14, 9, r == 0, text)
		}
	}
	return d.Bytes()
}

// TestTablesOverHTTP: a table region keeps its cells from ingest; its cells
// are edited with If-Match (the text follows); bad edits answer 422 and
// change nothing; the article exports the table as Markdown and HTML.
func TestTablesOverHTTP(t *testing.T) {
	c := newLocalApp(t)
	id := c.ingestReady("refit.pdf", tablePDF())
	p := c.page(id, 1)
	var table magazine.Region
	for _, r := range p.Regions {
		if r.Kind == magazine.KindTable {
			table = r
		}
	}
	if table.Table == nil || len(table.Table.Rows) != 5 || table.Table.Width() != 3 || table.Table.HeaderRows() != 1 {
		t.Fatalf("no table region of 5 rows, 3 columns and a heading row: %+v", p.Regions)
	}
	regionURL := fmt.Sprintf("/api/magazine/%s/pages/1/regions/%s", id, table.ID)

	var refs []string
	for _, rid := range p.Order {
		refs = append(refs, fmt.Sprintf(`{"page":1,"region":%q}`, rid))
	}
	status, _, b := c.do(http.MethodPost, "/api/magazine/"+id+"/articles", []byte(`{"title":"Refit","regions":[`+strings.Join(refs, ",")+`]}`))
	if status != http.StatusCreated {
		t.Fatalf("create article: %d %s", status, b)
	}
	art := decode[struct{ Article magazine.Article }](t, b).Article.ID
	export := func(format string) string {
		return decode[struct{ Text string }](t, c.get(fmt.Sprintf("/api/magazine/%s/articles/%s/text?format=%s", id, art, format))).Text
	}

	t.Run("bad edits answer 422 and change nothing", func(t *testing.T) {
		for _, tc := range []struct{ name, method, path, body string }{
			{"a text edit of a table with cells", http.MethodPatch, regionURL, `{"text":"free text"}`},
			{"a cell outside the grid", http.MethodPatch, regionURL + "/table", `{"op":"set_cell","row":9,"col":0,"text":"x"}`},
			{"a column past the end", http.MethodPatch, regionURL + "/table", `{"op":"delete_col","col":3}`},
			{"more heading rows than rows", http.MethodPatch, regionURL + "/table", `{"op":"header_rows","count":6}`},
			{"an unknown operation", http.MethodPatch, regionURL + "/table", `{"op":"explode"}`},
		} {
			before := c.issueState(id)
			status, _, b := c.do(tc.method, tc.path, []byte(tc.body))
			c.refused(id, before, status, http.StatusUnprocessableEntity, b, tc.name)
		}
		head := regionByText(t, p, "What a Refit")
		before := c.issueState(id)
		status, _, b := c.do(http.MethodPatch, fmt.Sprintf("/api/magazine/%s/pages/1/regions/%s/table", id, head.ID), []byte(`{"op":"insert_row","row":0}`))
		c.refused(id, before, status, http.StatusUnprocessableEntity, b, "a table edit of a headline")
		before = c.issueState(id)
		status, _, b = c.do(http.MethodPatch, regionURL+"/table", []byte(`{"op":"set_cell","row":0,"col":0,"text":"x"}`), "If-Match", fmt.Sprint(p.Version+7))
		c.refused(id, before, status, http.StatusConflict, b, "a cell edit with a stale If-Match")
	})

	t.Run("a cell edit with If-Match changes the grid, the text and the exports; undo brings the cell back", func(t *testing.T) {
		if md := export("markdown"); !strings.Contains(md, "| Item | Cost | Change |\n|---|---|---|\n| Labor | $85 | +3% |\n| Parts | $1,200 | -1.5% |") {
			t.Fatalf("markdown export before:\n%s", md)
		}
		cur := c.page(id, 1)
		status, _, b := c.do(http.MethodPatch, regionURL+"/table", []byte(`{"op":"set_cell","row":2,"col":1,"text":"$1,250 <b>"}`), "If-Match", fmt.Sprint(cur.Version))
		if status != http.StatusOK {
			t.Fatalf("set_cell: %d %s", status, b)
		}
		got := decode[struct {
			Region magazine.Region
			outcome
		}](t, b)
		if got.Region.Table.Matrix()[2][1] != "$1,250 <b>" || !strings.Contains(got.Region.Text, "Parts\t$1,250 <b>\t-1.5%") || got.UndoToken == "" {
			t.Fatalf("after set_cell: %+v", got)
		}
		if md := export("markdown"); !strings.Contains(md, `| Parts | $1,250 &lt;b&gt; | -1.5% |`) {
			t.Errorf("markdown export after:\n%s", md)
		}
		if h := export("html"); !strings.Contains(h, "<thead><tr><th>Item</th><th>Cost</th><th>Change</th></tr></thead><tbody><tr><td>Labor</td>") ||
			!strings.Contains(h, "<td>$1,250 &lt;b&gt;</td>") || !strings.Contains(h, "<h1>What a Refit Costs</h1>") {
			t.Errorf("html export after:\n%s", h)
		}
		if txt := export("text"); !strings.Contains(txt, "Parts\t$1,250 <b>\t-1.5%") {
			t.Errorf("text export after:\n%s", txt)
		}
		status, _, b = c.do(http.MethodPost, "/api/magazine/"+id+"/undo", []byte(fmt.Sprintf(`{"token":%q}`, got.UndoToken)))
		if status != http.StatusOK {
			t.Fatalf("undo: %d %s", status, b)
		}
		if md := export("markdown"); !strings.Contains(md, "| Parts | $1,200 | -1.5% |") {
			t.Errorf("markdown export after undo:\n%s", md)
		}
	})

	t.Run("rows and columns are added and removed; heading rows are set", func(t *testing.T) {
		for _, body := range []string{`{"op":"insert_row","row":5}`, `{"op":"insert_col","col":1}`, `{"op":"delete_row","row":1}`, `{"op":"header_rows","count":0}`} {
			if status, _, b := c.do(http.MethodPatch, regionURL+"/table", []byte(body)); status != http.StatusOK {
				t.Fatalf("%s: %d %s", body, status, b)
			}
		}
		var r magazine.Region
		for _, x := range c.page(id, 1).Regions {
			if x.ID == table.ID {
				r = x
			}
		}
		m := r.Table.Matrix()
		if len(m) != 5 || len(m[0]) != 4 || m[0][0] != "Item" || m[0][1] != "" || m[1][0] != "Parts" || m[4][0] != "" || r.Table.HeaderRows() != 0 {
			t.Errorf("grid after the edits: %q (%d heading rows)", m, r.Table.HeaderRows())
		}
	})
}

// TestListenToATable: a table is spoken as its rows with the column
// headings; skip_tables leaves it out of the narration.
func TestListenToATable(t *testing.T) {
	needSpeechTools(t)
	c := newLocalApp(t)
	id := c.ingestReady("refit.pdf", tablePDF())
	p := c.page(id, 1)
	var refs []magazine.RegionRef
	for _, rid := range p.Order {
		refs = append(refs, magazine.RegionRef{Page: 1, Region: rid})
	}
	art := c.newArticle(id, "Refit", refs...)
	c.approve(id, art)
	listen := "/api/magazine/" + id + "/articles/" + art + "/listen"
	voice := voices.EngineVoiceID(voices.BuiltinEngine, "en-us")
	said := spokenText(c.waitRender(c.startRender(listen, `{"voice_id":"`+voice+`"}`).ID))
	if !strings.Contains(said, "Item: Parts, Cost: $1,200, Change: -1.5%.") || !strings.Contains(said, "spring refit") {
		t.Errorf("the table is not read row by row with its headings: %s", said)
	}
	said = spokenText(c.waitRender(c.startRender(listen, `{"voice_id":"`+voice+`","skip_tables":true}`).ID))
	if strings.Contains(said, "Parts") || strings.Contains(said, "1,200") || !strings.Contains(said, "spring refit") {
		t.Errorf("skip_tables still reads the table: %s", said)
	}
}

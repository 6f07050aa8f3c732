package pdf

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
)

// TestTableCellsFromTextLayer recovers table cells from real pages of the
// public corpus ($LECTERN_SAMPLE_DATA): the words' positions in MuPDF's
// text layer give the rows, columns and heading rows.
func TestTableCellsFromTextLayer(t *testing.T) {
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		t.Skip("LECTERN_SAMPLE_DATA is not set: the sample PDFs are absent")
	}
	tables := func(t *testing.T, file string, page int) []magazine.Table {
		data, err := os.ReadFile(filepath.Join(dir, "pdfs-public", file))
		if err != nil {
			t.Fatal(err)
		}
		tp, err := TextLayer(context.Background(), data, page, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		var out []magazine.Table
		for _, r := range magazine.ClassifyPages([]magazine.TextPage{tp})[0] {
			if r.Kind == magazine.KindTable && r.Table != nil {
				if r.Text != r.Table.Text() {
					t.Errorf("table text %q is not its cells' %q", r.Text, r.Table.Text())
				}
				out = append(out, *r.Table)
			}
		}
		return out
	}
	t.Run("a small word table keeps its grid and heading row", func(t *testing.T) {
		got := tables(t, "pdfplumber/word365_structure.pdf", 1)
		if len(got) != 1 {
			t.Fatalf("%d tables, want 1", len(got))
		}
		want := [][]string{{"En-tête 1", "En-tête 2", "En-tête 3"}, {"Ligne 1", "Alouette", "Farfadet"}, {"Linge 2", "Belette", "Bibitte"}}
		if m := got[0].Matrix(); !slices.EqualFunc(m, want, slices.Equal) {
			t.Errorf("grid %q, want %q", m, want)
		}
		if h := got[0].HeaderRows(); h != 1 {
			t.Errorf("%d heading rows, want 1", h)
		}
	})
	t.Run("a wide statistics table keeps its columns under two heading rows", func(t *testing.T) {
		got := tables(t, "pdfplumber/nics-background-checks-2015-11.pdf", 1)
		if len(got) != 1 {
			t.Fatalf("%d tables, want 1", len(got))
		}
		m := got[0].Matrix()
		row := slices.IndexFunc(m, func(r []string) bool { return len(r) > 0 && r[0] == "Alabama" })
		if row < 0 || !slices.Equal(m[row][:6], []string{"Alabama", "18,870", "23,022", "22,650", "859", "1,178"}) {
			t.Fatalf("no Alabama row with its first figures in %q", m)
		}
		if h := got[0].HeaderRows(); h != row {
			t.Errorf("%d heading rows, want the %d above the first figures", h, row)
		}
		md := got[0].Markdown()
		if !strings.HasPrefix(md, "| State / Territory | Permit | Handgun |") {
			t.Errorf("markdown heading row: %.200s", md)
		}
		if !strings.Contains(md, "| Texas | 21,550 | 56,941 |") {
			t.Errorf("markdown lacks the Texas row")
		}
	})
}

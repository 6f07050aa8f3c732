package pdf

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// inlineBombPDF: page 1 draws an inline picture declaring 50,000×50,000
// pixels (7.5 GB of samples) in a file of a few KB; page 2 is ordinary.
func inlineBombPDF(d *pdftest.Doc) {
	d.AddPage(612, 792).InlineBomb(50000)
	d.AddPage(612, 792).Text(72, 72, 24, true, "An Ordinary Page")
}

func wantRefusal(t *testing.T, err error, reason Reason, page int, contains ...string) {
	t.Helper()
	var inv *InvalidInputError
	if !errors.As(err, &inv) || inv.Reason != reason || inv.Page != page {
		t.Fatalf("err = %v, want page %d %s", err, page, reason)
	}
	for _, s := range contains {
		if !strings.Contains(inv.Detail, s) {
			t.Errorf("detail %q lacks %q", inv.Detail, s)
		}
	}
	if strings.Contains(inv.Detail, "%") {
		t.Errorf("detail %q holds an unformatted verb", inv.Detail)
	}
}

// MuPDF's memory is bounded per page whatever the pre-check saw: the run
// itself is what this calls, as for a file pdfcpu cannot read.
func TestMuPDFMemoryBudgetFailsThePageAlone(t *testing.T) {
	data := build(inlineBombPDF)
	lim := DefaultLimits()
	for _, dpi := range []int{0, 150} { // structured text, then a render
		_, err := runLimited(t.Context(), data, 1, passWant{dpi: dpi}, lim)
		wantRefusal(t, err, ReasonMemoryBudget, 1, "over memory budget", "7.0 GiB", "512.0 MiB")
		run, err := runLimited(t.Context(), data, 2, passWant{dpi: dpi}, lim)
		if err != nil || run.width != 612 {
			t.Fatalf("page 2 at %d DPI: %+v, %v", dpi, run.width, err)
		}
	}
}

func TestPicturesWithinTheMemoryBudgetStillDraw(t *testing.T) {
	// A 6000×6000 picture (108 MB of samples) fits in the budget; MuPDF's
	// cache is emptied and the request retried when needed.
	data := build(func(d *pdftest.Doc) { d.AddPage(612, 792).InlineBomb(6000) })
	lim := DefaultLimits()
	lim.MaxMemoryBytes = 200 << 20
	if _, err := runLimited(t.Context(), data, 1, passWant{dpi: 150}, lim); err != nil {
		t.Fatalf("render: %v", err)
	}
	lim.MaxMemoryBytes = 64 << 20
	_, err := runLimited(t.Context(), data, 1, passWant{dpi: 150}, lim)
	wantRefusal(t, err, ReasonMemoryBudget, 1, "64.0 MiB")
}

func TestRepairedFileWithAnInlineBombFailsOnMemory(t *testing.T) {
	// pdfcpu cannot read this file, so the pre-check passes it: the
	// allocator is what stops the picture.
	data := build(func(d *pdftest.Doc) { d.NoTrailerRoot = true; inlineBombPDF(d) })
	if _, err := Inspect(data, DefaultLimits()); err != nil {
		t.Fatalf("Inspect: %v", err)
	}
	_, err := Render(t.Context(), data, 1, 150, DefaultLimits(), nil)
	wantRefusal(t, err, ReasonMemoryBudget, 1, "over memory budget")
	if _, err := Render(t.Context(), data, 2, 150, DefaultLimits(), nil); err != nil {
		t.Fatalf("page 2: %v", err)
	}
}

func TestCheckPageRefusesAnInlineBomb(t *testing.T) {
	data := build(inlineBombPDF)
	err := CheckPage(data, 1, DefaultLimits())
	wantRefusal(t, err, ReasonImageBudget, 1, "inline picture", "50000×50000", "150 million")
	if err := CheckPage(data, 2, DefaultLimits()); err != nil {
		t.Fatalf("page 2: %v", err)
	}
}

func TestRenderBudgetMessageShowsRealNumbers(t *testing.T) {
	data := build(func(d *pdftest.Doc) { d.BrokenMetadata = true; d.AddPage(14400, 14400) })
	_, err := Render(context.Background(), data, 1, 150, DefaultLimits(), nil)
	wantRefusal(t, err, ReasonRenderBudget, 1, "30000 x 30000 pixels", "budget of 60000000 pixels")
}

func TestInlineImages(t *testing.T) {
	bin := "\x00\xffEIx EIa\x01"
	for _, tc := range []struct {
		name    string
		content string
		want    [][2]int64
	}{
		{"abbreviated keys", "q BI /W 10 /H 20 /CS /RGB /BPC 8 ID \x01\x02\x03 EI Q", [][2]int64{{10, 20}}},
		{"full keys and reals", "BI /Width 30.0 /Height 4 /ColorSpace /DeviceGray ID x EI", [][2]int64{{30, 4}}},
		{"binary data with EI inside is skipped", "BI /W 1 /H 1 ID " + bin + " EI BI /W 2 /H 3 ID y EI", [][2]int64{{1, 1}, {2, 3}}},
		{"length skips data", "BI /W 5 /H 5 /L 6 ID EI EI  EI BI /W 7 /H 7 ID z EI", [][2]int64{{5, 5}, {7, 7}}},
		{"BI in a string or a comment is not a picture", "(BI /W 9 /H 9 ID) Tj % BI /W 9 /H 9 ID\nBT ET", nil},
		{"nested strings and escapes", `(a \) (b) BI) Tj BI /W 3 /H 3 /D [1 0] ID q EI`, [][2]int64{{3, 3}}},
		{"a missing size is not reported", "BI /W 10 /CS /G ID q EI", nil},
		{"garbage sizes are not reported", "BI /W -5 /H 1e30 ID q EI BI /W /H ID q EI", nil},
		{"cut short inside the dictionary", "BI /W 10 /H 10", nil},
		{"cut short inside the data", "BI /W 10 /H 11 ID \x00\x00", [][2]int64{{10, 11}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got [][2]int64
			if err := InlineImages([]byte(tc.content), func(w, h int64) error { got = append(got, [2]int64{w, h}); return nil }); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	stop := errors.New("stop")
	if err := InlineImages([]byte("BI /W 1 /H 1 ID x EI"), func(int64, int64) error { return stop }); err != stop {
		t.Errorf("fn's error = %v", err)
	}
}

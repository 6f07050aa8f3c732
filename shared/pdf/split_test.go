package pdf

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// splitPDFs are the sample PDFs a split page is compared on: the sample
// magazines and the public corpus ($LECTERN_SAMPLE_DATA), or with
// LECTERN_SPLIT_ONLY only the files whose path contains it.
func splitPDFs(t *testing.T) []string {
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		t.Skip("LECTERN_SAMPLE_DATA is not set: the sample PDFs are absent")
	}
	var files []string
	for _, glob := range []string{"magazines/*.pdf", "pdfs-public/*/*.pdf"} {
		got, _ := filepath.Glob(filepath.Join(dir, glob))
		files = append(files, got...)
	}
	if len(files) == 0 {
		t.Fatalf("no PDFs under %s", dir)
	}
	sort.Strings(files)
	return files
}

// A page cut out on its own (from what Inspect parsed, as Prepare cuts it)
// renders to the same pixels and gives the same text layer as that page of
// the whole file. Files pdfcpu cannot split are listed with why (their
// pages are read from the whole file).
//
//	LECTERN_SAMPLE_DATA=/work/shared/data go test -run TestEvalSplitPageSameAsWhole -v ./shared/pdf
func TestEvalSplitPageSameAsWhole(t *testing.T) {
	lim := DefaultLimits()
	ctx := context.Background()
	only := os.Getenv("LECTERN_SPLIT_ONLY")
	// Every page of the team's samples; of the public corpus, the first
	// four and the last page of each file, as make test ingests them
	// (renders run under -race there), or every page with
	// LECTERN_SWEEP_ALL=1 (make eval).
	sweepAll := os.Getenv("LECTERN_SWEEP_ALL") == "1"

	for _, path := range splitPDFs(t) {
		if only != "" && !bytes.Contains([]byte(path), []byte(only)) {
			continue
		}
		name := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			info, err := Inspect(data, lim)
			if err != nil {
				// Never accepted, so never split: nothing to compare.
				t.Logf("refused at upload: %v", err)
				return
			}
			pages := len(info.Pages)
			var wholeSize, pagesSize, split int
			wholeSize = len(data)
			err = info.SplitPages(func(n int, single []byte, err error) error {
				if err != nil {
					t.Logf("page %d read from the whole file: %v", n, err)
					return nil
				}
				split++
				pagesSize += len(single)
				if sweepAll || n <= 4 || n == pages || strings.HasPrefix(name, "magazines/") {
					comparePage(t, ctx, data, single, n, lim)
				}
				return nil
			})
			if errors.Is(err, ErrNotSplit) {
				t.Logf("not split: %v", err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d pages split; whole %d bytes, pages %d bytes in all (largest share %.2f of the whole per page on average)",
				split, wholeSize, pagesSize, float64(pagesSize)/float64(max(1, split))/float64(wholeSize))
		})
	}
}

func comparePage(t *testing.T, ctx context.Context, whole, single []byte, n int, lim Limits) {
	t.Helper()
	const dpi = 72
	want, werr := Render(ctx, whole, n, dpi, lim, nil)
	got, gerr := Render(ctx, single, 1, dpi, lim, nil)
	if (werr == nil) != (gerr == nil) {
		t.Errorf("page %d: render of the whole file: %v; of the page alone: %v", n, werr, gerr)
		return
	}
	if werr == nil {
		if want.Bounds() != got.Bounds() {
			t.Errorf("page %d: page alone renders %v, the whole file %v", n, got.Bounds(), want.Bounds())
		} else if diff := differentPixels(want.Pix, got.Pix); diff > 0 {
			t.Errorf("page %d: %d of %d pixels differ from the whole file's render", n, diff, len(want.Pix)/4)
		}
	}
	wantText, werr := TextLayer(ctx, whole, n, lim)
	gotText, gerr := TextLayer(ctx, single, 1, lim)
	if (werr == nil) != (gerr == nil) {
		t.Errorf("page %d: text layer of the whole file: %v; of the page alone: %v", n, werr, gerr)
		return
	}
	if !reflect.DeepEqual(wantText, gotText) {
		t.Errorf("page %d: the page alone reads %d blocks, the whole file %d, and they differ", n, len(gotText.Blocks), len(wantText.Blocks))
	}
}

func differentPixels(a, b []byte) int {
	diff := 0
	for i := 0; i+3 < len(a) && i+3 < len(b); i += 4 {
		if !bytes.Equal(a[i:i+4], b[i:i+4]) {
			diff++
		}
	}
	return diff
}

// A file pdfcpu cannot read (MuPDF repairs it at Inspect) is not split, and
// says so.
func TestSplitRefusesWhatPdfcpuCannotRead(t *testing.T) {
	data := build(func(d *pdftest.Doc) {
		d.NoTrailerRoot = true
		d.AddPage(612, 792).Text(72, 72, 12, false, "A page of text")
	})
	if _, err := Inspect(data, DefaultLimits()); err != nil {
		t.Fatalf("Inspect: %v", err)
	}
	called := 0
	err := SplitPages(data, func(int, []byte, error) error { called++; return nil })
	if !errors.Is(err, ErrNotSplit) || called != 0 {
		t.Fatalf("SplitPages = %v after %d pages; want ErrNotSplit and no page", err, called)
	}
}

// A split file hands over every page, each a PDF of one page.
func TestSplitHandsOverEveryPage(t *testing.T) {
	data := build(func(d *pdftest.Doc) {
		for _, text := range []string{"First page text", "Second page text", "Third page text"} {
			d.AddPage(612, 792).Text(72, 72, 12, false, text)
		}
	})
	var pages []int
	err := SplitPages(data, func(n int, single []byte, err error) error {
		if err != nil {
			t.Fatalf("page %d: %v", n, err)
		}
		info, err := Inspect(single, DefaultLimits())
		if err != nil || len(info.Pages) != 1 {
			t.Fatalf("page %d alone: %+v, %v", n, info, err)
		}
		pages = append(pages, n)
		return nil
	})
	if err != nil || !reflect.DeepEqual(pages, []int{1, 2, 3}) {
		t.Fatalf("SplitPages = %v, pages %v", err, pages)
	}
}

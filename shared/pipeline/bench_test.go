package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/pdf"
)

// BenchmarkPrepareSplit times Prepare, which now cuts the upload into one
// PDF per page, and in the same run the split alone on the same file: the
// ratio is Prepare's time over Prepare's time without the split (the
// previous behaviour). It runs on the Federal Register sample (15 pages)
// and the largest public PDF by pages (GeoTopo, 117 pages):
//
//	LECTERN_SAMPLE_DATA=/work/shared/data go test -run '^$' -bench PrepareSplit ./shared/pipeline
func BenchmarkPrepareSplit(b *testing.B) {
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	for _, rel := range []string{"magazines/05_federal_register_2020-17221.pdf", "pdfs-public/py-pdf-sample-files/GeoTopo-komprimiert.pdf"} {
		b.Run(filepath.Base(rel), func(b *testing.B) {
			data, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				b.Skipf("sample PDF: %v", err)
			}
			f := newStepsFixture(b)
			var prepare, split time.Duration
			pages := 0
			for b.Loop() {
				id := f.upload(b, data)
				start := time.Now()
				out, err := f.steps.Prepare(b.Context(), PrepareInput{SourceKey: issues.SourceKey(id)})
				if err != nil {
					b.Fatal(err)
				}
				prepare += time.Since(start)
				pages = out.PageCount
				info, err := pdf.Inspect(data, f.steps.Pages.Limits)
				if err != nil {
					b.Fatal(err)
				}
				start = time.Now()
				if err := f.steps.splitPages(b.Context(), id, info); err != nil {
					b.Fatal(err)
				}
				split += time.Since(start)
			}
			b.ReportMetric(float64(pages), "pages")
			b.ReportMetric(prepare.Seconds()*1000/float64(b.N), "prepare-ms")
			b.ReportMetric(split.Seconds()*1000/float64(b.N), "split-ms")
			b.ReportMetric(prepare.Seconds()/(prepare-split).Seconds(), "ratio")
		})
	}
}

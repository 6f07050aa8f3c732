package spans

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lectern/lectern/shared/audiobook/book"
)

// BenchmarkSplitAlice splits PDNC's Alice (144 KB, 12 chapters) into spans:
//
//	LECTERN_SAMPLE_DATA=/work/shared/data go test -run '^$' -bench SplitAlice ./shared/audiobook/spans
func BenchmarkSplitAlice(b *testing.B) {
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		b.Skip("LECTERN_SAMPLE_DATA is not set: PDNC novels absent")
	}
	data, err := os.ReadFile(filepath.Join(dir, "books", "AlicesAdventuresInWonderland", "novel_text.txt"))
	if err != nil {
		b.Fatal(err)
	}
	bk, err := book.ParseText(data, "novel_text.txt")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(bk.Text)))
	n := 0
	for b.Loop() {
		n = len(SplitBook(bk))
	}
	b.ReportMetric(float64(n), "spans")
}

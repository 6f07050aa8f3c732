package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/magazine"
)

// BenchmarkIngestVsPdftoppm ingests a multi-page PDF through the whole local
// pipeline (the real definition, text layer, renders, figures, cleanup,
// order) and, in the same run, times `pdftoppm -r 150` rendering the same
// file. It reports pages/s for both, the ratio of pipeline time to pdftoppm
// time (target ≤ 1.0) and peak memory of each.
func BenchmarkIngestVsPdftoppm(b *testing.B) {
	path := filepath.Join(os.Getenv("LECTERN_SAMPLE_DATA"), "magazines", "05_federal_register_2020-17221.pdf")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("sample PDF: %v", err)
	}
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		b.Skip("pdftoppm (poppler-utils) is not installed")
	}
	mag := magazineOf(b, openTestLocal(b, "http://127.0.0.1", 1))
	out := b.TempDir()

	var pipeline, reference time.Duration
	var pages int
	var refPeakKiB int64
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command("pdftoppm", "-r", "150", "-png", path, filepath.Join(out, "p"))
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		// A child's rusage maxrss starts from the parent's at fork, so the
		// child's own high-water mark is read from /proc while it runs.
		done := make(chan struct{})
		peak := make(chan int64, 1)
		go func() { peak <- watchHighWater(cmd.Process.Pid, done) }()
		err := cmd.Wait()
		close(done)
		if err != nil {
			b.Fatal(err)
		}
		reference += time.Since(start)
		refPeakKiB = max(refPeakKiB, <-peak)

		start = time.Now()
		is, err := mag.IngestFile(context.Background(), "bench", data)
		if err != nil || is.Status != magazine.IssueReady {
			b.Fatalf("ingest: %v %+v", err, is)
		}
		pipeline += time.Since(start)
		pages = is.PageCount
	}
	var self syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	n := float64(b.N * pages)
	b.ReportMetric(n/pipeline.Seconds(), "pipeline-pages/s")
	b.ReportMetric(n/reference.Seconds(), "pdftoppm-pages/s")
	b.ReportMetric(pipeline.Seconds()/reference.Seconds(), "ratio")
	b.ReportMetric(float64(self.Maxrss)/1024, "process-peak-MiB") // the whole test process running the pipeline
	b.ReportMetric(float64(refPeakKiB)/1024, "pdftoppm-peak-MiB")
}

// watchHighWater polls VmHWM (peak resident KiB) of pid until done.
func watchHighWater(pid int, done <-chan struct{}) int64 {
	var last int64
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for {
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status"); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					if kib, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64); err == nil {
						last = max(last, kib)
					}
				}
			}
		}
		select {
		case <-done:
			return last
		case <-tick.C:
		}
	}
}

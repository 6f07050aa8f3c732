package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lectern/lectern"
	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
)

// BenchmarkReviewPatchAndGet measures, on a 200-region page in the embedded
// store behind the real HTTP stack: PATCH latency p50/p99 (targets: p99 ≤
// 10 ms), and GET page throughput as a ratio to net/http serving the same
// JSON bytes as a static file in the same run (target ≥ 0.5).
func BenchmarkReviewPatchAndGet(b *testing.B) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	local := openTestLocal(b, base, 1)
	repo := issues.NewRepo(local.Table, local.Clock)
	srv.Config.Handler = LocalHandler(lectern.Version(), "", log, SiteParts{Blobs: local.BlobHandler, Static: fstest.MapFS{}}, local.Operations()...)
	srv.Start()
	defer srv.Close()

	ctx := context.Background()
	const id = "bench0000000000a"
	if err := repo.Create(ctx, magazine.Issue{ID: id, Title: "bench", Status: magazine.IssueReady, PageCount: 1}); err != nil {
		b.Fatal(err)
	}
	page := magazine.Page{IssueID: id, Number: 1, Width: 612, Height: 792, DPI: 150}
	for i := range 200 {
		text := fmt.Sprintf("Paragraph %d of the benchmark page, with a sentence or two of ordinary text to read aloud.", i)
		page.Regions = append(page.Regions, magazine.Region{ID: fmt.Sprintf("r%d", i), Kind: magazine.KindParagraph,
			BBox: magazine.BBox{36 + float64(i%4)*140, 36 + float64(i/4)*14, 130, 12}, Text: text, OriginalText: text})
	}
	page = magazine.ApplyOrder(page)
	if err := repo.PutPage(ctx, page); err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	call := func(method, url string, body []byte) []byte {
		req, err := http.NewRequest(method, url, bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("%s %s: %d %s %v", method, url, resp.StatusCode, out, err)
		}
		return out
	}
	pageURL := fmt.Sprintf("%s/api/magazine/%s/pages/1", base, id)

	var latencies []time.Duration
	var getTime, staticTime time.Duration
	gets := 0
	for b.Loop() {
		for i := range 50 {
			body := fmt.Appendf(nil, `{"text":"Edited paragraph %d at %d."}`, i, time.Now().UnixNano())
			start := time.Now()
			call(http.MethodPatch, fmt.Sprintf("%s/regions/r%d", pageURL, (i*7)%200), body)
			latencies = append(latencies, time.Since(start))
		}
		pageJSON := call(http.MethodGet, pageURL, nil)
		static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.ServeContent(w, r, "page.json", time.Time{}, bytes.NewReader(pageJSON))
		}))
		start := time.Now()
		for range 200 {
			call(http.MethodGet, pageURL, nil)
		}
		getTime += time.Since(start)
		start = time.Now()
		for range 200 {
			call(http.MethodGet, static.URL, nil)
		}
		staticTime += time.Since(start)
		static.Close()
		gets += 200
	}
	slices.Sort(latencies)
	pct := func(p float64) float64 {
		return float64(latencies[int(p*float64(len(latencies)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "patch-p50-ms")
	b.ReportMetric(pct(0.99), "patch-p99-ms")
	b.ReportMetric(float64(gets)/getTime.Seconds(), "get-page/s")
	b.ReportMetric(float64(gets)/staticTime.Seconds(), "static/s")
	b.ReportMetric(staticTime.Seconds()/getTime.Seconds(), "get-ratio")
}

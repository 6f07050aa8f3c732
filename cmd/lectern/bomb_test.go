package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// The README's ceiling on a decompression bomb: peak resident memory of
// `lectern ingest` on one, and of `lectern serve` taking three at once.
const (
	bombCeilingIngest = 256 << 20
	bombCeilingServe  = 512 << 20
)

// bomb is a PDF of a few KB that decodes to a gigabyte somewhere pdfcpu
// reads it, and what ingesting it must say of its first page ("" when the
// page reads as usual: the bomb is in nothing a page draws).
type bomb struct {
	name, page1 string
	pdf         []byte
}

// bombs are made once for the tests that use them.
var bombs = sync.OnceValue(func() []bomb {
	const gig = 1 << 30
	flate := &pdftest.Doc{}
	flate.AddPage(612, 792).Text(72, 72, 24, true, "A Bomb Page").FlateBomb = gig
	flate.AddPage(612, 792).Text(72, 72, 24, true, "An Ordinary Page")
	meta := &pdftest.Doc{MetadataBomb: gig}
	meta.AddPage(612, 792).Text(72, 72, 24, true, "A Page Under Bad Metadata")
	meta.AddPage(612, 792).Text(72, 72, 24, true, "An Ordinary Page")
	return []bomb{
		// Drawing instructions compressed twice (/FlateDecode /FlateDecode).
		{"content stream", "content-over-budget", flate.Bytes()},
		// The first page's resources in an object stream that decodes to 1 GiB.
		{"object stream", "content-over-budget", pdftest.ObjStmBomb(gig)},
		// The catalog's XMP metadata, which pdfcpu's validation decodes whole.
		{"metadata", "", meta.Bytes()},
	}
})

// Each bomb costs `lectern ingest` no more than the README's ceiling; the
// page it is on fails alone with its reason and the other page is read.
// (Before pdfcpu's decoding was bounded, the page split took 1.6 GiB on the
// content bomb and 2.6 GiB on the object stream.)
func TestIngestPeakMemoryOnFlateBombs(t *testing.T) {
	for _, b := range bombs() {
		t.Run(b.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "bomb.pdf")
			if err := os.WriteFile(file, b.pdf, 0o600); err != nil {
				t.Fatal(err)
			}
			out, rss := ingestRSS(t, file)
			t.Logf("%d-byte file: peak RSS %d MiB", len(b.pdf), rss>>20)
			if rss >= bombCeilingIngest {
				t.Errorf("peak RSS %d MiB, want under %d MiB", rss>>20, bombCeilingIngest>>20)
			}
			page1 := `page 1: done`
			if b.page1 != "" {
				page1 = `page 1: failed.*` + regexp.QuoteMeta(b.page1)
			}
			if !regexp.MustCompile(page1).MatchString(out) || !strings.Contains(out, "page 2: done") {
				t.Errorf("want %q and page 2 done:\n%s", page1, out)
			}
		})
	}
}

// The three bombs uploaded at once to `lectern serve`: its peak stays under
// the README's ceiling and every issue ends ready, a bomb page failed with
// its reason on the issue.
func TestServePeakMemoryOnThreeFlateBombsAtOnce(t *testing.T) {
	srv := startServer(t, t.TempDir())
	var wg sync.WaitGroup
	for _, b := range bombs() {
		wg.Go(func() {
			ct, body := multipartBody(t, b.pdf)
			resp, err := http.Post("http://"+srv.addr+"/api/magazine", ct, bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusAccepted {
				t.Errorf("%s: upload answered %d", b.name, resp.StatusCode)
			}
		})
	}
	wg.Wait()
	list := srv.settled(t)
	if len(list) != 3 {
		t.Fatalf("%d issues, want 3: %+v", len(list), list)
	}
	resp, err := http.Get("http://" + srv.addr + "/api/magazine")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Issues []struct {
			Status     string
			PageErrors []struct{ Page int } `json:"page_errors"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, is := range body.Issues {
		if is.Status != "ready" {
			t.Errorf("an issue ended %q, want ready", is.Status)
		}
		for _, e := range is.PageErrors {
			if e.Page != 1 {
				t.Errorf("page %d failed; only a bomb's page 1 may", e.Page)
			}
			failed++
		}
	}
	if failed != 2 {
		t.Errorf("%d pages failed, want the 2 bomb pages", failed)
	}
	rss := highWater(t, srv.cmd.Process.Pid)
	t.Logf("lectern serve, three bombs at once: peak RSS %d MiB", rss>>20)
	if rss >= bombCeilingServe {
		t.Errorf("peak RSS %d MiB, want under %d MiB", rss>>20, bombCeilingServe>>20)
	}
}

// highWater is a running process's peak resident memory (VmHWM), in bytes.
func highWater(t *testing.T, pid int) int64 {
	t.Helper()
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status)
	if m == nil {
		t.Fatalf("no VmHWM in /proc/%d/status", pid)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return kb << 10
}

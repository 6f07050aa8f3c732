package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/pdf/pdftest"
)

// beLectern makes the test binary run as the lectern command, so tests can
// start real processes of it: measured, killed, restarted.
const beLectern = "LECTERN_TEST_BE_LECTERN"

func TestMain(m *testing.M) {
	if os.Getenv(beLectern) == "1" {
		main()
	}
	os.Exit(m.Run())
}

func lecternCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), beLectern+"=1", "TMPDIR="+t.TempDir())
	return cmd
}

var maxRSS = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)

// ingestRSS runs `lectern ingest` under /usr/bin/time -v and answers its
// output and peak resident memory.
func ingestRSS(t *testing.T, file string) (string, int64) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/time", "-v", exe, "ingest", "-data", t.TempDir(), file)
	cmd.Env = append(os.Environ(), beLectern+"=1")
	out, _ := cmd.CombinedOutput() // a failed page makes ingest exit 1
	m := maxRSS.FindSubmatch(out)
	if m == nil {
		t.Fatalf("no peak memory in the output:\n%s", out)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return string(out), kb << 10
}

// An inline picture declaring 50,000×50,000 pixels (7.5 GB of samples) in a
// file of a few KB: `lectern ingest` stays under 1 GiB and fails that page
// alone, whether the pre-check reads the file or only MuPDF can (where the
// memory budget is what stops it).
func TestIngestPeakMemoryOnAnInlineBomb(t *testing.T) {
	for _, tc := range []struct {
		name     string
		repaired bool
		reason   string
	}{
		{"pre-check", false, "image-over-budget"},
		{"MuPDF memory budget", true, "over memory budget"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &pdftest.Doc{NoTrailerRoot: tc.repaired}
			d.AddPage(612, 792).InlineBomb(50000)
			d.AddPage(612, 792).Text(72, 72, 24, true, "An Ordinary Page")
			file := filepath.Join(t.TempDir(), "bomb.pdf")
			if err := os.WriteFile(file, d.Bytes(), 0o600); err != nil {
				t.Fatal(err)
			}
			out, rss := ingestRSS(t, file)
			t.Logf("peak RSS %d MiB", rss>>20)
			if rss >= 1<<30 {
				t.Errorf("peak RSS %d MiB, want under 1 GiB", rss>>20)
			}
			if !regexp.MustCompile(`page 1: failed.*`+regexp.QuoteMeta(tc.reason)).MatchString(out) || !strings.Contains(out, "page 2: done") {
				t.Errorf("want page 1 failed with %q and page 2 done:\n%s", tc.reason, out)
			}
		})
	}
}

// A file over the size limit is refused by its size, without being read.
func TestIngestRefusesAnOversizeFileUnread(t *testing.T) {
	file := filepath.Join(t.TempDir(), "huge.pdf")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(300 << 20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	out, rss := ingestRSS(t, file)
	if !strings.Contains(out, "the file is 300.0 MiB (314572800 bytes); the limit is 200.0 MiB (209715200 bytes)") {
		t.Errorf("output:\n%s", out)
	}
	if rss >= 150<<20 {
		t.Errorf("peak RSS %d MiB: the file was read", rss>>20)
	}
}

func TestIngestClipsATitleFromALongFileName(t *testing.T) {
	d := &pdftest.Doc{}
	d.AddPage(612, 792).Text(72, 72, 24, true, "Short")
	file := filepath.Join(t.TempDir(), strings.Repeat("n", 240)+".pdf")
	if err := os.WriteFile(file, d.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := lecternCmd(t, "ingest", "-data", t.TempDir(), file)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if want := fmt.Sprintf("%q", strings.Repeat("n", 199)+"…"); !strings.Contains(string(out), want) {
		t.Errorf("title not clipped to 200 characters:\n%s", out)
	}
}

// server is a `lectern serve` process on a data folder.
type server struct {
	cmd  *exec.Cmd
	addr string
	// tmp is the process's TMPDIR, outside the data folder.
	tmp string
}

func startServer(t *testing.T, data string) *server {
	t.Helper()
	cmd := lecternCmd(t, "serve", "-addr", "127.0.0.1:0", "-data", data)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var line struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "lectern serving" {
				addr <- line.Addr
			}
		}
	}()
	select {
	case a := <-addr:
		srv := &server{cmd: cmd, addr: a}
		for _, kv := range cmd.Env {
			if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
				srv.tmp = v
			}
		}
		return srv
	case <-time.After(slowBound):
		t.Fatal("the server did not start")
	}
	return nil
}

func (s *server) kill(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Wait()
}

type listedIssue struct {
	ID, Status, Step, Error string
}

func (s *server) issues(t *testing.T) []listedIssue {
	t.Helper()
	resp, err := http.Get("http://" + s.addr + "/api/magazine")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Issues []listedIssue }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return body.Issues
}

// bigPDF is a valid one-page PDF carrying an unused stream of size random
// bytes, so storing it takes long enough to be interrupted.
func bigPDF(size int) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	var off []int
	obj := func(s string) { off = append(off, b.Len()); fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", len(off)+1, s) }
	obj("<< /Type /Catalog /Pages 2 0 R >>")
	obj("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	obj("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R /PieceInfo << /X << /Private 6 0 R >> >> >>")
	obj("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	content := "BT /F1 24 Tf 72 700 Td (A Big Issue) Tj ET"
	obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
	junk := make([]byte, size)
	_, _ = rand.Read(junk)
	obj(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", size, junk))
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(off)+1)
	for _, o := range off {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(off)+1, xref)
	return b.Bytes()
}

func multipartBody(t *testing.T, pdf []byte) (string, []byte) {
	t.Helper()
	return formFile(t, "big.pdf", "application/pdf", pdf)
}

// formFile is a multipart form whose field file holds data.
func formFile(t *testing.T, name, contentType string, data []byte) (string, []byte) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, err := w.CreatePart(map[string][]string{
		"Content-Disposition": {`form-data; name="file"; filename="` + name + `"`},
		"Content-Type":        {contentType},
	})
	if err != nil {
		t.Fatal(err)
	}
	part.Write(data)
	w.Close()
	return w.FormDataContentType(), body.Bytes()
}

func tempFiles(t *testing.T, data string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(data, "blobs", "tmp"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// settled waits until no issue is processing (each finished or failed with
// a reason) and answers them.
func (s *server) settled(t *testing.T) []listedIssue {
	t.Helper()
	deadline := time.Now().Add(slowBound)
	for {
		list := s.issues(t)
		busy := false
		for _, is := range list {
			busy = busy || is.Status == "processing" || is.Status == "uploading"
		}
		if !busy {
			return list
		}
		if time.Now().After(deadline) {
			t.Fatalf("issues still processing %s after restart: %+v", slowBound, list)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// A `kill -9` while an upload is being stored, and one while a slow client
// is still sending, leave no issue processing forever and no temp file:
// after a restart every issue settles and blobs/tmp is empty.
func TestKilledUploadLeavesNothingStuck(t *testing.T) {
	data := t.TempDir()
	ct, body := multipartBody(t, bigPDF(96<<20))

	// 1. Killed while the PDF is being written to the blob store.
	srv := startServer(t, data)
	go func() {
		resp, err := http.Post("http://"+srv.addr+"/api/magazine", ct, bytes.NewReader(body))
		if err == nil {
			resp.Body.Close()
		}
	}()
	deadline := time.Now().Add(slowBound)
	for len(tempFiles(t, data)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the upload never reached the blob store")
		}
		time.Sleep(time.Millisecond)
	}
	srv.kill(t)
	if len(tempFiles(t, data)) == 0 {
		t.Fatal("the kill came after the PDF was stored; the test did not interrupt it")
	}

	// 2. Restarted, then killed while a slow client is mid-body.
	srv = startServer(t, data)
	conn, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/magazine HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", srv.addr, ct, len(body))
	for i := 0; i < 20; i++ { // 20 KiB, slowly
		if _, err := conn.Write(body[i<<10 : (i+1)<<10]); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	srv.kill(t)

	// 3. Restarted: nothing stuck, nothing left in blobs/tmp.
	srv = startServer(t, data)
	for _, is := range srv.settled(t) {
		if is.Status == "failed" && is.Error == "" {
			t.Errorf("issue %s failed without a reason", is.ID)
		}
	}
	if left := tempFiles(t, data); len(left) != 0 {
		t.Errorf("temp files left after restart: %v", left)
	}
}

// names lists a folder's entries; a folder that does not exist is empty.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// A `kill -9` while a large upload is being received leaves its partly
// written form file inside the data folder, never in the system's temporary
// folder, and the next start removes it.
func TestKilledUploadLeavesNoTempFileOutsideTheDataFolder(t *testing.T) {
	data := t.TempDir()
	ct, body := multipartBody(t, bigPDF(32<<20))
	srv := startServer(t, data)
	conn, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/magazine HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", srv.addr, ct, len(body))
	// 4 MiB of the body: past what the form parser keeps in memory, so it
	// is writing the file part to disk when the process dies.
	if _, err := conn.Write(body[:4<<20]); err != nil {
		t.Fatal(err)
	}
	inData := filepath.Join(data, "tmp")
	deadline := time.Now().Add(60 * time.Second)
	for len(names(t, srv.tmp))+len(names(t, inData)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the upload never reached a temporary file")
		}
		time.Sleep(time.Millisecond)
	}
	srv.kill(t)
	if left := names(t, srv.tmp); len(left) != 0 {
		t.Errorf("the killed upload left %v in the system temporary folder %s", left, srv.tmp)
	}
	if len(names(t, inData)) == 0 {
		t.Error("no partial upload in the data folder's tmp: the test did not interrupt it")
	}
	srv = startServer(t, data)
	if left := names(t, inData); len(left) != 0 {
		t.Errorf("temporary files left in %s after restart: %v", inData, left)
	}
}

package app

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// lockedBuffer is a log the server writes while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// A client that closes the connection halfway through its body (a closed
// tab, a cancelled upload) is logged as 499, never as a 500 internal error.
func TestAClientThatLeavesMidBodyIsNotAnInternalError(t *testing.T) {
	logs := &lockedBuffer{}
	srv := httptest.NewUnstartedServer(nil)
	addr := srv.Listener.Addr().String()
	log := slog.New(slog.NewTextHandler(logs, nil))
	local := openTestLocal(t, "http://"+addr, 1)
	srv.Config.Handler = LocalHandler("0.0.0", "", log, SiteParts{Blobs: local.BlobHandler, Static: fstest.MapFS{}}, local.Operations()...)
	srv.Start()
	defer srv.Close()

	pdfPart := "--zz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n" + strings.Repeat("0", 5000)
	for _, tc := range []struct{ name, head, body string }{
		{"a JSON body", "PUT /api/settings HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n", `{"instance_name":`},
		{"an upload", "POST /api/magazine HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=zz\r\nContent-Length: 100000\r\n", pdfPart},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := strings.Count(logs.String(), "msg=request")
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(conn, tc.head+"Host: "+addr+"\r\n\r\n"+tc.body)
			time.Sleep(100 * time.Millisecond) // the server is reading the body
			conn.Close()
			deadline := time.Now().Add(10 * time.Second)
			for strings.Count(logs.String(), "msg=request") == before && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, "status=499") || strings.Contains(logs.String(), "internal error") {
				t.Fatalf("logged %s", logs.String())
			}
		})
	}
}

package app

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"net/http"
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
	handler := LocalHandler("0.0.0", "", log, SiteParts{Blobs: local.BlobHandler, Static: fstest.MapFS{}}, local.Operations()...)
	// Says when a handler first reads its request's body: the client leaves
	// then, mid-body, however slowly the server got there.
	reading := make(chan struct{}, 1)
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = &firstRead{ReadCloser: r.Body, seen: reading}
		handler.ServeHTTP(w, r)
	})
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
			select {
			case <-reading: // the server is reading the body
			case <-time.After(slowBound):
				t.Fatal("the server never read the body")
			}
			conn.Close()
			waitUntil(t, "the request is logged", func() bool { return strings.Count(logs.String(), "msg=request") > before })
			lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, "status=499") || strings.Contains(logs.String(), "internal error") {
				t.Fatalf("logged %s", logs.String())
			}
		})
	}
}

// firstRead is a request body that says on seen when it is first read.
type firstRead struct {
	io.ReadCloser
	seen chan<- struct{}
	once sync.Once
}

func (b *firstRead) Read(p []byte) (int, error) {
	b.once.Do(func() {
		select {
		case b.seen <- struct{}{}:
		default: // one said so already and is not yet heard
		}
	})
	return b.ReadCloser.Read(p)
}

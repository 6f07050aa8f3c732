package imagegen

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-img-4d3c"

// fakeEngine is an httptest server with OpenAI's image endpoints under /v1
// (bearer key required; a wrong key gets a 401 echoing it, as some engines
// do) and unauthenticated image files under /files/. Handlers are set per
// test; calls counts requests per path.
type fakeEngine struct {
	*httptest.Server
	generations func(n int, w http.ResponseWriter, req map[string]any)
	edits       func(n int, w http.ResponseWriter, r *http.Request)
	files       map[string][]byte

	mu       sync.Mutex
	calls    map[string]int
	fileAuth []string // Authorization headers sent for /files/
}

func newEngine(t *testing.T) *fakeEngine {
	t.Helper()
	e := &fakeEngine{files: map[string][]byte{}, calls: map[string]int{}}
	e.Server = httptest.NewServer(http.HandlerFunc(e.serve))
	t.Cleanup(e.Close)
	return e
}

func (e *fakeEngine) serve(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	e.calls[r.URL.Path]++
	n := e.calls[r.URL.Path]
	if strings.HasPrefix(r.URL.Path, "/files/") {
		e.fileAuth = append(e.fileAuth, r.Header.Get("Authorization"))
	}
	e.mu.Unlock()
	if data, ok := e.files[r.URL.Path]; ok && r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "image/png")
		w.Write(data)
		return
	}
	if !strings.HasPrefix(r.URL.Path, "/v1/") || r.Method != http.MethodPost {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+testKey {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":{"message":"Incorrect API key provided: `+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")+`"}}`)
		return
	}
	switch {
	case r.URL.Path == "/v1/images/generations" && e.generations != nil:
		var req map[string]any
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		e.generations(n, w, req)
	case r.URL.Path == "/v1/images/edits" && e.edits != nil:
		e.edits(n, w, r)
	default:
		http.Error(w, "not found", http.StatusNotFound)
	}
}

func (e *fakeEngine) count(path string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.calls[path]
}

func (e *fakeEngine) client(timeout time.Duration, retries int) *Client {
	return New(Config{BaseURL: e.URL + "/v1", APIKey: testKey, Model: "img-test", Timeout: timeout, MaxRetries: retries})
}

// answer writes an images response with one entry per item.
func answer(w http.ResponseWriter, items ...map[string]any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"created": 1, "data": items})
}

func b64(data []byte) map[string]any {
	return map[string]any{"b64_json": base64.StdEncoding.EncodeToString(data)}
}

func picture(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 40), uint8(y * 40), 200, 255})
		}
	}
	return img
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, picture(w, h)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func jpegOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, picture(w, h), nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pngSize decodes data as PNG and returns its dimensions.
func pngSize(t *testing.T, data []byte) (int, int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

func TestGenerateSendsTheRequestAndReturnsThePNG(t *testing.T) {
	e := newEngine(t)
	want := pngOf(t, 3, 2)
	var sent map[string]any
	e.generations = func(_ int, w http.ResponseWriter, req map[string]any) {
		sent = req
		item := b64(want)
		item["revised_prompt"] = "a lighthouse at dusk, oil painting"
		answer(w, item)
	}
	got, err := e.client(time.Second, 0).Generate(context.Background(), GenerateRequest{Prompt: "a lighthouse", Size: "1024x1024", N: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.PNG, want) || got.RevisedPrompt != "a lighthouse at dusk, oil painting" || got.FellBack || got.More != nil {
		t.Fatalf("got %+v", got)
	}
	for k, v := range map[string]any{"prompt": "a lighthouse", "size": "1024x1024", "n": 1.0, "model": "img-test"} {
		if sent[k] != v {
			t.Errorf("request %s = %#v, want %#v (body %v)", k, sent[k], v, sent)
		}
	}
	if _, ok := sent["response_format"]; ok {
		t.Errorf("response_format sent; GPT image models refuse it: %v", sent)
	}
}

func TestGenerateAcceptsEveryAnswerForm(t *testing.T) {
	img := pngOf(t, 5, 4)
	for _, tc := range []struct {
		name string
		item func(base string) map[string]any
	}{
		{"b64_json", func(string) map[string]any { return b64(img) }},
		{"b64_json as a data URL", func(string) map[string]any {
			return map[string]any{"b64_json": "data:image/png;base64," + base64.StdEncoding.EncodeToString(img)}
		}},
		{"absolute url", func(base string) map[string]any { return map[string]any{"url": base + "/files/out.png"} }},
		{"relative url", func(string) map[string]any { return map[string]any{"url": "/files/out.png"} }},
		{"JPEG re-encoded as PNG", func(string) map[string]any { return b64(jpegOf(t, 5, 4)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t)
			e.files["/files/out.png"] = img
			e.generations = func(_ int, w http.ResponseWriter, _ map[string]any) { answer(w, tc.item(e.URL)) }
			got, err := e.client(time.Second, 0).Generate(context.Background(), GenerateRequest{Prompt: "p"})
			if err != nil {
				t.Fatal(err)
			}
			if w, h := pngSize(t, got.PNG); w != 5 || h != 4 {
				t.Fatalf("got a %dx%d PNG", w, h)
			}
			e.mu.Lock()
			defer e.mu.Unlock()
			for _, auth := range e.fileAuth {
				if auth != "" {
					t.Fatalf("the key was sent with the image fetch: %q", auth)
				}
			}
		})
	}
}

func TestGenerateReturnsEveryImage(t *testing.T) {
	e := newEngine(t)
	first, second := pngOf(t, 1, 1), pngOf(t, 2, 2)
	e.generations = func(_ int, w http.ResponseWriter, _ map[string]any) { answer(w, b64(first), b64(second)) }
	got, err := e.client(time.Second, 0).Generate(context.Background(), GenerateRequest{Prompt: "p", N: 2})
	if err != nil || !bytes.Equal(got.PNG, first) || len(got.More) != 1 || !bytes.Equal(got.More[0], second) {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestGenerateRefusesUnusableAnswers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func(base string, w http.ResponseWriter)
		files map[string][]byte
		want  string
	}{
		{"no data", func(_ string, w http.ResponseWriter) { answer(w) }, nil, "without an image"},
		{"neither form", func(_ string, w http.ResponseWriter) { answer(w, map[string]any{"revised_prompt": "x"}) }, nil, "neither b64_json nor url"},
		{"bad base64", func(_ string, w http.ResponseWriter) { answer(w, map[string]any{"b64_json": "%%%"}) }, nil, "does not decode"},
		{"not an image", func(_ string, w http.ResponseWriter) { answer(w, b64([]byte("<html>oops</html>"))) }, nil, "not a PNG, JPEG or GIF"},
		{"file URL", func(_ string, w http.ResponseWriter) { answer(w, map[string]any{"url": "file:///etc/passwd"}) }, nil, "not http(s)"},
		{"missing file", func(base string, w http.ResponseWriter) { answer(w, map[string]any{"url": base + "/files/gone.png"}) }, nil, "answered 404"},
		{
			name: "oversized file",
			reply: func(base string, w http.ResponseWriter) {
				answer(w, map[string]any{"url": base + "/files/huge.png?sig=secret"})
			},
			files: map[string][]byte{"/files/huge.png": make([]byte, MaxImageBytes+1)},
			want:  "larger than 32 MiB",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t)
			for path, data := range tc.files {
				e.files[path] = data
			}
			e.generations = func(_ int, w http.ResponseWriter, _ map[string]any) { tc.reply(e.URL, w) }
			// The timeout is generous: reading 32 MiB under -race on a busy
			// machine took over a second, and this test is about the answer.
			_, err := e.client(20*time.Second, 0).Generate(context.Background(), GenerateRequest{Prompt: "p"})
			var ee *EngineError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an EngineError saying %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Fatalf("the URL's signature is in the error: %v", err)
			}
		})
	}
}

func TestEditSendsTheImageAndPrompt(t *testing.T) {
	e := newEngine(t)
	img, mask, out := pngOf(t, 4, 4), pngOf(t, 4, 4), pngOf(t, 2, 2)
	mask = append(mask[:len(mask):len(mask)], 0) // distinguishable from img
	type part struct {
		filename, contentType string
		data                  []byte
	}
	var fields map[string]string
	var files map[string]part
	e.edits = func(_ int, w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fields, files = map[string]string{}, map[string]part{}
		for k, v := range r.MultipartForm.Value {
			fields[k] = v[0]
		}
		for k, fhs := range r.MultipartForm.File {
			f, _ := fhs[0].Open()
			data, _ := io.ReadAll(f)
			f.Close()
			files[k] = part{fhs[0].Filename, fhs[0].Header.Get("Content-Type"), data}
		}
		answer(w, b64(out))
	}
	got, err := e.client(time.Second, 0).Edit(context.Background(), EditRequest{Prompt: "add a boat", Size: "512x512", Image: img, Mask: mask})
	if err != nil || !bytes.Equal(got.PNG, out) || got.FellBack {
		t.Fatalf("got %+v, %v", got, err)
	}
	if fields["prompt"] != "add a boat" || fields["size"] != "512x512" || fields["model"] != "img-test" {
		t.Errorf("form fields %v", fields)
	}
	if p := files["image"]; !bytes.Equal(p.data, img) || p.contentType != "image/png" || !strings.HasSuffix(p.filename, ".png") {
		t.Errorf("image part %q %q, %d bytes (parts %v)", p.filename, p.contentType, len(p.data), files)
	}
	if p := files["mask"]; !bytes.Equal(p.data, mask) || p.contentType != "image/png" {
		t.Errorf("mask part %q %q, %d bytes", p.filename, p.contentType, len(p.data))
	}
	if e.count("/v1/images/generations") != 0 {
		t.Error("generations called although edits answered")
	}
}

func TestEditAnswered405FallsBackToGenerations(t *testing.T) {
	e := newEngine(t)
	out := pngOf(t, 2, 2)
	e.edits = func(_ int, w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
	var sent map[string]any
	e.generations = func(_ int, w http.ResponseWriter, req map[string]any) {
		sent = req
		answer(w, b64(out))
	}
	got, err := e.client(time.Second, 2).Edit(context.Background(), EditRequest{Prompt: "add a boat", Size: "512x512", Image: pngOf(t, 4, 4)})
	if err != nil || !bytes.Equal(got.PNG, out) || !got.FellBack {
		t.Fatalf("got %+v, %v", got, err)
	}
	if e.count("/v1/images/edits") != 1 || e.count("/v1/images/generations") != 1 {
		t.Fatalf("edits called %d times, generations %d", e.count("/v1/images/edits"), e.count("/v1/images/generations"))
	}
	if sent["prompt"] != "add a boat" || sent["size"] != "512x512" {
		t.Fatalf("generations got %v, want the edit's prompt and size", sent)
	}
}

func TestEditFailuresOtherThan405DoNotFallBack(t *testing.T) {
	for _, status := range []int{http.StatusNotFound, http.StatusBadRequest} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			e := newEngine(t)
			e.edits = func(_ int, w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				io.WriteString(w, `{"error":{"message":"no such thing"}}`)
			}
			e.generations = func(_ int, w http.ResponseWriter, _ map[string]any) { answer(w, b64(pngOf(t, 1, 1))) }
			_, err := e.client(time.Second, 0).Edit(context.Background(), EditRequest{Prompt: "p", Image: pngOf(t, 1, 1)})
			var ee *EngineError
			if !errors.As(err, &ee) || ee.Status != status || !strings.Contains(err.Error(), e.URL+"/v1/images/edits") {
				t.Fatalf("got %v", err)
			}
			if e.count("/v1/images/generations") != 0 {
				t.Fatal("fell back on a status other than 405")
			}
		})
	}
}

func TestWrongKeySurfacesThe401WithoutTheKey(t *testing.T) {
	e := newEngine(t)
	e.generations = func(int, http.ResponseWriter, map[string]any) {}
	e.edits = func(int, http.ResponseWriter, *http.Request) {}
	c := New(Config{BaseURL: e.URL + "/v1", APIKey: "sk-wrong-7788", Timeout: time.Second})
	for name, call := range map[string]func() error{
		"generate": func() error {
			_, err := c.Generate(context.Background(), GenerateRequest{Prompt: "p"})
			return err
		},
		"edit": func() error {
			_, err := c.Edit(context.Background(), EditRequest{Prompt: "p", Image: pngOf(t, 1, 1)})
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			err := call()
			var ee *EngineError
			if !errors.Is(err, ErrUnauthorized) || !errors.As(err, &ee) || ee.Status != 401 {
				t.Fatalf("got %v", err)
			}
			if strings.Contains(err.Error(), "sk-wrong-7788") || !strings.Contains(err.Error(), "Unauthorized") {
				t.Fatalf("the error must name the status, not the engine's answer with the key: %v", err)
			}
		})
	}
	if n := e.count("/v1/images/generations") + e.count("/v1/images/edits"); n != 2 {
		t.Fatalf("a 401 must not be retried, got %d calls", n)
	}
}

func TestRetriesServerErrorsThenSucceeds(t *testing.T) {
	out := pngOf(t, 1, 1)
	failOnce := func(n int, w http.ResponseWriter) bool {
		if n == 1 {
			w.Header().Set("Retry-After-Ms", "10")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":{"message":"overloaded"}}`)
			return true
		}
		return false
	}
	e := newEngine(t)
	e.generations = func(n int, w http.ResponseWriter, _ map[string]any) {
		if !failOnce(n, w) {
			answer(w, b64(out))
		}
	}
	// The retried multipart body must arrive whole again.
	e.edits = func(n int, w http.ResponseWriter, r *http.Request) {
		if failOnce(n, w) {
			return
		}
		if err := r.ParseMultipartForm(1 << 20); err != nil || r.FormValue("prompt") != "p" || r.MultipartForm.File["image"] == nil {
			http.Error(w, "incomplete form", http.StatusBadRequest)
			return
		}
		answer(w, b64(out))
	}
	c := e.client(time.Second, 2)
	if got, err := c.Generate(context.Background(), GenerateRequest{Prompt: "p"}); err != nil || !bytes.Equal(got.PNG, out) {
		t.Fatalf("generate: %v", err)
	}
	if got, err := c.Edit(context.Background(), EditRequest{Prompt: "p", Image: pngOf(t, 1, 1)}); err != nil || !bytes.Equal(got.PNG, out) || got.FellBack {
		t.Fatalf("edit: %+v, %v", got, err)
	}
	if e.count("/v1/images/generations") != 2 || e.count("/v1/images/edits") != 2 {
		t.Fatalf("generations called %d times, edits %d", e.count("/v1/images/generations"), e.count("/v1/images/edits"))
	}
}

func TestGivesUpAfterRetriesWithTheStatus(t *testing.T) {
	e := newEngine(t)
	e.generations = func(_ int, w http.ResponseWriter, _ map[string]any) {
		w.Header().Set("Retry-After-Ms", "1")
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, `{"error":{"message":"upstream down"}}`)
	}
	_, err := e.client(time.Second, 2).Generate(context.Background(), GenerateRequest{Prompt: "p"})
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Status != 502 || e.count("/v1/images/generations") != 3 || !strings.Contains(err.Error(), "answered 502: Bad Gateway") || strings.Contains(err.Error(), "upstream down") {
		t.Fatalf("got %v after %d calls", err, e.count("/v1/images/generations"))
	}
}

func TestSlowEngineTimesOutNamingTheURL(t *testing.T) {
	e := newEngine(t)
	release := make(chan struct{})
	e.generations = func(int, http.ResponseWriter, map[string]any) { <-release }
	defer close(release)
	start := time.Now()
	_, err := e.client(200*time.Millisecond, -1).Generate(context.Background(), GenerateRequest{Prompt: "p"})
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Status != 0 || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), e.URL) {
		t.Fatalf("got %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("timeout not applied")
	}
}

func TestInvalidRequestsNeverReachTheEngine(t *testing.T) {
	e := newEngine(t)
	c := e.client(time.Second, 0)
	if _, err := c.Generate(context.Background(), GenerateRequest{Prompt: "p", Size: "huge"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("generate: %v", err)
	}
	if _, err := c.Edit(context.Background(), EditRequest{Prompt: "p", Image: jpegOf(t, 1, 1)}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("edit: %v", err)
	}
	if n := e.count("/v1/images/generations") + e.count("/v1/images/edits"); n != 0 {
		t.Fatalf("engine called %d times", n)
	}
}

package cards

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/lectern/lectern/shared/cards/cardrec"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/engines/docker"
	"github.com/lectern/lectern/shared/fault"
	"github.com/lectern/lectern/shared/settings"
	"github.com/lectern/lectern/shared/store/bolt"
)

// fakeDocker speaks the Docker Engine API endpoints cards use: ping,
// inspect, start, stop, restart, for containers in the states given.
type fakeDocker struct {
	mu     sync.Mutex
	states map[string]string // name → "running", "exited", "restarting", "unhealthy"; absent: no such container
	fail   map[string]int    // "op/name" → status to answer
}

var dockerPath = regexp.MustCompile(`^(?:/v[0-9.]+)?/containers/([^/]+)/(json|start|stop|restart)$`)

func (f *fakeDocker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Api-Version", "1.47")
	if strings.HasSuffix(r.URL.Path, "/_ping") {
		w.Write([]byte("OK"))
		return
	}
	m := dockerPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	name, op := m[1], m[2]
	if code := f.fail[op+"/"+name]; code != 0 {
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(map[string]string{"message": "fake failure " + http.StatusText(code)})
		return
	}
	state, ok := f.states[name]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		json.NewEncoder(w).Encode(map[string]string{"message": "No such container: " + name})
		return
	}
	switch op {
	case "json":
		st := map[string]any{"Status": state, "Running": state == "running" || state == "unhealthy", "Restarting": state == "restarting"}
		if state == "unhealthy" {
			st["Health"] = map[string]any{"Status": "unhealthy"}
		}
		json.NewEncoder(w).Encode(map[string]any{"Id": "abc", "Name": "/" + name, "State": st})
	case "start":
		if state == "running" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		f.states[name] = "running"
		w.WriteHeader(http.StatusNoContent)
	case "stop":
		if state == "exited" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		f.states[name] = "exited"
		w.WriteHeader(http.StatusNoContent)
	case "restart":
		f.states[name] = "running"
		w.WriteHeader(http.StatusNoContent)
	}
}

// fakeModels is an OpenAI-compatible /v1/models behind a bearer key.
func fakeModels(t *testing.T, key string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": "Incorrect API key provided: " + strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), "type": "invalid_request_error"}})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": []map[string]string{{"id": "qwen3-32b", "object": "model"}, {"id": "llama-3.3-70b", "object": "model"}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newService(t *testing.T, opts Options) (*Service, *settings.Service) {
	t.Helper()
	table, err := bolt.Open(filepath.Join(t.TempDir(), "cards.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { table.Close() })
	s := settings.NewService(table, "default")
	if opts.Instance == "" {
		opts.Instance = "default"
	}
	return NewService(table, s, opts), s
}

func strp(s string) *string { return &s }

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		card Card
	}{
		{"a name with a slash", Card{Name: "a/b", Spec: Spec{Kind: KindLLM}}},
		{"an unknown kind", Card{Name: "x", Spec: Spec{Kind: "toaster"}}},
		{"a file URL", Card{Name: "x", Spec: Spec{Kind: KindLLM, BaseURL: "file:///etc/passwd"}}},
		{"credentials in the URL", Card{Name: "x", Spec: Spec{Kind: KindLLM, BaseURL: "http://user:pw@h:4000"}}},
		{"a container name with a path", Card{Name: "x", Spec: Spec{Kind: KindTTS, Container: "../x"}}},
		{"a docker host of another scheme", Card{Name: "x", Spec: Spec{Kind: KindTTS, DockerHost: "ssh://h"}}},
		{"an unknown OCR preset", Card{Name: "x", Spec: Spec{Kind: KindVisionOCR, OCRPreset: "tesseract"}}},
		{"an OCR preset on a TTS card", Card{Name: "x", Spec: Spec{Kind: KindTTS, OCRPreset: "dots-ocr"}}},
	} {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			if err := Validate(tc.card); !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate = %v", err)
			}
		})
	}
}

// The OCR chain reads a card's preset from the stored card (cardrec), not
// through this package: what Put stores is what it reads.
func TestOCRPresetIsStoredForTheChain(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t, Options{})
	for _, c := range []Card{
		{Name: "dots", Spec: Spec{Kind: KindVisionOCR, BaseURL: "http://10.0.0.5:8000/v1", Model: "rednote-hilab/dots.ocr", OCRPreset: "dots-ocr"}},
		{Name: "docling", Spec: Spec{Kind: KindVisionOCRFallback, BaseURL: "http://10.0.0.6:5001", OCRPreset: "docling"}},
	} {
		if _, err := svc.Put(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := cardrec.List(ctx, svc.table, "default")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]cardrec.Record{}
	for _, r := range recs {
		got[r.Name] = r
	}
	if r := got["dots"]; r.Kind != "vision-ocr" || r.OCRPreset != "dots-ocr" || r.Model != "rednote-hilab/dots.ocr" || r.BaseURL != "http://10.0.0.5:8000/v1" {
		t.Errorf("dots card read back = %+v", r)
	}
	if r := got["docling"]; r.Kind != "vision-ocr-fallback" || r.OCRPreset != "docling" {
		t.Errorf("docling card read back = %+v", r)
	}
}

func TestURLs(t *testing.T) {
	ctx := context.Background()
	local, _ := newService(t, Options{EngineHost: "10.1.2.3"})
	hosted, _ := newService(t, Options{Hosted: true})
	for _, svc := range []*Service{local, hosted} {
		if _, err := svc.Put(ctx, Card{Name: "gateway", Spec: Spec{Kind: KindLLM}}); err != nil {
			t.Fatal(err)
		}
	}
	v, _ := local.Get(ctx, "gateway")
	if v.URL != "http://10.1.2.3:4000/v1" || v.URLSource != "default" || v.DockerURL != "unix:///var/run/docker.sock" {
		t.Errorf("local default = %+v", v)
	}
	v, _ = hosted.Get(ctx, "gateway")
	if v.URL != "" || v.URLSource != "missing" || v.DockerURL != "" {
		t.Errorf("hosted default = %+v", v)
	}
	if _, err := hosted.Connect(ctx, "gateway"); !errors.Is(err, ErrNeedsURL) {
		t.Errorf("hosted connect without a URL = %v", err)
	}
}

func TestContainers(t *testing.T) {
	ctx := context.Background()
	fd := &fakeDocker{
		states: map[string]string{"llm": "running", "ocr": "exited", "tts": "restarting", "img": "unhealthy", "busy": "exited"},
		fail:   map[string]int{"start/busy": 409, "restart/img": 500},
	}
	dockerSrv := httptest.NewServer(fd)
	defer dockerSrv.Close()
	svc, _ := newService(t, Options{})
	for _, name := range []string{"llm", "ocr", "tts", "img", "busy", "gone"} {
		if _, err := svc.Put(ctx, Card{Name: name, Spec: Spec{Kind: KindOther, Container: name, DockerHost: dockerSrv.URL}}); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]docker.Status{"llm": docker.Running, "ocr": docker.Stopped, "tts": docker.Restarting, "img": docker.Unhealthy, "gone": docker.NotInstalled} {
		if st, err := svc.ContainerStatus(ctx, name); err != nil || st != want {
			t.Errorf("status of %s = %q, %v; want %q", name, st, err, want)
		}
	}
	if st, err := svc.Control(ctx, "ocr", OpStart); err != nil || st != docker.Running {
		t.Errorf("start ocr = %q, %v", st, err)
	}
	if st, err := svc.Control(ctx, "llm", OpStop); err != nil || st != docker.Stopped {
		t.Errorf("stop llm = %q, %v", st, err)
	}
	for _, tc := range []struct {
		name, op string
		status   int
	}{{"busy", OpStart, 409}, {"img", OpRestart, 500}, {"gone", OpStart, 404}} {
		_, err := svc.Control(ctx, tc.name, tc.op)
		var he *docker.HostError
		if !errors.As(err, &he) || he.Status != tc.status || !errors.Is(err, ErrEngine) || fault.KindOf(err) != fault.Upstream || !strings.Contains(err.Error(), `card "`+tc.name+`"`) {
			t.Errorf("%s %s = %v, want a %d from the Docker host naming the card", tc.op, tc.name, err, tc.status)
		}
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	svc.Put(ctx, Card{Name: "far", Spec: Spec{Kind: KindOther, Container: "far", DockerHost: closed.URL}})
	if _, err := svc.ContainerStatus(ctx, "far"); err == nil || !strings.Contains(err.Error(), "unreachable") || !strings.Contains(err.Error(), closed.URL) {
		t.Errorf("unreachable docker host = %v", err)
	}
	svc.Put(ctx, Card{Name: "nobox", Spec: Spec{Kind: KindLLM}})
	if _, err := svc.Control(ctx, "nobox", OpStart); !errors.Is(err, ErrNoContainer) {
		t.Errorf("a card without a container = %v", err)
	}
}

func TestConnectAndUseAsLLM(t *testing.T) {
	ctx := context.Background()
	const cardKey, globalKey = "sk-card-0123456789", "sk-global-9876543210"
	engine := fakeModels(t, cardKey)
	svc, set := newService(t, Options{})
	if _, err := svc.Put(ctx, Card{Name: "gateway", Spec: Spec{Kind: KindLLM, BaseURL: engine.URL + "/", Model: "qwen3-32b"}}); err != nil {
		t.Fatal(err)
	}

	if _, err := set.Update(ctx, settings.Update{LLMAPIKey: strp(globalKey)}); err != nil {
		t.Fatal(err)
	}
	_, err := svc.Connect(ctx, "gateway")
	if err == nil || !strings.Contains(err.Error(), "401") || strings.Contains(err.Error(), globalKey) {
		t.Fatalf("connect with the global key (wrong for this engine) = %v", err)
	}
	if strings.Contains(err.Error(), "404") {
		t.Errorf("a wrong key must not look like a missing path: %v", err)
	}

	if _, err := set.Update(ctx, settings.Update{EngineAPIKeys: map[string]string{"gateway": cardKey}}); err != nil {
		t.Fatal(err)
	}
	models, err := svc.Connect(ctx, "gateway")
	if err != nil || strings.Join(models, ",") != "llama-3.3-70b,qwen3-32b" {
		t.Fatalf("connect with the card's key = %v, %v", models, err)
	}

	view, _, err := svc.UseAsLLM(ctx, "gateway")
	if err != nil {
		t.Fatal(err)
	}
	if view.LLMURL != engine.URL+"/v1" || view.LLMAPIKey != settings.Configured || view.LLMModel != "qwen3-32b" {
		t.Errorf("settings after use as LLM = %+v", view)
	}
	stored, _ := set.Load(ctx)
	if stored.LLMAPIKey != cardKey {
		t.Errorf("llm_api_key was not copied from the card")
	}
}

func TestHostedURLSafety(t *testing.T) {
	ctx := context.Background()
	engine := fakeModels(t, "k-0123456789")
	svc, set := newService(t, Options{Hosted: true})
	svc.Put(ctx, Card{Name: "local", Spec: Spec{Kind: KindLLM, BaseURL: engine.URL}}) // httptest listens on 127.0.0.1
	svc.Put(ctx, Card{Name: "metadata", Spec: Spec{Kind: KindLLM, BaseURL: "http://169.254.169.254/latest"}})
	svc.Put(ctx, Card{Name: "sock", Spec: Spec{Kind: KindOther, Container: "x", DockerHost: "unix:///var/run/docker.sock"}})
	for _, name := range []string{"local", "metadata"} {
		if _, err := svc.Connect(ctx, name); !errors.Is(err, ErrRefusedURL) {
			t.Errorf("hosted connect to %s = %v, want refused", name, err)
		}
	}
	if _, err := svc.ContainerStatus(ctx, "sock"); !errors.Is(err, ErrRefusedURL) {
		t.Errorf("hosted unix socket = %v, want refused", err)
	}
	set.Update(ctx, settings.Update{EngineURLAllowlist: []string{"127.0.0.1"}, EngineAPIKeys: map[string]string{"local": "k-0123456789"}})
	if _, err := svc.Connect(ctx, "local"); err != nil {
		t.Errorf("an allow-listed loopback engine = %v", err)
	}
}

// Opening the Engines page asks every card's Docker host for its status, and
// Connect calls the card's URL: neither may reach a cloud metadata address,
// in local mode too, unless the allow list names it.
func TestMetadataAddressesAreRefusedLocally(t *testing.T) {
	ctx := context.Background()
	svc, set := newService(t, Options{Timeout: time.Second})
	svc.Put(ctx, Card{Name: "imds", Spec: Spec{Kind: KindLLM, BaseURL: "http://169.254.169.254/latest"}})
	svc.Put(ctx, Card{Name: "imds6", Spec: Spec{Kind: KindLLM, BaseURL: "http://[fd00:ec2::254]/"}})
	svc.Put(ctx, Card{Name: "docker", Spec: Spec{Kind: KindOther, Container: "x", DockerHost: "tcp://169.254.169.254:2375"}})
	svc.Put(ctx, Card{Name: "docker6", Spec: Spec{Kind: KindOther, Container: "x", DockerHost: "http://[fd00:ec2::254]:2375"}})
	for _, name := range []string{"imds", "imds6"} {
		if _, err := svc.Connect(ctx, name); !errors.Is(err, ErrRefusedURL) || !strings.Contains(err.Error(), "metadata") {
			t.Errorf("connect to %s = %v, want refused", name, err)
		}
		if _, _, err := svc.UseAsLLM(ctx, name); !errors.Is(err, ErrRefusedURL) {
			t.Errorf("use %s as LLM = %v, want refused", name, err)
		}
	}
	for _, name := range []string{"docker", "docker6"} {
		if _, err := svc.ContainerStatus(ctx, name); !errors.Is(err, ErrRefusedURL) || !strings.Contains(err.Error(), "metadata") {
			t.Errorf("status of %s = %v, want refused", name, err)
		}
	}
	if _, err := set.Update(ctx, settings.Update{EngineURLAllowlist: []string{"169.254.169.254"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Connect(ctx, "imds"); errors.Is(err, ErrRefusedURL) {
		t.Errorf("the allow list names it, yet: %v", err)
	}
}

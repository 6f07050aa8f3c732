package speechapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/blob/localfs"
	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/voices"
)

// queueSpy keeps the jobs it is given and runs none.
type queueSpy struct{ jobs []jobs.Job }

func (q *queueSpy) Enqueue(_ context.Context, kind string, payload json.RawMessage) (jobs.Job, error) {
	j := jobs.Job{ID: jobs.NewID(), Kind: kind, Status: jobs.StatusQueued, Payload: payload}
	q.jobs = append(q.jobs, j)
	return j, nil
}

func (q *queueSpy) Get(context.Context, string) (jobs.Job, error) {
	return jobs.Job{}, jobs.ErrNotFound
}

// builtinVoices is a library whose every voice is espeak-ng's en-us.
type builtinVoices struct{}

func (builtinVoices) Get(_ context.Context, id string) (voices.Voice, error) {
	return voices.Voice{ID: id, Engine: voices.BuiltinEngine, EngineVoice: "en-us"}, nil
}

type noProgress struct{}

func (noProgress) Progress(context.Context, float64, string) error { return nil }

// TestHostedRenderOfABuiltinVoice: in AWS the function that takes the
// request (no espeak-ng) queues a render in a built-in voice; the job fails,
// not for another run, saying the function carries no espeak-ng where none
// is configured, and renders where one is (the worker's bundle).
func TestHostedRenderOfABuiltinVoice(t *testing.T) {
	espeak, err := exec.LookPath("espeak-ng")
	if err != nil {
		t.Fatal("espeak-ng is not installed: run `make deps` (apt-get install espeak-ng)")
	}
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("ffmpeg is not installed: run `make deps`")
	}
	blobs, err := localfs.New(t.TempDir(), "http://127.0.0.1:1", bytes.Repeat([]byte{7}, 32), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer blobs.Close()
	ctx := t.Context()
	queue := &queueSpy{}
	// service is a hosted function's renderer; command is its LECTERN_ESPEAK.
	service := func(command string) *render.Service {
		engines := engineSet{espeak: speech.Espeak{Command: command}, hosted: true}
		return render.NewService(render.New(blobs, render.Options{}), queue, builtinVoices{}, engines, blobs)
	}

	st, err := service("").Start(ctx, render.Spec{Text: "Hello from the worker. It carries espeak-ng.", VoiceID: "en-us", Format: render.FormatMP3})
	if err != nil || st.Status != jobs.StatusQueued || len(queue.jobs) != 1 {
		t.Fatalf("a built-in voice in AWS: %+v, %v, %d jobs queued", st, err, len(queue.jobs))
	}
	payload := queue.jobs[0].Payload

	_, err = service("").Job(ctx, payload, noProgress{})
	if !errors.Is(err, voices.ErrNoEngine) || errors.Is(err, jobs.ErrTransient) || !strings.Contains(err.Error(), "carries no espeak-ng") {
		t.Fatalf("a worker without espeak-ng: %v; want a final ErrNoEngine saying it carries none", err)
	}

	raw, err := service(espeak).Job(ctx, payload, noProgress{})
	if err != nil {
		t.Fatalf("a worker with espeak-ng: %v", err)
	}
	var res render.Result
	if err := json.Unmarshal(raw, &res); err != nil || res.Key == "" {
		t.Fatalf("result %s: %v", raw, err)
	}
	rc, _, err := blobs.Get(ctx, res.Key)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var audio bytes.Buffer
	if _, err := audio.ReadFrom(rc); err != nil || audio.Len() < 1000 {
		t.Fatalf("the audio has %d bytes: %v", audio.Len(), err)
	}
}

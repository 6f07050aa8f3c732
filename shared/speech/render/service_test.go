package render

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/jobs"
	"github.com/lectern/lectern/shared/voices"
)

// queueSpy keeps the jobs it is given; fail makes Enqueue fail.
type queueSpy struct {
	mu   sync.Mutex
	jobs []jobs.Job
	fail error
}

func (q *queueSpy) Enqueue(_ context.Context, kind string, payload json.RawMessage) (jobs.Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.fail != nil {
		return jobs.Job{}, q.fail
	}
	j := jobs.Job{ID: jobs.NewID(), Kind: kind, Status: jobs.StatusQueued, Payload: payload}
	q.jobs = append(q.jobs, j)
	return j, nil
}

func (q *queueSpy) Get(_ context.Context, id string) (jobs.Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, j := range q.jobs {
		if j.ID == id {
			return j, nil
		}
	}
	return jobs.Job{}, jobs.ErrNotFound
}

// oneVoice is a library of the voice "v" on the engine "tone".
type oneVoice struct{}

func (oneVoice) Get(_ context.Context, id string) (voices.Voice, error) {
	if id != "v" {
		return voices.Voice{}, voices.ErrNotFound
	}
	return voices.Voice{ID: id, Engine: "tone", EngineVoice: "a"}, nil
}

// toneEngines answers every engine with one that says a short tone.
type toneEngines struct{ calls *counting }

func (e toneEngines) Engine(_ context.Context, engine, voice string) (Engine, error) {
	return Engine{Name: engine, Voice: voice, Speaker: e.calls, Limit: OpenAILimit}, nil
}

type toneSpeaker struct{}

func (toneSpeaker) Speak(context.Context, speech.Request) (speech.Audio, error) {
	return speech.Audio{Data: tone(50), ContentType: "audio/wav"}, nil
}

func newTestService(t *testing.T) (*Service, *queueSpy, *counting) {
	t.Helper()
	blobs := newBlobs(t)
	q := &queueSpy{}
	calls := &counting{next: toneSpeaker{}}
	return NewService(New(blobs, Options{}), q, oneVoice{}, toneEngines{calls}, blobs), q, calls
}

// novel is a text of n bytes of plain sentences.
func novel(n int) string {
	const sentence = "The reader turned the page and the rain went on. "
	return strings.Repeat(sentence, n/len(sentence)+1)[:n]
}

// TestLongTextTravelsAsABlob: a text far over what a job's payload holds
// is accepted; the payload names the text's blob and stays small, and the
// job reads the same chapters back.
func TestLongTextTravelsAsABlob(t *testing.T) {
	svc, q, _ := newTestService(t)
	ctx := t.Context()
	spec := Spec{Chapters: []Chapter{{Title: "One", Text: novel(1_500_000)}, {Title: "Two", Text: novel(600_000)}}, VoiceID: "v", Format: FormatM4B}
	st, err := svc.Start(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.jobs) != 1 || st.ID != q.jobs[0].ID || st.Status != jobs.StatusQueued {
		t.Fatalf("status %+v, %d jobs queued", st, len(q.jobs))
	}
	raw := q.jobs[0].Payload
	if len(raw) > 1024 {
		t.Fatalf("the payload has %d bytes: the text travels in it", len(raw))
	}
	var p payload
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	if p.TextKey != p.Output+textBlob || p.Text != "" || p.Chapters != nil {
		t.Fatalf("payload %s", raw)
	}
	got, err := svc.text(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, spec.Chapters) {
		t.Fatal("the job reads back other chapters than were asked for")
	}
}

// TestJobRendersTheStoredText: the job renders the text Start stored, and
// a payload of a job queued before texts moved out (text inline) still
// renders.
func TestJobRendersTheStoredText(t *testing.T) {
	need(t, "ffmpeg")
	svc, q, calls := newTestService(t)
	ctx := t.Context()
	if _, err := svc.Start(ctx, Spec{Text: "First sentence. Second one!", VoiceID: "v", Format: FormatMP3}); err != nil {
		t.Fatal(err)
	}
	inline := json.RawMessage(`{"text":"An old job. Its text inline.","voice_id":"v","format":"mp3","engine":"tone","engine_voice":"a","output":"speech/renders/old/"}`)
	for _, raw := range []json.RawMessage{q.jobs[0].Payload, inline} {
		out, err := svc.Job(ctx, raw, noProgress{})
		if err != nil {
			t.Fatal(err)
		}
		var res Result
		if err := json.Unmarshal(out, &res); err != nil || res.Chunks != 2 {
			t.Fatalf("result %s, %v; want 2 chunks", out, err)
		}
	}
	if n := calls.calls.Load(); n != 4 {
		t.Fatalf("%d engine calls, want 4", n)
	}
}

type noProgress struct{}

func (noProgress) Progress(context.Context, float64, string) error { return nil }

// TestTooLongTextIsRefused: a text over MaxTextBytes, in one piece or
// summed over chapters, is refused as invalid naming both sizes, and
// nothing is queued or stored.
func TestTooLongTextIsRefused(t *testing.T) {
	for name, spec := range map[string]Spec{
		"one text": {Text: novel(MaxTextBytes + 1), VoiceID: "v", Format: FormatM4B},
		"chapters": {Chapters: []Chapter{{Text: novel(MaxTextBytes / 2)}, {Text: novel(MaxTextBytes/2 + 1)}}, VoiceID: "v", Format: FormatM4B},
	} {
		t.Run(name, func(t *testing.T) {
			svc, q, _ := newTestService(t)
			_, err := svc.Start(t.Context(), spec)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "at most 5000000") {
				t.Fatalf("err %v; want ErrInvalid naming the limit", err)
			}
			if len(q.jobs) != 0 {
				t.Fatalf("%d jobs queued", len(q.jobs))
			}
			if stored, err := svc.blobs.List(t.Context(), "speech/"); err != nil || len(stored) != 0 {
				t.Fatalf("stored %v, %v", stored, err)
			}
		})
	}
}

// TestFailedEnqueueLeavesNoText: when the job cannot be queued, the text
// stored for it is removed.
func TestFailedEnqueueLeavesNoText(t *testing.T) {
	svc, q, _ := newTestService(t)
	q.fail = errors.New("queue down")
	if _, err := svc.Start(t.Context(), Spec{Text: "Hello.", VoiceID: "v", Format: FormatMP3}); err == nil {
		t.Fatal("Start succeeded without a queue")
	}
	if stored, err := svc.blobs.List(t.Context(), "speech/"); err != nil || len(stored) != 0 {
		t.Fatalf("stored %v, %v", stored, err)
	}
}

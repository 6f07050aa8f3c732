package render

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/voices"
)

// espeakLibrary is a library of espeak-ng voices: id → espeak voice.
type espeakLibrary map[string]string

func (l espeakLibrary) Get(_ context.Context, id string) (voices.Voice, error) {
	v, ok := l[id]
	if !ok {
		return voices.Voice{}, voices.ErrNotFound
	}
	return voices.Voice{ID: id, Engine: voices.BuiltinEngine, EngineVoice: v}, nil
}

// espeakEngines speaks every voice with the real espeak-ng.
type espeakEngines struct{ calls *counting }

func (e espeakEngines) Engine(_ context.Context, engine, voice string) (Engine, error) {
	return Engine{Name: engine, Voice: voice, Speaker: e.calls, Limit: EspeakLimit}, nil
}

func newEspeakService(t *testing.T, library espeakLibrary) (*Service, *queueSpy, *counting) {
	t.Helper()
	blobs := newBlobs(t)
	q := &queueSpy{}
	calls := &counting{next: speech.Espeak{}}
	return NewService(New(blobs, Options{}), q, library, espeakEngines{calls}, blobs), q, calls
}

// TestTwoVoicesInOneRender: a chapter of segments is spoken by each
// segment's voice (a segment without one in the render's), each chunk is
// cached under its own voice's key, a segment's end ends a sentence, and
// the timings name the voice and segment of every sentence in order.
func TestTwoVoicesInOneRender(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg")
	svc, q, calls := newEspeakService(t, espeakLibrary{"host-a": "en-us", "host-b": "en-gb"})
	ctx := t.Context()
	spec := Spec{VoiceID: "host-a", Format: FormatMP3, Chapters: []Chapter{{Title: "Talk", Segments: []Segment{
		{VoiceID: "host-a", Text: "Hello there. Welcome to the show."},
		{VoiceID: "host-b", Text: "Thanks for having me"}, // no full stop: the segment ends it
		{Text: "Glad you came."},
	}}}}
	if _, err := svc.Start(ctx, spec); err != nil {
		t.Fatal(err)
	}
	out, err := svc.Job(ctx, q.jobs[0].Payload, noProgress{})
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if res.Chunks != 4 || calls.calls.Load() != 4 {
		t.Fatalf("%d chunks, %d calls; want 4 and 4", res.Chunks, calls.calls.Load())
	}
	for _, c := range []struct{ voice, text string }{
		{"en-us", "Hello there."}, {"en-us", "Welcome to the show."}, {"en-gb", "Thanks for having me"}, {"en-us", "Glad you came."},
	} {
		if _, err := svc.blobs.Head(ctx, CacheKey(voices.BuiltinEngine, c.voice, c.text, 0)); err != nil {
			t.Errorf("%q in %s is not cached under its voice's key: %v", c.text, c.voice, err)
		}
	}
	rc, _, err := svc.blobs.Get(ctx, res.TimingsKey)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var tm Timings
	if err := json.NewDecoder(rc).Decode(&tm); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range tm.Chapters[0].Sentences {
		got = append(got, fmt.Sprintf("%s/%d/%s", s.VoiceID, s.Segment, s.Text))
	}
	want := "host-a/0/Hello there.|host-a/0/Welcome to the show.|host-b/1/Thanks for having me|host-a/2/Glad you came."
	if strings.Join(got, "|") != want {
		t.Fatalf("timings\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}

// TestEverySegmentNamesItsVoice: without a render voice, segments that all
// name theirs render.
func TestEverySegmentNamesItsVoice(t *testing.T) {
	svc, q, _ := newEspeakService(t, espeakLibrary{"host-a": "en-us", "host-b": "en-gb"})
	spec := Spec{Format: FormatMP3, Chapters: []Chapter{{Segments: []Segment{{VoiceID: "host-a", Text: "One."}, {VoiceID: "host-b", Text: "Two."}}}}}
	if _, err := svc.Start(t.Context(), spec); err != nil {
		t.Fatal(err)
	}
	var p payload
	if err := json.Unmarshal(q.jobs[0].Payload, &p); err != nil {
		t.Fatal(err)
	}
	if p.Engine != "" || len(p.Voices) != 2 || p.Voices["host-b"].EngineVoice != "en-gb" {
		t.Fatalf("payload %s", q.jobs[0].Payload)
	}
}

// TestBadSegmentsAreRefused: text and segments both, a segment's unknown
// voice, more than MaxVoices voices, or a segment without a voice and no
// render voice are invalid, naming the fault, and nothing is queued or
// stored.
func TestBadSegmentsAreRefused(t *testing.T) {
	library := espeakLibrary{"host-a": "en-us"}
	var many []Segment
	for i := range MaxVoices + 1 {
		id := fmt.Sprintf("v%d", i)
		library[id] = "en-us"
		many = append(many, Segment{VoiceID: id, Text: "Hi."})
	}
	for name, c := range map[string]struct {
		spec Spec
		says string
	}{
		"text and segments": {Spec{VoiceID: "host-a", Chapters: []Chapter{{Text: "Hi.", Segments: []Segment{{Text: "Ho."}}}}}, "not both"},
		"unknown voice":     {Spec{VoiceID: "host-a", Chapters: []Chapter{{Segments: []Segment{{VoiceID: "nobody", Text: "Ho."}}}}}, `"nobody"`},
		"65 voices":         {Spec{Chapters: []Chapter{{Segments: many}}}, "65 voices, at most 64"},
		"no voice at all":   {Spec{Chapters: []Chapter{{Segments: []Segment{{VoiceID: "host-a", Text: "Hi."}, {Text: "Ho."}}}}}, "segment 2 names no voice"},
	} {
		t.Run(name, func(t *testing.T) {
			svc, q, _ := newEspeakService(t, library)
			c.spec.Format = FormatMP3
			_, err := svc.Start(t.Context(), c.spec)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err %v; want ErrInvalid saying %s", err, c.says)
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

// TestListChunksFollowsTheJob: before the job has planned, nothing is
// listed and the player is told to ask again from 0; once spoken every
// chunk is listed; a finished render whose chunk left the cache stops
// before it and says evicted; a failed one stops at its first missing
// chunk, with its error and no next.
func TestListChunksFollowsTheJob(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg")
	svc, q, _ := newEspeakService(t, espeakLibrary{"host-a": "en-us"})
	ctx := t.Context()
	st, err := svc.Start(ctx, Spec{VoiceID: "host-a", Format: FormatMP3, Text: "One. Two. Three."})
	if err != nil {
		t.Fatal(err)
	}
	list, err := svc.ListChunks(ctx, st.ID, 0, 0)
	if err != nil || list.Status != "queued" || list.Total != 0 || len(list.Chunks) != 0 || list.Next == nil || *list.Next != 0 {
		t.Fatalf("queued: %+v, %v", list, err)
	}
	if _, err := svc.Job(ctx, q.jobs[0].Payload, noProgress{}); err != nil {
		t.Fatal(err)
	}
	q.jobs[0].Status = "succeeded"
	list, err = svc.ListChunks(ctx, st.ID, 0, 0)
	if err != nil || list.Total != 3 || len(list.Chunks) != 3 || list.Next != nil || list.Evicted || list.Chunks[2].Text != "Three." {
		t.Fatalf("succeeded: %+v, %v", list, err)
	}
	if err := svc.blobs.Delete(ctx, CacheKey(voices.BuiltinEngine, "en-us", "Two.", 0)); err != nil {
		t.Fatal(err)
	}
	list, err = svc.ListChunks(ctx, st.ID, 0, 0)
	if err != nil || len(list.Chunks) != 1 || list.Next != nil || !list.Evicted {
		t.Fatalf("evicted: %+v, %v", list, err)
	}
	q.jobs[0].Status, q.jobs[0].Error = "failed", "engine down"
	list, err = svc.ListChunks(ctx, st.ID, 0, 0)
	if err != nil || len(list.Chunks) != 1 || list.Next != nil || list.Evicted || list.Error != "engine down" {
		t.Fatalf("failed: %+v, %v", list, err)
	}
	if _, err := svc.ListChunks(ctx, st.ID, -1, 0); !errors.Is(err, ErrInvalid) {
		t.Fatalf("from -1: %v", err)
	}
}

// TestVoicesOfOtherRatesShareARender: espeak-ng (22,050 Hz) and an
// OpenAI-compatible engine (24,000 Hz, a local server) speak one render;
// the second voice's samples are converted to the first's rate, so the
// render lasts what its chunks do.
func TestVoicesOfOtherRatesShareARender(t *testing.T) {
	need(t, "espeak-ng", "ffmpeg")
	srv, seen := speechServer(t)
	r := New(newBlobs(t), Options{})
	res, err := r.Render(t.Context(), Request{
		Engine: Engine{Name: "espeak-ng", Voice: "en-us", Speaker: speech.Espeak{}, Limit: EspeakLimit}, VoiceID: "narrator",
		Voices:   map[string]Engine{"guest": openAIEngine(srv)},
		Chapters: []Chapter{{Segments: []Segment{{Text: "Hello there."}, {VoiceID: "guest", Text: "Hi."}, {Text: "Bye."}}}},
		Format:   FormatMP3, Output: "x/",
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(*seen) != 1 {
		t.Fatalf("%d calls to the card, want 1", len(*seen))
	}
	rc, _, err := r.blobs.Get(t.Context(), res.TimingsKey)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var tm Timings
	if err := json.NewDecoder(rc).Decode(&tm); err != nil {
		t.Fatal(err)
	}
	guest := tm.Chapters[0].Sentences[1]
	// The card says 300 ms + 10 ms a character: 330 ms for "Hi.".
	if guest.VoiceID != "guest" || guest.EndMS-guest.StartMS < 325 || guest.EndMS-guest.StartMS > 335 {
		t.Fatalf("the guest's sentence %+v; want 330 ms", guest)
	}
}

// TestConvertPCM: rate, channels and bits change; values keep their level.
func TestConvertPCM(t *testing.T) {
	f, pcm, err := parseWAV(tone(1000))
	if err != nil {
		t.Fatal(err)
	}
	cd := pcmFormat{Channels: 1, SampleRate: 22050, Bits: 16}
	out := convertPCM(pcm, f, cd)
	if len(out) != 2*22050 {
		t.Fatalf("%d bytes, want %d", len(out), 2*22050)
	}
	if v := int16(binary.LittleEndian.Uint16(out)); v > -1995 || v < -2001 {
		t.Fatalf("first sample %d, want about -2000", v)
	}
	stereo8 := pcmFormat{Channels: 2, SampleRate: 8000, Bits: 8}
	out = convertPCM([]byte{192, 64, 255, 255}, stereo8, pcmFormat{Channels: 1, SampleRate: 8000, Bits: 16})
	if a, b := int16(binary.LittleEndian.Uint16(out)), int16(binary.LittleEndian.Uint16(out[2:])); len(out) != 4 || a != 0 || b < 32000 {
		t.Fatalf("stereo 8-bit to mono 16-bit: %d, %d (%d bytes)", a, b, len(out))
	}
}

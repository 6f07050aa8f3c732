package app

import (
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/speech/render"
	"github.com/lectern/lectern/shared/voices"
)

// threeParagraphs is a short article: 7 sentences in 3 paragraphs.
const threeParagraphs = `The storm reached the coast before dawn. Fishing boats stayed in the harbour.

By noon the wind had dropped. Crews began to check their nets. Nobody had been hurt.

In the evening the sky cleared. The boats went out again at midnight.`

// pollChunks asks for a render's chunks until one from index from is
// listed or the render ends.
func pollChunks(t *testing.T, c *apiClient, id string, from int) render.ChunkList {
	t.Helper()
	deadline := time.Now().Add(slowBound)
	for {
		status, _, b := c.do("GET", fmt.Sprintf("/api/speech/renders/%s/chunks?from=%d", id, from), nil)
		if status != http.StatusOK {
			t.Fatalf("chunks answered %d: %s", status, b)
		}
		list := decode[render.ChunkList](t, b)
		if len(list.Chunks) > 0 || list.Status.Final() || time.Now().After(deadline) {
			return list
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestListenWhileRendering: over HTTP, a render's chunk 0 is listed while
// the render may still run, its URL serves a WAV of the stated duration,
// and once the render is done every chunk is listed in order with the
// sentences' texts; pages follow 'next'. It logs the time from Start to
// chunk 0 listed (espeak-ng, 3 paragraphs).
func TestListenWhileRendering(t *testing.T) {
	for _, c := range []string{"espeak-ng", "ffmpeg"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("%s is not installed (make deps-system)", c)
		}
	}
	_, c := serveLocal(t, 2)
	voice := voices.EngineVoiceID(voices.BuiltinEngine, "en-us")
	start := time.Now()
	status, _, b := c.do("POST", "/api/speech/renders", []byte(fmt.Sprintf(`{"voice_id":%q,"format":"mp3","text":%q}`, voice, threeParagraphs)))
	if status != http.StatusAccepted {
		t.Fatalf("POST answered %d: %s", status, b)
	}
	st := decode[render.Status](t, b)
	first := pollChunks(t, c, st.ID, 0)
	t.Logf("Start to chunk 0 listed: %s (render %s at that moment)", time.Since(start).Round(time.Millisecond), first.Status)
	if len(first.Chunks) == 0 || first.Chunks[0].Index != 0 || first.Chunks[0].Text != "The storm reached the coast before dawn." {
		t.Fatalf("first listing %+v", first)
	}
	checkChunkWAV(t, first.Chunks[0])

	st = waitRendered(t, c, st)
	status, _, b = c.do("GET", "/api/speech/renders/"+st.ID+"/chunks?from=0&limit=100", nil)
	all := decode[render.ChunkList](t, b)
	sentences := render.Sentences(threeParagraphs)
	if status != http.StatusOK || all.Total != len(sentences) || len(all.Chunks) != len(sentences) || all.Next != nil || all.Evicted {
		t.Fatalf("finished listing (%d): %s", status, b)
	}
	for i, ch := range all.Chunks {
		if ch.Index != i || ch.Text != sentences[i] || ch.Sentence != i || ch.VoiceID != voice || ch.DurationMS <= 0 {
			t.Fatalf("chunk %d: %+v; want sentence %q", i, ch, sentences[i])
		}
	}
	_, _, b = c.do("GET", "/api/speech/renders/"+st.ID+"/chunks?from=2&limit=2", nil)
	page := decode[render.ChunkList](t, b)
	if len(page.Chunks) != 2 || page.Chunks[0].Index != 2 || page.Next == nil || *page.Next != 4 {
		t.Fatalf("page from 2: %s", b)
	}
	_, _, b = c.do("GET", fmt.Sprintf("/api/speech/renders/%s/chunks?from=%d", st.ID, len(sentences)), nil)
	if end := decode[render.ChunkList](t, b); len(end.Chunks) != 0 || end.Next != nil {
		t.Fatalf("past the end: %s", b)
	}
}

// waitRendered follows a render until it ends, which must be success.
func waitRendered(t *testing.T, c *apiClient, st render.Status) render.Status {
	t.Helper()
	for !st.Status.Final() {
		time.Sleep(50 * time.Millisecond)
		_, _, b := c.do("GET", "/api/speech/renders/"+st.ID, nil)
		st = decode[render.Status](t, b)
	}
	if st.Status != "succeeded" {
		t.Fatalf("render ended %s: %s", st.Status, st.Error)
	}
	return st
}

// checkChunkWAV fetches a chunk's URL: a WAV whose samples last the
// chunk's duration_ms.
func checkChunkWAV(t *testing.T, ch render.SpokenChunk) {
	t.Helper()
	resp, err := http.Get(ch.URL)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(data) <= 44 || string(data[0:4]) != "RIFF" || string(data[8:12]) != "WAVE" || string(data[36:40]) != "data" {
		t.Fatalf("chunk URL answered %d, %d bytes: %.12q", resp.StatusCode, len(data), data)
	}
	le := binary.LittleEndian
	byteRate, size := int64(le.Uint32(data[28:32])), int64(le.Uint32(data[40:44]))
	if ms := size * 1000 / byteRate; ms != ch.DurationMS || size != int64(len(data)-44) {
		t.Fatalf("WAV of %d bytes at %d B/s is %d ms; chunk says %d", size, byteRate, ms, ch.DurationMS)
	}
}

// TestChunksOfTwoVoices: a render of segments lists each chunk with its
// voice and segment, in order.
func TestChunksOfTwoVoices(t *testing.T) {
	for _, c := range []string{"espeak-ng", "ffmpeg"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("%s is not installed (make deps-system)", c)
		}
	}
	_, c := serveLocal(t, 2)
	us, gb := voices.EngineVoiceID(voices.BuiltinEngine, "en-us"), voices.EngineVoiceID(voices.BuiltinEngine, "en-gb")
	body := fmt.Sprintf(`{"voice_id":%q,"format":"mp3","chapters":[{"title":"Talk","segments":[
		{"text":"Welcome back. Today we talk about storms."},{"voice_id":%q,"text":"Thanks. It was a long night"},{"text":"It was."}]}]}`, us, gb)
	status, _, b := c.do("POST", "/api/speech/renders", []byte(body))
	if status != http.StatusAccepted {
		t.Fatalf("POST answered %d: %s", status, b)
	}
	st := decode[render.Status](t, b)
	st = waitRendered(t, c, st)
	_, _, b = c.do("GET", "/api/speech/renders/"+st.ID+"/chunks", nil)
	var got []string
	for _, ch := range decode[render.ChunkList](t, b).Chunks {
		got = append(got, fmt.Sprintf("%d/%d/%s/%s", ch.Segment, ch.Sentence, ch.VoiceID, ch.Text))
	}
	want := []string{
		"0/0/" + us + "/Welcome back.", "0/1/" + us + "/Today we talk about storms.",
		"1/2/" + gb + "/Thanks.", "1/3/" + gb + "/It was a long night", "2/4/" + us + "/It was.",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("chunks\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var voiced []string
	for _, s := range st.Timings.Chapters[0].Sentences {
		voiced = append(voiced, s.VoiceID)
	}
	if strings.Join(voiced, " ") != strings.Join([]string{us, us, gb, gb, us}, " ") {
		t.Fatalf("timings' voices %v", voiced)
	}
}

// TestChunksAndSegmentsRefuseBadInput: bad segments are 422 problems, a
// negative from or a limit over 100 is 422, an unknown render 404.
func TestChunksAndSegmentsRefuseBadInput(t *testing.T) {
	_, c := serveLocal(t, 1)
	voice := voices.EngineVoiceID(voices.BuiltinEngine, "en-us")
	var many []string
	for i := range render.MaxVoices + 1 {
		many = append(many, fmt.Sprintf(`{"voice_id":"v%d","text":"Hi."}`, i))
	}
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		detail                   string
	}{
		{"text and segments", "POST", "/api/speech/renders", fmt.Sprintf(`{"voice_id":%q,"chapters":[{"text":"Hi.","segments":[{"text":"Ho."}]}]}`, voice), 422, "not both"},
		{"an unknown segment voice", "POST", "/api/speech/renders", fmt.Sprintf(`{"voice_id":%q,"chapters":[{"segments":[{"voice_id":"nobody-here","text":"Ho."}]}]}`, voice), 422, `"nobody-here"`},
		{"65 voices", "POST", "/api/speech/renders", `{"chapters":[{"segments":[` + strings.Join(many, ",") + `]}]}`, 422, "65 voices, at most 64"},
		{"a bad segment voice id", "POST", "/api/speech/renders", `{"chapters":[{"segments":[{"voice_id":"Bad Voice","text":"Ho."}]}]}`, 422, ""},
		{"a negative from", "GET", "/api/speech/renders/aaaaaaaaaaaaaaaaaaaaaaaaaa/chunks?from=-1", "", 422, ""},
		{"a limit over 100", "GET", "/api/speech/renders/aaaaaaaaaaaaaaaaaaaaaaaaaa/chunks?limit=101", "", 422, ""},
		{"an unknown render", "GET", "/api/speech/renders/aaaaaaaaaaaaaaaaaaaaaaaaaa/chunks", "", 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			status, h, b := c.do(tc.method, tc.path, body)
			p := decode[problem](t, b)
			if status != tc.status || h.Get("Content-Type") != "application/problem+json" || p.Status != tc.status || !strings.Contains(p.Detail, tc.detail) {
				t.Fatalf("answered %d %s: %s", status, h.Get("Content-Type"), b)
			}
		})
	}
}

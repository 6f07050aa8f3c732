package render

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/engines/speech"
)

// benchText is a 10,000-word text of plain sentences of 6 to 24 words.
func benchText(words int) string {
	vocab := strings.Fields("the reader turned a page and found that every quiet morning in the old town began with bread " +
		"coffee rain letters from friends who lived far away near mountains rivers and long roads through green fields")
	rng := rand.New(rand.NewPCG(7, 13))
	var b strings.Builder
	for n := 0; n < words; {
		k := min(6+rng.IntN(19), words-n)
		for i := range k {
			w := vocab[rng.IntN(len(vocab))]
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
			if i < k-1 {
				b.WriteByte(' ')
			}
		}
		b.WriteString(". ")
		n += k
	}
	return b.String()
}

// BenchmarkRenderEspeak renders a 10,000-word text with espeak-ng through
// the renderer and, in the same run, calls espeak-ng directly on the same
// chunks with the same number of calls at once. It prints:
//
//   - synth-ratio (wall) and synth-cpu-ratio (CPU of this process and its
//     espeak-ng children): the renderer's speaking phase (planning, cache
//     look-ups and writes, bounded concurrency, the retry loop) over the
//     direct calls; the target is ≤ 1.10. own-cpu-ratio counts
//     only the renderer's process, beyond what the direct calls' spends.
//   - full-ratio: the whole render (speaking, then joining the chunks,
//     loudness normalisation and M4B encoding) over the direct calls.
//   - cached-render-s: a render of the same text, every chunk cached.
func BenchmarkRenderEspeak(b *testing.B) {
	for _, c := range []string{"espeak-ng", "ffmpeg"} {
		if _, err := exec.LookPath(c); err != nil {
			b.Fatalf("%s is not installed", c)
		}
	}
	ctx := context.Background()
	text := benchText(10_000)
	workers := runtime.NumCPU()
	eng := Engine{Name: "espeak-ng", Voice: "en-us", Speaker: speech.Espeak{}, Limit: EspeakLimit, Concurrency: workers}
	chunks := Plan([]Chapter{{Text: text}}, EspeakLimit)[0]
	// direct speaks texts with espeak-ng, workers at once, nothing else.
	direct := func(texts []Chunk) time.Duration {
		start := time.Now()
		work := make(chan string)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var failed error
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for t := range work {
					if _, err := (speech.Espeak{}).Speak(ctx, speech.Request{Text: t, Voice: "en-us", Format: speech.FormatWAV}); err != nil {
						mu.Lock()
						failed = err
						mu.Unlock()
					}
				}
			}()
		}
		for _, c := range texts {
			work <- c.Text
		}
		close(work)
		wg.Wait()
		if failed != nil {
			b.Fatal(failed)
		}
		return time.Since(start)
	}
	var directT, synth, full, cached, directSelf, directKids, synthSelf, synthKids time.Duration
	for b.Loop() {
		directT, synth, directSelf, directKids, synthSelf, synthKids = 0, 0, 0, 0, 0, 0
		blobs := newBlobs(b)
		r := New(blobs, Options{})
		// The same chunks both ways, in 4 groups, the order alternating, so
		// a change in the machine's load meanwhile (it is shared) weighs on
		// both sides alike.
		const groups = 16
		for g := range groups {
			part := chunks[g*len(chunks)/groups : (g+1)*len(chunks)/groups]
			var planned []planned
			for _, c := range part {
				planned = append(planned, plannedChunk(0, c, eng, 0))
			}
			through := func() time.Duration {
				start := time.Now()
				if _, _, _, err := r.synthesize(ctx, Request{}, planned, nil); err != nil {
					b.Fatal(err)
				}
				return time.Since(start)
			}
			// CPU time (this process and the espeak-ng processes it ran)
			// as well as wall time: on a shared machine the wall clock
			// measures the neighbours too.
			timed := func(f func() time.Duration, wall, self, children *time.Duration) {
				s0, c0 := cpuTime()
				*wall += f()
				s1, c1 := cpuTime()
				*self += s1 - s0
				*children += c1 - c0
			}
			if g%2 == 0 {
				timed(func() time.Duration { return direct(part) }, &directT, &directSelf, &directKids)
				timed(through, &synth, &synthSelf, &synthKids)
			} else {
				timed(through, &synth, &synthSelf, &synthKids)
				timed(func() time.Duration { return direct(part) }, &directT, &directSelf, &directKids)
			}
		}
		req := Request{Engine: eng, Chapters: []Chapter{{Title: "Bench", Text: text}}, Format: FormatM4B, Title: "Bench", Output: "bench/"}
		start := time.Now()
		res, err := r.Render(ctx, req, nil)
		if err != nil {
			b.Fatal(err)
		}
		cached = time.Since(start)
		full = synth + cached
		if res.EngineCalls != 0 {
			b.Fatalf("render after the speaking phase made %d engine calls", res.EngineCalls)
		}
		b.Logf("%d words, %d chunks, %.1f min of audio; direct %.2f s, renderer speaking %.2f s, whole render %.2f s",
			10_000, len(chunks), float64(res.DurationMS)/60000, directT.Seconds(), synth.Seconds(), full.Seconds())
	}
	b.ReportMetric(directT.Seconds(), "direct-s")
	b.ReportMetric(synth.Seconds(), "renderer-speak-s")
	b.ReportMetric(synth.Seconds()/directT.Seconds(), "synth-ratio")
	directCPU, synthCPU := directSelf+directKids, synthSelf+synthKids
	// The renderer's own work is what its process spends beyond what the
	// direct calls' process spends; espeak-ng's own CPU time varies by
	// several percent from run to run on a busy machine.
	own := (synthSelf - directSelf).Seconds() / directCPU.Seconds()
	b.ReportMetric(synthCPU.Seconds()/directCPU.Seconds(), "synth-cpu-ratio")
	b.ReportMetric(1+own, "own-cpu-ratio")
	b.ReportMetric(full.Seconds()/directT.Seconds(), "full-ratio")
	b.ReportMetric(cached.Seconds(), "cached-render-s")
	fmt.Printf("speech renderer: speaking overhead %.1f%% wall, %.1f%% CPU (the renderer's own CPU: %.1f%%) over direct espeak-ng (target ≤ 10%%); whole render with loudness and M4B %.2fx the direct calls\n",
		100*(synth.Seconds()/directT.Seconds()-1), 100*(synthCPU.Seconds()/directCPU.Seconds()-1), 100*own, full.Seconds()/directT.Seconds())
}

// cpuTime is the CPU time of this process and of its finished children.
func cpuTime() (self, children time.Duration) {
	var s, k syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &s)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &k)
	return time.Duration(s.Utime.Nano() + s.Stime.Nano()), time.Duration(k.Utime.Nano() + k.Stime.Nano())
}

package render

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/engines/speech"
	"github.com/lectern/lectern/shared/speech/ear"
)

// aliceSentences are the first n sentences of at least 4 words of the
// sample novel (LECTERN_SAMPLE_DATA).
func aliceSentences(tb testing.TB, n int) []string {
	tb.Helper()
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		dir = "../../../../shared/data"
	}
	raw, err := os.ReadFile(filepath.Join(dir, "books", "AlicesAdventuresInWonderland", "novel_text.txt"))
	if err != nil {
		tb.Fatalf("the sample novel (LECTERN_SAMPLE_DATA): %v", err)
	}
	text := string(raw)
	if i := strings.Index(text, "Alice was beginning"); i > 0 {
		text = text[i:]
	}
	var picked []string
	for _, s := range Sentences(text) {
		if len(strings.Fields(s)) >= 4 && len(s) < EspeakLimit {
			picked = append(picked, s)
		}
		if len(picked) == n {
			break
		}
	}
	return picked
}

// BenchmarkEar renders sentences of Alice to MP3 twice in each round,
// unchecked and checked by the ear (Whisper tiny.en, its model loaded
// before the timing, as on a warm server), each into an empty cache, the
// order alternating between rounds: with Piper, the default narrator (one
// call at a time, as the server runs it; 60 sentences), and with espeak-ng
// on every core (200 sentences). It prints the ear's cost as a share of
// the unchecked render's time (issue 32's target is ≤ 25%), wall and CPU
// (the CPU of this process, its children and both workers), and the
// model's load time.
func BenchmarkEar(b *testing.B) {
	for _, c := range []string{"espeak-ng", "ffmpeg"} {
		if _, err := exec.LookPath(c); err != nil {
			b.Fatalf("%s is not installed", c)
		}
	}
	ctx := context.Background()
	w := whisper(b)
	load := time.Now()
	if err := w.Available(ctx); err != nil {
		b.Fatal(err)
	}
	loadT := time.Since(load)
	b.Run("piper", func(b *testing.B) {
		python := os.Getenv("LECTERN_PIPER")
		if python == "" {
			python = speech.DefaultPiperPython()
		}
		piper := speech.NewPiper(python)
		// A shared machine's load can hold one sentence up past the
		// server's bound; the bench measures, it does not judge that.
		piper.Timeout = 10 * time.Minute
		defer piper.Close()
		if _, err := piper.Speak(ctx, speech.Request{Text: "Warming up."}); err != nil {
			b.Fatalf("Piper is not installed (make deps installs it): %v", err)
		}
		eng := Engine{Name: "piper", Voice: speech.PiperModel, Speaker: piper, Limit: PiperLimit, Concurrency: 1}
		benchEar(b, w, eng, aliceSentences(b, 60), loadT)
	})
	b.Run("espeak-ng", func(b *testing.B) {
		eng := Engine{Name: "espeak-ng", Voice: "en-us", Speaker: speech.Espeak{}, Limit: EspeakLimit, Concurrency: runtime.NumCPU()}
		benchEar(b, w, eng, aliceSentences(b, 200), loadT)
	})
}

func benchEar(b *testing.B, w *ear.Whisper, eng Engine, sentences []string, loadT time.Duration) {
	ctx := context.Background()
	text := strings.Join(sentences, "\n\n")
	var plain, checked, plainCPU, checkedCPU time.Duration
	var rep *EarReport
	round := 0
	for b.Loop() {
		run := func(check bool) {
			r := New(newBlobs(b), Options{Ear: w, Concurrency: runtime.NumCPU()})
			cpu0 := cpuNow()
			start := time.Now()
			res, err := r.Render(ctx, Request{Engine: eng, Chapters: []Chapter{{Title: "Alice", Text: text}}, Format: FormatMP3, Output: "o/", Check: check}, nil)
			if err != nil {
				b.Fatal(err)
			}
			wall := time.Since(start)
			cpu := cpuNow() - cpu0
			if check {
				checked, checkedCPU, rep = checked+wall, checkedCPU+cpu, res.Ear
			} else {
				plain, plainCPU = plain+wall, plainCPU+cpu
			}
		}
		if round%2 == 0 {
			run(false)
			run(true)
		} else {
			run(true)
			run(false)
		}
		round++
	}
	for _, m := range rep.Marked {
		b.Logf("marked: %q heard %q (%.2f)", m.Text, m.Heard, m.WER)
	}
	share := (checked - plain).Seconds() / plain.Seconds()
	cpuShare := (checkedCPU - plainCPU).Seconds() / plainCPU.Seconds()
	b.ReportMetric(share, "ear-wall-share")
	b.ReportMetric(cpuShare, "ear-cpu-share")
	b.ReportMetric(loadT.Seconds(), "ear-load-s")
	fmt.Printf("ear: %d chunks of Alice with %s, render %.2f s unchecked, %.2f s checked: the ear costs %.0f%% of the render's wall time, %.0f%% of its CPU (target ≤ 25%%); median WER %.3f, worst %.3f, %d retried, %d marked; model load %.1f s\n",
		rep.Checked, eng.Name, plain.Seconds()/float64(round), checked.Seconds()/float64(round), 100*share, 100*cpuShare, rep.Median, rep.Worst, rep.Retried, len(rep.Marked), loadT.Seconds())
}

// cpuNow is the CPU time of this process, its finished children and its
// running ones (the ear's and Piper's workers, which are not finished).
func cpuNow() time.Duration {
	self, children := cpuTime()
	total := self + children
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, t := range tasks {
		data, _ := os.ReadFile(t)
		for _, pid := range strings.Fields(string(data)) {
			if n, err := strconv.Atoi(pid); err == nil {
				total += procCPU(n)
			}
		}
	}
	return total
}

// procCPU is the CPU time of the running process pid, from /proc.
func procCPU(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command's closing parenthesis: utime and stime are
	// the 12th and 13th, in clock ticks (100 a second on Linux).
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

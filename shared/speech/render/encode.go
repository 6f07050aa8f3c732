package render

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Loudness normalisation is two-pass: ffmpeg's ebur128 filter measures the
// joined speech's EBU R128 integrated loudness and sample peak, then one
// gain (ffmpeg's volume filter, while encoding) brings it to TargetLUFS,
// the usual spoken-word target (podcasts, audiobooks), limited so the peak
// stays at or under PeakCeilingDBFS. One gain keeps the voice's own dynamics.
// Not ffmpeg's loudnorm: it resamples to 192 kHz and made a 51-minute
// render take 226 s to encode instead of about 25 s.
const (
	TargetLUFS      = -16.0
	PeakCeilingDBFS = -1.5
	// maxGainDB bounds the gain of near-silent audio, whose measured
	// loudness means little.
	maxGainDB = 30.0
)

// metadata is ffmpeg's FFMETADATA1 document: title, artist and one chapter
// a chapter of the text, timed in milliseconds.
func metadata(req Request, tm Timings) string {
	var b strings.Builder
	b.WriteString(";FFMETADATA1\n")
	if req.Title != "" {
		fmt.Fprintf(&b, "title=%s\nalbum=%s\n", escapeMeta(req.Title), escapeMeta(req.Title))
	}
	if req.Artist != "" {
		fmt.Fprintf(&b, "artist=%s\n", escapeMeta(req.Artist))
	}
	b.WriteString("genre=Audiobook\n")
	for i, c := range tm.Chapters {
		if c.EndMS <= c.StartMS {
			continue // a chapter with nothing to say
		}
		title := c.Title
		if strings.TrimSpace(title) == "" {
			title = fmt.Sprintf("Chapter %d", i+1)
		}
		fmt.Fprintf(&b, "\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=%d\nEND=%d\ntitle=%s\n", c.StartMS, c.EndMS, escapeMeta(title))
	}
	return b.String()
}

// escapeMeta escapes what FFMETADATA gives a meaning to.
func escapeMeta(s string) string {
	s = strings.Join(strings.Fields(s), " ") // no newlines
	r := strings.NewReplacer(`\`, `\\`, "=", `\=`, ";", `\;`, "#", `\#`)
	return r.Replace(s)
}

// encodeArgs are ffmpeg's arguments for format, with gainDB applied. The
// engine's sample rate is kept: resampling speech buys nothing.
func encodeArgs(format, wav, meta, out string, gainDB float64) []string {
	args := []string{"-nostdin", "-hide_banner", "-loglevel", "error", "-y",
		"-i", wav, "-f", "ffmetadata", "-i", meta,
		"-map", "0:a", "-map_metadata", "1", "-map_chapters", "1",
		"-af", fmt.Sprintf("volume=%.2fdB", gainDB)}
	if format == FormatM4B {
		// ipod is the MP4 muxer that audiobook players expect for .m4b;
		// faststart puts the index first so playback starts at once. The
		// fast AAC coder: the default (twoloop) took 7x as long on speech
		// (110 s of CPU for 51 minutes) for no audible gain at 64 kb/s.
		return append(args, "-c:a", "aac", "-aac_coder", "fast", "-b:a", "64k", "-movflags", "+faststart", "-f", "ipod", out)
	}
	// ID3v2.3 carries the chapters as CHAP frames.
	return append(args, "-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "3", "-f", "mp3", out)
}

// gain is the loudness correction for measured integrated loudness and
// sample peak (both from ebur128).
func gain(lufs, peakDBFS float64) float64 {
	g := TargetLUFS - lufs
	g = min(g, PeakCeilingDBFS-peakDBFS, maxGainDB)
	if math.IsNaN(g) || math.IsInf(g, 0) {
		return 0
	}
	return g
}

// measure runs ffmpeg's ebur128 over wav and reads its summary's
// integrated loudness (I: … LUFS) and sample peak (Peak: … dBFS).
func (r *Renderer) measure(ctx context.Context, wav string) (lufs, peak float64, err error) {
	// framelog=verbose keeps the per-frame lines out of the info log.
	cmd := exec.CommandContext(ctx, r.opts.FFmpeg, "-nostdin", "-hide_banner", "-nostats", "-i", wav,
		"-af", "ebur128=peak=sample:framelog=verbose", "-f", "null", "-")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		return 0, 0, fmt.Errorf("ffmpeg ebur128: %v: %s", err, lastLines(stderr.String(), 5))
	}
	return parseEBUR128(stderr.String())
}

// parseEBUR128 reads the last summary ebur128 logged.
func parseEBUR128(log string) (lufs, peak float64, err error) {
	i := strings.LastIndex(log, "Summary:")
	if i < 0 {
		return 0, 0, fmt.Errorf("ffmpeg ebur128 printed no summary: %s", lastLines(log, 5))
	}
	var haveI, haveP bool
	for _, line := range strings.Split(log[i:], "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		v, perr := strconv.ParseFloat(f[1], 64)
		switch {
		case perr != nil:
		case f[0] == "I:" && !haveI:
			lufs, haveI = v, true
		case f[0] == "Peak:" && !haveP:
			peak, haveP = v, true
		}
	}
	if !haveI || !haveP {
		return 0, 0, fmt.Errorf("ffmpeg ebur128 summary lacks loudness or peak: %s", lastLines(log[i:], 12))
	}
	return lufs, peak, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " / ")
}

// encode normalises the loudness of the WAV at wav and encodes it to out.
func (r *Renderer) encode(ctx context.Context, req Request, tm Timings, wav, out string) error {
	if _, err := exec.LookPath(r.opts.FFmpeg); err != nil {
		return ErrNoFFmpeg
	}
	lufs, peak, err := r.measure(ctx, wav)
	if err != nil {
		return err
	}
	meta := filepath.Join(filepath.Dir(out), "metadata.txt")
	if err := os.WriteFile(meta, []byte(metadata(req, tm)), 0o600); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, r.opts.FFmpeg, encodeArgs(req.Format, wav, meta, out, gain(lufs, peak))...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("ffmpeg: %v: %s", err, lastLines(stderr.String(), 5))
	}
	return nil
}

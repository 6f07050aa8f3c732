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

// Loudness: every output lands on TargetLUFS integrated loudness (EBU R128,
// within ±1 LU) with its true peak at or under TruePeakCeilingDBTP. One gain
// cannot do both for speech whose peaks stand far over its loudness (espeak-ng's
// by about 20 dB: the gain the target needs would clip), so a lookahead
// limiter (alimiter at LimitDBFS, its delay compensated so the timings hold)
// takes the peaks the gain pushes over; the dB between the limiter and the
// ceiling is room for inter-sample peaks and the codec. Passes, all with
// ffmpeg's ebur128: measure the joined WAV; if the limiter will act, measure
// gain+limiter on the WAV twice to aim the gain (aimLimited); encode, with
// what the codec takes given back (codecLossLU); measure the encoded file
// and, if it is still over half an LU off, encode once more with the gain
// corrected. It works on the joined file, so the chunk cache
// keeps the engine's own audio and the chunks a player streams while a render
// runs are unchanged. Not ffmpeg's loudnorm: its dynamic mode resamples to
// 192 kHz and made a 51-minute render take 226 s to encode instead of about 25 s.
const (
	TargetLUFS          = -16.0
	TruePeakCeilingDBTP = -1.0
	LimitDBFS           = -2.0
	// maxGainDB bounds the gain of near-silent audio, whose measured
	// loudness means little.
	maxGainDB = 30.0
	// retryLU is how far off the target an encoded file may land before it
	// is encoded again.
	retryLU = 0.5
)

// codecLossLU is the loudness an encoder takes from speech, given back in
// advance so most files need one encode: LAME at 64 kb/s took 0.5–0.9 LU
// from espeak-ng's speech (its high frequencies, which K-weighting counts
// most); the fast AAC coder about 0.1. The measure after encoding catches
// a voice it fits less.
var codecLossLU = map[string]float64{FormatMP3: 0.5}

// metadata is ffmpeg's FFMETADATA1 document: title, album, artist, track
// and one chapter a chapter of the text, timed in milliseconds.
func metadata(req Request, tm Timings) string {
	var b strings.Builder
	b.WriteString(";FFMETADATA1\n")
	album := req.Album
	if album == "" {
		album = req.Title
	}
	for _, tag := range [][2]string{{"title", req.Title}, {"album", album}, {"artist", req.Artist}} {
		if tag[1] != "" {
			fmt.Fprintf(&b, "%s=%s\n", tag[0], escapeMeta(tag[1]))
		}
	}
	if req.Track > 0 {
		// ID3v2 TRCK, MP4 trkn.
		fmt.Fprintf(&b, "track=%d/%d\n", req.Track, max(req.Track, req.Tracks))
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
		"-af", loudnessFilter(gainDB)}
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

// loudnessFilter is ffmpeg's filter chain that applies gainDB and limits
// the peaks to LimitDBFS (level=0: no automatic make-up gain; latency=1:
// no delay, so the timings hold).
func loudnessFilter(gainDB float64) string {
	return fmt.Sprintf("volume=%.2fdB,alimiter=limit=%.4f:level=0:latency=1", gainDB, math.Pow(10, LimitDBFS/20))
}

// gain is the gain that brings audio measured at lufs to TargetLUFS, after
// a gain of already, bounded by maxGainDB.
func gain(already, lufs float64) float64 {
	g := min(already+TargetLUFS-lufs, maxGainDB)
	if math.IsNaN(g) || math.IsInf(g, 0) {
		return 0
	}
	return g
}

// measure runs ffmpeg's ebur128 over file after the filters pre (none if
// empty) and reads its summary's integrated loudness (I: … LUFS) and
// sample peak (Peak: … dBFS).
func (r *Renderer) measure(ctx context.Context, file, pre string) (lufs, peak float64, err error) {
	// framelog=verbose keeps the per-frame lines out of the info log.
	af := "ebur128=peak=sample:framelog=verbose"
	if pre != "" {
		af = pre + "," + af
	}
	cmd := exec.CommandContext(ctx, r.opts.FFmpeg, "-nostdin", "-hide_banner", "-nostats", "-i", file, "-af", af, "-f", "null", "-")
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

// aimLimited answers the gain that, with the limiter, brings wav to
// TargetLUFS, starting from g0 (the gain without it).
func (r *Renderer) aimLimited(ctx context.Context, wav string, g0 float64) (float64, error) {
	l0, _, err := r.measure(ctx, wav, loudnessFilter(g0))
	if err != nil || math.Abs(l0-TargetLUFS) <= 0.1 {
		return g0, err
	}
	g1 := gain(g0, l0)
	l1, _, err := r.measure(ctx, wav, loudnessFilter(g1))
	if err != nil || math.Abs(l1-TargetLUFS) <= 0.1 || g1 == g0 {
		return g1, err
	}
	slope := min(max((l1-l0)/(g1-g0), 0.2), 1)
	return min(g1+(TargetLUFS-l1)/slope, maxGainDB), nil
}

// encode normalises the loudness of the WAV at wav and encodes it to out
// (see TargetLUFS for how).
func (r *Renderer) encode(ctx context.Context, req Request, tm Timings, wav, out string) error {
	if _, err := exec.LookPath(r.opts.FFmpeg); err != nil {
		return ErrNoFFmpeg
	}
	lufs, peak, err := r.measure(ctx, wav, "")
	if err != nil {
		return err
	}
	g := gain(0, lufs)
	if peak+g > LimitDBFS && g < maxGainDB {
		// More gain, more for the limiter to take (about half of each dB
		// added, on espeak-ng): two passes give the slope, which aims the
		// gain.
		g, err = r.aimLimited(ctx, wav, g)
		if err != nil {
			return err
		}
	}
	g = min(g+codecLossLU[req.Format], maxGainDB)
	meta := filepath.Join(filepath.Dir(out), "metadata.txt")
	if err := os.WriteFile(meta, []byte(metadata(req, tm)), 0o600); err != nil {
		return err
	}
	for try := 0; ; try++ {
		cmd := exec.CommandContext(ctx, r.opts.FFmpeg, encodeArgs(req.Format, wav, meta, out, g)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("ffmpeg: %v: %s", err, lastLines(stderr.String(), 5))
		}
		if try == 1 || g >= maxGainDB {
			return nil
		}
		got, _, err := r.measure(ctx, out, "")
		if err != nil {
			return err
		}
		if math.Abs(got-TargetLUFS) <= retryLU {
			return nil
		}
		g = gain(g, got)
	}
}

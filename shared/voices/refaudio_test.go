package voices

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// recording makes seconds of a tone in a format with ffmpeg, as a user's
// recorder would write it.
func recording(t *testing.T, seconds float64, ext string, codec ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Fatal("ffmpeg is not installed: run `make deps`")
	}
	out := filepath.Join(t.TempDir(), "r."+ext)
	args := append([]string{"-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=220:duration=" + trimFloat(seconds), "-ac", "1"}, codec...)
	if b, err := exec.Command("ffmpeg", append(args, out)...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func trimFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func TestProbeReferenceReadsFormatAndDurationOfEveryContainer(t *testing.T) {
	for _, c := range []struct {
		ext   string
		codec []string
		want  AudioFormat
	}{
		{"wav", []string{"-c:a", "pcm_s16le"}, FormatWAV},
		{"wav", []string{"-c:a", "pcm_s16le", "-ar", "44100", "-ac", "2"}, FormatWAV},
		{"mp3", []string{"-c:a", "libmp3lame", "-b:a", "64k"}, FormatMP3},
		{"mp3", []string{"-c:a", "libmp3lame", "-q:a", "4", "-ar", "22050"}, FormatMP3}, // VBR, MPEG 2
		{"m4a", []string{"-c:a", "aac", "-b:a", "64k"}, FormatM4A},
		{"ogg", []string{"-c:a", "libvorbis"}, FormatOGG},
		{"ogg", []string{"-c:a", "libopus"}, FormatOGG},
	} {
		data := recording(t, 7.5, c.ext, c.codec...)
		f, d, err := ProbeReference(data)
		if err != nil {
			t.Fatalf("%s %v: %v", c.ext, c.codec, err)
		}
		// Encoders pad a few frames (encoder delay); 0.15 s is far below what the 5-60 s
		// rule can notice.
		if f != c.want || math.Abs(d.Seconds()-7.5) > 0.15 {
			t.Errorf("%s %v: %s %.3f s, want %s 7.5 s", c.ext, c.codec, f, d.Seconds(), c.want)
		}
	}
}

func TestProbeReferenceRefusesWhatIsNotAudio(t *testing.T) {
	wav := recording(t, 6, "wav")
	for name, data := range map[string][]byte{
		"text":          []byte("this is not audio, it is a text file saved as voice.wav"),
		"pdf":           []byte("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"),
		"empty":         nil,
		"wav header":    wav[:20],
		"riff not wave": append([]byte("RIFF\x00\x00\x00\x00AVI "), wav[12:]...),
		"ogg header":    []byte("OggS\x00\x02garbage"),
		"m4a no moov":   []byte("\x00\x00\x00\x18ftypM4A \x00\x00\x02\x00isomiso2"),
		"mp3 no frames": append([]byte("ID3\x04\x00\x00\x00\x00\x00\x00"), make([]byte, 500)...),
	} {
		if _, _, err := ProbeReference(data); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}

func TestReferenceDurationMustBeFiveToSixtySeconds(t *testing.T) {
	for _, c := range []struct {
		seconds float64
		ok      bool
	}{{3, false}, {4.9, false}, {5, true}, {30, true}, {60, true}, {61, false}} {
		err := CheckReferenceDuration(time.Duration(c.seconds * float64(time.Second)))
		if (err == nil) != c.ok {
			t.Errorf("%.1f s: %v", c.seconds, err)
		}
	}
	short := recording(t, 3, "mp3", "-c:a", "libmp3lame")
	_, d, err := ProbeReference(short)
	if err != nil || CheckReferenceDuration(d) == nil {
		t.Errorf("a 3 s MP3 passes: %v %v", d, err)
	}
}

package speech

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// wavHeader is what the tests read from a canonical 44-byte WAV header.
type wavHeader struct {
	riffSize, dataSize   int
	channels, sampleRate int
	bitsPerSample        int
}

func readWAV(t *testing.T, wav []byte) wavHeader {
	t.Helper()
	if len(wav) < 44 || string(wav[0:4]) != "RIFF" || string(wav[8:12]) != "WAVE" || string(wav[12:16]) != "fmt " || string(wav[36:40]) != "data" {
		t.Fatalf("not a RIFF/WAVE file with fmt and data chunks: %q", wav[:min(len(wav), 44)])
	}
	le := binary.LittleEndian
	return wavHeader{
		riffSize:      int(le.Uint32(wav[4:8])),
		channels:      int(le.Uint16(wav[22:24])),
		sampleRate:    int(le.Uint32(wav[24:28])),
		bitsPerSample: int(le.Uint16(wav[34:36])),
		dataSize:      int(le.Uint32(wav[40:44])),
	}
}

func requireEspeak(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Fatal("espeak-ng is not installed: run `make deps` (apt-get install espeak-ng)")
	}
}

func TestEspeakWrites22050HzMonoWAV(t *testing.T) {
	requireEspeak(t)
	got, err := Espeak{}.Speak(context.Background(), Request{Text: "Lectern reads magazines aloud."})
	if err != nil {
		t.Fatal(err)
	}
	if got.ContentType != "audio/wav" {
		t.Fatalf("content type %q", got.ContentType)
	}
	h := readWAV(t, got.Data)
	if h.sampleRate != 22050 || h.channels != 1 || h.bitsPerSample != 16 {
		t.Fatalf("header %+v, want 22050 Hz 16-bit mono", h)
	}
	// The sizes espeak-ng leaves as placeholders on a pipe are corrected.
	if h.riffSize != len(got.Data)-8 || h.dataSize != len(got.Data)-44 {
		t.Fatalf("header sizes %+v for %d bytes", h, len(got.Data))
	}
	// Five words take well over a second: 22050 samples of 2 bytes.
	if h.dataSize < 22050*2 {
		t.Fatalf("only %d bytes of audio", h.dataSize)
	}
}

// TestEspeakSpeaksOptionLookingText feeds texts that espeak-ng would obey
// as options on its command line. Each must come back as speech of about
// its length: --version would print text instead of WAV, -q would be
// silent, -w would write a file.
func TestEspeakSpeaksOptionLookingText(t *testing.T) {
	requireEspeak(t)
	dir := t.TempDir()
	written := filepath.Join(dir, "written.wav")
	for _, tc := range []struct{ name, text string }{
		{"version", "--version"},
		{"quiet", "-q"},
		{"write a file", "-w " + written},
		{"list voices", "--voices"},
		{"quotes and a shell substitution", `-v fr "double" and 'single' quotes; $(touch ` + written + `)`},
		{"options on later lines", "first line\n-w " + written + "\n--help"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text
			got, err := Espeak{}.Speak(context.Background(), Request{Text: text})
			if err != nil {
				t.Fatal(err)
			}
			// espeak-ng spells options out ("minus minus version"): at least
			// half a second of audio.
			if h := readWAV(t, got.Data); h.dataSize < 22050 {
				t.Fatalf("only %d bytes of audio for %q", h.dataSize, text)
			}
			if _, err := os.Stat(written); !os.IsNotExist(err) {
				t.Fatalf("the text was obeyed: %s exists", written)
			}
		})
	}
}

// fakeEspeak is a stand-in command that records its arguments and standard
// input in dir and answers a minimal WAV, or runs body instead when given.
func fakeEspeak(t *testing.T, body string) (command, dir string) {
	t.Helper()
	dir = t.TempDir()
	if body == "" {
		body = `printf '%s\n' "$@" > "` + dir + `/args"
cat > "` + dir + `/stdin"
printf 'RIFF\044\000\000\000WAVEfmt \020\000\000\000\001\000\001\000\042\126\000\000\104\254\000\000\002\000\020\000data\377\377\377\177\001\000\002\000'`
	}
	command = filepath.Join(dir, "espeak-ng")
	if err := os.WriteFile(command, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return command, dir
}

func TestEspeakPassesTextOnStdinAndSettingsAsArguments(t *testing.T) {
	command, dir := fakeEspeak(t, "")
	text := "-s 999\n\"quoted\" text"
	got, err := Espeak{Command: command}.Speak(context.Background(), Request{Text: text, Voice: "fr-fr", Speed: 2})
	if err != nil {
		t.Fatal(err)
	}
	args, _ := os.ReadFile(filepath.Join(dir, "args"))
	stdin, _ := os.ReadFile(filepath.Join(dir, "stdin"))
	wantArgs := "-v\nfr-fr\n-s\n350\n-b\n1\n--stdout\n--stdin\n"
	if string(args) != wantArgs {
		t.Fatalf("arguments %q, want %q", args, wantArgs)
	}
	if string(stdin) != text {
		t.Fatalf("standard input %q, want the text %q", stdin, text)
	}
	if h := readWAV(t, got.Data); h.dataSize != 4 || h.riffSize != 40 {
		t.Fatalf("placeholder sizes not corrected: %+v", h)
	}
}

func TestEspeakRefusals(t *testing.T) {
	command, _ := fakeEspeak(t, "")
	for _, tc := range []struct {
		name   string
		engine Espeak
		req    Request
		want   error
	}{
		{"missing command", Espeak{Command: "no-such-espeak-ng"}, Request{Text: "hi"}, ErrNotInstalled},
		{"mp3", Espeak{Command: command}, Request{Text: "hi", Format: FormatMP3}, ErrInvalid},
		{"option as voice", Espeak{Command: command}, Request{Text: "hi", Voice: "-w/tmp/x"}, ErrInvalid},
		{"voice outside the voices directory", Espeak{Command: command}, Request{Text: "hi", Voice: "en/../../etc/passwd"}, ErrInvalid},
		{"voice with a space", Espeak{Command: command}, Request{Text: "hi", Voice: "en us"}, ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.engine.Speak(context.Background(), tc.req); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestEspeakUnknownVoiceIsInvalid(t *testing.T) {
	requireEspeak(t)
	_, err := Espeak{}.Speak(context.Background(), Request{Text: "hi", Voice: "xx-nonesuch"})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "xx-nonesuch") {
		t.Fatalf("got %v", err)
	}
}

func TestEspeakOutputThatIsNotWAVIsAnError(t *testing.T) {
	command, _ := fakeEspeak(t, "echo 'eSpeak NG text-to-speech: 1.51'")
	if _, err := (Espeak{Command: command}).Speak(context.Background(), Request{Text: "hi"}); err == nil || !strings.Contains(err.Error(), "not a WAV") {
		t.Fatalf("got %v", err)
	}
}

func TestEspeakTimesOut(t *testing.T) {
	command, _ := fakeEspeak(t, "exec sleep 30")
	start := time.Now()
	_, err := Espeak{Command: command, Timeout: 200 * time.Millisecond}.Speak(context.Background(), Request{Text: "hi"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("timeout not applied")
	}
}

func TestVoicesListsInstalledLanguages(t *testing.T) {
	requireEspeak(t)
	voices, err := Espeak{}.Voices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"en-us", "fr-fr", DefaultEspeakVoice} {
		if !slices.Contains(voices, want) {
			t.Errorf("voices lack %q: %v", want, voices)
		}
	}
	if !slices.IsSorted(voices) {
		t.Error("voices are not sorted")
	}
}

func TestParseVoices(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      []string
		wantErr   bool
	}{
		{
			name: "espeak-ng 1.51",
			out: "Pty Language       Age/Gender VoiceName          File                 Other Languages\n" +
				" 5  af              --/M      Afrikaans          gmw/af               \n" +
				" 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)\n" +
				" 5  fr-fr           --/M      French_(France)    roa/fr               (fr 5)\n" +
				" 3  en-uk           --/M      english-mb-en1     mb/mb-en1            (en-gb 3)(en 2)\n" +
				" 5  af              --/M      Afrikaans          gmw/af               \n" +
				"\n",
			want: []string{"af", "en-uk", "en-us", "fr-fr"},
		},
		{name: "header only", out: "Pty Language Age/Gender VoiceName File Other Languages\n", want: nil},
		{name: "not a voice list", out: "espeak-ng: unknown option\n", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseVoices([]byte(tc.out))
			if (err != nil) != tc.wantErr || !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, %v", got, err)
			}
		})
	}
}

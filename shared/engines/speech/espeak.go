package speech

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultEspeakVoice is espeak-ng's voice when a Request names none.
const DefaultEspeakVoice = "en-us"

// espeakWordsPerMinute is espeak-ng's normal rate, which Request.Speed
// multiplies. espeak-ng clamps the result to what it can do (about 80..450).
const espeakWordsPerMinute = 175

// ErrNotInstalled means the espeak-ng command is missing.
var ErrNotInstalled = errors.New("espeak-ng is not installed (apt-get install espeak-ng)")

// isEspeakVoice reports whether v looks like a voice name: a language
// ("en-us"), optionally with a variant ("en-us+f3"), or a path in the
// voices directory ("mb/mb-en1"). It must start with a letter or digit, so
// that it is never read as an option, and may not climb out of the voices
// directory.
func isEspeakVoice(v string) bool {
	if v == "" || len(v) > 64 || strings.Contains(v, "..") || !isAlnum(v[0]) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isAlnum(c) && !strings.ContainsRune("_.+/-", rune(c)) {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// Espeak is the built-in engine: espeak-ng writing WAV (22050 Hz, 16-bit
// mono) to its standard output. It only produces FormatWAV.
type Espeak struct {
	// Command is the executable; empty means "espeak-ng" on PATH.
	Command string
	// Timeout bounds one run; 0 means DefaultTimeout.
	Timeout time.Duration
}

var _ Synthesizer = Espeak{}

// Speak runs espeak-ng on req.Text in req.Voice (DefaultEspeakVoice when
// empty). The text goes in on standard input, never on the command line,
// where a text such as "-w /etc/passwd" would be read as an option.
func (e Espeak) Speak(ctx context.Context, req Request) (Audio, error) {
	if err := req.Validate(); err != nil {
		return Audio{}, err
	}
	if req.OutputFormat() != FormatWAV {
		return Audio{}, fmt.Errorf("%w: espeak-ng only produces wav, not %s", ErrInvalid, req.Format)
	}
	spec, err := ParseEspeakSpec(req.Voice)
	if err != nil {
		return Audio{}, err
	}
	voice := spec.Voice
	rate := 1.0
	if spec.Rate != 0 {
		rate = float64(spec.Rate) / 100
	}
	wpm := int(math.Round(espeakWordsPerMinute * req.speed() * rate))
	// -b 1: the text is UTF-8. --stdin: read all of standard input at once
	// rather than line by line, so newlines do not split the speech.
	args := []string{"-v", voice, "-s", strconv.Itoa(wpm), "-b", "1", "--stdout", "--stdin"}
	if spec.Pitch >= 0 {
		args = append(args, "-p", strconv.Itoa(spec.Pitch))
	}
	stdout, stderr, err := e.run(ctx, strings.NewReader(req.Text), args...)
	if err != nil {
		if strings.Contains(stderr, "voice does not exist") {
			return Audio{}, fmt.Errorf("%w: espeak-ng has no voice %q", ErrInvalid, voice)
		}
		return Audio{}, err
	}
	wav, err := fixWAVSizes(stdout)
	if err != nil {
		return Audio{}, fmt.Errorf("espeak-ng: %w: %s", err, stderr)
	}
	return Audio{Data: wav, ContentType: "audio/wav"}, nil
}

// Voices lists the voices espeak-ng has, as the language names Speak takes
// ("en-us", "fr-fr"), sorted.
func (e Espeak) Voices(ctx context.Context) ([]string, error) {
	stdout, _, err := e.run(ctx, nil, "--voices")
	if err != nil {
		return nil, err
	}
	return parseVoices(stdout)
}

// EspeakVoice is one row of `espeak-ng --voices`.
type EspeakVoice struct {
	Language string // the name Speak takes: "en-us"
	Gender   string // "M", "F" or "" when espeak-ng gives none
	Name     string // "English (America)", underscores as spaces
	File     string // "gmw/en-US"
}

// VoiceTable lists espeak-ng's voices with what it says of each, in its
// own order.
func (e Espeak) VoiceTable(ctx context.Context) ([]EspeakVoice, error) {
	stdout, _, err := e.run(ctx, nil, "--voices")
	if err != nil {
		return nil, err
	}
	return parseVoiceTable(stdout)
}

// Variants lists the variants espeak-ng has (f2, grandma, Alex: what
// follows "+" in a voice name), from `espeak-ng --voices=variant`.
func (e Espeak) Variants(ctx context.Context) ([]string, error) {
	stdout, _, err := e.run(ctx, nil, "--voices=variant")
	if err != nil {
		return nil, err
	}
	table, err := parseVoiceTable(stdout)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, v := range table {
		if name, ok := strings.CutPrefix(v.File, "!v/"); ok {
			names = append(names, name)
		}
	}
	return names, nil
}

// run starts the command with args, bounded by the timeout, and returns its
// standard output and trimmed standard error.
func (e Espeak) run(ctx context.Context, stdin *strings.Reader, args ...string) ([]byte, string, error) {
	command := e.Command
	if command == "" {
		command = "espeak-ng"
	}
	if _, err := exec.LookPath(command); err != nil {
		return nil, "", ErrNotInstalled
	}
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, command, args...)
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// A wrapper script's children can hold the pipes open after the kill;
	// stop waiting for them soon after.
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if ctx.Err() != nil {
			return nil, msg, fmt.Errorf("espeak-ng: %w", ctx.Err())
		}
		return nil, msg, fmt.Errorf("espeak-ng: %v: %s", err, msg)
	}
	return stdout.Bytes(), strings.TrimSpace(stderr.String()), nil
}

// parseVoiceTable reads `espeak-ng --voices`: a header line, then one voice
// a line (" 2  en-us  --/M  English_(America)  gmw/en-US  (en 3)").
func parseVoiceTable(out []byte) ([]EspeakVoice, error) {
	var voices []EspeakVoice
	sc := bufio.NewScanner(bytes.NewReader(out))
	header := true
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if header {
			header = false
			if len(f) < 2 || f[0] != "Pty" || f[1] != "Language" {
				return nil, fmt.Errorf("espeak-ng: --voices output has no header: %.60q", sc.Text())
			}
			continue
		}
		if len(f) < 2 {
			continue
		}
		if _, err := strconv.Atoi(f[0]); err != nil {
			continue // not a voice row
		}
		v := EspeakVoice{Language: f[1]}
		if len(f) > 2 {
			if _, g, ok := strings.Cut(f[2], "/"); ok && (g == "M" || g == "F") {
				v.Gender = g
			}
		}
		if len(f) > 3 {
			v.Name = strings.ReplaceAll(f[3], "_", " ")
		}
		if len(f) > 4 {
			v.File = f[4]
		}
		voices = append(voices, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("espeak-ng: read --voices: %w", err)
	}
	return voices, nil
}

// parseVoices is parseVoiceTable's language names, sorted and unique.
func parseVoices(out []byte) ([]string, error) {
	table, err := parseVoiceTable(out)
	if err != nil {
		return nil, err
	}
	var voices []string
	for _, v := range table {
		voices = append(voices, v.Language)
	}
	slices.Sort(voices)
	return slices.Compact(voices), nil
}

// fixWAVSizes checks that wav is a RIFF/WAVE file with a data chunk and
// sets the RIFF and data sizes to the real ones. Writing to a pipe,
// espeak-ng cannot seek back to fill them in and leaves placeholders of
// about 2 GiB, which make players report a wrong duration.
func fixWAVSizes(wav []byte) ([]byte, error) {
	if len(wav) < 12 || string(wav[0:4]) != "RIFF" || string(wav[8:12]) != "WAVE" {
		return nil, errors.New("output is not a WAV file")
	}
	le := binary.LittleEndian
	for off := 12; off+8 <= len(wav); {
		id, size := string(wav[off:off+4]), int(le.Uint32(wav[off+4:off+8]))
		if id == "data" {
			n := len(wav) - (off + 8)
			if n == 0 {
				return nil, errors.New("WAV output has no audio")
			}
			if size == 0 || size > n {
				le.PutUint32(wav[off+4:off+8], uint32(n))
			}
			le.PutUint32(wav[4:8], uint32(len(wav)-8))
			return wav, nil
		}
		off += 8 + size + size%2 // chunks are padded to even sizes
	}
	return nil, errors.New("WAV output has no data chunk")
}

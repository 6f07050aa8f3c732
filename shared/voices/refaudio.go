package voices

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// Reference recordings a clone is made from: 5-60 s of WAV, MP3, M4A or
// OGG. The format is read from the bytes, never from the file name, and the
// duration from the container, so a file that is not what it says is
// refused before any engine sees it.
const (
	MinReferenceDuration = 5 * time.Second
	MaxReferenceDuration = 60 * time.Second
)

// AudioFormat is a reference recording's container.
type AudioFormat string

// The formats a reference may have.
const (
	FormatWAV AudioFormat = "wav"
	FormatMP3 AudioFormat = "mp3"
	FormatM4A AudioFormat = "m4a"
	FormatOGG AudioFormat = "ogg"
)

// AudioFormats lists every format a reference may have.
var AudioFormats = []AudioFormat{FormatWAV, FormatMP3, FormatM4A, FormatOGG}

// ContentType is the format's media type.
func (f AudioFormat) ContentType() string {
	return map[AudioFormat]string{FormatWAV: "audio/wav", FormatMP3: "audio/mpeg", FormatM4A: "audio/mp4", FormatOGG: "audio/ogg"}[f]
}

var errUnreadable = errors.New("unreadable")

// ProbeReference reads a recording's format and duration.
func ProbeReference(data []byte) (AudioFormat, time.Duration, error) {
	var (
		f   AudioFormat
		d   time.Duration
		err error
	)
	switch {
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WAVE":
		f = FormatWAV
		d, err = wavDuration(data)
	case len(data) >= 12 && string(data[4:8]) == "ftyp":
		f = FormatM4A
		d, err = mp4Duration(data)
	case len(data) >= 4 && string(data[:4]) == "OggS":
		f = FormatOGG
		d, err = oggDuration(data)
	case len(data) >= 3 && (string(data[:3]) == "ID3" || (data[0] == 0xFF && data[1]&0xE0 == 0xE0)):
		f = FormatMP3
		d, err = mp3Duration(data)
	default:
		return "", 0, fmt.Errorf("%w: the recording is not WAV, MP3, M4A or OGG audio", ErrInvalid)
	}
	if err != nil || d <= 0 {
		return f, 0, fmt.Errorf("%w: the %s recording's duration cannot be read (a damaged or truncated file?)", ErrInvalid, f)
	}
	return f, d, nil
}

// CheckReferenceDuration refuses a recording too short to clone from or
// longer than the engines take.
func CheckReferenceDuration(d time.Duration) error {
	if d < MinReferenceDuration || d > MaxReferenceDuration {
		return fmt.Errorf("%w: the recording lasts %.1f s; a clone needs %d-%d s of speech", ErrInvalid, d.Seconds(), int(MinReferenceDuration.Seconds()), int(MaxReferenceDuration.Seconds()))
	}
	return nil
}

// wavDuration is the data chunk's size over the fmt chunk's byte rate.
func wavDuration(b []byte) (time.Duration, error) {
	le := binary.LittleEndian
	var byteRate uint32
	for off := 12; off+8 <= len(b); {
		id, size := string(b[off:off+4]), int(le.Uint32(b[off+4:off+8]))
		body := off + 8
		switch id {
		case "fmt ":
			if body+12 > len(b) {
				return 0, errUnreadable
			}
			byteRate = le.Uint32(b[body+8 : body+12])
		case "data":
			if byteRate == 0 {
				return 0, errUnreadable
			}
			// A streamed WAV leaves the size as a placeholder; the bytes
			// present are what plays.
			n := min(size, len(b)-body)
			return time.Duration(float64(n) / float64(byteRate) * float64(time.Second)), nil
		}
		if size < 0 || body+size < body {
			return 0, errUnreadable
		}
		off = body + size + size%2
	}
	return 0, errUnreadable
}

// mp4Duration reads moov/mvhd's duration over its timescale.
func mp4Duration(b []byte) (time.Duration, error) {
	moov, ok := mp4Box(b, "moov")
	if !ok {
		return 0, errUnreadable
	}
	mvhd, ok := mp4Box(moov, "mvhd")
	if !ok || len(mvhd) < 20 {
		return 0, errUnreadable
	}
	be := binary.BigEndian
	var scale uint32
	var dur uint64
	if mvhd[0] == 1 { // version 1: 64-bit times
		if len(mvhd) < 32 {
			return 0, errUnreadable
		}
		scale, dur = be.Uint32(mvhd[20:24]), be.Uint64(mvhd[24:32])
	} else {
		scale, dur = be.Uint32(mvhd[12:16]), uint64(be.Uint32(mvhd[16:20]))
	}
	if scale == 0 {
		return 0, errUnreadable
	}
	return time.Duration(float64(dur) / float64(scale) * float64(time.Second)), nil
}

// mp4Box finds a box among b's top-level boxes and answers its body.
func mp4Box(b []byte, name string) ([]byte, bool) {
	be := binary.BigEndian
	for off := 0; off+8 <= len(b); {
		size, header := uint64(be.Uint32(b[off:off+4])), uint64(8)
		switch size {
		case 0:
			size = uint64(len(b) - off)
		case 1:
			if off+16 > len(b) {
				return nil, false
			}
			size, header = be.Uint64(b[off+8:off+16]), 16
		}
		if size < header || size > uint64(len(b)-off) {
			return nil, false
		}
		if string(b[off+4:off+8]) == name {
			return b[off+int(header) : off+int(size)], true
		}
		off += int(size)
	}
	return nil, false
}

// oggDuration is the last page's granule position over the stream's rate
// (Vorbis: its own; Opus: always 48 kHz, less the pre-skip).
func oggDuration(b []byte) (time.Duration, error) {
	le := binary.LittleEndian
	if len(b) < 28 {
		return 0, errUnreadable
	}
	segments := int(b[26])
	first := 27 + segments
	if first+19 > len(b) {
		return 0, errUnreadable
	}
	packet := b[first:]
	var rate, skip uint64
	switch {
	case bytes.HasPrefix(packet, []byte("\x01vorbis")) && len(packet) >= 16:
		rate = uint64(le.Uint32(packet[12:16]))
	case bytes.HasPrefix(packet, []byte("OpusHead")):
		rate, skip = 48000, uint64(le.Uint16(packet[10:12]))
	default:
		return 0, errUnreadable
	}
	last := bytes.LastIndex(b, []byte("OggS"))
	if rate == 0 || last < 0 || last+14 > len(b) {
		return 0, errUnreadable
	}
	granule := le.Uint64(b[last+6 : last+14])
	if granule == ^uint64(0) || granule <= skip {
		return 0, errUnreadable
	}
	return time.Duration(float64(granule-skip) / float64(rate) * float64(time.Second)), nil
}

// mp3Duration adds up the MPEG audio frames after any ID3v2 tag.
func mp3Duration(b []byte) (time.Duration, error) {
	off := 0
	if len(b) >= 10 && string(b[:3]) == "ID3" {
		size := int(b[6]&0x7f)<<21 | int(b[7]&0x7f)<<14 | int(b[8]&0x7f)<<7 | int(b[9]&0x7f)
		off = 10 + size
	}
	var seconds float64
	frames, skipped := 0, 0
	for off+4 <= len(b) {
		n, samples, rate := mp3Frame(b[off : off+4])
		if n == 0 {
			// Junk between frames (a trailing tag, padding): step over it,
			// but a file that is mostly junk is no MP3.
			off++
			if skipped++; skipped > 64<<10 {
				break
			}
			continue
		}
		// The first frame of a VBR file is a Xing or Info header: no audio.
		frame := b[off:min(off+n, len(b))]
		if frames > 0 || !bytes.Contains(frame, []byte("Xing")) && !bytes.Contains(frame, []byte("Info")) {
			seconds += float64(samples) / float64(rate)
		}
		frames++
		off += n
	}
	if frames < 2 {
		return 0, errUnreadable
	}
	return time.Duration(seconds * float64(time.Second)), nil
}

// mp3Frame reads one MPEG audio frame header: its length in bytes, the
// samples it holds and its sample rate; n is 0 when h is not a header.
func mp3Frame(h []byte) (n, samples, rate int) {
	if h[0] != 0xFF || h[1]&0xE0 != 0xE0 {
		return 0, 0, 0
	}
	version := (h[1] >> 3) & 3 // 0: MPEG 2.5, 2: MPEG 2, 3: MPEG 1
	layer := (h[1] >> 1) & 3   // 1: III, 2: II, 3: I
	bitrateIndex, rateIndex := h[2]>>4, (h[2]>>2)&3
	padding := int(h[2]>>1) & 1
	if version == 1 || layer == 0 || bitrateIndex == 0 || bitrateIndex == 15 || rateIndex == 3 {
		return 0, 0, 0
	}
	rates := [4][3]int{{11025, 12000, 8000}, {}, {22050, 24000, 16000}, {44100, 48000, 32000}}
	rate = rates[version][rateIndex]
	mpeg1 := version == 3
	var kbps int
	switch {
	case mpeg1 && layer == 3: // Layer I
		kbps = []int{0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448}[bitrateIndex]
	case mpeg1 && layer == 2: // Layer II
		kbps = []int{0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384}[bitrateIndex]
	case mpeg1: // Layer III
		kbps = []int{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320}[bitrateIndex]
	case layer == 3:
		kbps = []int{0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256}[bitrateIndex]
	default:
		kbps = []int{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160}[bitrateIndex]
	}
	switch {
	case layer == 3:
		return (12*kbps*1000/rate + padding) * 4, 384, rate
	case layer == 2 || mpeg1:
		return 144*kbps*1000/rate + padding, 1152, rate
	default: // Layer III of MPEG 2 and 2.5
		return 72*kbps*1000/rate + padding, 576, rate
	}
}

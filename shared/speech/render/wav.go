package render

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
)

// pcmFormat is what a WAV file's fmt chunk says of its samples.
type pcmFormat struct {
	Channels   int
	SampleRate int
	Bits       int
}

func (f pcmFormat) bytesPerSecond() int { return f.SampleRate * f.Channels * f.Bits / 8 }

// duration is how long n bytes of f's samples play.
func (f pcmFormat) duration(n int) time.Duration {
	return time.Duration(int64(n) * int64(time.Second) / int64(f.bytesPerSecond()))
}

// parseWAV finds the format and the samples of a PCM WAV file. A data size
// of 0 or one past the end (engines that stream WAV cannot know it) means
// "to the end of the file".
func parseWAV(wav []byte) (pcmFormat, []byte, error) {
	if len(wav) < 12 || string(wav[0:4]) != "RIFF" || string(wav[8:12]) != "WAVE" {
		return pcmFormat{}, nil, errors.New("audio is not a WAV file")
	}
	le := binary.LittleEndian
	var f pcmFormat
	for off := 12; off+8 <= len(wav); {
		id, size := string(wav[off:off+4]), int(le.Uint32(wav[off+4:off+8]))
		body := wav[off+8:]
		switch id {
		case "fmt ":
			if len(body) < 16 {
				return pcmFormat{}, nil, errors.New("WAV fmt chunk is short")
			}
			tag := le.Uint16(body[0:2])
			f = pcmFormat{Channels: int(le.Uint16(body[2:4])), SampleRate: int(le.Uint32(body[4:8])), Bits: int(le.Uint16(body[14:16]))}
			// 0xFFFE is WAVE_FORMAT_EXTENSIBLE, which engines use for plain PCM too.
			if (tag != 1 && tag != 0xFFFE) || f.Channels < 1 || f.SampleRate < 1 || f.Bits%8 != 0 || f.Bits == 0 {
				return pcmFormat{}, nil, fmt.Errorf("WAV is not integer PCM (format %d, %d bits)", tag, f.Bits)
			}
		case "data":
			if f.SampleRate == 0 {
				return pcmFormat{}, nil, errors.New("WAV data before its fmt chunk")
			}
			if size == 0 || size > len(body) {
				size = len(body)
			}
			frame := f.Channels * f.Bits / 8
			return f, body[:size-size%frame], nil
		}
		off += 8 + size + size%2
	}
	return pcmFormat{}, nil, errors.New("WAV has no data chunk")
}

// wavHeaderSize is the size of writeWAVHeader's header.
const wavHeaderSize = 44

// canonicalWAV is f's samples pcm behind a header with their exact sizes,
// which is how chunks are cached: an engine may leave sizes out.
func canonicalWAV(f pcmFormat, pcm []byte) []byte {
	var b bytes.Buffer
	b.Grow(wavHeaderSize + len(pcm))
	_ = writeWAVHeader(&b, f, int64(len(pcm)))
	b.Write(pcm)
	return b.Bytes()
}

// parseCachedWAV is parseWAV of a cached chunk, whose sizes must be exact:
// one a crash cut short (or left empty) is refused.
func parseCachedWAV(wav []byte) (pcmFormat, []byte, error) {
	f, pcm, err := parseWAV(wav)
	if err != nil {
		return pcmFormat{}, nil, err
	}
	le := binary.LittleEndian
	if len(wav) != wavHeaderSize+len(pcm) || int(le.Uint32(wav[4:8])) != len(wav)-8 || int(le.Uint32(wav[40:44])) != len(pcm) {
		return pcmFormat{}, nil, fmt.Errorf("WAV of %d bytes says it has %d", len(wav), int(le.Uint32(wav[4:8]))+8)
	}
	return f, pcm, nil
}

// writeWAVHeader writes a 44-byte header for n bytes of f's samples.
func writeWAVHeader(w io.Writer, f pcmFormat, n int64) error {
	le := binary.LittleEndian
	h := make([]byte, wavHeaderSize)
	copy(h[0:], "RIFF")
	le.PutUint32(h[4:], uint32(36+n))
	copy(h[8:], "WAVEfmt ")
	le.PutUint32(h[16:], 16)
	le.PutUint16(h[20:], 1)
	le.PutUint16(h[22:], uint16(f.Channels))
	le.PutUint32(h[24:], uint32(f.SampleRate))
	le.PutUint32(h[28:], uint32(f.bytesPerSecond()))
	le.PutUint16(h[32:], uint16(f.Channels*f.Bits/8))
	le.PutUint16(h[34:], uint16(f.Bits))
	copy(h[36:], "data")
	le.PutUint32(h[40:], uint32(n))
	_, err := w.Write(h)
	return err
}

// convertPCM turns samples of format from into format to: channels mixed
// down (or copied up), the rate changed by linear interpolation, the bits
// widened or narrowed. It is how voices of engines that speak at other
// rates (espeak-ng's 22,050 Hz, an OpenAI-compatible card's 24,000 Hz)
// share one render.
func convertPCM(pcm []byte, from, to pcmFormat) []byte {
	inFrame := from.Channels * from.Bits / 8
	n := len(pcm) / inFrame
	// One value per frame and output channel, in -1..1.
	frames := make([][]float64, n)
	for i := range n {
		in := make([]float64, from.Channels)
		for ch := range in {
			in[ch] = decodeSample(pcm[i*inFrame+ch*from.Bits/8:], from.Bits)
		}
		out := make([]float64, to.Channels)
		if from.Channels == to.Channels {
			copy(out, in)
		} else {
			var sum float64
			for _, v := range in {
				sum += v
			}
			for ch := range out {
				out[ch] = sum / float64(len(in))
			}
		}
		frames[i] = out
	}
	m := int(int64(n) * int64(to.SampleRate) / int64(from.SampleRate))
	outFrame := to.Channels * to.Bits / 8
	res := make([]byte, m*outFrame)
	for j := range m {
		pos := float64(j) * float64(from.SampleRate) / float64(to.SampleRate)
		i := int(pos)
		frac := pos - float64(i)
		for ch := range to.Channels {
			v := frames[i][ch]
			if i+1 < n {
				v += (frames[i+1][ch] - v) * frac
			}
			encodeSample(res[j*outFrame+ch*to.Bits/8:], to.Bits, v)
		}
	}
	return res
}

// decodeSample reads one little-endian PCM sample (8-bit unsigned, wider
// signed) as -1..1.
func decodeSample(b []byte, bits int) float64 {
	if bits == 8 {
		return (float64(b[0]) - 128) / 128
	}
	var v int64
	for k := bits/8 - 1; k >= 0; k-- {
		v = v<<8 | int64(b[k])
	}
	shift := 64 - bits
	v = v << shift >> shift // sign-extend
	return float64(v) / float64(int64(1)<<(bits-1))
}

// encodeSample writes v (-1..1, clipped) as one little-endian PCM sample.
func encodeSample(b []byte, bits int, v float64) {
	v = max(-1, min(1, v))
	if bits == 8 {
		b[0] = byte(int(v*127) + 128)
		return
	}
	full := float64(int64(1)<<(bits-1) - 1)
	s := int64(v * full)
	for k := range bits / 8 {
		b[k] = byte(s >> (8 * k))
	}
}

package pdf

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"

	"github.com/klauspost/compress/zlib"
)

// EncodePNG encodes a render, a thumbnail or a crop as a PNG. Renders are
// stored once and read many times, but encoding was half of ingest's CPU:
// image/png tries every row filter on every row and deflates with the
// standard library. An opaque *image.RGBA (every render and anything cut
// from one) is written here instead as 8-bit RGB, every row with the Up
// filter (on pages, as small as image/png's per-row choice within a few per
// cent) and deflated at klauspost/compress's fastest level: about a
// quarter of image/png's time at BestSpeed (BenchmarkEncodePNG). Other
// images go to image/png.
func EncodePNG(img image.Image) ([]byte, error) {
	if rgba, ok := img.(*image.RGBA); ok && rgba.Opaque() {
		return encodeOpaqueRGBA(rgba)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pngUp is the Up filter's type byte: each byte less the one above it.
const pngUp = 2

func encodeOpaqueRGBA(img *image.RGBA) ([]byte, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 || int64(w)*3+1 > 1<<31-1 {
		return nil, png.FormatError("invalid image size: " + b.String())
	}
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits per sample, truecolour; deflate, adaptive filtering, no interlace: zeros
	writeChunk(&out, "IHDR", ihdr[:])

	// The deflated rows go out as IDAT chunks of up to 64 KiB as they are
	// made, rather than through a second buffer the size of the image.
	idat := bufio.NewWriterSize(idatWriter{&out}, 64<<10)
	zw, err := zlib.NewWriterLevel(idat, zlib.BestSpeed)
	if err != nil {
		return nil, err
	}
	row := make([]byte, 1+3*w) // filter byte, then the filtered row
	row[0] = pngUp
	above := make([]byte, 4*w) // the row above as RGBA: zeros above the first
	for y := b.Min.Y; y < b.Max.Y; y++ {
		start := img.PixOffset(b.Min.X, y)
		here := img.Pix[start : start+4*w : start+4*w]
		out := row[1:]
		// RGB less the RGB above, in one pass over both rows.
		for x, i := 0, 0; x+3 < len(here) && i+2 < len(out); x, i = x+4, i+3 {
			p, q := here[x:x+3:x+3], above[x:x+3:x+3]
			out[i], out[i+1], out[i+2] = p[0]-q[0], p[1]-q[1], p[2]-q[2]
		}
		if _, err := zw.Write(row); err != nil {
			return nil, err
		}
		above = here
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if err := idat.Flush(); err != nil {
		return nil, err
	}
	writeChunk(&out, "IEND", nil)
	return out.Bytes(), nil
}

// idatWriter writes each write as one IDAT chunk.
type idatWriter struct{ out *bytes.Buffer }

func (w idatWriter) Write(p []byte) (int, error) {
	writeChunk(w.out, "IDAT", p)
	return len(p), nil
}

// writeChunk appends one PNG chunk: length, type, data and the CRC of type
// and data.
func writeChunk(out *bytes.Buffer, typ string, data []byte) {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], typ)
	out.Write(head[:])
	out.Write(data)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	binary.BigEndian.PutUint32(head[:4], crc.Sum32())
	out.Write(head[:4])
}

// Package pdftest writes small, exact PDFs for tests: text in the standard
// Helvetica fonts at known positions and sizes (also set the ways
// typesetters do: justified word by word, without space glyphs, with a drop
// cap), filled boxes, embedded pictures, and the hostile shapes the ingest
// pipeline must refuse or survive (broken pages, decompression bombs,
// encryption markers).
package pdftest

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// Doc is a PDF under construction. Coordinates given to its pages are in
// points from the page's top-left corner, like magazine.BBox.
type Doc struct {
	pages []*Page
	// Encrypted adds an /Encrypt dictionary to the trailer, as a
	// password-protected file has.
	Encrypted bool
	// WrongXRef writes the cross-reference table with every offset off by
	// a few bytes and a wrong entry count: readers must repair it.
	WrongXRef bool
	// BrokenMetadata adds a catalog /Metadata stream, written last, whose
	// /Length runs past the end of the file; nothing draws it.
	BrokenMetadata bool
	// NoTrailerRoot leaves /Root out of the trailer: readers find the
	// catalog by scanning the objects.
	NoTrailerRoot bool
	// Uncompressed writes drawing instructions without a filter.
	Uncompressed bool
	// MetadataBomb, when > 0, gives the catalog an XMP /Metadata stream of
	// that many bytes of spaces after its packet, compressed twice.
	MetadataBomb int64
}

// Page is one page's content.
type Page struct {
	W, H        float64
	content     strings.Builder
	images      []xobject
	transparent bool
	// BrokenContent makes the page's content stream undecodable (a
	// FlateDecode filter over bytes that are not zlib data).
	BrokenContent bool
	// SplitContents stores the drawing instructions as two streams listed in
	// an array that /Contents names by reference (valid, and common in files
	// edited after they were written).
	SplitContents bool
	// FlateBomb, when > 0, appends that many bytes of spaces to the
	// drawing instructions and compresses the stream twice (/Filter
	// [/FlateDecode /FlateDecode]): a gigabyte of it is a few kilobytes.
	FlateBomb int64
}

type xobject struct {
	w, h   int
	data   []byte // zlib-compressed RGB samples
	filter string
}

// AddPage appends a page of w×h points.
func (d *Doc) AddPage(w, h float64) *Page {
	p := &Page{W: w, H: h}
	d.pages = append(d.pages, p)
	return p
}

// Text writes one line with its top-left corner at (x, top).
func (p *Page) Text(x, top, size float64, bold bool, s string) *Page {
	font := "F1"
	if bold {
		font = "F2"
	}
	baseline := p.H - top - size*0.8
	fmt.Fprintf(&p.content, "BT /%s %.2f Tf %.2f %.2f Td (%s) Tj ET\n", font, size, x, baseline, escape(s))
	return p
}

// Italic writes one line in Helvetica-Oblique.
func (p *Page) Italic(x, top, size float64, s string) *Page {
	baseline := p.H - top - size*0.8
	fmt.Fprintf(&p.content, "BT /F3 %.2f Tf %.2f %.2f Td (%s) Tj ET\n", size, x, baseline, escape(s))
	return p
}

// helveticaWidths are Helvetica's advance widths (thousandths of the font
// size) of the printable ASCII characters, from its AFM file, so a line can
// be laid out word by word at exact positions.
var helveticaWidths = [95]int{
	278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space … /
	556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 … ?
	1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ … O
	667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P … _
	333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` … o
	556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p … ~
}

// TextWidth is how wide s is set in Helvetica at size points.
func TextWidth(size float64, s string) float64 {
	w := 0
	for _, r := range s {
		if r >= ' ' && r <= '~' {
			w += helveticaWidths[r-' ']
		} else {
			w += 556
		}
	}
	return float64(w) * size / 1000
}

// Justified sets the words of s on one line from x to x+width, as a
// justified column does: the space left over is shared out equally between
// the words, and each word is placed on its own (a Td move) with no space
// glyph between them.
func (p *Page) Justified(x, top, width, size float64, s string) *Page {
	words := strings.Fields(s)
	gap := 0.0
	if len(words) > 1 {
		gap = (width - TextWidth(size, strings.Join(words, ""))) / float64(len(words)-1)
	}
	baseline := p.H - top - size*0.8
	fmt.Fprintf(&p.content, "BT /F1 %.2f Tf %.2f %.2f Td", size, x, baseline)
	for i, w := range words {
		if i > 0 {
			fmt.Fprintf(&p.content, " %.3f 0 Td", TextWidth(size, words[i-1])+gap)
		}
		fmt.Fprintf(&p.content, " (%s) Tj", escape(w))
	}
	p.content.WriteString(" ET\n")
	return p
}

// Kerned writes one line with no space glyphs, as TeX and many typesetters
// do: the words are moved apart by gapEms font sizes with TJ kerning.
func (p *Page) Kerned(x, top, size, gapEms float64, s string) *Page {
	baseline := p.H - top - size*0.8
	var tj []string
	for _, w := range strings.Fields(s) {
		tj = append(tj, "("+escape(w)+")")
	}
	fmt.Fprintf(&p.content, "BT /F1 %.2f Tf %.2f %.2f Td [%s] TJ ET\n", size, x, baseline, strings.Join(tj, fmt.Sprintf(" %.0f ", -gapEms*1000)))
	return p
}

// Glyphwise writes one line with no space glyphs and every glyph placed by
// its own Td move, as some PDF writers do; words are gapEms font sizes
// apart.
func (p *Page) Glyphwise(x, top, size, gapEms float64, s string) *Page {
	baseline := p.H - top - size*0.8
	fmt.Fprintf(&p.content, "BT /F1 %.2f Tf %.2f %.2f Td", size, x, baseline)
	prev := 0.0 // the advance from the last glyph placed
	for i, w := range strings.Fields(s) {
		if i > 0 {
			prev += gapEms * size
		}
		for _, r := range w {
			fmt.Fprintf(&p.content, " %.3f 0 Td (%s) Tj", prev, escape(string(r)))
			prev = TextWidth(size, string(r))
		}
	}
	p.content.WriteString(" ET\n")
	return p
}

// DropCap draws letter as a drop cap: a capital as tall as lines lines of
// body text at size points and leading apart, the first of them set from
// top, as Text sets it; its cap height spans from the first line's capitals
// to the last line's baseline. It returns the width the letter takes.
func (p *Page) DropCap(x, top, size, leading float64, lines int, letter string) float64 {
	const capHeight = 0.718 // Helvetica's, in font sizes
	capTop := top + size*0.8 - capHeight*size
	baseline := top + size*0.8 + float64(lines-1)*leading
	big := (baseline - capTop) / capHeight
	fmt.Fprintf(&p.content, "BT /F1 %.2f Tf %.2f %.2f Td (%s) Tj ET\n", big, x, p.H-baseline, escape(letter))
	return TextWidth(big, letter)
}

// Chinese writes one line in a CJK font the file names but does not embed
// (SimSun with the GBK-EUC-H CMap and no /ToUnicode), as many Chinese
// office PDFs do: a reader must decode the two-byte codes through the CMap.
func (p *Page) Chinese(x, top, size float64, s string) *Page {
	gbk, err := simplifiedchinese.GBK.NewEncoder().String(s)
	if err != nil {
		panic(fmt.Sprintf("pdftest: %q has no GBK encoding: %v", s, err))
	}
	baseline := p.H - top - size*0.88
	fmt.Fprintf(&p.content, "BT /F4 %.2f Tf %.2f %.2f Td <%X> Tj ET\n", size, x, baseline, gbk)
	return p
}

// Rect fills a box with a grey level (0 black … 1 white).
func (p *Page) Rect(x, top, w, h, grey float64) *Page {
	fmt.Fprintf(&p.content, "%.3f g %.2f %.2f %.2f %.2f re f\n", grey, x, p.H-top-h, w, h)
	return p
}

// Image draws img scaled into the box.
func (p *Page) Image(x, top, w, h float64, img image.Image) *Page {
	b := img.Bounds()
	raw := make([]byte, 0, b.Dx()*b.Dy()*3)
	// RGBA and Gray (what renders decode as) are read from their pixel
	// rows: a call per pixel made big pictures slow under -race.
	switch src := img.(type) {
	case *image.RGBA:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			row := src.Pix[src.PixOffset(b.Min.X, y):][:4*b.Dx()]
			for x := 0; x < len(row); x += 4 {
				raw = append(raw, row[x], row[x+1], row[x+2])
			}
		}
	case *image.Gray:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for _, v := range src.Pix[src.PixOffset(b.Min.X, y):][:b.Dx()] {
				raw = append(raw, v, v, v)
			}
		}
	default:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				raw = append(raw, byte(r>>8), byte(g>>8), byte(bl>>8))
			}
		}
	}
	p.addImage(x, top, w, h, xobject{w: b.Dx(), h: b.Dy(), data: deflate(raw), filter: "/FlateDecode"})
	return p
}

// SizelessPicture draws an image XObject that declares no /Width or
// /Height, as some broken writers emit.
func (p *Page) SizelessPicture(x, top, w, h float64) *Page {
	p.addImage(x, top, w, h, xobject{data: deflate([]byte{0, 0, 0}), filter: "/FlateDecode"})
	return p
}

// Raw appends drawing instructions as they are.
func (p *Page) Raw(ops string) *Page {
	p.content.WriteString(ops)
	return p
}

// Transparent gives the page a half-transparent graphics state /GS1, for
// drawing that costs MuPDF real work per shape.
func (p *Page) Transparent() *Page {
	p.transparent = true
	return p
}

// Bomb draws an image that declares side×side pixels but whose compressed
// stream is tiny: decoding it would take side*side*3 bytes of memory.
func (p *Page) Bomb(side int) *Page {
	// The compressed data holds only one row; the declared size is the lie.
	p.addImage(0, 0, p.W, p.H, xobject{w: side, h: side, data: deflate(make([]byte, side*3)), filter: "/FlateDecode"})
	return p
}

// InlineBomb draws an inline image (BI … ID … EI, inside the drawing
// instructions rather than an image XObject) that declares side×side RGB
// pixels while its compressed samples hold one row: decoding it whole would
// take side*side*3 bytes of memory.
func (p *Page) InlineBomb(side int) *Page {
	data := deflate(make([]byte, side*3))
	fmt.Fprintf(&p.content, "q %.2f 0 0 %.2f 0 0 cm\nBI /W %d /H %d /CS /RGB /BPC 8 /F /Fl /L %d ID\n%s\nEI Q\n", p.W, p.H, side, side, len(data), data)
	return p
}

func (p *Page) addImage(x, top, w, h float64, xo xobject) {
	name := fmt.Sprintf("Im%d", len(p.images)+1)
	p.images = append(p.images, xo)
	fmt.Fprintf(&p.content, "q %.2f 0 0 %.2f %.2f %.2f cm /%s Do Q\n", w, h, x, p.H-top-h, name)
}

// Bytes writes the document with a correct cross-reference table.
func (d *Doc) Bytes() []byte {
	var objs []string // objs[i] is object i+1
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	reserve := func() int { objs = append(objs, ""); return len(objs) }

	catalog := reserve()
	pagesObj := reserve()
	f1 := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	f2 := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	f3 := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Oblique /Encoding /WinAnsiEncoding >>")
	cjkDesc := add("<< /Type /FontDescriptor /FontName /SimSun /Flags 6 /FontBBox [0 -141 1000 859] /ItalicAngle 0 /Ascent 859 /Descent -141 /CapHeight 859 /StemV 80 >>")
	cjkCID := add(fmt.Sprintf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /SimSun /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor %d 0 R /DW 1000 >>", cjkDesc))
	f4 := add(fmt.Sprintf("<< /Type /Font /Subtype /Type0 /BaseFont /SimSun-GBK-EUC-H /Encoding /GBK-EUC-H /DescendantFonts [%d 0 R] >>", cjkCID))
	var kids []string
	for _, p := range d.pages {
		var xobjs []string
		for i, im := range p.images {
			size := fmt.Sprintf("/Width %d /Height %d ", im.w, im.h)
			if im.w == 0 && im.h == 0 {
				size = ""
			}
			n := add(stream(fmt.Sprintf("/Type /XObject /Subtype /Image %s/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter %s", size, im.filter), im.data))
			xobjs = append(xobjs, fmt.Sprintf("/Im%d %d 0 R", i+1, n))
		}
		var contents int
		if p.BrokenContent {
			contents = add(stream("/Filter /FlateDecode", []byte("this is not zlib data at all, only garbage \x00\x01\x02")))
		} else if p.SplitContents {
			ops := p.content.String()
			cut := strings.LastIndex(ops[:len(ops)/2+1], "\n") + 1 // split between two lines
			a := add(stream("/Filter /FlateDecode", deflate([]byte(ops[:cut]))))
			b := add(stream("/Filter /FlateDecode", deflate([]byte(ops[cut:]))))
			contents = add(fmt.Sprintf("[%d 0 R %d 0 R]", a, b))
		} else if p.FlateBomb > 0 {
			contents = add(stream("/Filter [/FlateDecode /FlateDecode]", deflate(spaced(p.content.String(), p.FlateBomb))))
		} else if d.Uncompressed {
			contents = add(stream("", []byte(p.content.String())))
		} else {
			// Content is compressed, as real files have it, so the decode
			// limit is what stops an oversized page.
			contents = add(stream("/Filter /FlateDecode", deflate([]byte(p.content.String()))))
		}
		extra := ""
		if p.transparent {
			extra = "/ExtGState << /GS1 << /Type /ExtGState /ca 0.5 /CA 0.5 /BM /Multiply >> >>"
		}
		page := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /Font << /F1 %d 0 R /F2 %d 0 R /F3 %d 0 R /F4 %d 0 R >> /XObject << %s >> %s >> /Contents %d 0 R >>",
			pagesObj, p.W, p.H, f1, f2, f3, f4, strings.Join(xobjs, " "), extra, contents))
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesObj)
	objs[pagesObj-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	encrypt := 0
	if d.Encrypted {
		// A standard security handler dictionary (RC4, 40-bit) with a user
		// password set: readers must refuse to open the file without it.
		encrypt = add("<< /Filter /Standard /V 1 /R 2 /O <" + strings.Repeat("a1", 32) + "> /U <" + strings.Repeat("b2", 32) + "> /P -44 >>")
	}

	metadata := 0
	if d.BrokenMetadata {
		metadata = add("<< /Type /Metadata /Subtype /XML /Length 100000 >>\nstream\n<x:xmpmeta/>\nendstream")
		objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R /Metadata %d 0 R >>", pagesObj, metadata)
	}

	if d.MetadataBomb > 0 {
		metadata = add(stream("/Type /Metadata /Subtype /XML /Filter [/FlateDecode /FlateDecode]", deflate(spaced("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>", d.MetadataBomb))))
		objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R /Metadata %d 0 R >>", pagesObj, metadata)
	}

	var buf bytes.Buffer
	buf.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = buf.Len()
		fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := buf.Len()
	fmt.Fprintf(&buf, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	shift, size := 0, len(objs)+1
	if d.WrongXRef {
		shift, size = 7, len(objs)+5
	}
	for _, off := range offsets {
		fmt.Fprintf(&buf, "%010d 00000 n \n", off+shift)
	}
	trailer := fmt.Sprintf("/Size %d /Root %d 0 R", size, catalog)
	if d.NoTrailerRoot {
		trailer = fmt.Sprintf("/Size %d", size)
	}
	if encrypt != 0 {
		trailer += fmt.Sprintf(" /Encrypt %d 0 R /ID [<%s> <%s>]", encrypt, strings.Repeat("0f", 16), strings.Repeat("0f", 16))
	}
	fmt.Fprintf(&buf, "trailer\n<< %s >>\nstartxref\n%d\n%%%%EOF\n", trailer, xref)
	return buf.Bytes()
}

func stream(dict string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

// spaced is ops followed by n spaces, zlib-compressed as it is written
// (the spaces are never held in memory; the fastest level compresses a
// gigabyte in a second, and compressing it again makes it a few KB).
func spaced(ops string, n int64) []byte {
	var out bytes.Buffer
	w, _ := zlib.NewWriterLevel(&out, zlib.BestSpeed)
	w.Write([]byte(ops))
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for ; n > 0; n -= int64(len(chunk)) {
		w.Write(chunk[:min(n, int64(len(chunk)))])
	}
	w.Close()
	return out.Bytes()
}

func deflate(b []byte) []byte {
	var out bytes.Buffer
	w, _ := zlib.NewWriterLevel(&out, zlib.BestCompression)
	w.Write(b)
	w.Close()
	return out.Bytes()
}

func escape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return r.Replace(s)
}

// ObjStmBomb is a two-page PDF (cross-reference stream, PDF 1.5) whose
// first page takes its resources from an object stream (/ObjStm) that
// decodes to padding bytes of spaces after its one object, compressed
// twice: a gigabyte of it is a few kilobytes. Page 2 is ordinary text.
func ObjStmBomb(padding int64) []byte {
	const head = "7 0 "
	obj := "<< /Font << /F1 9 0 R >> >>"
	objstm := deflate(spaced(head+obj, padding))
	text := deflate([]byte("BT /F1 24 Tf 72 700 Td (An Ordinary Page) Tj ET\n"))
	objs := map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R >>",
		2: "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
		3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 7 0 R /Contents 5 0 R >>",
		4: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 9 0 R >> >> /Contents 8 0 R >>",
		5: stream("/Filter /FlateDecode", text),
		6: stream(fmt.Sprintf("/Type /ObjStm /N 1 /First %d /Filter [/FlateDecode /FlateDecode]", len(head)), objstm),
		8: stream("/Filter /FlateDecode", text),
		9: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	}
	var buf bytes.Buffer
	buf.WriteString("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
	offsets := map[int]int{}
	for n := 1; n <= 9; n++ {
		if o, ok := objs[n]; ok {
			offsets[n] = buf.Len()
			fmt.Fprintf(&buf, "%d 0 obj\n%s\nendobj\n", n, o)
		}
	}
	// Entries of 1+4+2 bytes: type, offset (or object stream), generation
	// (or index in the object stream).
	const size = 11
	offsets[10] = buf.Len()
	var xref bytes.Buffer
	for n := range size {
		switch {
		case n == 0:
			xref.Write([]byte{0, 0, 0, 0, 0, 0xff, 0xff})
		case n == 7:
			xref.Write([]byte{2, 0, 0, 0, 6, 0, 0})
		default:
			o := offsets[n]
			xref.Write([]byte{1, byte(o >> 24), byte(o >> 16), byte(o >> 8), byte(o), 0, 0})
		}
	}
	fmt.Fprintf(&buf, "10 0 obj\n%s\nendobj\n", stream(fmt.Sprintf("/Type /XRef /Size %d /W [1 4 2] /Root 1 0 R", size), xref.Bytes()))
	fmt.Fprintf(&buf, "startxref\n%d\n%%%%EOF\n", offsets[10])
	return buf.Bytes()
}

// Encrypt encrypts a PDF with pdfcpu: RC4 (40 or 128 bits) or AES (128 or
// 256), with owner password "owner" and the given user password ("" opens
// it without one, as files that only restrict copying or printing do).
func Encrypt(plain []byte, aes bool, bits int, userPW string) ([]byte, error) {
	conf := model.NewRC4Configuration(userPW, "owner", bits)
	if aes {
		conf = model.NewAESConfiguration(userPW, "owner", bits)
	}
	var out bytes.Buffer
	if err := api.Encrypt(bytes.NewReader(plain), &out, conf); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// DamageStartXRef points a PDF's startxref nowhere, so readers rebuild
// its cross-reference table by scanning the objects.
func DamageStartXRef(b []byte) []byte {
	at := bytes.LastIndex(b, []byte("startxref"))
	if at < 0 {
		return b
	}
	end := at + bytes.Index(b[at:], []byte("%%EOF"))
	return slices.Concat(b[:at], []byte("startxref\n999999\n"), b[end:])
}

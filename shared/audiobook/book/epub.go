package book

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"
	"strings"
)

// Limits of an EPUB import. Each entry was capped, but not the whole: a
// 158 KB EPUB whose spine listed one large document eight times unpacked
// and parsed it eight times (10.7 GiB, 500 MB of text). A real novel sits far
// inside these (War and Peace: about 6 MB of XHTML, 3.2 MB of text, in
// many documents: converters split at about 260 KB, as older readers need).
const (
	// MaxEntryBytes bounds one document of the archive unpacked. A document
	// is parsed whole, and a parse costs up to 35 times its bytes (a 16 MiB
	// document of tiny elements took 550 MiB): 4 MiB keeps it near 140 MiB.
	MaxEntryBytes = 4 << 20
	// MaxUnpackedBytes bounds everything read from the archive together,
	// judged from the zip directory before anything is unpacked (Go's
	// reader refuses an entry that unpacks past its declared size).
	MaxUnpackedBytes = 32 << 20
	// MaxTextBytes bounds the book's text.
	MaxTextBytes = 8 << 20
	// MaxSpineItems bounds the documents the spine lists.
	MaxSpineItems = 4096
)

// ParseEPUB reads an EPUB (2 or 3): the spine's documents in order as plain
// text (see the package comment), chapter titles from the EPUB 3 nav
// document or the EPUB 2 toc.ncx. A chapter starts where its table of
// contents entry points (a document, or an anchor inside one); a document
// with no entry continues the chapter before it, unless the book has no
// table at all: then each document with a heading (h1–h3) starts a chapter
// named by it. Documents with no text
// (covers) and the nav document are skipped, and so are short untitled
// documents before the first chapter (title page, copyright) and Project
// Gutenberg's header and licence.
func ParseEPUB(data []byte) (Book, error) {
	a, err := openEPUB(data)
	if err != nil {
		return Book{}, err
	}
	opf, items, read := a.opf, a.items, a.read
	toc, navPath := tableOfContents(opf, items, read)
	b := Book{Title: first(opf.Metadata.Titles), Author: strings.Join(opf.Metadata.Creators, ", ")}
	var sb strings.Builder
	for _, ref := range opf.Spine.Items {
		it, ok := items[ref.IDRef]
		if !ok || ref.Linear == "no" || it.Href == navPath || !strings.Contains(it.MediaType, "html") {
			continue
		}
		raw, err := read(it.Href)
		if err != nil {
			return Book{}, err
		}
		doc := xhtmlText(raw)
		entries := toc[it.Href]
		if strings.TrimSpace(doc.text) == "" || (len(entries) == 0 && len(b.Chapters) == 0 && nonSpace(doc.text) < 200) {
			continue
		}
		if sb.Len()+len(doc.text) > MaxTextBytes {
			return Book{}, fmt.Errorf("epub: the text runs past %d bytes: %w", MaxTextBytes, ErrTooLarge)
		}
		if sb.Len() > 0 {
			sb.WriteString("\n\n")
		}
		base := sb.Len()
		sb.WriteString(doc.text)
		starts := chapterStarts(entries, doc, base)
		if len(starts) == 0 && (len(b.Chapters) == 0 || (len(toc) == 0 && doc.heading != "")) {
			starts = []Chapter{{Title: orDefault(doc.heading, "Opening"), Start: base}}
		}
		b.Chapters = append(b.Chapters, starts...)
	}
	b.Text = sb.String()
	if len(b.Chapters) == 0 {
		return Book{}, fmt.Errorf("epub: the spine holds no text: %w", ErrInvalid)
	}
	for i := range b.Chapters {
		b.Chapters[i].Index = i
		b.Chapters[i].End = len(b.Text)
		if i+1 < len(b.Chapters) {
			b.Chapters[i].End = b.Chapters[i+1].Start
		}
	}
	return b, nil
}

// CheckEPUB judges an EPUB from its zip directory, container and package
// document alone, without unpacking a spine document: what an upload can
// be refused for at once (not a zip, no spine, a spine too long, listing a
// document twice or unpacking past the budget). A file that passes may
// still be refused by ParseEPUB (its text past MaxTextBytes).
func CheckEPUB(data []byte) error {
	_, err := openEPUB(data)
	return err
}

// epubArchive is an EPUB opened and checked: its package document and the
// reader of its entries, which takes from one unpacking budget.
type epubArchive struct {
	opf   opfPackage
	items map[string]opfItem
	read  func(name string) ([]byte, error)
}

func openEPUB(data []byte) (epubArchive, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return epubArchive{}, fmt.Errorf("epub: not a zip archive (%v): %w", err, ErrInvalid)
	}
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	// budget is what may still be unpacked; every read takes from it.
	budget := int64(MaxUnpackedBytes)
	read := func(name string) ([]byte, error) {
		f := files[name]
		if f == nil {
			return nil, fmt.Errorf("epub: %s is missing: %w", name, ErrInvalid)
		}
		if f.UncompressedSize64 > MaxEntryBytes {
			return nil, fmt.Errorf("epub: %s unpacks to %d bytes, at most %d: %w", name, f.UncompressedSize64, MaxEntryBytes, ErrTooLarge)
		}
		if f.UncompressedSize64 > uint64(budget) {
			return nil, fmt.Errorf("epub: the archive unpacks to more than %d bytes: %w", MaxUnpackedBytes, ErrTooLarge)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("epub: open %s: %v: %w", name, err, ErrInvalid)
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, min(budget, MaxEntryBytes)+1))
		budget -= int64(len(b))
		if err != nil || budget < 0 || len(b) > MaxEntryBytes {
			return nil, fmt.Errorf("epub: read %s: too large or broken: %w", name, ErrInvalid)
		}
		return b, nil
	}

	raw, err := read("META-INF/container.xml")
	if err != nil {
		return epubArchive{}, err
	}
	var container struct {
		Rootfiles []struct {
			Path string `xml:"full-path,attr"`
		} `xml:"rootfiles>rootfile"`
	}
	if err := unmarshal(raw, &container); err != nil || len(container.Rootfiles) == 0 || container.Rootfiles[0].Path == "" {
		return epubArchive{}, fmt.Errorf("epub: container.xml names no package document: %w", ErrInvalid)
	}
	opfPath := container.Rootfiles[0].Path
	if raw, err = read(opfPath); err != nil {
		return epubArchive{}, err
	}
	var opf opfPackage
	if err := unmarshal(raw, &opf); err != nil {
		return epubArchive{}, fmt.Errorf("epub: package document %s: %v: %w", opfPath, err, ErrInvalid)
	}
	if len(opf.Spine.Items) == 0 {
		return epubArchive{}, fmt.Errorf("epub: package document %s has no spine: %w", opfPath, ErrInvalid)
	}
	items := map[string]opfItem{}
	for _, it := range opf.Manifest {
		it.Href = resolve(opfPath, it.Href)
		items[it.ID] = it
	}
	if err := checkSpine(opf, items, files, budget); err != nil {
		return epubArchive{}, err
	}
	return epubArchive{opf: opf, items: items, read: read}, nil
}

// checkSpine refuses, from the package document and the zip directory
// alone, a spine that would unpack or read too much: too many documents,
// a document listed twice (EPUB forbids it: epubcheck's OPF-034 and
// OPF-074), or documents that unpack past what is left of the budget.
func checkSpine(opf opfPackage, items map[string]opfItem, files map[string]*zip.File, budget int64) error {
	if n := len(opf.Spine.Items); n > MaxSpineItems {
		return fmt.Errorf("epub: the spine lists %d documents, at most %d: %w", n, MaxSpineItems, ErrTooLarge)
	}
	seen := map[string]int{}
	var total uint64
	for i, ref := range opf.Spine.Items {
		it, ok := items[ref.IDRef]
		if !ok {
			continue
		}
		if at, twice := seen[it.Href]; twice {
			return fmt.Errorf("epub: the spine lists %s twice (items %d and %d): %w", it.Href, at+1, i+1, ErrInvalid)
		}
		seen[it.Href] = i
		if f := files[it.Href]; f != nil {
			total += f.UncompressedSize64
		}
	}
	if total > uint64(budget) {
		return fmt.Errorf("epub: the spine's documents unpack to %d bytes, at most %d: %w", total, budget, ErrTooLarge)
	}
	return nil
}

type opfItem struct {
	ID         string `xml:"id,attr"`
	Href       string `xml:"href,attr"`
	MediaType  string `xml:"media-type,attr"`
	Properties string `xml:"properties,attr"`
}

type opfPackage struct {
	Metadata struct {
		Titles   []string `xml:"title"`
		Creators []string `xml:"creator"`
	} `xml:"metadata"`
	Manifest []opfItem `xml:"manifest>item"`
	Spine    struct {
		Toc   string `xml:"toc,attr"`
		Items []struct {
			IDRef  string `xml:"idref,attr"`
			Linear string `xml:"linear,attr"`
		} `xml:"itemref"`
	} `xml:"spine"`
}

// tocEntry is one table of contents entry inside a document.
type tocEntry struct {
	fragment, label string
}

// tableOfContents reads the nav document (EPUB 3) or the NCX (EPUB 2) into
// entries per document path, in order, and says which document is the nav
// document (it is not read as text). A broken or missing table gives no
// entries: every document then continues the first chapter.
func tableOfContents(opf opfPackage, items map[string]opfItem, read func(string) ([]byte, error)) (map[string][]tocEntry, string) {
	toc := map[string][]tocEntry{}
	add := func(from, href, label string) {
		label = collapse(label)
		if href == "" || label == "" {
			return
		}
		target, frag, _ := strings.Cut(href, "#")
		target = resolve(from, target)
		toc[target] = append(toc[target], tocEntry{fragment: frag, label: label})
	}
	for _, it := range opf.Manifest {
		if !hasWord(it.Properties, "nav") {
			continue
		}
		it = items[it.ID]
		if raw, err := read(it.Href); err == nil {
			for _, l := range navLinks(raw) {
				add(it.Href, l.href, l.label)
			}
		}
		if len(toc) > 0 {
			return toc, it.Href
		}
	}
	ncxItem, ok := items[opf.Spine.Toc]
	if !ok {
		for _, it := range items {
			if it.MediaType == "application/x-dtbncx+xml" {
				ncxItem, ok = it, true
			}
		}
	}
	if !ok {
		return toc, ""
	}
	raw, err := read(ncxItem.Href)
	if err != nil {
		return toc, ""
	}
	var ncx struct {
		Points []ncxPoint `xml:"navMap>navPoint"`
	}
	if unmarshal(raw, &ncx) != nil {
		return toc, ""
	}
	var walk func([]ncxPoint)
	walk = func(ps []ncxPoint) {
		for _, p := range ps {
			add(ncxItem.Href, p.Content.Src, p.Label)
			walk(p.Children)
		}
	}
	walk(ncx.Points)
	return toc, ""
}

type ncxPoint struct {
	Label   string `xml:"navLabel>text"`
	Content struct {
		Src string `xml:"src,attr"`
	} `xml:"content"`
	Children []ncxPoint `xml:"navPoint"`
}

// chapterStarts places a document's table of contents entries: at the
// anchor they name, or at the document's start. Two entries at one place
// keep the first (a part and its first chapter).
func chapterStarts(entries []tocEntry, doc xhtmlDoc, base int) []Chapter {
	var out []Chapter
	seen := map[int]bool{}
	for _, e := range entries {
		at, ok := 0, e.fragment == ""
		if !ok {
			at, ok = doc.ids[e.fragment]
		}
		if !ok || seen[at] {
			continue
		}
		seen[at] = true
		out = append(out, Chapter{Title: e.label, Start: base + at})
	}
	// Text before the first anchor belongs to the chapter before.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

func unmarshal(raw []byte, v any) error {
	// The package, container and NCX are XML: no HTML auto-closing, which
	// would end EPUB 3's <meta property="...">value</meta> at its start.
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		if strings.EqualFold(label, "utf-8") || strings.EqualFold(label, "utf8") {
			return in, nil
		}
		return nil, errors.New("unsupported charset " + label)
	}
	return d.Decode(v)
}

// resolve turns an href found in document from into a path in the zip.
func resolve(from, href string) string {
	if u, err := url.PathUnescape(href); err == nil {
		href = u
	}
	if href == "" {
		return from
	}
	return path.Join(path.Dir(from), href)
}

func hasWord(list, w string) bool {
	for _, f := range strings.Fields(list) {
		if f == w {
			return true
		}
	}
	return false
}

func first(ss []string) string {
	for _, s := range ss {
		if s = collapse(s); s != "" {
			return s
		}
	}
	return ""
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

package book

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"unicode"
)

// xhtmlDoc is one EPUB document as plain text: paragraphs joined by
// "\n\n", a <br> as "\n", runs of white space as one space (kept in
// <pre>); ids maps each element id to the text offset where it begins.
type xhtmlDoc struct {
	text    string
	ids     map[string]int
	heading string // the first h1–h3, for a document the contents miss
}

// blocks end a paragraph where they open and close.
var blocks = map[string]bool{
	"p": true, "div": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"li": true, "ul": true, "ol": true, "blockquote": true, "section": true, "article": true,
	"header": true, "footer": true, "aside": true, "nav": true, "pre": true, "table": true,
	"tr": true, "dd": true, "dt": true, "dl": true, "figure": true, "figcaption": true,
	"hr": true, "body": true, "main": true, "address": true, "center": true,
}

// skipped elements hold no text of the book: scripts, styles, and Project
// Gutenberg's header and licence in its EPUBs.
func skipped(name string, attrs []xml.Attr) bool {
	switch name {
	case "head", "script", "style", "svg", "math":
		return true
	}
	for _, a := range attrs {
		if a.Name.Local == "id" && strings.HasPrefix(a.Value, "pg-") &&
			(strings.Contains(a.Value, "header") || strings.Contains(a.Value, "footer")) {
			return true
		}
	}
	return false
}

// xhtmlText reads an XHTML document tolerantly (HTML entities, unclosed
// tags) into plain text.
func xhtmlText(raw []byte) xhtmlDoc {
	doc := xhtmlDoc{ids: map[string]int{}}
	var out, para strings.Builder
	var pending []string // ids waiting for the next text
	skip, pre := 0, 0
	heading, inHeading := "", 0
	space := false
	flush := func() {
		p := strings.TrimRightFunc(para.String(), unicode.IsSpace)
		para.Reset()
		space = false
		if strings.TrimSpace(p) == "" {
			return
		}
		p = strings.TrimLeft(p, " ")
		if out.Len() > 0 {
			out.WriteString("\n\n")
		}
		for _, id := range pending {
			doc.ids[id] = out.Len()
		}
		pending = pending[:0]
		out.WriteString(p)
	}
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			if skip > 0 || skipped(name, t.Attr) {
				skip++
				continue
			}
			if blocks[name] {
				flush()
			}
			for _, a := range t.Attr {
				if a.Name.Local == "id" && a.Value != "" {
					pending = append(pending, a.Value)
				}
			}
			switch name {
			case "br":
				para.WriteString("\n")
				space = false
			case "pre":
				pre++
			case "h1", "h2", "h3":
				inHeading++
			}
		case xml.EndElement:
			name := strings.ToLower(t.Name.Local)
			if skip > 0 {
				skip--
				continue
			}
			switch name {
			case "pre":
				pre = max(0, pre-1)
			case "h1", "h2", "h3":
				if inHeading--; inHeading == 0 && heading == "" {
					heading = collapse(para.String())
				}
			}
			if blocks[name] {
				flush()
			}
		case xml.CharData:
			if skip > 0 {
				continue
			}
			if pre > 0 {
				para.Write(t)
				continue
			}
			for _, r := range string(t) {
				if unicode.IsSpace(r) && r != '\u00a0' {
					space = true
					continue
				}
				if space && para.Len() > 0 && !strings.HasSuffix(para.String(), "\n") {
					para.WriteByte(' ')
				}
				space = false
				para.WriteRune(r)
			}
		}
	}
	flush()
	for _, id := range pending {
		doc.ids[id] = out.Len()
	}
	doc.text, doc.heading = out.String(), heading
	return doc
}

type navLink struct{ href, label string }

// navLinks lists the links of an EPUB 3 nav document's table of contents
// (the nav whose epub:type is toc, or the first nav) in order.
func navLinks(raw []byte) []navLink {
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	var all, toc []navLink
	navDepth, inToc := 0, false
	var cur *navLink
	var label strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch strings.ToLower(t.Name.Local) {
			case "nav":
				navDepth++
				for _, a := range t.Attr {
					if a.Name.Local == "type" && hasWord(a.Value, "toc") {
						inToc = true
					}
				}
			case "a":
				if navDepth > 0 {
					cur = &navLink{}
					for _, a := range t.Attr {
						if a.Name.Local == "href" {
							cur.href = a.Value
						}
					}
					label.Reset()
				}
			}
		case xml.EndElement:
			switch strings.ToLower(t.Name.Local) {
			case "nav":
				navDepth--
				if navDepth == 0 {
					inToc = false
				}
			case "a":
				if cur != nil {
					cur.label = label.String()
					all = append(all, *cur)
					if inToc {
						toc = append(toc, *cur)
					}
					cur = nil
				}
			}
		case xml.CharData:
			if cur != nil {
				label.Write(t)
			}
		}
	}
	if len(toc) > 0 {
		return toc
	}
	return all
}

package book

import (
	"bytes"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// xhtmlDoc is one EPUB document as plain text: paragraphs joined by
// "\n\n", a <br> as "\n", runs of white space as one space (kept in
// <pre>); ids maps each element id to the text offset where its text
// begins.
type xhtmlDoc struct {
	text    string
	ids     map[string]int
	heading string // the first h1–h3, for a document the contents miss
}

// block reports whether an element ends a paragraph where it opens and
// closes.
func block(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Li, atom.Ul, atom.Ol, atom.Blockquote, atom.Section, atom.Article,
		atom.Header, atom.Footer, atom.Aside, atom.Nav, atom.Pre, atom.Table,
		atom.Tr, atom.Dd, atom.Dt, atom.Dl, atom.Figure, atom.Figcaption,
		atom.Hr, atom.Body, atom.Main, atom.Address, atom.Center:
		return true
	}
	return false
}

// skipped elements hold no text of the book: scripts, styles, and Project
// Gutenberg's header and licence in its EPUBs.
func skipped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Head, atom.Script, atom.Style, atom.Svg, atom.Math, atom.Template:
		return true
	}
	id := attr(n, "id")
	return strings.HasPrefix(id, "pg-") && (strings.Contains(id, "header") || strings.Contains(id, "footer"))
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// textWriter builds a document's plain text.
type textWriter struct {
	out, para strings.Builder
	doc       xhtmlDoc
	pending   []string // ids waiting for the next paragraph's text
	space     bool     // white space seen since the last character
	pre       int
}

// flush ends the current paragraph.
func (w *textWriter) flush() {
	p := strings.TrimRightFunc(w.para.String(), unicode.IsSpace)
	p = strings.TrimLeft(p, " ")
	w.para.Reset()
	w.space = false
	if strings.TrimSpace(p) == "" {
		return
	}
	if w.out.Len() > 0 {
		w.out.WriteString("\n\n")
	}
	for _, id := range w.pending {
		w.doc.ids[id] = w.out.Len()
	}
	w.pending = w.pending[:0]
	w.out.WriteString(p)
}

func (w *textWriter) text(s string) {
	if w.pre > 0 {
		w.para.WriteString(s)
		return
	}
	for _, r := range s {
		if unicode.IsSpace(r) && r != '\u00a0' {
			w.space = true
			continue
		}
		if w.space && w.para.Len() > 0 && !strings.HasSuffix(w.para.String(), "\n") {
			w.para.WriteByte(' ')
		}
		w.space = false
		w.para.WriteRune(r)
	}
}

func (w *textWriter) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
		if skipped(n) {
			return
		}
	}
	isBlock := n.Type == html.ElementNode && block(n.DataAtom)
	if isBlock {
		w.flush()
	}
	if id := attr(n, "id"); n.Type == html.ElementNode && id != "" {
		w.pending = append(w.pending, id)
	}
	switch n.DataAtom {
	case atom.Br:
		w.para.WriteString("\n")
		w.space = false
	case atom.Pre:
		w.pre++
		defer func() { w.pre-- }()
	}
	heading := n.DataAtom == atom.H1 || n.DataAtom == atom.H2 || n.DataAtom == atom.H3
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
	if heading && w.doc.heading == "" {
		w.doc.heading = collapse(w.para.String())
	}
	if isBlock {
		w.flush()
	}
}

// xhtmlText reads an EPUB document (XHTML, or HTML as browsers read it)
// into plain text.
func xhtmlText(raw []byte) xhtmlDoc {
	w := &textWriter{doc: xhtmlDoc{ids: map[string]int{}}}
	root, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		return w.doc
	}
	w.walk(root)
	w.flush()
	for _, id := range w.pending {
		w.doc.ids[id] = w.out.Len()
	}
	w.doc.text = w.out.String()
	return w.doc
}

type navLink struct{ href, label string }

// navLinks lists the links of an EPUB 3 nav document's table of contents
// (the nav whose epub:type is toc, or else every nav) in order.
func navLinks(raw []byte) []navLink {
	root, err := html.Parse(bytes.NewReader(raw))
	if err != nil {
		return nil
	}
	var all, toc []navLink
	var walk func(n *html.Node, inNav, inToc bool)
	walk = func(n *html.Node, inNav, inToc bool) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Nav {
			inNav = true
			for _, a := range n.Attr {
				if (a.Key == "epub:type" || strings.HasSuffix(a.Key, ":type") || a.Key == "type" || a.Key == "role") && (hasWord(a.Val, "toc") || a.Val == "doc-toc") {
					inToc = true
				}
			}
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.A && inNav {
			l := navLink{href: attr(n, "href"), label: collapse(textOf(n))}
			all = append(all, l)
			if inToc {
				toc = append(toc, l)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inNav, inToc)
		}
	}
	walk(root, false, false)
	if len(toc) > 0 {
		return toc
	}
	return all
}

func textOf(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var sb strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		sb.WriteString(textOf(c))
	}
	return sb.String()
}

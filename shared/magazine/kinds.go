// Package magazine owns the magazine domain: issues, pages and their regions,
// the complete table of region kinds, and the pure rules that turn OCR output
// into reviewed, ordered regions (classification, repetition-loop check,
// figure boundaries, cleanup, reading order, preview). No I/O lives here.
package magazine

import "strings"

// Kind is a region type.
type Kind string

// Every region kind. Kinds marked Read are spoken when an article is read
// aloud; the others are kept, shown and reviewable, but never read.
const (
	KindHeadline   Kind = "headline"
	KindDeck       Kind = "deck" // standfirst under a headline
	KindParagraph  Kind = "paragraph"
	KindSubhead    Kind = "subhead"
	KindByline     Kind = "byline"
	KindCaption    Kind = "caption"
	KindPageNumber Kind = "page-number"
	KindSource     Kind = "source" // credits, "Source: …" lines
	KindAd         Kind = "ad"
	KindFurniture  Kind = "furniture" // running headers and footers
	KindSidebar    Kind = "sidebar"
	KindPullQuote  Kind = "pull-quote"
	KindList       Kind = "list"
	KindImage      Kind = "image"
	KindFigure     Kind = "figure"
	KindChart      Kind = "chart"
	KindTable      Kind = "table"
	KindCode       Kind = "code"
	KindFootnote   Kind = "footnote"
	// Kinds cleanup re-types to: never read, always reversible.
	KindNoise        Kind = "noise"         // OCR debris: stray marks, lone symbols
	KindDuplicate    Kind = "duplicate"     // the same text twice on a page
	KindTextInFigure Kind = "text-in-image" // labels inside a picture
)

// KindInfo describes one kind.
type KindInfo struct {
	Kind Kind
	// Read: spoken when the article is read aloud.
	Read bool
	// Visual: a picture region (cropped from the render, may be described).
	Visual bool
	// Muted: shown muted in previews and never as a heading.
	Muted bool
	// Cleanup: a kind only cleanup assigns (reversible).
	Cleanup bool
}

// Kinds is the complete list, in the order the review UI offers them.
var Kinds = []KindInfo{
	{Kind: KindHeadline, Read: true},
	{Kind: KindDeck, Read: true},
	{Kind: KindSubhead, Read: true},
	{Kind: KindByline, Read: true},
	{Kind: KindParagraph, Read: true},
	{Kind: KindList, Read: true},
	{Kind: KindCaption, Read: true},
	// Pull-quotes repeat body text; reading order puts them at the end of the page.
	{Kind: KindPullQuote, Read: true, Muted: true},
	{Kind: KindSidebar, Read: true, Muted: true},
	{Kind: KindFootnote},
	{Kind: KindSource},
	{Kind: KindPageNumber},
	{Kind: KindFurniture, Muted: true},
	{Kind: KindAd, Muted: true},
	{Kind: KindImage, Visual: true},
	{Kind: KindFigure, Visual: true},
	{Kind: KindChart, Visual: true},
	// A table is a picture that is also read: its rows, cells in order.
	{Kind: KindTable, Read: true, Visual: true},
	{Kind: KindCode, Visual: true},
	{Kind: KindNoise, Cleanup: true},
	{Kind: KindDuplicate, Cleanup: true},
	{Kind: KindTextInFigure, Cleanup: true},
}

// Info returns the kind's entry; ok is false for an unknown kind.
func Info(k Kind) (KindInfo, bool) {
	for _, info := range Kinds {
		if info.Kind == k {
			return info, true
		}
	}
	return KindInfo{}, false
}

// IsRead reports whether regions of kind k are read aloud.
func IsRead(k Kind) bool { info, _ := Info(k); return info.Read }

// IsVisual reports whether k is a picture kind (figure, chart, table, code, image).
func IsVisual(k Kind) bool { info, _ := Info(k); return info.Visual }

// Spoken is what a region adds to its article's text: a picture's
// description when descriptions are asked for, then its text for a kind
// that is read (a table's rows, cells a tab apart), else nothing ("").
func Spoken(r Region, descriptions bool) string {
	var parts []string
	if IsVisual(r.Kind) && descriptions && strings.TrimSpace(r.Description) != "" {
		parts = append(parts, strings.TrimSpace(r.Description))
	}
	if IsRead(r.Kind) && strings.TrimSpace(r.Text) != "" {
		parts = append(parts, strings.TrimSpace(r.Text))
	}
	return strings.Join(parts, "\n")
}

// Reading is what a read-aloud includes besides the text.
type Reading struct {
	Descriptions bool // each picture's description where it occurs
	SkipTables   bool // tables are not read
}

// SpokenAs is what a region says when it is listened to: as Spoken, but a
// table with cells reads as its caption then row by row with the column
// headings (Table.Spoken), and no table at all with SkipTables.
func SpokenAs(r Region, o Reading) string {
	if r.Kind == KindTable && o.SkipTables {
		return ""
	}
	var parts []string
	if IsVisual(r.Kind) && o.Descriptions && strings.TrimSpace(r.Description) != "" {
		parts = append(parts, strings.TrimSpace(r.Description))
	}
	switch {
	case !IsRead(r.Kind):
	case r.Kind == KindTable && r.Table != nil:
		if s := r.Table.Spoken(); s != "" {
			parts = append(parts, s)
		}
	case strings.TrimSpace(r.Text) != "":
		parts = append(parts, strings.TrimSpace(r.Text))
	}
	return strings.Join(parts, "\n")
}

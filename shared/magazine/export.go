package magazine

import (
	"fmt"
	"html"
	"strings"
)

// Article text formats.
const (
	FormatText     = "text"     // plain text, a table a row a line
	FormatMarkdown = "markdown" // headings and pipe tables
	FormatHTML     = "html"     // escaped paragraphs, headings and tables
)

// ExportArticle is an article's text in reading order in a format: the
// regions Spoken gives, a table as a table (its cells, or its rows of
// tab-separated text when it has none).
func ExportArticle(a Article, pages map[int]Page, descriptions bool, format string) (string, error) {
	var parts []string
	for _, ref := range ReadingSequence(a, pages) {
		for _, r := range pages[ref.Page].Regions {
			if r.ID != ref.Region {
				continue
			}
			if Spoken(r, descriptions) != "" {
				part, err := exportRegion(r, descriptions, format)
				if err != nil {
					return "", err
				}
				parts = append(parts, part)
			}
			break
		}
	}
	if format == FormatHTML {
		return strings.Join(parts, "\n"), nil
	}
	return strings.Join(parts, "\n\n"), nil
}

// exportRegion is one region in a format.
func exportRegion(r Region, descriptions bool, format string) (string, error) {
	text := Spoken(r, descriptions)
	t := r.Table
	if r.Kind == KindTable && t == nil {
		t = TableFromText(r.Text)
	}
	var desc string // a picture's description, said before it
	if IsVisual(r.Kind) && descriptions {
		desc = strings.TrimSpace(r.Description)
	}
	switch format {
	case FormatText, "":
		return text, nil
	case FormatMarkdown:
		switch {
		case t != nil:
			return strings.TrimSpace(desc + "\n\n" + t.Markdown()), nil
		case r.Kind == KindHeadline:
			return "# " + oneLine(text), nil
		case r.Kind == KindSubhead:
			return "## " + oneLine(text), nil
		}
		return text, nil
	case FormatHTML:
		var b strings.Builder
		if desc != "" && t != nil {
			b.WriteString("<p>" + html.EscapeString(desc) + "</p>\n")
		}
		switch {
		case t != nil:
			b.WriteString(t.HTML())
		case r.Kind == KindHeadline:
			b.WriteString("<h1>" + html.EscapeString(oneLine(text)) + "</h1>")
		case r.Kind == KindSubhead:
			b.WriteString("<h2>" + html.EscapeString(oneLine(text)) + "</h2>")
		default:
			b.WriteString("<p>" + strings.ReplaceAll(html.EscapeString(text), "\n", "<br>") + "</p>")
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("article text format %q (text, markdown or html): %w", format, ErrBadEdit)
}

// ExportPage is a page's text in its reading order in a format, as an
// article of all its regions would export it.
func ExportPage(p Page, format string) (string, error) {
	var a Article
	for _, id := range p.Order {
		a.Regions = append(a.Regions, RegionRef{Page: p.Number, Region: id})
	}
	return ExportArticle(a, map[int]Page{p.Number: p}, false, format)
}

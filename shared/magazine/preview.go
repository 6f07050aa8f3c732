package magazine

import (
	"html"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Preview budget: the live preview shows at most PreviewLineBudget lines,
// a line being PreviewCharsPerLine characters of text (each text line at
// least one preview line; a placeholder box counts as one line).
const (
	PreviewLineBudget   = 60
	PreviewCharsPerLine = 80
	// previewMore marks a preview cut by the budget.
	previewMore = `<p class="more">…</p>`
)

// PreviewHTML renders the page's regions in reading order as an HTML
// fragment for the live ingest preview (spec: Vision OCR 3). lineBudget ≤ 0
// means PreviewLineBudget.
//
//   - every text and attribute value is escaped (html.EscapeString escapes
//     < > & ' "), newlines become <br>;
//   - picture kinds (image, figure, chart, table, code) are only a
//     placeholder box: <div class="ph ph-chart">[chart]</div>, never their text;
//   - muted kinds (furniture, sidebar, pull-quote, ad) are <p class="muted">,
//     never a heading;
//   - headline <h2>, subhead <h3>, deck <p class="deck">, byline, caption,
//     list as <p class="KIND">, paragraph <p>; page numbers, sources and
//     footnotes <p class="note">;
//   - cleanup kinds (noise, duplicate, text-in-image) are left out;
//   - order: page.Order, then any region missing from it; with no Order,
//     ReadingOrder(page);
//   - when the budget runs out the current region is cut at a rune boundary
//     and `<p class="more">…</p>` ends the preview.
func PreviewHTML(page Page, lineBudget int) string {
	if lineBudget <= 0 {
		lineBudget = PreviewLineBudget
	}
	byID := make(map[string]Region, len(page.Regions))
	for _, r := range page.Regions {
		byID[r.ID] = r
	}
	order := page.Order
	if len(order) == 0 {
		order = ReadingOrder(page)
	}
	seen := map[string]bool{}
	var regions []Region
	for _, id := range order {
		if r, ok := byID[id]; ok && !seen[id] {
			seen[id] = true
			regions = append(regions, r)
		}
	}
	for _, r := range page.Regions {
		if !seen[r.ID] {
			seen[r.ID] = true
			regions = append(regions, r)
		}
	}

	var b strings.Builder
	b.WriteString(`<div class="preview" data-page="` + strconv.Itoa(page.Number) + `">`)
	left := lineBudget
	for _, r := range regions {
		info, _ := Info(r.Kind)
		if info.Cleanup {
			continue
		}
		if left <= 0 {
			b.WriteString(previewMore)
			break
		}
		id := ` data-region="` + html.EscapeString(r.ID) + `"`
		if info.Visual {
			k := html.EscapeString(string(r.Kind))
			b.WriteString(`<div class="ph ph-` + k + `"` + id + `>[` + k + `]</div>`)
			left--
			continue
		}
		text := strings.TrimSpace(r.Text)
		if text == "" {
			continue
		}
		text, cut := fitLines(text, left)
		left -= previewLines(text)
		open, closeTag := previewTags(r.Kind, info)
		b.WriteString(open[:len(open)-1] + id + ">")
		b.WriteString(strings.ReplaceAll(html.EscapeString(text), "\n", "<br>"))
		b.WriteString(closeTag)
		if cut {
			b.WriteString(previewMore)
			break
		}
	}
	b.WriteString(`</div>`)
	return b.String()
}

func previewTags(k Kind, info KindInfo) (open, closeTag string) {
	switch {
	case info.Muted:
		return `<p class="muted">`, `</p>`
	case k == KindHeadline:
		return `<h2>`, `</h2>`
	case k == KindSubhead:
		return `<h3>`, `</h3>`
	case k == KindDeck || k == KindByline || k == KindCaption || k == KindList:
		return `<p class="` + string(k) + `">`, `</p>`
	case k == KindPageNumber || k == KindSource || k == KindFootnote:
		return `<p class="note">`, `</p>`
	}
	return `<p>`, `</p>`
}

// previewLines estimates the lines text takes: each text line at least one,
// long lines wrapped every PreviewCharsPerLine characters.
func previewLines(text string) int {
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		n += max(1, (utf8.RuneCountInString(line)+PreviewCharsPerLine-1)/PreviewCharsPerLine)
	}
	return n
}

// fitLines cuts text to at most budget lines; cut reports a cut.
func fitLines(text string, budget int) (string, bool) {
	if previewLines(text) <= budget {
		return text, false
	}
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		need := max(1, (utf8.RuneCountInString(line)+PreviewCharsPerLine-1)/PreviewCharsPerLine)
		if need > budget {
			if budget > 0 {
				out = append(out, string([]rune(line)[:budget*PreviewCharsPerLine]))
			}
			break
		}
		out = append(out, line)
		budget -= need
	}
	return strings.Join(out, "\n"), true
}

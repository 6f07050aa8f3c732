package magazine

import (
	"strings"
	"testing"
)

func TestPreviewHTML(t *testing.T) {
	tests := []struct {
		name     string
		regions  []Region
		contains []string
		absent   []string
	}{
		{
			name:     "script in text is escaped",
			regions:  []Region{textReg("r1", KindParagraph, 0, 0, 100, 20, "<script>alert(1)</script>")},
			contains: []string{"&lt;script&gt;alert(1)&lt;/script&gt;"},
			absent:   []string{"<script>"},
		},
		{
			name:     "attribute-breaking quotes in ids and text are escaped",
			regions:  []Region{textReg(`x" onmouseover="alert(1)`, KindHeadline, 0, 0, 100, 20, `Say "hi" & 'bye'`)},
			contains: []string{`data-region="x&#34; onmouseover=&#34;alert(1)"`, "Say &#34;hi&#34; &amp; &#39;bye&#39;"},
			absent:   []string{`" onmouseover="`},
		},
		{
			name: "kinds map to their elements",
			regions: []Region{
				textReg("h", KindHeadline, 0, 0, 500, 40, "Bridge Vote"), textReg("d", KindDeck, 0, 50, 500, 20, "A long debate ends"),
				textReg("p", KindParagraph, 0, 100, 500, 100, "The council voted."),
			},
			contains: []string{`<h2 data-region="h">Bridge Vote</h2>`, `<p class="deck" data-region="d">A long debate ends</p>`, `<p data-region="p">The council voted.</p>`},
		},
		{
			name: "pictures are placeholder boxes without their text",
			regions: []Region{
				textReg("c", KindChart, 0, 0, 100, 100, "SECRET AXIS"), textReg("t", KindTable, 0, 200, 100, 100, ""),
				textReg("f", KindFigure, 0, 300, 100, 100, ""), textReg("k", KindCode, 0, 400, 100, 100, "x := 1"), textReg("i", KindImage, 0, 500, 100, 100, ""),
			},
			contains: []string{`<div class="ph ph-chart" data-region="c">[chart]</div>`, `class="ph ph-table"`, `class="ph ph-figure"`, `class="ph ph-code"`, `class="ph ph-image"`},
			absent:   []string{"SECRET", "x := 1"},
		},
		{
			name: "furniture, sidebar, pull-quote and ad are muted and never headings",
			regions: []Region{
				textReg("f", KindFurniture, 0, 0, 100, 10, "THE MONTHLY"), textReg("s", KindSidebar, 0, 100, 100, 100, "Box text"),
				textReg("q", KindPullQuote, 0, 200, 100, 50, "We will build it"), textReg("a", KindAd, 0, 300, 100, 100, "BUY NOW"),
			},
			contains: []string{`<p class="muted" data-region="f">THE MONTHLY</p>`, `<p class="muted" data-region="s">`, `<p class="muted" data-region="q">`, `<p class="muted" data-region="a">`},
			absent:   []string{"<h2", "<h3"},
		},
		{
			name:     "cleanup kinds are left out",
			regions:  []Region{textReg("n", KindNoise, 0, 0, 5, 5, "~~"), textReg("dup", KindDuplicate, 0, 10, 100, 10, "twice"), textReg("p", KindParagraph, 0, 30, 100, 10, "kept")},
			contains: []string{"kept"},
			absent:   []string{"~~", "twice"},
		},
		{
			name:     "newlines become line breaks",
			regions:  []Region{textReg("p", KindParagraph, 0, 0, 100, 20, "one\ntwo")},
			contains: []string{"one<br>two"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := PreviewHTML(Page{Number: 3, Regions: tc.regions}, 0)
			if !strings.HasPrefix(got, `<div class="preview" data-page="3">`) || !strings.HasSuffix(got, "</div>") {
				t.Errorf("wrapper missing: %s", got)
			}
			for _, s := range tc.contains {
				if !strings.Contains(got, s) {
					t.Errorf("missing %q in %s", s, got)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(got, s) {
					t.Errorf("unexpected %q in %s", s, got)
				}
			}
		})
	}
}

func TestPreviewHTMLFollowsReadingOrder(t *testing.T) {
	page := Page{Regions: []Region{
		textReg("b", KindParagraph, 0, 300, 100, 20, "second"), textReg("a", KindParagraph, 0, 0, 100, 20, "first"),
		textReg("c", KindParagraph, 0, 600, 100, 20, "not in order"),
	}, Order: []string{"a", "b"}}
	got := PreviewHTML(page, 0)
	if i, j, k := strings.Index(got, "first"), strings.Index(got, "second"), strings.Index(got, "not in order"); !(i < j && j < k) {
		t.Errorf("order wrong: %s", got)
	}
	page.Order = nil
	if got := PreviewHTML(page, 0); strings.Index(got, "first") > strings.Index(got, "second") {
		t.Errorf("without an order the reading order is used: %s", got)
	}
}

func TestPreviewHTMLLineBudget(t *testing.T) {
	long := strings.Repeat("word ", 400) // 2000 chars = 25 lines
	var regions []Region
	for i := range 5 {
		regions = append(regions, textReg("p"+string(rune('a'+i)), KindParagraph, 0, float64(i*100), 500, 90, long))
	}
	page := Page{Regions: regions, Order: []string{"pa", "pb", "pc", "pd", "pe"}}

	got := PreviewHTML(page, 0)
	if !strings.HasSuffix(got, `<p class="more">…</p></div>`) {
		t.Errorf("cut preview lacks the marker: …%s", got[len(got)-60:])
	}
	if n := strings.Count(got, "word"); n > PreviewLineBudget*PreviewCharsPerLine/5 {
		t.Errorf("%d words shown, over the %d-line budget", n, PreviewLineBudget)
	}
	if strings.Contains(got, `data-region="pd"`) {
		t.Error("region beyond the budget shown")
	}

	small := PreviewHTML(page, 10)
	if n := strings.Count(small, "word"); n != 10*PreviewCharsPerLine/5 {
		t.Errorf("10-line budget shows %d words, want %d", n, 10*PreviewCharsPerLine/5)
	}

	short := PreviewHTML(Page{Regions: regions[:1], Order: []string{"pa"}}, 0)
	if strings.Contains(short, "more") {
		t.Error("preview within budget has the cut marker")
	}

	// Escaping happens after the cut, so no entity is split.
	amp := PreviewHTML(Page{Regions: []Region{textReg("x", KindParagraph, 0, 0, 1, 1, strings.Repeat("&", 200))}}, 1)
	if strings.Count(amp, "&amp;") != PreviewCharsPerLine || strings.Contains(strings.ReplaceAll(amp, "&amp;", ""), "&") {
		t.Errorf("cut text not cleanly escaped: %s", amp)
	}
}

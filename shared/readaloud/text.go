package readaloud

import (
	"regexp"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/podcast"
)

// Part is one region's contribution to an article read aloud.
type Part = magazine.SpokenPart

// Parts is what an article says (magazine.ListenParts): tables row by row
// with their headings.
func Parts(a magazine.Article, pages map[int]magazine.Page, o magazine.Reading) []Part {
	return magazine.ListenParts(a, pages, o)
}

// PagesOf lists the page numbers an article's regions and images are on.
func PagesOf(a magazine.Article) []int {
	var out []int
	for _, ref := range append(slices.Clone(a.Regions), a.Images...) {
		if !slices.Contains(out, ref.Page) {
			out = append(out, ref.Page)
		}
	}
	slices.Sort(out)
	return out
}

// bylinePrefix is the "By" a byline starts with, which is not the name.
var bylinePrefix = regexp.MustCompile(`(?i)^by\s+`)

// Byline is the author as the article's first byline region names them,
// without a leading "By"; "" when it has none.
func Byline(parts []Part) string {
	for _, p := range parts {
		if p.Kind == magazine.KindByline {
			return strings.TrimSpace(bylinePrefix.ReplaceAllString(strings.Join(strings.Fields(p.Text), " "), ""))
		}
	}
	return ""
}

// Narration is the text a narrator reads: the title as the first sentence,
// then the article's parts, one paragraph each. A first headline that only
// repeats the title is not read twice.
func Narration(title string, parts []Part) string {
	title = strings.TrimSpace(title)
	body := parts
	if len(body) > 0 && body[0].Kind == magazine.KindHeadline && sameWords(body[0].Text, title) {
		body = body[1:]
	}
	out := make([]string, 0, len(body)+1)
	if title != "" {
		out = append(out, sentence(title))
	}
	for _, p := range body {
		out = append(out, p.Text)
	}
	return strings.Join(out, "\n\n")
}

// sentence ends a title with a full stop, so the speech renderer's sentence
// split keeps it apart from the first paragraph.
func sentence(s string) string {
	if strings.ContainsAny(s[len(s)-1:], ".!?…") {
		return s
	}
	return s + "."
}

func sameWords(a, b string) bool {
	norm := func(s string) string {
		return strings.ToLower(strings.Join(strings.Fields(strings.TrimRight(strings.TrimSpace(s), ".!?…")), " "))
	}
	return norm(a) == norm(b)
}

// PodcastArticle is the article as the podcast hosts see it: its title, its
// byline, and as paragraphs what it reads aloud (without the headline that
// repeats the title, the byline and picture descriptions, which are said
// only on request in the narration).
func PodcastArticle(title string, parts []Part) podcast.Article {
	art := podcast.Article{Title: strings.TrimSpace(title), Byline: Byline(parts)}
	for i, p := range parts {
		if p.Kind == magazine.KindByline || i == 0 && p.Kind == magazine.KindHeadline && sameWords(p.Text, title) {
			continue
		}
		art.Paragraphs = append(art.Paragraphs, p.Text)
	}
	return art
}

// IssueOrder sorts articles as the issue prints them: by where the first
// region of each is read (page, then place in the page's reading order);
// an article with no region placed goes last, ties by id.
func IssueOrder(articles []magazine.Article, pages map[int]magazine.Page) []magazine.Article {
	type place struct{ page, index int }
	first := func(a magazine.Article) (place, bool) {
		for _, ref := range magazine.ReadingSequence(a, pages) {
			if i := slices.Index(pages[ref.Page].Order, ref.Region); i >= 0 {
				return place{ref.Page, i}, true
			}
		}
		return place{}, false
	}
	out := slices.Clone(articles)
	slices.SortStableFunc(out, func(x, y magazine.Article) int {
		px, okx := first(x)
		py, oky := first(y)
		switch {
		case okx != oky:
			if okx {
				return -1
			}
			return 1
		case px.page != py.page:
			return px.page - py.page
		case px.index != py.index:
			return px.index - py.index
		}
		return strings.Compare(x.ID, y.ID)
	})
	return out
}

// LengthTolerance is how far over its minutes a script may run before it is
// cut: an estimate at 150 words a minute is not exact.
const LengthTolerance = 0.15

// BoundLength cuts an LLM's script that runs more than LengthTolerance over
// minutes: it keeps the turns from the start while they fit in minutes,
// together with the last turn (the closing), so the conversation still ends
// as the model wrote it. It reports whether it cut. A script of one or two
// turns is never cut.
func BoundLength(s podcast.Script, minutes float64) (podcast.Script, bool) {
	limit := minutes * 60
	if len(s.Turns) <= 2 || s.EstimatedSeconds() <= limit*(1+LengthTolerance) {
		return s, false
	}
	closing := s.Turns[len(s.Turns)-1]
	used := podcast.EstimateSeconds(closing.Text)
	kept := []podcast.Turn{}
	for i, t := range s.Turns[:len(s.Turns)-1] {
		seconds := podcast.EstimateSeconds(t.Text)
		if i > 0 && used+seconds > limit {
			break
		}
		kept = append(kept, t)
		used += seconds
	}
	s.Turns = append(kept, closing)
	return s, true
}

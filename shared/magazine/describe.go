package magazine

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Figure descriptions (spec: Figure descriptions 1–3, Limits).
const (
	// MaxDescriptionSentences is the spec's limit: one or two sentences.
	MaxDescriptionSentences = 2
	// MaxDescriptionRunes bounds a description however its sentences run:
	// it is read aloud in place of the picture, so it must stay short.
	MaxDescriptionRunes = 400
)

// ImageID names a picture region within its issue as "<page>-<region id>":
// region ids are unique only on their page (p1 is on every page).
func ImageID(ref RegionRef) string { return strconv.Itoa(ref.Page) + "-" + ref.Region }

// ParseImageID reads an ImageID back. Region ids may contain "-", page
// numbers cannot, so the first "-" ends the page.
func ParseImageID(id string) (RegionRef, error) {
	page, region, ok := strings.Cut(id, "-")
	n, err := strconv.Atoi(page)
	if !ok || err != nil || n < 1 || region == "" || strings.HasPrefix(page, "0") || strings.HasPrefix(page, "+") {
		return RegionRef{}, fmt.Errorf("image id %q is not <page>-<region id> (for example 3-p1): %w", id, ErrBadEdit)
	}
	return RegionRef{Page: n, Region: region}, nil
}

// DescribeKind is the visual kind that chooses a picture's description
// prompt: its own visual kind, else the one its region kind implies (a
// plain image is a figure).
func DescribeKind(r Region) Kind {
	if r.VisualKind != "" {
		return visualKindOf(r.VisualKind)
	}
	return visualKindOf(r.Kind)
}

// describeAsk is what every prompt asks of the answer: it replaces the
// picture for a listener, so it must be short plain speech.
const describeAsk = " Answer in one or two short sentences of plain text for a listener who cannot see the page:" +
	" no markdown, no lists, no quotation marks, no heading or label such as \"Description:\", and do not start with \"This image shows\"."

var describePrompts = map[Kind]string{
	KindChart: "This picture is a chart from a magazine article. Say what it measures (with units or period when they are visible)" +
		" and its trend: what rises, falls or stands out.",
	KindTable: "This picture is a table from a magazine article. Say what its headings are (what the columns and rows hold)" +
		" and what stands out in it, such as the largest, smallest or most surprising entry.",
	KindCode: "This picture is program code from a magazine article. Say which language it appears to be and what the code does;" +
		" do not read the code out.",
	KindFigure: "This picture is a figure from a magazine article: a photograph, illustration or diagram. Say what it shows:" +
		" the main subject and what is happening or how it is arranged.",
}

// DescribePrompt is the vision prompt for a picture of the given visual
// kind (figure, chart, table or code; anything else is a figure).
func DescribePrompt(kind Kind) string {
	return describePrompts[visualKindOf(kind)] + describeAsk
}

var (
	thinkBlock   = regexp.MustCompile(`(?s)<think>.*?</think>`)
	fenceLine    = regexp.MustCompile("(?m)^\\s*```[A-Za-z0-9_-]*\\s*$")
	listMark     = regexp.MustCompile(`(?m)^\s*(?:[-*•]|#{1,6}|\d+[.)])\s+`)
	labelPrefix  = regexp.MustCompile(`(?i)^(?:(?:image|figure|chart|table|code|picture|alt)[ -]?)?(?:description|caption|answer|summary|text|alt text)\s*[:：]\s*`)
	emphasisMark = regexp.MustCompile(`\*\*|__|\*|` + "`")
)

// quotePairs are the quotation marks an engine may wrap its whole answer in.
var quotePairs = [][2]string{{`"`, `"`}, {"'", "'"}, {"“", "”"}, {"‘", "’"}, {"«", "»"}, {"„", "“"}}

// CleanDescription turns an engine's answer into a description: reasoning
// blocks, code fences, markdown, labels such as "Description:" and quotes
// around the whole answer go, whitespace is collapsed, and the text is cut
// to MaxDescriptionSentences sentences and MaxDescriptionRunes runes. ""
// means the answer had nothing to say.
func CleanDescription(answer string) string {
	s := thinkBlock.ReplaceAllString(answer, " ")
	s = fenceLine.ReplaceAllString(s, " ")
	s = listMark.ReplaceAllString(s, "")
	s = emphasisMark.ReplaceAllString(s, "")
	s = strings.Join(strings.Fields(s), " ")
	for {
		before := s
		s = strings.TrimSpace(labelPrefix.ReplaceAllString(s, ""))
		for _, q := range quotePairs {
			if len(s) > len(q[0])+len(q[1]) && strings.HasPrefix(s, q[0]) && strings.HasSuffix(s, q[1]) {
				s = strings.TrimSpace(s[len(q[0]) : len(s)-len(q[1])])
			}
		}
		if s == before {
			break
		}
	}
	return CutDescription(s)
}

// CutDescription keeps the first MaxDescriptionSentences sentences, then
// bounds the text to MaxDescriptionRunes: at the last sentence end that
// fits, else at the last word that fits, marked with an ellipsis.
func CutDescription(text string) string {
	sentences := Sentences(text)
	if len(sentences) > MaxDescriptionSentences {
		sentences = sentences[:MaxDescriptionSentences]
	}
	for len(sentences) > 1 && utf8.RuneCountInString(strings.Join(sentences, " ")) > MaxDescriptionRunes {
		sentences = sentences[:len(sentences)-1]
	}
	s := strings.Join(sentences, " ")
	if utf8.RuneCountInString(s) <= MaxDescriptionRunes {
		return s
	}
	runes := []rune(s)[:MaxDescriptionRunes-1]
	cut := len(runes)
	for cut > 0 && !unicode.IsSpace(runes[cut-1]) {
		cut--
	}
	if cut == 0 { // one word longer than the limit
		cut = len(runes)
	}
	return strings.TrimRightFunc(string(runes[:cut]), func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) + "…"
}

// CheckDescription refuses a description typed by hand that breaks the
// limits; "" (clearing it) is allowed.
func CheckDescription(text string) error {
	text = strings.TrimSpace(text)
	if n := utf8.RuneCountInString(text); n > MaxDescriptionRunes {
		return fmt.Errorf("a description is at most %d characters; this one has %d: %w", MaxDescriptionRunes, n, ErrBadEdit)
	}
	if n := len(Sentences(text)); n > MaxDescriptionSentences {
		return fmt.Errorf("a description is one or two sentences; this one has %d: %w", n, ErrBadEdit)
	}
	return nil
}

// abbreviations end with a full stop that does not end a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "approx": true, "ca": true, "cf": true, "fig": true, "no": true,
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "jr": true, "sr": true, "inc": true, "ltd": true,
}

// Sentences splits text into its sentences, trimmed. A sentence ends at
// ".", "!", "?" or "…" (with any closing quotes or brackets) followed by
// space and a word that does not start in lower case, or by the end of the
// text; a full stop after an abbreviation or an initial ends none.
func Sentences(text string) []string {
	runes := []rune(strings.TrimSpace(text))
	var out []string
	start := 0
	for i := 0; i < len(runes); i++ {
		if !strings.ContainsRune(".!?…", runes[i]) {
			continue
		}
		end := i + 1
		for end < len(runes) && strings.ContainsRune(".!?…\"'”’)]»", runes[end]) {
			end++
		}
		next := end
		for next < len(runes) && unicode.IsSpace(runes[next]) {
			next++
		}
		switch {
		case next == len(runes):
		case next == end, unicode.IsLower(runes[next]):
			continue // "3.5", "e.g. a" or "approx. three"
		case runes[i] == '.' && end == i+1 && abbreviated(runes[start:i]):
			continue
		}
		if s := strings.TrimSpace(string(runes[start:end])); s != "" {
			out = append(out, s)
		}
		start, i = next, end-1
	}
	if s := strings.TrimSpace(string(runes[min(start, len(runes)):])); s != "" {
		out = append(out, s)
	}
	return out
}

// abbreviated reports whether the text before a full stop ends with an
// abbreviation or a single-letter initial ("J. Smith").
func abbreviated(before []rune) bool {
	word := before
	if i := lastIndexFunc(before, unicode.IsSpace); i >= 0 {
		word = before[i+1:]
	}
	w := strings.ToLower(strings.TrimLeft(string(word), "(\"'“‘"))
	return abbreviations[w] || (utf8.RuneCountInString(w) == 1 && unicode.IsLetter([]rune(w)[0]))
}

func lastIndexFunc(rs []rune, f func(rune) bool) int {
	for i := len(rs) - 1; i >= 0; i-- {
		if f(rs[i]) {
			return i
		}
	}
	return -1
}

// SpokenPart is one region's contribution to an article read aloud.
type SpokenPart struct {
	Kind Kind
	Text string
}

// SpokenParts is what an article says, in its reading sequence: each
// region's spoken text (Spoken), with a picture's description where the
// picture occurs when descriptions is set; a region that says nothing (a
// picture without a description) is skipped. pages holds every page the
// article's regions and images are on.
func SpokenParts(a Article, pages map[int]Page, descriptions bool) []SpokenPart {
	return spokenParts(a, pages, func(r Region) string { return Spoken(r, descriptions) })
}

// ListenParts is what an article says when it is listened to (SpokenAs).
func ListenParts(a Article, pages map[int]Page, o Reading) []SpokenPart {
	return spokenParts(a, pages, func(r Region) string { return SpokenAs(r, o) })
}

func spokenParts(a Article, pages map[int]Page, say func(Region) string) []SpokenPart {
	var parts []SpokenPart
	for _, ref := range ReadingSequence(a, pages) {
		for _, r := range pages[ref.Page].Regions {
			if r.ID != ref.Region {
				continue
			}
			if text := say(r); text != "" {
				parts = append(parts, SpokenPart{Kind: r.Kind, Text: text})
			}
			break
		}
	}
	return parts
}

// ReadingSequence is what an article reads, in order: its regions, with
// each picture of its image list that is not among them placed where it
// occurs in the pages' reading order (after the last of the regions read
// before it), so its description is spoken there.
func ReadingSequence(a Article, pages map[int]Page) []RegionRef {
	type place struct{ page, index int }
	at := func(r RegionRef) (place, bool) {
		i := slices.Index(pages[r.Page].Order, r.Region)
		return place{r.Page, i}, i >= 0
	}
	before := func(x, y place) bool { return x.page < y.page || x.page == y.page && x.index < y.index }
	seq := slices.Clone(a.Regions)
	var extra []RegionRef
	for _, img := range a.Images {
		if _, ok := at(img); ok && !slices.Contains(seq, img) && !slices.Contains(extra, img) {
			extra = append(extra, img)
		}
	}
	slices.SortStableFunc(extra, func(x, y RegionRef) int {
		px, _ := at(x)
		py, _ := at(y)
		if before(px, py) {
			return -1
		}
		if before(py, px) {
			return 1
		}
		return 0
	})
	for _, img := range extra {
		pi, _ := at(img)
		insert := 0
		for i, r := range seq {
			if pr, ok := at(r); ok && before(pr, pi) {
				insert = i + 1
			}
		}
		seq = slices.Insert(seq, insert, img)
	}
	return seq
}

package spans

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/lectern/lectern/shared/audiobook/book"
)

// pdncQuote is one line of PDNC's quotations.derived.jsonl (see
// ../shared/data/books/README.md): the parts are byte spans of the novel's
// text that leave the quotation marks out.
type pdncQuote struct {
	ID    string `json:"id"`
	Parts []struct {
		Start int `json:"start"`
		End   int `json:"end"`
	} `json:"parts"`
}

// aliceJoined are PDNC quotations that share one pair of quotation marks
// with the quotation before them: the annotators cut one quotation in two
// where the speaker changes from thinking to speaking aloud ("...answer
// questions.--How am I to get in?" she repeated, aloud). Marks alone cannot
// cut there, so each is judged together with the quotation before it.
var aliceJoined = map[string]string{
	"Q190": "one pair of marks with Q189; the tag after the close ('she repeated, aloud') covers only the words after '--'",
	"Q266": "one pair of marks with Q265; the tag after the close ('she added aloud') covers only the words after '--'",
	"Q684": "one pair of marks with Q683; the tag after the close ('he said to the Queen') covers only the words after the nested quote",
}

// TestEvalAliceSpans splits PDNC's Alice in Wonderland and checks every
// annotated quotation against the dialogue spans.
//
// A quotation is recovered when each of its parts (trimmed of white space
// and of any quotation marks the annotation kept) is:
//   - not dropped: every non-space byte of the part lies in a dialogue span
//     (narration inside the part's range is white space only, the break
//     between the paragraphs of a multi-paragraph quotation);
//   - whole: in every dialogue span that touches the part, what is left of
//     its Inner range once the quotation's own parts are taken out is
//     white space and punctuation, or a nested quotation (text the speaker
//     quotes, in marks, which PDNC leaves out of the parts): the span
//     holds no narration and no speech of anyone else;
//   - not fused: no dialogue span that touches the part touches a part of
//     another quotation.
//
// Nothing is duplicated because the spans tile each chapter (checked here
// too): each byte is in exactly one span.
func TestEvalAliceSpans(t *testing.T) {
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		t.Skip("LECTERN_SAMPLE_DATA is not set: PDNC novels absent")
	}
	dir = filepath.Join(dir, "books", "AlicesAdventuresInWonderland")
	r := evalSpans(t, dir, aliceJoined)
	// The list above is what sharedMarks finds: the quirk is in the marks.
	got := sharedMarks(r.text, r.quotes)
	for _, id := range got {
		if aliceJoined[id] == "" {
			t.Errorf("%s shares marks with the quotation before but is not listed", id)
		}
	}
	if len(got) != len(aliceJoined) {
		t.Errorf("quotations sharing marks with the one before: %v, listed %v", got, aliceJoined)
	}
	t.Logf("PDNC Alice: %s", r)
}

// TestEvalPDNCSpans runs the same judgement over every PDNC novel in the
// sample data (books/*/quotations.derived.jsonl: Alice, and Pride and
// Prejudice where present), judging together the quotations that share
// one pair of marks with the one before, as found in the text.
func TestEvalPDNCSpans(t *testing.T) {
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		t.Skip("LECTERN_SAMPLE_DATA is not set: PDNC novels absent")
	}
	found, err := filepath.Glob(filepath.Join(dir, "books", "*", "quotations.derived.jsonl"))
	if err != nil || len(found) == 0 {
		t.Fatalf("no PDNC novel under %s/books (%v)", dir, err)
	}
	for _, f := range found {
		novel := filepath.Dir(f)
		t.Run(filepath.Base(novel), func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(novel, "novel_text.txt"))
			if err != nil {
				t.Fatal(err)
			}
			joined := map[string]string{}
			for _, id := range sharedMarks(string(text), readPDNC(t, f)) {
				joined[id] = "no double quotation mark between it and the quotation before"
			}
			t.Logf("%s: %s", filepath.Base(novel), evalSpans(t, novel, joined))
		})
	}
}

// sharedMarks lists the quotations with no double quotation mark between
// them and the quotation before: one pair of marks holds both.
func sharedMarks(text string, quotes []pdncQuote) []string {
	var out []string
	for k := 1; k < len(quotes); k++ {
		prev, q := quotes[k-1].Parts, quotes[k].Parts
		if len(prev) == 0 || len(q) == 0 || prev[len(prev)-1].End > q[0].Start {
			continue
		}
		if !strings.ContainsAny(text[prev[len(prev)-1].End:q[0].Start], `"“”`) {
			out = append(out, quotes[k].ID)
		}
	}
	return out
}

// evalResult is what evalSpans measured.
type evalResult struct {
	text                                              string
	quotes                                            []pdncQuote
	judged, recovered, joined                         int
	spans, dialogue, unannotated, continues, unclosed int
}

func (r evalResult) String() string {
	return fmt.Sprintf("%d annotated quotations judged as %d (%d share one pair of marks with the quotation before and are judged with it): %d of %d recovered as whole dialogue spans; %d spans, %d dialogue (%d touch no annotated quotation, %d continue in the next, %d unclosed)",
		len(r.quotes), r.judged, r.joined, r.recovered, r.judged, r.spans, r.dialogue, r.unannotated, r.continues, r.unclosed)
}

// evalSpans splits the PDNC novel in dir and fails for every quotation
// (with those in joined judged with the one before) not recovered.
func evalSpans(t *testing.T, dir string, joined map[string]string) evalResult {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "novel_text.txt"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := book.ParseText(data, "novel_text.txt")
	if err != nil {
		t.Fatal(err)
	}
	if b.Text != string(data) {
		t.Fatalf("book text differs from the file (%d bytes, file %d)", len(b.Text), len(data))
	}
	quotes := readPDNC(t, filepath.Join(dir, "quotations.derived.jsonl"))
	spans := SplitBook(b)
	if err := tileError(b, spans); err != nil {
		t.Fatal(err)
	}

	// owner: which quotation (group) each part belongs to.
	type part struct {
		start, end int
		group      string
	}
	var parts []part
	groups := map[string][]part{}
	var order []string
	group := ""
	for _, q := range quotes {
		if joined[q.ID] == "" {
			group = q.ID
			order = append(order, group)
		}
		for _, p := range q.Parts {
			s, e := trimPart(b.Text, p.Start, p.End)
			pt := part{s, e, group}
			parts = append(parts, pt)
			groups[group] = append(groups[group], pt)
		}
	}
	// touching: the dialogue spans overlapping [s, e); spans are in order.
	touching := func(s, e int) []Span {
		var out []Span
		for k := sort.Search(len(spans), func(k int) bool { return spans[k].End > s }); k < len(spans) && spans[k].Start < e; k++ {
			if spans[k].Kind == Dialogue {
				out = append(out, spans[k])
			}
		}
		return out
	}

	recovered, dialogueSpans := 0, 0
	for _, sp := range spans {
		if sp.Kind == Dialogue {
			dialogueSpans++
		}
	}
	annotated := map[string]bool{}
	for _, g := range order {
		ok := true
		why := ""
		for _, p := range groups[g] {
			for i := p.start; i < p.end; i++ {
				if unicode.IsSpace(rune(b.Text[i])) {
					continue
				}
				if len(touching(i, i+1)) == 0 {
					ok, why = false, "dropped: narration inside the part"
					break
				}
			}
			for _, sp := range touching(p.start, p.end) {
				annotated[sp.ID] = true
				a, z := sp.Inner(b.Text)
				rest := []int{a, z}
				for _, o := range parts {
					if o.start < z && a < o.end {
						if o.group != g {
							ok, why = false, "fused with "+o.group+" in "+sp.ID
						}
						rest = cut(rest, o.start, o.end)
					}
				}
				for k := 0; k < len(rest); k += 2 {
					if r := b.Text[rest[k]:rest[k+1]]; !ignorable(r) {
						ok, why = false, "span "+sp.ID+" also holds "+strings.TrimSpace(r)
					}
				}
			}
		}
		if ok {
			recovered++
		} else {
			p := groups[g][0]
			t.Errorf("%s not recovered: %s\n  text: %q", g, why, b.Text[max(0, p.start-40):min(len(b.Text), groups[g][len(groups[g])-1].end+40)])
		}
	}
	r := evalResult{text: b.Text, quotes: quotes, judged: len(order), recovered: recovered, joined: len(joined),
		spans: len(spans), dialogue: dialogueSpans, unannotated: dialogueSpans - len(annotated)}
	for _, sp := range spans {
		if sp.Unclosed {
			r.unclosed++
		}
		if sp.Continues {
			r.continues++
		}
	}
	if len(order) == 0 {
		t.Fatal("no annotated quotation read")
	}
	return r
}

// trimPart trims white space and quotation marks from both ends of a part.
func trimPart(text string, s, e int) (int, int) {
	for s < e && (unicode.IsSpace(rune(text[s])) || text[s] == '"') {
		s++
	}
	for e > s && (unicode.IsSpace(rune(text[e-1])) || text[e-1] == '"') {
		e--
	}
	return s, e
}

// cut removes [s, e) from a list of ranges (pairs of offsets).
func cut(rs []int, s, e int) []int {
	var out []int
	for k := 0; k < len(rs); k += 2 {
		a, z := rs[k], rs[k+1]
		if e <= a || z <= s {
			out = append(out, a, z)
			continue
		}
		if a < s {
			out = append(out, a, s)
		}
		if e < z {
			out = append(out, e, z)
		}
	}
	return out
}

// ignorable reports whether text left in a dialogue span beside the
// quotation's parts is white space and punctuation, or a nested quotation
// (in single marks, or in double marks inside double marks as Alice has).
func ignorable(r string) bool {
	r = strings.TrimFunc(r, func(c rune) bool {
		return unicode.IsSpace(c) || (unicode.IsPunct(c) && c != '\'' && c != '"')
	})
	return r == "" || (len(r) >= 2 && strings.ContainsRune(`'"`, rune(r[0])) && r[len(r)-1] == r[0])
}

func readPDNC(t *testing.T, path string) []pdncQuote {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []pdncQuote
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var q pdncQuote
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

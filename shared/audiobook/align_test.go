package audiobook

import (
	"reflect"
	"strings"
	"testing"
)

// piece is a piece as the tests write it: its text and who reads it.
type piece struct {
	Text    string
	Speaker string // "" for the narrator
	Dropped bool
}

func pieces(src string, ps []Piece) []piece {
	out := make([]piece, len(ps))
	for i, p := range ps {
		out[i] = piece{Text: src[p.Start:p.End], Speaker: p.Speaker, Dropped: p.Dropped}
	}
	return out
}

func TestAlign(t *testing.T) {
	const src = `"I'm late," said the Rabbit. "Oh dear!" Alice ran after it.`
	for _, tc := range []struct {
		name     string
		src      string
		segs     []ClassicSegment
		want     []piece
		dropped  []string
		absorbed []string
		invented []string
		fused    []Fused
	}{
		{
			name: "segments that follow the source exactly cover it",
			src:  src,
			segs: []ClassicSegment{{"Rabbit", `"I'm late,"`}, {"narrator", "said the Rabbit."}, {"Rabbit", `"Oh dear!"`}, {"Narrator", "Alice ran after it."}},
			want: []piece{{`"I'm late," `, "Rabbit", false}, {"said the Rabbit. ", "", false}, {`"Oh dear!" `, "Rabbit", false}, {"Alice ran after it.", "", false}},
		},
		{
			name: "quotation marks, case and punctuation the LLM changed still match",
			src:  src,
			segs: []ClassicSegment{{"Rabbit", "I’m LATE"}, {"narrator", "said the rabbit"}, {"Rabbit", "oh dear"}, {"narrator", "Alice ran after it"}},
			want: []piece{{`"I'm late," `, "Rabbit", false}, {"said the Rabbit. ", "", false}, {`"Oh dear!" `, "Rabbit", false}, {"Alice ran after it.", "", false}},
		},
		{
			name:    "text the LLM dropped between segments is narration",
			src:     src,
			segs:    []ClassicSegment{{"Rabbit", `"I'm late,"`}, {"Rabbit", `"Oh dear!"`}, {"narrator", "Alice ran after it."}},
			want:    []piece{{`"I'm late," `, "Rabbit", false}, {"said the Rabbit. ", "", true}, {`"Oh dear!" `, "Rabbit", false}, {"Alice ran after it.", "", false}},
			dropped: []string{"said the Rabbit."},
		},
		{
			name:     "a word skipped inside one segment stays in it",
			src:      src,
			segs:     []ClassicSegment{{"Rabbit", `"I'm late,"`}, {"narrator", "said Rabbit."}, {"Rabbit", `"Oh dear!"`}, {"narrator", "Alice ran after it."}},
			want:     []piece{{`"I'm late," `, "Rabbit", false}, {"said the Rabbit. ", "", false}, {`"Oh dear!" `, "Rabbit", false}, {"Alice ran after it.", "", false}},
			absorbed: []string{"the"},
		},
		{
			name:     "invented text is reported and discarded",
			src:      src,
			segs:     []ClassicSegment{{"Rabbit", `"I'm late, so very late,"`}, {"narrator", "said the Rabbit."}, {"Rabbit", `"Oh dear!"`}, {"narrator", "Alice ran after it."}},
			want:     []piece{{`"I'm late," `, "Rabbit", false}, {"said the Rabbit. ", "", false}, {`"Oh dear!" `, "Rabbit", false}, {"Alice ran after it.", "", false}},
			invented: []string{"so very late,\""},
		},
		{
			name:    "a segment fusing two quotations is cut at the narration between them, which the narrator reads",
			src:     src,
			segs:    []ClassicSegment{{"Rabbit", `"I'm late, Oh dear!"`}, {"narrator", "Alice ran after it."}},
			want:    []piece{{`"I'm late," `, "Rabbit", false}, {"said the Rabbit. ", "", true}, {`"Oh dear!" `, "Rabbit", false}, {"Alice ran after it.", "", false}},
			dropped: []string{"said the Rabbit."},
			fused:   []Fused{{Segment: 0, Speaker: "Rabbit", Places: 2}},
		},
		{
			name:     "words the answer has in another order are read once, in the source's order",
			src:      src,
			segs:     []ClassicSegment{{"narrator", "said the Rabbit."}, {"Rabbit", `"I'm late," "Oh dear!"`}, {"narrator", "Alice ran after it."}},
			want:     []piece{{`"I'm late," `, "", true}, {"said the Rabbit. ", "", false}, {`"Oh dear!" `, "Rabbit", false}, {"Alice ran after it.", "", false}},
			dropped:  []string{`"I'm late,"`},
			invented: []string{`"I'm late,"`},
		},
		{
			name:    "an empty answer leaves the whole chunk to the narrator",
			src:     src,
			segs:    nil,
			want:    []piece{{src, "", true}},
			dropped: []string{src},
		},
		{
			name:    "leading space joins the first piece and the source is covered",
			src:     "\n\n  \"Hush!\" said the King.",
			segs:    []ClassicSegment{{"King", "Hush!"}, {"narrator", "said the King."}},
			want:    []piece{{"\n\n  \"Hush!\" ", "King", false}, {"said the King.", "", false}},
			dropped: nil,
		},
		{
			name: "a source with no words is one piece",
			src:  "  \n",
			segs: []ClassicSegment{{"King", "Hush!"}},
			want: []piece{{"  \n", "", true}},
			// A whitespace source has nothing to read; the LLM's word is invented.
			invented: []string{"Hush!"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, rep := Align(tc.src, tc.segs)
			if !reflect.DeepEqual(pieces(tc.src, got), tc.want) {
				t.Errorf("pieces\n got %+v\nwant %+v", pieces(tc.src, got), tc.want)
			}
			checkCover(t, tc.src, got)
			if d := texts(rep.Dropped); !reflect.DeepEqual(d, orEmpty(tc.dropped)) {
				t.Errorf("dropped %q, want %q", d, tc.dropped)
			}
			if a := texts(rep.Absorbed); !reflect.DeepEqual(a, orEmpty(tc.absorbed)) {
				t.Errorf("absorbed %q, want %q", a, tc.absorbed)
			}
			if !reflect.DeepEqual(rep.Invented, orEmpty(tc.invented)) {
				t.Errorf("invented %q, want %q", rep.Invented, tc.invented)
			}
			if tc.fused == nil {
				tc.fused = []Fused{}
			}
			if !reflect.DeepEqual(rep.Fused, tc.fused) {
				t.Errorf("fused %+v, want %+v", rep.Fused, tc.fused)
			}
		})
	}
}

func checkCover(t *testing.T, src string, ps []Piece) {
	t.Helper()
	var b strings.Builder
	pos := 0
	for _, p := range ps {
		if p.Start != pos || p.End <= p.Start {
			t.Fatalf("pieces do not follow each other at %d: %+v", pos, ps)
		}
		b.WriteString(src[p.Start:p.End])
		pos = p.End
	}
	if b.String() != src {
		t.Fatalf("pieces cover %q, want %q", b.String(), src)
	}
}

func texts(rs []Range) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Text)
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestTrimDialogue(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		segs []ClassicSegment
		want []piece
	}{
		{
			name: "the space after a line goes to the narration after it",
			src:  `"I'm late," said the Rabbit.`,
			segs: []ClassicSegment{{"Rabbit", `"I'm late,"`}, {"narrator", "said the Rabbit."}},
			want: []piece{{`"I'm late,"`, "Rabbit", false}, {" said the Rabbit.", "", false}},
		},
		{
			name: "between two lines the space is narration of its own",
			src:  "\"Oh!\"\n\n\"Ah!\"\n",
			segs: []ClassicSegment{{"Rabbit", `"Oh!"`}, {"Alice", `"Ah!"`}},
			want: []piece{{"\"Oh!\"", "Rabbit", false}, {"\n\n", "", false}, {"\"Ah!\"", "Alice", false}, {"\n", "", false}},
		},
		{
			name: "space before the first line is narration",
			src:  "\n\n\"Hush!\" said the King.",
			segs: []ClassicSegment{{"King", "Hush!"}, {"narrator", "said the King."}},
			want: []piece{{"\n\n", "", false}, {"\"Hush!\"", "King", false}, {" said the King.", "", false}},
		},
		{
			name: "narration keeps its own space",
			src:  "She ran. \"Wait!\"",
			segs: []ClassicSegment{{"narrator", "She ran."}, {"Alice", "Wait!"}},
			want: []piece{{"She ran. ", "", false}, {"\"Wait!\"", "Alice", false}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, _ := Align(tc.src, tc.segs)
			got := TrimDialogue(tc.src, ps)
			checkCover(t, tc.src, got)
			if !reflect.DeepEqual(pieces(tc.src, got), tc.want) {
				t.Fatalf("pieces\n got %+v\nwant %+v", pieces(tc.src, got), tc.want)
			}
		})
	}
}

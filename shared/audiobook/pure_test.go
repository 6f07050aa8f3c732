package audiobook

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/store"
	"github.com/lectern/lectern/shared/voices"
)

func TestSuggest(t *testing.T) {
	lib := []voices.Voice{
		{ID: "ann", Name: "Ann", Gender: voices.GenderFemale, Age: voices.AgeYoung, Language: "en-gb"},
		{ID: "bea", Name: "Bea", Gender: voices.GenderFemale, Age: voices.AgeMiddleAged, Language: "en-us"},
		{ID: "cal", Name: "Cal", Gender: voices.GenderMale, Age: voices.AgeOld, Language: "en-us"},
		{ID: "dan", Name: "Dan", Gender: voices.GenderMale, Age: voices.AgeMiddleAged, Language: "fr-fr"},
		{ID: "eli", Name: "Eli", Gender: voices.GenderNeutral, Language: "en"},
	}
	first := func(s Suggestions) map[string]string {
		out := map[string]string{}
		for _, c := range s.Characters {
			if len(c.Voices) > 0 {
				out[c.Name] = c.Voices[0].VoiceID
			}
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		chars    []Character
		narrator string
		want     map[string]string
		ages     map[string]voices.Age
	}{
		{
			name:  "gender first, then the age the name tells",
			chars: []Character{{ID: "alice", Name: "Alice", Gender: "female", Aliases: []string{"Little Alice"}}, {ID: "old-tom", Name: "Old Tom", Gender: "male"}},
			want:  map[string]string{"Alice": "ann", "Old Tom": "cal"},
			ages:  map[string]voices.Age{"Alice": voices.AgeYoung, "Old Tom": voices.AgeOld},
		},
		{
			name:  "the second woman gets the other woman's voice, not the first's",
			chars: []Character{{ID: "a", Name: "Alice", Gender: "female"}, {ID: "q", Name: "The Queen", Gender: "female"}},
			// Alice (no age) takes the first by id; the Queen's age then picks
			// the other.
			want: map[string]string{"Alice": "ann", "The Queen": "bea"},
			ages: map[string]voices.Age{"Alice": "", "The Queen": voices.AgeMiddleAged},
		},
		{
			name:     "the narrator's voice is not a character's first pick",
			chars:    []Character{{ID: "a", Name: "Alice", Gender: "female"}},
			narrator: "bea",
			want:     map[string]string{"Alice": "ann"},
			ages:     map[string]voices.Age{"Alice": ""},
		},
		{
			name:  "an unknown gender prefers a neutral voice",
			chars: []Character{{ID: "c", Name: "Cheshire Cat"}},
			want:  map[string]string{"Cheshire Cat": "eli"},
			ages:  map[string]voices.Age{"Cheshire Cat": ""},
		},
		{
			name:  "a man's voice in English before one in French",
			chars: []Character{{ID: "h", Name: "Hatter", Gender: "male"}, {ID: "k", Name: "King", Gender: "male"}},
			want:  map[string]string{"Hatter": "cal", "King": "dan"},
			ages:  map[string]voices.Age{"Hatter": "", "King": voices.AgeMiddleAged},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Suggest(tc.chars, lib, tc.narrator)
			if got := first(s); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("first picks %v, want %v", got, tc.want)
			}
			for _, c := range s.Characters {
				if c.Age != tc.ages[c.Name] || len(c.Voices) != perCharacter {
					t.Errorf("%s: age %q (want %q), %d voices", c.Name, c.Age, tc.ages[c.Name], len(c.Voices))
				}
			}
			if len(s.Narrator) != perCharacter {
				t.Errorf("narrator suggestions %+v", s.Narrator)
			}
		})
	}
	if s := Suggest([]Character{{ID: "a", Name: "A"}}, nil, ""); len(s.Characters) != 1 || len(s.Characters[0].Voices) != 0 || len(s.Narrator) != 0 {
		t.Errorf("an empty library: %+v", s)
	}
}

func TestChunks(t *testing.T) {
	para := strings.Repeat("word ", 10) // 50 bytes
	text := para + "\n\n" + para + "\n\n" + strings.Repeat("x", 70) + " " + para
	for _, tc := range []struct {
		name       string
		start, end int
		size       int
		want       []string
	}{
		{"a short stretch is one chunk", 0, 50, 100, []string{para}},
		{"chunks end at a paragraph break", 0, 104, 110, []string{para + "\n\n" + para + "\n\n"}},
		{"a stretch over the size ends at the last break within it", 0, 174, 100, []string{para + "\n\n", para + "\n\n", strings.Repeat("x", 70)}},
		{"without a break, at the last space within the size", 104, 225, 90, []string{strings.Repeat("x", 70) + " word word word ", strings.Repeat("word ", 7)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			pos := tc.start
			for _, c := range chunks(text, tc.start, tc.end, tc.size) {
				if c[0] != pos || c[1]-c[0] > tc.size {
					t.Fatalf("chunk %v after %d (size %d)", c, pos, tc.size)
				}
				got = append(got, text[c[0]:c[1]])
				pos = c[1]
			}
			if pos != tc.end || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("chunks %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseClassic(t *testing.T) {
	want := []ClassicSegment{{Speaker: "Alice", Text: `"Oh!"`}, {Speaker: "narrator", Text: "she said."}}
	body := `{"segments":[{"speaker":"Alice","text":"\"Oh!\""},{"speaker":"narrator","text":"she said."}]}`
	for _, tc := range []struct {
		name string
		raw  string
		ok   bool
	}{
		{"plain JSON", body, true},
		{"in a code fence", "```json\n" + body + "\n```", true},
		{"with prose around it", "Here you go: " + body + " Hope that helps.", true},
		{"a bare array", `[{"speaker":"Alice","text":"\"Oh!\""},{"speaker":"narrator","text":"she said."}]`, true},
		{"not JSON", "I cannot do that.", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parseClassic(tc.raw)
			if ok != tc.ok || (ok && !reflect.DeepEqual(got, want)) {
				t.Fatalf("parseClassic = %+v, %v", got, ok)
			}
		})
	}
}

// segs makes n dialogue segments of chapter 0 whose speakers say i.
func segs(n int, speaker func(i int) string) []Segment {
	out := make([]Segment, n)
	for i := range out {
		out[i] = Segment{ID: fmt.Sprintf("c00-s%04d", i), Chapter: 0, Start: i, End: i + 1, Kind: KindDialogue, Speaker: speaker(i)}
	}
	return out
}

func TestSegmentWrites(t *testing.T) {
	alice := func(int) string { return "Alice" }
	fresh, err := segmentWrites("b1", segmentItems{}, segs(1001, alice))
	if err != nil || len(fresh) != 3 || fresh[2].Item.SK != "SEG#0002" || fresh[0].Cond != store.IfAbsent() {
		t.Fatalf("1,001 new segments: %d writes, %v", len(fresh), err)
	}
	var stored segmentItems
	stored.segs = segs(1001, alice)
	stored.versions = []int64{4, 7, 2}
	// One speaker changed in the second item: only that item is written.
	changed := segs(1001, func(i int) string {
		if i == 700 {
			return "Hatter"
		}
		return "Alice"
	})
	ws, err := segmentWrites("b1", stored, changed)
	if err != nil || len(ws) != 1 || ws[0].Item.SK != "SEG#0001" || ws[0].Cond != store.IfVersion(7) || ws[0].Item.Version != 8 {
		t.Fatalf("one change: %+v, %v", ws, err)
	}
	// Fewer segments: the items no longer needed are deleted.
	ws, err = segmentWrites("b1", stored, segs(400, alice))
	if err != nil || len(ws) != 3 || ws[1].Op != store.OpDelete || ws[2].Op != store.OpDelete || ws[2].Cond != store.IfVersion(2) {
		t.Fatalf("shrunk: %+v, %v", ws, err)
	}
	if _, err := segmentWrites("b1", segmentItems{}, segs(MaxSegments+1, alice)); err == nil {
		t.Fatal("more than MaxSegments segments were accepted")
	}
	// A full item of the longest names stays far under DynamoDB's 400 KB.
	long := strings.Repeat("n", 200)
	full := segs(SegmentsPerItem, func(int) string { return long })
	for i := range full {
		full[i].SpanID, full[i].Other, full[i].Source, full[i].Mark, full[i].Confidence = full[i].ID, long, "llm", "disputed", 0.485
		full[i].Start, full[i].End = 4_999_000, 4_999_999
	}
	ws, _ = segmentWrites("b1", segmentItems{}, full)
	if n := len(ws[0].Item.Data); n > 300_000 {
		t.Fatalf("a full item of long names is %d bytes", n)
	}
}

func TestKeepHand(t *testing.T) {
	stored := []Segment{
		{ID: "c00-s0001", Start: 10, End: 20, Kind: KindDialogue, Speaker: "Hatter", Source: SourceHand, Confidence: 1},
		{ID: "c00-k0003", Start: 40, End: 50, Kind: KindDialogue, Speaker: "Queen", Source: SourceHand, Confidence: 1},
		{ID: "c00-s0005", Start: 60, End: 70, Kind: KindDialogue, Speaker: "Alice", Source: "llm"},
	}
	cast := []Segment{
		{ID: "c00-s0001", Start: 10, End: 20, Kind: KindDialogue, Speaker: "Alice", Source: "llm", Mark: "disputed", Other: "Hatter"},
		{ID: "c00-s0003", Start: 40, End: 50, Kind: KindDialogue, Speaker: "Alice", Source: "explicit"},
		{ID: "c00-s0005", Start: 60, End: 70, Kind: KindDialogue, Speaker: "Duchess", Source: "llm"},
		{ID: "c00-s0006", Start: 70, End: 80, Kind: KindNarration},
	}
	kept, got := keepHand(cast, handSet(stored))
	want := []Segment{
		{ID: "c00-s0001", Start: 10, End: 20, Kind: KindDialogue, Speaker: "Hatter", Source: SourceHand, Confidence: 1},
		{ID: "c00-s0003", Start: 40, End: 50, Kind: KindDialogue, Speaker: "Queen", Source: SourceHand, Confidence: 1},
		{ID: "c00-s0005", Start: 60, End: 70, Kind: KindDialogue, Speaker: "Duchess", Source: "llm"},
		{ID: "c00-s0006", Start: 70, End: 80, Kind: KindNarration},
	}
	if kept != 2 || !reflect.DeepEqual(got, want) {
		t.Fatalf("keepHand = %d %+v", kept, got)
	}
}

func TestVoicedChapters(t *testing.T) {
	text := "CHAPTER I.\n\n\"Hi,\" said Alice. \"Off!\"\n\nCHAPTER II.\n\n"
	b := Book{Chapters: []Chapter{{Index: 0, Title: "CHAPTER I.", Start: 0, End: 38}, {Index: 1, Title: "CHAPTER II.", Start: 38, End: len(text)}}}
	sg := []Segment{
		{Chapter: 0, Start: 0, End: 12, Kind: KindNarration},
		{Chapter: 0, Start: 12, End: 17, Kind: KindDialogue, Speaker: "Alice"},
		{Chapter: 0, Start: 17, End: 30, Kind: KindNarration},
		{Chapter: 0, Start: 30, End: 36, Kind: KindDialogue, Speaker: "Queen"},
		{Chapter: 0, Start: 36, End: 38, Kind: KindNarration},
		{Chapter: 1, Start: 38, End: len(text), Kind: KindNarration},
	}
	got := voicedChapters(b, text, sg, map[string]string{"Alice": "v-alice"})
	want := []speechChapter{
		{Title: "CHAPTER I.", Segments: []speechSegment{
			{Text: "CHAPTER I.\n\n"}, {VoiceID: "v-alice", Text: `"Hi,"`}, {Text: " said Alice. "}, {Text: `"Off!"`},
		}},
		{Title: "CHAPTER II.", Segments: []speechSegment{{Text: "CHAPTER II.\n\n"}}},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		t.Fatalf("voicedChapters = %s", g)
	}
}

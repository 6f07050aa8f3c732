package magazine

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestImageID(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want RegionRef
		ok   bool
	}{
		{"3-p1", RegionRef{Page: 3, Region: "p1"}, true},
		{"12-r-4.b", RegionRef{Page: 12, Region: "r-4.b"}, true},
		{"p1", RegionRef{}, false},
		{"0-p1", RegionRef{}, false},
		{"03-p1", RegionRef{}, false},
		{"3-", RegionRef{}, false},
		{"-p1", RegionRef{}, false},
		{"x-p1", RegionRef{}, false},
	} {
		got, err := ParseImageID(tc.id)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseImageID(%q) = %+v, %v; want %+v, ok %v", tc.id, got, err, tc.want, tc.ok)
		}
		if tc.ok && ImageID(got) != tc.id {
			t.Errorf("ImageID(%+v) = %q, want %q", got, ImageID(got), tc.id)
		}
	}
}

func TestDescribePromptIsChosenByVisualKind(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Region
		want []string
	}{
		{"a chart asks what is measured and its trend", Region{Kind: KindChart, VisualKind: KindChart}, []string{"chart", "measures", "trend"}},
		{"a table asks for its headings and what stands out", Region{Kind: KindTable}, []string{"table", "headings", "stands out"}},
		{"code asks what it does", Region{Kind: KindCode}, []string{"program code", "what the code does"}},
		{"a plain image is a figure", Region{Kind: KindImage}, []string{"figure", "what it shows"}},
		{"the visual kind wins over the region kind", Region{Kind: KindImage, VisualKind: KindChart}, []string{"chart", "trend"}},
	} {
		p := DescribePrompt(DescribeKind(tc.r))
		for _, w := range tc.want {
			if !strings.Contains(p, w) {
				t.Errorf("%s: prompt %q lacks %q", tc.name, p, w)
			}
		}
		if !strings.Contains(p, "one or two short sentences of plain text for a listener") {
			t.Errorf("%s: prompt %q does not ask for one or two sentences for a listener", tc.name, p)
		}
	}
}

func TestSentences(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want int
	}{
		{"empty", "", 0},
		{"one without a stop", "A pier at dawn", 1},
		{"two", "A pier at dawn. Gulls circle it.", 2},
		{"questions and exclamations", "Is it rising? Yes! It doubles.", 3},
		{"decimals do not end one", "Sales rose 3.5 percent in 2024.", 1},
		{"abbreviations do not end one", "Rainfall, e.g. in March, vs. April. Dr. Smith measured it.", 2},
		{"an initial does not end one", "A portrait of J. Smith at work.", 1},
		{"a lower-case word continues it", "Approx. three boats. More follow.", 2},
		{"closing quotes stay with their sentence", `The sign reads "Closed." Nobody is there.`, 2},
		{"an ellipsis ends one", "It goes on… Then it stops.", 2},
	} {
		if got := Sentences(tc.text); len(got) != tc.want {
			t.Errorf("%s: Sentences(%q) = %q, want %d", tc.name, tc.text, got, tc.want)
		}
	}
}

func TestCleanDescription(t *testing.T) {
	long := "Then " + strings.Repeat("word ", 120) + "end."
	for _, tc := range []struct {
		name   string
		answer string
		want   string
	}{
		{"plain text stays", "A pier at dawn.", "A pier at dawn."},
		{"a third sentence is cut at the sentence boundary", "The chart measures rainfall. It rises each year. Sources vary. Ask.",
			"The chart measures rainfall. It rises each year."},
		{"fences, labels and quotes go", "```text\nDescription: \"A table of permits by state. Texas leads.\"\n```", "A table of permits by state. Texas leads."},
		{"markdown emphasis and list marks go", "- **Chart:** rainfall by month.\n- It peaks in *March*.", "Chart: rainfall by month. It peaks in March."},
		{"a reasoning block goes", "<think>the user wants…</think>\nA lighthouse at night.", "A lighthouse at night."},
		{"whitespace collapses", "  A   pier\n\nat dawn.  ", "A pier at dawn."},
		{"only a label is empty", "Description:", ""},
		{"empty is empty", "   \n", ""},
		{"a label word inside the text stays", "The caption: a pier.", "The caption: a pier."},
	} {
		if got := CleanDescription(tc.answer); got != tc.want {
			t.Errorf("%s: CleanDescription(%q) = %q, want %q", tc.name, tc.answer, got, tc.want)
		}
	}
	t.Run("a long first sentence is cut at a word boundary within the limit", func(t *testing.T) {
		got := CleanDescription(long)
		if utf8.RuneCountInString(got) > MaxDescriptionRunes || !strings.HasSuffix(got, "word…") || strings.Contains(got, "wor…") {
			t.Fatalf("cut to %d runes: %q", utf8.RuneCountInString(got), got)
		}
	})
	t.Run("a long second sentence is dropped at the sentence boundary", func(t *testing.T) {
		got := CleanDescription("A short first sentence. " + long)
		if got != "A short first sentence." {
			t.Fatalf("got %q", got)
		}
	})
}

func TestCheckDescription(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		ok   bool
	}{
		{"clearing is allowed", "", true},
		{"one sentence", "A pier at dawn.", true},
		{"two sentences", "A pier at dawn. Gulls circle it.", true},
		{"three sentences are refused", "A pier. Gulls. Dawn.", false},
		{"over the length limit is refused", strings.Repeat("a", MaxDescriptionRunes+1), false},
	} {
		if err := CheckDescription(tc.text); (err == nil) != tc.ok {
			t.Errorf("%s: CheckDescription = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

func TestReadingSequencePlacesListedPicturesWhereTheyOccur(t *testing.T) {
	ref := func(page int, id string) RegionRef { return RegionRef{Page: page, Region: id} }
	pages := map[int]Page{
		1: {Number: 1, Order: []string{"h", "fig", "a", "chart", "b"}},
		2: {Number: 2, Order: []string{"pic", "c"}},
	}
	for _, tc := range []struct {
		name string
		a    Article
		want []RegionRef
	}{
		{"regions alone stay as they are", Article{Regions: []RegionRef{ref(1, "h"), ref(1, "a")}},
			[]RegionRef{ref(1, "h"), ref(1, "a")}},
		{"a picture among the regions is not added twice", Article{Regions: []RegionRef{ref(1, "h"), ref(1, "fig"), ref(1, "a")}, Images: []RegionRef{ref(1, "fig")}},
			[]RegionRef{ref(1, "h"), ref(1, "fig"), ref(1, "a")}},
		{"listed pictures go after the region read before them", Article{Regions: []RegionRef{ref(1, "h"), ref(1, "a"), ref(1, "b"), ref(2, "c")}, Images: []RegionRef{ref(2, "pic"), ref(1, "chart"), ref(1, "fig")}},
			[]RegionRef{ref(1, "h"), ref(1, "fig"), ref(1, "a"), ref(1, "chart"), ref(1, "b"), ref(2, "pic"), ref(2, "c")}},
		{"a picture read before every region comes first", Article{Regions: []RegionRef{ref(1, "a")}, Images: []RegionRef{ref(1, "fig")}},
			[]RegionRef{ref(1, "fig"), ref(1, "a")}},
		{"a picture that no longer exists is left out", Article{Regions: []RegionRef{ref(1, "a")}, Images: []RegionRef{ref(1, "gone")}},
			[]RegionRef{ref(1, "a")}},
	} {
		if got := ReadingSequence(tc.a, pages); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

package podcast

import (
	"errors"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/fault"
)

var testHosts = [2]Host{{Name: "Ada", VoiceID: "v-ada"}, {Name: "Ben", VoiceID: "v-ben"}}

// longParagraph has 5 sentences of 40 words: over MaxTurnWords, so it is split.
func longParagraph() string {
	sentence := strings.TrimSpace(strings.Repeat("word ", 39)) + " end."
	return strings.TrimSpace(strings.Repeat(sentence+" ", 5))
}

func TestDeterministicScript(t *testing.T) {
	tests := []struct {
		name        string
		article     Article
		wantIntro   string
		wantClosing string
		wantTurns   int
	}{
		{
			name:        "title and byline make the introduction",
			article:     Article{Title: "The Bridge", Byline: "Jo Park", Paragraphs: []string{"One.", "Two.", "Three."}},
			wantIntro:   "Welcome. Today: The Bridge, by Jo Park.",
			wantClosing: "That was The Bridge. Thanks for listening.",
			wantTurns:   5,
		},
		{
			name:        "no byline leaves the byline out",
			article:     Article{Title: "The Bridge.", Paragraphs: []string{"One."}},
			wantIntro:   "Welcome. Today: The Bridge.",
			wantClosing: "That was The Bridge. Thanks for listening.",
			wantTurns:   3,
		},
		{
			name:        "blank paragraphs are skipped",
			article:     Article{Title: "T", Paragraphs: []string{"One.", "  ", "Two."}},
			wantIntro:   "Welcome. Today: T.",
			wantClosing: "That was T. Thanks for listening.",
			wantTurns:   4,
		},
		{
			name:        "a long paragraph is split into turns of the same host",
			article:     Article{Title: "Long", Paragraphs: []string{"Short first.", longParagraph(), "Short last."}},
			wantIntro:   "Welcome. Today: Long.",
			wantClosing: "That was Long. Thanks for listening.",
			wantTurns:   1 + 1 + 2 + 1 + 1, // 200 words in pieces of at most 150
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script, err := DeterministicScript(tt.article, testHosts)
			if err != nil {
				t.Fatal(err)
			}
			if script.Hosts != testHosts || script.Title != tt.article.Title {
				t.Errorf("title/hosts = %q/%v", script.Title, script.Hosts)
			}
			if len(script.Turns) != tt.wantTurns {
				t.Fatalf("got %d turns, want %d: %+v", len(script.Turns), tt.wantTurns, script.Turns)
			}
			intro, last := script.Turns[0], script.Turns[len(script.Turns)-1]
			if intro.Host != 0 || intro.Text != tt.wantIntro || len(intro.Source) != 0 {
				t.Errorf("introduction = %+v, want host 0 %q", intro, tt.wantIntro)
			}
			if last.Host != 1 || last.Text != tt.wantClosing || len(last.Source) != 0 {
				t.Errorf("closing = %+v, want host 1 %q", last, tt.wantClosing)
			}
			checkCoverage(t, tt.article, script.Turns[1:len(script.Turns)-1])
		})
	}
}

// checkCoverage asserts every non-blank paragraph is spoken exactly once,
// verbatim and in order, by one host, with the hosts alternating between
// paragraphs.
func checkCoverage(t *testing.T, article Article, body []Turn) {
	t.Helper()
	spoken := map[int]*strings.Builder{}
	hostOf := map[int]int{}
	var order []int
	for _, turn := range body {
		if len(turn.Source) != 1 {
			t.Fatalf("turn %+v: want exactly one source paragraph", turn)
		}
		i := turn.Source[0]
		if spoken[i] == nil {
			spoken[i] = &strings.Builder{}
			hostOf[i] = turn.Host
			order = append(order, i)
		} else if order[len(order)-1] != i || hostOf[i] != turn.Host {
			t.Errorf("paragraph %d is not spoken in consecutive turns of one host", i)
		}
		spoken[i].WriteString(turn.Text)
	}
	previous := -1
	for i, paragraph := range article.Paragraphs {
		if strings.TrimSpace(paragraph) == "" {
			if spoken[i] != nil {
				t.Errorf("blank paragraph %d is spoken", i)
			}
			continue
		}
		if spoken[i] == nil {
			t.Errorf("paragraph %d is not spoken", i)
			continue
		}
		if got := spoken[i].String(); got != paragraph {
			t.Errorf("paragraph %d spoken as %q, want %q", i, got, paragraph)
		}
		if previous >= 0 && hostOf[previous] == hostOf[i] {
			t.Errorf("paragraphs %d and %d have the same host", previous, i)
		}
		previous = i
	}
	for k := 1; k < len(order); k++ {
		if order[k] <= order[k-1] {
			t.Errorf("paragraphs out of order: %v", order)
		}
	}
}

func TestDeterministicScriptRefusesEmptyArticle(t *testing.T) {
	tests := []struct {
		name    string
		article Article
	}{
		{"no paragraphs", Article{Title: "Empty"}},
		{"only blank paragraphs", Article{Title: "Blank", Paragraphs: []string{"", " \n "}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DeterministicScript(tt.article, testHosts)
			if !errors.Is(err, ErrEmptyArticle) || fault.KindOf(err) != fault.Invalid {
				t.Fatalf("err = %v, want ErrEmptyArticle (invalid)", err)
			}
		})
	}
}

func TestSplitLongParagraph(t *testing.T) {
	tests := []struct {
		name       string
		paragraph  string
		maxWords   int
		wantPieces int
	}{
		{"short paragraph stays whole", "One two. Three four.", 10, 1},
		{"split at sentence ends", "One two. Three four! Five six? Seven eight.", 4, 2},
		{"closing quotes stay with their sentence", `He said "go." She went. They left.`, 4, 2},
		{"one long sentence stays whole", "one two three four five six", 3, 1},
		{"irregular spacing is kept exactly", "One two.\n  Three four.   Five six.", 2, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pieces := splitLongParagraph(tt.paragraph, tt.maxWords)
			if len(pieces) != tt.wantPieces {
				t.Errorf("got %d pieces %q, want %d", len(pieces), pieces, tt.wantPieces)
			}
			if joined := strings.Join(pieces, ""); joined != tt.paragraph {
				t.Errorf("pieces join to %q, want %q", joined, tt.paragraph)
			}
		})
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"empty text takes no time", EstimateSeconds(""), 0},
		{"150 words take a minute", EstimateSeconds(strings.Repeat("word ", 150)), 60},
		{"75 words take half a minute", EstimateSeconds(strings.Repeat("word\n", 75)), 30},
		{"ten minutes hold 1500 words", float64(MaxWords(10)), 1500},
		{"half a minute holds 75 words", float64(MaxWords(0.5)), 75},
		{"no target holds no words", float64(MaxWords(0)), 0},
		{"a negative target holds no words", float64(MaxWords(-3)), 0},
		{"a script sums its turns", Script{Turns: []Turn{
			{Text: strings.Repeat("a ", 100)}, {Host: 1, Text: strings.Repeat("b ", 50)},
		}}.EstimatedSeconds(), 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}

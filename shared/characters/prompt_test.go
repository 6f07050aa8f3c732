package characters

import (
	"strings"
	"testing"
)

func TestPromptBuilder(t *testing.T) {
	knave := Inputs{Name: "Knave of Hearts", Physical: "tall and thin, a scar across his cheek, dark hair",
		Clothing: "crimson tabard with a high collar and gold hearts, white hose, black boots, a feathered cap, carrying a halberd"}
	for _, tc := range []struct {
		name     string
		kind     Kind
		in       Inputs
		desc     *Description
		passage  string
		prefix   string
		want     []string
		wantNot  []string
		maxWords int
	}{
		{name: "portrait framing comes first", kind: KindAvatar,
			in:     Inputs{Name: "The White Rabbit", Physical: "pink eyes", Clothing: "waistcoat, white kid gloves"},
			prefix: "head-and-shoulders portrait, The White Rabbit, ", want: []string{"pink eyes", "waistcoat"}, maxWords: MaxShortWords},
		{name: "turnaround framing comes first", kind: KindTurnaround,
			in:     Inputs{Name: "The Duchess", Physical: "sharp little chin"},
			prefix: "character turnaround sheet, front, side and back, full body, The Duchess, ", maxWords: MaxShortWords},
		{name: "concept framing comes first", kind: KindConcept, in: Inputs{Name: "Alice"}, prefix: "full-body concept art, Alice"},
		{name: "story framing then the passage", kind: KindStory, in: Inputs{Name: "Alice", Physical: "long fair hair"},
			passage: "Alice was beginning to get very tired of sitting by her sister on the bank",
			prefix:  "story illustration, Alice was beginning to get very tired", want: []string{"long fair hair"}},
		{name: "scar wording is left out", kind: KindAvatar,
			in:   Inputs{Name: "Bill", Physical: "green scales, a scar over one eye; scarred snout, small claws"},
			want: []string{"green scales", "small claws"}, wantNot: []string{"scar"}},
		{name: "passing moods are left out", kind: KindConcept,
			in:   Inputs{Name: "The Mock Turtle", Physical: "large eyes, tearful and sad, smiling faintly, heavy shell"},
			want: []string{"large eyes", "heavy shell"}, wantNot: []string{"tearful", "sad", "smiling"}},
		{name: "gestures are left out", kind: KindTurnaround,
			in:   Inputs{Name: "The Queen", Physical: "round face, arms folded, pointing at the gardeners", Clothing: "red gown, waving a fan"},
			want: []string{"round face", "red gown"}, wantNot: []string{"arms folded", "pointing", "waving"}},
		{name: "armed: the costume's cut and colours are kept in a short prompt", kind: KindAvatar, in: knave,
			want:    []string{"crimson tabard with a high collar and gold hearts", "white hose", "black boots", "a feathered cap", "carrying a halberd"},
			wantNot: []string{"scar"}, maxWords: MaxShortWords},
		{name: "armed: the turnaround keeps the costume and the weapon", kind: KindTurnaround, in: knave,
			want: []string{"crimson tabard with a high collar and gold hearts", "white hose", "black boots", "carrying a halberd"}, maxWords: MaxShortWords},
		{name: "unarmed: a short prompt keeps the first costume clauses", kind: KindAvatar,
			in:   Inputs{Name: "The Hatter", Clothing: "tall hat with a price ticket, green coat, spotted bow tie, check trousers"},
			want: []string{"tall hat with a price ticket", "green coat"}, wantNot: []string{"check trousers"}, maxWords: MaxShortWords},
		{name: "visual overrides win over the text", kind: KindAvatar,
			in:   Inputs{Name: "Alice", Physical: "long fair hair, bright eager eyes", Visual: Visual{Hair: "golden", Style: "watercolour", Palette: "blue and white"}},
			want: []string{"golden hair", "bright eager eyes", "watercolour", "costume colours blue and white"}, wantNot: []string{"fair hair", DefaultStyle}},
		{name: "overrides are kept whole in a short prompt", kind: KindAvatar,
			in: Inputs{Name: "The White Rabbit", Physical: "pink eyes, long ears, white fur, twitching nose",
				Clothing: "waistcoat with a watch, white kid gloves, a large fan, a herald's trumpet", Visual: Visual{Palette: "red and white", Skin: "snowy", Build: "slight"}},
			want:    []string{"costume colours red and white", "snowy skin", "slight build", "waistcoat with a watch"},
			wantNot: []string{"trumpet"}, maxWords: MaxShortWords},
		{name: "the vision description rebuilds hair and eyes of a turnaround", kind: KindTurnaround,
			in:   Inputs{Name: "The Hatter", Physical: "dark hair, large eyes, pale face"},
			desc: &Description{Hair: "wild orange", FacialHair: "none", Eyes: "green"},
			want: []string{"wild orange hair", "green eyes", "pale face"}, wantNot: []string{"dark hair", "large eyes", "none"}},
		{name: "the portrait keeps the text's hair whatever the description", kind: KindAvatar,
			in:   Inputs{Name: "The Hatter", Physical: "dark hair"},
			desc: &Description{Hair: "wild orange", Eyes: "green"}, want: []string{"dark hair"}, wantNot: []string{"orange"}},
		{name: "a long description is cut to a short portrait", kind: KindAvatar,
			in:       Inputs{Name: "Giant", Physical: strings.Repeat("enormous gnarled hands with knobbly knuckles and very long fingers, ", 12)},
			maxWords: MaxShortWords},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Prompt(tc.kind, tc.in, tc.desc, tc.passage)
			if !strings.HasPrefix(p, framing[tc.kind]+", ") {
				t.Errorf("prompt does not open with its framing %q: %s", framing[tc.kind], p)
			}
			if tc.prefix != "" && !strings.HasPrefix(p, tc.prefix) {
				t.Errorf("prompt\n %s\ndoes not start with\n %s", p, tc.prefix)
			}
			for _, w := range tc.want {
				if !strings.Contains(p, w) {
					t.Errorf("prompt lacks %q: %s", w, p)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(strings.ToLower(p), strings.ToLower(w)) {
					t.Errorf("prompt has %q: %s", w, p)
				}
			}
			if tc.maxWords > 0 && wordCount(p) > tc.maxWords {
				t.Errorf("prompt has %d words, more than %d: %s", wordCount(p), tc.maxWords, p)
			}
			if again := Prompt(tc.kind, tc.in, tc.desc, tc.passage); again != p {
				t.Errorf("not deterministic:\n%s\n%s", p, again)
			}
		})
	}
}

func TestArmed(t *testing.T) {
	for in, want := range map[Inputs]bool{
		{Clothing: "tabard, carrying a halberd"}: true,
		{Physical: "a sword at his hip"}:         true,
		{Clothing: "white kid gloves, a fan"}:    false,
		{Clothing: "a bow tie"}:                  false,
	} {
		if got := Armed(in); got != want {
			t.Errorf("Armed(%+v) = %v", in, got)
		}
	}
}

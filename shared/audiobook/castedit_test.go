package audiobook

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/lectern/lectern/shared/audiobook/cast"
)

func TestReattribute(t *testing.T) {
	chars := []cast.Character{{ID: "lady-ross", Name: "Lady Ross"}, {ID: "tom", Name: "Tom"}}
	rename := map[string]string{"Hetty": "Lady Ross"}
	line := func(id, speaker, source string) Segment {
		return Segment{ID: id, Kind: KindDialogue, Speaker: speaker, Source: source}
	}
	cases := []struct {
		name    string
		seg     Segment
		rule    *cast.Attribution // nil: the rules have no answer for the span (classic mode)
		want    Segment
		changed bool
	}{
		{name: "a rule line takes the new rule answer",
			seg:  line("s1", "Tom", "turn"),
			rule: &cast.Attribution{SpanID: "s1", Speaker: "Lady Ross", Source: cast.SourceExplicit, Confidence: 0.95},
			want: Segment{ID: "s1", Kind: KindDialogue, Speaker: "Lady Ross", Source: "explicit", Confidence: 0.95}, changed: true},
		{name: "a merged-away speaker is renamed even where the rules give no answer",
			seg:  line("s2", "Hetty", "classic"),
			want: line("s2", "Lady Ross", "classic"), changed: true},
		{name: "a hand-set line keeps its speaker, renamed",
			seg:  line("s3", "Hetty", SourceHand),
			rule: &cast.Attribution{SpanID: "s3", Speaker: "Tom", Source: cast.SourceExplicit},
			want: line("s3", "Lady Ross", SourceHand), changed: true},
		{name: "a hand-set line is not moved by the rules",
			seg:  line("s4", "Tom", SourceHand),
			rule: &cast.Attribution{SpanID: "s4", Speaker: "Lady Ross", Source: cast.SourceExplicit},
			want: line("s4", "Tom", SourceHand)},
		{name: "an LLM answer whose speaker is in the cast is kept over a weaker rule",
			seg:  line("s5", "Tom", "llm"),
			rule: &cast.Attribution{SpanID: "s5", Speaker: "Lady Ross", Source: cast.SourceTurn, Confidence: 0.5},
			want: line("s5", "Tom", "llm")},
		{name: "an LLM answer gives way to an explicit tag",
			seg:  line("s6", "Tom", "llm"),
			rule: &cast.Attribution{SpanID: "s6", Speaker: "Lady Ross", Source: cast.SourceExplicit, Confidence: 0.95},
			want: Segment{ID: "s6", Kind: KindDialogue, Speaker: "Lady Ross", Source: "explicit", Confidence: 0.95}, changed: true},
		{name: "an LLM answer whose speaker left the cast takes the rules' answer",
			seg:  line("s7", "Gone", "llm"),
			rule: &cast.Attribution{SpanID: "s7", Source: cast.SourceNone},
			want: line("s7", "", "none"), changed: true},
		{name: "a verify mark stays when the speaker does not change",
			seg:  Segment{ID: "s8", Kind: KindDialogue, Speaker: "Tom", Source: "pronoun", Mark: "agreed", Confidence: cast.ConfidenceAgreed},
			rule: &cast.Attribution{SpanID: "s8", Speaker: "Tom", Source: cast.SourcePronoun, Confidence: 0.7},
			want: Segment{ID: "s8", Kind: KindDialogue, Speaker: "Tom", Source: "pronoun", Mark: "agreed", Confidence: cast.ConfidenceAgreed}},
		{name: "a verify mark goes when the speaker changes",
			seg:  Segment{ID: "s9", Kind: KindDialogue, Speaker: "Tom", Source: "pronoun", Mark: "disputed", Other: "Hetty", Confidence: cast.ConfidenceDisputed},
			rule: &cast.Attribution{SpanID: "s9", Speaker: "Lady Ross", Source: cast.SourcePronoun, Confidence: 0.7},
			want: Segment{ID: "s9", Kind: KindDialogue, Speaker: "Lady Ross", Source: "pronoun", Confidence: 0.7}, changed: true},
		{name: "narration is left alone",
			seg:  Segment{ID: "s10", Kind: KindNarration},
			rule: &cast.Attribution{SpanID: "s10", Speaker: "Tom"},
			want: Segment{ID: "s10", Kind: KindNarration}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var att []cast.Attribution
			if tc.rule != nil {
				att = append(att, *tc.rule)
			}
			got, changed := reattribute([]Segment{tc.seg}, att, chars, rename)
			if !reflect.DeepEqual(got[0], tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got[0], tc.want)
			}
			if (changed == 1) != tc.changed {
				t.Fatalf("changed %d, want %v", changed, tc.changed)
			}
		})
	}
}

func TestCastWritesLetVoicesFollowAMerge(t *testing.T) {
	stored := []Character{
		{ID: "lady-ross", Name: "Lady Ross", Aliases: []string{}, Version: 3},
		{ID: "hetty", Name: "Hetty", Aliases: []string{}, VoiceID: "ann", Version: 2},
		{ID: "tom", Name: "Tom", Aliases: []string{}, VoiceID: "cal", Version: 1},
	}
	next := []cast.Character{{ID: "lady-ross", Name: "Lady Ross", Aliases: []string{"Hetty"}}, {ID: "tom", Name: "Tom", Aliases: []string{}}}
	puts, dels := castWrites("b1", stored, next, map[string]string{"Hetty": "Lady Ross"})
	if len(puts) != 1 || len(dels) != 1 || dels[0].Item.SK != charPrefix+"hetty" || dels[0].Cond.Version != 2 {
		t.Fatalf("puts %+v dels %+v: want Lady Ross put and Hetty deleted on version 2", puts, dels)
	}
	var c Character
	if err := json.Unmarshal(puts[0].Item.Data, &c); err != nil {
		t.Fatal(err)
	}
	if c.VoiceID != "ann" || puts[0].Item.Version != 4 || puts[0].Cond.Version != 3 || !reflect.DeepEqual(c.Aliases, []string{"Hetty"}) {
		t.Fatalf("Lady Ross %+v (item version %d on %d): want Hetty's voice, version 4 on 3", c, puts[0].Item.Version, puts[0].Cond.Version)
	}
	// The kept character keeps its own voice.
	stored[0].VoiceID = "bea"
	puts, _ = castWrites("b1", stored, next, map[string]string{"Hetty": "Lady Ross"})
	if err := json.Unmarshal(puts[0].Item.Data, &c); err != nil || c.VoiceID != "bea" {
		t.Fatalf("Lady Ross %+v: want her own voice bea", c)
	}
}

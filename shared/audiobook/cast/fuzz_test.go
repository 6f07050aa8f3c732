package cast

import (
	"context"
	"testing"
	"unicode/utf8"
)

// FuzzAttribution feeds any text through the splitter, extraction, rules
// and an LLM pass: nothing panics, every dialogue span gets one
// attribution, and every speaker is a cast name.
func FuzzAttribution(f *testing.F) {
	for _, seed := range []string{
		`"Good morning," said Alice. "How are you?"` + "\n\n" + `"Well," the Queen replied.`,
		`'My dear Mr. Bennet,' said his lady to him one day, 'have you heard?'` + "\n\n" + `'But it is,' returned she.`,
		`"Unclosed` + "\n\n" + `"Reopened," said Mr.` + "\n\n" + `( "x" ) said the`,
		`Then said the King of Hearts, "Off" -- "with" (said he) "--his head!"`,
		"\"\"\"\n\n\"", "said", "Mr. . Dr. \"the The the\"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		sp := split(text)
		cast := Extract(text, sp)
		names := map[string]bool{}
		for _, c := range cast {
			names[c.Name] = true
		}
		att := AttributeRules(text, sp, cast)
		if n := len(dialogue(sp)); len(att) != n {
			t.Fatalf("%d attributions for %d dialogue spans", len(att), n)
		}
		for _, a := range att {
			if a.Speaker != "" && !names[a.Speaker] {
				t.Fatalf("speaker %q is not cast (%v)", a.Speaker, cast)
			}
		}
		llm := &fakeLLM{reply: answerAll(func(string) string {
			if len(cast) > 0 {
				return cast[0].Name
			}
			return "Unknown"
		})}
		got, st, err := AttributeLLM(context.Background(), llm, text, sp, cast, att, Options{})
		if err != nil || len(got) != len(att) {
			t.Fatalf("%v, %d attributions", err, len(got))
		}
		if st.AskedSpans > 0 && float64(st.PromptTokens)/float64(st.AskedSpans) > MaxTokensPerSpan {
			t.Fatalf("stats %+v", st)
		}
		if _, _, err := Verify(context.Background(), llm, text, sp, cast, got, Options{}); err != nil {
			t.Fatal(err)
		}
	})
}

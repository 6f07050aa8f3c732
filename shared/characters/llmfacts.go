package characters

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/lectern/lectern/shared/audiobook/cast"
)

// llmBatch is how many characters one fact request asks about.
const llmBatch = 6

// maxFactChars bounds one fact the LLM states.
const maxFactChars = 160

const factSystem = "You read passages of a novel and list what they state about each character's appearance. " +
	"Only facts the passages state: physical details (body, face, hair, eyes, size), clothing and accessories, and age. " +
	"Each fact is a short noun phrase (\"pink eyes\", \"white kid gloves\", \"an old woman\"), with the ids of the passages it comes from. " +
	"Leave out moods, gestures, actions and scars. Do not write image prompts or descriptions beyond the facts. Answer JSON only."

var factSchema = map[string]any{
	"type": "object", "additionalProperties": false, "required": []string{"characters"},
	"properties": map[string]any{"characters": map[string]any{"type": "array", "items": map[string]any{
		"type": "object", "additionalProperties": false, "required": []string{"id", "physical", "clothing", "age"},
		"properties": map[string]any{
			"id": map[string]any{"type": "string"}, "physical": factList, "clothing": factList, "age": factList,
		},
	}}},
}

var factList = map[string]any{"type": "array", "items": map[string]any{
	"type": "object", "additionalProperties": false, "required": []string{"text", "passages"},
	"properties": map[string]any{"text": map[string]any{"type": "string"}, "passages": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
}}

// llmAnswer is what is read from the LLM's answer: facts only. Anything
// else it writes (an image_prompt, say) is not read.
type llmAnswer struct {
	Characters []struct {
		ID       string `json:"id"`
		Physical []Fact `json:"physical"`
		Clothing []Fact `json:"clothing"`
		Age      []Fact `json:"age"`
	} `json:"characters"`
}

// FactsByLLM asks the LLM for the facts of each character's passages and
// keeps the ones that cite a passage of that character; a character the
// LLM says nothing of keeps its facts by rules. The LLM never writes a
// prompt: prompts are built by Prompt from the facts.
func FactsByLLM(ctx context.Context, llm cast.LLM, chars []Character) ([]Character, error) {
	out := slices.Clone(chars)
	for start := 0; start < len(out); start += llmBatch {
		batch := out[start:min(start+llmBatch, len(out))]
		var user strings.Builder
		for _, c := range batch {
			if len(c.Passages) == 0 {
				continue
			}
			fmt.Fprintf(&user, "Character id %s: %s", c.ID, c.Name)
			if len(c.Aliases) > 0 {
				fmt.Fprintf(&user, " (also %s)", strings.Join(c.Aliases, ", "))
			}
			user.WriteString("\n")
			for _, p := range c.Passages {
				fmt.Fprintf(&user, "[%s] %s\n", p.ID, p.Text)
			}
			user.WriteString("\n")
		}
		if user.Len() == 0 {
			continue
		}
		raw, err := llm.ChatSchema(ctx, factSystem, user.String(), "character_facts", factSchema)
		if err != nil {
			return chars, fmt.Errorf("%w: facts: %v", ErrEngine, err)
		}
		var ans llmAnswer
		if err := json.Unmarshal([]byte(stripFence(raw)), &ans); err != nil {
			return chars, fmt.Errorf("%w: facts answer is not the JSON asked for: %v", ErrEngine, err)
		}
		for _, a := range ans.Characters {
			i := slices.IndexFunc(batch, func(c Character) bool { return c.ID == a.ID })
			if i < 0 {
				continue
			}
			c := &batch[i]
			phys, cloth, age := cited(c, a.Physical), cited(c, a.Clothing), cited(c, a.Age)
			if len(phys)+len(cloth)+len(age) == 0 {
				continue
			}
			c.Facts = Facts{Physical: phys, Clothing: cloth, Age: age}
		}
	}
	return out, nil
}

// cited keeps the facts of c's passages, each with only the passage ids c
// has.
func cited(c *Character, fs []Fact) []Fact {
	out := []Fact{}
	for _, f := range fs {
		f.Text = clean(f.Text)
		if f.Text == "" || len([]rune(f.Text)) > maxFactChars {
			continue
		}
		var ids []string
		for _, id := range f.Passages {
			if slices.ContainsFunc(c.Passages, func(p Passage) bool { return p.ID == id }) && !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			out = append(out, Fact{Text: f.Text, Passages: ids})
		}
	}
	return out
}

// stripFence drops a ```json fence some models put around JSON.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s[strings.IndexByte(s+"\n", '\n'):], "\n")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
	}
	return strings.TrimSpace(s)
}

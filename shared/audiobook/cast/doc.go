// Package cast finds a book's characters and says who speaks each dialogue
// span (issue 16 items 3–5). Text and spans come from shared/audiobook/book
// and shared/audiobook/spans; speakers are cast names (Character.Name).
//
//   - Extract finds the cast by rules: capitalised names (with an article or
//     an honorific: "the Queen", "Mr. Darcy") beside speech verbs, merged
//     into characters with aliases; Refine lets an LLM merge, rename and
//     gender them without inventing a name the text lacks.
//   - AttributeRules names speakers from tags beside the quote (explicit and
//     pronoun), from the paragraph a line shares with a known one, from
//     turn-taking in a conversation and, last and at low confidence, from
//     the character named just before the line.
//   - AttributeLLM asks an LLM about the dialogue spans the rules left blank
//     or answered below LowConfidence, in windows with the cast list
//     (aliases, gender, narrator) and marked context; it never asks for
//     text and never replaces an explicit tag.
//   - MergeCharacters, SplitAlias, RenameCharacter and SetGender are the
//     cast view's edits; the service attributes the lines again after one.
//   - Verify asks again with shifted windows and another context size and
//     marks every line agreed or disputed, never changing a speaker; the
//     confidence follows the mark.
//
// A service runs them in this order:
//
//	chars := cast.Extract(text, sp) // rules
//	chars, err = cast.Refine(ctx, llm, chars, cast.RefineSample(text, chars, 24000)) // with an LLM
//	att := cast.AttributeRules(text, sp, chars) // tags, pronouns, paragraphs, turns
//	att, st, err = cast.AttributeLLM(ctx, llm, text, sp, chars, att, cast.Options{}) // POST /api/attribute-spans
//	att, st, err = cast.Verify(ctx, llm, text, sp, chars, att, cast.Options{}) // verify or recast
//
// Nothing here repairs or re-splits spans: a line is always one dialogue
// span, so segments built from attributions keep the dialogue boundaries.
//
// The package is pure domain logic; the only outside call is the LLM port it
// declares (LLM), which shared/engines/oaichat's Client satisfies.
package cast

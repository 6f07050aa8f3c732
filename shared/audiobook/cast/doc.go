// Package cast finds a book's characters and says who speaks each dialogue
// span (issue 16 items 3–5).
//
//   - Extract finds the cast by rules: capitalised names (with an article or
//     an honorific: "the Queen", "Mr. Darcy") beside speech verbs, merged
//     into characters with aliases; Refine lets an LLM merge, rename and
//     gender them without inventing a name the text lacks.
//   - AttributeRules names speakers from tags beside the quote (explicit and
//     pronoun), from the paragraph a line shares with a tagged one and from
//     turn-taking between two speakers.
//   - AttributeLLM asks an LLM about the dialogue spans the rules left, in
//     windows with the cast list and marked context; it never asks for text
//     and never replaces an explicit tag.
//   - Verify asks again with shifted windows and another context size and
//     marks every line agreed or disputed, never changing a speaker.
//
// The package is pure domain logic; the only outside call is the LLM port it
// declares (LLM), which shared/engines/oaichat satisfies.
package cast

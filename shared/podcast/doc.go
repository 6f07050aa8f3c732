// Package podcast owns the two-host reading of an approved article: the
// script two podcast hosts speak, how it is made, and the rules that keep it
// faithful to the article. It is pure domain logic: values in, values out, no
// engines, storage or HTTP.
//
// # The script
//
// A Script is the article's title, two hosts (a name and a voice each) and a
// list of turns. Each turn is spoken by host 0 or host 1 and names the article
// paragraphs it draws on (none for the introduction and closing).
//
// # Without an LLM
//
// DeterministicScript reads the article itself, so nothing can be invented:
// host 0 introduces it from the title and byline, the hosts then take turns
// paragraph by paragraph (host 1 first), and host 1 closes with the title.
// Every paragraph is spoken exactly once, verbatim and in order. A paragraph
// longer than MaxTurnWords is cut at sentence ends into consecutive turns of
// the same host; the pieces put back together are the paragraph, byte for
// byte.
//
// # With an LLM
//
// BuildPrompt asks for a conversation as strict JSON
// {"turns":[{"host":0,"text":"..."}]} that is grounded in the article:
// every factual statement comes from it, names, numbers and quotations are
// copied exactly, nothing from outside is added, and the length stays within
// MaxWords(targetMinutes). ParseScript reads the answer, tolerating ```json
// fences and prose around the JSON, and refuses an answer with no turns, a
// host other than 0 or 1, an empty turn, or a repetition loop.
//
// # Grounding
//
// A model can still invent, so CheckGrounding compares every turn with the
// article text (title, byline and paragraphs) and reports each violation:
//
//   - number: every number written in digits (with thousands commas, a
//     decimal point, % or a currency sign) must be in the article; "1,200"
//     and "1200" are the same number. Numbers spelled out in words are not
//     checked.
//   - quote: text inside "…" or “…” of three or more words must be in the
//     article word for word, ignoring case and spacing. A quoted span is
//     judged as a quote only, not again for its names and numbers.
//   - name: a run of capitalised words (or one capitalised word) must be in
//     the article, except the first word of a sentence, the hosts' names,
//     the title's words and a small stoplist (days, months, "I", titles such
//     as "Dr").
//
// The duration is estimated at WordsPerMinute, a conversational speaking
// rate: EstimateSeconds for a text, Script.EstimatedSeconds for a script.
package podcast

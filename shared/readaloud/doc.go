// Package readaloud owns listening to approved magazine articles: the
// narration of one article or of a whole issue (one chapter per approved
// article) handed to the speech renderer, and the two-host podcast of an
// article: its script (written by the LLM from Settings and checked for
// grounding, or made deterministically without one), stored beside the
// article, editable, and voiced turn by turn with the two hosts' voices.
//
// The pure rules (what an article says aloud, its byline, the order of an
// issue's articles, bounding a script to its minutes) take values and return
// values; Service and Podcasts reach storage, the renderer and the LLM only
// through the ports declared here.
package readaloud

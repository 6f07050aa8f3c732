// Package characters owns the Characters feature (issue 17): a book's
// characters, extracted from its text with the passages each fact came from;
// their appearance forms; the deterministic image prompts built from a form
// (Prompt), the fingerprint of a form's inputs that the browser computes the
// same way (Fingerprint, Canonical) and the stale rule (Stale); and the
// Service that stores sets of characters, runs extraction, image generation
// and review as jobs, and keeps images as blobs.
//
// The LLM, when configured, extracts facts only: no image prompt is ever
// taken from it. Prompts are built here, from the form's physical and
// clothing text, the character's visual_* overrides and, after a portrait
// passed its review, the vision engine's description of hair, facial hair
// and eyes.
//
// Records (one table): CHARSET#<set>/META is a set of characters (its
// title, where its text came from, the extraction's status);
// CHARSET#<set>/PERSON#<character> one character with its forms and images;
// CHARSETS/CHARSET#<set> the listing's entry. The audiobook feature's
// BOOK#<id>/CHAR#<id> items (cast and voices) are not touched: a set made
// from a book only reads that book's text. Blobs live under characters/<set>/.
package characters

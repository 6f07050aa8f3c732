package characters

import (
	"strings"
	"unicode"
)

// Prompt limits: portrait and turnaround prompts are short, so the engine
// weighs the framing and the few traits that identify the character.
const (
	MaxShortWords   = 60  // avatar and turnaround prompts
	MaxLongWords    = 120 // concept and story prompts
	MaxPassageWords = 30  // the passage part of a story prompt
)

// Framing opens every prompt of its kind.
var framing = map[Kind]string{
	KindAvatar:     "head-and-shoulders portrait",
	KindConcept:    "full-body concept art",
	KindTurnaround: "character turnaround sheet, front, side and back, full body",
	KindStory:      "story illustration",
}

// DefaultStyle is the style of a character without visual_style.
const DefaultStyle = "clean storybook illustration"

// BuildPrompts builds every prompt of a form from its inputs; desc, once a
// portrait passed its review, gives the hair, facial hair and eyes of the
// turnaround and story prompts, so they match the portrait.
func BuildPrompts(in Inputs, desc *Description) Prompts {
	return Prompts{
		Avatar:     Prompt(KindAvatar, in, nil, ""),
		Concept:    Prompt(KindConcept, in, nil, ""),
		Turnaround: Prompt(KindTurnaround, in, desc, ""),
		Story:      Prompt(KindStory, in, desc, ""),
	}
}

// Prompt is the one prompt builder: framing first, then the character's
// name and age, the physical traits, the costume and the style. Clauses
// that speak of scars, passing moods or gestures are left out. For an armed
// character the costume's cut and colours are kept whole and the weapon
// follows the costume, so the weapon never crowds the costume out. passage
// is the scene of a story image (ignored for other kinds).
func Prompt(kind Kind, in Inputs, desc *Description, passage string) string {
	in = cleanInputs(in)
	physical, physWeapons := splitWeapons(keptClauses(in.Physical))
	costume, weapons := splitWeapons(keptClauses(in.Clothing))
	weapons = append(weapons, physWeapons...)
	armed := len(weapons) > 0

	// Hair and eyes: the override, else what the vision engine saw in the
	// reviewed portrait (turnaround and story only), else the text's.
	hair, eyes, facial := in.Hair, in.Eyes, ""
	if desc != nil && (kind == KindTurnaround || kind == KindStory) {
		hair, eyes, facial = or(hair, desc.Hair), or(eyes, desc.Eyes), desc.FacialHair
	}
	var traits []string
	for _, c := range physical {
		switch {
		case hair != "" && mentions(c, hairWords):
		case eyes != "" && mentions(c, eyeWords):
		case facial != "" && mentions(c, facialWords):
		default:
			traits = append(traits, c)
		}
	}
	// What the overrides and the description say is kept whole; the text's
	// own traits and costume clauses are what a short prompt trims.
	var fixed []string
	for _, t := range []struct{ v, suffix string }{{hair, " hair"}, {facial, ""}, {eyes, " eyes"}, {in.Skin, " skin"}, {in.Build, " build"}} {
		if t.v != "" && !strings.EqualFold(t.v, "none") {
			fixed = append(fixed, withSuffix(t.v, t.suffix))
		}
	}
	var palette []string
	if in.Palette != "" {
		palette = []string{"costume colours " + in.Palette}
	}

	short := kind == KindAvatar || kind == KindTurnaround
	limit := MaxLongWords
	if short {
		limit = MaxShortWords
		// A portrait shows little of the body: the first traits and the
		// costume's first clauses, unless the costume must stay whole.
		traits = first(traits, 3)
		if !armed {
			costume = first(costume, 2)
		}
	}

	head := []string{framing[kind]}
	if kind == KindStory && strings.TrimSpace(passage) != "" {
		scene := clean(passage)
		if wordCount(scene) > MaxPassageWords {
			scene = firstWords(scene, MaxPassageWords) + "…"
		}
		head = append(head, scene)
	}
	subject := []string{}
	if in.Name != "" {
		subject = append(subject, in.Name)
	}
	if in.Age != "" {
		subject = append(subject, in.Age)
	}
	style := or(in.Style, DefaultStyle)
	tail := []string{style}
	switch kind {
	case KindAvatar:
		tail = append(tail, "plain background")
	case KindTurnaround:
		tail = append(tail, "plain white background, same character in every view")
	}
	// Clauses are dropped from the end of the text's traits, then of an
	// unarmed costume, never the framing, the name, the overrides, the armed
	// costume or the weapon, until the prompt fits.
	for {
		var parts []string
		for _, group := range [][]string{head, subject, traits, fixed, costume, palette, weapons, tail} {
			parts = append(parts, group...)
		}
		p := strings.Join(parts, ", ")
		if wordCount(p) <= limit {
			return p
		}
		switch {
		case len(traits) > 1:
			traits = traits[:len(traits)-1]
		case !armed && len(costume) > 1:
			costume = costume[:len(costume)-1]
		default:
			return firstWords(p, limit)
		}
	}
}

func cleanInputs(in Inputs) Inputs {
	for _, p := range []*string{&in.Name, &in.Age, &in.Form, &in.Physical, &in.Clothing, &in.Style, &in.Hair, &in.Eyes, &in.Skin, &in.Build, &in.Palette} {
		*p = clean(*p)
	}
	return in
}

// keptClauses splits a description at commas, semicolons and sentence ends
// and keeps the clauses a picture can show: no scars, moods or gestures.
func keptClauses(s string) []string {
	var out []string
	for _, c := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '.' || r == '!' || r == '?' || r == '\n' }) {
		c = strings.Trim(strings.TrimSpace(c), "\"'“”‘’()—–-")
		c = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(c, "and "), "but "))
		if c == "" || mentions(c, scarWords) || mentions(c, moodWords) || mentions(c, gestureWords) || hasPhrase(c, gesturePhrases) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// splitWeapons separates the clauses naming a weapon from the others.
func splitWeapons(clauses []string) (rest, weapons []string) {
	for _, c := range clauses {
		if mentions(c, weaponWords) {
			weapons = append(weapons, c)
		} else {
			rest = append(rest, c)
		}
	}
	return rest, weapons
}

// Armed reports whether the inputs name a weapon.
func Armed(in Inputs) bool {
	_, w1 := splitWeapons(keptClauses(in.Clothing))
	_, w2 := splitWeapons(keptClauses(in.Physical))
	return len(w1)+len(w2) > 0
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' })
}

// mentions reports whether any word of s (or a part of a hyphenated word)
// is in set.
func mentions(s string, set map[string]bool) bool {
	for _, w := range words(s) {
		if set[w] {
			return true
		}
		for _, part := range strings.Split(w, "-") {
			if set[part] {
				return true
			}
		}
	}
	return false
}

func hasPhrase(s string, phrases []string) bool {
	low := " " + strings.Join(words(s), " ") + " "
	for _, p := range phrases {
		if strings.Contains(low, " "+p+" ") {
			return true
		}
	}
	return false
}

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

var (
	scarWords = set("scar", "scars", "scarred", "scarring", "scarred-over")
	moodWords = set("angry", "angrily", "anxious", "anxiously", "annoyed", "crossly", "sad", "sadly", "happy", "happily",
		"cheerful", "cheerfully", "smiling", "smile", "smiles", "smiled", "grinning", "grin", "grinned", "frowning", "frown", "frowned",
		"crying", "cried", "tearful", "tears", "weeping", "sobbing", "nervous", "nervously", "frightened", "afraid", "scared",
		"surprised", "puzzled", "bored", "sulky", "sulkily", "furious", "furiously", "delighted", "worried", "impatient", "impatiently",
		"indignant", "indignantly", "sleepy", "gloomy", "melancholy", "laughing", "laughed", "mood", "moody", "excited", "timid", "timidly",
		"offended", "alarmed", "confused", "embarrassed", "shy", "shyly", "thoughtful", "thoughtfully", "surprise", "peeping", "wretched")
	gestureWords = set("waving", "waved", "wave", "pointing", "shrugging", "shrugged", "shrug", "nodding", "nodded", "nod",
		"beckoning", "beckoned", "clapping", "clapped", "gesturing", "gestured", "gesture", "gestures", "wringing", "tapping", "tapped",
		"bowing", "bowed", "curtseying", "curtsied", "shaking", "winking", "winked", "wink", "digging", "rubbing", "rubbed", "saluting", "saluted", "fidgeting", "trembling", "lifted", "raising", "raised")
	gesturePhrases = []string{"turned pale", "went pale", "arms folded", "folded arms", "arms crossed", "crossed arms", "hands on hips", "hand on hip", "hands on her hips", "hands on his hips"}
	weaponWords    = set("sword", "swords", "sabre", "saber", "rapier", "dagger", "daggers", "knife", "axe", "halberd", "spear", "pike",
		"longbow", "crossbow", "arrows", "quiver", "club", "mace", "pistol", "pistols", "gun", "rifle", "musket", "lance", "trident",
		"scimitar", "cutlass", "armed", "truncheon", "bayonet", "flail", "warhammer")
	hairWords   = set("hair", "haired", "curls", "curly", "ringlets", "braid", "braids", "plait", "plaits", "bald", "fringe", "locks", "ponytail")
	eyeWords    = set("eye", "eyes", "eyed")
	facialWords = set("beard", "bearded", "moustache", "mustache", "whiskers", "stubble", "goatee", "sideburns", "clean-shaven")
)

// withSuffix adds suffix ("hair") unless v already ends with it.
func withSuffix(v, suffix string) string {
	if suffix == "" || strings.HasSuffix(strings.ToLower(v), strings.TrimSpace(suffix)) {
		return v
	}
	return v + suffix
}

func or(v, fallback string) string {
	if strings.TrimSpace(v) == "" {
		return fallback
	}
	return v
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func wordCount(s string) int { return len(strings.Fields(s)) }

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) <= n {
		return s
	}
	return strings.Join(f[:n], " ")
}

package characters

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// FingerprintSchema names the canonical form below; it is part of what is
// hashed, so a change of the rules changes every fingerprint.
const FingerprintSchema = "lectern.character-prompt.v1"

// Inputs are everything a form's prompts are built from that the user
// controls: the character's name and age, the form's name, physical and
// clothing text, and the character's visual_* overrides. (The vision
// description is not an input: it is made from the form's own portrait,
// so counting it would mark every reviewed form stale.)
type Inputs struct {
	Name     string `json:"name" maxLength:"200"`
	Age      string `json:"age" maxLength:"300"`
	Form     string `json:"form" maxLength:"100"`
	Physical string `json:"physical" maxLength:"4000"`
	Clothing string `json:"clothing" maxLength:"4000"`
	Visual
}

// Canonical is the text the fingerprint hashes. The rules, which
// frontend/src/lib/fingerprint.ts follows exactly:
//
//   - Every string is normalised to Unicode NFC, then each run of
//     whitespace (U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680,
//     U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) becomes
//     one space, and leading and trailing spaces are dropped.
//   - One JSON object, no whitespace between tokens, with exactly the keys
//     age, clothing, form, name, physical, schema and visual, in that
//     (code-point) order; visual is an object with exactly build, eyes,
//     hair, palette, skin and style. Absent values are "".
//   - Strings escape only '"' as \", '\' as \\ and U+0000–U+001F as \u00xx
//     (lowercase hex); everything else is written as itself in UTF-8.
//
// The fingerprint is the lowercase hex SHA-256 of Canonical's UTF-8 bytes.
func Canonical(in Inputs) string {
	var b strings.Builder
	b.WriteByte('{')
	field := func(first bool, key, value string) {
		if !first {
			b.WriteByte(',')
		}
		writeString(&b, key)
		b.WriteByte(':')
		writeString(&b, clean(value))
	}
	field(true, "age", in.Age)
	field(false, "clothing", in.Clothing)
	field(false, "form", in.Form)
	field(false, "name", in.Name)
	field(false, "physical", in.Physical)
	field(false, "schema", FingerprintSchema)
	b.WriteString(`,"visual":{`)
	v := in.Visual
	field(true, "build", v.Build)
	field(false, "eyes", v.Eyes)
	field(false, "hair", v.Hair)
	field(false, "palette", v.Palette)
	field(false, "skin", v.Skin)
	field(false, "style", v.Style)
	b.WriteString("}}")
	return b.String()
}

// Fingerprint is the lowercase hex SHA-256 of Canonical(in).
func Fingerprint(in Inputs) string {
	sum := sha256.Sum256([]byte(Canonical(in)))
	return hex.EncodeToString(sum[:])
}

// isSpace is the whitespace set of Canonical, spelled out so that Go and
// JavaScript agree (unicode.IsSpace and JS's \s differ on U+0085 and U+FEFF).
func isSpace(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0D, r == 0x20, r == 0x85, r == 0xA0, r == 0x1680,
		r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029, r == 0x202F, r == 0x205F, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}

// clean is NFC with whitespace collapsed and trimmed.
func clean(s string) string {
	return strings.Join(strings.FieldsFunc(norm.NFC.String(s), isSpace), " ")
}

func writeString(b *strings.Builder, s string) {
	const hexDigits = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[r>>4])
			b.WriteByte(hexDigits[r&0xF])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

package magazine

import (
	"strings"
	"testing"
)

func TestNormalizeText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"acute after its letter composes", "caf\u0065\u00b4", "café"},
		{"acute before its letter composes (TeX order)", "caf\u00b4e au lait", "café au lait"},
		{"caron composes", "Dvoc\u02c7a\u0301k", "Dvočák"},
		{"an ambiguous accent follows the text's own order (TeX: before)", "caf´e Dvoˇr´ak", "café Dvořák"},
		{"an ambiguous accent follows the text's own order (after)", "cafe´ Dvorˇa´k", "café Dvořák"},
		{"diaeresis composes", "Ma\u00a8dchen", "Mädchen"},
		{"grave, circumflex, tilde, cedilla, ring compose", "a` eˆ n˜ c¸ a˚", "à ê ñ ç å"},
		{"breve, dot, double acute, ogonek, macron compose", "g˘ z˙ o˝ a˛ a¯", "ğ ż ő ą ā"},
		{"combining marks are composed (NFC)", "e\u0301", "é"},
		{"TeX quotes become curly quotes", "he said ``yes'' and ‘‘no’’", "he said “yes” and “no”"},
		{"an apostrophe stays", "don't stop", "don't stop"},
		{"single quotes stay", "'quoted' and ‘quoted’", "'quoted' and ‘quoted’"},
		{"inches after a digit stay", "a 12'' board", "a 12'' board"},
		{"a lone accent between spaces stays", "the acute ´ mark", "the acute ´ mark"},
		{"an accent that makes no letter stays", "x´ 3´", "x´ 3´"},
		{"plain text stays", "The council met on Tuesday.", "The council met on Tuesday."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := NormalizeText(tc.in); got != tc.want {
				t.Errorf("NormalizeText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestClassifyNormalizesBlockText(t *testing.T) {
	page := TextPage{Width: 612, Height: 792, Blocks: []TextBlock{
		body10(50, 300, "The caf´e on the corner served ``strong'' coffee. "+lorem),
	}}
	r := ClassifyPages([]TextPage{page})[0][0]
	want := NormalizeText(strings.TrimSpace("The caf´e on the corner served ``strong'' coffee. " + lorem))
	if r.Text != want || r.OriginalText != want || !strings.HasPrefix(r.Text, "The café on the corner served “strong” coffee.") {
		t.Errorf("text %q, original %q: not normalized", r.Text, r.OriginalText)
	}
}

package ear

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	a := "The morning was cold and grey over the harbour."
	b := "Margaret walked down to the water with her brother."
	c := "Nobody spoke for a long time."
	for _, tc := range []struct {
		name  string
		wants []string
		heard string
		want  []string
	}{
		{"heard right", []string{a, b, c},
			"The morning was cold and grey over the harbour. Margaret walked down to the water with her brother. Nobody spoke for a long time.",
			[]string{"The morning was cold and grey over the harbour.", "Margaret walked down to the water with her brother.", "Nobody spoke for a long time."}},
		{"a piece dropped", []string{a, b, c},
			"The morning was cold and grey over the harbour. Nobody spoke for a long time.",
			[]string{"The morning was cold and grey over the harbour.", "", "Nobody spoke for a long time."}},
		{"a hallucinated ending goes with the last piece", []string{a, c},
			"The morning was cold and grey over the harbour. Nobody spoke for a long time. Thank you for watching!",
			[]string{"The morning was cold and grey over the harbour.", "Nobody spoke for a long time. Thank you for watching!"}},
		{"words misheard stay in their piece", []string{a, b},
			"The mourning was told and grey over the harbor. Margret walked down to the daughter with her mother.",
			[]string{"The mourning was told and grey over the harbor.", "Margret walked down to the daughter with her mother."}},
		{"numbers spelt out, a dash", []string{"In 1865 she left.", "It was the 3rd time — again."},
			"In eighteen sixty-five she left. It was the third time — again.",
			[]string{"In eighteen sixty-five she left.", "It was the third time — again."}},
		{"a piece said twice", []string{"Yes, I know.", "Come here at once."},
			"Yes, I know. Yes, I know. Come here at once.",
			[]string{"Yes, I know. Yes, I know.", "Come here at once."}},
		{"nothing heard", []string{a, b}, "", []string{"", ""}},
		{"one piece", []string{a}, "  anything at all ", []string{"anything at all"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Split(tc.wants, tc.heard); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Split:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

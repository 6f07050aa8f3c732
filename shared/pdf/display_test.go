package pdf

import (
	"slices"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
)

func TestJoinDisplayLines(t *testing.T) {
	line := func(x, y, w, size float64, text string) magazine.TextBlock {
		return magazine.TextBlock{BBox: magazine.BBox{x, y, w, size * 1.2}, Text: text, FontSize: size, LineCount: 1}
	}
	body := magazine.TextBlock{BBox: magazine.BBox{40, 300, 500, 400}, Text: strings.Repeat("body text ", 200), FontSize: 9, LineCount: 40}
	tests := []struct {
		name   string
		blocks []magazine.TextBlock
		want   []string
	}{
		{"a headline set as two pieces a word space apart is one line",
			[]magazine.TextBlock{line(386, 160, 400, 40, "THE FAMOUS OREGON,"), line(135, 156, 226, 40, "ONCE MORE"), body},
			[]string{"ONCE MORE THE FAMOUS OREGON,"}},
		{"three pieces chain left to right",
			[]magazine.TextBlock{line(265, 100, 80, 30, "SEA,"), line(40, 100, 200, 30, "BULL DOG OF"), line(360, 100, 150, 30, "VISITS"), body},
			[]string{"BULL DOG OF SEA, VISITS"}},
		{"two headlines a gutter apart stay apart",
			[]magazine.TextBlock{line(40, 100, 200, 20, "Harbour Reborn"), line(300, 100, 200, 20, "Storm Warning"), body},
			[]string{"Harbour Reborn", "Storm Warning"}},
		{"body-size pieces are left to the line builder",
			[]magazine.TextBlock{line(40, 100, 100, 9, "Name:"), line(145, 100, 100, 9, "Jane Doe"), body},
			[]string{"Name:", "Jane Doe"}},
		{"a smaller piece on the baseline is not the same line",
			[]magazine.TextBlock{line(40, 100, 200, 30, "HARBOUR"), line(250, 112, 100, 18, "since 1901"), body},
			[]string{"HARBOUR", "since 1901"}},
		{"a block between the pieces keeps them apart",
			[]magazine.TextBlock{line(40, 100, 200, 30, "LEFT"), {BBox: magazine.BBox{245, 90, 10, 60}, Text: "|", FontSize: 9, LineCount: 2}, line(260, 100, 200, 30, "RIGHT"), body},
			[]string{"LEFT", "RIGHT"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, b := range joinDisplayLines(tc.blocks) {
				if b.LineCount == 1 {
					got = append(got, b.Text)
				}
			}
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("display lines %q, want %q", got, want)
			}
		})
	}
}

package magazine

import (
	"testing"
)

func TestPictureRegions(t *testing.T) {
	tests := []struct {
		name     string
		boxes    []BBox
		barriers []BBox
		want     []BBox
	}{
		{"pieces a gutter apart are one picture",
			[]BBox{{72, 500, 100, 60}, {176, 500, 100, 60}, {72, 565, 204, 60}}, nil,
			[]BBox{{72, 500, 204, 125}}},
		{"pieces on either side of a paragraph stay apart",
			[]BBox{{72, 430, 280, 60}, {320, 430, 280, 260}}, []BBox{{72, 495, 240, 24}},
			[]BBox{{72, 430, 280, 60}, {320, 430, 280, 260}}},
		{"rules and icons are left out",
			[]BBox{{72, 100, 400, 2}, {500, 700, 12, 12}, {72, 300, 200, 150}}, nil,
			[]BBox{{72, 300, 200, 150}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := PictureRegions(tc.boxes, tc.barriers)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want boxes %v", got, tc.want)
			}
			for i, r := range got {
				if r.BBox != tc.want[i] || r.Kind != KindImage {
					t.Errorf("picture %d = %v %s, want %v image", i, r.BBox, r.Kind, tc.want[i])
				}
			}
		})
	}
}

package magazine

import "testing"

func TestKindTableIsComplete(t *testing.T) {
	required := []Kind{KindHeadline, KindDeck, KindParagraph, KindByline, KindCaption, KindPageNumber, KindSource,
		KindAd, KindFurniture, KindSidebar, KindPullQuote, KindImage, KindFigure, KindChart, KindTable, KindCode,
		KindNoise, KindDuplicate, KindTextInFigure}
	for _, k := range required {
		if _, ok := Info(k); !ok {
			t.Errorf("kind %q missing from the table", k)
		}
	}
	seen := map[Kind]bool{}
	for _, info := range Kinds {
		if seen[info.Kind] {
			t.Errorf("kind %q listed twice", info.Kind)
		}
		seen[info.Kind] = true
		if info.Cleanup && info.Read {
			t.Errorf("cleanup kind %q must not be read aloud", info.Kind)
		}
		// Only a table is both: its rows are text worth reading.
		if info.Visual && info.Read && info.Kind != KindTable {
			t.Errorf("picture kind %q is spoken only through its description, not read", info.Kind)
		}
	}
	for _, muted := range []Kind{KindFurniture, KindSidebar, KindPullQuote, KindAd} {
		if info, _ := Info(muted); !info.Muted {
			t.Errorf("%q must be shown muted", muted)
		}
	}
	for _, silent := range []Kind{KindFurniture, KindAd, KindPageNumber, KindSource} {
		if IsRead(silent) {
			t.Errorf("%q must not be read aloud", silent)
		}
	}
	if !IsRead(KindParagraph) || IsRead(KindPageNumber) || !IsVisual(KindChart) || IsVisual(KindCaption) {
		t.Error("IsRead/IsVisual disagree with the table")
	}
	if _, ok := Info("poster"); ok {
		t.Error("unknown kind reported as known")
	}
}

func TestSpoken(t *testing.T) {
	for _, tc := range []struct {
		name         string
		r            Region
		descriptions bool
		want         string
	}{
		{"a paragraph is its trimmed text", Region{Kind: KindParagraph, Text: "  Boats at dawn. "}, false, "Boats at dawn."},
		{"a page number is never read", Region{Kind: KindPageNumber, Text: "12"}, true, ""},
		{"a picture is silent without descriptions", Region{Kind: KindImage, Description: "A pier."}, false, ""},
		{"a picture speaks its description on request", Region{Kind: KindImage, Description: "A pier."}, true, "A pier."},
		{"an unknown region says nothing", Region{}, true, ""},
		{"an image's text (a label in it) is not read", Region{Kind: KindImage, Text: "EXIT"}, false, ""},
		{"a table reads its rows", Region{Kind: KindTable, Text: "State\tPermits\nTexas\t21,550"}, false, "State\tPermits\nTexas\t21,550"},
		{"a table's description comes before its rows", Region{Kind: KindTable, Text: "Texas\t21,550", Description: "Permits by state."}, true, "Permits by state.\nTexas\t21,550"},
	} {
		if got := Spoken(tc.r, tc.descriptions); got != tc.want {
			t.Errorf("%s: Spoken = %q, want %q", tc.name, got, tc.want)
		}
	}
}

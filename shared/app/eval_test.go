package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/magazine"
)

// TestEvalSamples runs the team's sample magazines through the real local
// pipeline. It skips only when the sample folder is absent (a clone without
// ../shared/data); make test always provides it.
func TestEvalSamples(t *testing.T) {
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		t.Skip("LECTERN_SAMPLE_DATA is not set: sample magazines absent")
	}
	dir = filepath.Join(dir, "magazines")
	mag := magazineOf(t, openTestLocal(t, "http://127.0.0.1", 1))
	ctx := context.Background()

	for _, tc := range []struct {
		file      string
		pages     int
		wantKinds []magazine.Kind // each must appear somewhere in the issue
	}{
		{"01_honolulu_commercial_advertiser_1901-05-31.pdf", 1, []magazine.Kind{magazine.KindHeadline, magazine.KindParagraph}},
		{"04_faa_amt_handbook_p7-45.pdf", 1, []magazine.Kind{magazine.KindParagraph, magazine.KindCaption, magazine.KindImage}},
		{"05_federal_register_2020-17221.pdf", 15, []magazine.Kind{magazine.KindHeadline, magazine.KindParagraph, magazine.KindFurniture}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			is, err := mag.IngestFile(ctx, tc.file, data)
			if err != nil {
				t.Fatal(err)
			}
			if is.Status != magazine.IssueReady || is.PageCount != tc.pages || is.PagesDone != tc.pages {
				t.Fatalf("issue = %+v", is)
			}
			pages, err := mag.Issues.Repo.Pages(ctx, is.ID)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[magazine.Kind]int{}
			for _, p := range pages {
				t.Logf("page %d: engine %s, %d regions", p.Number, p.Engine, len(p.Regions))
				if p.Engine == "" || p.Step != "done" || len(p.Order) == 0 {
					t.Errorf("page %d: engine %q step %q order %d", p.Number, p.Engine, p.Step, len(p.Order))
				}
				for _, r := range p.Regions {
					seen[r.Kind]++
					if magazine.IsVisual(r.Kind) && r.CropKey == "" {
						t.Errorf("page %d: picture %s has no crop", p.Number, r.ID)
					}
				}
			}
			t.Logf("kinds: %v", seen)
			for _, k := range tc.wantKinds {
				if seen[k] == 0 {
					t.Errorf("no %s region in %v", k, seen)
				}
			}
			if strings.HasPrefix(tc.file, "04_faa") {
				compareWithDocling(t, pages[0], filepath.Join(dir, "04_faa_amt_handbook_p7-45.docling.json"))
			}
		})
	}
}

// compareWithDocling matches docling's texts to our regions by their
// opening words and reports how many pairs keep docling's reading order.
func compareWithDocling(t *testing.T, page magazine.Page, path string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Texts []struct {
			Label string `json:"label"`
			Text  string `json:"text"`
		} `json:"texts"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	byID := map[string]magazine.Region{}
	for _, r := range page.Regions {
		byID[r.ID] = r
	}
	position := map[string]int{} // region id → place in our order
	for i, id := range page.Order {
		position[id] = i
	}
	var ours, read []int // our position of each matched docling text, in docling order; read: only text read aloud
	used := map[string]bool{}
	// A docling text matches our region with the same text, else the region
	// that starts with its opening words, else one that contains them; each
	// region matches once, so a short figure label cannot claim a paragraph
	// that merely mentions it.
	find := func(full, key string) (string, bool) {
		for _, match := range []func(string) bool{
			func(t string) bool { return t == full },
			func(t string) bool { return strings.HasPrefix(t, key) },
			func(t string) bool { return strings.Contains(t, key) && len([]rune(key)) >= 24 },
		} {
			for _, id := range page.Order {
				if !used[id] && match(norm(byID[id].Text)) {
					return id, true
				}
			}
		}
		return "", false
	}
	for _, dt := range doc.Texts {
		full := norm(dt.Text)
		if len([]rune(full)) < 6 {
			continue
		}
		key := string([]rune(full)[:min(len([]rune(full)), 24)])
		id, ok := find(full, key)
		if !ok {
			continue
		}
		used[id] = true
		ours = append(ours, position[id])
		if magazine.IsRead(byID[id].Kind) {
			read = append(read, position[id])
		}
	}
	agree, pairs := orderedPairs(ours)
	readAgree, readPairs := orderedPairs(read)
	t.Logf("docling texts matched: %d of %d; pairs in docling's order: all matched %d of %d, read-aloud %d of %d",
		len(ours), len(doc.Texts), agree, pairs, readAgree, readPairs)
	for i, id := range page.Order {
		r := byID[id]
		t.Logf("  order %2d %-12s %.60q", i+1, r.Kind, r.Text)
	}
	if len(ours) < len(doc.Texts)/2 {
		t.Errorf("only %d of %d docling texts found", len(ours), len(doc.Texts))
	}
	// Figure labels are ordered differently on purpose (they are not read
	// aloud), so the bar is on the text that is read.
	if readPairs == 0 || float64(readAgree) < 0.8*float64(readPairs) {
		t.Errorf("read-aloud order agrees with docling on %d of %d pairs, want at least 80%%", readAgree, readPairs)
	}
}

// orderedPairs counts the pairs of positions already in increasing order.
func orderedPairs(pos []int) (agree, pairs int) {
	for i := range pos {
		for j := i + 1; j < len(pos); j++ {
			if pos[i] == pos[j] {
				continue
			}
			pairs++
			if pos[i] < pos[j] {
				agree++
			}
		}
	}
	return agree, pairs
}

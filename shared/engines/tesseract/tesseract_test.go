package tesseract

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lectern/lectern/shared/pdf"
	"github.com/lectern/lectern/shared/pdf/pdftest"
)

func TestParseTSV(t *testing.T) {
	tsv := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"1\t1\t0\t0\t0\t0\t0\t0\t2550\t3300\t-1\t\n" +
		"4\t1\t1\t1\t1\t0\t300\t300\t900\t50\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t300\t300\t400\t50\t96.5\tThe\n" +
		"5\t1\t1\t1\t1\t2\t720\t300\t480\t50\t91.5\tmaga-\n" +
		"5\t1\t1\t1\t2\t1\t300\t360\t500\t50\t90\tzine\n" +
		"5\t1\t1\t1\t2\t2\t820\t360\t100\t50\t-1\t \n" +
		"5\t1\t2\t1\t1\t1\t300\t900\t300\t100\t80\tHeadline\n"
	blocks, err := ParseTSV([]byte(tsv), 300)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 {
		t.Fatalf("got %d blocks: %+v", len(blocks), blocks)
	}
	b := blocks[0]
	if b.Text != "The magazine" || b.Lines != 2 {
		t.Fatalf("first block %+v", b)
	}
	// 300 px at 300 DPI is 72 pt.
	want := [4]float64{72, 72, 900 * 0.24, 110 * 0.24}
	for i := range want {
		if math.Abs(b.BBox[i]-want[i]) > 1e-9 {
			t.Fatalf("bbox %v, want %v", b.BBox, want)
		}
	}
	if math.Abs(b.LineHeight-12) > 1e-9 || math.Abs(b.Confidence-(96.5+91.5+90)/3) > 1e-9 {
		t.Fatalf("line height %v confidence %v", b.LineHeight, b.Confidence)
	}
	if blocks[1].Text != "Headline" || math.Abs(blocks[1].LineHeight-24) > 1e-9 {
		t.Fatalf("second block %+v", blocks[1])
	}
}

func TestParseTSVRefusesOtherOutput(t *testing.T) {
	if _, err := ParseTSV([]byte("Tesseract Open Source OCR Engine\n"), 300); err == nil {
		t.Fatal("non-TSV output accepted")
	}
	if blocks, err := ParseTSV([]byte("level\tpage_num\n"), 300); err != nil || len(blocks) != 0 {
		t.Fatalf("empty page: %v %v", blocks, err)
	}
}

func TestJoinLines(t *testing.T) {
	cases := map[string][]string{
		"one two":          {"one", "two"},
		"magazine pages":   {"maga-", "zine pages"},
		"well- Known":      {"well-", "Known"},
		"1990- 1995":       {"1990-", "1995"},
		"single":           {"single"},
		"trailing - words": {"trailing -", "words"},
	}
	for want, lines := range cases {
		if got := joinLines(lines); got != want {
			t.Errorf("joinLines(%q) = %q, want %q", lines, got, want)
		}
	}
}

// TestRecognizeScannedPage runs the real tesseract on a page that is only
// pixels (rasterised by pdftoppm at 300 DPI), as a scan would be: the one
// installed here, and the self-contained bundle the Recognize Lambda carries,
// run with an empty environment so nothing of this machine helps it.
func TestRecognizeScannedPage(t *testing.T) {
	doc := &pdftest.Doc{}
	doc.AddPage(612, 792).Text(72, 80, 12, false, "Lectern reads magazines aloud.").Text(72, 96, 12, false, "Second line of the scan.")
	png := rasterize(t, doc.Bytes())
	isolated := isolatedBundle(t)

	for _, tc := range []struct {
		name   string
		engine Engine
	}{
		{"installed tesseract", Engine{}},
		{"the Lambda bundle with an empty environment", Engine{Command: isolated}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blocks, err := tc.engine.Recognize(context.Background(), png, 300)
			if err != nil {
				t.Fatal(err)
			}
			var text []string
			for _, b := range blocks {
				text = append(text, b.Text)
			}
			all := strings.Join(text, " ")
			if !strings.Contains(all, "Lectern reads magazines aloud.") || !strings.Contains(all, "Second line of the scan.") {
				t.Fatalf("tesseract read %q", all)
			}
			// The first line's top is at 80 pt: its box must start about
			// 72 pt from the left and 75-90 pt from the top.
			b := blocks[0]
			if math.Abs(b.BBox[0]-72) > 4 || b.BBox[1] < 75 || b.BBox[1] > 90 {
				t.Fatalf("first block at %v, want about x=72 y=75..90 pt", b.BBox)
			}
		})
	}
}

func TestRecognizeReportsAMissingCommand(t *testing.T) {
	_, err := Engine{Command: "no-such-tesseract"}.Recognize(context.Background(), []byte("x"), 300)
	if !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("got %v", err)
	}
}

func TestRecognizeRefusesGarbage(t *testing.T) {
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Fatal("tesseract is not installed")
	}
	if _, err := (Engine{}).Recognize(context.Background(), []byte("not an image"), 300); err == nil {
		t.Fatal("garbage input accepted")
	}
}

// tsvPar is TSV for one tesseract paragraph: each line a list of words
// given as "left:text", 40 px high, 60 px apart, 12 px a letter.
func tsvPar(lines ...[]string) []byte {
	var b strings.Builder
	b.WriteString("level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n")
	for i, l := range lines {
		for k, w := range l {
			left, text, _ := strings.Cut(w, ":")
			fmt.Fprintf(&b, "5\t1\t1\t1\t%d\t%d\t%s\t%d\t%d\t40\t90\t%s\n", i+1, k+1, left, 300+60*i, 12*len(text), text)
		}
	}
	return []byte(b.String())
}

func TestParseTSVSplitsColumnsAtAGutter(t *testing.T) {
	tests := []struct {
		name  string
		lines [][]string
		want  []string
	}{
		{"two short columns read as one paragraph split at their gutter",
			[][]string{
				{"100:The", "150:harbour", "250:met", "600:The", "650:council", "750:will"},
				{"100:on", "140:Tuesday", "600:meet", "660:again", "740:soon"},
				{"100:to", "140:agree.", "600:in", "640:spring."},
			},
			[]string{"The harbour met on Tuesday to agree.", "The council will meet again soon in spring."}},
		{"three columns split twice",
			[][]string{
				{"100:One", "150:a", "500:Two", "550:b", "900:Three", "980:c"},
				{"100:one", "150:d", "500:two", "550:e", "900:three", "980:f"},
			},
			[]string{"One a one d", "Two b two e", "Three c three f"},
		},
		{"a justified line's wide gaps that do not line up stay one paragraph",
			[][]string{
				{"100:The", "300:harbour", "420:board", "500:met"},
				{"100:on", "140:Tuesday", "300:to", "480:agree"},
				{"100:that", "160:the", "210:work", "400:should"},
			},
			[]string{"The harbour board met on Tuesday to agree that the work should"}},
		{"one wide gap on one line is not a gutter",
			[][]string{
				{"100:Total", "600:12"},
				{"100:Sum", "150:of", "190:all"},
			},
			[]string{"Total 12 Sum of all"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			blocks, err := ParseTSV(tsvPar(tc.lines...), 300)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range blocks {
				got = append(got, b.Text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("paragraphs %q, want %q", got, tc.want)
			}
		})
	}
}

func TestChineseIsJoinedWithoutSpaces(t *testing.T) {
	blocks, err := ParseTSV(tsvPar(
		[]string{"100:行", "112:政", "124:处", "136:罚", "160:2019", "220:年"},
		[]string{"100:决", "112:定", "124:书。", "150:Report", "230:ready"},
	), 300)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || blocks[0].Text != "行政处罚 2019 年决定书。 Report ready" {
		t.Errorf("blocks %+v", blocks)
	}
}

// TestRecognizeReadsAChineseScanInChinese: English reads a Chinese page
// poorly, so the page's script is detected and it is read again in Chinese
// (the osd and chi_sim models are installed by make deps).
func TestRecognizeReadsAChineseScanInChinese(t *testing.T) {
	var d pdftest.Doc
	p := d.AddPage(595, 842)
	for i, l := range []string{
		"关于浙江菲达环保科技股份有限公司", "年度报告中有关财务事项的说明", "上海证券交易所",
		"经我关调查，当事人有以下违法行为", "当事人申领编号为进料加工手册", "备案进口无缝钢管焊管弯头等原料",
		"备案出口主蒸汽管道配管成品", "当事人向海关办理核销手续时", "将该手册项下主要进口料件申报",
		"经查当事人在生产过程中为确保产品质量", "之前需抽样原材料进行复验",
	} {
		p.Chinese(60, 80+float64(i)*40, 20, l)
	}
	// MuPDF draws the unembedded CJK font with fonts-droid-fallback.
	img, err := pdf.Render(context.Background(), d.Bytes(), 1, 300, pdf.DefaultLimits(), nil)
	if err != nil {
		t.Fatal(err)
	}
	png, err := pdf.EncodePNG(img)
	if err != nil {
		t.Fatal(err)
	}
	for name, engine := range map[string]Engine{"installed": {}, "the Lambda bundle": {Command: isolatedBundle(t)}} {
		blocks, err := engine.Recognize(context.Background(), png, 300)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, b := range blocks {
			text.WriteString(b.Text)
		}
		if !strings.Contains(text.String(), "当事人申领编号为进料加工手册") {
			t.Errorf("%s: read %q, want the Chinese lines", name, text.String())
		}
	}
	english, err := Engine{Languages: "eng"}.Recognize(context.Background(), png, 300)
	if err != nil {
		t.Fatal(err)
	}
	if mean := meanConfidence(english); mean >= MinConfidence {
		t.Errorf("English reads the Chinese page at confidence %.0f, not under %d", mean, MinConfidence)
	}
}

// rasterize renders a PDF's first page to a 300 DPI PNG with pdftoppm, as a
// scanner would give it: pixels only.
func rasterize(t *testing.T, pdf []byte) []byte {
	t.Helper()
	for _, tool := range []string{"tesseract", "pdftoppm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed: run `make deps` (apt-get install tesseract-ocr tesseract-ocr-eng poppler-utils)", tool)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "scan.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftoppm", "-r", "300", "-png", "-singlefile", path, filepath.Join(dir, "page")).CombinedOutput()
	if err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	png, err := os.ReadFile(filepath.Join(dir, "page.png"))
	if err != nil {
		t.Fatal(err)
	}
	return png
}

// isolatedBundle builds the self-contained Tesseract the Recognize Lambda
// carries and returns a command that runs it with an empty environment, so
// nothing of this machine helps it.
func isolatedBundle(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	bundle := filepath.Join(dir, "bundle")
	if out, err := exec.Command("../../../functions/recognize/bundle-tesseract.sh", bundle).CombinedOutput(); err != nil {
		t.Fatalf("bundle-tesseract.sh: %v %s", err, out)
	}
	isolated := filepath.Join(dir, "isolated-tesseract")
	script := "#!/bin/sh\nexec env -i " + filepath.Join(bundle, "run") + " \"$@\"\n"
	if err := os.WriteFile(isolated, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return isolated
}

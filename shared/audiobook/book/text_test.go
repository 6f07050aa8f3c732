package book

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// titles lists the chapters' titles, and checks they tile the text from
// the first chapter's start to its end, in order.
func titles(t *testing.T, b Book) []string {
	t.Helper()
	var out []string
	for i, c := range b.Chapters {
		if c.Index != i || c.Start >= c.End || c.End > len(b.Text) || (i > 0 && c.Start != b.Chapters[i-1].End) {
			t.Fatalf("chapter %d = %+v (text %d bytes)", i, c, len(b.Text))
		}
		out = append(out, c.Title)
	}
	if n := len(b.Chapters); n > 0 && b.Chapters[n-1].End != len(b.Text) {
		t.Fatalf("last chapter ends at %d, text at %d", b.Chapters[n-1].End, len(b.Text))
	}
	return out
}

func para(words int) string {
	return strings.TrimSpace(strings.Repeat("The text of the chapter goes on like this. ", words))
}

const gutenbergSample = "\ufeffThe Project Gutenberg eBook of A Test Book\r\n\r\n" +
	"This ebook is for the use of anyone anywhere in the United States.\r\n\r\n" +
	"Title: A Test Book\r\n\r\nAuthor: Ann Writer\r\n\r\nRelease date: May 1, 2020 [eBook #99999]\r\n\r\n" +
	"*** START OF THE PROJECT GUTENBERG EBOOK A TEST BOOK ***\r\n\r\n\r\n" +
	"Produced by Some Volunteers and the Online Distributed\r\nProofreading Team.\r\n\r\n\r\n" +
	"A TEST BOOK\r\n\r\nby Ann Writer\r\n\r\n\r\nContents\r\n\r\n" +
	" CHAPTER I.     The Start\r\n CHAPTER II.    The End\r\n\r\n\r\n" +
	"CHAPTER I.\r\nThe Start\r\n\r\n\r\n\"Hello,\" she said. " + "The first chapter's text goes on and on for a while.\r\n" +
	"It has two lines and more words than a contents entry has.\r\n\r\n" +
	"CHAPTER II.\r\nThe End\r\n\r\n\r\nThe second chapter's text, also long enough to be a chapter of its own\r\n" +
	"rather than a line in a table of contents at the front.\r\n\r\n\r\n" +
	"*** END OF THE PROJECT GUTENBERG EBOOK A TEST BOOK ***\r\n\r\n" +
	"Updated editions will replace the previous one.\r\n\r\nSTART: FULL LICENSE\r\n\r\nTHE FULL PROJECT GUTENBERG LICENSE\r\n"

func TestParseTextStripsGutenberg(t *testing.T) {
	b, err := ParseText([]byte(gutenbergSample), "upload.txt")
	if err != nil {
		t.Fatal(err)
	}
	if b.Title != "A Test Book" || b.Author != "Ann Writer" {
		t.Errorf("title %q author %q", b.Title, b.Author)
	}
	if !strings.HasPrefix(b.Text, "A TEST BOOK\r\n") || !strings.HasSuffix(b.Text, "at the front.") {
		t.Errorf("text = %q...%q", b.Text[:min(40, len(b.Text))], b.Text[max(0, len(b.Text)-40):])
	}
	for _, gone := range []string{"Gutenberg", "GUTENBERG", "LICENSE", "Produced by", "\ufeff"} {
		if strings.Contains(b.Text, gone) {
			t.Errorf("text still holds %q", gone)
		}
	}
	if !strings.Contains(gutenbergSample, b.Text) {
		t.Error("text is not kept exactly (CRLF and all) from the file")
	}
	got := titles(t, b)
	if strings.Join(got, "|") != "CHAPTER I. The Start|CHAPTER II. The End" {
		t.Errorf("chapters %q: the contents must not become chapters", got)
	}
	if body := b.Chapters[0].Body(b.Text); !strings.HasPrefix(body, "CHAPTER I.\r\nThe Start\r\n") || !strings.Contains(body, `"Hello,"`) {
		t.Errorf("chapter I = %q", body)
	}
}

func TestParseTextOlderGutenbergMarkers(t *testing.T) {
	data := "The Project Gutenberg EBook of Old Tales, by Some One\n\n" +
		"*END*THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*\n\n" +
		para(20) + "\n\nEnd of the Project Gutenberg EBook of Old Tales, by Some One\n\nlicence text\n"
	b, err := ParseText([]byte(data), "old.txt")
	if err != nil {
		t.Fatal(err)
	}
	if b.Title != "Old Tales" || b.Author != "Some One" {
		t.Errorf("title %q author %q", b.Title, b.Author)
	}
	if b.Text != para(20) {
		t.Errorf("text = %q", b.Text)
	}
	if got := titles(t, b); len(got) != 1 || got[0] != "Old Tales" {
		t.Errorf("a book without headings is one chapter named for the book: %q", got)
	}
}

func TestParseTextEncodings(t *testing.T) {
	// Latin-1 (é = E9) with Windows-1252 curly quotes (93, 94): not UTF-8.
	latin := []byte("\x93Caf\xe9,\x94 she said.\n")
	b, err := ParseText(latin, "cafe.txt")
	if err != nil {
		t.Fatal(err)
	}
	if b.Text != "“Café,” she said.\n" {
		t.Errorf("Latin-1 text = %q", b.Text)
	}
	if b.Title != "cafe" || len(b.Chapters) != 1 || b.Chapters[0].End != len(b.Text) {
		t.Errorf("book = %+v", b)
	}
	// UTF-8 with a byte order mark: the mark is not text.
	b, err = ParseText([]byte("\ufeff“Café,” she said."), "x.txt")
	if err != nil || b.Text != "“Café,” she said." {
		t.Errorf("UTF-8 text = %q, %v", b.Text, err)
	}
}

func TestParseTextRefuses(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":       nil,
		"blank":       []byte(" \n\r\n\t"),
		"binary":      {0x89, 'P', 'N', 'G', 0, 0, 0, 0x0d, 1, 2, 3},
		"zip":         []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"),
		"only header": []byte("Title: X\n*** START OF THE PROJECT GUTENBERG EBOOK X ***\n\n*** END OF THE PROJECT GUTENBERG EBOOK X ***\n"),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseText(data, name+".txt"); !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestChapterHeadings(t *testing.T) {
	body := para(8)
	for _, tc := range []struct {
		name string
		text string
		want []string
	}{
		{"arabic with the title on the line",
			"Chapter 1: The Boy\n\n" + body + "\n\nChapter 2 - The Girl\n\n" + body,
			[]string{"Chapter 1: The Boy", "Chapter 2 - The Girl"}},
		{"numbers in words",
			"CHAPTER ONE\n\n" + body + "\n\nCHAPTER TWENTY-ONE\n\n" + body,
			[]string{"CHAPTER ONE", "CHAPTER TWENTY-ONE"}},
		{"books group chapters",
			"BOOK I\n\nCHAPTER I.\n\n" + body + "\n\nCHAPTER II.\n\n" + body + "\n\nBOOK II\n\nCHAPTER I.\n\n" + body,
			[]string{"BOOK I — CHAPTER I.", "CHAPTER II.", "BOOK II — CHAPTER I."}},
		{"parts alone are chapters",
			"PART ONE\n\n" + body + "\n\nPART TWO\n\n" + body,
			[]string{"PART ONE", "PART TWO"}},
		{"a preface and an epilogue",
			"PREFACE\n\n" + body + "\n\nCHAPTER I\n\n" + body + "\n\nEPILOGUE\n\n" + body,
			[]string{"PREFACE", "CHAPTER I", "EPILOGUE"}},
		{"lone roman numerals when nothing else, in sequence",
			"I.\n\n" + body + "\n\nII.\n\n" + body + "\n\nV.\n\n" + body + "\n\nIII.\n\n" + body,
			[]string{"I.", "II.", "III."}},
		{"stories headed ADVENTURE, then a numeral with a title in capitals; sections inside are not chapters",
			"   I. A Scandal in Bohemia\n  II. The Red-headed League\n\n\nADVENTURE I. A SCANDAL IN BOHEMIA\n\nI.\n\n" + body + "\n\nII.\n\n" + body +
				"\n\nII. THE RED-HEADED LEAGUE\n\n" + body,
			[]string{"ADVENTURE I. A SCANDAL IN BOHEMIA", "II. THE RED-HEADED LEAGUE"}},
		{"a sentence that begins with Chapter is no heading",
			"CHAPTER I.\n\n" + body + "\n\nChapter 5 of the book was long.\n\n" + body,
			[]string{"CHAPTER I."}},
		{"a contents list with page numbers",
			"CONTENTS\n\nChapter 1. Arrival    3\nChapter 2. Departure    9\n\n\nChapter 1. Arrival\n\n" + body + "\n\nChapter 2. Departure\n\n" + body,
			[]string{"Chapter 1. Arrival", "Chapter 2. Departure"}},
		{"a prose opening before the first heading",
			"A foreword with no heading. " + body + "\n\nCHAPTER I.\n\n" + body,
			[]string{"Opening", "CHAPTER I."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseText([]byte(tc.text), "t.txt")
			if err != nil {
				t.Fatal(err)
			}
			if got := titles(t, b); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("chapters %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEvalAliceChapters: PDNC's Alice (Gutenberg #928 without its header)
// has twelve chapters, "CHAPTER I." to "CHAPTER XII.", each with its title
// line.
func TestEvalAliceChapters(t *testing.T) {
	dir := os.Getenv("LECTERN_SAMPLE_DATA")
	if dir == "" {
		t.Skip("LECTERN_SAMPLE_DATA is not set: PDNC novels absent")
	}
	data, err := os.ReadFile(filepath.Join(dir, "books", "AlicesAdventuresInWonderland", "novel_text.txt"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseText(data, "novel_text.txt")
	if err != nil {
		t.Fatal(err)
	}
	if b.Text != string(data) {
		t.Fatal("the text is not kept exactly")
	}
	got := titles(t, b)
	want := []string{"CHAPTER I. Down the Rabbit-Hole", "CHAPTER II. The Pool of Tears", "CHAPTER III. A Caucus-Race and a Long Tale",
		"CHAPTER IV. The Rabbit Sends in a Little Bill", "CHAPTER V. Advice from a Caterpillar", "CHAPTER VI. Pig and Pepper",
		"CHAPTER VII. A Mad Tea-Party", "CHAPTER VIII. The Queen's Croquet-Ground", "CHAPTER IX. The Mock Turtle's Story",
		"CHAPTER X. The Lobster Quadrille", "CHAPTER XI. Who Stole the Tarts?", "CHAPTER XII. Alice's Evidence"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("chapters\n got %q\nwant %q", got, want)
	}
	if b.Chapters[0].Start != 0 {
		t.Errorf("chapter I starts at %d", b.Chapters[0].Start)
	}
	t.Logf("PDNC Alice: %d chapters", len(got))
}

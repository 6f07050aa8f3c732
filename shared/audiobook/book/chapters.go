package book

import (
	"regexp"
	"strings"
	"unicode"
)

// Headings, matched on a line trimmed of spaces. A keyword is all capitals
// or capitalised; the number is roman, arabic or a word; a title may follow
// on the same line after a separator.
const (
	number    = `(?:[IVXLCDM]+|[ivxlcdm]+|\d+|(?i:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)(?:[- ](?i:one|two|three|four|five|six|seven|eight|nine|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth))?)`
	titleTail = `(?:\s*[.:—–-]+\s*(.{0,80}?)|\s+(\p{Lu}.{0,78}[^.,;!?]))?\s*$`
)

var (
	chapterHeading = regexp.MustCompile(`^(?:CHAPTER|Chapter|CHAP\.|Chap\.|STAVE|Stave|ADVENTURE|Adventure)\s+` + number + `\b` + titleTail)
	// romanTitled is a numeral with a title in capitals ("VII. THE BLUE
	// CARBUNCLE"); a contents line in title case is not one.
	romanTitled  = regexp.MustCompile(`^[IVXLC]+\.\s+\p{Lu}[\p{Lu}\d\s,;:'’!?&.-]+$`)
	groupHeading = regexp.MustCompile(`^(?:BOOK|Book|PART|Part|VOLUME|Volume|VOL\.|Vol\.)\s+` + number + `\b` + titleTail)
	namedHeading = regexp.MustCompile(`^(?:PREFACE|Preface|PROLOGUE|Prologue|EPILOGUE|Epilogue|INTRODUCTION|Introduction|FOREWORD|Foreword|AFTERWORD|Afterword|CONCLUSION|Conclusion|APPENDIX|Appendix)\.?$`)
	// romanHeading is a lone numeral line ("IV." or "12"), trusted only
	// when the book has no keyword headings and the numbers run 1, 2, 3...
	romanHeading = regexp.MustCompile(`^([IVXLC]+|\d{1,3})\.?$`)
)

// minBody is how many non-space bytes a heading needs before the next one
// to be a chapter and not a table of contents entry.
const minBody = 100

type heading struct {
	start  int    // first byte of the heading line
	bodyAt int    // first byte after the heading (and its title line)
	title  string // heading and title, spaces collapsed
	group  bool   // BOOK, PART, VOLUME: holds chapters
}

type line struct{ start, end int }

func linesOf(text string) []line {
	var out []line
	for at := 0; at <= len(text); {
		nl := strings.IndexByte(text[at:], '\n')
		if nl < 0 {
			out = append(out, line{at, len(text)})
			break
		}
		out = append(out, line{at, at + nl})
		at += nl + 1
	}
	return out
}

// findChapters finds the chapters of a plain-text book; see the package
// comment for their bounds. A heading is a short line that starts a
// paragraph: "CHAPTER I." / "Chapter 1: Title" / "CHAPTER TWENTY-ONE" (also
// STAVE, ADVENTURE), a numeral with a title in capitals, or PREFACE,
// PROLOGUE, EPILOGUE and the like; a short line right below it is its
// title. BOOK, PART and VOLUME headings hold chapters: one directly above a
// chapter heading joins that chapter's title, one with text of its own is
// a chapter. Lone numerals ("IV.") count only in a book with none of those,
// and only in sequence. Headings with next to no text before the next one
// are a table of contents and dropped. A book without headings is one
// chapter.
func findChapters(text, title string) []Chapter {
	ls := linesOf(text)
	hs := candidates(text, ls, false)
	if len(hs) == 0 {
		hs = candidates(text, ls, true)
	}
	hs = dropContents(text, hs)
	if len(hs) == 0 {
		return []Chapter{{Index: 0, Title: title, Start: 0, End: len(text)}}
	}
	var out []Chapter
	if proseBefore(text[:hs[0].start]) {
		out = append(out, Chapter{Title: "Opening", Start: 0, End: hs[0].start})
	}
	for i, h := range hs {
		end := len(text)
		if i+1 < len(hs) {
			end = hs[i+1].start
		}
		out = append(out, Chapter{Title: h.title, Start: h.start, End: end})
	}
	for i := range out {
		out[i].Index = i
	}
	return out
}

// candidates lists heading lines: keyword headings, or lone numerals in
// sequence when numerals is set. A heading starts a paragraph and is at
// most two lines long with its title, so a sentence that begins
// "Chapter 5 of..." is not one.
func candidates(text string, ls []line, numerals bool) []heading {
	var out []heading
	want := 1
	blank := func(i int) bool { return i < 0 || i >= len(ls) || strings.TrimSpace(text[ls[i].start:ls[i].end]) == "" }
	for i, l := range ls {
		s := strings.TrimSpace(text[l.start:l.end])
		if s == "" || len(s) > 90 {
			continue
		}
		afterHeading := len(out) > 0 && out[len(out)-1].bodyAt == l.start
		if !blank(i-1) && !afterHeading {
			continue
		}
		h := heading{start: l.start, bodyAt: lineAfter(ls, i, text), title: collapse(s)}
		switch {
		case numerals:
			m := romanHeading.FindStringSubmatch(s)
			if m == nil || !blank(i+1) || value(m[1]) != want {
				continue
			}
			want++
		case chapterHeading.MatchString(s), namedHeading.MatchString(s), romanTitled.MatchString(s):
		case groupHeading.MatchString(s):
			h.group = true
		default:
			continue
		}
		// The title on the line below: short, alone, not a sentence.
		if i+2 < len(ls) && !blank(i+1) && blank(i+2) && !h.group {
			t := strings.TrimSpace(text[ls[i+1].start:ls[i+1].end])
			if len(t) <= 70 && !chapterHeading.MatchString(t) && !strings.ContainsAny(t[len(t)-1:], ",;") {
				h.title += " " + collapse(t)
				h.bodyAt = lineAfter(ls, i+1, text)
			}
		}
		out = append(out, h)
	}
	return out
}

func lineAfter(ls []line, i int, text string) int {
	if i+1 < len(ls) {
		return ls[i+1].start
	}
	return len(text)
}

// dropContents removes table of contents entries (headings with next to no
// text before the next heading) and folds a BOOK or PART heading into the
// chapter that follows it at once.
func dropContents(text string, hs []heading) []heading {
	var out []heading
	for i := 0; i < len(hs); i++ {
		h := hs[i]
		end := len(text)
		if i+1 < len(hs) {
			end = hs[i+1].start
		}
		if nonSpace(text[h.bodyAt:end]) >= minBody {
			out = append(out, h)
			continue
		}
		// BOOK I directly above CHAPTER I: the chapter starts at the group.
		// Its own title lines, if any, join the chapter's title.
		if h.group && i+1 < len(hs) && !hs[i+1].group {
			nextEnd := len(text)
			if i+2 < len(hs) {
				nextEnd = hs[i+2].start
			}
			if nonSpace(text[hs[i+1].bodyAt:nextEnd]) >= minBody {
				group := collapse(text[h.start:hs[i+1].start])
				out = append(out, heading{start: h.start, bodyAt: hs[i+1].bodyAt, title: group + " — " + hs[i+1].title})
				i++
			}
		}
	}
	return out
}

// proseBefore reports whether front matter holds a paragraph of prose (a
// preface without a heading), which then becomes a chapter of its own;
// title pages and contents are short lines.
func proseBefore(s string) bool {
	for _, p := range blankLine.Split(s, -1) {
		if nonSpace(p) >= 200 && strings.Count(strings.TrimSpace(p), "\n") < nonSpace(p)/30 {
			return true
		}
	}
	return false
}

func nonSpace(s string) int {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// value reads a roman or arabic numeral; 0 when it is neither.
func value(s string) int {
	if s[0] >= '0' && s[0] <= '9' {
		n := 0
		for _, c := range s {
			n = n*10 + int(c-'0')
		}
		return n
	}
	digits := map[rune]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100}
	n := 0
	for i, c := range s {
		v := digits[c]
		if i+1 < len(s) && digits[rune(s[i+1])] > v {
			n -= v
		} else {
			n += v
		}
	}
	return n
}

package book

import (
	"regexp"
	"strings"
	"unicode"
)

// titlePageLines is how far into a text its title page may reach, in
// lines that are not blank.
const titlePageLines = 12

var (
	byLine     = regexp.MustCompile(`(?i)^_?by[ \t]+(.+?)[_.]?$`)
	smallWords = map[string]bool{"a": true, "an": true, "and": true, "as": true, "at": true, "but": true, "by": true,
		"for": true, "from": true, "in": true, "nor": true, "of": true, "on": true, "or": true, "the": true, "to": true, "with": true}
)

// titlePage reads the title page at the top of a text without a Gutenberg
// header: its first line is the title when it stands on its own (a
// paragraph of at most three short lines), is no chapter heading and does
// not read as a sentence; a "by NAME" line (or "by" above the name) before
// the first heading is the author. A title or name in capitals is given
// title case, as players show it. Nothing found answers "".
func titlePage(text string) (title, author string) {
	var lines []string // the top's lines, "" for a blank one
	seen := 0
	for _, l := range strings.SplitN(text[:min(len(text), 8192)], "\n", 200) {
		l = strings.TrimSpace(l)
		if l != "" {
			if seen++; seen > titlePageLines {
				break
			}
		}
		lines = append(lines, l)
	}
	first := 0
	for first < len(lines) && lines[first] == "" {
		first++
	}
	if first == len(lines) || !titleLine(lines[first]) {
		return "", ""
	}
	para := first
	for para < len(lines) && lines[para] != "" {
		if len(lines[para]) > 80 {
			return "", ""
		}
		para++
	}
	if para-first > 3 {
		return "", ""
	}
	title = titleCase(lines[first])
	for i := first + 1; i < len(lines); i++ {
		l := lines[i]
		if isHeading(l) {
			break
		}
		if m := byLine.FindStringSubmatch(l); m != nil && len(l) <= 60 {
			return title, titleCase(strings.Trim(m[1], "_ "))
		}
		if strings.EqualFold(strings.Trim(l, "_ "), "by") {
			for j := i + 1; j < len(lines); j++ {
				if lines[j] != "" {
					if len(lines[j]) <= 60 && !isHeading(lines[j]) {
						author = titleCase(strings.Trim(lines[j], "_ "))
					}
					return title, author
				}
			}
		}
	}
	return title, ""
}

// titleLine reports whether a line may be a title: short, with letters,
// no heading, not opening a quotation nor ending as a sentence or clause.
func titleLine(l string) bool {
	if len(l) > 80 || isHeading(l) || strings.ContainsAny(l[:1], "\"'“‘(") || strings.ContainsAny(l[len(l)-1:], ".,;:\"'”’") {
		return false
	}
	letters := 0
	for _, r := range l {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return letters >= 2
}

func isHeading(l string) bool {
	return chapterHeading.MatchString(l) || groupHeading.MatchString(l) || namedHeading.MatchString(l) ||
		romanTitled.MatchString(l) || romanHeading.MatchString(l)
}

// titleCase gives a line in capitals title case ("THE MAN WHO WAS
// THURSDAY" → "The Man Who Was Thursday", "DAISY MILLER: A STUDY" → "Daisy
// Miller: A Study", "A. A. MILNE" → "A. A. Milne");
// a line with lower case letters is kept as written.
func titleCase(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if strings.ToUpper(s) != s || strings.ToLower(s) == s {
		return s
	}
	words := strings.Fields(strings.ToLower(s))
	for i, w := range words {
		parts := strings.Split(w, "-")
		for j, p := range parts {
			if (i == 0 || strings.HasSuffix(words[i-1], ":")) && j == 0 || !smallWords[p] {
				parts[j] = upperFirst(p)
			}
		}
		words[i] = strings.Join(parts, "-")
	}
	return strings.Join(words, " ")
}

func upperFirst(s string) string {
	for i, r := range s {
		if unicode.IsLetter(r) {
			return s[:i] + string(unicode.ToUpper(r)) + s[i+len(string(r)):]
		}
	}
	return s
}

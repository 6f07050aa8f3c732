package magazine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Text-layer quality thresholds. A scan's hidden OCR layer is only as good as
// the OCR that made it; a born-digital layer is exact unless its fonts map
// glyphs to the wrong characters.
const (
	// QualityMinWords: below this many Latin words the dictionary and
	// fragment measures say nothing (a CJK page, a form with a few labels).
	QualityMinWords = 40
	// ScanMinDictionary: on a scanned page, a layer with fewer dictionary
	// words than this share is misread OCR. Good OCR of clean print gives
	// over 90%; a worn 1901 newspaper's layer gives 83% and is still worth
	// more than Tesseract's reading of it.
	ScanMinDictionary = 0.70
	// ScanFragmentDictionary: a scan's layer set word by word (a block a
	// word) is misread OCR below this share of dictionary words.
	ScanFragmentDictionary = 0.85
	// MaxOddShare: a layer where this share of the characters belong to no
	// script (private-use glyphs, replacement characters, control codes) has
	// broken font encodings, on any page.
	MaxOddShare = 0.10
	// ScanCoverShare: a picture covering this share of the page makes it a
	// scanned page.
	ScanCoverShare = 0.80
)

// TextQuality is what a page's text layer is worth.
type TextQuality struct {
	Words          int     `json:"words"`           // Latin-script words of two letters or more
	DictionaryRate float64 `json:"dictionary_rate"` // share of Words found in the lexicon
	Looked         bool    `json:"looked"`          // the words were looked up (a lexicon was given)
	WordsPerBlock  float64 `json:"words_per_block"` // the median block's word count
	OddShare       float64 `json:"odd_share"`       // share of characters outside any script
	Scan           bool    `json:"scan"`            // the text lies on a page-sized picture
}

// MeasureText measures a page's text layer. known says whether a lower-case
// word is in the lexicon; nil skips the dictionary (born-digital text is
// spelled as its author typed it, so only a scan's layer needs it).
func MeasureText(tp TextPage, known func(string) bool) TextQuality {
	q := TextQuality{Scan: IsScan(tp), Looked: known != nil}
	var counts []int
	runes, odd, found := 0, 0, 0
	for _, b := range tp.Blocks {
		n := 0
		for _, w := range strings.Fields(b.Text) {
			n++
			for _, r := range w {
				runes++
				if oddRune(r) {
					odd++
				}
			}
			word := strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }))
			if !latinWord(word) {
				continue
			}
			q.Words++
			if known != nil && known(word) {
				found++
			}
		}
		if n > 0 {
			counts = append(counts, n)
		}
	}
	if q.Words > 0 && known != nil {
		q.DictionaryRate = float64(found) / float64(q.Words)
	}
	if runes > 0 {
		q.OddShare = float64(odd) / float64(runes)
	}
	if len(counts) > 0 {
		slices.Sort(counts)
		q.WordsPerBlock = float64(counts[len(counts)/2])
	}
	return q
}

// Poor says whether the layer is too poor to read aloud, and why. A
// born-digital layer is poor only when its characters are broken; a scan's
// OCR layer also when it is misspelled or in word fragments.
func (q TextQuality) Poor() (bool, string) {
	if q.OddShare >= MaxOddShare {
		return true, fmt.Sprintf("%.0f%% of its characters belong to no script (broken font encoding; the limit is %.0f%%)", 100*q.OddShare, 100*MaxOddShare)
	}
	if !q.Scan || !q.Looked || q.Words < QualityMinWords {
		return false, ""
	}
	if q.DictionaryRate < ScanMinDictionary {
		return true, fmt.Sprintf("a scan's text layer with %.0f%% dictionary words (below %.0f%%)", 100*q.DictionaryRate, 100*ScanMinDictionary)
	}
	if q.WordsPerBlock <= 1 && q.DictionaryRate < ScanFragmentDictionary {
		return true, fmt.Sprintf("a scan's text layer set word by word with %.0f%% dictionary words (below %.0f%%)", 100*q.DictionaryRate, 100*ScanFragmentDictionary)
	}
	return false, ""
}

// Better says whether q reads better than o: more dictionary words (by a
// clear margin), or as many in longer runs.
func (q TextQuality) Better(o TextQuality) bool {
	if q.OddShare < MaxOddShare && o.OddShare >= MaxOddShare {
		return true
	}
	if q.Words < QualityMinWords || o.Words < QualityMinWords {
		return q.Words > o.Words
	}
	if d := q.DictionaryRate - o.DictionaryRate; math.Abs(d) >= 0.02 {
		return d > 0
	}
	return q.WordsPerBlock > o.WordsPerBlock
}

// IsScan: one picture covers most of the page, so its text (if any) is an
// OCR layer laid over a scanned image.
func IsScan(tp TextPage) bool {
	area := tp.Width * tp.Height
	if area <= 0 {
		return false
	}
	page := BBox{0, 0, tp.Width, tp.Height}
	for _, p := range tp.Pictures {
		if p.Overlap(page) >= ScanCoverShare*area {
			return true
		}
	}
	return false
}

// latinWord: two letters or more, every one Latin (the lexicon's languages).
func latinWord(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.Is(unicode.Latin, r) {
			return false
		}
		n++
	}
	return n >= 2
}

// oddRune: a character no script or punctuation claims: private-use glyphs
// (an unmapped font), U+FFFD, control and unassigned code points.
func oddRune(r rune) bool {
	return r == unicode.ReplacementChar || unicode.Is(unicode.Co, r) || unicode.IsControl(r) ||
		!unicode.IsPrint(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r)
}

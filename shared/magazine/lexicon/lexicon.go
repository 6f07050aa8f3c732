// Package lexicon is the word list that text-layer quality is measured
// against: Debian's word lists for English (American and British), French, German, Spanish and
// Italian (infra/lexicon.sh rebuilds words.txt.gz), about 850,000 forms.
package lexicon

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

//go:embed words.txt.gz
var packed []byte

// Lexicon answers whether a lower-case word is a known word form. The list is
// one sorted string searched in place, so the 850,000 forms cost about
// 13 MB, not a map's 60.
type Lexicon struct {
	words  string
	starts []int32 // offset of each word in words
}

// Load unpacks the embedded list (about 100 ms).
func Load() (*Lexicon, error) {
	zr, err := gzip.NewReader(bytes.NewReader(packed))
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("lexicon: %w", err)
	}
	words := string(raw)
	starts := make([]int32, 0, bytes.Count(raw, []byte{'\n'})+1)
	for at := 0; at < len(words); {
		starts = append(starts, int32(at))
		end := strings.IndexByte(words[at:], '\n')
		if end < 0 {
			break
		}
		at += end + 1
	}
	return &Lexicon{words: words, starts: starts}, nil
}

// Len is the number of word forms.
func (l *Lexicon) Len() int { return len(l.starts) }

func (l *Lexicon) word(i int) string {
	end := len(l.words)
	if i+1 < len(l.starts) {
		end = int(l.starts[i+1]) - 1
	}
	return l.words[l.starts[i]:end]
}

// Has reports whether the (lower-case, NFC) word is in the list.
func (l *Lexicon) Has(word string) bool {
	i := sort.Search(len(l.starts), func(i int) bool { return l.word(i) >= word })
	return i < len(l.starts) && l.word(i) == word
}

// Lazy loads the lexicon on first use, once: most processes never judge a
// text layer and should not pay for the list.
type Lazy struct {
	once sync.Once
	lex  *Lexicon
	err  error
}

// Get returns the lexicon, loading it the first time.
func (z *Lazy) Get() (*Lexicon, error) {
	z.once.Do(func() { z.lex, z.err = Load() })
	return z.lex, z.err
}

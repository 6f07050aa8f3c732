package voices

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Search limits, the MCP conventions' paging rules.
const (
	DefaultLimit   = 20
	MaxLimit       = 100
	MaxQueryChars  = 200
	MaxSearchTerms = 10
)

// Query selects voices. Text matches name, description and tags: every
// word of it must appear in one of them, ignoring case. The filters are
// exact, but Language also takes a prefix at a subtag boundary ("en" finds
// en-us and en-gb).
type Query struct {
	Text     string
	Language string
	Gender   Gender
	Age      Age
	Source   Source
	Engine   string
	Limit    int // 1..MaxLimit; 0 means DefaultLimit
	Offset   int // >= 0
}

// Result is one page of a search, in the MCP conventions' paginated shape.
type Result struct {
	Total      int     `json:"total" doc:"voices matching the search"`
	Count      int     `json:"count" doc:"voices in this page"`
	Offset     int     `json:"offset" doc:"index of this page's first voice among all matches"`
	Items      []Voice `json:"items" doc:"the voices, best match first"`
	HasMore    bool    `json:"has_more" doc:"more voices follow this page"`
	NextOffset *int    `json:"next_offset" doc:"offset of the next page; null when there is none"`
}

// NormalizeQuery trims q and applies the defaults, then checks it: the
// error wraps ErrInvalid.
func NormalizeQuery(q Query) (Query, error) {
	q.Text = strings.Join(strings.Fields(q.Text), " ")
	q.Language = strings.ToLower(strings.TrimSpace(q.Language))
	q.Gender = Gender(strings.ToLower(strings.TrimSpace(string(q.Gender))))
	q.Age = Age(strings.ToLower(strings.TrimSpace(string(q.Age))))
	q.Source = Source(strings.ToLower(strings.TrimSpace(string(q.Source))))
	q.Engine = strings.TrimSpace(q.Engine)
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	switch {
	case !utf8.ValidString(q.Text) || utf8.RuneCountInString(q.Text) > MaxQueryChars:
		return q, fmt.Errorf("%w: search text must be valid UTF-8 of at most %d characters", ErrInvalid, MaxQueryChars)
	case len(Terms(q.Text)) > MaxSearchTerms:
		return q, fmt.Errorf("%w: search text has more than %d words", ErrInvalid, MaxSearchTerms)
	case q.Limit < 1 || q.Limit > MaxLimit:
		return q, fmt.Errorf("%w: limit %d is outside 1..%d", ErrInvalid, q.Limit, MaxLimit)
	case q.Offset < 0:
		return q, fmt.Errorf("%w: offset %d is negative", ErrInvalid, q.Offset)
	}
	if err := CheckLanguage(q.Language); err != nil {
		return q, err
	}
	if err := CheckGender(q.Gender); err != nil {
		return q, err
	}
	if err := CheckAge(q.Age); err != nil {
		return q, err
	}
	if q.Source != "" {
		if err := CheckSource(q.Source); err != nil {
			return q, err
		}
	}
	if q.Engine != "" {
		if err := CheckEngine(q.Engine); err != nil {
			return q, err
		}
	}
	return q, nil
}

// Terms are the lower-cased words of a search text, each searched for on
// its own.
func Terms(text string) []string { return strings.Fields(strings.ToLower(text)) }

// Haystack is the text a search looks in: name, description and tags,
// lower-cased and separated by newlines, so a term never matches across two
// fields.
func Haystack(v Voice) string {
	return strings.ToLower(v.Name + "\n" + v.Description + "\n" + strings.Join(v.Tags, "\n"))
}

// NameKey orders voices by name, ignoring case.
func NameKey(v Voice) string { return strings.ToLower(v.Name) }

// Matches reports whether q (normalised) selects v.
func Matches(q Query, terms []string, v Voice) bool {
	if q.Language != "" && !LanguageMatches(q.Language, v.Language) ||
		q.Gender != "" && v.Gender != q.Gender ||
		q.Age != "" && v.Age != q.Age ||
		q.Source != "" && v.Source != q.Source ||
		q.Engine != "" && v.Engine != q.Engine {
		return false
	}
	if len(terms) == 0 {
		return true
	}
	hay := Haystack(v)
	for _, t := range terms {
		if !strings.Contains(hay, t) {
			return false
		}
	}
	return true
}

// LanguageMatches reports whether the filter selects a voice's language:
// the same tag, or a prefix of it ending at a subtag boundary.
func LanguageMatches(filter, language string) bool {
	return language == filter || strings.HasPrefix(language, filter+"-")
}

// Rank is 0 when every term is in the voice's name, else 1: a voice named
// for the search comes before one that only mentions it.
func Rank(terms []string, v Voice) int {
	name := NameKey(v)
	for _, t := range terms {
		if !strings.Contains(name, t) {
			return 1
		}
	}
	return 0
}

// Compare is the order of search results: rank, then name ignoring case,
// then id.
func Compare(terms []string, a, b Voice) int {
	return cmp.Or(
		cmp.Compare(Rank(terms, a), Rank(terms, b)),
		strings.Compare(NameKey(a), NameKey(b)),
		strings.Compare(a.ID, b.ID),
	)
}

// Search is the whole search over voices held in memory: the reference the
// SQLite adapter is measured against. q must be normalised.
func Search(all []Voice, q Query) Result { return NewLibrary(all).Search(q) }

// Library is voices held in memory with what search compares precomputed,
// for a process that searches the same voices many times (the table
// adapter's cache).
type Library struct {
	voices []Voice
	hay    []string // Haystack of each voice
	names  []string // NameKey of each voice
}

// NewLibrary indexes voices for Search.
func NewLibrary(all []Voice) *Library {
	l := &Library{voices: all, hay: make([]string, len(all)), names: make([]string, len(all))}
	for i, v := range all {
		l.hay[i], l.names[i] = Haystack(v), NameKey(v)
	}
	return l
}

// Search is a linear scan with Matches' rules, ordered as Compare orders.
func (l *Library) Search(q Query) Result {
	terms := Terms(q.Text)
	type hit struct {
		i, rank int
	}
	var hits []hit
	for i, v := range l.voices {
		if !Matches(q, nil, v) || !containsAll(l.hay[i], terms) {
			continue
		}
		rank := 1
		if containsAll(l.names[i], terms) {
			rank = 0
		}
		hits = append(hits, hit{i, rank})
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), strings.Compare(l.names[a.i], l.names[b.i]), strings.Compare(l.voices[a.i].ID, l.voices[b.i].ID))
	})
	start := min(q.Offset, len(hits))
	end := min(start+q.Limit, len(hits))
	page := make([]Voice, 0, end-start)
	for _, h := range hits[start:end] {
		page = append(page, l.voices[h.i])
	}
	return NewResult(page, len(hits), q.Offset)
}

func containsAll(s string, terms []string) bool {
	for _, t := range terms {
		if !strings.Contains(s, t) {
			return false
		}
	}
	return true
}

// NewResult makes a page's Result from its voices, the total and its offset.
func NewResult(page []Voice, total, offset int) Result {
	r := Result{Total: total, Count: len(page), Offset: offset, Items: append([]Voice{}, page...)}
	if next := offset + len(page); next < total && len(page) > 0 {
		r.HasMore, r.NextOffset = true, &next
	}
	return r
}

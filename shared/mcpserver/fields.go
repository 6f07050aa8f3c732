package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/google/jsonschema-go/jsonschema"
)

// The response formats of response_format.
const (
	formatMarkdown = "markdown"
	formatJSON     = "json"
)

// Paging limits (the spec's Limits table).
const (
	defaultLimit = 20
	maxLimit     = 100
)

// Format is the shared response_format field.
type Format struct {
	ResponseFormat string `json:"response_format,omitempty" jsonschema:"markdown (the default): human readable; json: complete and machine readable"`
}

func (f Format) format() string {
	if f.ResponseFormat == "" {
		return formatMarkdown
	}
	return f.ResponseFormat
}

// Paging is the shared limit/offset pair of list tools.
type Paging struct {
	Limit  int `json:"limit,omitempty" jsonschema:"how many items to return, 1 to 100 (default 20)"`
	Offset int `json:"offset,omitempty" jsonschema:"how many items to skip, at least 0 (default 0); pass the previous answer's next_offset"`
}

// sharedFields gives the shared fields their rules wherever an input has
// them. (jsonschema.For already refuses fields a struct does not name.)
func sharedFields(s *jsonschema.Schema) {
	if p, ok := s.Properties["response_format"]; ok {
		p.Enum = []any{formatMarkdown, formatJSON}
		p.Default = json.RawMessage(`"markdown"`)
	}
	if p, ok := s.Properties["limit"]; ok {
		between(1, maxLimit)(p)
		p.Default = json.RawMessage(fmt.Sprint(defaultLimit))
	}
	if p, ok := s.Properties["offset"]; ok {
		atLeast(0)(p)
		p.Default = json.RawMessage("0")
	}
}

// rule is one constraint on a property's schema.
type rule func(*jsonschema.Schema)

// set applies rules to a named property; a name the input lacks is a
// programming error the snapshot tests catch at once.
func set(s *jsonschema.Schema, name string, rules ...rule) {
	p, ok := s.Properties[name]
	if !ok {
		panic("schema has no property " + name)
	}
	for _, r := range rules {
		r(p)
	}
}

func length(lo, hi int) rule {
	return func(s *jsonschema.Schema) { s.MinLength, s.MaxLength = &lo, &hi }
}

func pattern(p string) rule { return func(s *jsonschema.Schema) { s.Pattern = p } }

func between(lo, hi float64) rule {
	return func(s *jsonschema.Schema) { s.Minimum, s.Maximum = &lo, &hi }
}

func atLeast(lo float64) rule { return func(s *jsonschema.Schema) { s.Minimum = &lo } }

func items(lo, hi int, each ...rule) rule {
	return func(s *jsonschema.Schema) {
		s.MinItems, s.MaxItems = &lo, &hi
		for _, r := range each {
			r(s.Items)
		}
	}
}

func oneOf(vals ...string) rule {
	return func(s *jsonschema.Schema) {
		s.Enum = nil
		for _, v := range vals {
			s.Enum = append(s.Enum, v)
		}
	}
}

func defaultTo(v any) rule {
	return func(s *jsonschema.Schema) {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		s.Default = b
	}
}

// Page is one page of a paginated list (the spec's shape).
type Page[T any] struct {
	Total      int  `json:"total"`
	Count      int  `json:"count"`
	Offset     int  `json:"offset"`
	Items      []T  `json:"items"`
	HasMore    bool `json:"has_more"`
	NextOffset *int `json:"next_offset"`
}

// paginate cuts one page out of a whole list.
func paginate[T any](all []T, p Paging) Page[T] {
	limit := p.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	start := min(max(p.Offset, 0), len(all))
	end := min(start+limit, len(all))
	pg := Page[T]{Total: len(all), Count: end - start, Offset: start, Items: all[start:end], HasMore: end < len(all)}
	if pg.Items == nil {
		pg.Items = []T{}
	}
	if pg.HasMore {
		pg.NextOffset = &end
	}
	return pg
}

// more is the markdown line saying how to get the next page.
func more(total, count, offset int, next *int) string {
	s := fmt.Sprintf("\nShowing %d of %d (offset %d).", count, total, offset)
	if next != nil {
		s += fmt.Sprintf(" More: call again with offset %d.", *next)
	}
	return s + "\n"
}

// clean removes invisible control and format characters (zero-width,
// bidirectional overrides) from text a model will read; newlines and tabs
// stay. Text from PDFs and engines is untrusted.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

// cleanValue cleans every string of a decoded JSON value.
func cleanValue(v any) any { return mapStrings(v, clean) }

// mapStrings replaces every string of a decoded JSON value with f of it.
func mapStrings(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		for i := range x {
			x[i] = mapStrings(x[i], f)
		}
	case map[string]any:
		for k := range x {
			x[k] = mapStrings(x[k], f)
		}
	}
	return v
}

// oneLine shortens text to one line of at most n characters for a list.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

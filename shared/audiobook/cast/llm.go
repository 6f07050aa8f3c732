package cast

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/lectern/lectern/shared/audiobook/spans"
)

// LLM is the port to a chat model answering in JSON that follows a schema;
// shared/engines/oaichat's Client satisfies it.
type LLM interface {
	ChatSchema(ctx context.Context, system, user, schemaName string, schema map[string]any) (string, error)
}

// Options bound the LLM passes. The zero value means the defaults.
type Options struct {
	// Window is the most dialogue spans asked about in one request
	// (default and ceiling 40).
	Window int
	// TokensPerSpan is the average prompt budget per asked span (default
	// and ceiling 150). Tokens are estimated as ceil(bytes/4) of the system
	// and user messages; the schema, sent as response_format, is not
	// counted.
	TokensPerSpan int
	// Context is the most context (bytes) shown on each side of an asked
	// span (default 600); the budget may shorten it.
	Context int
}

// The defaults and ceilings of Options.
const (
	MaxWindow        = 40
	MaxTokensPerSpan = 150
	DefaultContext   = 600
)

func (o Options) norm() Options {
	if o.Window <= 0 || o.Window > MaxWindow {
		o.Window = MaxWindow
	}
	if o.TokensPerSpan <= 0 || o.TokensPerSpan > MaxTokensPerSpan {
		o.TokensPerSpan = MaxTokensPerSpan
	}
	if o.Context <= 0 {
		o.Context = DefaultContext
	}
	return o
}

// Stats measure the requests of one pass.
type Stats struct {
	Requests     int
	AskedSpans   int
	PromptTokens int // estimated: ceil(bytes/4) of system + user messages
}

// estimateTokens is the prompt size estimate: a quarter of the bytes,
// rounded up (English prose runs about 4 bytes per token).
func estimateTokens(s string) int { return (len(s) + 3) / 4 }

// speakersSchema is the structured answer: speaker names for span ids,
// never text.
var speakersSchema = map[string]any{
	"type":                 "object",
	"additionalProperties": false,
	"required":             []any{"speakers"},
	"properties": map[string]any{
		"speakers": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type":                 "object",
				"additionalProperties": false,
				"required":             []any{"span", "speaker"},
				"properties": map[string]any{
					"span":    map[string]any{"type": "string"},
					"speaker": map[string]any{"type": "string"},
				},
			},
		},
	},
}

const speakersSystem = `You name who speaks each marked line of a novel excerpt. A marked line is [[ID]]"…"[[/]]; {Name} before a quotation gives its known speaker. The cast list gives each character's aliases and gender; a line the first-person narrator speaks ("said I") is the character marked narrator. For every ID answer one name from the cast list, or "Unknown". Never quote or repeat text.`

// LowConfidence is the confidence below which a rule answer is asked about
// again: the LLM pass asks about the lines the rules left blank and those
// they answered below it (a guess from turn-taking in a crowded scene, a
// pronoun with two candidates). An answer without a confidence (0) is one
// the rules did not rate and stays, as does every explicit tag.
const LowConfidence = 0.6

// Asks reports whether the LLM pass asks about a line: no speaker, or a
// rule answer rated below LowConfidence. An explicit tag, a line set by
// hand and an LLM answer are never asked again.
func Asks(a Attribution) bool {
	switch {
	case a.Source == SourceExplicit || a.Source == SourceLLM || a.Source == sourceHand:
		return false
	case a.Speaker == "":
		return true
	}
	return a.Confidence > 0 && a.Confidence < LowConfidence
}

// sourceHand is the audiobook service's source of a speaker set by hand,
// which it hands in as fixed.
const sourceHand Source = "hand"

// AttributeLLM asks the LLM who speaks the dialogue spans that fixed leaves
// without a speaker or with a rule answer below LowConfidence (Asks), and
// returns one Attribution per dialogue span in text order: fixed ones as
// they were, the LLM's answers with SourceLLM, the rest SourceNone. A
// low-confidence rule answer the LLM confirms, or leaves Unknown, stays
// as it was. Requests hold at most opt.Window asked spans, the cast list
// (aliases, gender, narrator) and marked context trimmed to
// opt.TokensPerSpan per asked span on average. Names the cast does not
// know are dropped. On an LLM failure the attributions made so far are
// returned with the error; with no LLM (nil) the error is ErrNoLLM.
func AttributeLLM(ctx context.Context, llm LLM, text string, sp []spans.Span, cast []Character, fixed []Attribution, opt Options) ([]Attribution, Stats, error) {
	d, ci, att, err := prepare(llm, text, sp, cast, fixed)
	if err != nil {
		return nil, Stats{}, err
	}
	var ask []int
	for i, a := range att {
		if Asks(a) {
			ask = append(ask, i)
		}
	}
	known := func(i int) string { return att[i].Speaker }
	answers, st, err := d.askAll(ctx, llm, ci, ask, known, opt.norm(), 0)
	for i, name := range answers {
		if Asks(att[i]) && name != att[i].Speaker {
			att[i] = Attribution{SpanID: att[i].SpanID, Speaker: name, Source: SourceLLM}
		}
	}
	return att, st, err
}

// prepare reads the text for an LLM pass: spans that do not fit the text
// are refused, and the given attributions laid over its dialogue lines.
func prepare(llm LLM, text string, sp []spans.Span, cast []Character, given []Attribution) (*doc, *castIndex, []Attribution, error) {
	if llm == nil {
		return nil, nil, nil, ErrNoLLM
	}
	for _, s := range sp {
		if s.Start < 0 || s.End > len(text) || s.Start > s.End {
			return nil, nil, nil, fmt.Errorf("span %s [%d,%d) of a %d-byte text: %w", s.ID, s.Start, s.End, len(text), ErrInvalid)
		}
	}
	d := newDoc(text, sp)
	return d, newCastIndex(cast), d.merge(given), nil
}

// merge lays given attributions over the doc's lines: one per dialogue span
// in text order, SourceNone where none was given.
func (d *doc) merge(given []Attribution) []Attribution {
	byID := make(map[string]Attribution, len(given))
	for _, a := range given {
		byID[a.SpanID] = a
	}
	att := make([]Attribution, len(d.lines))
	for i, l := range d.lines {
		a, ok := byID[l.Span.ID]
		if !ok || a.Source == "" {
			a = Attribution{SpanID: l.Span.ID, Source: SourceNone, Speaker: a.Speaker}
		}
		if a.Speaker == "" && a.Source != SourceExplicit {
			a.Source = SourceNone
		}
		att[i] = a
	}
	return att
}

// askAll asks about the lines ask (indexes into d.lines) in windows; the
// first window holds first lines (a shifted edge) when first > 0. known
// gives the speaker shown in the context for a line not asked. It returns
// the cast name answered per line.
func (d *doc) askAll(ctx context.Context, llm LLM, ci *castIndex, ask []int, known func(int) string, opt Options, first int) (map[int]string, Stats, error) {
	out := map[int]string{}
	var st Stats
	for _, w := range windows(len(ask), opt.Window, first) {
		if err := ctx.Err(); err != nil {
			return out, st, fmt.Errorf("ask speakers: %w", err)
		}
		lines := ask[w[0]:w[1]]
		user := d.prompt(ci, lines, known, opt, estimateTokens(speakersSystem))
		st.Requests++
		st.AskedSpans += len(lines)
		st.PromptTokens += estimateTokens(speakersSystem) + estimateTokens(user)
		raw, err := llm.ChatSchema(ctx, speakersSystem, user, "speakers", speakersSchema)
		if err != nil {
			return out, st, fmt.Errorf("ask speakers of %d lines: %w: %w", len(lines), ErrUpstream, err)
		}
		asked := map[string]int{}
		for _, i := range lines {
			asked[d.lines[i].Span.ID] = i
		}
		for id, name := range parseSpeakers(raw) {
			i, ok := asked[id]
			if !ok {
				continue // a span not asked in this request
			}
			if c := ci.resolveName(name); c >= 0 {
				out[i] = ci.chars[c].Name
			}
		}
	}
	return out, st, nil
}

// windows cuts n asked lines into [from, to) windows of at most size, of
// balanced sizes so no request is left with a handful of lines. When first
// is in (0, n) the first window holds first lines and the rest are cut
// after it (the verify pass's shifted edges).
func windows(n, size, first int) [][2]int {
	var out [][2]int
	start := 0
	if first > 0 && first < n {
		out = append(out, [2]int{0, first})
		start = first
	}
	rest := n - start
	if rest <= 0 {
		return out
	}
	k := (rest + size - 1) / size
	for j := 0; j < k; j++ {
		a := start + rest*j/k
		b := start + rest*(j+1)/k
		out = append(out, [2]int{a, b})
	}
	return out
}

// prompt writes the user message for the asked lines: the cast list, then
// the passages around them with each asked line marked by its id. It is
// trimmed to opt.TokensPerSpan per asked line, fixed (tokens of the
// system message) included: the context margin shrinks first, then long
// lines are cut in the middle, then the cast list loses its least
// mentioned characters.
func (d *doc) prompt(ci *castIndex, lines []int, known func(int) string, opt Options, fixed int) string {
	budget := (opt.TokensPerSpan*len(lines) - fixed) * 4 // bytes
	castText := castList(ci.chars, budget/3)
	room := budget - len(castText) - len("Cast:\n\nPassage:\n")
	var passage string
	for _, cut := range []int{400, 240, 120, 60} {
		m := sort.Search(opt.Context+1, func(m int) bool {
			return len(d.passage(lines, known, m, cut)) > room
		}) - 1
		if m >= 0 {
			passage = d.passage(lines, known, m, cut)
			break
		}
	}
	if passage == "" {
		passage = d.passage(lines, known, 0, 40)
	}
	return "Cast:\n" + castText + "\nPassage:\n" + passage
}

// castList writes "Name (alias, alias) [female]" lines, the first-person
// narrator (marked so) then the most mentioned first, within limit bytes.
func castList(chars []Character, limit int) string {
	order := make([]Character, len(chars))
	copy(order, chars)
	// The narrator first: "said I" lines name no one else, and a short
	// budget drops the least mentioned.
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].Narrator != order[j].Narrator {
			return order[i].Narrator
		}
		return order[i].Mentions > order[j].Mentions
	})
	var b strings.Builder
	for _, c := range order {
		entry := c.Name
		if len(c.Aliases) > 0 {
			entry += " (" + strings.Join(c.Aliases, ", ") + ")"
		}
		var marks []string
		if c.Gender != "" {
			marks = append(marks, c.Gender)
		}
		if c.Narrator {
			marks = append(marks, "narrator")
		}
		if len(marks) > 0 {
			entry += " [" + strings.Join(marks, ", ") + "]"
		}
		entry += "\n"
		if b.Len()+len(entry) > limit {
			break
		}
		b.WriteString(entry)
	}
	return b.String()
}

// passage renders the text around the asked lines: margin bytes on each
// side (within the chapter), overlapping stretches joined, gaps shown as
// "…", whitespace collapsed, asked lines wrapped in [[id]]…[[/]] and cut to
// cut bytes, other quotations preceded by {Speaker} when known.
func (d *doc) passage(lines []int, known func(int) string, margin, cut int) string {
	asked := map[int]bool{}
	for _, i := range lines {
		asked[i] = true
	}
	type rng struct{ a, b int }
	var rs []rng
	for _, i := range lines {
		l := d.lines[i]
		lo, hi := d.chapterBounds(i)
		a, b := max(lo, l.Span.Start-margin), min(hi, l.Span.End+margin)
		a, b = wordStart(d.text, a, l.Span.Start), wordEnd(d.text, b, l.Span.End)
		if n := len(rs); n > 0 && a <= rs[n-1].b+1 {
			rs[n-1].b = max(rs[n-1].b, b)
			continue
		}
		rs = append(rs, rng{a, b})
	}
	var out strings.Builder
	for ri, r := range rs {
		if ri > 0 {
			out.WriteString("\n…\n")
		}
		pos := r.a
		k := sort.Search(len(d.lines), func(k int) bool { return d.lines[k].Span.End > r.a })
		for ; k < len(d.lines) && d.lines[k].Span.Start < r.b; k++ {
			l := d.lines[k]
			s, e := max(l.Span.Start, pos), min(l.Span.End, r.b)
			writeCollapsed(&out, d.text[pos:s])
			switch {
			case asked[k]:
				out.WriteString("[[" + l.Span.ID + "]]")
				writeCollapsed(&out, cutMiddle(d.text[s:e], cut))
				out.WriteString("[[/]]")
			default:
				if name := known(k); name != "" && s == l.Span.Start {
					out.WriteString("{" + name + "}")
				}
				writeCollapsed(&out, cutMiddle(d.text[s:e], cut))
			}
			pos = e
		}
		if pos < r.b {
			writeCollapsed(&out, d.text[pos:r.b])
		}
	}
	return strings.TrimSpace(out.String())
}

// chapterBounds is the stretch of the line's chapter covered by dialogue
// lines and the text between them, widened to paragraphs.
func (d *doc) chapterBounds(i int) (int, int) {
	ch := d.lines[i].Span.Chapter
	lo, hi := i, i
	for lo > 0 && d.lines[lo-1].Span.Chapter == ch {
		lo--
	}
	for hi+1 < len(d.lines) && d.lines[hi+1].Span.Chapter == ch {
		hi++
	}
	a, b := d.paras[d.lines[lo].Para].Start, d.paras[d.lines[hi].Para].End
	if lo > 0 {
		a = max(a, d.lines[lo-1].Span.End)
	}
	if hi+1 < len(d.lines) {
		b = min(b, d.lines[hi+1].Span.Start)
	}
	return a, b
}

// wordStart moves a forward to the start of a word (not past limit).
func wordStart(text string, a, limit int) int {
	for a < limit && a > 0 && text[a-1] != ' ' && text[a-1] != '\n' {
		a++
	}
	return a
}

// wordEnd moves b back to the end of a word (not before limit).
func wordEnd(text string, b, limit int) int {
	for b > limit && b < len(text) && text[b] != ' ' && text[b] != '\n' {
		b--
	}
	return b
}

// cutMiddle keeps the head and tail of a long quotation, where the cues
// to its speaker are, within n bytes.
func cutMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := n * 2 / 3
	tail := n - head - len(" … ")
	for head > 0 && !utf8Start(s[head]) {
		head--
	}
	t := len(s) - tail
	for t < len(s) && !utf8Start(s[t]) {
		t++
	}
	return s[:head] + " … " + s[t:]
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// writeCollapsed writes s with runs of whitespace as one space, and a
// paragraph break as a newline.
func writeCollapsed(b *strings.Builder, s string) {
	space, nl := false, 0
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			space = true
			if r == '\n' {
				nl++
			}
			continue
		}
		if space {
			if nl >= 2 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
			space, nl = false, 0
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
}

// parseSpeakers reads an answer tolerantly: code fences and prose around
// the JSON, trailing commas, "id"/"span_id"/"spanId" for "span", names
// under "speaker"/"name"/"character", a bare array, or an object mapping
// ids to names. Ids may keep their [[ ]] marks. Unreadable answers give
// nothing.
func parseSpeakers(raw string) map[string]string {
	out := map[string]string{}
	v, ok := looseJSON(raw)
	if !ok {
		return out
	}
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case map[string]any:
		for _, key := range []string{"speakers", "attributions", "lines", "answers", "results"} {
			if arr, ok := x[key].([]any); ok {
				items = arr
				break
			}
		}
		if items == nil {
			for k, val := range x {
				if name, ok := val.(string); ok {
					out[cleanID(k)] = name
				}
			}
		}
	}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		id := firstString(m, "span", "id", "span_id", "spanId", "spanID")
		name := firstString(m, "speaker", "name", "character")
		if id != "" && name != "" {
			out[cleanID(id)] = name
		}
	}
	return out
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

func cleanID(id string) string {
	return strings.TrimSpace(strings.Trim(strings.TrimSpace(id), "[]"))
}

// looseJSON finds the JSON value in an answer: inside a code fence or
// between the first opening bracket and the last closing one, trailing
// commas removed.
func looseJSON(raw string) (any, bool) {
	s := raw
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			s = rest[:j]
		}
	}
	a := strings.IndexAny(s, "{[")
	b := strings.LastIndexAny(s, "}]")
	if a < 0 || b < a {
		return nil, false
	}
	s = dropTrailingCommas(s[a : b+1])
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, false
	}
	return v, true
}

// dropTrailingCommas removes commas before a closing bracket, outside
// strings.
func dropTrailingCommas(s string) string {
	var b strings.Builder
	inStr, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			b.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
		}
		if c == ',' {
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\n' || s[j] == '\t' || s[j] == '\r') {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

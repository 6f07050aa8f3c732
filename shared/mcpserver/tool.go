package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool is one MCP tool: its definition (name, title, description, input
// schema, annotations), the toolset it belongs to, and its handler.
type Tool struct {
	Toolset string
	Def     *mcp.Tool
	Handler mcp.ToolHandler
}

// hints are a tool's four annotations, each set on purpose for every tool.
type hints struct {
	readOnly, destructive, idempotent, openWorld bool
}

// doc is a tool's documentation, in the parts the spec asks for; the
// inputs are listed from the schema, so they cannot drift from it.
type doc struct {
	purpose string // what it does
	notDo   string // what it does not do
	returns string // what a success answers
	use     string // when to use it (and when not)
	errors  string // its own error cases, beyond the common ones
}

// spec names a tool.
type spec struct {
	name, title string
	doc         doc
	hints       hints
}

// call is what a running tool may use besides its input: progress, logs
// and the session (for elicitation).
type call struct {
	req *mcp.CallToolRequest
	log *slog.Logger
}

// inputRequired is an answer that asks the client for input first (a
// multi round-trip request): the client answers the requests and calls the
// tool again with the responses and the state. The SDK asks clients on
// older protocol versions itself, with elicitation/create, and calls the
// tool again for them.
type inputRequired struct {
	requests mcp.InputRequestMap
	state    string
}

// responses are the client's answers to an earlier inputRequired, with
// its state; none on a first call.
func (c *call) responses() (mcp.InputResponseMap, string) {
	if c.req == nil || c.req.Params == nil {
		return nil, ""
	}
	return c.req.Params.InputResponses, c.req.Params.RequestState
}

// renderer is an answer that has a markdown form; json is the value itself.
type renderer interface{ Markdown() string }

// formatted is an input with a response_format field.
type formatted interface{ format() string }

// checker is an input with rules between fields, checked after the schema.
type checker interface{ check() error }

// newTool builds a tool from its input type In: the schema is inferred from
// In, shaped by shape (constraints the struct tags cannot carry) and the
// shared fields' rules, and every call is stripped, validated and decoded
// before run sees it.
func newTool[In any](toolset string, s spec, log *slog.Logger, shape func(*jsonschema.Schema), run func(context.Context, *call, In) (any, error)) Tool {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", s.name, err)) // a type the schema cannot describe is a programming error
	}
	sharedFields(schema)
	idRules(schema)
	if shape != nil {
		shape(schema)
	}
	resolved, err := schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("tool %s: resolve schema: %v", s.name, err))
	}
	def := &mcp.Tool{
		Name:        s.name,
		Title:       s.title,
		Description: description(s.doc, schema),
		InputSchema: schema,
		Annotations: &mcp.ToolAnnotations{
			Title:           s.title,
			ReadOnlyHint:    s.hints.readOnly,
			DestructiveHint: &s.hints.destructive,
			IdempotentHint:  s.hints.idempotent,
			OpenWorldHint:   &s.hints.openWorld,
		},
	}
	handler := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := decodeInput[In](req.Params.Arguments, resolved)
		if err != nil {
			return errorResult(err), nil
		}
		c := &call{req: req, log: log}
		c.debug(ctx, "tool call", "tool", s.name)
		out, err := run(ctx, c, in)
		if err != nil {
			c.error(ctx, "tool failed", "tool", s.name, "err", err.Error())
			return errorResult(err), nil
		}
		if ir, ok := out.(inputRequired); ok {
			return &mcp.CallToolResult{InputRequests: ir.requests, RequestState: ir.state}, nil
		}
		text, err := render(out, formatOf(in))
		if err != nil {
			return errorResult(err), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	}
	return Tool{Toolset: toolset, Def: def, Handler: handler}
}

func formatOf(in any) string {
	if f, ok := in.(formatted); ok {
		return f.format()
	}
	return formatMarkdown
}

// render is an answer as the text the model reads: markdown, or complete
// JSON; either way without invisible control characters.
func render(out any, format string) (string, error) {
	if s, ok := out.(string); ok && format != formatJSON {
		return clean(s), nil
	}
	if r, ok := out.(renderer); ok && format != formatJSON {
		return clean(r.Markdown()), nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("encode answer: %w", err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "", fmt.Errorf("encode answer: %w", err)
	}
	b, err = json.MarshalIndent(cleanValue(v), "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode answer: %w", err)
	}
	return string(b), nil
}

// errorResult is a failed call: the spec's "Error: …" text.
func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: ErrorText(err)}}}
}

// decodeInput strips whitespace from every string, applies the schema's
// defaults, validates against it (so a blank string fails a minimum length)
// and decodes strictly into In.
func decodeInput[In any](raw json.RawMessage, resolved *jsonschema.Resolved) (In, error) {
	var in In
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return in, fmt.Errorf("%w: arguments are not JSON: %v", ErrInvalid, err)
	}
	m, ok := trimStrings(v).(map[string]any)
	if !ok {
		return in, fmt.Errorf("%w: arguments must be an object", ErrInvalid)
	}
	if err := resolved.ApplyDefaults(&m); err != nil {
		return in, fmt.Errorf("%w: arguments: %v", ErrInvalid, err)
	}
	if err := resolved.Validate(m); err != nil {
		return in, fmt.Errorf("%w: %s", ErrInvalid, strings.TrimPrefix(err.Error(), "validating root: "))
	}
	b, err := json.Marshal(m)
	if err != nil {
		return in, fmt.Errorf("%w: arguments: %v", ErrInvalid, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, fmt.Errorf("%w: arguments: %v", ErrInvalid, err)
	}
	if c, ok := any(in).(checker); ok {
		if err := c.check(); err != nil {
			return in, err
		}
	}
	return in, nil
}

// trimStrings strips leading and trailing whitespace from every string in a
// decoded JSON value.
func trimStrings(v any) any { return mapStrings(v, strings.TrimSpace) }

// commonErrors are the errors every tool may answer, from the spec's table.
const commonErrors = "Every failure is a text starting with \"Error:\": invalid input (a field outside its limits, an unknown field); " +
	"resource not found (404: check the id); permission denied (403); rate limit exceeded (429: wait before retrying); " +
	"invalid API authentication (401: the Lectern token); API request failed with the status code (409 when the page or " +
	"issue changed since it was read); request timed out (30 s: try again); unexpected error with its type name."

// description assembles a tool's documentation: purpose, what it does not
// do, inputs (from the schema), returns, when to use it, errors.
func description(d doc, schema *jsonschema.Schema) string {
	var b strings.Builder
	b.WriteString(d.purpose)
	if d.notDo != "" {
		b.WriteString("\n\nDoes not: " + d.notDo)
	}
	b.WriteString("\n\nInputs:")
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	if len(schema.PropertyOrder) == len(names) {
		names = slices.Clone(schema.PropertyOrder)
	} else {
		slices.Sort(names)
	}
	if len(names) == 0 {
		b.WriteString(" none.")
	}
	for _, name := range names {
		p := schema.Properties[name]
		req := "optional"
		if slices.Contains(schema.Required, name) {
			req = "required"
		}
		fmt.Fprintf(&b, "\n- %s (%s, %s): %s", name, typeOf(p), req, p.Description)
	}
	b.WriteString("\n\nReturns: " + d.returns)
	b.WriteString("\n\nWhen to use: " + d.use)
	b.WriteString("\n\nErrors: ")
	if d.errors != "" {
		b.WriteString(d.errors + " ")
	}
	b.WriteString(commonErrors)
	return b.String()
}

func typeOf(s *jsonschema.Schema) string {
	t := s.Type
	if t == "" && len(s.Types) > 0 {
		t = strings.Join(s.Types, " or ")
	}
	if t == "array" && s.Items != nil {
		t = "array of " + typeOf(s.Items)
	}
	if len(s.Enum) > 0 {
		var vals []string
		for _, e := range s.Enum {
			vals = append(vals, fmt.Sprint(e))
		}
		t += ": " + strings.Join(vals, " | ")
	}
	return t
}

// progress reports a 0–1 fraction with a message, when the client asked for
// progress (sent a token).
func (c *call) progress(ctx context.Context, fraction float64, message string) {
	if c.req == nil || c.req.Session == nil {
		return
	}
	token := c.req.Params.GetProgressToken()
	if token == nil {
		return
	}
	fraction = min(max(fraction, 0), 1)
	if err := c.req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: token, Progress: fraction, Total: 1, Message: message,
	}); err != nil {
		c.log.Debug("progress notification", "err", err)
	}
}

func (c *call) info(ctx context.Context, msg string, args ...any) {
	c.emit(ctx, slog.LevelInfo, "info", msg, args)
}
func (c *call) error(ctx context.Context, msg string, args ...any) {
	c.emit(ctx, slog.LevelError, "error", msg, args)
}
func (c *call) debug(ctx context.Context, msg string, args ...any) {
	c.emit(ctx, slog.LevelDebug, "debug", msg, args)
}

// emit logs to the server's log (stderr) and, at the level the client set,
// to the client as a notifications/message with structured data.
func (c *call) emit(ctx context.Context, level slog.Level, mcpLevel mcp.LoggingLevel, msg string, args []any) {
	c.log.Log(ctx, level, msg, args...)
	if c.req == nil || c.req.Session == nil {
		return
	}
	data := map[string]any{"message": msg}
	for i := 0; i+1 < len(args); i += 2 {
		data[fmt.Sprint(args[i])] = args[i+1]
	}
	if err := c.req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: mcpLevel, Logger: ServerName, Data: data}); err != nil && !errors.Is(err, context.Canceled) {
		c.log.Debug("log notification", "err", err)
	}
}

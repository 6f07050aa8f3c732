package mcpserver

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func inputSchema(t *testing.T, tool Tool) *jsonschema.Schema {
	t.Helper()
	s, ok := tool.Def.InputSchema.(*jsonschema.Schema)
	if !ok {
		t.Fatalf("%s: input schema is a %T", tool.Def.Name, tool.Def.InputSchema)
	}
	return s
}

// TestEveryToolFollowsTheConventions guards what the spec asks of every
// tool: a lectern_<verb>_<noun> name, a title, documentation in its parts,
// a closed input object whose fields are all described, response_format,
// and paging on every list.
func TestEveryToolFollowsTheConventions(t *testing.T) {
	name := regexp.MustCompile(`^lectern_[a-z]+_[a-z_]+$`)
	seen := map[string]bool{}
	for _, tool := range allTools(t) {
		d := tool.Def
		if !name.MatchString(d.Name) {
			t.Errorf("%s: not a lectern_<verb>_<noun> name", d.Name)
		}
		if seen[d.Name] {
			t.Errorf("%s: two tools share the name", d.Name)
		}
		seen[d.Name] = true
		if d.Title == "" || d.Annotations == nil || d.Annotations.Title != d.Title {
			t.Errorf("%s: needs a title, also in its annotations", d.Name)
		}
		for _, part := range []string{"Does not: ", "Inputs:", "Returns: ", "When to use: ", "Errors: ", `"Error:"`} {
			if !strings.Contains(d.Description, part) {
				t.Errorf("%s: description lacks %q", d.Name, part)
			}
		}
		s := inputSchema(t, tool)
		if s.Type != "object" || s.AdditionalProperties == nil || s.AdditionalProperties.Not == nil {
			t.Errorf("%s: the input must be an object that refuses extra fields: %+v", d.Name, s.AdditionalProperties)
		}
		for field, p := range s.Properties {
			typ := p.Type
			for _, t := range p.Types {
				if t != "null" {
					typ = t
				}
			}
			if p.Description == "" {
				t.Errorf("%s: field %s has no description", d.Name, field)
			}
			if typ == "string" && p.MaxLength == nil && p.Pattern == "" && len(p.Enum) == 0 {
				t.Errorf("%s: string field %s has no length, pattern or enum limit", d.Name, field)
			}
			if typ == "array" && p.MaxItems == nil {
				t.Errorf("%s: list field %s has no item limit", d.Name, field)
			}
			if typ == "integer" && p.Minimum == nil {
				t.Errorf("%s: integer field %s has no range", d.Name, field)
			}
		}
		if _, ok := s.Properties["response_format"]; !ok {
			t.Errorf("%s: no response_format", d.Name)
		}
		_, hasLimit := s.Properties["limit"]
		_, hasOffset := s.Properties["offset"]
		if strings.HasPrefix(d.Name, "lectern_list_") || strings.HasPrefix(d.Name, "lectern_search_") {
			if !hasLimit || !hasOffset {
				t.Errorf("%s: a list needs limit and offset", d.Name)
			}
		}
		if hasLimit != hasOffset {
			t.Errorf("%s: limit and offset go together", d.Name)
		}
	}
}

// TestAnnotationsPerTool states each tool's four hints on purpose: a new
// tool fails here until its hints are written down.
func TestAnnotationsPerTool(t *testing.T) {
	// readOnly, destructive, idempotent, openWorld
	want := map[string][4]bool{
		"lectern_list_issues":              {true, false, true, false},
		"lectern_get_issue_status":         {true, false, true, false},
		"lectern_get_page_regions":         {true, false, true, false},
		"lectern_edit_region":              {false, true, true, false},
		"lectern_delete_region":            {false, true, false, false},
		"lectern_split_region":             {false, true, false, false},
		"lectern_merge_regions":            {false, true, false, false},
		"lectern_retype_regions":           {false, true, true, false},
		"lectern_undo_change":              {false, true, false, false},
		"lectern_set_reading_order":        {false, true, true, false},
		"lectern_list_articles":            {true, false, true, false},
		"lectern_get_article_text":         {true, false, true, false},
		"lectern_approve_article":          {false, false, true, false},
		"lectern_review_proposal":          {false, true, false, false},
		"lectern_upload_issue":             {false, false, false, true},
		"lectern_describe_figure":          {false, true, false, true},
		"lectern_list_books":               {true, false, true, false},
		"lectern_import_book":              {false, false, false, true},
		"lectern_cast_book":                {false, true, false, true},
		"lectern_get_segments":             {true, false, true, false},
		"lectern_set_speaker":              {false, true, true, false},
		"lectern_edit_cast":                {false, true, false, false},
		"lectern_render_book":              {false, true, false, true},
		"lectern_list_character_sets":      {true, false, true, false},
		"lectern_list_characters":          {true, false, true, false},
		"lectern_get_character":            {true, false, true, false},
		"lectern_generate_character_image": {false, true, false, true},
		"lectern_search_voices":            {true, false, true, false},
		"lectern_preview_voice":            {false, false, true, true},
		"lectern_list_engines":             {true, false, true, false},
		"lectern_get_engine_status":        {true, false, true, true},
		"lectern_connect_engine":           {true, false, true, true},
		"lectern_use_engine_as_llm":        {false, true, true, true},
		"lectern_set_engine_key":           {false, true, true, true},
	}
	var names []string
	for _, tool := range allTools(t) {
		a := tool.Def.Annotations
		names = append(names, tool.Def.Name)
		w, ok := want[tool.Def.Name]
		if !ok {
			t.Errorf("%s: no expected annotations; add its hints to this table", tool.Def.Name)
			continue
		}
		if a.DestructiveHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: destructive and openWorld hints must be set, not left to their defaults", tool.Def.Name)
			continue
		}
		got := [4]bool{a.ReadOnlyHint, *a.DestructiveHint, a.IdempotentHint, *a.OpenWorldHint}
		if got != w {
			t.Errorf("%s: hints (readOnly, destructive, idempotent, openWorld) = %v, want %v", tool.Def.Name, got, w)
		}
		if got[0] && got[1] {
			t.Errorf("%s: a read-only tool cannot be destructive", tool.Def.Name)
		}
	}
	for n := range want {
		if !slices.Contains(names, n) {
			t.Errorf("%s is expected but not built", n)
		}
	}
}

// TestToolsetsEnableOneByOne checks each toolset alone gives only its
// tools, and an unknown one is refused.
func TestToolsetsEnableOneByOne(t *testing.T) {
	c, err := NewClient("http://127.0.0.1:1", "", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, ts := range Toolsets() {
		tools, err := AllTools(c, Options{Toolsets: []string{ts}})
		if err != nil {
			t.Fatal(err)
		}
		if len(tools) == 0 {
			t.Errorf("toolset %s has no tools", ts)
		}
		for _, tool := range tools {
			if tool.Toolset != ts {
				t.Errorf("toolset %s gave %s of %s", ts, tool.Def.Name, tool.Toolset)
			}
		}
		total += len(tools)
	}
	if all := len(allTools(t)); all != total {
		t.Errorf("the toolsets add up to %d tools, all of them are %d", total, all)
	}
	if _, err := AllTools(c, Options{Toolsets: []string{"nosuchtoolset"}}); err == nil {
		t.Error("an unknown toolset was accepted")
	}
}
